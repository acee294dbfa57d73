"""Melds, the best arrangement of a hand, and minimum deadwood.

NOTE: this is a slow, plainly correct reference version; a fast bitmask version replaces it.

>>> best_melds(parse_cards("3H 4H 5H 7C 7D 7S 9S 9C KD KH")).points
38
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .cards import Card, Hand, cards_from_mask, parse_cards
from .errors import CardError


@dataclass(frozen=True)
class Meld:
    """A set (3 or 4 cards of one rank) or a run (3+ cards of one suit in sequence)."""

    cards: Hand
    kind: str  # "set" or "run"

    def __str__(self) -> str:
        return str(self.cards)

    def __repr__(self) -> str:
        return f"Meld({str(self)!r})"


@dataclass(frozen=True)
class Arrangement:
    melds: tuple[Meld, ...]
    deadwood: Hand
    points: int
    discard: Card | None = None


def _make_meld(mask: int) -> Meld:
    cards = Hand(sorted(cards_from_mask(mask)))
    kind = "set" if len({c.rank for c in cards}) == 1 else "run"
    return Meld(cards, kind)


@lru_cache(maxsize=65536)
def _search(mask: int) -> tuple[int, tuple[int, ...]]:
    """(deadwood points, meld masks) minimising deadwood for the cards in ``mask``."""
    if not mask:
        return 0, ()
    cards = cards_from_mask(mask)
    low = min(cards, key=lambda c: (c.rank, c.index))
    rest = mask & ~low.bit
    points, melds = _search(rest)
    best = (points + low.value, melds)
    same = [c for c in cards if c.rank == low.rank and c is not low]
    for size in (2, 3):
        for combo in _combinations(same, size):
            meld = low.bit | sum(c.bit for c in combo)
            points, melds = _search(mask & ~meld)
            best = min(best, (points, (meld,) + melds))
    run = low.bit
    rank = low.rank
    while rank < 13 and mask & (run << 1) & ~run and (Card(rank + 1, low.suit).bit & mask):
        rank += 1
        run |= Card(rank, low.suit).bit
        if rank - low.rank >= 2:
            points, melds = _search(mask & ~run)
            best = min(best, (points, (run,) + melds))
    return best


def _combinations(items, size):
    from itertools import combinations
    return combinations(items, size)


def arrange(cards) -> Arrangement:
    """The arrangement with the least deadwood for any number of cards (no discard)."""
    hand = parse_cards(cards)
    points, melds = _search(hand.mask)
    meld_objs = tuple(sorted((_make_meld(m) for m in melds), key=lambda m: m.cards.mask))
    used = 0
    for m in melds:
        used |= m
    deadwood = Hand(sorted(c for c in hand if not c.bit & used))
    return Arrangement(meld_objs, deadwood, points)


def best_melds(cards) -> Arrangement:
    """The best arrangement of 10 cards, or of 11 cards with the best discard."""
    hand = parse_cards(cards, count=(10, 11))
    if len(hand) == 10:
        return arrange(hand)
    options = []
    for card in hand:
        a = arrange(Hand(c for c in hand if c is not card))
        options.append((a.points, -card.value, card.index, a, card))
    points, _, _, a, card = min(options)
    return Arrangement(a.melds, a.deadwood, a.points, card)


def min_deadwood(cards) -> int:
    """Minimum deadwood points of 10 cards, or of 11 cards over every discard."""
    return best_melds(cards).points
