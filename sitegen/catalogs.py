"""The locale catalogs: ``locales/messages.pot`` holds the English source text and
``locales/<lang>.po`` one translation per language, each message keyed by its ``msgctxt``.

The build reads them with Babel into :class:`ginview.catalog.Catalog` objects (strict: a
message the site asks for and the catalogs lack stops the build) and installs them for the
presentation layer; the same catalogs, as JSON, go into the wheel the browser runs
(:func:`catalog_json`). A translation that is missing, fuzzy or translates an older English text
falls back to the English text, and :func:`problems` lists it; one of the English as it is with
other placeholders (a typo: ``{pints}``) stops the build with its file and line.
"""

from __future__ import annotations

import datetime
import functools
import io
import re
import string
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from ginview.catalog import OWN_FORMS, Catalog, install, to_json

from . import BuildError
from .languages import languages

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"
SOURCE = "messages.pot"


def placeholders(text: str | tuple[str, ...]) -> set[str]:
    """The ``{name}`` placeholders in a message (all its plural forms)."""
    forms = (text,) if isinstance(text, str) else text
    try:
        return {name for form in forms for _, name, _, _ in string.Formatter().parse(form) if name}
    except ValueError:  # a lone { or }: never the English placeholders, so never shipped
        return {"(a lone { or })"}


STRING = r'"(?:[^"\\]|\\.)*"'
LINE = re.compile(
    rf"^(?:#.*|(?:msgctxt|msgid|msgid_plural|msgstr|msgstr\[\d\]) {STRING}|{STRING})?$"
)
"""A line of a .po file: a comment, a keyword with its quoted text, a continued text, or blank."""


def check_syntax(path: Path, text: str) -> None:
    """Stop at the first line that is not .po syntax (an unterminated string, a stray word),
    and at an entry with no translation line: Babel would read past them silently."""
    entry: dict[str, int] = {}
    for number, line in enumerate(text.splitlines() + [""], 1):
        line = line.strip()
        if not LINE.match(line):
            raise BuildError(f"{path}:{number}: not a line of a catalog: {line[:60]!r}")
        keyword = line.split(" ", 1)[0]
        if keyword.startswith("msg"):
            entry.setdefault(keyword.split("[")[0], number)
        elif not line and entry:
            if "msgid" in entry and "msgstr" not in entry:
                raise BuildError(f"{path}:{entry['msgid']}: the entry has no msgstr line")
            entry = {}


def _read(path: Path) -> Any:  # a Babel Catalog (Babel has no type information)
    try:
        text = path.read_bytes().decode("utf-8-sig")  # a byte order mark, as some editors write
    except OSError as error:
        raise BuildError(f"{path}: cannot read the catalog: {error.strerror}") from None
    except UnicodeDecodeError:
        raise BuildError(f"{path}: not a UTF-8 text file") from None
    check_syntax(path, text)
    try:
        catalog = read_po(io.BytesIO(text.encode("utf-8")), abort_invalid=True)
    except Exception as error:
        problem = " ".join(str(error).split())
        found = re.fullmatch(r"(.*) on (\d+)", problem)  # Babel names the line at the end
        where, problem = (f"{path}:{found[2]}", found[1]) if found else (str(path), problem)
        if "num_plurals" in problem:
            problem = "this message has more forms than the Plural-Forms header's nplurals"
        raise BuildError(f"{where}: not a valid catalog: {problem}") from None
    check_plural_rule(path, text, catalog)
    return catalog


PLURAL_NUMBERS = range(1001)
"""The numbers a plural rule is tried on: a rule of any language repeats within them."""


def check_plural_rule(path: Path, text: str, catalog: Any) -> None:  # a Babel Catalog
    """Stop at a ``Plural-Forms`` header whose rule does not compile, or gives some number a
    form the catalog does not have: a message would silently take a wrong form."""
    from ginview.catalog import plural_rule

    line = next(
        (n for n, l in enumerate(text.splitlines(), 1) if l.startswith('"Plural-Forms:')), 1
    )
    try:
        rule = plural_rule(catalog.plural_expr)
        forms = {n: rule(n) for n in PLURAL_NUMBERS}
    except (ValueError, SyntaxError, ArithmeticError, RecursionError) as error:
        raise BuildError(
            f"{path}:{line}: the Plural-Forms header's rule is not one: {error}"
        ) from None
    wrong = next((n for n, form in forms.items() if not 0 <= form < catalog.num_plurals), None)
    if wrong is not None:
        raise BuildError(
            f"{path}:{line}: the Plural-Forms rule gives {wrong} the form {forms[wrong]}, but "
            f"there are {catalog.num_plurals} forms (nplurals), numbered from 0"
        )


def _message(m: Any) -> str | tuple[str, ...]:  # m: a Babel Message
    return m.id if isinstance(m.id, str) else tuple(m.id)


def source_messages(locales: Path = LOCALES) -> dict[str, str | tuple[str, ...]]:
    """The English messages, by key, from the template."""
    return {m.context: _message(m) for m in _read(locales / SOURCE) if m.id and m.context}


def _translation(m: Any) -> str | tuple[str, ...] | None:  # m: a Babel Message
    if m.fuzzy:
        return None
    if isinstance(m.string, str):
        return m.string or None
    forms = tuple(m.string)
    return forms if all(forms) else None


def load(language: str, locales: Path = LOCALES) -> Catalog:
    """The catalog of one language (``en`` is the template's own text), strict."""
    stamp = tuple(p.stat().st_mtime_ns for p in sorted(locales.glob("*.po*")))
    return _load(language, locales, stamp)


@functools.lru_cache(maxsize=16)
def _load(language: str, locales: Path, stamp: tuple[int, ...]) -> Catalog:
    """:func:`load`, read again only when a catalog file changed (``stamp``)."""
    messages = source_messages(locales)
    source = dict(messages)
    plural = "(n != 1)"
    path = locales / f"{language}.po"
    if language != "en" and path.is_file():
        catalog = _read(path)
        # The language's plural rule once one of its plural messages is translated: until then
        # (a new language) the English forms keep the English rule.
        if any(_translation(m) and not isinstance(m.id, str) for m in catalog):
            plural = catalog.plural_expr
        for m in catalog:
            text = _translation(m)
            if text is None or not m.context:
                continue
            english = messages.get(m.context)
            if english is not None and placeholders(text) != placeholders(english):
                if _message(m) == source[m.context]:  # a translation of the English as it is
                    raise BuildError(
                        f"{path}:{m.lineno}: the translation of {m.context!r} has the "
                        f"placeholders {_listed(placeholders(text))}, the English "
                        f"{_listed(placeholders(english))}: write those of the English"
                    )
                continue  # it translates an older English text: the English is shown
            if english is not None:
                messages[m.context] = text
            elif OWN_FORMS.match(m.context):
                messages[m.context] = text  # a form this language's grammar needs
    return Catalog(language, messages, plural, strict=True)


def _listed(names: set[str]) -> str:
    return ", ".join(f"{{{name}}}" for name in sorted(names)) or "none"


def install_all(locales: Path = LOCALES, root: Path = ROOT) -> dict[str, Catalog]:
    """Read every language's catalog and install them for the presentation layer. A language
    of mkdocs.yml without a catalog stops the build."""
    for lang in languages(root)[1:]:
        if not (locales / f"{lang}.po").is_file():
            raise BuildError(
                f"{locales / f'{lang}.po'}: no catalog for {lang!r}, a language of mkdocs.yml: "
                f"add it (every message of {SOURCE}), or remove the language"
            )
    catalogs = {lang: load(lang, locales) for lang in languages(root)}
    install(catalogs)
    return catalogs


def catalog_json(language: str, locales: Path = LOCALES) -> dict[str, object]:
    """A catalog as the wheel ships it (not strict: the browser never fails on a message)."""
    return to_json(load(language, locales))


FUZZY, OLD = "marked fuzzy", "translates an old English text"


def _problem(message: Any, english: str | tuple[str, ...]) -> str | None:
    """What is wrong with the translation of one message (a Babel Message, or None when the
    catalog lacks it), None when nothing is."""
    if message is None:
        return "not translated"
    if message.fuzzy:
        return FUZZY
    translation = _translation(message)
    if translation is None:
        return "empty translation"
    if _message(message) != english:
        return OLD
    if placeholders(translation) != placeholders(english):
        return (
            f"placeholders {sorted(placeholders(translation))} differ from the "
            f"English {sorted(placeholders(english))}"
        )
    return None


def message_states(language: str, locales: Path = LOCALES) -> dict[str, str]:
    """Each English message's state in a language's catalog: ``translated``, ``fuzzy``
    (marked so, or translating an older English text) or ``missing``."""
    path = locales / f"{language}.po"
    entries = {m.context: m for m in _read(path) if m.id} if path.is_file() else {}
    states = {}
    for key, english in source_messages(locales).items():
        problem = _problem(entries.get(key), english)
        states[key] = (
            "translated" if problem is None else "fuzzy" if problem in (FUZZY, OLD) else "missing"
        )
    return states


def problems(locales: Path = LOCALES, root: Path = ROOT) -> list[str]:
    """Everything wrong with the translations: missing, empty, fuzzy or extra entries, and
    placeholders that differ from the English. An empty list means all is well."""
    found = []
    source = source_messages(locales)
    for language in languages(root)[1:]:
        path = locales / f"{language}.po"
        if not path.exists():
            found.append(f"{path.name}: missing catalog")
            continue
        entries = {m.context: m for m in _read(path) if m.id}
        for key, english in source.items():
            problem = _problem(entries.get(key), english)
            if problem:
                found.append(f"{path.name}: {key}: {problem}")
        for key in sorted(set(entries) - set(source)):
            if not OWN_FORMS.match(key):
                found.append(f"{path.name}: {key}: not in {SOURCE}")
            elif _translation(entries[key]) is None:
                found.append(f"{path.name}: {key}: empty translation")
    return found


def new_catalog(language: str, locales: Path = LOCALES) -> Path:
    """Write ``locales/<language>.po`` from the template: every message, none translated, with
    the language's plural rule (from Babel's locale data)."""
    from babel import Locale
    from babel.messages.catalog import Catalog as PoCatalog
    from babel.messages.pofile import write_po

    locale = Locale.parse(language, sep="-")
    catalog = PoCatalog(
        locale=locale,
        project="gin-rummy-site",
        version="1.0",
        fuzzy=False,
        language_team=locale.english_name,
        last_translator="Gin rummy site translators",
        revision_date=datetime.datetime.now(datetime.UTC),
    )
    catalog.header_comment = (
        f"# {locale.english_name} translation of the gin rummy rules site.\n"
        "# Each message is keyed by its msgctxt; the {name} placeholders must match the English."
    )
    for m in _read(locales / SOURCE):
        if m.id and m.context:
            empty = "" if isinstance(m.id, str) else ("",) * catalog.num_plurals
            catalog.add(m.id, empty, context=m.context, auto_comments=m.auto_comments)
    text = io.BytesIO()
    write_po(text, catalog, width=1000, omit_header=False)
    path = locales / f"{language}.po"
    path.write_bytes(re.sub(rb'"Report-Msgid-Bugs-To: [^"]*"\n', b"", text.getvalue()))
    return path
