"""score_hand, optimal_layouts and lay_offs give exactly the results of a plain reference solver
on a large seeded sample of knocks, random, meld-dense and adversarial.

The reference below is the engine's scoring as it stood before it was made fast: every
optimal layout of the knocker found by a recursive search that asks ``arrange`` for the least
deadwood, and for each layout every combination of lay-offs, the defender's other cards
arranged by ``arrange``. The first layout leaving the defender the most deadwood is laid out,
and the first combination (in the documented order) leaving the least. It is slow and
obvious; it shares no code with the fast search but ``arrange`` (itself checked against a brute
force in test_melds.py) and the value classes. Its deadwood numbers are also checked against
the brute forces of test_scoring.py and test_layoffs.py on part of the sample.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, product

import pytest
from ginrummy import (
    DECK,
    Card,
    Hand,
    LayOff,
    Meld,
    arrange,
    lay_offs,
    min_deadwood,
    optimal_layouts,
    parse_cards,
    score_hand,
)

from tests.engine.test_layoffs import brute_lay_offs
from tests.engine.test_scoring import brute_layouts

# ---------------------------------------------------------------- the reference solver


def ref_candidate_melds(cards) -> list[Hand]:
    """Every set and run in ``cards``: sets rank by rank (in the cards' order), then runs."""
    found = []
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    for group in by_rank.values():
        for size in (3, 4):
            found.extend(Hand(sorted(c)) for c in combinations(group, size))
    held = Hand(cards).mask
    for card in cards:  # runs starting at ``card``
        run = [card]
        rank = card.rank + 1
        while rank <= 13 and Card(rank, card.suit).bit & held:
            run.append(Card(rank, card.suit))
            if len(run) >= 3:
                found.append(Hand(run))
            rank += 1
    return found


def ref_optimal_layouts(cards) -> list[tuple[Meld, ...]]:
    hand = parse_cards(cards)

    def search(rest: Hand, target: int):
        if not rest:
            yield ()
            return
        first = min(rest, key=lambda c: c.index)
        others = Hand(c for c in rest if c is not first)
        if first.value <= target and arrange(others).points == target - first.value:
            yield from search(others, target - first.value)
        for meld in ref_candidate_melds(rest):
            if first in meld:
                remaining = Hand(c for c in rest if c not in meld)
                if arrange(remaining).points == target:
                    for layout in search(remaining, target):
                        yield (meld,) + layout

    def key(melds) -> frozenset:
        return frozenset(Hand(m.cards if isinstance(m, Meld) else m).mask for m in melds)

    first = arrange(hand)
    layouts = [tuple(sorted(first.melds, key=lambda m: m.cards.mask))]
    seen = {key(first.melds)}
    for found in search(hand, first.points):
        if key(found) not in seen:
            seen.add(key(found))
            layouts.append(tuple(sorted((Meld(m) for m in found), key=lambda m: m.cards.mask)))
    return layouts


def ref_options(meld: Meld, held: int) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Every way to lay off onto one meld, as (cards added below, cards added above)."""
    if meld.kind == "set":
        if len(meld.cards) == 4:
            return [((), ())]
        rank = meld.cards[0].rank
        missing = [Card(rank, s) for s in "SHDC" if Card(rank, s) not in meld.cards]
        return [((), ())] + [((c,), ()) for c in missing if c.bit & held]

    def chain(rank: int, step: int) -> list[Card]:
        cards = []
        while 1 <= rank <= 13 and Card(rank, suit).bit & held:
            cards.append(Card(rank, suit))
            rank += step
        return cards

    suit = meld.cards[0].suit
    low, high = chain(meld.cards[0].rank - 1, -1), chain(meld.cards[-1].rank + 1, +1)
    return [
        (tuple(low[:i]), tuple(high[:j])) for i in range(len(low) + 1) for j in range(len(high) + 1)
    ]


def ref_lay_offs(melds: tuple[Meld, ...], defender: Hand) -> dict:
    """The defender's best play as LayOffResult.to_json() would give it."""
    best = None
    for choice in product(*(ref_options(meld, defender.mask) for meld in melds)):
        laid = [card for below, above in choice for card in below + above]
        if len(set(laid)) < len(laid):
            continue  # a card used twice
        rest = arrange([c for c in defender if c not in laid])
        key = (rest.points, -len(laid))
        if best is None or key < best[0]:
            best = (key, choice, rest)
    _, choice, rest = best
    plays, final = [], []
    for index, (meld, (below, above)) in enumerate(zip(melds, choice)):
        cards = meld.cards
        for card in below + above:
            plays.append(LayOff(card, index, cards).to_json())
            cards = Hand(sorted(cards + (card,)))
        final.append(str(cards))
    return {
        "lay_offs": plays,
        "melds": [str(m) for m in rest.melds],
        "deadwood": str(rest.deadwood),
        "points": rest.points,
        "knocker_melds": final,
    }


def ref_score(knocker: Hand, defender: Hand) -> dict:
    """The knocker's layout and the defender's play for a knock (not gin), as in to_json()."""
    best = None
    for layout in ref_optimal_layouts(knocker):
        result = ref_lay_offs(layout, defender)
        if best is None or result["points"] > best[1]["points"]:
            best = (layout, result)
    layout, defence = best
    melded = [c for m in layout for c in m.cards]
    return {
        "knocker_melds": [str(m) for m in layout],
        "knocker_deadwood": str(Hand(sorted(c for c in knocker if c not in melded))),
        "defender_melds": defence["melds"],
        "lay_offs": defence["lay_offs"],
        "defender_deadwood": defence["deadwood"],
        "defender_points": defence["points"],
    }


# ---------------------------------------------------------------- the sample


def played_knocks(count: int, seed: int) -> list[tuple[Hand, Hand]]:
    """Knocks as they come in play: from a random deal both players draw from the stock in
    turn and throw the card that leaves the least deadwood (the highest on ties), until one can
    knock (deadwood 1 to 10; a gin is played on). (Random 10-card hands almost never knock.)"""
    rng, found = random.Random(seed), []
    while len(found) < count:
        deck = rng.sample(DECK, 52)
        hands, stock = [deck[0:10], deck[10:20]], deck[20:]
        for turn in range(len(stock)):
            hand = hands[turn % 2] + [stock[turn]]
            throw = min(
                hand, key=lambda c: (min_deadwood([x for x in hand if x is not c]), -c.value)
            )
            hands[turn % 2] = [c for c in hand if c is not throw]
            if 0 < min_deadwood(hands[turn % 2]) <= 10:
                found.append((parse_cards(hands[turn % 2]), parse_cards(hands[1 - turn % 2])))
                break
    return found


def dense_knocks(count: int, seed: int) -> list[tuple[Hand, Hand]]:
    """Knocks from a 3- to 5-rank window (many melds, several layouts), the defender holding
    cards around the window (long lay-off chains at both ends, fourth cards of sets)."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        low, width = rng.randint(1, 10), rng.choice((3, 4, 4, 5))
        window = [c for c in DECK if low <= c.rank < low + width]
        knocker = rng.sample(window, 9) + [rng.choice([c for c in DECK if c.rank < 11])]
        if len(set(knocker)) < 10 or not 0 < min_deadwood(knocker) <= 10:
            continue
        near = [c for c in DECK if c not in knocker and low - 3 <= c.rank < low + width + 3]
        found.append((parse_cards(knocker), parse_cards(rng.sample(near, 10))))
    return found


ADVERSARIAL = [  # many lay-off combinations on two layouts, and lay-offs meeting between runs
    ("3S 4S 5S 3H 4H 5H 3D 4D 5D AC", "AS 2S 6S 7S AH 2H 6H 7H 6D 7D"),
    ("TS JS QS TH JH QH TD JD QD 4S", "8S 9S KS 8H 9H KH 8D 9D KD 7H"),
    ("9S TS JS 9H TH JH 9D TD JD 4H", "KS QS QH KH 8S 8H 8D 7D QD KD"),
    ("3S 4S 5S 9S TS JS 3H 4H 5H AD", "6S 7S 8S 2H 6H 7H 2S AS AH QS"),
    ("5D 5S 4D 3D 4H 5H 4S 3H 3S 9H", "AS 2D 6S 6H 2S 7S 2H 7D 6D AH"),
    ("TH 9S JS 9H 9D JH JD TD TS 4H", "KH 8S QS QH KS KD 8D 8H QD 7D"),
    ("4D 6D 6H 5D 4H 5C 5H 4C 6C 7S", "7D 3H TH 3D 2H 7H 3C 7C 8H 8C"),
    ("JS QS TC QD QC TD TS JC JD 3C", "KS 6S 7D 9C 8C 9D 8D KD KC 9S"),
]


@cache
def sample() -> list[tuple[Hand, Hand]]:
    pairs = [(parse_cards(k), parse_cards(d)) for k, d in ADVERSARIAL]
    return pairs + played_knocks(3000, 1) + dense_knocks(1500, 2)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_score_hand_matches_the_reference(part):
    checked = 0
    for knocker, defender in sample()[part::4]:
        result = score_hand(knocker, defender).to_json()
        expected = ref_score(knocker, defender)
        assert {key: result[key] for key in expected} == expected, (str(knocker), str(defender))
        checked += 1
    assert checked > 1000


def test_optimal_layouts_and_lay_offs_match_the_reference():
    for knocker, defender in sample()[::5]:
        layouts = optimal_layouts(knocker)
        assert layouts == ref_optimal_layouts(knocker), str(knocker)
        for layout in layouts:
            assert lay_offs(layout, defender).to_json() == ref_lay_offs(layout, defender)


def test_reference_numbers_match_the_brute_forces():
    """The deadwood the reference leaves the defender: the most, over every optimal layout found
    by brute force, of the least over every sequence of single lay-offs."""
    pairs = sample()
    for knocker, defender in pairs[: len(ADVERSARIAL)] + pairs[len(ADVERSARIAL) :: 150]:
        layouts = brute_layouts(knocker)
        assert {
            frozenset(frozenset(m.cards) for m in layout) for layout in ref_optimal_layouts(knocker)
        } == layouts
        best = max(
            brute_lay_offs([Hand(sorted(m)) for m in layout], defender) for layout in layouts
        )
        assert ref_score(knocker, defender)["defender_points"] == best
