"""The presentation layer (ginview): canonical fields, edits, share links, errors in the reader's
language, and a JSON boundary that always answers."""

from __future__ import annotations

import json
import re

import pytest
from ginrummy import api as engine_api
from ginrummy.cards import Card
from ginrummy.errors import GinRummyError
from ginview import api
from ginview.catalog import Catalog, Html, catalog, esc
from ginview.examples import KINDS, from_link, kind_of, link, read_state, render
from ginview.fields import MELDS, FieldError, Moves, bad, parse_move
from ginview.markup import error_text, face, faces, player_name
from ginview.play import MOVE_KINDS
from ginview.steps import STEPS, feedback, read_step

from sitegen import catalogs
from sitegen.languages import languages
from tests.fuzz.strategies import check_message

SCORE = {
    "kind": "score",
    "knocker": "2S 3S 4S 7H 7D 7C 9C TC JC 8D",
    "defender": "8S 9S TS KH KD KC 4H 5H 6H AD",
}
SHEET = {"kind": "sheet", "entries": ["A 25", "B 14", "A 40"]}


@pytest.fixture(autouse=True)
def installed():
    catalogs.install_all()


def call(request: dict) -> dict:
    return api.call({"lang": "en", **request})


# --- canonical states ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "written, canonical",
    [
        ("10c jc qc 2h 2d 2s 5h 6h 7h 9d", "TC JC QC 2H 2D 2S 5H 6H 7H 9D"),
        ("A♠, 2♠ 3♠ 4♥ 5♥ 6♥ 7♣ 8♣ 9♣ k♦", "AS 2S 3S 4H 5H 6H 7C 8C 9C KD"),
        (
            ["as", "2s", "3s", "4h", "5h", "6h", "7c", "8c", "9c", "10D"],
            "AS 2S 3S 4H 5H 6H 7C 8C 9C TD",
        ),
    ],
)
def test_every_notation_becomes_the_engines(written, canonical):
    state = read_state({"kind": "melds", "hand": written})
    assert state == {"kind": "melds", "hand": canonical}
    assert (
        "10♣"
        in render(
            {"kind": "melds", "hand": "10c jc qc 2h 2d 2s 5h 6h 7h 9d"}, catalogs.load("en")
        ).view
    )


def test_defaults_are_written_into_the_state():
    assert read_state(SCORE)["rules"] == "standard"
    assert read_state({**SCORE, "kind": "oklahoma", "upcard": "qs"}) == {
        **SCORE,
        "kind": "oklahoma",
        "rules": "oklahoma",
        "upcard": "QS",
    }


def test_a_state_round_trips_through_its_share_link():
    for state in (
        read_state(SCORE),
        read_state(SHEET),
        read_state(
            {
                "kind": "layoffs",
                "knocker_melds": ["8C 8D 8H", "9S TS JS"],
                "defender": "8S 7S KH KD KC 2H 3H 4H 5C 6D",
            }
        ),
        read_state({"kind": "sheet", "entries": ["A 25 x2", "B 3"], "rules": "oklahoma"}),
    ):
        text = link(state)
        assert "%" not in text and " " not in text and "{" not in text
        assert from_link(state["kind"], text) == state
    assert link(read_state(SCORE)) == (
        "knocker:2S-3S-4S-7H-7D-7C-9C-TC-JC-8D;"
        "defender:8S-9S-TS-KH-KD-KC-4H-5H-6H-AD;rules:standard"
    )


@pytest.mark.parametrize(
    "text, code",
    [
        (
            "knocker:2S-3S-4S-7H-7D-7C-9C-TC-JC-8D;defender:8S-9S-TS-KH-KD-KC-4H-5H-6H-AD;rules:house",
            "unknown_rules",
        ),
        ("knocker:2S-3S;defender:8S-9S-TS-KH-KD-KC-4H-5H-6H-AD", "wrong_count"),
        ("hand:AS", "bad_link"),
        ("knocker:2S-3S-4S-7H-7D-7C-9C-TC-JC-8D;knocker:2S", "bad_link"),
        ("rules:standard", "missing_field"),
        ("knocker:ZZ-3S", "unknown_rank"),
        ("junk", "bad_link"),
    ],
)
def test_a_bad_share_link_is_a_coded_error(text, code):
    response = call({"op": "render", "kind": "score", "link": text})
    assert not response["ok"] and response["error"]["code"] == code
    assert response["error"]["message"] and "{" not in response["error"]["message"]


def test_a_share_link_cannot_change_a_presets_numbers():
    response = call(
        {
            "op": "render",
            "kind": "hollywood",
            "link": 'entries:A25;rules:{"name":"standard","hollywood_columns":200000}',
        }
    )
    assert response["error"]["code"] == "unknown_rules"
    response = call(
        {"op": "render", "state": {**SHEET, "rules": {"name": "standard", "hollywood_columns": 9}}}
    )
    assert response["error"]["code"] == "unknown_rules"


# --- edits ------------------------------------------------------------------------------------


def test_a_card_replaced_or_swapped():
    state = read_state(SCORE)
    replaced = call(
        {"op": "edit", "state": state, "edit": {"field": "knocker", "index": 9, "card": "QD"}}
    )["result"]["state"]
    assert replaced["knocker"].split()[9] == "QD" and replaced["defender"] == state["defender"]
    # AD is in the defender's hand: it comes to the knocker, the 8D goes in its place.
    swapped = call(
        {"op": "edit", "state": state, "edit": {"field": "knocker", "index": 9, "card": "ad"}}
    )["result"]["state"]
    assert swapped["knocker"].split()[9] == "AD" and swapped["defender"].split()[9] == "8D"
    melds = read_state(
        {
            "kind": "layoffs",
            "knocker_melds": ["8C 8D 8H", "9S TS JS"],
            "defender": "8S 7S KH KD KC 2H 3H 4H 5C 6D",
        }
    )
    edited = call(
        {
            "op": "edit",
            "state": melds,
            "edit": {"field": "knocker_melds", "meld": 0, "index": 0, "card": "8S"},
        }
    )
    assert edited["result"]["state"]["knocker_melds"] == ["8S 8D 8H", "9S TS JS"]
    assert edited["result"]["state"]["defender"].split()[0] == "8C"


def test_typed_cards_and_rules():
    state = read_state(SCORE)
    typed = call(
        {
            "op": "edit",
            "state": state,
            "edit": {"field": "defender", "text": "8s 9s ts kh kd kc 4h 5h 6h 2d"},
        }
    )
    assert typed["result"]["state"]["defender"] == "8S 9S TS KH KD KC 4H 5H 6H 2D"
    pagat = call({"op": "edit", "state": state, "edit": {"rules": "pagat"}})["result"]
    assert pagat["state"]["rules"] == "pagat" and pagat["link"].endswith(";rules:pagat")


def test_sheet_edits_add_change_and_remove_hands():
    state = read_state(SHEET)

    def edit(change):
        response = call({"op": "edit", "state": state, "edit": change})
        assert response["ok"], response
        return response["result"]["state"]["entries"]

    assert edit({"add": {"winner": 1, "points": 31}})[-1] == {"winner": 1, "points": 31}
    assert edit({"entry": 1, "points": 20})[1] == {"winner": 1, "points": 20}
    assert edit({"entry": 0, "winner": 1})[0] == {"winner": 1, "points": 25}
    assert edit({"remove": 0}) == state["entries"][1:]
    pagat = call({"op": "edit", "state": state, "edit": {"rules": "pagat"}})["result"]["state"]
    assert pagat == {**state, "rules": "pagat"}
    over = call({"op": "edit", "state": state, "edit": {"entry": 2, "points": 90}})["result"]
    assert 'class="gin-add-hand" disabled' in over["view"]
    assert "game is over" in over["view"]
    after = call(
        {
            "op": "edit",
            "state": {**state, "entries": [*state["entries"][:2], {"winner": 0, "points": 90}]},
            "edit": {"add": {"winner": 1, "points": 10}},
        }
    )
    assert after["error"]["code"] == "game_over"


@pytest.mark.parametrize(
    ("state", "edit", "code", "params"),
    [
        (SCORE, {"field": "nothing", "index": 0, "card": "AS"}, "bad_edit", {"edit": "field"}),
        (SCORE, {"field": "knocker", "index": 99, "card": "AS"}, "bad_edit", {"edit": "index"}),
        (
            SCORE,
            {"field": "knocker", "index": 0, "card": "ZZ"},
            "unknown_rank",
            {"token": "ZZ", "position": 0, "field": "card"},
        ),
        (SCORE, {"field": "knocker", "card": "AS"}, "bad_edit", {"edit": "kind"}),
        (SCORE, {"remove": 0}, "bad_edit", {"edit": "field"}),
        (SCORE, {}, "bad_edit", {"edit": "field"}),
        (SHEET, {"entry": 9, "points": 3}, "bad_edit", {"edit": "entry"}),
        (SHEET, {"remove": True}, "bad_edit", {"edit": "entry"}),
        (SHEET, {"entry": 0, "score": 3}, "bad_edit", {"edit": "part"}),
        (  # a hand played through is drawn, not edited: the edit's first field is named
            {"kind": "hand", "deal": {"seed": 21, "dealer": 0}, "moves": ["pass 1"]},
            {"index": 0, "field": "deal", "card": "AS"},
            "bad_edit",
            {"edit": "card"},
        ),
    ],
)
def test_an_edit_that_does_not_apply_is_refused(state, edit, code, params):
    response = call({"op": "edit", "state": read_state(state), "edit": edit})
    assert not response["ok"] and response["error"]["message"]
    assert (response["error"]["code"], response["error"]["params"]) == (code, params)


def test_an_edit_to_other_rules_names_the_presets():
    response = call({"op": "edit", "state": read_state(SCORE), "edit": {"rules": "house"}})
    assert response["error"]["code"] == "unknown_rules"
    assert response["error"]["params"] == {"rules": "house", "presets": list(engine_api.RULESETS)}


# --- errors in the reader's language -------------------------------------------------------------


def test_errors_name_cards_as_a_reader_writes_them():
    for lang in languages():
        response = api.call(
            {
                "op": "render",
                "lang": lang,
                "state": {"kind": "melds", "hand": "KS KS 3S 7H 7D 7C 9C TC JC KD"},
            }
        )
        assert response["error"]["code"] == "duplicate_card"
        assert "K♠" in response["error"]["message"] and "KS" not in response["error"]["message"]
    assert faces("TH KS") == "10♥ K♠" and face("10h") == "10♥" and face(Card.parse("TH")) == "10♥"


@pytest.mark.parametrize(
    "code, params, expected",
    [
        ("card_not_in_hand", {"card": "TH"}, "This card is not in the hand: 10♥."),
        (
            "cannot_lay_off",
            {"card": "7H", "meld": "8H 9H TH"},
            "7♥ cannot be laid off onto 8♥ 9♥ 10♥",
        ),
        ("gin_required", {"upcard": "AS", "deadwood": 9}, "when the upcard is an ace (A♠)"),
        ("bad_card", {"token": "7X"}, "Not a card: 7X."),  # not cards: as typed
    ],
)
def test_an_error_writes_its_cards_as_a_reader_does(code, params, expected):
    assert expected in error_text({"code": code, "params": params}, catalogs.load("en"))


@pytest.mark.parametrize("lang", languages())
def test_an_error_names_the_rules_by_their_name_in_the_language(lang):
    cat = catalogs.load(lang)
    text = error_text({"code": "big_gin_not_played", "params": {"rules": "pagat"}}, cat)
    assert text == cat.text("error.big_gin_not_played", rules=cat.text("rules.pagat"))
    house = error_text({"code": "big_gin_not_played", "params": {"rules": "house"}}, cat)
    assert house == cat.text("error.big_gin_not_played", rules="house")  # no such preset: as given


@pytest.mark.parametrize("lang", languages())
def test_an_error_names_a_player_by_name_and_one_it_cannot_name_by_the_number_given(lang):
    """A player's number becomes the player's name in the form the sentence asks for
    (Romanian's "rândul jucătorului A"); a number with no name (a hand state typed by hand)
    is written as it was given, in any form, never read as a count."""
    cat = catalogs.load(lang)
    text = error_text({"code": "not_your_turn", "params": {"player": 7, "turn": 0}}, cat)
    assert text == cat.text("error.not_your_turn", player="7", turn=player_name(0, cat))
    assert "7" in text


def test_a_step_or_an_answer_of_the_wrong_shape_is_refused_by_its_field():
    with pytest.raises(GinRummyError) as info:
        read_step("x")
    assert (info.value.code, info.value.params) == (
        "bad_field",
        {"field": "step", "expected": "a mapping of fields"},
    )
    step = {"ask": "move", "deal": {"seed": 7, "dealer": 0}, "choices": ["draw_stock", "pass"]}
    with pytest.raises(GinRummyError) as info:
        feedback(step, "jump", catalogs.load("en"))
    assert (info.value.code, info.value.params) == (
        "bad_field",
        {"field": "answer", "expected": "one of draw_stock, pass"},
    )
    deadwood = {"ask": "deadwood", "hand": "7S 8S 9S 2H 3H 4H KC KD KH AD"}
    for answer in ("ten", "", " ", "-1", "1.5", "1234567"):
        with pytest.raises(GinRummyError) as info:
            feedback(deadwood, answer, catalogs.load("en"))
        assert (info.value.code, info.value.params) == (
            "bad_field",
            {"field": "answer", "expected": "a whole number"},
        )
    assert feedback(deadwood, " 1 ", catalogs.load("en"))["right"]


def test_what_the_reader_typed_is_quoted_short():
    response = call({"op": "render", "state": {"kind": "melds", "hand": "Z" * 300 + "S"}})
    assert response["error"]["code"] == "unknown_rank"
    assert len(response["error"]["message"]) < 200


def test_every_error_code_the_engine_or_the_view_gives_has_a_message():
    source = catalogs.source_messages()
    codes = set()
    for root in ("engine/ginrummy", "presentation/ginview"):
        for path in (catalogs.ROOT / root).glob("*.py"):
            import re

            codes |= set(re.findall(r'Error\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert len(codes) > 40
    assert sorted(c for c in codes if f"error.{c}" not in source and c != "missing_param") == []


# --- the boundary never raises -------------------------------------------------------------------

KIND = "one of " + ", ".join(KINDS)


@pytest.mark.parametrize(
    "request_text, code, params",
    [
        # nested deeper than the JSON reader itself can follow: the engine's limit is named
        ("[" * 5000, "too_deep", {"limit": 20}),
        ('{"op": "render", "state": ' + "[" * 3000 + "]" * 3000 + "}", "too_deep", {"limit": 20}),
        ("[" * 21 + "]" * 21, "too_deep", {"limit": 20}),
        ("[" * 20 + "]" * 20, "bad_request", {}),
        ("null", "bad_request", {}),
        ("42", "bad_request", {}),
        ('"text"', "bad_request", {}),
        ("{}", "unknown_op", {"op": ""}),
        ('{"op": "jump"}', "unknown_op", {"op": "jump"}),
        ('{"op": "render"}', "bad_field", {"field": "state", "expected": "an object"}),
        ('{"op": "render", "link": "x"}', "bad_field", {"field": "kind", "expected": KIND}),
        (
            '{"op": "render", "kind": "trick", "link": "x"}',
            "bad_field",
            {"field": "kind", "expected": KIND},
        ),
        (
            '{"op": "render", "kind": "melds", "link": 7}',
            "bad_field",
            {"field": "link", "expected": "the text of a link"},
        ),
        (
            '{"op": "edit", "state": {}, "edit": []}',
            "bad_field",
            {"field": "edit", "expected": "an object"},
        ),
        (
            '{"op": "feedback", "step": "x", "answer": "x"}',
            "bad_field",
            {"field": "step", "expected": "an object"},
        ),
        (
            '{"op": "play", "move": {"fly": 1}}',
            "bad_field",
            {"field": "move", "expected": "one of " + ", ".join(MOVE_KINDS)},
        ),
        (
            '{"op": "play", "sesion": null, "move": {"new": {}}}',
            "unknown_field",
            {"field": "sesion", "op": "play"},
        ),
        (
            '{"op": "play", "move": {"new": {"colour": 1}}}',
            "bad_field",
            {"field": "new", "expected": "{link} or {seed, rules, level, format}, and coach"},
        ),
        (
            '{"op": "render", "state": {"kind": "melds", "hand": 42}}',
            "unknown_suit",
            {"field": "hand", "token": "42", "position": 0},
        ),
        (
            '{"op": "render", "state": {"kind": "sheet", "entries": [{"winner": true, "points": 1}]}}',
            "bad_field",
            {"field": "winner", "expected": "player 0 (A) or 1 (B)"},
        ),
        (
            '{"op": "render", "state": {"kind": "sheet", "entries": [[0, 25]]}}',
            "bad_field",
            {"field": "entries", "expected": 'a list of hands won, like ["A 25", "B 14"]'},
        ),
        (
            '{"op": "feedback", "step": {"ask": "deadwood", "hand": "AS"}, "answer": "x"}',
            "wrong_count",
            {"field": "hand", "got": 1, "expected": [10, 11], "token": None, "position": None},
        ),
        ("x" * 200_000, "request_too_long", {"limit": 100_000}),
        ('{"op": "render", "state": {"kind": "melds", "hand": NaN}}', "bad_json", {}),
        ('{"op": "render", "lang": "\\ud800", "state": {}}', "bad_json", {}),
        (
            '{"v": true, "op": "render", "state": {}}',
            "unsupported_version",
            {"version": True, "supported": 1},
        ),
        (
            '{"v": 99, "op": "render", "state": {}}',
            "unsupported_version",
            {"version": 99, "supported": 1},
        ),
        (
            '{"v": "x", "op": "render", "state": {}}',
            "unsupported_version",
            {"version": "x", "supported": 1},
        ),
    ],
)
def test_handle_always_answers_with_a_coded_error(request_text, code, params):
    """Each bad request gets the code that names its problem, with the field at fault, and a
    message in words (never the raw key, never a blank)."""
    response = json.loads(api.handle(request_text))
    assert response["v"] == 1 and response["ok"] is False
    error = response["error"]
    assert (error["code"], error["params"]) == (code, params)
    check_message(error["message"])


@pytest.mark.parametrize(
    "op, request_, message",
    [
        ("render", {"kind": "trick", "link": "x"}, f"kind must be {KIND}, not 'trick'"),
        ("render", {"kind": "melds", "link": 7}, "link must be the text of a link, not 7"),
        ("render", {"state": []}, "state must be an object, not []"),
        ("edit", {"state": {}, "edit": []}, "edit must be an object, not []"),
        ("feedback", {"step": "x"}, "step must be an object, not 'x'"),
    ],
)
def test_an_ops_refusal_says_what_it_was_given(op, request_, message):
    """In Python (a build's error, a log), a refusal quotes the value it was given; the
    response carries the field and what it expects."""
    with pytest.raises(GinRummyError) as info:
        api.OPS[op](request_)
    assert str(info.value) == message


@pytest.mark.parametrize("lang", languages()[1:])  # every language but English
def test_every_op_answers_in_the_requests_language(lang):
    """Render (by state and by share link), edit and feedback answer as the view does in the
    request's language, written as UTF-8 (not escaped)."""
    cat = catalog(lang)

    def answer(request: dict) -> dict:
        text = api.handle(json.dumps({**request, "lang": lang}))
        assert "\\u" not in text
        return json.loads(text)["result"]

    state = {"kind": "melds", "hand": "TC JC QC 2H 2D 2S 5H 6H 7H 9D"}
    shown = answer({"op": "render", "state": state})
    assert shown == render(state, cat).to_json() != render(state, catalog("en")).to_json()
    assert answer({"op": "render", "kind": "melds", "link": shown["link"]}) == shown
    edit = {"field": "hand", "index": 9, "card": "8H"}
    edited = kind_of(state).edit(state, edit)
    assert answer({"op": "edit", "state": state, "edit": edit}) == render(edited, cat).to_json()
    step, given = {"ask": "deadwood", "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D"}, "7"
    judged = answer({"op": "feedback", "step": step, "answer": given})
    assert judged == feedback(step, given, cat) != feedback(step, "5", cat)
    assert not judged["right"] and re.search(r"[ăâîșțőűáéíóúàèìòù]", judged["html"])


def test_a_request_may_be_as_long_as_the_limit():
    padded = '{"op": "jump"}'.ljust(api.MAX_REQUEST)
    assert json.loads(api.handle(padded))["error"]["code"] == "unknown_op"
    too_long = json.loads(api.handle(padded + " "))["error"]
    assert too_long["code"] == "request_too_long" and "100000" in too_long["message"]


def test_a_request_for_this_version_is_answered_and_v_is_no_field_of_an_op():
    state = {"kind": "melds", "hand": "TC JC QC 2H 2D 2S 5H 6H 7H 9D"}
    assert api.call({"v": 1, "op": "render", "lang": "en", "state": state})["ok"]


CANONICAL = {
    "kind": "score",
    "knocker": "2S 3S 4S 7H 7D 7C 9C TC JC 5D",
    "defender": "8S 9S TS KH KD 4H 6C 6H 2C AD",
    "rules": "standard",
}


@pytest.mark.parametrize(
    "state, edit, code",
    [
        (
            {**CANONICAL, "defender": 3},
            {"field": "defender", "index": 0, "card": "AS"},
            "bad_card",
        ),
        (
            {**CANONICAL, "knocker": None},
            {"field": "knocker", "index": 0, "card": "AS"},
            "missing_field",
        ),
        ({"kind": "sheet", "entries": 5}, {"remove": 0}, "bad_field"),
        ({"kind": "sheet"}, {"add": {"winner": 0, "points": 5}}, "missing_field"),
        (
            {"kind": "layoffs", "knocker_melds": 7, "defender": "AS"},
            {"field": "knocker_melds", "meld": 0, "index": 0, "card": "2S"},
            "bad_field",
        ),
        ({"kind": "nope"}, {"rules": "pagat"}, "unknown_kind"),
        ({**CANONICAL, "extra": 1}, {"rules": "pagat"}, "unknown_field"),
    ],
)
def test_an_edit_of_a_state_that_is_not_canonical_is_refused_as_that_state(state, edit, code):
    """The state an edit starts from is read as any state is: a wrong one is refused with its
    own coded error, never an internal one."""
    answer = api.call({"op": "edit", "lang": "en", "state": state, "edit": edit})
    assert not answer["ok"] and answer["error"]["code"] == code, answer


def test_an_edit_of_a_state_written_by_hand_applies_to_its_canonical_form():
    written = {**CANONICAL, "knocker": "2s, 3s 4s 7h 7d 7c 9c 10c jc 5d", "rules": None}
    answer = api.call({"op": "edit", "lang": "en", "state": written, "edit": {"rules": "pagat"}})
    assert answer["result"]["state"] == {**CANONICAL, "rules": "pagat"}


def test_an_error_with_a_value_json_cannot_write_is_answered(monkeypatch):
    """An error's params are written as JSON; a value JSON has no form for is given as text."""

    def refuse(request):
        raise GinRummyError("unknown_op", "unknown op", op=Card.parse("7H"))

    monkeypatch.setitem(api.OPS, "render", refuse)
    answer = json.loads(api.handle('{"op": "render", "lang": "en"}'))
    assert answer["error"]["params"] == {"op": "7H"}
    assert answer["error"]["message"] == "Unknown operation: 7H."


STEP_CASES = {  # a step of every kind, with a right and a wrong answer
    "discard": ({"ask": "discard", "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D KH"}, "KH", "5D"),
    "deadwood": ({"ask": "deadwood", "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D"}, "5", "7"),
    "melds": ({"ask": "melds", "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D"}, "5D", "5D 2S"),
    "knock": ({"ask": "knock", "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D KH"}, "knock", "no"),
    "layoff": (
        {
            "ask": "layoff",
            "knocker_melds": ["8C 8D 8H", "9S TS JS"],
            "defender": "8S 7S KH KD KC 2H 3H 4H 5C 6D",
        },
        "8S 7S",
        "8S",
    ),
    "score": (
        {
            "ask": "score",
            "knocker": "2S 3S 4S 7H 7D 7C 9C TC JC 5D",
            "defender": "8S 9S TS KH KD 4H 6C 6H 2C AD",
        },
        "34",
        "35",
    ),
    "sheet": ({"ask": "sheet", "entries": ["A 25", "B 14"], "find": "totals.0"}, "25", "24"),
    "move": (
        {
            "ask": "move",
            "deal": {"seed": 7, "dealer": 0},
            "choices": ["draw_stock", "take_upcard"],
        },
        "take_upcard",
        "draw_stock",
    ),
}


def test_feedback_judges_every_kind_of_step():
    cases = STEP_CASES
    assert set(cases) == set(STEPS)
    en = catalogs.load("en")
    for kind, (step, right, wrong) in cases.items():
        assert feedback(step, right, en)["right"] is True, kind
        judged = feedback(step, wrong, en)
        assert judged["right"] is False and en.text("tutorial.wrong") in judged["html"], kind
    assert (
        read_step({"ask": "deadwood", "hand": "10c jc qc 2h 2d 2s 5h 6h 7h 9d"})["hand"]
        == "TC JC QC 2H 2D 2S 5H 6H 7H 9D"
    )


# --- the catalog --------------------------------------------------------------------------------


def test_the_languages_are_those_installed_else_those_shipped(monkeypatch, tmp_path):
    import ginview.catalog as view_catalog

    assert view_catalog.languages() == tuple(languages())  # installed by the fixture
    monkeypatch.setattr(view_catalog, "_CATALOGS", {})
    for name in ("ro.json", "en.json", "notes.txt"):
        (tmp_path / name).write_text("{}")
    monkeypatch.setattr(view_catalog, "_LOCALES", str(tmp_path))
    assert view_catalog.languages() == ("en", "ro")
    monkeypatch.setattr(view_catalog, "_LOCALES", str(tmp_path / "none"))
    assert view_catalog.languages() == ()


def test_a_named_value_is_escaped_unless_it_is_markup():
    from ginview.catalog import named

    cat = Catalog("en", {"a": "{who} & {card}", "player.of.0": "of {player}"})
    who, card = named("A<B", "player.{}.0", "player"), named(Html("<b>7</b>"), "card.{}.7", "card")
    assert cat.html("a", who=who, card=card) == "A&lt;B &amp; <b>7</b>"


def test_html_escapes_text_but_not_markup():
    cat = Catalog("en", {"a": "<{card}> & {n}"})
    assert cat.html("a", card=Html("<b>7♥</b>"), n="<i>") == "&lt;<b>7♥</b>&gt; &amp; &lt;i&gt;"


def test_the_engine_passes_through_unchanged():
    request = {"op": "score", "knocker": SCORE["knocker"], "defender": SCORE["defender"]}
    assert call({"op": "engine", "request": request}) == {
        "v": 1,
        "ok": True,
        "result": engine_api.call(request),
    }
    inner = call({"op": "engine", "request": []})["result"]
    assert inner["ok"] is False and inner["error"]["code"] == "bad_request"


EXAMPLES = [  # an example of every kind
    {"kind": "melds", "hand": "AS 2S 3S 7H 7D 7C 9C TC JC KD"},
    {"kind": "knock", "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D KH"},
    {
        "kind": "layoffs",
        "knocker_melds": ["8C 8D 8H", "9S TS JS"],
        "defender": "8S 7S KH KD KC 2H 3H 4H 5C 6D",
    },
    SCORE,
    {**SCORE, "kind": "oklahoma", "upcard": "QS"},
    SHEET,
    {**SHEET, "kind": "hollywood"},
    {
        "kind": "hand",
        "deal": {"seed": 21, "dealer": 0},
        "moves": [
            "pass 1",
            "take_upcard 0",
            "discard 0 8H",
            "draw_stock 1",
            "discard 1 KS",
            "draw_discard 0",
            "knock 0 6S",
            "lay_off 1",
        ],
    },
]


def test_every_kind_draws_in_every_language_with_no_raw_key():
    states = [read_state(s) for s in EXAMPLES]
    assert {s["kind"] for s in states} == set(KINDS)
    import re

    for lang in languages():
        for state in states:
            view = render(state, catalogs.load(lang)).view
            assert not re.search(
                r"\b(ui|step|error|rule|rules|player|role|outcome|word|card)\.[a-z_]+",
                re.sub(r'data-[\w-]+="[^"]*"', "", view),
            ), (lang, state["kind"])


# --- feedback that speaks to the likely mistake --------------------------------------------------


def judged(step: dict, answer: str, lang: str = "en") -> str:
    result = feedback(step, answer, catalogs.load(lang))
    assert result["right"] is False
    return result["html"]


def expected(key: str, lang: str = "en", **params) -> str:
    """The start of a message, up to its first placeholder (as drawn, it holds cards)."""
    template = catalogs.load(lang).template(key, params.get("count"))
    return template.split("{")[0][:40].replace("&", "&amp;").replace("<", "&lt;")


@pytest.mark.parametrize("lang", ["en", "ro"])
def test_score_feedback_names_what_was_left_out(lang):
    undercut = {"ask": "score", "knocker": SCORE["knocker"], "defender": SCORE["defender"]}
    cat = catalogs.load(lang)
    # the difference alone: the bonus is missing; the bonus alone: the difference
    assert cat.html("tutorial.why.undercut_bonus", bonus=25) in judged(undercut, "7", lang)
    assert cat.html("tutorial.why.undercut_difference", difference=7) in judged(
        undercut, "25", lang
    )
    gin = {
        "ask": "score",
        "knocker": "2S 3S 4S 7H 7D 7C 9C TC JC QC",
        "defender": "8S 9S TS KH KD 4H 6C 6H 2C AD",
    }
    defender_points = 8 + 9 + 10 + 10 + 10 + 4 + 6 + 6 + 2 + 1 - 27  # 8S 9S TS is a run
    assert cat.html("tutorial.why.gin_bonus", bonus=25) in judged(gin, str(defender_points), lang)
    doubled = {**gin, "rules": "oklahoma", "upcard": "5S"}  # a spade: the hand counts double
    assert cat.html("tutorial.why.gin_bonus", bonus=25) in judged(
        doubled, str(2 * defender_points), lang
    )
    laid = {
        "ask": "score",
        "knocker": "7S 8S 9S KH KD KC 2H 3H 4H 5C",
        "defender": "6S 5S 2D 3C 4D QD JD TH 9H AC",
    }
    before = 6 + 5 + 2 + 3 + 4 + 10 + 10 + 10 + 9 + 1 - 5
    assert expected("tutorial.why.before_lay_offs", lang) in judged(laid, str(before), lang)
    spade = {
        "ask": "score",
        "knocker": SCORE["knocker"],
        "defender": SCORE["defender"],
        "rules": "oklahoma",
        "upcard": "9S",
    }
    assert expected("tutorial.why.spade_double", lang) in judged(spade, "32", lang)
    assert catalogs.load(lang).text("tutorial.why.number", value=1) in judged(undercut, "1", lang)


def test_sheet_feedback_names_the_bonus_left_out():
    shutout = {"ask": "sheet", "entries": ["A 60", "A 50"], "find": "totals.0"}
    assert feedback(shutout, "370", catalogs.load("en"))["right"]
    for answer, key in (
        ("320", "box_bonus"),
        ("270", "game_bonus"),
        ("260", "shutout_bonus"),
        ("110", "no_bonuses"),
    ):
        assert expected(f"tutorial.why.{key}") in judged(shutout, answer), key


def test_deadwood_feedback_when_every_card_was_counted():
    step = {"ask": "deadwood", "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D"}
    assert expected("tutorial.why.deadwood_every", value=64) in judged(step, "64")


def test_deadwood_feedback_for_a_hand_with_no_meld_says_only_the_sum_is_wrong():
    step = {"ask": "deadwood", "hand": "AS 5H 9D TC JS QH KD 2C 7S 4D"}  # lesson 1: 68
    for answer in ("78", "58"):
        shown = judged(step, answer)
        assert f"{answer} is not the count. No card of this hand is in a meld" in shown
        assert "can be arranged" not in shown  # tutorial.why.deadwood_high: untrue here


def test_an_illegal_move_is_answered_with_the_rules_reason():
    step = {
        "ask": "move",
        "deal": {"seed": 7, "dealer": 0},
        "moves": ["pass 1", "pass 0"],
        "choices": ["take_upcard", "draw_discard", "draw_stock"],
    }
    assert catalogs.load("en").text("error.must_draw_stock") in judged(step, "draw_discard")
    assert catalogs.load("en").text("tutorial.why.move") in judged(step, "take_upcard")


def test_a_whole_hand_is_replayed_move_by_move():
    state = next(e for e in EXAMPLES if e["kind"] == "hand")
    drawn = render(state, catalogs.load("en"))
    assert drawn.link == "" and drawn.result["end"]["outcome"] == "knock"
    text = re.sub(r"<[^>]+>", "", re.sub(r'<span class="gin-sr"[^>]*>.*?</span>', "", drawn.view))
    for line in (
        "Player B passes the upcard.",
        "Player A takes the upcard, 9♦.",
        "Player B draws from the stock: 6♦.",
        "Player A takes the top of the discard pile: K♠.",
        "Player A knocks, discarding 6♠ face down.",
        "On the score sheet: Player A wins the hand and scores 39 points.",
    ):
        assert line in text, line
    illegal = call({"op": "render", "state": {**state, "moves": ["pass 1", "draw_discard 0"]}})
    assert illegal["error"]["code"] == "wrong_phase"


def test_a_share_link_in_any_notation_is_read_canonical():
    state = from_link(
        "score",
        "knocker:2s-3s-4s-7h-7d-7c-9c-10c-jc-8d;"
        "defender:8♠-9♠-t♠-kh-kd-kc-4h-5h-6h-ad;rules:standard",
    )
    assert state == read_state(SCORE)
    assert link(state) == link(read_state(SCORE))


@pytest.mark.parametrize("lang", languages())
def test_a_sheet_step_lists_its_hands_under_their_headings(lang):
    step = read_step({"ask": "sheet", "entries": ["A 25", "B 14"], "find": "totals.0"})
    kind, cat = STEPS["sheet"], catalogs.load(lang)
    html = kind.table_html(step, kind.replay(step), cat)
    t = cat.text
    assert html.startswith(
        f'<table class="gin-sheet"><thead><tr><th>#</th><th>{t("ui.winner")}</th>'
        f"<th>{t('ui.points')}</th></tr></thead><tbody>"
        f"<tr><td>1</td><td>{t('player.0')}</td><td>25</td></tr>"
        f"<tr><td>2</td><td>{t('player.1')}</td><td>14</td></tr></tbody></table>"
    )
    assert t("rule.line.game_target", value=100) in html  # and the rules that make the sheet


def test_a_bad_field_quotes_its_value_cut_at_60_characters():
    assert str(bad("hand", "cards", "x" * 58)) == "hand must be cards, not '" + "x" * 58 + "'"
    assert str(bad("hand", "cards", "x" * 59)) == "hand must be cards, not '" + "x" * 58 + "…"
    assert str(bad("hand", "cards")) == "hand must be cards, not nothing"


def test_melds_are_read_from_one_text_and_moves_refused_by_their_field():
    assert MELDS.parse("7s 8s 9s / KH KD KC", "melds") == ["7S 8S 9S", "KH KD KC"]
    for refused, code, params in [
        (lambda: Moves().parse(["pass 1"] * 201, "moves"), "too_many", {"limit": 200}),
        (
            lambda: parse_move("pass", True, "moves"),
            "bad_field",
            {"expected": 'a move with its player, like "pass 1"'},
        ),
    ]:
        with pytest.raises(FieldError) as info:
            refused()
        assert (info.value.code, info.value.params) == (code, {"field": "moves", **params})


@pytest.mark.parametrize("lang", ["en", "ro", "hu", "it"])
def test_a_hand_that_went_gin_is_never_labelled_the_knockers(lang):
    """In a scored hand that ended in gin nobody knocked: its hand is labelled as the one that
    went gin (the Italian round-4 and round-5 readers saw «chi ha bussato» above a gin)."""
    cat = catalogs.load(lang)
    gin = {
        "kind": "score",
        "knocker": "2S 3S 4S 7H 7D 7C 9C TC JC QC",
        "defender": "8S 9S TS KH KD 4H 6C 6H 2C AD",
    }
    knock = {
        "kind": "score",
        "knocker": "2S 3S 4S 7H 7D 7C 9C TC JC 5D",
        "defender": "8S 9S TS KH KD 4H 6C 6H 2C AD",
    }
    gin_view, knock_view = str(render(gin, cat).view), str(render(knock, cat).view)
    assert f"<dt>{esc(cat.text('ui.gin_hand'))}</dt>" in gin_view
    assert esc(cat.text("ui.knocker_hand")) not in gin_view
    assert f"<dt>{esc(cat.text('ui.knocker_hand'))}</dt>" in knock_view
