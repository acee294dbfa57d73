"""The opponent model: the other player's hidden cards, inferred from the public history.

A player cannot see the other hand's cards beyond those it took from the pile (``known``),
nor the stock's order. A *world* deals the unseen cards: the other hand's hidden cards, the
knock's face-down discard when it is hidden, and the stock in some order. Not every deal is
as likely. The other player made their takes, passes and discards with their cards, and a
sensible player takes cards that make melds, throws cards that do not, and keeps improving
their hand. So each deal of the hidden cards ``H`` gets a weight (:func:`likelihood`):

- ``exp(-tilt * max(deadwood, TILT_FLOOR))``, the deadwood of ``H`` with the known cards: a
  hand that has been drawn to and thrown from is better than a random one. ``tilt`` grows
  from 0 at the deal (a dealt hand is random) to :data:`TILT` once the player has drawn
  :data:`TILT_TURNS` times; it and :data:`TILT_FLOOR` were set so that the model's deadwood,
  knock values and undercut rates match real hands (bench/coach.py measures this
  calibration);
- for each **discard** ``d``: :data:`THROW_MELDED` if ``d`` made a meld with the cards then
  held, :data:`THROW_PAIRED` if it had a partner among them (a pair, or one card short of a
  run), else 1;
- for each **take** of ``c`` from the pile (the upcard too): :data:`TAKE_MELD` if ``c`` made
  or extended a meld with the cards then held, else :data:`TAKE_OTHER`;
- for each **pass** over ``c`` (declining the upcard, or drawing from the stock while ``c``
  topped the pile): one less that chance of taking it.

The cards held at a move are worked out backwards from ``H`` and the known cards: the cards
the player threw since are added back, the cards taken from the pile since are taken out.
Cards drawn from the stock since cannot be told apart, so they stay in (the hand at a move
may look one card richer per draw since; the model accepts that). The stock's order is
uniform whatever ``H`` is.

Sampling (:func:`sample_worlds`) draws :data:`CANDIDATES` deals per world wanted from a
proposal that weighs each card alone (:meth:`Model.card_weights`: low cards and the
partners of cards taken favoured, the partners of cards thrown not), drawn exactly in
proportion to the product of the cards' weights; it weighs each deal by its weight over its
proposal's, and keeps ``count`` of them with chances in proportion (systematic
resampling), each with a stock shuffled afresh. Every world kept then counts the same.
:func:`every_world` lists every deal with its exact weight, for small endgames; the tests
check the sampler's frequencies against it.

>>> from ginrummy.cards import Hand
>>> from ginrummy.hand import Action, apply, deal
>>> from ginrummy.public import view
>>> state = apply(deal(seed=7), Action("take_upcard", 1))
>>> model = Model(view(state, 0))
>>> len(model.unseen), model.hidden
(41, 10)
>>> # they took the 9H upcard: a hand with 9S and 9D explains it better than one without
>>> with_nines = model.weight(Hand("9S 9D 2C 4C 6D 8S TS QC KD KH").mask)
>>> without = model.weight(Hand("2S 3D 2C 4C 6D 8S TS QC KD KH").mask)
>>> with_nines > without
True
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

from .cards import LANE_BITS, Card, unchecked_hand
from .hand import DRAW_KINDS, TAKE_KINDS, HandState
from .policy import least_deadwood, meld_outs, near_cards
from .public import PlayerView

_LANE = (1 << LANE_BITS) - 1
_RANK = sum(1 << (suit * LANE_BITS) for suit in range(4))

TAKE_MELD = 0.85
"""The chance a sensible player takes a card that makes or extends a meld with their cards."""
TAKE_OTHER = 0.1
"""The chance they take a card that does not."""
THROW_MELDED = 0.15
"""The chance, relative to a card of no use, that a sensible player throws a card that
makes a meld with the cards they hold."""
THROW_PAIRED = 0.5
"""... a card with a partner (a pair, or one card short of a run)."""
TILT = 0.12
"""How strongly a hand with less deadwood is preferred once the player has drawn
:data:`TILT_TURNS` times (less before): a sensible player's hand improves as they draw."""
TILT_TURNS = 3
TILT_FLOOR = 14
"""Deadwood below which a hand is preferred no more: very good hands are rare, and the
model would otherwise make them (and undercuts) too common."""
CANDIDATES = 4
"""Deals drawn per world kept (see the module docstring)."""
TAKEN_PARTNER = 2.0
"""How much more likely the proposal makes the partners of a card the player took."""

World = tuple[tuple[Card, ...], Card | None, tuple[Card, ...]]
"""A world: the other hand's hidden cards, the face-down discard (None when it is not
hidden) and the stock, top first."""


@dataclass(frozen=True)
class _Move:
    """One public move of the other player: ``kind`` is ``discard``, ``take`` or ``pass``;
    the cards then held are ``(H | known | add) & ~remove``."""

    kind: str
    card: Card
    add: int
    remove: int


class Model:
    """The opponent model for one view: the unseen cards, how many are hidden in the other
    hand, and the other player's moves to weigh (see the module docstring)."""

    def __init__(self, seen: PlayerView) -> None:
        self.seen = seen
        self.unseen = tuple(seen.unseen)
        self.hidden = seen.opponent_count - len(seen.known)
        self.face_down = int(seen.knocker is not None and seen.knock_discard is None)
        self.known = seen.known.mask
        self.moves = _moves(seen) if self.hidden else ()
        draws = sum(1 for e in seen.history if e.player == seen.opponent and e.kind in DRAW_KINDS)
        self.tilt = TILT * min(draws, TILT_TURNS) / TILT_TURNS if self.hidden else 0.0

    def weight(self, hidden: int) -> float:
        """The weight of the other player holding the hidden cards ``hidden`` (a mask) besides
        the known ones (module docstring)."""
        return likelihood(self.moves, hidden | self.known, self.tilt)

    def card_weights(self) -> dict[Card, float]:
        """The sampler's proposal (:func:`sample_worlds`): a weight per unseen card, as if
        each card alone were judged by the other player's moves: a card higher than a card
        they threw is less likely kept, the partners of a card they took more likely."""
        weights = {card: exp_neg(self.tilt * card.value / 2) for card in self.unseen}
        for move in self.moves:
            if move.kind == "discard":
                for card in self.unseen:
                    if near_cards(move.card.bit) & card.bit:
                        weights[card] *= THROW_PAIRED
            elif move.kind == "take":
                for card in self.unseen:
                    if near_cards(move.card.bit) & card.bit:
                        weights[card] *= TAKEN_PARTNER
        return weights

    def world_count(self) -> int:
        """How many different worlds there are (hidden cards, face-down card, stock order)."""
        unseen = len(self.unseen)
        return (
            math.comb(unseen, self.hidden)
            * math.comb(unseen - self.hidden, self.face_down)
            * math.factorial(unseen - self.hidden - self.face_down)
        )


def _moves(seen: PlayerView) -> tuple[_Move, ...]:
    """The other player's moves to weigh, each with the cards to add back and take out."""
    other = seen.opponent
    pile = [seen.upcard]
    found: list[tuple[str, Card, int]] = []  # (kind, card, index in the history)
    for index, event in enumerate(seen.history):
        top = pile[-1] if pile else None
        if event.kind in TAKE_KINDS:
            assert event.card is not None  # a take shows its card
            if pile:
                pile.pop()
            if event.player == other:
                found.append(("take", event.card, index))
        elif event.kind == "discard":
            assert event.card is not None  # a discard shows its card
            pile.append(event.card)
            if event.player == other:
                found.append(("discard", event.card, index))
        elif (
            (event.kind == "pass" or (event.kind == "draw_stock" and not _stock_only(seen, index)))
            and event.player == other
            and top is not None
        ):
            found.append(("pass", top, index))
    moves = []
    for kind, card, index in found:
        add = remove = 0
        for later in seen.history[index + 1 :]:
            if later.player != other or later.card is None:
                continue
            if later.kind == "discard":
                add |= later.card.bit
                remove &= ~later.card.bit
            else:
                remove |= later.card.bit
                add &= ~later.card.bit
        if kind == "discard":
            add |= card.bit  # held until thrown
        elif kind == "take":
            remove |= card.bit  # the cards held before the take
        moves.append(_Move(kind, card, add, remove))
    return tuple(moves)


def _stock_only(seen: PlayerView, index: int) -> bool:
    """Whether the draw at ``index`` was the non-dealer's forced first draw (both passed)."""
    before = seen.history[:index]
    return len(before) == 2 and all(e.kind == "pass" for e in before)


E_INVERSE = 0.36787944117144233
"""exp(-1), written out (see :func:`exp_neg`)."""


def exp_neg(x: float) -> float:
    """``exp(-x)`` for ``x >= 0``, from ``+``, ``*`` and ``/`` alone: each is rounded the same
    everywhere, where ``math.exp`` differs in its last bit between the C library CPython is
    built with and Pyodide's, so a ranking (and its stored sums) would differ in the browser.

    >>> exp_neg(0.0), abs(exp_neg(2.5) - 0.0820849986238988) < 1e-15
    (1.0, True)
    """
    whole = int(x)
    part = x - whole
    term = total = 1.0
    for k in range(1, 18):  # the Taylor series of exp(-part), part in [0, 1): 17 terms
        term *= -part / k
        total += term
    for _ in range(whole):
        total *= E_INVERSE
    return total


def likelihood(moves: tuple[_Move, ...], hand: int, tilt: float = 0.0) -> float:
    """The weight of the other player holding ``hand`` now (their known and hidden cards):
    the product of their moves' likelihoods, times ``exp(-tilt * max(deadwood, TILT_FLOOR))``
    (module docstring)."""
    weight = exp_neg(tilt * max(least_deadwood(hand), TILT_FLOOR)) if tilt else 1.0
    for move in moves:
        held = (hand | move.add) & ~move.remove
        bit = move.card.bit
        if move.kind == "discard":
            if meld_outs(held & ~bit) & bit:
                weight *= THROW_MELDED
            elif partnered(held) & bit:
                weight *= THROW_PAIRED
        else:
            take = TAKE_MELD if meld_outs(held & ~bit) & bit else TAKE_OTHER
            weight *= take if move.kind == "take" else 1.0 - take
    return weight


def partnered(mask: int) -> int:
    """The cards of ``mask`` with another card of ``mask`` of their rank, or of their suit one
    or two ranks away (a pair, or two cards one short of a run)."""
    a, b = mask & _LANE, mask >> LANE_BITS & _LANE
    c, d = mask >> 2 * LANE_BITS & _LANE, mask >> 3 * LANE_BITS
    out = ((a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)) * _RANK
    for shift, lane in enumerate((a, b, c, d)):
        out |= ((lane << 1 | lane << 2 | lane >> 1 | lane >> 2) & lane) << shift * LANE_BITS
    return out & mask


def _mask(cards: tuple[Card, ...]) -> int:
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def sample_worlds(model: Model, count: int, rng: random.Random) -> list[World]:
    """``count`` worlds drawn in proportion to their weights (module docstring)."""
    unseen = list(model.unseen)
    hidden, face_down = model.hidden, model.face_down
    if not (model.moves or model.tilt) or not hidden:
        return [_deal(unseen, hidden, face_down, rng) for _ in range(count)]
    weights = model.card_weights()
    table = _symmetric(weights, hidden)
    candidates = []
    for _ in range(count * CANDIDATES):
        held = _draw(unseen, weights, table, hidden, rng)
        mask = _mask(held)
        proposal = 1.0
        for card in held:
            proposal *= weights[card]
        candidates.append((held, model.weight(mask) / proposal))
    total = math.fsum(w for _, w in candidates)
    worlds = []
    spacing = total / count
    point = rng.random() * spacing
    reached, index = 0.0, 0
    for _ in range(count):
        while reached + candidates[index][1] < point and index + 1 < len(candidates):
            reached += candidates[index][1]
            index += 1
        held = candidates[index][0]
        rest = [c for c in model.unseen if c not in held]
        rng.shuffle(rest)
        down = rest.pop() if face_down else None
        worlds.append((held, down, tuple(rest)))
        point += spacing
    return worlds


def _symmetric(weights: dict[Card, float], size: int) -> list[list[float]]:
    """``table[i][k]``: the sum over the ``k``-card subsets of the cards from ``i`` on (in
    the order of ``weights``) of the product of their weights."""
    cards = list(weights)
    table = [[0.0] * (size + 1) for _ in range(len(cards) + 1)]
    table[len(cards)][0] = 1.0
    for i in range(len(cards) - 1, -1, -1):
        w = weights[cards[i]]
        below, row = table[i + 1], table[i]
        row[0] = 1.0
        for k in range(1, size + 1):
            row[k] = below[k] + w * below[k - 1]
    return table


def _draw(
    unseen: list[Card],
    weights: dict[Card, float],
    table: list[list[float]],
    size: int,
    rng: random.Random,
) -> tuple[Card, ...]:
    """``size`` cards with chances in proportion to the product of their weights (a
    conditional Poisson draw, exact)."""
    held = []
    left = size
    for i, card in enumerate(weights):
        if not left:
            break
        w = weights[card]
        if rng.random() * table[i][left] < w * table[i + 1][left - 1]:
            held.append(card)
            left -= 1
    return tuple(held)


def _deal(unseen: list[Card], hidden: int, face_down: int, rng: random.Random) -> World:
    rng.shuffle(unseen)
    down = unseen[hidden] if face_down else None
    return tuple(unseen[:hidden]), down, tuple(unseen[hidden + face_down :])


def every_world(model: Model) -> Iterator[tuple[World, float]]:
    """Every world and its weight (the weights sum to 1): for small endgames."""
    unseen = model.unseen
    deals = list(itertools.combinations(unseen, model.hidden))
    weights = [model.weight(_mask(held)) for held in deals]
    total = math.fsum(weights)
    for held, weight in zip(deals, weights):
        rest = tuple(c for c in unseen if c not in held)
        downs: list[tuple[Card, ...]] = [(c,) for c in rest] if model.face_down else [()]
        orders = math.factorial(len(rest) - model.face_down) * len(downs)
        for down in downs:
            left = tuple(c for c in rest if c not in down)
            for stock in itertools.permutations(left):
                yield (held, down[0] if down else None, stock), weight / total / orders


def world_state(seen: PlayerView, world: World) -> HandState:
    """The hand state of one world: the view's public facts plus this deal of unseen cards."""
    hidden, face_down, stock = world
    other = tuple(seen.known) + tuple(hidden)
    theirs = unchecked_hand(other, _mask(other))
    hands = (seen.hand, theirs) if seen.player == 0 else (theirs, seen.hand)
    return HandState(
        rules=seen.rules,
        dealer=seen.dealer,
        hands=hands,
        stock=tuple(stock),
        discards=seen.discards,
        upcard=seen.upcard,
        phase=seen.phase,
        turn=seen.turn,
        end_of_stock=seen.end_of_stock,
        taken=seen.taken,
        stock_only=seen.stock_only,
        reshuffles=seen.reshuffles,
        knocker=seen.knocker,
        ending=seen.ending,
        knock_discard=seen.knock_discard if face_down is None else face_down,
        outcome=seen.outcome,
        history=seen.history,
        layout=seen.layout,
        laid_off=seen.laid_off,
    )
