"""The locale catalogs: complete in every language, placeholders intact, the right terms."""

import json
import re

import pytest

from ginrummy import Card
from sitegen import catalogs

# Words from the machine-translated source texts that must never reach the site (fact sheet).
FORBIDDEN = {
    "ro": ["vârfuri", "viermi", "tamburine", "cluburi", "ochelari", "hărți", "carduri",
           "cartelă", "magazin", "furnizor", "expeditor", "nepereche", "genia", "regină",
           "jack"],
    "hu": [],
    "it": [],
}
SUITS = {
    "en": ["spades", "hearts", "diamonds", "clubs"],
    "ro": ["pică", "cupă", "caro", "treflă"],
    "hu": ["pikk", "kőr", "káró", "treff"],
    "it": ["picche", "cuori", "quadri", "fiori"],
}


def test_every_language_translates_every_message():
    assert catalogs.problems() == []


def test_problems_are_found(tmp_path):
    (tmp_path / "messages.pot").write_text(
        'msgctxt "a"\nmsgid "Deadwood: {points}"\nmsgstr ""\n\n'
        'msgctxt "b"\nmsgid "Two"\nmsgstr ""\n\nmsgctxt "c"\nmsgid "Three"\nmsgstr ""\n',
        encoding="utf-8")
    (tmp_path / "ro.po").write_text(
        'msgctxt "a"\nmsgid "Deadwood: {points}"\nmsgstr "Cărți necombinate: {puncte}"\n\n'
        '#, fuzzy\nmsgctxt "b"\nmsgid "Two"\nmsgstr "Doi"\n\n'
        'msgctxt "z"\nmsgid "Extra"\nmsgstr "În plus"\n', encoding="utf-8")
    (tmp_path / "hu.po").write_text('msgctxt "a"\nmsgid "Deadwood: {points}"\nmsgstr ""\n',
                                    encoding="utf-8")
    found = catalogs.problems(tmp_path)
    assert "ro.po: a: placeholders ['puncte'] differ from the English ['points']" in found
    assert "ro.po: b: marked fuzzy" in found
    assert "ro.po: c: not translated" in found
    assert "ro.po: z: not in messages.pot" in found
    assert "hu.po: a: empty translation" in found
    assert "it.po: missing catalog" in found


@pytest.mark.parametrize("language", catalogs.LANGUAGES)
def test_suit_names_and_forbidden_words(language):
    catalog = catalogs.load(language)
    assert [catalog.text(f"card.suit.{s}") for s in "SHDC"] == SUITS[language]
    text = " ".join(catalog.messages.values()).lower()
    for word in FORBIDDEN.get(language, []):
        assert not re.search(rf"\b{re.escape(word)}\b", text), word


@pytest.mark.parametrize("language, expected", [
    ("en", "seven of hearts"), ("ro", "șapte de cupă"), ("hu", "kőr hetes"),
    ("it", "sette di cuori")])
def test_card_names_for_screen_readers(language, expected):
    assert catalogs.load(language).card_name(Card.parse("7H")) == expected


def test_text_fills_placeholders_and_keeps_unknown_ones():
    catalog = catalogs.Catalog("en", {"x": "Deadwood {points}, limit {limit}"})
    assert catalog.text("x", points=4) == "Deadwood 4, limit {limit}"
    assert catalog.text("missing.key") == "missing.key"


def test_browser_catalogs(tmp_path):
    written = catalogs.write_browser_catalogs(tmp_path)
    assert [p.name for p in written] == ["en.json", "ro.json", "hu.json", "it.json"]
    english = json.loads((tmp_path / "en.json").read_text(encoding="utf-8"))
    for path in written:
        assert set(json.loads(path.read_text(encoding="utf-8"))) == set(english)


def test_every_engine_error_code_has_a_message():
    sources = (catalogs.ROOT / "engine" / "ginrummy").glob("*.py")
    codes = {code for path in sources
             for code in re.findall(r'Error\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8"))}
    assert len(codes) > 30
    missing = sorted(code for code in codes if f"error.{code}" not in catalogs.source_messages())
    assert missing == []
