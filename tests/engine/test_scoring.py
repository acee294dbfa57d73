"""Hand scoring: worked hands (tests/data/hands.json), a table per preset
(tests/data/scoring_tables.json), explanation steps, validation and property tests."""

from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path

import ginrummy.scoring as scoring
import pytest
from ginrummy import (
    DECK,
    RULESETS,
    Card,
    CardError,
    Hand,
    RuleError,
    arrange,
    best_deadwood_sets,
    best_melds,
    get_rules,
    lay_offs,
    min_deadwood,
    optimal_layouts,
    parse_cards,
    score_hand,
)
from ginrummy.melds import min_deadwood_mask
from hypothesis import example, given, settings
from hypothesis import strategies as st

DATA_DIR = Path(__file__).parent.parent / "data"
HANDS = json.loads((DATA_DIR / "hands.json").read_text("utf-8"))["hands"]
TABLE = json.loads((DATA_DIR / "scoring_tables.json").read_text("utf-8"))

STEP_CODES = {
    "knocker_melds",
    "gin",
    "big_gin",
    "knock",
    "defender_melds",
    "lay_off",
    "defender_deadwood",
    "gin_score",
    "big_gin_score",
    "knock_win",
    "undercut",
    "tie_knocker",
    "spade_doubles",
    "result",
}
WORDS = {"knocker", "defender", "knock", "gin", "big_gin", "undercut"}  # enum values in steps


def score(case):
    return score_hand(
        case["knocker"],
        case["defender"],
        case.get("rules", "standard"),
        case.get("upcard"),
        knocker_melds=case.get("knocker_melds"),
    )


def expected_points(result) -> int:
    """The score recomputed from the rule numbers, independently of the engine's branches."""
    rules = result.rules
    k, d = result.knocker_points, result.defender_points
    if result.outcome == "gin":
        base = rules.gin_bonus + d
    elif result.outcome == "big_gin":
        base = rules.big_gin_bonus + d
    elif d > k:
        base = d - k
    elif d < k or rules.tie == "undercut":
        base = rules.undercut_bonus + k - d
    else:
        base = 0
    return base * result.multiplier


def check_result(result) -> None:
    """Invariants every scored hand must satisfy."""
    assert result.points == expected_points(result)
    assert result.outcome in scoring.OUTCOMES
    assert result.winner == ("defender" if result.outcome == "undercut" else "knocker")
    assert result.tie == (
        result.outcome not in ("gin", "big_gin") and result.knocker_points == result.defender_points
    )
    assert result.knocker_points == result.knocker_deadwood.points
    assert result.defender_points == result.defender_deadwood.points
    if result.outcome in ("gin", "big_gin"):
        assert result.lay_offs == () and result.knocker_points == 0
    check_steps(result)


def check_steps(result) -> None:
    steps = result.explain()
    text = json.dumps(steps)  # JSON-serialisable
    assert json.loads(text) == steps
    codes = [s["code"] for s in steps]
    assert set(codes) <= STEP_CODES
    assert codes[0] == "knocker_melds" and codes[-1] == "result"
    assert codes.count("lay_off") == len(result.lay_offs)
    for step in steps:
        for key, value in step.items():
            if key == "code":
                continue
            if isinstance(value, str):
                # only card notation or an enum value: never a sentence
                assert value in WORDS or value == "" or parse_cards(value), (key, value)
            elif isinstance(value, list):
                assert all(parse_cards(v) for v in value)
            else:
                assert value is None or isinstance(value, (int, bool)), (key, value)
    last = steps[-1]
    assert (last["winner"], last["outcome"], last["points"], last["tie"]) == (
        result.winner,
        result.outcome,
        result.points,
        result.tie,
    )
    data = result.to_json()
    json.dumps(data)
    assert data["points"] == result.points and data["steps"] == steps


# ---------------------------------------------------------------- worked hands


@pytest.mark.parametrize("case", HANDS, ids=[c["id"] for c in HANDS])
def test_worked_hand(case):
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises((CardError, RuleError)) as info:
            score(case)
        assert info.value.code == expect["error"]
        for key, value in expect.get("params", {}).items():
            assert info.value.params[key] == value
        json.dumps(info.value.to_json())
        return
    result = score(case)
    check_result(result)
    for field in (
        "outcome",
        "winner",
        "points",
        "knocker_points",
        "defender_points",
        "tie",
        "multiplier",
        "knock_limit",
    ):
        if field in expect:
            assert getattr(result, field) == expect[field], field
    if "laid_off" in expect:
        assert sorted(str(lay.card) for lay in result.lay_offs) == sorted(expect["laid_off"])
    if "knocker_melds" in expect and "knocker_melds" not in case:
        assert [str(m) for m in result.knocker_melds] == expect["knocker_melds"]
    if "defender_melds" in expect:
        assert [str(m) for m in result.defender_melds] == expect["defender_melds"]


def test_every_reference_failure_has_a_worked_hand():
    data = json.loads((DATA_DIR / "hands.json").read_text("utf-8"))
    refs = {c.get("reference") for c in data["hands"] + data["lay_offs"]}
    assert {"openspiel", "rlcard", "neller"} <= refs
    ids = {c["id"] for c in data["hands"] + data["lay_offs"]}
    for needed in (
        "neller_greedy_set_or_run",
        "openspiel_third_card_same_end",
        "tie_counts_as_undercut",
        "gin_no_lay_offs",
        "undercut",
        "knock_with_lay_offs",
        "chains_at_both_ends",
        "break_own_meld",
        "two_runs_one_suit",
        "big_gin",
        "tie_to_knocker",
        "oklahoma_limit_is_upcard",
        "oklahoma_ace_gin_only",
        "oklahoma_spade_doubles_knock",
    ):
        assert needed in ids


# ---------------------------------------------------------------- one table per preset


def test_table_covers_every_preset():
    assert set(TABLE["expected"]) == set(RULESETS)


@pytest.mark.parametrize("preset", sorted(RULESETS))
@pytest.mark.parametrize("kind", ["knock", "gin", "big_gin", "undercut", "tie"])
def test_scoring_table(preset, kind):
    hand = TABLE["hands"][kind]
    expected = TABLE["expected"][preset][kind]
    upcard = TABLE["upcards"].get(preset)
    if isinstance(expected, dict):
        with pytest.raises(RuleError) as info:
            score_hand(hand["knocker"], hand["defender"], preset, upcard)
        assert info.value.code == expected["error"]
        return
    result = score_hand(hand["knocker"], hand["defender"], preset, upcard)
    check_result(result)
    assert result.points == expected
    assert result.outcome == {"tie": "undercut"}.get(kind, kind)
    assert result.rules is RULESETS[preset]


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_tie_to_knocker_under_every_preset(preset):
    hand = TABLE["hands"]["tie"]
    rules = get_rules(preset).replace(tie="knocker")
    result = score_hand(hand["knocker"], hand["defender"], rules, TABLE["upcards"].get(preset))
    assert (result.outcome, result.winner, result.points, result.tie) == (
        "knock",
        "knocker",
        0,
        True,
    )
    assert [s["code"] for s in result.explain()][-2] == "tie_knocker"


# ---------------------------------------------------------------- explanation steps


def test_step_codes_and_params_are_documented():
    doc = scoring.__doc__
    seen = set()
    for case in HANDS + [
        {"knocker": h["knocker"], "defender": h["defender"]} for h in TABLE["hands"].values()
    ]:
        if "error" in case.get("expect", {}):
            continue
        for step in score(case).explain():
            seen.add(step["code"])
            match = re.search(
                r"^``" + re.escape(step["code"]) + r"``:(.*?)(?:\n\n|\Z)", doc, re.S | re.M
            )
            assert match, f"step {step['code']} is not documented"
            for param in step:
                if param != "code":
                    assert f"``{param}``" in match.group(1), (step["code"], param)
    assert seen == STEP_CODES


def test_explain_knock_with_lay_offs():
    steps = score_hand("7S 8S 9S 2H 3H 4H KC KD KH AD", "6S TS AC 2C 3D 5D 7D 9D QH QS").explain()
    assert steps == [
        {
            "code": "knocker_melds",
            "melds": ["7S 8S 9S", "2H 3H 4H", "KH KD KC"],
            "deadwood": "AD",
            "points": 1,
            "cards": 10,
            "gin": False,
        },
        {"code": "knock", "deadwood": 1, "limit": 10, "upcard": None, "oklahoma": False},
        {"code": "defender_melds", "melds": []},
        {
            "code": "lay_off",
            "card": "6S",
            "meld": "7S 8S 9S",
            "result": "6S 7S 8S 9S",
            "meld_index": 0,
        },
        {
            "code": "lay_off",
            "card": "TS",
            "meld": "6S 7S 8S 9S",
            "result": "6S 7S 8S 9S TS",
            "meld_index": 0,
        },
        {
            "code": "defender_deadwood",
            "deadwood": "AC 2C 3D 5D 7D 9D QS QH",
            "points": 47,
            "laid_off": 2,
        },
        {
            "code": "knock_win",
            "knocker_points": 1,
            "defender_points": 47,
            "difference": 46,
            "total": 46,
        },
        {"code": "result", "winner": "knocker", "outcome": "knock", "points": 46, "tie": False},
    ]


def test_explain_tie_and_spade_doubling():
    hand = TABLE["hands"]["tie"]
    steps = score_hand(hand["knocker"], hand["defender"]).explain()
    assert steps[-2] == {
        "code": "undercut",
        "knocker_points": 8,
        "defender_points": 8,
        "tie": True,
        "bonus": 25,
        "difference": 0,
        "total": 25,
    }
    hand = TABLE["hands"]["knock"]
    steps = score_hand(hand["knocker"], hand["defender"], "oklahoma", "5S").explain()
    assert steps[-2] == {
        "code": "spade_doubles",
        "upcard": "5S",
        "multiplier": 2,
        "before": 34,
        "total": 68,
    }
    assert steps[1] == {
        "code": "knock",
        "deadwood": 5,
        "limit": 5,
        "upcard": "5S",
        "oklahoma": True,
    }


def test_explain_gin_and_big_gin():
    hand = TABLE["hands"]["gin"]
    codes = [s["code"] for s in score_hand(hand["knocker"], hand["defender"]).explain()]
    assert codes == [
        "knocker_melds",
        "gin",
        "defender_melds",
        "defender_deadwood",
        "gin_score",
        "result",
    ]
    hand = TABLE["hands"]["big_gin"]
    steps = score_hand(hand["knocker"], hand["defender"]).explain()
    assert steps[0]["cards"] == 11 and steps[1] == {"code": "big_gin", "bonus": 31}
    assert steps[-2] == {"code": "big_gin_score", "bonus": 31, "defender_points": 77, "total": 108}


# ---------------------------------------------------------------- validation


def test_validation_errors():
    k, d = TABLE["hands"]["knock"]["knocker"], TABLE["hands"]["knock"]["defender"]
    cases = [
        ((k, "5D" + d[2:]), CardError, "duplicate_card"),
        ((k, d + " QS"), CardError, "wrong_count"),
        ((k.rsplit(" ", 1)[0], d), CardError, "wrong_count"),
        ((k + " AS QS", d), CardError, "wrong_count"),
        ((k, d.replace("AD", "XD")), CardError, "unknown_rank"),
        ((k, d, "nonsense"), RuleError, "unknown_rules"),
        ((k, d, {"name": "standard", "tie": "nobody"}), RuleError, "bad_rule"),
        ((k, d, "standard", "ZZ"), CardError, "unknown_rank"),
    ]
    for args, error, code in cases:
        with pytest.raises(error) as info:
            score_hand(*args)
        assert info.value.code == code, args
    with pytest.raises(CardError) as info:
        score_hand(k, "5D" + d[2:])
    assert info.value.params["token"] == "5D"


def test_explicit_layout_must_be_melds_from_the_hand():
    k, d = TABLE["hands"]["knock"]["knocker"], TABLE["hands"]["knock"]["defender"]
    with pytest.raises(RuleError) as info:
        score_hand(k, d, knocker_melds=["2S 3S 4S", "8H 9H TH"])
    assert info.value.code == "meld_not_in_hand"
    with pytest.raises(RuleError) as info:
        score_hand(k, d, knocker_melds=["2S 3S 7H"])
    assert info.value.code == "not_a_meld"
    # A legal but worse layout: the knocker leaves 9C TC JC unmelded and is over the limit.
    with pytest.raises(RuleError) as info:
        score_hand(k, d, knocker_melds=["2S 3S 4S", "7H 7D 7C"])
    assert info.value.code == "knock_over_limit" and info.value.params["deadwood"] == 34


def test_upcard_may_be_in_a_hand():
    """The upcard can be taken at the first upcard offer, so it may be in either hand."""
    hand = TABLE["hands"]["knock"]
    result = score_hand(hand["knocker"], hand["defender"], "oklahoma", "9S")  # 9S: defender's
    assert (result.knock_limit, result.multiplier, result.points) == (9, 2, 68)
    assert score_hand(hand["knocker"], hand["defender"], "oklahoma", Card.parse("9S")) == result


def test_rules_as_ruleset_or_dict():
    hand = TABLE["hands"]["undercut"]
    by_name = score_hand(hand["knocker"], hand["defender"], "pagat")
    by_dict = score_hand(hand["knocker"], hand["defender"], {"name": "pagat"})
    by_obj = score_hand(hand["knocker"], hand["defender"], RULESETS["pagat"])
    assert by_name == by_dict == by_obj and by_name.points == 15
    house = score_hand(
        hand["knocker"], hand["defender"], {"name": "standard", "undercut_bonus": 20}
    )
    assert house.points == 25 and house.rules.name == "custom"


# ---------------------------------------------------------------- the knocker's layout


VALUE = {rank: min(rank, 10) for rank in range(1, 14)}


def brute_layouts(cards: Hand) -> set[frozenset]:
    """Every set of disjoint melds leaving the least deadwood, by trying all meld subsets."""
    melds = [
        frozenset(g) for n in range(3, len(cards) + 1) for g in combinations(cards, n) if is_meld(g)
    ]
    found = {}

    def walk(start, used, chosen):
        dead = sum(VALUE[c.rank] for c in cards if c not in used)
        found[frozenset(chosen)] = dead
        for i in range(start, len(melds)):
            if not melds[i] & used:
                walk(i + 1, used | melds[i], chosen + [melds[i]])

    walk(0, frozenset(), [])
    least = min(found.values())
    return {layout for layout, dead in found.items() if dead == least}


window_hands = st.integers(1, 7).flatmap(
    lambda low: st.lists(
        st.sampled_from([c for c in DECK if low <= c.rank < low + 7]),
        min_size=4,
        max_size=10,
        unique=True,
    )
)


@settings(max_examples=80, deadline=None)
@given(window_hands)
@example(list(parse_cards("7S 7H 7D 7C 2H 3H 4H 9C TC JC")))  # a set of four
@example(list(parse_cards("7S 7H 7D 7C 8S 9S 2H 3H 4H KD")))  # the 7S in the set or the run
@example(list(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS")))  # one run or two
@example(list(parse_cards("9H TH JH QH KH 2C 2D 2S 5D 5C")))  # a run up to the king
@example(list(parse_cards("AH 2H 3H 4H AS AD AC 6C 6D 6S")))  # aces in a set or a run
@example(list(parse_cards("2C 2D 2H 2S 3D 4D 5C 5D 5H 5S 7C")))  # either set of four split
@example(list(parse_cards("AH 2H 3H 5D 6D 7D 8D KC KD KH KS")))  # no run from KS round to AH
def test_optimal_layouts_match_brute_force(cards):
    hand = Hand(cards)
    layouts = optimal_layouts(hand)
    got = {frozenset(frozenset(m.cards) for m in layout) for layout in layouts}
    assert len(got) == len(layouts)  # no repeats
    assert got == brute_layouts(hand)
    first = arrange(hand)
    assert {frozenset(m.cards) for m in layouts[0]} == {frozenset(m.cards) for m in first.melds}


def is_meld(group) -> bool:
    """3 or 4 cards of a rank, or 3 or more of a suit in sequence (aces low)."""
    ranks = sorted(c.rank for c in group)
    if len(group) < 3:
        return False
    if len(set(ranks)) == 1:
        return len(group) <= 4
    return len({c.suit for c in group}) == 1 and ranks == list(
        range(ranks[0], ranks[0] + len(ranks))
    )


def all_melded(cards: frozenset) -> bool:
    """Whether ``cards`` split into melds, trying every meld that holds the lowest card."""
    if not cards:
        return True
    low = min(cards, key=lambda c: c.index)
    others = sorted(  # the cards that could share a meld with it
        (c for c in cards - {low} if c.rank == low.rank or c.suit == low.suit),
        key=lambda c: c.index,
    )
    return any(
        is_meld((low, *group)) and all_melded(cards - {low, *group})
        for n in range(2, len(others) + 1)
        for group in combinations(others, n)
    )


def brute_deadwood_sets(cards: Hand) -> set[frozenset]:
    """The deadwood sets of the best arrangements, by trying every set of cards as the
    deadwood: those whose other cards all meld, with the fewest points."""
    dead = [
        frozenset(group)
        for n in range(len(cards) + 1)
        for group in combinations(cards, n)
        if all_melded(frozenset(cards) - frozenset(group))
    ]
    least = min(sum(VALUE[c.rank] for c in group) for group in dead)
    return {group for group in dead if sum(VALUE[c.rank] for c in group) == least}


@settings(max_examples=60, deadline=None)
@given(window_hands)
@example(list(parse_cards("TS JS QS QH QD 2C")))  # the QS in the run or the set
@example(list(parse_cards("7S 7H 7D 7C 8S 9S 2H 3H 4H KD")))  # two layouts, one deadwood
@example(list(parse_cards("3H 4H 5H 6H 6S 6D 9C 9D 9S KD")))  # the 6H in the run or the set
@example(list(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS")))  # all melded
@example(list(parse_cards("2C 2D 2H 2S 3D 4D 5C 5D 5H 5S 7C")))  # 11 cards
def test_best_deadwood_sets_match_brute_force(cards):
    hand = Hand(cards)
    sets = best_deadwood_sets(hand)
    assert len({d.mask for d in sets}) == len(sets)  # no repeats
    assert {frozenset(d) for d in sets} == brute_deadwood_sets(hand)
    assert all(list(d) == list(d.sorted()) for d in sets)
    assert sum(c.value for c in sets[0]) == arrange(hand).points == min_deadwood_mask(hand.mask)
    assert set(sets[0]) == set(arrange(hand).deadwood)


deals = st.integers(1, 7).flatmap(
    lambda low: st.permutations([c for c in DECK if low <= c.rank < low + 7]).map(
        lambda cards: (cards[:10], cards[10:20])
    )
)


@settings(max_examples=120, deadline=None)
@given(deals)
def test_random_hands(deal):
    knocker, defender = deal
    least = min_deadwood(knocker)
    if least > 10:
        with pytest.raises(RuleError) as info:
            score_hand(knocker, defender)
        assert info.value.code == "knock_over_limit"
        assert info.value.params == {"deadwood": least, "limit": 10}
        return
    result = score_hand(knocker, defender)
    check_result(result)
    assert result.knocker_points == least
    if result.outcome == "knock" or result.outcome == "undercut":
        # the knocker's layout is the best of the optimal ones for the knocker
        options = [lay_offs(layout, defender).points for layout in optimal_layouts(knocker)]
        assert result.defender_points == max(options)
        assert result.defender_points <= arrange(defender).points
    else:
        assert result.defender_points == arrange(defender).points
    assert score_hand(knocker, defender) == result  # deterministic


def test_nobody_lays_off_onto_gin_and_oklahoma_needs_its_upcard():
    hands = ("2S 3S 4S 7H 7D 7C 9C TC JC QC", "5S 8C KH KD KS 4H 6C 6H 2C AD")
    with pytest.raises(RuleError) as info:
        score_hand(*hands, defender_lay_offs=[("8C", 2)])
    assert info.value.to_json() == {
        "code": "wrong_phase",
        "message": "nobody lays off onto gin",
        "params": {"kind": "lay_off", "phase": "gin"},
    }
    with pytest.raises(RuleError) as info:
        score_hand(*hands, "oklahoma")
    assert info.value.to_json() == {
        "code": "upcard_required",
        "message": "Oklahoma needs the upcard to score a hand",
        "params": {},
    }


def test_a_result_as_json_in_full():
    """Oklahoma with a spade upcard (limit 9, doubled), three lay-offs, one a chain."""
    result = score_hand(
        "2S 3S 4S 7H 7D 7C 9C TC JC 5D", "5S 8C QC KH KD KS 4H 6C 6H 2C", "oklahoma", "9S"
    )
    assert result.to_json() == {
        "outcome": "knock",
        "winner": "knocker",
        "points": 26,
        "tie": False,
        "multiplier": 2,
        "knock_limit": 9,
        "upcard": "9S",
        "knocker_melds": ["2S 3S 4S", "7H 7D 7C", "9C TC JC"],
        "knocker_deadwood": "5D",
        "knocker_points": 5,
        "defender_melds": ["KS KH KD"],
        "lay_offs": [
            {"card": "5S", "meld_index": 0, "meld": "2S 3S 4S", "result": "2S 3S 4S 5S"},
            {"card": "8C", "meld_index": 2, "meld": "9C TC JC", "result": "8C 9C TC JC"},
            {"card": "QC", "meld_index": 2, "meld": "8C 9C TC JC", "result": "8C 9C TC JC QC"},
        ],
        "defender_deadwood": "2C 4H 6H 6C",
        "defender_points": 18,
        "rules": RULESETS["oklahoma"].to_json(),
        "steps": result.explain(),
    }
    gin = score_hand("2S 3S 4S 7H 7D 7C 9C TC JC QC", "5S 8C KH KD KS 4H 6C 6H 2C AD").to_json()
    assert (gin["outcome"], gin["upcard"], gin["multiplier"], gin["lay_offs"]) == (
        "gin",
        None,
        1,
        [],
    )
    assert (gin["knocker_deadwood"], gin["points"]) == ("", 25 + 32)
    assert gin["steps"] == [
        {
            "code": "knocker_melds",
            "melds": ["2S 3S 4S", "7H 7D 7C", "9C TC JC QC"],
            "deadwood": "",
            "points": 0,
            "cards": 10,
            "gin": True,
        },
        {"code": "gin", "bonus": 25},
        {"code": "defender_melds", "melds": ["KS KH KD"]},
        {
            "code": "defender_deadwood",
            "deadwood": "AD 2C 4H 5S 6H 6C 8C",
            "points": 32,
            "laid_off": 0,
        },
        {"code": "gin_score", "bonus": 25, "defender_points": 32, "total": 57},
        {"code": "result", "winner": "knocker", "outcome": "gin", "points": 57, "tie": False},
    ]


def test_the_knockers_layout_is_of_ten_cards():
    from ginrummy.scoring import knocker_layout

    with pytest.raises(CardError) as info:
        knocker_layout("2S 3S 4S 7H 7D 7C 9C TC JC 5D KH", "8S 9S TS KH KD KC 4H 5H 6H AD")
    assert info.value.to_json()["params"] == {
        "token": None,
        "position": None,
        "expected": [10],
        "got": 11,
    }


def test_the_knockers_layout_is_the_best_arrangement_for_gin_else_the_one_that_blocks():
    """Gin's layout is the arrangement best_melds gives (no card can be laid off on gin, so any
    would score the same). A knock lays out, of its equal layouts, the one leaving the defender
    the most deadwood: with the 5s, 6s and 7s in sets, the defender lays off its 5H (5 points),
    not its 8S on the run of spades (8 points)."""
    from ginrummy.scoring import knocker_layout

    gin = "3D 2D 5D 2H 2S 4D 5S 5C 2C 5H"
    defender = "4S AH TC 6H 8H 6D 7D 9H KC AD"
    assert knocker_layout(gin, defender) == best_melds(gin).melds
    assert [str(m) for m in best_melds(gin).melds] == ["3D 4D 5D", "2S 2H 2D 2C", "5S 5H 5C"]
    knocker = "5D 7C 7D 5S 6S 6C 5C 6D AC 7S"
    defender = "TH 2D 2S 4H KD 8S TD QD 5H 2H"
    runs = ["5S 6S 7S", "5D 6D 7D", "5C 6C 7C"]
    assert [str(m) for m in best_melds(knocker).melds] == runs
    assert [str(m) for m in knocker_layout(knocker, defender)] == [
        "5S 5D 5C",
        "6S 6D 6C",
        "7S 7D 7C",
    ]
    assert score_hand(knocker, defender).points == 51
    assert score_hand(knocker, defender, knocker_melds=runs).points == 48


def test_a_meld_not_in_the_knockers_hand_is_refused_naming_the_card():
    with pytest.raises(RuleError) as info:
        score_hand(
            "AS 2S 3S 4H 5H 6H 7C 8C 9C TC",
            "KS KH 5S 5C 2D 3D 9H JH QD QC",
            knocker_melds=["AS 2S 3S", "4H 5H 6H 7H"],
        )
    assert info.value.to_json() == {
        "code": "meld_not_in_hand",
        "message": "7H is in a meld but not in the knocker's hand",
        "params": {"card": "7H"},
    }
