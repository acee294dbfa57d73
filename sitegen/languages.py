"""The site's languages: the one list is the i18n plugin's ``languages`` in ``mkdocs.yml``
(each language's code, name, site name and navigation titles). Everything else that needs the
list (the catalogs, the lessons, the tests) reads it from there; the default language comes
first."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml

from . import BuildError

ROOT = Path(__file__).resolve().parent.parent


class _Loader(yaml.SafeLoader):
    """mkdocs.yml may hold MkDocs' own tags (``!ENV``, ``!!python/name``): read them as text."""


_Loader.add_multi_constructor("", lambda loader, suffix, node: None)
_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def i18n_languages(config_file: Path) -> list[dict[str, Any]]:
    """The i18n plugin's language entries in a MkDocs config file (as YAML gives them)."""
    try:
        config = yaml.load(config_file.read_text(encoding="utf-8"), Loader=_Loader)
    except (OSError, yaml.YAMLError) as error:
        raise BuildError(f"{config_file}: cannot read it: {' '.join(str(error).split())}") from None
    for plugin in config.get("plugins") or []:
        if isinstance(plugin, dict) and "i18n" in plugin:
            entries = (plugin["i18n"] or {}).get("languages") or []
            if entries:
                return entries
    raise BuildError(f"{config_file}: no languages in the i18n plugin's configuration")


@functools.lru_cache(maxsize=4)
def languages(root: Path = ROOT) -> tuple[str, ...]:
    """The language codes, the default one first: ``("en", "ro", "hu", "it")``. A language the
    site cannot have (no Material or lunr.js support), one given twice, or a list without
    exactly one default stops the build with mkdocs.yml's line."""
    config_file = Path(root) / "mkdocs.yml"
    entries = i18n_languages(config_file)
    seen: list[str] = []
    for entry in entries:
        code = entry.get("locale") if isinstance(entry, dict) else None
        where = f"{config_file}:{_locale_line(config_file, code, seen.count(str(code)))}"
        if not isinstance(code, str) or code not in supported():
            raise BuildError(
                f"{where}: the site cannot have the language {code!r}: Material for MkDocs and "
                f"lunr.js both support only {', '.join(supported())}"
            )
        if code in seen:
            raise BuildError(f"{where}: the language {code!r} is listed twice")
        seen.append(code)
    defaults = [e["locale"] for e in entries if e.get("default")]
    if len(defaults) != 1:
        raise BuildError(
            f"{config_file}:{_locale_line(config_file, None)}: exactly one of the i18n plugin's "
            f"languages has default: true, not {len(defaults)}"
        )
    return tuple(defaults + [e["locale"] for e in entries if not e.get("default")])


def _locale_line(config_file: Path, code: object, skip: int = 0) -> int:
    """The line of mkdocs.yml naming the language ``code`` (None: the list's first language),
    after ``skip`` earlier lines naming it."""
    lines = config_file.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        words = line.replace("-", " ").split()
        named = " ".join(words[1:]).strip("'\"")
        if words[:1] == ["locale:"] and (code is None or named == str(code)):
            if not skip:
                return number
            skip -= 1
    return 1


# --- adding a language -----------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def supported() -> tuple[str, ...]:
    """The language codes a new language may have: Material for MkDocs has its interface
    strings and lunr.js (as material ships it, and as the i18n plugin adds it to the search)
    its stemmer."""
    import material
    from mkdocs_static_i18n.reconfigure import LUNR_LANGUAGES

    templates = Path(material.__file__).parent / "templates"
    interface = {p.stem for p in (templates / "partials/languages").glob("*.html")}
    stemmers = {
        p.name.split(".")[1]
        for p in (templates / "assets/javascripts/lunr/min").glob("lunr.*.min.js")
    } | {"en"}
    return tuple(sorted(interface & stemmers & set(LUNR_LANGUAGES)))


def language_name(code: str) -> str:
    """The language's name in itself, as the switcher shows it: "Deutsch", "Français"."""
    from babel import Locale

    locale = Locale.parse(code, sep="-")
    name = locale.get_display_name(locale) or locale.english_name
    return name[:1].upper() + name[1:]  # type: ignore[index]  # Babel names every language it parses


def register(config_file: Path, code: str, name: str) -> None:
    """Add a language at the end of the i18n plugin's ``languages`` in a MkDocs config file,
    keeping the rest of the file (comments included) as it is."""
    lines = config_file.read_text(encoding="utf-8").splitlines(keepends=True)
    i18n = next((n for n, line in enumerate(lines) if line.strip() == "- i18n:"), None)
    start = (
        next((n for n in range(i18n + 1, len(lines)) if lines[n].strip() == "languages:"), None)
        if i18n is not None
        else None
    )
    if start is None:
        raise BuildError(f"{config_file}: no languages in the i18n plugin's configuration")
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    for n in range(start + 1, len(lines)):
        text = lines[n].strip()
        if text and len(lines[n]) - len(lines[n].lstrip()) <= indent:
            break
        if text:
            end = n + 1
    item = " " * (indent + 2)
    entry = [f"{item}- locale: {code}\n", f"{item}  name: {name}\n", f"{item}  build: true\n"]
    config_file.write_text("".join(lines[:end] + entry + lines[end:]), encoding="utf-8")
    languages.cache_clear()
    try:
        added = i18n_languages(config_file)[-1].get("locale") == code
    except BuildError:
        added = False
    if not added:  # laid out otherwise than this function reads it: leave it as it was
        config_file.write_text("".join(lines), encoding="utf-8")
        raise BuildError(
            f"{config_file}: cannot add {code!r} to the i18n plugin's languages: "
            f"add it by hand (locale, name, build: true)"
        )
