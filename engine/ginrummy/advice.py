"""The coach: every legal choice of the player to act, ranked by its expected points.

:func:`advise` works from the player's view only (:func:`ginrummy.public.view`). The cards the
player has not seen are dealt at random into the other hand's unknown cards and the stock: each
such deal is a *world*, consistent with the public history (the other player holds the cards
they took from the pile and have not discarded, and as many cards as they hold; after a knock,
one unseen card is the face-down discard). In each world every legal choice is played, then
the hand is played out to its end by both players with a fast fixed policy (:func:`playout`:
take a card from the pile only when it makes a meld, throw the card leaving the least deadwood,
knock or go gin at the first chance). A choice's value is the mean of the hand's score from
the player's side: the points won, minus the points lost, 0 for a dead hand. Every choice is
played in the same worlds, so the differences between choices are not noise between deals.
The worlds come from ``random.Random(seed)``: the same seed gives the same advice. When there
are no more worlds than ``samples``, each world is played exactly once and the ranking is
exact (``exact`` is True).

Each :class:`Choice` carries ``reasons``: codes with parameters, never English (the site words
them). The codes:

- ``expected`` ``points`` (float), ``win`` and ``lose`` (percent of worlds), ``samples`` (the
  worlds this choice was played in: see :data:`HALVING_MIN`): always first;
- ``deadwood`` ``points``: the deadwood left after this choice (for a draw from the stock, the
  mean over the unseen cards);
- ``gin`` ``bonus``: the choice goes gin; ``big_gin`` ``bonus`` likewise;
- ``knock`` ``deadwood``, ``limit``: the choice knocks;
- ``undercut_risk`` ``percent``: the share of worlds where this knock is undercut;
- ``joins_meld`` ``card``: the card taken makes a meld with the hand;
- ``breaks_meld`` ``card``, ``meld``: the card thrown is in a meld of the hand;
- ``keeps_draws`` ``outs``: the unseen cards that would lower the deadwood at the next draw;
- ``two_way_run`` ``cards``: a two-card run kept open at both ends (two unseen cards complete it);
- ``gives_meld`` ``percent``: the share of worlds in which the card thrown makes a meld with the
  other hand (the danger of feeding the other player);
- ``known_to_opponent`` ``card``: the card thrown makes a meld with cards the other player is
  known to hold;
- ``opponent_passed`` ``card``: the other player passed over or threw a card of the same rank
  (the card is safer to throw);
- ``reveals`` ``card``: taking the card from the pile shows it to the other player.

>>> from ginrummy.hand import deal
>>> advice = advise(deal(seed=7), samples=8, seed=1)
>>> [c.action.kind for c in advice.choices], advice.exact, advice.samples
(['take_upcard', 'pass'], False, 8)
>>> advice.choices[0].reasons[0]["code"]
'expected'
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .bots import draw_measures, joins_meld
from .cards import DECK, Card, Hand, _hand, cards_from_mask
from .ending import verdict
from .errors import RuleError
from .hand import _MOVES, Action, HandState, _is_int, _replace, apply
from .layoffs import check_lay_offs, lay_offs
from .melds import arrange, min_deadwood_after_discard_mask, min_deadwood_mask
from .public import PlayerView, view

DEFAULT_SAMPLES = 32
MAX_SAMPLES = 2000
"""The most worlds one call plays (a sane bound on the work a request may ask for)."""
MAX_PLIES = 400
"""A playout that has not ended after this many moves counts as a dead hand (in practice
playouts end within a few dozen moves: the policy draws from the stock unless it melds)."""


@dataclass(frozen=True)
class Choice:
    """One legal action, its expected points for the player, and why (``reasons``)."""

    action: Action
    points: float
    reasons: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action.to_json(),
            "points": self.points,
            "reasons": [dict(r) for r in self.reasons],
        }


@dataclass(frozen=True)
class Advice:
    """The ranked choices (best first) of ``player`` in ``phase``, from ``samples`` worlds."""

    player: int
    phase: str
    choices: tuple[Choice, ...]
    samples: int
    exact: bool

    @property
    def best(self) -> Choice:
        return self.choices[0]

    def cost(self, action: Action | dict[str, Any]) -> float:
        """The expected points lost by playing ``action`` instead of the best choice."""
        action = Action.from_json(action)
        for choice in self.choices:
            if choice.action == action:
                return round(self.best.points - choice.points, 2)
        raise RuleError("illegal_choice", f"{action} is not one of the choices", action=str(action))

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "phase": self.phase,
            "samples": self.samples,
            "exact": self.exact,
            "choices": [c.to_json() for c in self.choices],
        }


# --- worlds ----------------------------------------------------------------------------------


def world_count(seen: PlayerView) -> int:
    """How many different worlds the view allows: the ways to pick the other hand's unknown
    cards (and the face-down discard) from the unseen cards, times the orders of the stock."""
    unseen = len(seen.unseen)
    hidden = seen.opponent_count - len(seen.known)
    face_down = int(seen.knocker is not None and seen.knock_discard is None)
    return (
        math.comb(unseen, hidden)
        * math.comb(unseen - hidden, face_down)
        * math.factorial(seen.stock_count)
    )


def all_worlds(
    seen: PlayerView,
) -> Iterator[tuple[tuple[Card, ...], Card | None, tuple[Card, ...]]]:
    """Every world, as (hidden cards, face-down discard or None, stock order)."""
    unseen = tuple(seen.unseen)
    hidden = seen.opponent_count - len(seen.known)
    face_down = int(seen.knocker is not None and seen.knock_discard is None)
    for held in itertools.combinations(unseen, hidden):
        rest = tuple(c for c in unseen if c not in held)
        for down in itertools.combinations(rest, 1) if face_down else [()]:
            left = tuple(c for c in rest if c not in down)
            for stock in itertools.permutations(left):
                yield held, (down[0] if down else None), stock


def sampled_worlds(
    seen: PlayerView, count: int, rng: random.Random
) -> Iterator[tuple[tuple[Card, ...], Card | None, tuple[Card, ...]]]:
    """``count`` random worlds, each a uniform deal of the unseen cards."""
    unseen = list(seen.unseen)
    hidden = seen.opponent_count - len(seen.known)
    face_down = int(seen.knocker is not None and seen.knock_discard is None)
    for _ in range(count):
        rng.shuffle(unseen)
        down = unseen[hidden] if face_down else None
        yield tuple(unseen[:hidden]), down, tuple(unseen[hidden + face_down :])


def world_state(
    seen: PlayerView, hidden: Iterable[Card], face_down: Card | None, stock: Iterable[Card]
) -> HandState:
    """The hand state of one world: the view's public facts plus this deal of unseen cards."""
    other = tuple(seen.known) + tuple(hidden)
    mask = 0
    for card in other:
        mask |= card.bit
    theirs = _hand(other, mask)
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


# --- playouts --------------------------------------------------------------------------------


def playout_action(state: HandState) -> Action:
    """The fast policy of the playouts, for ``state.turn`` (it reads only that player's cards
    and the pile): take from the pile only to make a meld, throw the card leaving the least
    deadwood (ties: the highest card), knock or go gin at the first chance."""
    player, phase = state.turn, state.phase
    mask = state.hands[player].mask
    if phase == "offer":
        return Action("take_upcard" if joins_meld(mask, state.discards[-1]) else "pass", player)
    if phase == "draw":
        take = _takes(mask, state.discards, state.stock_only)
        return Action("draw_discard" if take else "draw_stock", player)
    if phase == "lay_off":
        return Action("lay_off", player)
    if state.rules.big_gin_bonus is not None and _least(mask) == 0:
        return Action("big_gin", player)
    points, card = _throw(mask, state.taken)
    kind = verdict(points, state.rules, state.upcard).kind
    return Action(kind if kind in ("gin", "knock") else "discard", player, card)


_BY_VALUE = tuple(sorted(DECK, key=lambda card: (-card.value, card.index)))
"""The deck, highest card first (ties: the order of the deck): the order in which the playout
policy prefers to throw cards."""

_least = functools.lru_cache(maxsize=1 << 14)(min_deadwood_mask)
_least_after = functools.lru_cache(maxsize=1 << 14)(min_deadwood_after_discard_mask)
"""The playouts' deadwood by mask, remembered: the worlds of one ranking, and the rankings of
one game, meet the same hands again and again (a pure function: nothing else changes)."""


def forget() -> None:
    """Forget the deadwood the playouts remembered (the browser's memory snapshot is taken
    without it: it would only make the download bigger)."""
    _least.cache_clear()
    _least_after.cache_clear()


def _takes(mask: int, discards: tuple[Card, ...] | list[Card], stock_only: bool) -> bool:
    """Whether the playout policy draws the top of the pile: only when it makes a meld."""
    return not stock_only and bool(discards) and joins_meld(mask, discards[-1])


def _throw(mask: int, taken: Card | None) -> tuple[int, Card]:
    """The card the playout policy throws from the cards of ``mask`` (never ``taken``, the card
    just drawn from the pile), and the deadwood left: the least, then the highest card."""
    if taken is None:
        points = _least_after(mask)
        card = next(c for c in _BY_VALUE if mask & c.bit and _least(mask ^ c.bit) == points)
        return points, card
    best: tuple[int, Card] | None = None
    for card in _BY_VALUE:
        if mask & card.bit and card is not taken:
            left = _least(mask ^ card.bit)
            if best is None or left < best[0]:
                best = (left, card)
    assert best is not None  # the hand holds 11 cards
    return best


def playout(state: HandState) -> HandState:
    """Play the hand to its end with :func:`playout_action` for both players. The moves are
    legal by construction, so they skip :func:`~ginrummy.hand.apply`'s checks and the public
    history (nobody reads it after this). The draws and discards between the offer and the
    end are played on bit masks (:func:`_draws_and_discards`); the offer, the end of the stock
    and the end of the hand as the engine's moves."""
    plies = 0
    while state.phase != "finished":
        if state.phase in ("draw", "discard"):
            state, played = _draws_and_discards(state, MAX_PLIES - plies)
            plies += played
        if plies >= MAX_PLIES:
            return _replace(state, phase="finished", outcome="dead")
        action = playout_action(state)
        state = _MOVES[action.kind](state, action)
        plies += 1
    return state


def _draws_and_discards(state: HandState, most: int) -> tuple[HandState, int]:
    """:func:`playout_action`'s draws and discards, played on bit masks from a ``draw`` or
    ``discard`` phase, up to ``most`` moves. Stops before the move the engine must play: a
    knock or gin (or big gin), or a discard that leaves 2 cards or fewer in the stock (the end
    of the stock). Returns the state then, the same as :func:`~ginrummy.hand.apply` would give
    for the same moves without the public history, and the number of moves played."""
    rules, stock, drawn = state.rules, state.stock, 0
    masks, discards = [state.hands[0].mask, state.hands[1].mask], list(state.discards)
    turn, phase, taken, stock_only = state.turn, state.phase, state.taken, state.stock_only
    new: tuple[list[Card], list[Card]] = ([], [])  # each player's cards drawn here, in order
    upcard = state.upcard
    played = 0
    while played < most:
        mask = masks[turn]
        if phase == "draw":
            if _takes(mask, discards, stock_only):
                card = taken = discards.pop()
            else:
                card, taken, drawn = stock[drawn], None, drawn + 1
            masks[turn] = mask | card.bit
            new[turn].append(card)
            phase, stock_only = "discard", False
            played += 1
            continue
        # 11 melded cards (big gin) always have a throw that leaves gin: it stops there too
        points, card = _throw(mask, taken)
        if verdict(points, rules, upcard).kind != "no" or len(stock) - drawn <= 2:
            break
        masks[turn] = mask ^ card.bit
        discards.append(card)
        turn, phase, taken = 1 - turn, "draw", None
        played += 1
    if not played:
        return state, 0
    hands = (_kept(state.hands[0], new[0], masks[0]), _kept(state.hands[1], new[1], masks[1]))
    after = _replace(
        state,
        hands=hands,
        stock=stock[drawn:],
        discards=tuple(discards),
        phase=phase,
        turn=turn,
        taken=taken,
        stock_only=stock_only,
    )
    return after, played


def _kept(hand: Hand, drawn: list[Card], mask: int) -> Hand:
    """The hand of ``mask`` in the order the engine's moves keep it: a card drawn goes to the
    end (a card drawn twice, at its last place), a card thrown leaves its place."""
    tail, placed = [], 0
    for card in reversed(drawn):
        if mask & card.bit and not placed & card.bit:
            tail.append(card)
            placed |= card.bit
    kept = [c for c in hand if mask & c.bit and not placed & c.bit]
    return _hand((*kept, *reversed(tail)), mask)


def points_for(state: HandState, player: int) -> int:
    """A finished hand's score from ``player``'s side: won +, lost -, dead 0."""
    entry = state.entry()
    if entry is None:
        return 0
    return entry.points if entry.winner == player else -entry.points


# --- the advice ------------------------------------------------------------------------------


def advise(state: HandState, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> Advice:
    """Rank every legal action of ``state.turn`` by its expected points (module docstring).

    Raises ``RuleError``: ``hand_over`` for a finished hand; ``bad_setting`` for a bad
    ``samples`` (1 to :data:`MAX_SAMPLES`) or ``seed``.
    """
    if state.phase == "finished":
        raise RuleError("hand_over", "the hand is over", kind="advice")
    if not _is_int(samples) or not 1 <= samples <= MAX_SAMPLES:
        raise RuleError(
            "bad_setting",
            f"samples must be a whole number from 1 to {MAX_SAMPLES}, not {str(samples)[:40]}",
            setting="samples",
            value=str(samples)[:40],
        )
    if not _is_int(seed):
        raise RuleError(
            "bad_setting",
            f"seed must be a whole number, not {str(seed)[:40]}",
            setting="seed",
            value=str(seed)[:40],
        )
    return advise_view(view(state, state.turn), samples, seed)


def advise_view(seen: PlayerView, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> Advice:
    """:func:`advise` from the player's view (it must be their turn)."""
    actions = seen.legal_actions()
    exact = world_count(seen) <= samples
    worlds = (
        list(all_worlds(seen))
        if exact
        else list(sampled_worlds(seen, samples, random.Random(seed)))
    )
    me = seen.player
    states = [world_state(seen, *world) for world in worlds]
    scores: dict[Action, list[float]] = {
        action: [] for action in actions
    }  # the points of each world played, in order
    undercuts = dict.fromkeys(actions, 0)
    alive = list(actions)
    stages = (
        [len(states)]
        if exact or len(actions) <= HALVING_MIN
        else [max(1, len(states) // 4), max(1, len(states) // 2), len(states)]
    )
    for size in stages:
        for action in alive:
            played = scores[action]
            for world in states[len(played) : size]:
                final = playout(apply(world, action))
                played.append(points_for(final, me))
                undercuts[action] += final.outcome == "undercut" and final.knocker == me
        alive.sort(key=lambda a: -sum(scores[a]) / len(scores[a]))
        alive = alive[: max(2, (len(alive) + 1) // 2)]
    # A choice left early is valued by its difference from the best one in the same worlds.
    best = alive[0]
    base = sum(scores[best]) / len(states)
    choices = []
    for action in actions:
        played = scores[action]
        count = len(played)
        mean = round(base + sum(p - q for p, q in zip(played, scores[best])) / count, 2)
        reasons = [
            {
                "code": "expected",
                "points": mean,
                "win": _percent(sum(p > 0 for p in played), count),
                "lose": _percent(sum(p < 0 for p in played), count),
                "samples": count,
            }
        ]
        reasons += _reasons(seen, action, states[:count], undercuts[action] / count)
        choices.append(Choice(action, mean, tuple(reasons)))
    order = sorted(range(len(choices)), key=lambda i: (-choices[i].points, i))
    return Advice(me, seen.phase, tuple(choices[i] for i in order), len(states), exact)


HALVING_MIN = 4
"""With more choices than this (and worlds sampled), the coach plays every choice in a quarter
of the worlds, the better half of them in half, and the better half of those in all: the
choices that are clearly worse early get fewer playouts. A choice left early is valued as the
best choice's points plus its mean difference from the best choice in the worlds it played
(the same worlds for both, so the difference is not noise between deals)."""


def _percent(part: float, whole: float) -> int:
    return round(100 * part / whole)  # whole: the worlds played, never none


def _reasons(
    seen: PlayerView, action: Action, worlds: list[HandState], undercut: float
) -> list[dict[str, Any]]:
    """The structured reasons of one choice (see the module docstring)."""
    mask, unseen = seen.hand.mask, list(seen.unseen)
    rules = seen.rules
    kind = action.kind
    if kind in ("take_upcard", "draw_discard", "pass", "draw_stock"):
        taking, drawing = draw_measures(seen, unseen)
        if kind in ("pass", "draw_stock"):
            return [{"code": "deadwood", "points": round(drawing, 1)}]
        top = seen.discards[-1]
        reasons = [{"code": "deadwood", "points": taking}]
        if joins_meld(mask, top):
            reasons.append({"code": "joins_meld", "card": str(top)})
        reasons.append({"code": "reveals", "card": str(top)})
        return reasons
    if kind == "big_gin":
        return [{"code": "big_gin", "bonus": rules.big_gin_bonus}]
    if kind == "lay_off":
        return []
    card = action.card
    assert card is not None  # a knock, gin or discard names its card
    rest = mask ^ card.bit
    points = min_deadwood_mask(rest)
    reasons = [{"code": "deadwood", "points": points}]
    if kind == "gin" or (kind == "knock" and points == 0):
        reasons.append({"code": "gin", "bonus": rules.gin_bonus})
    elif kind == "knock":
        reasons.append(
            {"code": "knock", "deadwood": points, "limit": rules.knock_limit_for(seen.upcard)}
        )
        reasons.append({"code": "undercut_risk", "percent": _percent(undercut, 1)})
    for meld in arrange(seen.hand).melds:
        if card in meld.cards:
            reasons.append({"code": "breaks_meld", "card": str(card), "meld": str(meld)})
    if kind == "discard":
        outs = sum(1 for c in unseen if min_deadwood_after_discard_mask(rest | c.bit) < points)
        reasons.append({"code": "keeps_draws", "outs": outs})
        reasons += _two_way_runs(rest, seen)
        other = seen.opponent
        fed = sum(1 for w in worlds if joins_meld(w.hands[other].mask, card))
        reasons.append({"code": "gives_meld", "percent": _percent(fed, len(worlds))})
        if joins_meld(seen.known.mask, card):
            reasons.append({"code": "known_to_opponent", "card": str(card)})
        if _passed(seen, card):
            reasons.append({"code": "opponent_passed", "card": str(card)})
    return reasons


def _two_way_runs(rest: int, seen: PlayerView) -> list[dict[str, Any]]:
    """Two-card runs among the unmatched cards of ``rest``, open at both ends, both ends
    unseen."""
    loose = arrange(cards_from_mask(rest)).deadwood.mask
    found = []
    for card in cards_from_mask(loose):
        if not 2 <= card.rank <= 11:
            continue
        up, low, high = DECK[card.index + 1], DECK[card.index - 1], DECK[card.index + 2]
        if loose & up.bit and seen.unseen.mask & low.bit and seen.unseen.mask & high.bit:
            found.append({"code": "two_way_run", "cards": f"{card} {up}"})
    return found


def _passed(seen: PlayerView, card: Card) -> bool:
    """Whether the other player threw a card of this rank, or passed one over (declined the
    upcard, or drew from the stock while it topped the pile).

    The card on top when a player passes or draws from the stock is the upcard or the last
    card discarded: a card taken from the pile is always followed by its taker's discard."""
    other = seen.opponent
    top = seen.upcard
    for event in seen.history:
        if event.player == other and event.kind in ("pass", "draw_stock") and top.rank == card.rank:
            return True
        if event.kind == "discard":
            assert event.card is not None  # a discard is seen
            if event.player == other and event.card.rank == card.rank:
                return True
            top = event.card
    return False


# --- lay-offs by hand --------------------------------------------------------------------------


def lay_off_review(state: HandState) -> dict[str, Any]:
    """After a knock, the defender's lay-offs (their own, or the engine's) beside the best ones:
    ``played`` and ``points`` (the defender's deadwood after them), ``best`` (a
    :class:`~ginrummy.layoffs.LayOffResult` as JSON) and ``best_points``, and ``left``: the
    points the defender left by not playing the best lay-offs. In the ``lay_off`` phase it
    gives only the best ones. Raises ``RuleError("wrong_phase")`` before a knock or after gin.
    """
    if state.ending != "knock" or state.phase not in ("lay_off", "finished"):
        raise RuleError("wrong_phase", "lay-offs follow a knock", kind="lay_off", phase=state.phase)
    assert state.layout is not None and state.knocker is not None  # set by the knock
    best = lay_offs(state.layout, state.hands[1 - state.knocker])
    review: dict[str, Any] = {"best": best.to_json(), "best_points": best.points}
    if state.result is not None:
        points = state.result.defender_points
        review.update(
            played=[lay.to_json() for lay in state.result.lay_offs],
            points=points,
            left=points - best.points,
        )
    return review


def check_lay_off_plan(
    state: HandState, plays: tuple[tuple[Card, int], ...] | None
) -> dict[str, Any]:
    """The defender's lay-offs so far (``(card, meld index)`` in order), checked one at a time
    against the knocker's layout in the ``lay_off`` phase: the knocker's melds after them,
    the defender's melds and deadwood. Raises the coded error of the first bad lay-off."""
    if state.phase != "lay_off":
        raise RuleError("wrong_phase", "lay-offs follow a knock", kind="lay_off", phase=state.phase)
    plays = Action("lay_off", state.turn, lay_offs=plays).lay_offs
    assert state.layout is not None and plays is not None  # set by the knock; given
    return check_lay_offs(state.layout, state.hands[state.turn], plays).to_json()
