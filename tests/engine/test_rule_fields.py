"""Every field of a rule set does what the rules say: random custom rule sets checked against
the rules as written here (sharing no code with the engine's branches), and one worked pair per
field (tests/data/rule_fields.json) where changing only that field changes the result.

The hands are the worked hands of tests/data/hands.json. What a hand's cards are worth (the
knocker's deadwood, the defender's after lay-offs, whether it is gin or big gin) does not depend
on the rule numbers, so it is read once under generous rules; what the rules make of it is then
computed here from the rule text for any rule set and compared with ``score_hand``.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from ginrummy import DECK, Card, RuleError, RuleSet, score_hand
from ginrummy.cards import Hand
from ginrummy.game import HandEntry, score_game, score_hollywood
from ginrummy.hand import Action, HandState, legal_actions
from ginrummy.match import next_dealer
from ginrummy.rules import CHOICE_RULES, FLAG_RULES, NUMBER_RANGES
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.test_melds import brute, brute_discards, hands

DATA = Path(__file__).parent.parent / "data"
HANDS = [
    c
    for c in json.loads((DATA / "hands.json").read_text("utf-8"))["hands"]
    if "error" not in c["expect"] and "knocker_melds" not in c
]
WITNESSES = json.loads((DATA / "rule_fields.json").read_text("utf-8"))["cases"]
PICTURE = 10


# ---------------------------------------------------------------- the rules, as written


def knock_limit(rules: RuleSet, upcard: str | None) -> int:
    """The knock limit: the fixed number; in Oklahoma the upcard's value (pictures 10, ace 1),
    except that with an ace under ``ace_upcard="gin_only"`` only gin ends the hand."""
    if not rules.oklahoma:
        return rules.knock_limit
    rank = upcard[0]
    if rank == "A":
        return 0 if rules.ace_upcard == "gin_only" else 1
    return PICTURE if rank in "TJQK" else int(rank)


def expected_hand(
    rules: RuleSet, upcard: str | None, kind: str, knocker: int, defender: int
) -> dict:
    """What the rules make of a hand: ``kind`` is gin, big_gin or knock; ``knocker`` and
    ``defender`` are the deadwood points (the defender's after lay-offs)."""
    if kind == "big_gin" and rules.big_gin_bonus is None:
        return {"error": "big_gin_not_played"}
    limit = knock_limit(rules, upcard)
    if kind == "knock" and knocker > limit:
        if rules.oklahoma and limit == 0:
            return {"error": "gin_required"}
        return {"error": "knock_over_limit"}
    tie = kind == "knock" and knocker == defender
    if kind == "gin":
        winner, outcome, points = "knocker", "gin", rules.gin_bonus + defender
    elif kind == "big_gin":
        winner, outcome, points = "knocker", "big_gin", rules.big_gin_bonus + defender
    elif defender > knocker:
        winner, outcome, points = "knocker", "knock", defender - knocker
    elif tie and rules.tie == "knocker":
        winner, outcome, points = "knocker", "knock", 0
    else:
        winner, outcome, points = "defender", "undercut", rules.undercut_bonus + knocker - defender
    doubled = rules.oklahoma and rules.spade_doubles and upcard is not None and upcard[1] == "S"
    return {
        "winner": winner,
        "outcome": outcome,
        "tie": tie,
        "multiplier": 2 if doubled else 1,
        "points": points * (2 if doubled else 1),
        "knock_limit": limit if kind == "knock" else None,
    }


def expected_game(rules: RuleSet, entries: list[tuple[int, int, int]]) -> dict:
    """A game's settlement as the rules say, from its hands won (winner, points, boxes)."""
    points, boxes = [0, 0], [0, 0]
    for winner, score, box in entries:
        points[winner] += score
        boxes[winner] += box
    if max(points) < rules.game_target:
        return {"finished": False, "totals": points, "difference": None, "collector": None}
    winner = 0 if points[0] >= rules.game_target else 1
    loser = 1 - winner
    totals = [points[p] + boxes[p] * rules.box_bonus for p in (0, 1)]
    totals[winner] += rules.game_bonus
    shutout = points[loser] == 0  # by points, not by hands won: a 0-point hand is no escape
    extra = 0
    if shutout:
        extra = {
            "double_points": points[winner],
            "double_game_bonus": rules.game_bonus,
            "double_difference": max(0, totals[winner] - totals[loser]),
            "none": 0,
        }[rules.shutout]
    totals[winner] += extra
    return {
        "finished": True,
        "winner": winner,
        "shutout": shutout,
        "shutout_bonus": extra,
        "totals": totals,
        # the larger total collects the difference, whoever reached the target
        "difference": abs(totals[0] - totals[1]),
        "collector": None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1),
    }


# ---------------------------------------------------------------- random custom rule sets


@st.composite
def rule_sets(draw) -> RuleSet:
    numbers = {
        name: draw(st.integers(low, min(high, 200))) for name, (low, high) in NUMBER_RANGES.items()
    }
    numbers["big_gin_bonus"] = draw(st.none() | st.integers(0, 200))
    choices = {name: draw(st.sampled_from(allowed)) for name, allowed in CHOICE_RULES.items()}
    flags = {name: draw(st.booleans()) for name in FLAG_RULES}
    return RuleSet(**numbers, **choices, **flags)


def test_rule_sets_draw_every_field():
    drawn = {f.name for f in dataclasses.fields(RuleSet)} - {"name", "sources"}
    assert drawn == set(NUMBER_RANGES) | set(CHOICE_RULES) | set(FLAG_RULES)


@pytest.fixture(scope="module")
def worth():
    """Each worked hand's kind and deadwood points, read under generous rules."""
    generous = RuleSet(knock_limit=100)
    found = {}
    for case in HANDS:
        result = score_hand(case["knocker"], case["defender"], generous)
        kind = result.outcome if result.outcome in ("gin", "big_gin") else "knock"
        found[case["id"]] = (kind, result.knocker_points, result.defender_points)
    return found


@settings(max_examples=300, deadline=None)
@given(
    rules=rule_sets(),
    case=st.sampled_from(HANDS),
    upcard=st.none() | st.sampled_from([str(card) for card in DECK]),
)
def test_any_rule_set_scores_a_hand_as_the_rules_say(worth, rules, case, upcard):
    if rules.oklahoma and upcard is None:
        upcard = "7S"
    expect = expected_hand(rules, upcard, *worth[case["id"]])
    if "error" in expect:
        with pytest.raises(RuleError) as info:
            score_hand(case["knocker"], case["defender"], rules, upcard)
        assert info.value.code == expect["error"]
        return
    result = score_hand(case["knocker"], case["defender"], rules, upcard)
    assert {key: getattr(result, key) for key in expect} == expect


POINTS = st.just(0) | st.integers(0, 90)  # often 0: a hand won for nothing is no shutout escape
entry_lists = st.lists(st.tuples(st.integers(0, 1), POINTS, st.integers(1, 2)), max_size=30)


@settings(max_examples=300, deadline=None)
@given(rules=rule_sets(), entries=entry_lists)
def test_any_rule_set_settles_a_game_as_the_rules_say(rules, entries):
    for n in range(len(entries) + 1):  # up to the hand that ends the game
        if expected_game(rules, entries[:n])["finished"]:
            entries = entries[:n]
            break
    expect = expected_game(rules, entries)
    sheet = score_game(entries, rules)
    got = {key: getattr(sheet, key) for key in expect}
    assert {**got, "totals": list(sheet.totals)} == expect


def test_a_shutout_is_decided_by_points_not_by_hands_won():
    # Player 1 won a hand, worth 0 (a tie given to the knocker): still shut out.
    sheet = score_game([(0, 60), (1, 0), (0, 45)], "standard")
    assert sheet.hands_won == (2, 1) and sheet.points == (105, 0)
    assert sheet.shutout and sheet.shutout_bonus == 105
    assert sheet.totals == (105 + 50 + 100 + 105, 25)


# ---------------------------------------------------------------- one worked pair per field


def run_witness(call: str, rules: RuleSet, given_: dict) -> dict:
    """Run one witness and return its result as JSON, or ``{"error": code}``."""
    try:
        if call == "hand":
            return score_hand(
                given_["knocker"], given_["defender"], rules, given_.get("upcard")
            ).to_json()
        if call == "game":
            return score_game(given_["entries"], rules).to_json()
        if call == "hollywood":
            return score_hollywood(given_["entries"], rules).to_json()
        if call == "entry":
            upcard = given_["upcard"]
            result = score_hand(given_["knocker"], given_["defender"], rules, upcard)
            return HandEntry.from_result(result, 0, rules, Card.parse(upcard)).to_json()
        if call == "dealer":
            entry = None if given_["winner"] is None else HandEntry(given_["winner"], 10)
            return {"dealer": next_dealer(rules, given_["dealer"], entry)}
    except RuleError as error:
        return {"error": error.code}
    raise AssertionError(f"unknown call {call!r}")


def test_every_field_has_a_witness():
    fields = {f.name for f in dataclasses.fields(RuleSet)} - {"name", "sources"}
    assert fields == {case["field"] for case in WITNESSES}


@pytest.mark.parametrize(
    "case", WITNESSES, ids=[f"{c['field']}-{i}" for i, c in enumerate(WITNESSES)]
)
def test_changing_one_field_changes_the_result_as_the_rules_say(case):
    assert case["why"]
    base = RuleSet(**case.get("rules", {}))
    before, after = case["values"]
    assert before != after
    results = []
    for value, expect in zip((before, after), case["expect"]):
        got = run_witness(case["call"], base.replace(**{case["field"]: value}), case["given"])
        assert {key: got.get(key) for key in expect} == expect, (case["field"], value)
        results.append(got)
    assert results[0] != results[1]


# ---------------------------------------------------------------- the knock limit in play


@settings(max_examples=200, deadline=None)
@given(rules=rule_sets(), cards=hands(11), upcard=st.sampled_from(DECK))
def test_any_rule_set_offers_exactly_the_knocks_the_rules_allow(rules, cards, upcard):
    """In the discard phase, under any rule set: a knock is offered with each card whose
    discard leaves at most the knock limit (the rules as written above, brute-force deadwood),
    gin with each that leaves none, big gin when all 11 cards meld and big gin is played."""
    if upcard in cards:
        return
    rest = [c for c in DECK if c not in cards and c is not upcard]
    state = HandState(
        rules=rules,
        dealer=1,
        hands=(Hand(cards), Hand(rest[:10])),
        stock=tuple(rest[10:]),
        discards=(upcard,),
        upcard=upcard,
        phase="discard",
        turn=0,
    )
    actions = set(legal_actions(state))
    limit = knock_limit(rules, str(upcard))
    for card, (points, _) in brute_discards(cards).items():
        assert (Action("knock", 0, card) in actions) == (points <= limit), (card, points, limit)
        assert (Action("gin", 0, card) in actions) == (points == 0), (card, points)
    big = brute(cards)[0] == 0 and rules.big_gin_bonus is not None
    assert (Action("big_gin", 0) in actions) == big
