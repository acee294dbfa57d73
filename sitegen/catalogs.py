"""The locale catalogs: ``locales/messages.pot`` holds the English source text and
``locales/<lang>.po`` one translation per language, keyed by ``msgctxt``.

The build uses them twice: in Python, to write every pre-rendered example and lesson in the
page's language (:meth:`Catalog.text`), and in the browser, as one small JSON file per language
that ``gin.js`` loads (:func:`write_browser_catalogs`). Both fill ``{name}`` placeholders the
same way.
"""

from __future__ import annotations

import functools
import json
import re
import string
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"
LANGUAGES = ("en", "ro", "hu", "it")
SOURCE = "messages.pot"

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders in a message."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@dataclass(frozen=True)
class Catalog:
    """The messages of one language, by key; English fills any gap."""

    language: str
    messages: dict

    def text(self, key: str, **params) -> str:
        """The message for ``key`` with its placeholders filled; an unknown key is returned as is."""
        template = self.messages.get(key, key)
        return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), template)

    def card_name(self, card) -> str:
        """A card's spoken name, e.g. "seven of hearts", "kőr hetes"."""
        return self.text("card.name", rank=self.text(f"card.rank.{card.rank}"),
                         suit=self.text(f"card.suit.{card.suit}"))


def _read(path: Path):
    with path.open("rb") as handle:
        return read_po(handle)


def source_messages(locales: Path = LOCALES) -> dict:
    """The English messages, by key, from the template."""
    return {m.context: m.id for m in _read(locales / SOURCE) if m.id and m.context}


def load(language: str, locales: Path = LOCALES) -> Catalog:
    """The catalog of one language (``en`` is the template's own text)."""
    stamp = tuple(p.stat().st_mtime_ns for p in sorted(locales.glob("*.po*")))
    return _load(language, locales, stamp)


@functools.lru_cache(maxsize=16)
def _load(language: str, locales: Path, stamp: tuple) -> Catalog:
    """:func:`load`, read again only when a catalog file changed (``stamp``)."""
    messages = source_messages(locales)
    if language != "en":
        for message in _read(locales / f"{language}.po"):
            if message.context and message.string and not message.fuzzy:
                messages[message.context] = message.string
    return Catalog(language, messages)


def problems(locales: Path = LOCALES) -> list[str]:
    """Everything wrong with the translations: missing, empty, fuzzy or extra entries, and
    placeholders that differ from the English. An empty list means all is well."""
    found = []
    source = source_messages(locales)
    for language in LANGUAGES[1:]:
        path = locales / f"{language}.po"
        if not path.exists():
            found.append(f"{path.name}: missing catalog")
            continue
        entries = {m.context: m for m in _read(path) if m.id}
        for key, english in source.items():
            message = entries.get(key)
            if message is None:
                found.append(f"{path.name}: {key}: not translated")
            elif message.fuzzy:
                found.append(f"{path.name}: {key}: marked fuzzy")
            elif not message.string:
                found.append(f"{path.name}: {key}: empty translation")
            elif message.id != english:
                found.append(f"{path.name}: {key}: translates an old English text")
            elif placeholders(message.string) != placeholders(english):
                found.append(f"{path.name}: {key}: placeholders "
                             f"{sorted(placeholders(message.string))} differ from the English "
                             f"{sorted(placeholders(english))}")
        for key in sorted(set(entries) - set(source)):
            found.append(f"{path.name}: {key}: not in {SOURCE}")
    return found


def write_browser_catalogs(out_dir: Path, locales: Path = LOCALES) -> list[Path]:
    """Write ``<lang>.json`` (key → text) for the browser; returns the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for language in LANGUAGES:
        path = out_dir / f"{language}.json"
        path.write_text(json.dumps(load(language, locales).messages, ensure_ascii=False,
                                   sort_keys=True, separators=(",", ":")), encoding="utf-8")
        written.append(path)
    return written
