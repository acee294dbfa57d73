"""Fuzzing the Python boundaries: the two JSON APIs, card notation, moves, share links and a
learner's answers. See strategies.py for the budget and what each boundary must do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ginrummy import api as engine_api
from ginrummy.cards import Card, parse_cards
from ginrummy.errors import GinRummyError
from ginview import api as view_api
from ginview import play
from ginview.examples import KINDS, from_link, link, read_state
from ginview.fields import parse_move
from hypothesis import given
from hypothesis import strategies as st

from sitegen import catalogs, fences, lessons
from sitegen.languages import languages
from tests.fuzz.strategies import FUZZ, REPO, SPECIAL_TEXT, check_message, json_values, nested

LANGS = list(languages())


def page_states() -> list[dict]:
    """Every example written in the English pages, canonical: real states to mutate."""
    states = []
    for path in sorted((REPO / "docs/en").rglob("*.md")):
        for fence in fences.fences(path.read_text(encoding="utf-8")):
            data = fences.read_fence(fence.body, lambda _, p=path: str(p)) if fence.gin else None
            if data and data != fences.PLAY:  # the play page's game, not an example
                states.append(read_state(data))
    return states


STATES = page_states()
LINKABLE = [s for s in STATES if not KINDS[s["kind"]].static]


def lesson_steps() -> list[dict]:
    messages = catalogs.source_messages()
    return [
        step.data
        for lesson in lessons.load_lessons(REPO / "tutorials", messages)
        for step in lesson.steps
    ]


STEPS = lesson_steps()


@pytest.fixture(scope="module", autouse=True)
def _catalogs():
    catalogs.install_all()


def view_answer(request) -> dict:
    """ginview.api.handle on a request (any JSON value), checked as the worker relies on it."""
    text = request if isinstance(request, str) else json.dumps(request)
    response = json.loads(view_api.handle(text))
    assert response["v"] == view_api.VERSION and isinstance(response["ok"], bool)
    if not response["ok"]:
        error = response["error"]
        assert error["code"] != "internal_error", error
        check_message(
            error["message"], quoted=[v for v in error["params"].values() if isinstance(v, str)]
        )
    return response


def engine_answer(request) -> dict:
    response = json.loads(engine_api.handle(json.dumps(request)))
    assert isinstance(response["ok"], bool)
    if not response["ok"]:
        assert response["error"]["code"] != "internal_error", response["error"]
    return response


# --- the JSON APIs -----------------------------------------------------------------------------

ENGINE_FIELDS = [
    "cards",
    "rules",
    "upcard",
    "knocker",
    "defender",
    "knocker_melds",
    "entries",
    "format",
    "seed",
    "deck",
    "dealer",
    "end_of_stock",
    "state",
    "action",
    "name",
    "game",
    "player",
    "level",
    "samples",
]


@FUZZ
@given(
    op=st.sampled_from([*engine_api.OPS, "nope"]) | json_values,
    fields=st.dictionaries(st.sampled_from(ENGINE_FIELDS), json_values, max_size=5),
    version=st.sampled_from([1, 1, 1, 2, "1", None]),
)
def test_engine_api_answers_any_request_with_a_code(op, fields, version):
    engine_answer({"v": version, "op": op, **fields})


@FUZZ
@given(
    state=st.sampled_from(STATES),
    field=st.text(max_size=12)
    | st.sampled_from(
        ["hand", "knocker", "defender", "knocker_melds", "upcard", "rules", "entries", "kind"]
    ),
    value=json_values,
    lang=st.sampled_from([*LANGS, "xx", 5]),
)
def test_a_page_example_with_one_field_spoiled_is_refused_in_the_readers_language(
    state, field, value, lang
):
    view_answer({"op": "render", "lang": lang, "state": {**state, field: value}})


@FUZZ
@given(
    state=st.sampled_from(STATES),
    edit=st.dictionaries(
        st.sampled_from(
            [
                "field",
                "meld",
                "index",
                "card",
                "text",
                "rules",
                "entry",
                "winner",
                "points",
                "add",
                "remove",
            ]
        ),
        json_values,
        max_size=4,
    ),
    lang=st.sampled_from(LANGS),
)
def test_any_edit_of_any_example_answers(state, edit, lang):
    view_answer({"op": "edit", "lang": lang, "state": state, "edit": edit})


def play_session() -> dict:
    """A game of the play page, the reader to choose (the upcard offer: a quick ranking)."""
    catalogs.install_all()
    return view_api.call(
        {"op": "play", "lang": "en", "session": None, "move": {"new": {"link": "seed=1"}}}
    )["result"]["session"]


PLAY_SESSION = play_session()


NEW_GAME = st.builds(
    lambda settings: {"new": settings},
    st.dictionaries(
        st.sampled_from(["link", "seed", "rules", "level", "coach", "nope"]),
        json_values | st.sampled_from(SPECIAL_TEXT + ["seed=1", "seed=1&rules=pagat", "strong"]),
    ),
)


@given(
    move=st.dictionaries(st.sampled_from([*play.MOVE_KINDS, "nope"]), json_values, max_size=2)
    | NEW_GAME
    | json_values,
    field=st.sampled_from([None, *sorted(PLAY_SESSION)]),
    value=json_values,
    lang=st.sampled_from(LANGS),
)
def test_any_move_in_a_game_and_any_spoiled_game_is_answered(move, field, value, lang):
    session = PLAY_SESSION if field is None else {**PLAY_SESSION, field: value}
    response = view_answer({"op": "play", "lang": lang, "session": session, "move": move})
    if response["ok"]:
        assert response["result"]["html"] and isinstance(response["result"]["announce"], list)


@FUZZ
@given(request=json_values)
def test_any_json_value_is_answered(request):
    view_answer(request)
    view_answer({"op": request, "lang": "hu"})
    response = view_answer({"op": "engine", "request": request})
    assert response["result"]["ok"] is False  # no value is a request (none has an op)
    assert response["result"]["error"]["code"] != "internal_error"


@pytest.mark.parametrize("depth", [10, 100, 1000, 3000])
def test_deeply_nested_requests_are_answered(depth):
    view_answer("[" * depth)  # not even JSON
    view_answer("[" * depth + "]" * depth)
    deep = nested(depth)
    for request in (
        {"op": "render", "lang": "ro", "state": deep},
        {"op": "render", "lang": "hu", "state": {"kind": "layoffs", "knocker_melds": deep}},
        {"op": "engine", "request": deep},
        {"op": "feedback", "step": deep, "answer": deep},
    ):
        text = json.dumps(request) if depth < 900 else None
        if text is None:  # json.dumps itself recurses: build the text by hand
            text = json.dumps(request["op"]).join(
                ['{"op": ', ', "x": ' + "[" * depth + "]" * depth + "}"]
            )
        view_answer(text)


def test_huge_numbers_in_rules_sheets_and_requests_are_refused_before_any_work():
    for rules in (
        {"name": "standard", "hollywood_columns": 200000},
        {"name": "standard", "game_target": 10**9},
        {"name": "standard", "gin_bonus": -5},
    ):
        response = view_answer(
            {
                "op": "render",
                "lang": "en",
                "state": {"kind": "hollywood", "entries": ["A 25"], "rules": rules},
            }
        )
        assert not response["ok"]
        assert not engine_answer(
            {
                "op": "sheet",
                "entries": [{"winner": 0, "points": 25}],
                "rules": rules,
                "format": "hollywood",
            }
        )["ok"]
    entries = [{"winner": 0, "points": 10**12}]
    assert not engine_answer({"op": "sheet", "entries": entries})["ok"]
    assert not engine_answer({"op": "sheet", "entries": [{"winner": 0, "points": 1}] * 10**5})["ok"]


# --- notation, moves, share links, answers -----------------------------------------------------

card_like = st.text(alphabet="AaKkQqJjTt0123456789SsHhDdCc♠♥♦♣ ,-;\n\t10", max_size=60)


@FUZZ
@given(text=card_like | st.text(max_size=60) | st.sampled_from(SPECIAL_TEXT))
def test_card_notation_round_trips_or_names_the_problem(text):
    try:
        hand = parse_cards(text)
    except GinRummyError as error:
        assert error.code and len(str(error)) <= 300, str(error)
        return
    assert parse_cards(str(hand)) == hand
    for card in hand:
        assert Card.parse(str(card)) == card


@FUZZ
@given(
    text=st.text(alphabet="ABab 0123456789:-;drawpickupstockdiscardknockginLSHDC", max_size=40)
    | json_values,
    with_player=st.booleans(),
)
def test_a_move_parses_or_names_the_problem(text, with_player):
    try:
        parse_move(text, with_player)
    except GinRummyError as error:
        assert error.code


@FUZZ
@given(
    state=st.sampled_from(LINKABLE),
    cut=st.integers(0, 200),
    noise=st.text(max_size=20),
    lang=st.sampled_from(LANGS),
)
def test_a_damaged_share_link_is_a_state_or_a_coded_error(state, cut, noise, lang):
    text = link(state)
    damaged = text[:cut] + noise + text[cut + len(noise) :]
    try:
        from_link(state["kind"], damaged)
    except GinRummyError as error:
        assert error.code != "internal_error"
    view_answer({"op": "render", "lang": lang, "kind": state["kind"], "link": damaged})


def test_every_page_example_round_trips_through_its_share_link():
    for state in LINKABLE:
        assert from_link(state["kind"], link(state)) == state


@FUZZ
@given(step=st.sampled_from(STEPS), answer=json_values | card_like, lang=st.sampled_from(LANGS))
def test_any_answer_to_any_lesson_step_gets_feedback_or_a_coded_error(step, answer, lang):
    response = view_answer({"op": "feedback", "lang": lang, "step": step, "answer": answer})
    if response["ok"]:
        assert isinstance(response["result"]["right"], bool)


@FUZZ
@given(
    step=st.sampled_from(STEPS),
    field=st.sampled_from(
        [
            "ask",
            "hand",
            "rules",
            "upcard",
            "knocker",
            "defender",
            "entries",
            "answer",
            "moves",
            "id",
        ]
    ),
    value=json_values,
)
def test_a_tampered_lesson_step_is_refused(step, field, value):
    view_answer({"op": "feedback", "lang": "it", "step": {**step, field: value}, "answer": "5"})


def test_the_suite_covers_every_kind_step_and_op():
    assert {s["kind"] for s in STATES} == set(KINDS)
    assert {s["ask"] for s in STEPS} >= {"deadwood", "melds", "knock", "score"}
    assert Path(engine_api.__file__).is_file() and len(engine_api.OPS) >= 11
