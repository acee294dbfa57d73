"""The locale catalogs: complete in every language, placeholders intact, the right terms."""

import re

import pytest
from ginrummy import Card
from ginview.catalog import OWN_FORMS, Catalog, MissingMessage
from ginview.markup import card_name

from sitegen import catalogs
from sitegen.languages import languages
from tests.site.terms import FORBIDDEN, SUIT_NAMES


def test_every_language_translates_every_message():
    assert catalogs.problems() == []


def test_problems_are_found(tmp_path):
    (tmp_path / "messages.pot").write_text(
        'msgctxt "a"\nmsgid "Deadwood: {points}"\nmsgstr ""\n\n'
        'msgctxt "b"\nmsgid "Two"\nmsgstr ""\n\nmsgctxt "c"\nmsgid "Three"\nmsgstr ""\n',
        encoding="utf-8",
    )
    (tmp_path / "ro.po").write_text(
        'msgctxt "a"\nmsgid "Deadwood: {points}"\nmsgstr "Cărți necombinate: {puncte}"\n\n'
        '#, fuzzy\nmsgctxt "b"\nmsgid "Two"\nmsgstr "Doi"\n\n'
        'msgctxt "z"\nmsgid "Extra"\nmsgstr "În plus"\n',
        encoding="utf-8",
    )
    (tmp_path / "hu.po").write_text(
        'msgctxt "a"\nmsgid "Deadwood: {points}"\nmsgstr ""\n\n'
        'msgctxt "c"\nmsgid "Three"\nmsgstr "Három {"\n',
        encoding="utf-8",
    )
    found = catalogs.problems(tmp_path)
    assert "ro.po: a: placeholders ['puncte'] differ from the English ['points']" in found
    assert "ro.po: b: marked fuzzy" in found
    assert "ro.po: c: not translated" in found
    assert "ro.po: z: not in messages.pot" in found
    assert "hu.po: a: empty translation" in found
    assert "hu.po: c: placeholders ['(a lone { or })'] differ from the English []" in found
    assert "it.po: missing catalog" in found


@pytest.mark.parametrize("language", languages())
def test_suit_names_and_forbidden_words(language):
    catalog = catalogs.load(language)
    assert [catalog.text(f"card.suit.{s}") for s in "SHDC"] == list(SUIT_NAMES[language])
    text = " ".join(
        m if isinstance(m, str) else " ".join(m) for m in catalog.messages.values()
    ).lower()
    for word in FORBIDDEN.get(language, ()):
        assert not re.search(rf"\b{re.escape(word)}\b", text), word


@pytest.mark.parametrize(
    "language, expected",
    [
        ("en", "seven of hearts"),
        ("ro", "șapte de cupă"),
        ("hu", "kőr hetes"),
        ("it", "sette di cuori"),
    ],
)
def test_card_names_for_screen_readers(language, expected):
    assert card_name(Card.parse("7H"), catalogs.load(language)) == expected


def test_text_fills_placeholders_and_keeps_unknown_ones():
    catalog = Catalog("en", {"x": "Deadwood {points}, limit {limit}"})
    assert catalog.text("x", points=4) == "Deadwood 4, limit {limit}"
    assert catalog.text("missing.key") == "missing.key"


def test_the_builds_catalogs_refuse_a_missing_message():
    with pytest.raises(MissingMessage):
        catalogs.load("ro").text("no.such.message")


def test_the_shipped_catalogs_have_every_message_and_never_fail():
    english = catalogs.catalog_json("en")
    for lang in languages():
        shipped = catalogs.catalog_json(lang)
        assert shipped["language"] == lang
        # Every English message, and beyond them only the language's own forms of cards,
        # players and units ({card:the}, {player:of}, {points:points_object}).
        assert set(english["messages"]) <= set(shipped["messages"])
        extra = set(shipped["messages"]) - set(english["messages"])
        assert all(OWN_FORMS.match(key) for key in extra), sorted(extra)


def test_plural_forms_follow_the_language(tmp_path):
    (tmp_path / "messages.pot").write_text(
        'msgctxt "unit.points"\nmsgid "{count} point"\nmsgid_plural "{count} points"\n'
        'msgstr[0] ""\nmsgstr[1] ""\n',
        encoding="utf-8",
    )
    (tmp_path / "ro.po").write_text(
        'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : (n==0 || '
        '(n%100 > 0 && n%100 < 20)) ? 1 : 2);\\n"\n\n'
        'msgctxt "unit.points"\nmsgid "{count} point"\nmsgid_plural "{count} points"\n'
        'msgstr[0] "{count} punct"\nmsgstr[1] "{count} puncte"\nmsgstr[2] "{count} de puncte"\n',
        encoding="utf-8",
    )
    ro = catalogs.load("ro", tmp_path)
    assert [ro.text("unit.points", count=n) for n in (1, 2, 19, 20, 101)] == [
        "1 punct",
        "2 puncte",
        "19 puncte",
        "20 de puncte",
        "101 puncte",
    ]
    en = catalogs.load("en", tmp_path)
    assert [en.text("unit.points", count=n) for n in (1, 2)] == ["1 point", "2 points"]


def test_a_broken_catalog_stops_the_build_with_its_file(tmp_path):
    (tmp_path / "messages.pot").write_text('msgctxt "a"\nmsgid "A"\nmsgstr ""\n', encoding="utf-8")
    (tmp_path / "ro.po").write_text(
        'msgctxt "a"\nmsgid "A"\nmsgstr "unterminated\n', encoding="utf-8"
    )
    with pytest.raises(catalogs.BuildError) as failure:
        catalogs.load("ro", tmp_path)
    assert "ro.po" in str(failure.value) and "\n" not in str(failure.value)


def test_a_translation_with_a_mistyped_placeholder_stops_the_build_with_its_line(tmp_path):
    """Not the English in its place, silently: the translator is told where and what."""
    (tmp_path / "messages.pot").write_text(
        'msgctxt "a"\nmsgid "Scores {knocker_points}"\nmsgstr ""\n', encoding="utf-8"
    )
    (tmp_path / "ro.po").write_text(
        '# a comment\n\nmsgctxt "a"\nmsgid "Scores {knocker_points}"\n'
        'msgstr "Punctează {knocker_pointz}"\n',
        encoding="utf-8",
    )
    with pytest.raises(catalogs.BuildError) as failure:
        catalogs.load("ro", tmp_path)
    assert str(failure.value) == (
        f"{tmp_path / 'ro.po'}:4: the translation of 'a' has the placeholders "
        "{knocker_pointz}, the English {knocker_points}: write those of the English"
    )


def test_a_translation_of_an_older_english_text_falls_back_to_the_english(tmp_path):
    """The English changed (and its placeholders with it): until the translation is brought up
    to date the English is shown, and translation-status calls the message fuzzy."""
    (tmp_path / "messages.pot").write_text(
        'msgctxt "a"\nmsgid "Scores {points}"\nmsgstr ""\n', encoding="utf-8"
    )
    (tmp_path / "ro.po").write_text(
        'msgctxt "a"\nmsgid "Scores {knocker_points}"\nmsgstr "Punctează {knocker_points}"\n',
        encoding="utf-8",
    )
    assert catalogs.load("ro", tmp_path).text("a", points=5) == "Scores 5"
    assert catalogs.message_states("ro", tmp_path) == {"a": "fuzzy"}


RO_PLURAL = "nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);"


@pytest.mark.parametrize(
    "header, problem",
    [
        ("nplurals=3; plural=(n==1 ? 0 :;", "14: the Plural-Forms header's rule is not one: "),
        ("nplurals=3; plural=n%0;", "14: the Plural-Forms header's rule is not one: "),
        ("nplurals=3; plural=n;", "14: the Plural-Forms rule gives 3 the form 3, but there are 3"),
        ("nplurals=2; plural=(n != 1);", "more forms than the Plural-Forms header's nplurals"),
    ],
)
def test_a_broken_plural_forms_header_stops_the_build_with_its_line(tmp_path, header, problem):
    for path in catalogs.LOCALES.glob("*.po*"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    ro = tmp_path / "ro.po"
    ro.write_text(ro.read_text(encoding="utf-8").replace(RO_PLURAL, header), encoding="utf-8")
    with pytest.raises(catalogs.BuildError) as failure:
        catalogs.load("ro", tmp_path)
    assert str(failure.value).startswith(f"{ro}:") and problem in str(failure.value)


def test_a_catalog_with_a_byte_order_mark_is_read(tmp_path):
    for path in catalogs.LOCALES.glob("*.po*"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    ro = tmp_path / "ro.po"
    ro.write_bytes(b"\xef\xbb\xbf" + ro.read_bytes())
    assert catalogs.load("ro", tmp_path).text("ui.undo") == catalogs.load("ro").text("ui.undo")
    assert catalogs.message_states("ro", tmp_path) == catalogs.message_states("ro")


def test_every_engine_error_code_has_a_message():
    sources = (catalogs.ROOT / "engine" / "ginrummy").glob("*.py")
    codes = {
        code
        for path in sources
        for code in re.findall(r'Error\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8"))
    }
    assert len(codes) > 30
    missing = sorted(code for code in codes if f"error.{code}" not in catalogs.source_messages())
    assert missing == []


def test_a_language_may_add_the_forms_its_grammar_needs(tmp_path):
    """card.<form>.<rank>, player.<form>.<n> and unit.<form>: a translation's own messages."""
    from ginview.markup import card_text, player_name

    (tmp_path / "messages.pot").write_text(
        'msgctxt "a"\nmsgid "Discard {card}, {player}."\nmsgstr ""\n\n'
        'msgctxt "player.0"\nmsgid "Player A"\nmsgstr ""\n',
        encoding="utf-8",
    )
    (tmp_path / "it.po").write_text(
        'msgctxt "a"\nmsgid "Discard {card}, {player}."\nmsgstr "Scarta {card:the}, {player:the}."\n\n'
        'msgctxt "player.0"\nmsgid "Player A"\nmsgstr "A"\n\n'
        'msgctxt "card.the.8"\nmsgid "the {card}"\nmsgstr "l\'{card}"\n\n'
        'msgctxt "player.the.0"\nmsgid "the player {player}"\nmsgstr "il giocatore {player}"\n\n'
        'msgctxt "card.thee.9"\nmsgid "x"\nmsgstr ""\n\n'
        'msgctxt "lesson.other"\nmsgid "x"\nmsgstr "y"\n',
        encoding="utf-8",
    )
    it = catalogs.load("it", tmp_path)
    assert (
        it.text("a", card=card_text("8H"), player=player_name(0, it))
        == "Scarta l'\u20608♥, il giocatore A."  # a word joiner: l' never ends a line
    )
    assert (
        it.text("a", card=card_text("9H"), player=player_name(0, it))
        == "Scarta 9♥, il giocatore A."
    )  # no form for a nine: the card as it is
    found = [p for p in catalogs.problems(tmp_path) if p.startswith("it.po")]
    assert "it.po: card.thee.9: empty translation" in found
    assert "it.po: lesson.other: not in messages.pot" in found
    assert not [p for p in found if "card.the.8" in p or "player.the.0" in p]
