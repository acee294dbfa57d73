"""The bots as they were before the coach became the strong player (commit 69d0c4d), frozen.

bench/strength.py plays the new strong bot against this file's ``strong`` level: "today's
strong bot" of issue 30, kept as the reference. Nothing in the engine imports it.

Computer players: :func:`choose` picks an action for the player to act, at a given level.

A bot reads only :func:`ginrummy.public.view` of the state, so it never uses the other hand's
hidden cards or the order of the stock. Its choice is deterministic for a given ``seed`` (its
random tie-breaks are seeded by the seed and the public state).

The levels (:data:`LEVELS`):

- ``beginner``: takes a card from the discard pile only when it makes a meld with its cards,
  throws its highest unmatched card half the time and a random one otherwise, knocks at the
  first chance;
- ``intermediate``: throws the card that leaves the least deadwood, ties broken by the chances
  the next draw improves the hand; takes the discard when it leaves less deadwood than a draw
  from the stock is expected to; knocks at the first chance;
- ``strong``: weighs each discard by the deadwood it leaves, the expected deadwood after the
  next draw, and the danger of handing the other player a meld (cards they are known to hold,
  cards still unseen); takes the discard on the same measures; knocks at once early, later
  (as the other hand improves and the undercut risk grows) only with less deadwood, and plays
  on for gin with 1 or 2 points when many unseen cards would give it.

>>> from ginrummy.hand import deal
>>> state = deal(seed=7)
>>> choose(state, "strong", seed=1)
Action(kind='pass', player=1, card=None)
>>> choose(state, "grandmaster")
Traceback (most recent call last):
...
ginrummy.errors.RuleError: no bot level 'grandmaster'; choose one of beginner, intermediate, strong
"""

from __future__ import annotations

import random

from ginrummy.cards import LANE_BITS, Card
from ginrummy.ending import verdict
from ginrummy.errors import RuleError
from ginrummy.hand import Action, HandState
from ginrummy.melds import arrange, min_deadwood_after_discard_mask, min_deadwood_mask
from ginrummy.public import PlayerView, view

LEVELS = ("beginner", "intermediate", "strong")
_LANE = (1 << LANE_BITS) - 1
_RANK = sum(1 << (suit * LANE_BITS) for suit in range(4))  # bit 0 of each suit's lane


def choose(state: HandState, level: str = "strong", seed: int | None = None) -> Action:
    """The action ``level`` plays for ``state.turn``. Raises ``RuleError`` ``unknown_level``
    (``level``) for an unknown level, ``hand_over`` when the hand is finished."""
    if level not in LEVELS:
        raise RuleError(
            "unknown_level",
            f"no bot level {str(level)[:40]!r}; choose one of {', '.join(LEVELS)}",
            level=str(level)[:40],
        )
    if state.phase == "finished":
        raise RuleError("hand_over", "the hand is over", kind="bot")
    return decide(view(state, state.turn), level, seed)


def decide(seen: PlayerView, level: str = "strong", seed: int | None = None) -> Action:
    """The action ``level`` plays from a player's view (it must be their turn)."""
    actions = seen.legal_actions()
    if len(actions) == 1:
        return actions[0]
    rng = random.Random(f"{seed}|{seen.hand}|{len(seen.history)}|{seen.phase}")
    return _PLAYERS[level](seen, actions, rng)


# --- what the levels share -------------------------------------------------------------------


def joins_meld(mask: int, card: Card) -> bool:
    """Whether ``card`` makes a meld (a set or a run of 3) with some cards of ``mask``.

    >>> from ginrummy.cards import Hand
    >>> joins_meld(Hand("7H 7S 2C").mask, Card.parse("7D")), joins_meld(Hand("8H TH").mask,
    ...                                                                  Card.parse("9H"))
    (True, True)
    >>> joins_meld(Hand("8H 9S").mask, Card.parse("7H"))
    False
    """
    low = card.rank - 1  # the card's bit in its suit's lane
    if (mask >> low & _RANK).bit_count() >= 2:
        return True
    lane = (mask >> (card.index - low) & _LANE) | 1 << low
    starts = lane & lane >> 1 & lane >> 2  # the lowest cards of runs of 3 in the lane
    return bool(starts & (7 << low) >> 2)  # a run starting 2, 1 or 0 below the card


def discards(seen: PlayerView) -> list[Card]:
    """The cards the player may throw now (all but the card just taken)."""
    return [card for card in seen.hand if card is not seen.taken]


def least_deadwood_discards(mask: int, cards: list[Card]) -> tuple[int | None, list[Card]]:
    """The least deadwood left by throwing one of ``cards`` from ``mask``, and the cards that
    leave it."""
    best: int | None = None
    chosen: list[Card] = []
    for card in cards:
        points = min_deadwood_mask(mask ^ card.bit)
        if best is None or points < best:
            best, chosen = points, [card]
        elif points == best:
            chosen.append(card)
    return best, chosen


def expected_after_draw(mask: int, unseen: list[Card]) -> float:
    """The mean least deadwood after drawing one of ``unseen`` to the 10 cards of ``mask`` and
    throwing the best card."""
    keep = min_deadwood_mask(mask)
    if not unseen:
        return float(keep)
    swap = min_deadwood_after_discard_mask(mask)
    total = 0
    for card in unseen:
        # A card that makes no meld with the hand stays unmatched if kept: throw it, or keep
        # it and throw the best other card (exact, and no search).
        total += (
            min_deadwood_after_discard_mask(mask | card.bit)
            if joins_meld(mask, card)
            else min(keep, card.value + swap)
        )
    return total / len(unseen)


def _ending(seen: PlayerView, card: Card) -> Action | None:
    """Gin or a knock throwing ``card``, when the rules allow one."""
    kind = verdict(min_deadwood_mask(seen.hand.mask ^ card.bit), seen.rules, seen.upcard).kind
    return Action(kind, seen.player, card) if kind in ("gin", "knock") else None


def _big_gin(actions: list[Action]) -> Action | None:
    return next((a for a in actions if a.kind == "big_gin"), None)


def _top(seen: PlayerView) -> Card:
    return seen.discards[-1]


def draw_measures(seen: PlayerView, unseen: list[Card]) -> tuple[float, float]:
    """The least deadwood after taking the top of the pile (and throwing another card), and
    the mean after a draw from the stock; taking counts as no better without a pile."""
    drawing = expected_after_draw(seen.hand.mask, unseen)
    if not seen.discards:
        return drawing, drawing
    with_top = seen.hand.mask | _top(seen).bit
    return min(min_deadwood_mask(with_top ^ c.bit) for c in seen.hand), drawing


def _take_or_not(seen: PlayerView, actions: list[Action], take: bool) -> Action:
    kinds = {a.kind: a for a in actions}
    if seen.phase == "offer":
        return kinds["take_upcard" if take else "pass"]
    return kinds["draw_discard"] if take and "draw_discard" in kinds else kinds["draw_stock"]


# --- beginner --------------------------------------------------------------------------------


def _beginner(seen: PlayerView, actions: list[Action], rng: random.Random) -> Action:
    if seen.phase in ("offer", "draw"):
        take = bool(seen.discards) and joins_meld(seen.hand.mask, _top(seen))
        return _take_or_not(seen, actions, take)
    ending = _big_gin(actions)
    if ending:
        return ending
    cards = discards(seen)
    loose = [c for c in cards if c in arrange(seen.hand).deadwood] or cards
    card = max(loose, key=lambda c: c.value) if rng.random() < 0.5 else rng.choice(loose)
    return _ending(seen, card) or Action("discard", seen.player, card)


# --- intermediate ----------------------------------------------------------------------------


def _intermediate(seen: PlayerView, actions: list[Action], rng: random.Random) -> Action:
    mask, unseen = seen.hand.mask, list(seen.unseen)
    if seen.phase in ("offer", "draw"):
        taking, drawing = draw_measures(seen, unseen)
        return _take_or_not(seen, actions, taking < drawing - 1)
    ending = _big_gin(actions)
    if ending:
        return ending
    _, chosen = least_deadwood_discards(mask, discards(seen))
    if len(chosen) > 1:
        scores = [(expected_after_draw(mask ^ c.bit, unseen), c) for c in chosen]
        low = min(s for s, _ in scores)
        chosen = [c for s, c in scores if s == low]
    card = rng.choice(chosen)
    return _ending(seen, card) or Action("discard", seen.player, card)


# --- strong ----------------------------------------------------------------------------------

DANGER_WEIGHT = 8.0
"""Points of harm charged for handing the other player a card that surely makes them a meld."""
NOW_WEIGHT = 0.4
"""The weight of the deadwood held now beside the expected deadwood after the next draw."""


def _partner_patterns(card: Card) -> list[tuple[Card, Card]]:
    """The pairs of cards that make a meld with ``card``: two of its rank, or run neighbours."""
    same = [Card(card.rank, s) for s in "SHDC" if s != card.suit]
    pairs = [(a, b) for i, a in enumerate(same) for b in same[i + 1 :]]
    for low in (card.rank - 2, card.rank - 1, card.rank):  # the card highest, middle, lowest
        if low >= 1 and low + 2 <= 13:
            a, b = (r for r in (low, low + 1, low + 2) if r != card.rank)
            pairs.append((Card(a, card.suit), Card(b, card.suit)))
    return pairs


def danger(seen: PlayerView, card: Card) -> float:
    """The chance (0 to 1) that the other player holds two cards making a meld with ``card``:
    a known card counts as held, an unseen card as held with the share of unseen cards in
    their hand; cards in the pile or in our hand are not theirs."""
    hidden = seen.opponent_count - len(seen.known)
    unseen = len(seen.unseen)
    share = hidden / unseen if unseen else 0.0
    known, maybe = seen.known.mask, seen.unseen.mask

    def held(c: Card) -> float:
        return 1.0 if known & c.bit else (share if maybe & c.bit else 0.0)

    missing = 1.0
    for a, b in _partner_patterns(card):
        missing *= 1.0 - held(a) * held(b)
    return 1.0 - missing


def _discard_score(seen: PlayerView, rest: int, now: int, card: Card, unseen: list[Card]) -> float:
    """How bad it is to throw ``card``, keeping ``rest`` with ``now`` points of deadwood: the
    points kept now (weighed ``NOW_WEIGHT``), the points expected after the next draw, and the
    danger of the card (weighed ``DANGER_WEIGHT`` with a full stock of 31 cards, growing as
    the stock runs down to twice that with none)."""
    late = 1.0 + (31 - seen.stock_count) / 31
    return (
        NOW_WEIGHT * now
        + expected_after_draw(rest, unseen)
        + DANGER_WEIGHT * late * danger(seen, card)
    )


def _strong(seen: PlayerView, actions: list[Action], rng: random.Random) -> Action:
    mask, unseen = seen.hand.mask, list(seen.unseen)
    if seen.phase in ("offer", "draw"):
        taking, drawing = draw_measures(seen, unseen)
        take = taking < drawing - 1.5 or (
            taking <= seen.rules.knock_limit_for(seen.upcard) and taking < drawing
        )
        return _take_or_not(seen, actions, take)
    ending = _big_gin(actions)
    if ending:
        return ending
    cards = discards(seen)
    now = {card: min_deadwood_mask(mask ^ card.bit) for card in cards}
    ranked = sorted(cards, key=lambda c: (now[c], -c.value, c.index))
    scores = {
        c: (_discard_score(seen, mask ^ c.bit, now[c], c, unseen), rng.random())
        for c in ranked[:SHORTLIST]
    }
    card = min(scores, key=scores.__getitem__)
    best = now[ranked[0]]
    knock_card = min((c for c in scores if now[c] == best), key=scores.__getitem__)
    ending = _ending(seen, knock_card)
    if ending is not None and _should_knock(seen, best, mask ^ knock_card.bit, unseen):
        return ending
    return Action("discard", seen.player, card)


SHORTLIST = 5
"""The strong bot weighs only the discards leaving the least deadwood now (the others break
melds or keep high cards)."""
KNOCK_TURNS = 16
"""Draws (both players') before the strong bot starts asking a knock for less deadwood."""


def _should_knock(seen: PlayerView, points: int, rest: int, unseen: list[Card]) -> bool:
    """Knock with ``points`` of deadwood (the 10 cards ``rest`` kept), or play on for gin or a
    lower knock? Early, knock; later the other hand has improved and may undercut, so knock
    only with fewer points; play on for gin with 1 or 2 points when many cards give gin and
    the stock is long."""
    if points == 0:
        return True
    turns = sum(1 for e in seen.history if e.kind in ("draw_stock", "draw_discard", "take_upcard"))
    ginning = sum(1 for c in unseen if min_deadwood_after_discard_mask(rest | c.bit) == 0)
    if points <= 2 and ginning >= 4 and seen.stock_count > 12:
        return False
    # to the 16th draw, 10 (any knock); then 1 fewer every 2 draws, down to 4
    return points <= max(4, 10 - max(0, turns - KNOCK_TURNS) // 2)


_PLAYERS = {"beginner": _beginner, "intermediate": _intermediate, "strong": _strong}
