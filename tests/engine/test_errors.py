"""Errors in full: code, English message and every parameter, for each way a value is refused,
so that the site (which words the code and parameters) and the command line (the message) both
get exactly what they need."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from ginrummy import (
    RULESETS,
    Card,
    CardError,
    Hand,
    RuleError,
    check_melds,
    lay_offs,
    parse_cards,
    score_hand,
)
from ginrummy.cards import MAX_SHOWN
from ginrummy.ending import check_ending, verdict
from ginrummy.game import HandEntry, hollywood_columns, score_game, score_hollywood
from ginrummy.hand import HandState, deal
from ginrummy.layoffs import check_lay_offs
from ginrummy.rules import CHOICE_RULES, FLAG_RULES, NUMBER_RANGES, RuleSet, get_rules

LONG = "Q" * (MAX_SHOWN + 5)
CUT = "Q" * (MAX_SHOWN - 1) + "…"  # a long token is quoted cut to MAX_SHOWN characters
STATE = deal(seed=3).to_json()

ERRORS = [
    (
        lambda: parse_cards("AS 2S 3S", count=10),
        {
            "code": "wrong_count",
            "message": "expected 10 cards, got 3",
            "params": {"token": None, "position": None, "expected": [10], "got": 3},
        },
    ),
    (
        lambda: parse_cards("AS 2S 3S", count=(10, 11)),
        {
            "code": "wrong_count",
            "message": "expected 10 or 11 cards, got 3",
            "params": {"token": None, "position": None, "expected": [10, 11], "got": 3},
        },
    ),
    (
        lambda: Card.parse(LONG),
        {
            "code": "unknown_rank",
            "message": f"unknown rank {CUT!r} in card {CUT!r}",
            "params": {"token": CUT, "position": None},
        },
    ),
    (
        lambda: Card.parse("Q" * MAX_SHOWN),  # just short enough: quoted whole
        {
            "code": "unknown_rank",
            "message": f"unknown rank {'Q' * (MAX_SHOWN - 1)!r} in card {'Q' * MAX_SHOWN!r}",
            "params": {"token": "Q" * MAX_SHOWN, "position": None},
        },
    ),
    (
        lambda: HandState.from_json({**STATE, "rules": 5}),
        {
            "code": "bad_state",
            "message": "rules must be a preset name or an object",
            "params": {"field": "rules", "value": "5"},
        },
    ),
    (
        lambda: HandState.from_json({**STATE, "rules": {"name": "custom", "nope": 1}}),
        {"code": "unknown_rule", "message": "no rule called 'nope'", "params": {"rule": "nope"}},
    ),
    (
        lambda: check_ending("fold", 3, RULESETS["standard"]),
        {
            "code": "bad_claim",
            "message": "a hand ends by knock, gin, big_gin, not 'fold'",
            "params": {"claim": "'fold'"},
        },
    ),
    (
        lambda: RULESETS["oklahoma"].knock_limit_for(None),
        {
            "code": "upcard_required",
            "message": "Oklahoma needs the upcard to set the knock limit",
            "params": {},
        },
    ),
    (
        lambda: get_rules("house"),
        {
            "code": "unknown_rules",
            "message": "no rule preset called 'house'; choose one of standard, pagat, pokerwiner, oklahoma",
            "params": {"rules": "house"},
        },
    ),
    (
        lambda: RuleSet.from_json(["standard"]),
        {
            "code": "bad_rule",
            "message": "rules must be an object, not ['standard']",
            "params": {"rule": "rules", "value": "['standard']"},
        },
    ),
    (
        lambda: RuleSet.from_json(list("abcdefghijklmnopqrstuvwxyz")),
        {
            "code": "bad_rule",
            "message": "rules must be an object, not ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h',",
            "params": {"rule": "rules", "value": "['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h',"},
        },
    ),
    (
        lambda: RuleSet.from_json({"name": "club", "sources": list(range(20))}),
        {
            "code": "bad_rule",
            "message": "sources must be a list of texts",
            "params": {"rule": "sources", "value": "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1"},
        },
    ),
    (
        lambda: RuleSet.from_json({"name": ["x"]}),
        {
            "code": "bad_rule",
            "message": "a rule set's name must be a text, not ['x']",
            "params": {"rule": "name", "value": "['x']"},
        },
    ),
    (
        lambda: RuleSet.from_json({"oklahoma": "no"}),
        {
            "code": "bad_rule",
            "message": "oklahoma must be true or false, not no",
            "params": {"rule": "oklahoma", "value": "no"},
        },
    ),
    (
        lambda: RULESETS["pagat"].replace(name="pagat", gin_bonus=30),
        {
            "code": "bad_rule",
            "message": "'pagat' is a preset's name: give house rules another",
            "params": {"rule": "name", "value": "pagat"},
        },
    ),
    (
        lambda: RuleSet.from_json({"name": "club", "sources": "me"}),
        {
            "code": "bad_rule",
            "message": "sources must be a list of texts",
            "params": {"rule": "sources", "value": "me"},
        },
    ),
]


@pytest.mark.parametrize("call, expected", ERRORS, ids=[e["message"][:30] for _, e in ERRORS])
def test_an_error_in_full(call, expected):
    with pytest.raises((CardError, RuleError)) as info:
        call()
    assert info.value.to_json() == expected
    if isinstance(info.value, CardError):
        assert info.value.token == expected["params"]["token"]
        assert info.value.position == expected["params"]["position"]


def test_a_bad_token_is_named_with_its_position():
    with pytest.raises(CardError) as info:
        parse_cards("AS 2S " + LONG)
    assert (info.value.token, info.value.position) == (CUT, 2)


def test_rules_in_a_hand_state_are_a_preset_with_changes_or_a_whole_rule_set():
    changed = HandState.from_json({**STATE, "rules": {"name": "pagat", "gin_bonus": 30}}).rules
    assert changed == RULESETS["pagat"].replace(gin_bonus=30) and changed.name == "custom"
    assert HandState.from_json({**STATE, "rules": "oklahoma"}).rules is RULESETS["oklahoma"]
    whole = RULESETS["pagat"].replace(gin_bonus=30).to_json()
    assert HandState.from_json({**STATE, "rules": whole}).rules == changed
    # no name: the standard preset, itself when nothing changes; an unknown rule is named
    assert HandState.from_json({**STATE, "rules": {}}).rules is RULESETS["standard"]
    assert state_error({**STATE, "rules": {"nope": 1}}) == {
        "code": "unknown_rule",
        "message": "no rule called 'nope'",
        "params": {"rule": "nope"},
    }


def test_a_hand_cannot_be_changed():
    hand = Hand("AS 2S 3S")
    for change in (lambda: setattr(hand, "mask", 0), lambda: delattr(hand, "mask")):
        with pytest.raises(AttributeError, match=r"^Hand is immutable$"):
            change()
    assert str(hand) == "AS 2S 3S"


# A hand state spoiled field by field: each refusal names the field and quotes the value.
SPOILED_STATE = {  # field -> the message when it is 12345
    "version": "unknown state version 12345",
    "rules": "rules must be a preset name or an object",
    "dealer": "dealer must be one of 0, 1",
    "turn": "turn must be one of 0, 1",
    "hands": "hands must be a list of two hands",
    "stock": "stock must be cards written like '7H 8H'",
    "discards": "discards must be cards written like '7H 8H'",
    "upcard": "upcard must be a card written like 7H",
    "taken": "taken must be a card written like 7H",
    "knock_discard": "knock_discard must be a card written like 7H",
    "phase": "phase must be one of offer, draw, discard, lay_off, finished",
    "end_of_stock": "end_of_stock must be one of void, reshuffle",
    "stock_only": "stock_only must be true or false",
    "reshuffles": "reshuffles must be 0 to 1",
    "knocker": "knocker must be one of None, 0, 1",
    "ending": "ending must be one of None, knock, gin, big_gin",
    "outcome": "outcome must be one of None, knock, gin, big_gin, undercut, dead",
    "history": "the history must be a list of events",
    "laid_off": "laid_off must be a list of {card, meld}",
    "layout": "the layout must be a list of at most 10 melds",
}


def state_error(data) -> dict:
    with pytest.raises((CardError, RuleError)) as info:
        HandState.from_json(data)
    return info.value.to_json()


def test_every_field_of_a_hand_state_is_checked():
    assert set(SPOILED_STATE) == set(STATE) - {"result"}  # the result is worked out again


@pytest.mark.parametrize("field", sorted(SPOILED_STATE))
def test_a_spoiled_or_missing_field_of_a_hand_state_is_named(field):
    assert state_error({**STATE, field: 12345}) == {
        "code": "bad_state",
        "message": SPOILED_STATE[field],
        "params": {"field": field, "value": "12345"},
    }
    assert state_error({k: v for k, v in STATE.items() if k != field}) == {
        "code": "bad_state",
        "message": f"the hand state has no {field!r}",
        "params": {"field": field, "value": "None"},
    }


def test_a_hand_state_is_an_object_of_whole_cards():
    for value in (None, 5, "x"):
        assert state_error(value) == {
            "code": "bad_state",
            "message": "a hand state must be an object",
            "params": {"field": "state", "value": repr(value)},
        }
    for field in ("upcard", "taken", "knock_discard"):  # one card each
        assert state_error({**STATE, field: "AS 2S"}) == {
            "code": "bad_state",
            "message": f"{field}: expected 1 card, got 2",
            "params": {"field": field, "value": "'AS 2S'"},
        }
    assert state_error({**STATE, "hands": [STATE["hands"][0]]})["params"] == {
        "field": "hands",
        "value": repr([STATE["hands"][0]]),
    }


@pytest.mark.parametrize("knocker", [2, -1, True, "0"])
def test_a_hand_entry_needs_the_knockers_number(knocker):
    result = score_hand("2S 3S 4S 7H 7D 7C 9C TC JC 5D", "8S 9S TS KH KD 4H 6C 6H 2C AD")
    with pytest.raises(RuleError) as info:
        HandEntry.from_result(result, knocker)
    assert info.value.to_json() == {
        "code": "bad_entry",
        "message": f"knocker must be player 0 or 1, not {knocker!r}",
        "params": {"field": "knocker", "value": knocker},
    }


@pytest.mark.parametrize("name", sorted(NUMBER_RANGES))
def test_a_rule_number_out_of_its_range_is_refused_in_full(name):
    """Each number of a rule set: below, above, not a whole number, or missing (None, which
    only big_gin_bonus may be: big gin not played) is refused, naming the rule, the value and
    the range. With big gin not played, the numbers after it are still checked."""
    low, high = NUMBER_RANGES[name]
    nothing = " or None" if name == "big_gin_bonus" else ""
    for bad in (low - 1, high + 1, True, 2.0, "5", None, "x" * 50):
        if bad is None and name == "big_gin_bonus":
            assert RuleSet(big_gin_bonus=None).big_gin_bonus is None
            continue
        for others in ({}, {"big_gin_bonus": None} if name != "big_gin_bonus" else {}):
            with pytest.raises(RuleError) as info:
                RuleSet(**others, **{name: bad})
            assert info.value.code == "bad_rule"
            assert info.value.params == {
                "rule": name,
                "value": str(bad)[:40],
                "low": low,
                "high": high,
            }
            assert str(info.value) == (
                f"{name} must be a whole number from {low} to {high}{nothing}, not {str(bad)[:40]}"
            )


@pytest.mark.parametrize("name, allowed", sorted(CHOICE_RULES.items()))
def test_a_rule_choice_not_offered_is_refused_in_full(name, allowed):
    with pytest.raises(RuleError) as info:
        RuleSet(**{name: "house"})
    assert info.value.code == "bad_rule"
    assert info.value.params == {"rule": name, "value": "house"}
    assert str(info.value) == f"{name} must be one of {', '.join(allowed)}, not 'house'"


@pytest.mark.parametrize("name", FLAG_RULES)
def test_a_rule_that_is_on_or_off_is_true_or_false(name):
    for bad in ("yes", 1, None):
        with pytest.raises(RuleError) as info:
            RuleSet(**{name: bad})
        assert info.value.params == {"rule": name, "value": str(bad)}


def test_a_rule_set_round_trips_through_json():
    """A preset is itself, a preset with changes or a whole rule set of its own name comes
    back equal; sources are kept only for a rule set of its own."""
    for rules in (
        *RULESETS.values(),
        RULESETS["pagat"].replace(gin_bonus=30),
        RULESETS["oklahoma"].replace(name="club", spade_doubles=False),
        RuleSet(name="house", knock_limit=5, sources=("my aunt",)),
    ):
        again = RuleSet.from_json(rules.to_json())
        assert again == rules and again.sources == rules.sources
    assert RuleSet.from_json({"name": "pagat", "gin_bonus": 20}) is RULESETS["pagat"]
    assert RuleSet.from_json({}) is RULESETS["standard"]
    assert RuleSet.from_json({"name": "pagat", "sources": ["x"]}) is RULESETS["pagat"]
    assert RuleSet.from_json({"name": "house"}) == RuleSet(name="house")


def test_a_changed_preset_is_custom_unless_named():
    oklahoma = RULESETS["oklahoma"]
    custom = oklahoma.replace(knock_limit=5)
    assert (custom.name, custom.sources, custom.knock_limit) == ("custom", (), 5)
    named = oklahoma.replace(name="club", gin_bonus=30)
    assert (named.name, named.sources, named.oklahoma) == ("club", oklahoma.sources, True)
    with pytest.raises(RuleError) as info:
        oklahoma.replace(colour="red")
    assert (info.value.code, info.value.params) == ("unknown_rule", {"rule": "colour"})


def test_an_error_is_one_line_of_at_most_300_characters():
    assert str(RuleError("x", "a" * 300)) == "a" * 300
    assert str(RuleError("x", "a" * 301)) == "a" * 299 + "…"


def test_an_error_as_json_keeps_its_params_plain():
    """Cards become their notation (a list of cards one string), long texts are cut, anything
    else is its text; numbers, flags and None stay as they are."""
    cards = parse_cards("AS TD")
    error = RuleError(
        "x",
        "m",
        cards=tuple(cards),
        one=[cards[0]],
        mixed=[cards[0], 7],
        nested={"deep": ["a", None, 2.5, True]},
        long="b" * 400,
        other=Card.parse("KH"),
        ranked=[SimpleNamespace(rank=1)],
        thing=ValueError("c" * 400),
    )
    assert error.to_json() == {
        "code": "x",
        "message": "m",
        "params": {
            "cards": "AS TD",
            "one": "AS",
            "mixed": ["AS", 7],
            "nested": {"deep": ["a", None, 2.5, True]},
            "long": "b" * 299 + "…",
            "other": "KH",
            "ranked": ["namespace(rank=1)"],
            "thing": "c" * 299 + "…",
        },
    }


KNOCKER = "2S 3S 4S 7H 7D 7C 9C TC JC 5D"
DEFENDER = "8S 9S TS KH KD 4H 6C 6H 2C AD"


@pytest.mark.parametrize("melds", [None, 5, 2.5, "8C 8D 8H", Card.parse("8C"), {"a": 1}])
def test_melds_that_are_no_list_of_melds_are_refused_by_every_function(melds):
    for call in (
        lambda: lay_offs(melds, DEFENDER),
        lambda: check_melds(melds),
        lambda: check_lay_offs(melds, DEFENDER, []),
        # None is score_hand's own default: the knocker's best layout
        lambda: score_hand(KNOCKER, DEFENDER, knocker_melds=melds or 5),
    ):
        with pytest.raises(RuleError) as info:
            call()
        assert info.value.code == "bad_melds" and len(str(info.value)) < 100


@pytest.mark.parametrize("plays", [5, None, 2.5, "8S", Card.parse("8S")])
def test_lay_offs_that_are_no_list_are_refused(plays):
    with pytest.raises(RuleError) as info:
        check_lay_offs(["8C 8D 8H"], "8S 7S KH KD KC 2H 3H 4H 5C 6D", plays)
    assert (info.value.code, info.value.params["field"]) == ("bad_action", "lay_offs")
    if plays is not None:  # None: the engine plays the best lay-offs
        with pytest.raises(RuleError):
            score_hand(KNOCKER, DEFENDER, defender_lay_offs=plays)


@pytest.mark.parametrize(
    "change",
    [
        {"sources": 5},
        {"sources": "pagat.com"},
        {"sources": [1]},
        {"name": ["x"]},
        {"name": 5},
        {"tie": ["undercut"]},
        {"gin_bonus": 25.0},
    ],
)
def test_a_rule_set_refuses_a_value_of_the_wrong_type(change):
    with pytest.raises(RuleError) as info:
        RULESETS["standard"].replace(**change)
    assert info.value.code == "bad_rule" and info.value.params["rule"] == next(iter(change))
    assert RULESETS["standard"].replace(sources=["me"]).sources == ("me",)


@pytest.mark.parametrize("name, value", [("gin_bonus", 25.0), ("knock_limit", True), ("tie", 1)])
def test_rules_from_json_take_a_number_only_as_a_number(name, value):
    """25.0 is not 25 and true is not 1, even where the preset holds that very number."""
    with pytest.raises(RuleError) as info:
        RuleSet.from_json({"name": "standard", name: value})
    assert (info.value.code, info.value.params["rule"]) == ("bad_rule", name)


@pytest.mark.parametrize(
    "field, value", [("turn", 1.0), ("dealer", 0.0), ("version", 1.0), ("version", True)]
)
def test_a_hand_state_takes_a_number_only_as_a_number(field, value):
    state = {**STATE, field: value}
    assert state_error(state)["params"]["field"] == field


def test_an_error_quotes_a_value_nested_without_end_at_once():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    for call in (
        lambda: RuleSet.from_json({"gin_bonus": deep}),
        lambda: RuleSet.from_json({"name": "club", "sources": deep}),
        lambda: get_rules(deep),
        lambda: HandState.from_json({**STATE, "turn": deep}),
        lambda: lay_offs(deep, DEFENDER),
    ):
        with pytest.raises((CardError, RuleError)) as info:
            call()
        assert len(str(info.value)) <= 300


@pytest.mark.parametrize(
    "call, code",
    [
        (lambda: verdict("5", RULESETS["standard"]), "bad_setting"),
        (lambda: verdict(-1, RULESETS["standard"]), "bad_setting"),
        (lambda: hollywood_columns(["1"], [1, 2]), "bad_setting"),
        (lambda: hollywood_columns(None, [1, 2]), "bad_setting"),
        (lambda: check_ending(["knock"], 5, RULESETS["standard"]), "bad_claim"),
    ],
)
def test_the_endings_and_the_hollywood_columns_refuse_bad_arguments(call, code):
    with pytest.raises(RuleError) as info:
        call()
    assert info.value.code == code


def test_a_sheet_quotes_an_entry_nested_without_end_at_once():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    for call in (
        lambda: score_game(deep),
        lambda: score_game([deep]),
        lambda: score_hollywood([{"winner": deep, "points": 1}]),
        lambda: check_ending(deep, 1, RULESETS["standard"]),
    ):
        with pytest.raises(RuleError) as info:
            call()
        assert len(str(info.value)) <= 300
