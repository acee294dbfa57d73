"""Melds and minimum deadwood, checked against an independent brute-force solver.

The brute force below lists every meld the hand holds (every 3- and 4-card set, every run of
3 or more), tries every combination of disjoint melds and keeps the least deadwood. For 11 cards
it tries every discard. It shares nothing with ginrummy.melds but the Card objects.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest
from ginrummy import melds as melds_module
from ginrummy.cards import DECK, Card, Hand, parse_cards
from ginrummy.errors import CardError, RuleError
from ginrummy.layoffs import as_meld
from ginrummy.melds import (
    Arrangement,
    Meld,
    arrange,
    best_melds,
    meld_kind,
    min_deadwood,
    min_deadwood_after_discard_mask,
    min_deadwood_mask,
)
from hypothesis import given, settings
from hypothesis import strategies as st

CASES = json.loads((Path(__file__).parent.parent / "data" / "deadwood.json").read_text("utf-8"))


# --- the brute force ----------------------------------------------------------------------------


def value(card) -> int:
    return 10 if card.rank >= 10 else card.rank


def all_melds(cards) -> list[frozenset]:
    """Every set and run the cards hold (overlapping ones included)."""
    found = []
    for rank in range(1, 14):
        same = [c for c in cards if c.rank == rank]
        for size in (3, 4):
            found += [frozenset(combo) for combo in combinations(same, size)]
    for suit in "SHDC":
        by_rank = {c.rank: c for c in cards if c.suit == suit}
        for start in range(1, 12):
            for end in range(start + 2, 14):
                if all(r in by_rank for r in range(start, end + 1)):
                    found.append(frozenset(by_rank[r] for r in range(start, end + 1)))
    return found


def brute(cards) -> tuple[int, int]:
    """(least deadwood points, fewest deadwood cards at those points) over every meld choice."""
    cards = list(cards)
    melds = all_melds(cards)
    best = [(sum(map(value, cards)), len(cards))]

    def search(start: int, used: frozenset) -> None:
        dead = [c for c in cards if c not in used]
        best[0] = min(best[0], (sum(map(value, dead)), len(dead)))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                search(i + 1, used | melds[i])

    search(0, frozenset())
    return best[0]


def brute_discards(cards) -> dict:
    """For each card of the hand: brute() of the hand without it."""
    return {card: brute([c for c in cards if c is not card]) for card in cards}


# --- strategies -------------------------------------------------------------------------------


def pool(low: int, high: int) -> list:
    return [c for c in DECK if low <= c.rank <= high]


POOLS = [DECK, pool(3, 7), pool(1, 5), pool(9, 13), pool(5, 9)]  # narrow pools: many melds


def hands(size: int):
    return st.sampled_from([p for p in POOLS if len(p) >= size]).flatmap(
        lambda cards: st.lists(st.sampled_from(cards), min_size=size, max_size=size, unique=True)
    )


def any_hand(max_size: int = 12):
    return st.integers(0, max_size).flatmap(hands)


def mask_of(cards) -> int:
    return sum(c.bit for c in cards)


# --- checking an arrangement -------------------------------------------------------------------


def is_set(cards) -> bool:
    return len(cards) in (3, 4) and len({c.rank for c in cards}) == 1


def is_run(cards) -> bool:
    ranks = sorted(c.rank for c in cards)
    return (
        len(cards) >= 3
        and len({c.suit for c in cards}) == 1
        and ranks == list(range(ranks[0], ranks[0] + len(ranks)))
    )


def check_valid(arrangement: Arrangement, cards) -> None:
    """Melds are real and disjoint, deadwood is the rest, points are the deadwood's value."""
    assert isinstance(arrangement.deadwood, Hand)
    seen = []
    for meld in arrangement.melds:
        assert isinstance(meld, Meld) and isinstance(meld.cards, Hand)
        assert meld.kind == ("set" if is_set(meld.cards) else "run")
        assert is_set(meld.cards) or is_run(meld.cards), str(meld)
        assert list(meld.cards) == sorted(meld.cards)
        seen += meld.cards
    seen += arrangement.deadwood
    assert len(seen) == len(set(seen)), "a card is used twice"
    assert set(seen) == set(cards)
    assert list(arrangement.deadwood) == sorted(arrangement.deadwood)
    assert arrangement.points == sum(map(value, arrangement.deadwood))
    masks = [m.cards.mask for m in arrangement.melds]
    assert masks == sorted(masks)


def discard_rule(card) -> tuple:
    """The documented tie rule: highest value, then highest rank, then suit order S H D C."""
    return (-value(card), -card.rank, "SHDC".index(card.suit))


def check_best_melds_11(cards) -> None:
    result = best_melds(cards)
    options = brute_discards(cards)
    best = min(options.values())
    assert (result.points, len(result.deadwood)) == best
    assert result.discard == min((c for c in cards if options[c] == best), key=discard_rule)
    check_valid(result, [c for c in cards if c is not result.discard])
    assert result.big_gin == (brute(cards)[0] == 0)
    assert min_deadwood(cards) == best[0]
    assert min_deadwood_after_discard_mask(mask_of(cards)) == best[0]


# --- property tests ---------------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(hands(10))
def test_ten_cards_match_brute_force(cards):
    points, dead_cards = brute(cards)
    assert min_deadwood_mask(mask_of(cards)) == points
    assert min_deadwood(cards) == points
    result = best_melds(cards)
    assert (result.points, len(result.deadwood)) == (points, dead_cards)
    assert result.discard is None and result.big_gin is False
    check_valid(result, cards)


@settings(max_examples=300, deadline=None)
@given(hands(11))
def test_eleven_cards_match_brute_force_over_every_discard(cards):
    check_best_melds_11(cards)


@settings(max_examples=400, deadline=None)
@given(any_hand(12))
def test_arrange_any_count_matches_brute_force(cards):
    points, dead_cards = brute(cards)
    result = arrange(cards)
    assert (result.points, len(result.deadwood)) == (points, dead_cards)
    assert result.discard is None
    check_valid(result, cards)
    assert min_deadwood_mask(mask_of(cards)) == points
    if cards:
        best = min(brute_discards(cards).values())[0]
        assert min_deadwood_after_discard_mask(mask_of(cards)) == best


def test_no_card_to_discard_is_refused_in_full():
    with pytest.raises(CardError) as info:
        min_deadwood_after_discard_mask(0)
    assert info.value.to_json() == {
        "code": "wrong_count",
        "message": "no card to discard",
        "params": {"token": None, "position": None, "expected": [1], "got": 0},
    }


# The sets worth trying (see _set_choices) of the first card's rank: a card is runnable when
# two more of its suit are around it. "-7S" is the set less 7S, "none" no set.
SET_CHOICES = [
    ("7S 7H 7D", False, ["7S 7H 7D"]),  # no card runnable: the set always
    ("7S 7H 7D 8S 9S", False, ["none", "7S 7H 7D"]),
    ("7S 7H 7D", True, ["none", "7S 7H 7D"]),  # a discard may break the set
    ("7S 7H 7D 7C", False, ["7S 7H 7D 7C"]),
    ("7S 7H 7D 7C 8S 9S", False, ["7S 7H 7D 7C", "-7S"]),  # no "none": leaving out 7S is better
    ("7S 7H 7D 7C 8S 9S 8H 9H", False, ["7S 7H 7D 7C", "-7S", "-7H", "none"]),
    ("AS AH AD AC 2S 3S", False, ["AS AH AD AC", "-AS"]),  # the lowest bit of the mask
    ("7S 7H 7D 7C", True, ["7S 7H 7D 7C", "-7S"]),  # one 3-set of the four that cannot run
    ("7S 7H 7D 7C 8S 9S", True, ["7S 7H 7D 7C", "-7S", "-7H", "none"]),
    (
        "7S 7H 7D 7C 8S 9S 5H 6H 8D 9D 5C 6C",
        True,
        ["7S 7H 7D 7C", "-7S", "-7H", "-7D", "-7C", "none"],
    ),
]


@pytest.mark.parametrize(("text", "discard", "expected"), SET_CHOICES)
def test_set_choices_are_only_those_worth_trying(text, discard, expected):
    """The pruning keeps exactly the options _set_choices names: each one more makes the search
    slower (the brute-force tests above prove the options kept are enough)."""
    hand = parse_cards(text)
    same_rank = Hand([card for card in hand if card.rank == hand[0].rank])

    def shown(choice: int) -> str:
        if not choice:
            return "none"
        left_out = same_rank.mask ^ choice
        if not left_out:
            return str(same_rank)
        return "-" + str(Card.from_index(left_out.bit_length() - 1))

    choose = melds_module._set_choices
    chosen = choose(hand.mask, discard=True) if discard else choose(hand.mask)  # the default
    assert chosen is not None and [shown(choice) for choice in chosen] == expected


@settings(max_examples=150, deadline=None)
@given(any_hand(12))
def test_memoised_fallback_matches_brute_force(cards):
    """With the set-choice limit at 0 every hand with a set to choose takes the memoised search."""
    points, dead_cards = brute(cards)
    saved, melds_module._MAX_CHOICES = melds_module._MAX_CHOICES, 0
    try:
        assert min_deadwood_mask(mask_of(cards)) == points
        result = arrange(cards)
        after_discard = min_deadwood_after_discard_mask(mask_of(cards)) if cards else None
    finally:
        melds_module._MAX_CHOICES = saved
    assert (result.points, len(result.deadwood)) == (points, dead_cards)
    check_valid(result, cards)
    if cards:
        assert after_discard == min(brute_discards(cards).values())[0]


@settings(max_examples=60, deadline=None)
@given(hands(11))
def test_the_best_discard_is_the_same_through_the_memoised_search(cards):
    """best_melds on 11 cards, with the set-choice limit at 0 (every discard's 10 cards take the
    memoised search): the same discard, deadwood and big gin (equal-key melds may differ)."""
    expected = best_melds(cards)
    saved, melds_module._MAX_CHOICES = melds_module._MAX_CHOICES, 0
    try:
        fallback = best_melds(cards)
    finally:
        melds_module._MAX_CHOICES = saved
    assert (fallback.discard, fallback.points, len(fallback.deadwood), fallback.big_gin) == (
        expected.discard,
        expected.points,
        len(expected.deadwood),
        expected.big_gin,
    )
    check_valid(fallback, [c for c in cards if c != fallback.discard])


@settings(max_examples=60, deadline=None)
@given(st.integers(13, 26).flatmap(hands))
def test_large_hands_agree_with_the_memoised_search(cards):
    """Large hands (the lay-off search may pass any number of cards) against the plain search."""
    mask = mask_of(cards)
    expected = melds_module._memo_search(mask, {})[0]
    result = arrange(cards)
    assert result.points * 64 + len(result.deadwood) == expected
    check_valid(result, cards)
    assert min_deadwood_mask(mask) == expected >> 6


def test_whole_deck_melds_completely():
    result = arrange(DECK)
    assert result.points == 0 and not result.deadwood
    check_valid(result, DECK)


def test_empty_hand():
    assert arrange([]) == Arrangement((), Hand(), 0)
    assert min_deadwood_mask(0) == 0


# --- the worked hands in tests/data/deadwood.json ----------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c["cards"] for c in CASES])
def test_worked_hand(case):
    cards = parse_cards(case["cards"])
    is_arrange = case.get("function", "best_melds") == "arrange"
    if is_arrange or len(cards) == 10:
        assert brute(cards)[0] == case["deadwood"], "the brute force disagrees with the file"
    else:
        assert min(brute_discards(cards).values())[0] == case["deadwood"]
    if is_arrange:
        result = arrange(cards)
        check_valid(result, cards)
        assert result.points == case["deadwood"]
        assert min_deadwood_mask(cards.mask) == case["deadwood"]
    else:
        result = best_melds(cards)
        assert result.points == case["deadwood"]
        assert min_deadwood(cards) == case["deadwood"]
        kept = [c for c in cards if c is not result.discard]
        check_valid(result, kept)
        if len(cards) == 11:
            check_best_melds_11(cards)
            assert min_deadwood_after_discard_mask(cards.mask) == case["deadwood"]
        else:
            assert min_deadwood_mask(cards.mask) == case["deadwood"]
    if "melds" in case:
        assert [str(m) for m in result.melds] == case["melds"]
    if "discard" in case:
        assert str(result.discard) == case["discard"]
    if "after_discard" in case:
        assert min(brute_discards(cards).values())[0] == case["after_discard"]
        assert min_deadwood_after_discard_mask(cards.mask) == case["after_discard"]
    if "big_gin" in case:
        assert result.big_gin is case["big_gin"]
    if "gin_discards" in case:
        gin = [
            str(c)
            for c in cards
            if min_deadwood_mask(cards.mask ^ c.bit) == 0
            and brute([x for x in cards if x is not c])[0] == 0
        ]
        assert sorted(gin) == sorted(case["gin_discards"])


def test_worked_hands_cover_the_brief():
    notes = " ".join(c["why"] for c in CASES).lower()
    assert len(CASES) >= 20
    for topic in ("openspiel", "rlcard", "ace", "big gin", "4-set"):
        assert topic in notes, topic


# --- errors and shapes ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["AS 2S 3S", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS", ""])
def test_best_melds_wants_10_or_11_cards(text):
    with pytest.raises(CardError) as error:
        best_melds(text)
    assert error.value.code == "wrong_count"
    with pytest.raises(CardError):
        min_deadwood(text)


def test_repr_and_str():
    a = best_melds("AS 2S 3S 7H 7D 7C 9C TC JC KD")
    assert [str(m) for m in a.melds] == ["AS 2S 3S", "7H 7D 7C", "9C TC JC"]
    assert [m.kind for m in a.melds] == ["run", "set", "run"]
    assert repr(a.melds[1]) == "Meld('7H 7D 7C')"
    assert str(a.deadwood) == "KD" and a.points == 10
    assert a.discard is None and a.big_gin is False


def test_best_melds_is_deterministic():
    text = "7S 7H 7D 7C 8S 9S 8H 9H 2C 3C 4C"
    first = best_melds(text)
    assert all(best_melds(list(reversed(parse_cards(text)))) == first for _ in range(3))


def test_meld_checks_its_cards():
    assert Meld("7C 7S 7H") == Meld(Hand("7S 7H 7C"), "set")
    assert Meld("TS 9S JS").cards == Hand("9S TS JS") and Meld("TS 9S JS").kind == "run"
    assert eval(repr(Meld("AS 2S 3S"))) == Meld("AS 2S 3S")
    for cards, kind in [
        ("KS AS 2S", ""),
        ("7S 8S", ""),
        ("7S 7H 7C", "run"),
        ("5S 6S 7S", "set"),
        ("7S 7H 7D 7C 8S", ""),
        ("5S 6H 7S", ""),
    ]:
        with pytest.raises(RuleError) as error:
            Meld(cards, kind)
        assert error.value.code == "not_a_meld"


# --- the one meld check -------------------------------------------------------------------------


def brute_kind(cards) -> str | None:
    return "set" if is_set(cards) else "run" if is_run(cards) else None


def test_meld_kind_every_lane_and_every_rank():
    """Every subset of one suit's 13 cards, and of one rank's 4 cards, against the brute force."""
    for suit in range(4):
        lane = DECK[suit * 13 : suit * 13 + 13]
        for subset in range(1 << 13):
            cards = [card for i, card in enumerate(lane) if subset >> i & 1]
            assert meld_kind(mask_of(cards)) == brute_kind(cards), cards
    for rank in range(1, 14):
        same = [c for c in DECK if c.rank == rank]
        for size in range(5):
            for cards in combinations(same, size):
                assert meld_kind(mask_of(cards)) == brute_kind(cards), cards


WRAP = [c for c in DECK if c.rank in (1, 2, 3, 11, 12, 13)]  # K-A-2 and lane ends side by side


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from([DECK, WRAP, pool(1, 3)]).flatmap(
        lambda cards: st.lists(st.sampled_from(cards), min_size=0, max_size=7, unique=True)
    )
)
def test_meld_kind_matches_brute_force(cards):
    assert meld_kind(mask_of(cards)) == brute_kind(cards)


def test_meld_kind_never_wraps_or_crosses_suits():
    for text in ("QS KS AS", "KS AS 2S", "KS AH 2H", "QS KS AH", "KC AS 2S", "JS QS KS AH"):
        assert meld_kind(parse_cards(text).mask) is None, text
        with pytest.raises(RuleError):
            as_meld(text)
    assert meld_kind(parse_cards("JS QS KS").mask) == "run"
    assert meld_kind(parse_cards("AH 2H 3H").mask) == "run"
