"""Lay-offs: worked cases from tests/data/hands.json, and property tests against a brute force.

The brute force below shares no code with the engine: it plays lay-offs one card at a time,
visiting every reachable state, and melds the defender's other cards by trying every meld.
"""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from ginrummy import Card, CardError, Hand, Meld, RuleError, arrange, lay_offs, parse_cards
from ginrummy.layoffs import check_lay_offs, fewest_lay_offs
from hypothesis import Phase, example, find, given, settings
from hypothesis import strategies as st

DATA = json.loads((Path(__file__).parent.parent / "data" / "hands.json").read_text("utf-8"))
CASES = DATA["lay_offs"]

# ---------------------------------------------------------------- brute force (cards as tuples)

VALUE = {rank: min(rank, 10) for rank in range(1, 14)}
RANK_OF = {r: i + 1 for i, r in enumerate("A23456789TJQK")}


def to_tuples(cards) -> frozenset:
    """Cards as (rank, suit) pairs, parsed here from notation, not by the engine."""
    text = str(cards) if not isinstance(cards, str) else cards
    return frozenset((RANK_OF[t[0].upper()], t[1].upper()) for t in text.split())


def is_meld(cards) -> bool:
    cards = list(cards)
    if len(cards) < 3:
        return False
    ranks = sorted(r for r, _ in cards)
    if len({r for r, _ in cards}) == 1:
        return len(cards) <= 4
    if len({s for _, s in cards}) != 1:
        return False
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def brute_min_deadwood(cards: frozenset) -> int:
    cards = frozenset(cards)
    melds = [
        frozenset(c)
        for size in range(3, len(cards) + 1)
        for c in combinations(sorted(cards), size)
        if is_meld(c)
    ]

    @cache
    def best(rest: frozenset) -> int:
        if not rest:
            return 0
        first = min(rest)
        result = VALUE[first[0]] + best(rest - {first})
        for meld in melds:
            if first in meld and meld <= rest:
                result = min(result, best(rest - meld))
        return result

    return best(cards)


def brute_lay_offs(knocker_melds, defender) -> int:
    """Least final deadwood: every sequence of single legal lay-offs, then the best own melds."""
    start = (tuple(to_tuples(m) for m in knocker_melds), to_tuples(defender))
    seen = set()
    stack = [start]
    best = None
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        melds, hand = state
        score = brute_min_deadwood(hand)
        best = score if best is None else min(best, score)
        for card in hand:
            for i, meld in enumerate(melds):
                grown = meld | {card}
                if is_meld(grown):
                    stack.append((melds[:i] + (grown,) + melds[i + 1 :], hand - {card}))
    return best


# ---------------------------------------------------------------- checking a result


def check_valid(result, knocker_melds, defender) -> None:
    """The lay-offs can be played in the order given; every defender card is accounted for."""
    melds = [to_tuples(m) for m in knocker_melds]
    for lay in result.lay_offs:
        card = to_tuples(str(lay.card))
        assert to_tuples(lay.onto) == melds[lay.meld_index]
        grown = melds[lay.meld_index] | card
        assert is_meld(grown), f"{lay.card} cannot go onto {lay.onto}"
        assert to_tuples(lay.result) == grown
        melds[lay.meld_index] = grown
    assert [to_tuples(m) for m in result.knocker_melds] == melds
    used = [c for lay in result.lay_offs for c in to_tuples(str(lay.card))]
    for meld in result.melds:
        assert is_meld(to_tuples(meld))
        used += list(to_tuples(meld))
    used += list(to_tuples(result.deadwood))
    assert sorted(used) == sorted(to_tuples(defender)), "cards lost or used twice"
    assert result.points == sum(VALUE[r] for r, _ in to_tuples(result.deadwood))


# ---------------------------------------------------------------- worked cases


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_worked_case(case):
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises((CardError, RuleError)) as info:
            lay_offs(case["knocker_melds"], case["defender"])
        assert info.value.code == expect["error"]
        for key, value in expect.get("params", {}).items():
            assert info.value.params[key] == value
        return
    result = lay_offs(case["knocker_melds"], case["defender"])
    check_valid(result, case["knocker_melds"], case["defender"])
    assert result.points == expect["points"]
    assert result.points == brute_lay_offs(case["knocker_melds"], case["defender"])
    assert sorted(str(lay.card) for lay in result.lay_offs) == sorted(expect["laid_off"])
    if "order" in expect:
        assert [str(lay.card) for lay in result.lay_offs] == expect["order"]
    if "deadwood" in expect:
        assert Hand(expect["deadwood"]).mask == result.deadwood.mask
    if "melds" in expect:
        assert [str(m) for m in result.melds] == expect["melds"]


def test_accepts_meld_objects_and_hands():
    by_text = lay_offs(["8C 8D 8H", "9S TS JS"], "8S 7S")
    by_obj = lay_offs(
        [Meld(Hand("8C 8D 8H"), "set"), parse_cards("9S TS JS")], parse_cards("8S 7S")
    )
    assert by_text == by_obj
    assert by_text.points == 0 and len(by_text.lay_offs) == 2


def test_meld_kind_must_match():
    with pytest.raises(RuleError) as info:
        lay_offs([Meld(Hand("8C 8D 8H"), "run")], "2C")
    assert info.value.code == "not_a_meld"


def test_no_wrap_around_and_no_lay_offs_onto_four_card_set():
    result = lay_offs(["QS KS JS", "7C 7D 7H 7S"], "KH AS TS")
    # TS extends JS QS KS below; nothing goes above K (AS does not wrap); 7S 7H 7D 7C is full.
    assert [str(lay.card) for lay in result.lay_offs] == ["TS"]
    assert result.points == 11


def test_bad_melds_and_overlaps():
    for melds, defender, code in [
        (["7S 8S"], "2C", "not_a_meld"),
        (["7S 7H 7D 7C 8S"], "2C", "not_a_meld"),
        (["QS KS AS"], "2C", "not_a_meld"),
        (["7S 8S 9S"], "9S 2C", "duplicate_card"),
        (["7S 8S 9S"], "2C 2C", "duplicate_card"),
    ]:
        with pytest.raises((CardError, RuleError)) as info:
            lay_offs(melds, defender)
        assert info.value.code == code, (melds, defender)


def test_deterministic_tie_break_prefers_lay_offs():
    # 5C 6C 7C could be the defender's own run or laid off: same count, the engine lays off.
    result = lay_offs(["2C 3C 4C"], "5C 6C 7C")
    assert [str(lay.card) for lay in result.lay_offs] == ["5C", "6C", "7C"]
    assert result.melds == () and result.points == 0
    assert result == lay_offs(["2C 3C 4C"], "7C 5C 6C")


# ---------------------------------------------------------------- property tests

SUITS = "SHDC"
WINDOWS = [list(range(low, low + 6)) for low in range(1, 9)] + [[11, 12, 13, 1, 2, 3]]
"""Six ranks for a deal: consecutive (touching A or K when they start at 1 or 8), or J Q K A 2
3, where a lay-off chain would wrap from K to A (or A to K) if the engine let it. It must not:
the ace is low only, so K-A-2 is not a run."""


def run_spans(ranks: list[int]) -> list[tuple[int, int]]:
    """(first, last) rank of every run of 3 or more that fits in ``ranks`` (never wrapping)."""
    return [
        (a, b)
        for a in ranks
        for b in ranks
        if b - a >= 2 and all(r in ranks for r in range(a, b + 1))
    ]


@st.composite
def deals(draw, max_defender=10):
    """Knocker melds and defender cards packed into a window of six ranks (see ``WINDOWS``) of
    2 to 4 suits, so that they interact."""
    ranks = draw(st.sampled_from(WINDOWS))
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=2, max_size=4, unique=True))
    free = {(r, s) for r in ranks for s in suits}
    melds = []
    for _ in range(draw(st.integers(1, 3))):  # the first always fits: there is always a meld
        if len(suits) >= 3 and draw(st.booleans()):
            rank = draw(st.sampled_from(ranks))
            chosen = draw(
                st.lists(st.sampled_from(suits), min_size=3, max_size=len(suits), unique=True)
            )
            meld = {(rank, s) for s in chosen}
        else:
            suit = draw(st.sampled_from(suits))
            first, last = draw(st.sampled_from(run_spans(ranks)))
            meld = {(r, suit) for r in range(first, last + 1)}
        if meld <= free:
            melds.append(meld)
            free -= meld
    pool = sorted(free)  # may be empty when the melds fill the window
    size = draw(st.integers(0, min(max_defender, len(pool))))
    defender = draw(st.permutations(pool))[:size]

    def text(cards):
        return " ".join("A23456789TJQK"[r - 1] + s for r, s in sorted(cards))

    return [text(m) for m in melds], text(defender)


def wraps(deal) -> bool:
    """A knocker's run ends at K and the defender holds that suit's A, or starts at A and the
    defender holds the K: a lay-off chain that would wrap."""
    melds, defender = deal
    held = to_tuples(defender)
    for meld in map(to_tuples, melds):
        ranks, suits = {r for r, _ in meld}, {s for _, s in meld}
        if len(suits) == 1 and len(ranks) == len(meld):
            suit = suits.pop()
            if (13 in ranks and (1, suit) in held) or (1 in ranks and (13, suit) in held):
                return True
    return False


def test_deals_include_chains_that_would_wrap():
    melds, defender = find(
        deals(), wraps, settings=settings(max_examples=2000, database=None, phases=[Phase.generate])
    )
    assert wraps((melds, defender))


WRAP_DEALS = [  # (knocker melds, defender): nothing wraps from K to A or from A to K
    (["JS QS KS"], "AS 2S 3S 4H"),
    (["AH 2H 3H"], "KH QH JH 5C"),
    (["JD QD KD", "AC 2C 3C"], "KC QC AD 2D"),
    (["JS QS KS", "AS 2S 3S"], ""),
    (["JS QS KS"], "TS 9S AS"),
]


@settings(max_examples=150, deadline=None)
@given(deals(max_defender=7))
@example(WRAP_DEALS[0])
@example(WRAP_DEALS[1])
@example(WRAP_DEALS[2])
@example(WRAP_DEALS[4])
def test_matches_brute_force(deal):
    melds, defender = deal
    result = lay_offs(melds, defender)
    check_valid(result, melds, defender)
    assert result.points == brute_lay_offs(melds, defender)


@settings(max_examples=40, deadline=None)
@given(deals(max_defender=10))
def test_matches_brute_force_ten_cards(deal):
    melds, defender = deal
    result = lay_offs(melds, defender)
    check_valid(result, melds, defender)
    assert result.points == brute_lay_offs(melds, defender)


@settings(max_examples=60, deadline=None)
@given(deals(max_defender=8), st.randoms(use_true_random=False))
def test_meld_order_does_not_matter(deal, rng):
    melds, defender = deal
    shuffled = list(melds)
    rng.shuffle(shuffled)
    assert lay_offs(melds, defender).points == lay_offs(shuffled, defender).points


@pytest.mark.parametrize(
    "deal, laid_off, points",
    list(zip(WRAP_DEALS, [[], [], [], [], ["TS", "9S"]], [4, 5, 23, 0, 1], strict=True)),
)
def test_no_lay_off_wraps_from_king_to_ace(deal, laid_off, points):
    result = lay_offs(*deal)
    assert [str(lay.card) for lay in result.lay_offs] == laid_off
    assert result.points == points == brute_lay_offs(*deal)


def test_a_result_as_json():
    """Neller's example, worked: 8S then 7S go onto the run; the defender melds the rest but
    5C 6D (11)."""
    assert lay_offs(["8C 8D 8H", "9S TS JS"], "8S 7S KH KD KC 2H 3H 4H 5C 6D").to_json() == {
        "lay_offs": [
            {"card": "8S", "meld_index": 1, "meld": "9S TS JS", "result": "8S 9S TS JS"},
            {"card": "7S", "meld_index": 1, "meld": "8S 9S TS JS", "result": "7S 8S 9S TS JS"},
        ],
        "melds": ["2H 3H 4H", "KH KD KC"],
        "deadwood": "5C 6D",
        "points": 11,
        "knocker_melds": ["8H 8D 8C", "7S 8S 9S TS JS"],
    }


KNOCKER_MELDS = ["5H 6H 7H", "QC QD QS"]
DEFENDER = "3H 4H 8H 9H QH 2C 2D 6S 6D KD"


def test_lay_offs_chosen_by_hand_in_full():
    """Each play onto the meld as it stands after the earlier ones (4H onto 5H-8H); the rest of
    the hand arranged for the least deadwood (none melds here)."""
    plays = [("8H", 0), ("QH", 1), ("4H", 0)]
    assert check_lay_offs(KNOCKER_MELDS, DEFENDER, plays).to_json() == {
        "lay_offs": [
            {"card": "8H", "meld_index": 0, "meld": "5H 6H 7H", "result": "5H 6H 7H 8H"},
            {"card": "QH", "meld_index": 1, "meld": "QS QD QC", "result": "QS QH QD QC"},
            {"card": "4H", "meld_index": 0, "meld": "5H 6H 7H 8H", "result": "4H 5H 6H 7H 8H"},
        ],
        "melds": [],
        "deadwood": "2D 2C 3H 6S 6D 9H KD",
        "points": 38,
        "knocker_melds": ["4H 5H 6H 7H 8H", "QS QH QD QC"],
    }


@pytest.mark.parametrize(
    "plays, error",
    [
        (
            [("8H",)],
            {
                "code": "bad_action",
                "message": "a lay-off is a card and a meld number",
                "params": {"field": "lay_offs", "value": "('8H',)"},
            },
        ),
        (
            ["8H0"],
            {
                "code": "bad_action",
                "message": "a lay-off is a card and a meld number",
                "params": {"field": "lay_offs", "value": "8H0"},
            },
        ),
        (
            [("8H", 2)],
            {
                "code": "no_such_meld",
                "message": "the knocker has no meld number 2",
                "params": {"index": "2", "count": 2},
            },
        ),
        (
            [("8H", True)],
            {
                "code": "no_such_meld",
                "message": "the knocker has no meld number True",
                "params": {"index": "True", "count": 2},
            },
        ),
        (
            [("AS", 0)],
            {
                "code": "card_not_in_hand",
                "message": "AS is not in the defender's hand",
                "params": {"card": "AS"},
            },
        ),
        (  # what is quoted is cut to 40 characters
            [("8H", 0, "x" * 50)],
            {
                "code": "bad_action",
                "message": "a lay-off is a card and a meld number",
                "params": {"field": "lay_offs", "value": "('8H', 0, '" + "x" * 29},
            },
        ),
        (
            [("8H", "x" * 50)],
            {
                "code": "no_such_meld",
                "message": "the knocker has no meld number '" + "x" * 38 + "…",  # quoted short
                "params": {"index": "x" * 40, "count": 2},
            },
        ),
        (
            [("8H", 0), ("3H", 1)],
            {
                "code": "cannot_lay_off",
                "message": "3H cannot be laid off onto QS QD QC",
                "params": {"card": "3H", "meld": "QS QD QC"},
            },
        ),
    ],
)
def test_a_lay_off_by_hand_is_refused_in_full(plays, error):
    with pytest.raises(RuleError) as info:
        check_lay_offs(KNOCKER_MELDS, DEFENDER, plays)
    assert info.value.to_json() == error


def test_a_card_of_any_knocker_meld_cannot_be_the_defenders():
    for card in ("5H", "QS"):
        with pytest.raises(CardError) as info:
            lay_offs(KNOCKER_MELDS, DEFENDER.replace("KD", card))
        assert info.value.to_json() == {
            "code": "duplicate_card",
            "message": f"{card} is in a knocker's meld and the defender's hand",
            "params": {"token": card, "position": None},
        }


def test_an_ace_lays_off_below_a_two_and_a_chain_down_to_it():
    """The ace is a run's lowest card: A onto 2-3-4 (then the 5 above), and 8-7 down from 9-K."""
    result = lay_offs(["2S 3S 4S", "9H TH JH QH KH"], "AS 5S 8H 7H 2C 3D 4C 6D KD QC")
    assert [(lay["card"], lay["meld"]) for lay in result.to_json()["lay_offs"]] == [
        ("AS", "2S 3S 4S"),
        ("5S", "AS 2S 3S 4S"),
        ("8H", "9H TH JH QH KH"),
        ("7H", "8H 9H TH JH QH KH"),
    ]


def test_the_fewest_lay_offs_keep_only_those_that_save_points():
    """The best lay-offs lay off every card that fits (the defender's own run's 7C 8C 9C onto
    TC JC QC KC): the fewest keep only those that lower the deadwood, none when none do."""
    melds = ["TC JC QC KC", "4S 4H 4D"]
    cards = [Card.parse(c) for c in ["7C", "8C", "9C", "TD", "JD", "QD", "AD", "2C", "6D", "9S"]]
    best = lay_offs(melds, cards)
    assert [str(lay.card) for lay in best.lay_offs] == ["9C", "8C", "7C"]
    assert best.points == arrange(cards).points  # nothing saved
    assert fewest_lay_offs(melds, cards, best) == fewest_lay_offs(melds, cards) == ()
    cards = [Card.parse(c) for c in ["7C", "8C", "9C", "TD", "JD", "QD", "AD", "4C", "6D", "9S"]]
    best = lay_offs(melds, cards)  # 4C onto the fours saves 4 points; the run saves nothing
    fewest = fewest_lay_offs(melds, cards, best)
    assert [str(lay.card) for lay in fewest] == ["4C"]
    assert [(lay.meld_index, str(lay.onto)) for lay in fewest] == [(1, "4S 4H 4D")]
    assert best.points == arrange(cards).points - 4
