"""The base policy: a sensible player's moves, worked out fast on bit masks.

It plays from one player's knowledge only: their cards, the discard pile, the cards the other
player is known to hold (taken from the pile and not thrown since) and how many cards the
stock holds. Everything else is *live* (:func:`live_mask`): still unseen by this player.

- **Draw** (:func:`takes`): take the top of the discard pile when it lowers the deadwood and
  makes or extends a meld, when it lets the player knock at once, or when it lowers the
  deadwood by :data:`TAKE_GAIN` or more; else draw from the stock.
- **Discard** (:func:`throw`): among the cards leaving at most :data:`SLACK` points more than
  the least deadwood, throw the one with the lowest score: the deadwood it leaves, less
  :data:`OUT_WEIGHT` per live out kept (:func:`meld_outs`: the unseen cards that would make or
  extend a meld), plus the danger of handing the other player a meld (:func:`danger`). Ties:
  the higher card.
- **Knock** (:func:`knocks`): gin always; a knock while :func:`knock_threshold` allows it (any
  knock early, fewer points as the stock runs down), except that with 1 or 2 points, a long
  stock and :data:`GIN_OUTS` live cards giving gin, it plays on for gin.

The coach's playouts (:mod:`ginrummy.playout`) play both players with it; the bots' weaker
levels (:mod:`ginrummy.bots`) play it with a handicap.

>>> from ginrummy.cards import Hand, Card
>>> hand = Hand("2S 3S 4S 7H 7D 9C TC KD QH 5C 6C")
>>> points, card = throw(hand.mask, None, live_mask(hand.mask, 0, 0), 0, 20)
>>> points, str(card)
(54, 'QH')
>>> takes(Hand("2S 3S 7H 7D 9C TC KD QH 5C 6C").mask, Card.parse("4S"), 10)
True
"""

from __future__ import annotations

import functools

from .cards import DECK, LANE_BITS, Card
from .melds import min_deadwood_after_discard_mask, min_deadwood_mask

ALL = (1 << len(DECK)) - 1
_LANE = (1 << LANE_BITS) - 1
_RANK = sum(1 << (suit * LANE_BITS) for suit in range(4))  # bit 0 of each suit's lane
_SHIFTS = tuple(suit * LANE_BITS for suit in range(4))
_BY_VALUE = tuple(sorted(DECK, key=lambda card: (-card.value, card.index)))
"""The deck, highest card first (ties: the order of the deck): the order of throws."""

TAKE_GAIN = 8
"""Take a card that makes no meld from the pile when it lowers the deadwood this much."""
SLACK = 4
"""The discards weighed: those leaving at most this many points more than the least."""
OUT_WEIGHT = 0.6
"""Points a live out is worth when choosing a discard (a chance at a meld later)."""
DANGER_KNOWN = 6.0
"""Points charged for throwing a card that makes a meld with the other player's known cards
(doubling as the stock runs out)."""
DANGER_NEAR = 1.5
"""Points charged for a card one short of such a meld (next to, or of the rank of, one)."""
GIN_OUTS = 4
"""Play on for gin with 1 or 2 points when this many live cards would give it."""
KNOCK_STOCK = 15
"""While the stock holds this many cards or more, knock with any deadwood the rules allow."""


_NONE = 10_000  # more than any deadwood
_ORDER = 1_000_000  # a score's weight in a key beside the tie-break (at most 951)


def meld_outs(mask: int) -> int:
    """The cards not in ``mask`` that would make or extend a meld with its cards, as a mask: a
    card of a rank held twice or more, or a card next to two of its suit in a run (below,
    between or above them).

    >>> from ginrummy.cards import Hand, cards_from_mask
    >>> str(cards_from_mask(meld_outs(Hand("7H 8H 9S 9D").mask)).sorted())
    '6H 9H 9C'
    """
    a, b = mask & _LANE, mask >> LANE_BITS & _LANE
    c, d = mask >> 2 * LANE_BITS & _LANE, mask >> 3 * LANE_BITS
    t = _RUN_OUTS
    out = ((a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)) * _RANK
    out |= t[a] | t[b] << LANE_BITS | t[c] << 2 * LANE_BITS | t[d] << 3 * LANE_BITS
    return out & ~mask


def _run_outs(lane: int) -> int:
    """The cards of one suit's lane next to two of the lane's cards in a run."""
    below, above = lane << 1, lane >> 1
    return ((below & lane << 2) | (below & above) | (above & lane >> 2)) & _LANE & ~lane


_RUN_OUTS = [_run_outs(lane) for lane in range(1 << LANE_BITS)]


def joins_meld(mask: int, card: Card) -> bool:
    """Whether ``card`` makes a meld (a set or a run of 3) with some cards of ``mask``.

    >>> from ginrummy.cards import Hand
    >>> joins_meld(Hand("7H 7S 2C").mask, Card.parse("7D")), joins_meld(Hand("8H TH").mask,
    ...                                                                  Card.parse("9H"))
    (True, True)
    >>> joins_meld(Hand("8H 9S").mask, Card.parse("7H"))
    False
    """
    return bool(meld_outs(mask & ~card.bit) & card.bit)


def meld_capable(mask: int) -> int:
    """The cards of ``mask`` that are in some meld of its cards (a rank held 3 or 4 times, or
    a run of 3 within a suit): every other card is deadwood in every arrangement."""
    a, b = mask & _LANE, mask >> LANE_BITS & _LANE
    c, d = mask >> 2 * LANE_BITS & _LANE, mask >> 3 * LANE_BITS
    sets = ((a & b & (c | d)) | (c & d & (a | b))) * _RANK
    runs = 0
    for shift, lane in zip(_SHIFTS, (a, b, c, d)):
        starts = lane & lane >> 1 & lane >> 2
        runs |= (starts | starts << 1 | starts << 2) << shift
    return (sets | runs) & mask


def live_mask(mask: int, pile: int, other_known: int) -> int:
    """The cards a player has not seen: not theirs, not in the pile, not known to be the
    other player's."""
    return ALL & ~mask & ~pile & ~other_known


def takes(mask: int, top: Card, limit: int) -> bool:
    """Whether the player holding the 10 cards of ``mask`` takes ``top`` from the pile (see the
    module docstring); ``limit`` is the knock limit."""
    before = least_deadwood(mask)
    after = _least_after(mask | top.bit)
    if after >= before:
        return False  # the best is to throw the card again: no use
    if meld_outs(mask) & top.bit:
        return True
    return after <= limit < before or before - after >= TAKE_GAIN


def throw(
    mask: int, taken: Card | None, live: int, other_known: int, stock: int
) -> tuple[int, Card]:
    """The card thrown from the 11 cards of ``mask`` (never ``taken``, the card just taken
    from the pile) and the deadwood it leaves (see the module docstring)."""
    _, _, points, card = discard_choice(mask, taken, live, other_known, stock)
    return points, card


def ending_throw(mask: int, taken: Card | None, other_known: int) -> tuple[int, Card]:
    """The card to knock (or go gin) with: one leaving the least deadwood, the safest, then
    the highest."""
    points, card, _, _ = discard_choice(mask, taken, 0, other_known, 0)
    return points, card


def discard_choice(
    mask: int, taken: Card | None, live: int, other_known: int, stock: int
) -> tuple[int, Card, int, Card]:
    """Both of the policy's throws from the 11 cards of ``mask``: the least deadwood and the
    card to end the hand with (:func:`ending_throw`), and the deadwood left by the card thrown
    to play on, and that card (:func:`throw`)."""
    whole = least_deadwood(mask)
    capable = meld_capable(mask)
    kept = []
    least = _NONE
    rest = mask
    while rest:
        bit = rest & -rest
        rest ^= bit
        card = DECK[bit.bit_length() - 1]
        if card is not taken:
            left = least_deadwood(mask ^ bit) if capable & bit else whole - card.value
            if left < least:
                least = left
            kept.append((left, card))
    late = 1.0 + (31 - stock) / 31
    feeds, near = (meld_outs(other_known), near_cards(other_known)) if other_known else (0, 0)
    # keys: the score, then the higher card, then the deck's order (see _ORDER)
    end_key = best_key = float(_NONE) * _ORDER
    end = best = kept[0]
    for left, card in kept:
        if left > least + SLACK:
            continue
        bit = card.bit
        harm = DANGER_KNOWN if feeds & bit else (DANGER_NEAR if near & bit else 0.0)
        tie = (10 - card.value) * 100 + card.index
        if left == least and harm * _ORDER + tie < end_key:
            end, end_key = (left, card), harm * _ORDER + tie
        score = left - OUT_WEIGHT * (meld_outs(mask ^ bit) & live).bit_count() + late * harm
        if score * _ORDER + tie < best_key:
            best, best_key = (left, card), score * _ORDER + tie
    return least, end[1], best[0], best[1]


def danger(other_known: int, card: Card) -> float:
    """Points charged for throwing ``card`` when the other player is known to hold
    ``other_known``: :data:`DANGER_KNOWN` when it makes them a meld, :data:`DANGER_NEAR` when
    it is next to one of those cards (same rank, or its suit 1 or 2 away), else 0."""
    if meld_outs(other_known) & card.bit:
        return DANGER_KNOWN
    return DANGER_NEAR if near_cards(other_known) & card.bit else 0.0


def near_cards(mask: int) -> int:
    """The cards not in ``mask`` of a rank it holds, or 1 or 2 away in a suit it holds.

    >>> from ginrummy.cards import Hand, cards_from_mask
    >>> str(cards_from_mask(near_cards(Hand("9H").mask)).sorted())
    '7H 8H 9S 9D 9C TH JH'
    """
    a, b = mask & _LANE, mask >> LANE_BITS & _LANE
    c, d = mask >> 2 * LANE_BITS & _LANE, mask >> 3 * LANE_BITS
    near = (a | b | c | d) * _RANK
    for shift, lane in zip(_SHIFTS, (a, b, c, d)):
        near |= ((lane << 1 | lane << 2 | lane >> 1 | lane >> 2) & _LANE) << shift
    return near & ~mask


def knock_threshold(stock: int, limit: int) -> int:
    """The most deadwood the policy knocks with, ``stock`` cards left: the knock limit while
    the stock holds :data:`KNOCK_STOCK` cards or more, then one point fewer every 2 cards,
    down to 4 (never above the limit).

    >>> [knock_threshold(stock, 10) for stock in (31, 15, 13, 11, 5, 2)]
    [10, 10, 9, 8, 5, 4]
    """
    return min(limit, max(4, 10 - max(0, KNOCK_STOCK - stock + 1) // 2))


def knocks(points: int, rest: int, live: int, stock: int, limit: int) -> bool:
    """Whether the policy ends the hand with ``points`` of deadwood in the 10 cards ``rest``
    (see the module docstring)."""
    if points == 0:
        return True
    if points > limit:
        return False
    if points <= 2 and stock > 12 and gin_outs(rest, live) >= GIN_OUTS:
        return False
    return points <= knock_threshold(stock, limit)


def gin_outs(rest: int, live: int) -> int:
    """How many live cards would give the 10 cards ``rest`` gin at the next draw."""
    count = 0
    outs = meld_outs(rest) & live
    while outs:
        bit = outs & -outs
        outs ^= bit
        count += _least_after(rest | bit) == 0
    return count


least_deadwood = functools.lru_cache(maxsize=1 << 15)(min_deadwood_mask)
_least_after = functools.lru_cache(maxsize=1 << 15)(min_deadwood_after_discard_mask)
"""Deadwood by mask, remembered: the playouts of one ranking, and the rankings of one game,
meet the same hands again and again (pure functions: nothing else changes)."""


def forget() -> None:
    """Forget the deadwood remembered (the browser's memory snapshot is taken without it: it
    would only make the download bigger)."""
    least_deadwood.cache_clear()
    _least_after.cache_clear()
