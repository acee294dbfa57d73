"""Fuzzing states that are not canonical: what a page's script, a stored example or another
program may send the view API (a field missing, of another type, written by hand, a kind
changed), and what any program may give the engine's Python functions. Each is refused with
its own coded error (never ``internal_error``, never a Python exception) or read as the
canonical state it means. See strategies.py for the budget."""

from __future__ import annotations

import ginrummy
import pytest
from ginrummy import RULESETS, Card, Hand, RuleSet
from ginrummy import api as engine_api
from ginrummy.errors import GinRummyError
from ginrummy.hand import Action, HandState, deal
from ginrummy.layoffs import check_lay_offs
from ginview.examples import KINDS, read_state
from hypothesis import given
from hypothesis import strategies as st

from sitegen import catalogs
from tests.fuzz.strategies import FUZZ, SPECIAL_TEXT, json_values
from tests.fuzz.test_boundaries import LANGS, STATES, engine_answer, view_answer

FIELDS = sorted({f.name for kind in KINDS.values() for f in kind.fields} | {"kind"})
EDIT_KEYS = ["field", "meld", "index", "card", "text", "rules", "entry", "winner", "points"]
EDIT_KEYS += ["add", "remove"]


@pytest.fixture(scope="module", autouse=True)
def _catalogs():
    catalogs.install_all()


def written(value):
    """A canonical value as a hand might write it: lower case, commas, a list of cards."""
    if isinstance(value, str):
        return st.sampled_from([value, value.lower(), value.replace(" ", ", "), value.split()])
    return st.just(value)


@st.composite
def spoiled(draw, state: dict) -> dict:
    """A canonical state with one to three of its fields dropped, written by hand, given
    another field's value or any value, or the kind changed."""
    state = dict(state)
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(sorted(state) + FIELDS))
        how = draw(st.sampled_from(["drop", "written", "other field", "any", "kind"]))
        if how == "drop":
            state.pop(name, None)
        elif how == "written" and name in state:
            state[name] = draw(written(state[name]))
        elif how == "other field" and state:
            state[name] = state[draw(st.sampled_from(sorted(state)))]
        elif how == "kind":
            state["kind"] = draw(st.sampled_from([*KINDS, "play", "Melds", None]))
        else:
            state[name] = draw(json_values | st.sampled_from(SPECIAL_TEXT))
    return state


edits = st.dictionaries(
    st.sampled_from(EDIT_KEYS),
    json_values
    | st.integers(-1, 12)
    | st.sampled_from([*FIELDS, "7H", "AS", "standard", "A 25", {"winner": 0, "points": 5}]),
    max_size=4,
)


@FUZZ
@given(state=st.sampled_from(STATES), data=st.data(), edit=edits, lang=st.sampled_from(LANGS))
def test_an_edit_of_a_state_that_is_not_canonical_is_answered_with_a_code(state, data, edit, lang):
    bad = data.draw(spoiled(state))
    response = view_answer({"op": "edit", "lang": lang, "state": bad, "edit": edit})
    if response["ok"]:  # the state it meant, edited: canonical, and read again as itself
        assert read_state(response["result"]["state"]) == response["result"]["state"]


@FUZZ
@given(state=st.sampled_from(STATES), data=st.data(), lang=st.sampled_from(LANGS))
def test_a_state_that_is_not_canonical_is_drawn_as_the_state_it_means_or_refused(state, data, lang):
    bad = data.draw(spoiled(state))
    response = view_answer({"op": "render", "lang": lang, "state": bad})
    if response["ok"]:
        assert read_state(response["result"]["state"]) == response["result"]["state"]


# --- hand states and rules with numbers of the wrong type -------------------------------------

HAND = deal(seed=5).to_json()


def number_paths(value, path=()):
    """The paths of every number in a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from number_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from number_paths(item, (*path, index))
    elif isinstance(value, int) and not isinstance(value, bool):
        yield path


def replaced(value, path, new):
    if not path:
        return new
    head, *rest = path
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    return [replaced(item, rest, new) if i == head else item for i, item in enumerate(value)]


NUMBERS = sorted(number_paths(HAND), key=str)


@FUZZ
@given(
    path=st.sampled_from(NUMBERS),
    how=st.sampled_from([float, bool, str, lambda n: n + 0.5, lambda n: -n - 1]),
    op=st.sampled_from(["view", "bot", "advice", "lay_off_review", "play"]),
)
def test_a_number_of_a_hand_state_given_as_another_type_is_refused(path, how, op):
    """1.0 for 1, true for 1, "1" for 1: JSON's types are the state's, never coerced."""
    number = HAND
    for key in path:
        number = number[key]
    state = replaced(HAND, path, how(number))
    request = {"op": op, "state": state}
    request.update({"view": {"player": 0}, "advice": {"samples": 2}}.get(op, {}))
    if op == "play":
        request["action"] = {"kind": "pass", "player": HAND["turn"]}
    assert not engine_answer(request)["ok"]


# --- the engine's Python functions --------------------------------------------------------------

values = (
    json_values
    | st.sampled_from(SPECIAL_TEXT)
    | st.sampled_from(
        [
            Hand("AS 2S 3S"),
            Card.parse("7H"),
            RULESETS["pagat"],
            float("nan"),
            float("inf"),
            -1,
            52,
            1 << 52,
            b"AS",
            "7ſ",
            object(),
            {1, 2},
            (("8S", 1),),
            [("8S", -1)],
            [("8S", True)],
        ]
    )
)
KNOCKER = "2S 3S 4S 7H 7D 7C 9C TC JC 5D"
DEFENDER = "8S 9S TS KH KD 4H 6C 6H 2C AD"
CALLS = {
    "Card.parse": lambda a, b: Card.parse(a),
    "Card.from_index": lambda a, b: Card.from_index(a),
    "cards_from_mask": lambda a, b: ginrummy.cards_from_mask(a),
    "parse_cards": lambda a, b: ginrummy.parse_cards(a, b),
    "Hand": lambda a, b: Hand(a),
    "min_deadwood": lambda a, b: ginrummy.min_deadwood(a),
    "best_melds": lambda a, b: ginrummy.best_melds(a),
    "arrange": lambda a, b: ginrummy.arrange(a),
    "optimal_layouts": lambda a, b: ginrummy.optimal_layouts(a),
    "as_meld": lambda a, b: ginrummy.as_meld(a),
    "check_melds": lambda a, b: ginrummy.check_melds(a),
    "lay_offs": lambda a, b: ginrummy.lay_offs(a, b),
    "lay_offs of a defender": lambda a, b: ginrummy.lay_offs(["8C 8D 8H"], a),
    "check_lay_offs": lambda a, b: check_lay_offs(["8C 8D 8H", "9S TS JS"], DEFENDER, a),
    "score_hand": lambda a, b: ginrummy.score_hand(a, b),
    "score_hand's rules": lambda a, b: ginrummy.score_hand(KNOCKER, DEFENDER, a, b),
    "score_hand's melds": lambda a, b: ginrummy.score_hand(KNOCKER, DEFENDER, knocker_melds=a),
    "score_hand's lay-offs": lambda a, b: ginrummy.score_hand(
        KNOCKER, DEFENDER, defender_lay_offs=a
    ),
    "RuleSet.replace": lambda a, b: RULESETS["standard"].replace(
        **({a: b} if isinstance(a, str) else {"gin_bonus": a, "sources": b})
    ),
    "RuleSet.from_json": lambda a, b: RuleSet.from_json(a),
    "get_rules": lambda a, b: ginrummy.get_rules(a),
    "HandState.from_json": lambda a, b: HandState.from_json(a),
    "Action.from_json": lambda a, b: Action.from_json(a),
    "deal": lambda a, b: deal(seed=a, dealer=b),
    "deal from a deck": lambda a, b: deal(deck=a),
    "score_game": lambda a, b: ginrummy.score_game(a, b),
    "score_hollywood": lambda a, b: ginrummy.score_hollywood([a, b]),
    "check_ending": lambda a, b: ginrummy.check_ending(a, b, RULESETS["standard"]),
    "verdict": lambda a, b: ginrummy.verdict(a, RULESETS["standard"], b),
    "hollywood_columns": lambda a, b: ginrummy.hollywood_columns(a, b),
}


@FUZZ
@given(call=st.sampled_from(sorted(CALLS)), a=values, b=values)
def test_the_engines_functions_refuse_any_bad_argument_with_a_coded_error(call, a, b):
    try:
        CALLS[call](a, b)
    except GinRummyError as error:
        assert error.code and len(str(error)) <= 300
        error.to_json()


def test_a_value_nested_without_end_is_refused_at_once():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    for call in CALLS.values():
        for args in ((deep, deep), (deep, None)):
            try:
                call(*args)
            except GinRummyError as error:
                assert len(str(error)) <= 300
    assert engine_api.call({"op": "parse", "cards": "AS"})["ok"]
