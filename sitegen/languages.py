"""The site's languages: the one list is the i18n plugin's ``languages`` in ``mkdocs.yml``
(each language's code, name, site name and navigation titles). Everything else that needs the
list (the catalogs, the lessons, the tests) reads it from there; the default language comes
first."""

from __future__ import annotations

import functools
from pathlib import Path

import yaml

from . import BuildError

ROOT = Path(__file__).resolve().parent.parent


class _Loader(yaml.SafeLoader):
    """mkdocs.yml may hold MkDocs' own tags (``!ENV``, ``!!python/name``): read them as text."""


_Loader.add_multi_constructor("", lambda loader, suffix, node: None)
_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def i18n_languages(config_file: Path) -> list[dict]:
    """The i18n plugin's language entries in a MkDocs config file."""
    try:
        config = yaml.load(config_file.read_text(encoding="utf-8"), Loader=_Loader)  # noqa: S506
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
    """The language codes, the default one first: ``("en", "ro", "hu", "it")``."""
    entries = i18n_languages(Path(root) / "mkdocs.yml")
    codes = [e["locale"] for e in entries if e.get("default")]
    codes += [e["locale"] for e in entries if not e.get("default")]
    return tuple(codes)
