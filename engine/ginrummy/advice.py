"""The coach: every legal choice of the player to act, ranked by the chance of winning the game.

:func:`advise` works from the player's view only (:func:`ginrummy.public.view`) and the score
of the game (:class:`~ginrummy.standing.Standing`). It deals the cards the player has not
seen into *worlds* (:mod:`ginrummy.opponent`: the other hand's hidden cards weighed by how
well they explain the other player's takes, passes and discards; the known cards fixed), plays
every choice in each world, then plays the hand out to its end with the base policy for both
players (:mod:`ginrummy.playout`), and values the end by the player's chance of winning the
game from the score it leaves (:meth:`Standing.win_chance`). Every choice is played in the
same worlds, so the difference between two choices is measured without the noise between
deals, and its standard error comes from those paired differences.

**What a choice holds** (:class:`Choice`): ``win`` (the chance of winning the game after it,
0 to 1), ``points`` (the expected hand points, + won, - lost), ``cost`` (how much less
``win`` than the best choice; 0 for the best), ``se`` (the standard error of ``cost``),
``cost_points`` (``cost`` in hand points at this score: ``cost / point_value``), ``samples``
(the worlds it was played in), ``mistake`` (the rule below), ``reason`` (the one reason that
tells it apart, :mod:`ginrummy.reasons`), ``against`` (why the best choice beats it; None for
the best) and ``reasons`` (the numbers, then every reason true of it).

**The base policy's move first.** Unless every world is played exactly, the best choice is
the base policy's move (:func:`ginrummy.playout.view_action`, what the playouts would play),
unless the leader beats it by :data:`MISTAKE_POINTS` hand point's worth and more than
:data:`PRIOR_SE` standard errors (the coach would call it a mistake), or, when a player
needs :data:`ENDGAME_NEEDS` points or fewer, wins more often while scoring fewer hand points
(the score, which the policy does not see, makes it better: ending the hand near the
target, say; earlier in a game such a difference is mostly noise). With a few dozen worlds
per choice, the highest of a dozen noisy estimates is often only the luckiest: a strong bot
that played it threw cards breaking its melds and lost to its own base policy
(bench/strength.py). The policy is a sound default; the coach departs from it only where
its playouts show beyond doubt that another move is better. The focus and the race (below)
keep playing the base policy's move, so that comparison rests on every world.

**The mistake rule** (:func:`is_mistake`). A move is a mistake only when it is worse than
the best by a margin its uncertainty supports: its cost is at least :data:`MISTAKE_POINTS`
hand point's worth of winning chance at this score (``point_value``), *and* more than
:data:`MISTAKE_SE` standard errors. A move within the margin is never called a mistake. The
best is a mistake never.

**Refining.** ``advise(position, previous=advice)`` plays more worlds for the same decision
and returns the refined advice: the evaluation (:class:`Evaluation`, JSON-able, inside the
advice's JSON) carries every sum, so the browser's worker can go on sampling while the reader
thinks and during the computer's turn, and a mistake flag rests on all the worlds played so
far. Worlds come in batches of :data:`BATCH`, batch ``b`` from its own generator, so advice
refined in steps equals advice asked for in one go. Once a choice is worse than the leader
and than the base policy's move by :data:`RACE_SE` standard errors (and a point's worth), it
is played no more: its verdict is settled, and the work goes to the choices still in doubt;
after the first batches, a choice that cannot be within :data:`FOCUS_POINTS` of the leader is
played only every :data:`FOCUS_EVERY` batches (:func:`_focus`). A standard error is never
taken below the spread the other choices show over its worlds (:func:`_floor`): a few worlds
can agree by chance.

**Seeds.** The worlds come from a seed drawn from the decision itself (the view and the
score), so a ranking never depends on the game's seed; ``seed=`` overrides it (for tests and
benchmarks of stability).

**Bounds.** One request plays at most :data:`MAX_SAMPLES` worlds, and at most
:data:`MAX_PLAYOUTS` playouts, each at most :data:`~ginrummy.playout.MAX_PLIES` moves long:
so its time is bounded (bench/play_worker.py measures the largest request). An advice is refined to at most
:data:`MAX_WORLDS` worlds (then ``settled``). When every world fits in one request (small
endgames), each is played once with its exact weight: ``exact``, standard errors 0.

The reasons (codes with parameters, never English; :mod:`ginrummy.reasons` says when each
holds). ``expected`` comes first in ``reasons``: the numbers behind the details. The others:

- ``expected`` ``points`` (expected hand points), ``win`` and ``lose`` (percent of worlds where
  the hand is won, lost), ``samples``, ``game`` (percent chance of winning the game);
- ``big_gin`` ``bonus``: the choice goes big gin;
- ``gin`` ``bonus``: the choice goes gin;
- ``knock`` ``deadwood``, ``limit``: the choice knocks with this deadwood;
- ``undercut_risk`` ``percent``: the share of worlds where this knock is undercut;
- ``avoids_undercut`` ``percent``: playing on rather than knocking, whose undercut risk
  is ``percent``;
- ``gin_outs`` ``outs``: playing on, ``outs`` unseen cards would give gin at the next draw;
- ``game_first`` ``player``, ``needs``: ending the hand now matters more than points:
  ``player`` (0 or 1) needs only ``needs`` points to win the game;
- ``keeps_meld`` ``meld``: the other move would break this meld;
- ``breaks_meld`` ``card``, ``meld``: throwing ``card`` breaks ``meld``;
- ``avoids_feeding`` ``card``, ``took``: the other move throws ``card``, which may give the
  other player a meld with ``took`` (cards they took from the pile);
- ``known_to_opponent`` ``card``, ``cards``: ``card`` makes a meld with ``cards``, which the
  other player took from the pile and holds;
- ``opponent_took`` ``card``, ``took``: the other player took ``took`` (same rank, or near in
  the suit): ``card`` may give them a meld;
- ``opponent_threw`` ``card``, ``threw``: the other player threw ``threw``, of ``card``'s rank;
- ``opponent_threw_it`` ``card``: the other player threw ``card`` itself (taken back since);
- ``opponent_passed`` ``card``, ``passed``: the other player passed over ``passed``, of
  ``card``'s rank;
- ``gives_meld`` ``percent``: in that share of worlds the card thrown makes a meld with the
  other hand;
- ``deadwood`` ``points``: the deadwood left;
- ``lower_deadwood`` ``points``, ``other``: leaves ``points`` of deadwood, the other move
  ``other``;
- ``keeps_partial`` ``cards``, ``outs``: keeps two cards one short of a meld, which the unseen
  cards ``outs`` would complete;
- ``keeps_run_open`` ``meld``, ``outs``: keeps the run ``meld``, which ``outs`` would extend;
- ``outs`` ``outs``: unseen cards that would make or extend a meld with the cards kept;
- ``more_outs`` ``outs``, ``other``: keeps more such cards than the other move;
- ``high_card`` ``card``, ``points``: throws a card of higher value;
- ``makes_meld`` ``card``, ``meld``: taking ``card`` makes ``meld`` with the hand's cards;
- ``extends_meld`` ``card``, ``meld``: taking ``card`` extends a meld of the hand to ``meld``;
- ``knock_after`` ``card``, ``deadwood``: after taking ``card`` the player can end the hand
  with ``deadwood`` (0: gin);
- ``lowers_deadwood`` ``card``, ``before``, ``after``: taking ``card`` lowers the deadwood;
- ``reveals`` ``card``: taking ``card`` shows the other player which cards you collect;
- ``no_meld`` ``card``: ``card`` makes no meld with your cards;
- ``stock_outs`` ``outs``: unseen cards that would make or extend a meld at a draw;
- ``plays_better`` ``points``: nothing simpler tells the two apart: it scored ``points`` more
  hand points in the coach's playouts;
- ``wins_more`` ``percent``: nothing simpler tells the two apart: it wins the game ``percent``
  points of percentage more often in the coach's playouts;
- ``close_call``: the two are about as good (nothing tells them apart);
- ``only_choice``: the only legal move.

>>> from ginrummy.hand import deal
>>> advice = advise(deal(seed=7), samples=8)
>>> [c.action.kind for c in advice.choices], advice.samples
(['pass', 'take_upcard'], 8)
>>> advice.best.reason["code"], advice.choices[1].mistake
('no_meld', False)
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import statistics
from dataclasses import dataclass
from typing import Any

from .errors import GinRummyError, RuleError, whole_number
from .game import HandEntry
from .hand import Action, HandState, apply, known_cards
from .layoffs import check_lay_offs, lay_offs
from .opponent import Model, every_world, sample_worlds, world_state
from .playout import known_after, playout_end, view_action
from .policy import forget as forget_deadwood
from .policy import meld_outs
from .public import PlayerView, view
from .reasons import Reason, facts, fill, plainest, reasons, why
from .standing import Standing
from .vocab import Phase

BATCH = 4
"""Worlds per batch (see the module docstring)."""
HINT_PLAYOUTS = 96
"""The playouts of a first hint (``samples`` not given): batches of worlds are played while
they fit in this many playouts (and at least :data:`FOCUS_FROM` of them)."""
MAX_SAMPLES = 256
"""The most worlds one request plays."""
MAX_PLAYOUTS = 2048
"""The most playouts one request plays (its worlds are cut to fit, in whole batches)."""
MAX_WORLDS = 4096
"""The most worlds an advice is refined to (it is then ``settled``)."""
MISTAKE_POINTS = 1.0
"""A mistake costs at least this many hand points' worth of the chance of winning."""
MISTAKE_SE = 2.0
"""... and more than this many standard errors."""
RACE_SE = 3.0
"""A choice worse than the leader by this many standard errors (and a point's worth) is
played no more."""
RACE_FROM = 8
"""Worlds a choice is played in before it may be dropped."""
FOCUS_FROM = 2
"""Batches in which every choice is played before the coach focuses (see :func:`_focus`)."""
FOCUS_EVERY = 4
"""... after which every choice still in the race is played every this many batches."""
FOCUS_POINTS = 3.0
"""The choices within this many hand points' worth of the leader are played every batch."""
PRIOR_SE = 2.0
"""The base policy's move (:func:`ginrummy.playout.view_action`) stays the best choice unless
the leader beats it by :data:`MISTAKE_POINTS` hand point's worth and more than this many
standard errors, or the score makes the leader better (see the module docstring)."""
ENDGAME_NEEDS = 25
"""... or, when a player needs this many points or fewer to win the game, the leader wins more
often with fewer hand points than it (the score makes the difference)."""
PLAIN_POINTS = 0.5
"""A difference of fewer hand points than this is no reason to say "it scored better"."""
POINT_SPAN = 20
"""The hand points either way over which ``point_value`` is measured."""
JSON_VERSION = 1

_NUMBERS = ("weight", "win", "win2", "points", "won", "lost", "undercut", "fed", "count")
_PAIR = ("count", "diff", "diff2", "points")


def is_mistake(cost: float, se: float, point_value: float) -> bool:
    """The mistake rule (module docstring): ``cost`` (chance of winning lost) is at least
    :data:`MISTAKE_POINTS` times ``point_value`` and more than :data:`MISTAKE_SE` times
    ``se``.

    >>> is_mistake(0.02, 0.004, 0.006), is_mistake(0.02, 0.012, 0.006), is_mistake(0.004, 0, 0.006)
    (True, False, False)
    """
    return cost >= MISTAKE_POINTS * point_value and cost > MISTAKE_SE * se


@dataclass(frozen=True)
class Choice:
    """One legal action and what the coach knows of it (module docstring)."""

    action: Action
    win: float
    points: float
    cost: float
    se: float
    cost_points: float
    samples: int
    mistake: bool
    reason: Reason
    against: Reason | None
    reasons: tuple[Reason, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action.to_json(),
            "win": self.win,
            "points": self.points,
            "cost": self.cost,
            "se": self.se,
            "cost_points": self.cost_points,
            "samples": self.samples,
            "mistake": self.mistake,
            "reason": dict(self.reason),
            "against": None if self.against is None else dict(self.against),
            "reasons": [dict(r) for r in self.reasons],
        }


@dataclass(frozen=True)
class Assessment:
    """The coach's verdict on a move played (:meth:`Advice.assess`): the ``best`` move, the
    chance of winning lost (``cost``, its ``se``, in hand points ``cost_points``), whether it
    is a ``mistake`` (:func:`is_mistake`), and ``reason``: why the best move is better (None
    when the move is the best)."""

    action: Action
    best: Action
    cost: float
    se: float
    cost_points: float
    mistake: bool
    reason: Reason | None
    samples: int

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action.to_json(),
            "best": self.best.to_json(),
            "cost": self.cost,
            "se": self.se,
            "cost_points": self.cost_points,
            "mistake": self.mistake,
            "reason": None if self.reason is None else dict(self.reason),
            "samples": self.samples,
        }


@dataclass(frozen=True)
class Evaluation:
    """The sums behind an advice, to refine it (module docstring). ``choices``: the legal
    actions in the engine's order; ``totals[i]``: choice ``i``'s weighted sums (``_NUMBERS``);
    ``pairs``: for each pair ``i < j`` in order, the sums of their differences over the worlds
    both were played in (``_PAIR``); ``active``: the choices still played."""

    key: str
    seed: int
    batches: int
    exact: bool
    choices: tuple[Action, ...]
    active: tuple[bool, ...]
    totals: tuple[tuple[float, ...], ...]
    pairs: tuple[tuple[float, ...], ...]

    @property
    def worlds(self) -> int:
        """The worlds played by the choices played longest."""
        return round(max(t[-1] for t in self.totals))

    def to_json(self) -> dict[str, Any]:
        return {
            "version": JSON_VERSION,
            "key": self.key,
            "seed": self.seed,
            "batches": self.batches,
            "exact": self.exact,
            "choices": [a.to_json() for a in self.choices],
            "active": list(self.active),
            "totals": [list(t) for t in self.totals],
            "pairs": [list(p) for p in self.pairs],
        }

    @classmethod
    def from_json(cls, data: object) -> Evaluation:
        """An evaluation from :meth:`to_json`, checked: ``bad_setting`` (``setting``
        ``previous``) otherwise."""
        if not isinstance(data, dict) or data.get("version") != JSON_VERSION:
            raise _bad("evaluation", data)
        for name, kind in (("key", str), ("seed", int), ("batches", int), ("exact", bool)):
            if not isinstance(data.get(name), kind) or (
                kind is int and not whole_number(data[name])
            ):
                raise _bad(name, data.get(name))
        if data["batches"] < 0 or data["batches"] * BATCH > MAX_WORLDS:
            raise _bad("batches", data["batches"])
        choices = data.get("choices")
        if not isinstance(choices, list) or not 1 <= len(choices) <= 64:
            raise _bad("choices", choices)
        try:
            actions = tuple(Action.from_json(a) for a in choices)
        except GinRummyError:
            raise _bad("choices", choices) from None
        count = len(actions)
        active = data.get("active")
        if not isinstance(active, list) or len(active) != count:
            raise _bad("active", active)
        if not all(isinstance(a, bool) for a in active):
            raise _bad("active", active)
        totals = _numbers("totals", data.get("totals"), count, len(_NUMBERS))
        pairs = _numbers("pairs", data.get("pairs"), count * (count - 1) // 2, len(_PAIR))
        return cls(
            data["key"], data["seed"], data["batches"], data["exact"], actions,
            tuple(active), totals, pairs,
        )  # fmt: skip


def _numbers(name: str, rows: object, count: int, width: int) -> tuple[tuple[float, ...], ...]:
    if not isinstance(rows, list) or len(rows) != count:
        raise _bad(name, rows)
    out = []
    for row in rows:
        if not isinstance(row, list) or len(row) != width:
            raise _bad(name, row)
        if not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
            for x in row
        ):
            raise _bad(name, row)
        out.append(tuple(float(x) for x in row))
    return tuple(out)


def _bad(name: str, value: object) -> RuleError:
    return RuleError(
        "bad_setting",
        f"previous: the advice to refine has a bad {name!r}",
        setting="previous",
        value=f"{name}: {str(value)[:40]}",
    )


@dataclass(frozen=True)
class Advice:
    """The ranked choices (best first) of ``player`` in ``phase`` (module docstring).

    ``samples``: the worlds the leading choices were played in; ``exact``: every world was
    played with its exact weight; ``settled``: refining changes nothing more; ``point_value``:
    the chance of winning one hand point is worth at this score; ``needs``: the points each
    player (0, 1) still needs to win the game; ``best_by_points``: the choice with the most
    expected hand points; ``game_first``: it differs from the best choice by more than the
    margin (the score makes ending the hand, or not, matter more than points)."""

    player: int
    phase: Phase
    choices: tuple[Choice, ...]
    samples: int
    exact: bool
    settled: bool
    point_value: float
    needs: tuple[int, int]
    best_by_points: Action
    game_first: bool
    evaluation: Evaluation

    @property
    def best(self) -> Choice:
        return self.choices[0]

    def choice(self, action: Action | dict[str, Any]) -> Choice:
        """The choice of ``action`` (a knock's own layout aside: the coach ranks the knock).
        Raises ``RuleError("illegal_choice")`` for an action that is not one of them."""
        action = Action.from_json(action)
        plain = Action(action.kind, action.player, action.card)
        for choice in self.choices:
            if choice.action == plain or choice.action == action:
                return choice
        raise RuleError("illegal_choice", f"{action} is not one of the choices", action=str(action))

    def cost_against(
        self, action: Action | dict[str, Any], better: Action | dict[str, Any]
    ) -> float:
        """What playing ``action`` rather than ``better`` costs: the chance of winning lost, in
        hand points at this score, never below 0 (a choice's ``cost_points`` is this against the
        best choice)."""
        return max(0.0, (self.choice(better).win - self.choice(action).win) / self.point_value)

    def assess(self, action: Action | dict[str, Any]) -> Assessment:
        """The verdict on ``action`` (:class:`Assessment`)."""
        choice = self.choice(action)
        best = self.best
        return Assessment(
            choice.action,
            best.action,
            choice.cost,
            choice.se,
            choice.cost_points,
            choice.mistake,
            choice.against,
            choice.samples,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "phase": self.phase,
            "samples": self.samples,
            "exact": self.exact,
            "settled": self.settled,
            "point_value": self.point_value,
            "needs": list(self.needs),
            "best_by_points": self.best_by_points.to_json(),
            "game_first": self.game_first,
            "choices": [c.to_json() for c in self.choices],
            "evaluation": self.evaluation.to_json(),
        }


Position = HandState | Any
"""A hand state, or a :class:`ginrummy.match.Game` (whose score the coach then weighs)."""


def advise(
    position: Position,
    samples: int | None = None,
    seed: int | None = None,
    previous: Advice | dict[str, Any] | None = None,
) -> Advice:
    """Rank every legal action of the player to act (module docstring).

    ``position``: a :class:`~ginrummy.hand.HandState` (the first hand of a game at 0 to 0, in
    its rules) or a :class:`~ginrummy.match.Game`. ``samples``: the worlds to play now (None:
    a first hint's budget, :data:`HINT_PLAYOUTS`; 0 with ``previous``: no more worlds, the
    advice read back). ``previous``: an advice for the same decision (or its JSON) to
    refine.

    Raises ``RuleError``: ``hand_over`` for a finished hand; ``bad_setting`` (``setting``,
    ``value``) for a bad ``samples`` (1 to :data:`MAX_SAMPLES`) or ``seed``, or a
    ``previous`` that is not an advice of this decision (with the same seed).
    """
    state, standing = position_of(position)
    if state.phase == "finished":
        raise RuleError("hand_over", "the hand is over", kind="advice")
    least = 0 if previous is not None else 1
    if samples is not None and (not whole_number(samples) or not least <= samples <= MAX_SAMPLES):
        raise RuleError(
            "bad_setting",
            f"samples must be a whole number from 1 to {MAX_SAMPLES} (or 0 with previous), "
            f"not {str(samples)[:40]}",
            setting="samples",
            value=str(samples)[:40],
        )
    if seed is not None and not whole_number(seed):
        raise RuleError(
            "bad_setting",
            f"seed must be a whole number, not {str(seed)[:40]}",
            setting="seed",
            value=str(seed)[:40],
        )
    return advise_view(view(state, state.turn), standing, samples, seed, previous)


def position_of(position: Position) -> tuple[HandState, Standing]:
    """The hand at play and the game's standing before it."""
    if isinstance(position, HandState):
        return position, Standing(position.rules)
    hand = getattr(position, "hand", None)
    if not isinstance(hand, HandState):
        raise RuleError(
            "bad_setting",
            "the coach needs a hand state or a game",
            setting="position",
            value=type(position).__name__,
        )
    entries = tuple(p.entry for p in position.played if p.entry is not None)
    return hand, Standing(position.rules, position.format, entries)


def decision_key(seen: PlayerView, standing: Standing) -> str:
    """A digest of everything the advice depends on: the view and the score."""
    text = json.dumps(
        [seen.to_json(), standing.format, [e.to_json() for e in standing.entries]],
        sort_keys=True,
    )
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def advise_view(
    seen: PlayerView,
    standing: Standing | None = None,
    samples: int | None = None,
    seed: int | None = None,
    previous: Advice | dict[str, Any] | None = None,
    playouts: int = HINT_PLAYOUTS,
) -> Advice:
    """:func:`advise` from the player's view (it must be their turn). With ``samples`` None,
    as many batches of worlds as ``playouts`` playouts allow (the bots' budget)."""
    standing = standing or Standing(seen.rules)
    actions = seen.legal_actions()
    key = decision_key(seen, standing)
    if seed is None:
        seed = int(key[:12], 16)
    if previous is None:
        evaluation = _start(actions, key, seed)
    else:
        evaluation = (
            previous.evaluation
            if isinstance(previous, Advice)
            else Evaluation.from_json(
                previous.get("evaluation") if isinstance(previous, dict) else previous
            )
        )
        if evaluation.key != key or evaluation.seed != seed or evaluation.choices != tuple(actions):
            raise RuleError(
                "bad_setting",
                "previous: the advice to refine is for another decision",
                setting="previous",
                value=evaluation.key,
            )
    evaluation = _play(seen, standing, evaluation, samples, playouts)
    return _advice(seen, standing, evaluation)


def _start(actions: list[Action], key: str, seed: int) -> Evaluation:
    count = len(actions)
    return Evaluation(
        key,
        seed,
        0,
        False,
        tuple(actions),
        (True,) * count,
        ((0.0,) * len(_NUMBERS),) * count,
        ((0.0,) * len(_PAIR),) * (count * (count - 1) // 2),
    )


# --- playing the worlds ----------------------------------------------------------------------


class _Sums:
    """The evaluation's sums while worlds are played (a mutable copy)."""

    def __init__(self, evaluation: Evaluation) -> None:
        self.totals = [list(t) for t in evaluation.totals]
        self.pairs = [list(p) for p in evaluation.pairs]
        self.active = list(evaluation.active)
        self.count = len(self.totals)

    def add(self, weight: float, results: dict[int, tuple[float, float, bool, bool]]) -> None:
        """One world's results: for each choice played, (win, points, undercut, fed)."""
        for i, (win, points, undercut, fed) in results.items():
            t = self.totals[i]
            t[0] += weight
            t[1] += weight * win
            t[2] += weight * win * win
            t[3] += weight * points
            t[4] += weight * (points > 0)
            t[5] += weight * (points < 0)
            t[6] += weight * undercut
            t[7] += weight * fed
            t[8] += 1
        played = sorted(results)
        for a, i in enumerate(played):
            for j in played[a + 1 :]:
                p = self.pairs[_pair_index(i, j, self.count)]
                diff = results[i][0] - results[j][0]
                p[0] += weight
                p[1] += weight * diff
                p[2] += weight * diff * diff
                p[3] += weight * (results[i][1] - results[j][1])


def _pair_index(i: int, j: int, count: int) -> int:
    """The index of pair ``i < j`` among all pairs of ``count`` choices, in order."""
    return i * (2 * count - i - 1) // 2 + (j - i - 1)


def _play(
    seen: PlayerView,
    standing: Standing,
    evaluation: Evaluation,
    samples: int | None,
    playouts: int = HINT_PLAYOUTS,
) -> Evaluation:
    """Play ``samples`` more worlds (in whole batches), or with ``samples`` None as many
    batches as ``playouts`` playouts allow (at least :data:`FOCUS_FROM` in all)."""
    if evaluation.exact or evaluation.worlds >= MAX_WORLDS:
        return evaluation
    model = Model(seen)
    actions = list(evaluation.choices)
    prior = _prior(seen, actions)
    me = seen.player
    values: dict[tuple[int, int, int] | None, float] = {}
    point_value = _point_value(standing, me)

    def value(entry: HandEntry | None) -> tuple[float, float]:
        key = None if entry is None else (entry.winner, entry.points, entry.boxes)
        if key not in values:
            values[key] = standing.after(entry).win_chance(me)
        points = 0 if entry is None else (entry.points if entry.winner == me else -entry.points)
        return values[key], points

    def play_world(
        state: HandState, playing: list[bool]
    ) -> dict[int, tuple[float, float, bool, bool]]:
        other = state.hands[1 - me].mask
        results = {}
        for i, action in enumerate(actions):
            if not playing[i]:
                continue
            after = known_after(known, state, action)
            entry, outcome, knocker = playout_end(apply(state, action), after)
            win, points = value(entry)
            undercut = outcome == "undercut" and knocker == me
            fed = action.card is not None and bool(meld_outs(other) & action.card.bit)
            results[i] = (win, points, undercut, fed)
        return results

    mine = known_cards(seen.history, me).mask
    known = (mine, seen.known.mask) if me == 0 else (seen.known.mask, mine)
    sums = _Sums(evaluation)
    fits = model.world_count() <= (
        samples if samples is not None else playouts // max(1, len(actions))
    )
    if evaluation.batches == 0 and fits:
        for world, weight in every_world(model):
            sums.add(weight, play_world(world_state(seen, world), sums.active))
        return _frozen(evaluation, sums, 1, exact=True)
    batches = evaluation.batches
    played = 0
    while True:
        playing = _focus(sums, point_value, batches, prior)
        cost = BATCH * sum(playing)
        if samples is not None:
            done = (batches - evaluation.batches) * BATCH >= samples
        else:
            done = played + cost > playouts and batches >= FOCUS_FROM
        if done or batches * BATCH >= MAX_WORLDS or (played and played + cost > MAX_PLAYOUTS):
            break
        rng = random.Random(f"{evaluation.seed}/{batches}")
        for world in sample_worlds(model, BATCH, rng):
            sums.add(1.0, play_world(world_state(seen, world), playing))
        played += cost
        batches += 1
        _race(sums, point_value, prior)
    return _frozen(evaluation, sums, batches - evaluation.batches, exact=False)


def _frozen(evaluation: Evaluation, sums: _Sums, batches: int, exact: bool) -> Evaluation:
    return Evaluation(
        evaluation.key,
        evaluation.seed,
        evaluation.batches + batches,
        exact,
        evaluation.choices,
        tuple(sums.active),
        tuple(tuple(t) for t in sums.totals),
        tuple(tuple(p) for p in sums.pairs),
    )


def _race(sums: _Sums, point_value: float, prior: int) -> None:
    """Stop playing the choices already surely worse than the leader and than the base
    policy's move ``prior`` while it is played (module docstring): the best is one of them."""
    leader = _leader(sums.totals, sums.active)
    floor = _floor(sums.pairs, sums.count, leader, sums.active)
    rivals = {leader, prior} if sums.active[prior] else {leader}
    for i in range(sums.count):
        if i in rivals or not sums.active[i] or sum(sums.active) <= 2:
            continue
        if all(_surely_worse(sums, rival, i, floor, point_value) for rival in rivals):
            sums.active[i] = False


def _surely_worse(sums: _Sums, rival: int, i: int, floor: float, point_value: float) -> bool:
    """Whether choice ``i`` is worse than ``rival`` by :data:`RACE_SE` standard errors and a
    point's worth, over :data:`RACE_FROM` worlds or more."""
    cost, se, count = _compare(sums.pairs, sums.count, rival, i, floor)
    return count >= RACE_FROM and cost >= MISTAKE_POINTS * point_value and cost > RACE_SE * se


def _focus(sums: _Sums, point_value: float, batch: int, prior: int) -> list[bool]:
    """The choices played in batch ``batch``: every choice still played in the first
    :data:`FOCUS_FROM` batches and every :data:`FOCUS_EVERY` batches; in the others only the
    leader, the base policy's move (``prior``) and the choices that could still be within
    :data:`FOCUS_POINTS` of the leader (cost less one standard error). The clearly worse are
    still played, less often."""
    if batch < FOCUS_FROM or batch % FOCUS_EVERY == 0:
        return list(sums.active)
    leader = _leader(sums.totals, sums.active)
    floor = _floor(sums.pairs, sums.count, leader, sums.active)
    playing = []
    for i in range(sums.count):
        cost, se, _ = _compare(sums.pairs, sums.count, leader, i, floor)
        near = i == prior or cost - se < FOCUS_POINTS * point_value
        playing.append(sums.active[i] and near)
    return playing


def _prior(seen: PlayerView, actions: list[Action]) -> int:
    """The index of the base policy's move among ``actions`` (the engine's order)."""
    move = view_action(seen)
    return actions.index(move) if move in actions else 0


def _floor(pairs: Any, count: int, leader: int, active: Any) -> float:
    """The median spread of one world's difference between the leader and the other choices
    still played: a standard error is never taken below this spread over the square root of
    its worlds (a few worlds can agree by chance)."""
    spreads = []
    for i in range(count):
        if i == leader or not active[i]:
            continue
        a, b = (leader, i) if leader < i else (i, leader)
        p = pairs[_pair_index(a, b, count)]
        if p[0] >= 2:
            spreads.append(_se(p[0], p[1], p[2]) * math.sqrt(p[0]))
    return statistics.median(spreads) if spreads else 0.0


def _leader(totals: list[list[float]] | tuple[tuple[float, ...], ...], active: Any) -> int:
    """The choice with the best mean among those played in the most worlds."""
    most = max(t[0] for t in totals)
    best, best_mean = 0, -math.inf
    for i, t in enumerate(totals):
        if t[0] >= most - 1e-9 and t[0] > 0:
            mean = t[1] / t[0]
            if mean > best_mean + 1e-12:
                best, best_mean = i, mean
    return best


def _compare(
    pairs: Any, count: int, leader: int, i: int, floor: float = 0.0
) -> tuple[float, float, float]:
    """How much less winning chance choice ``i`` has than ``leader`` (mean over the worlds
    both played), its standard error (never below ``floor`` over the square root of those
    worlds, see :func:`_floor`), and the number of those worlds."""
    if i == leader:
        return 0.0, 0.0, 0.0
    a, b, sign = (leader, i, 1.0) if leader < i else (i, leader, -1.0)
    p = pairs[_pair_index(a, b, count)]
    weight, diff, diff2 = p[0], p[1], p[2]
    if weight <= 0:
        return 0.0, math.inf, 0.0
    se = max(_se(weight, diff, diff2), floor / math.sqrt(weight))
    return sign * diff / weight, se, weight


def _se(weight: float, diff: float, diff2: float) -> float:
    """The standard error of a mean difference from its sums over ``weight`` worlds (an exact
    evaluation has none: its caller says so)."""
    if weight < 2:
        return math.inf
    var = max(0.0, (diff2 - diff * diff / weight) / (weight - 1))
    return math.sqrt(var / weight)


def _point_value(standing: Standing, player: int) -> float:
    """The chance of winning one hand point is worth at this score."""
    up = standing.after(HandEntry(player, POINT_SPAN)).win_chance(player)
    down = standing.after(HandEntry(1 - player, POINT_SPAN)).win_chance(player)
    return max(1e-6, (up - down) / (2 * POINT_SPAN))


# --- the advice ------------------------------------------------------------------------------


def _advice(seen: PlayerView, standing: Standing, evaluation: Evaluation) -> Advice:
    me = seen.player
    actions = list(evaluation.choices)
    totals, count = evaluation.totals, len(actions)
    point_value = _point_value(standing, me)
    leader = _leader(totals, evaluation.active)
    floor = _floor(evaluation.pairs, count, leader, evaluation.active)
    lead = totals[leader]
    lead_win = lead[1] / lead[0] if lead[0] else 0.0
    lead_points = lead[3] / lead[0] if lead[0] else 0.0
    estimates = []
    for i in range(count):
        cost, se, _ = _compare(evaluation.pairs, count, leader, i, floor)
        if evaluation.exact:
            se = 0.0
        pair = _pair_points(evaluation.pairs, count, leader, i)
        estimates.append((lead_win - cost, lead_points - pair, cost, se))
    # ties: more hand points, then gin before the knock it equals, then the engine's order
    order = sorted(
        range(count),
        key=lambda i: (-estimates[i][0], -estimates[i][1], actions[i].kind != "gin", i),
    )
    best = order[0]
    needs = (standing.needs(0), standing.needs(1))
    prior = _prior(seen, actions)
    if not evaluation.exact and prior != best:
        # the base policy's move stays the best unless the leader's lead is beyond doubt
        ahead, se_prior, _ = _compare(evaluation.pairs, count, best, prior, floor)
        sure = ahead >= MISTAKE_POINTS * point_value and ahead > PRIOR_SE * se_prior
        # near the target the score makes it better: it wins more often with fewer hand
        # points (the base policy does not see the score)
        near = min(needs) <= ENDGAME_NEEDS
        score = near and ahead > 0 and estimates[best][1] < estimates[prior][1]
        if not (sure or score):
            order.remove(prior)
            order.insert(0, prior)
            best = prior
    shares = {
        actions[i]: (_percent(totals[i][6], totals[i][0]), _percent(totals[i][7], totals[i][0]))
        for i in range(count)
    }
    found = facts(seen, actions, shares)
    bonus = {"gin": seen.rules.gin_bonus, "big_gin": seen.rules.big_gin_bonus}
    by_points = max(range(count), key=lambda i: (estimates[i][1], -i))
    game_first = False
    if by_points != best:
        cost_b = estimates[best][0] - estimates[by_points][0]
        _, se_b, _ = _compare(evaluation.pairs, count, best, by_points, floor)
        game_first = is_mistake(cost_b, 0.0 if evaluation.exact else se_b, point_value)
    game = None
    if game_first:
        player = min((0, 1), key=lambda p: needs[p])
        game = {"code": "game_first", "player": player, "needs": needs[player]}
    runner = order[1] if count > 1 else best
    choices = []
    for i in order:
        win, points, _, _ = estimates[i]
        cost = max(0.0, estimates[best][0] - win)
        _, se, _ = _compare(evaluation.pairs, count, best, i, floor)
        se = 0.0 if evaluation.exact or i == best else se
        diff = estimates[i][1] - estimates[runner if i == best else best][1]
        if i == best:
            reason = fill(why(found[i], found[runner], diff, game), bonus)
            if reason["code"] == "plays_better" and diff < PLAIN_POINTS:
                reason = plainest(found[i], bonus)  # too close to tell: its plainest fact
            against = None
        else:
            reason = fill(why(found[i], found[best], diff), bonus)
            if reason["code"] == "plays_better" and diff <= 0:
                reason = plainest(found[i], bonus)  # nothing speaks for it
            against = fill(
                why(found[best], found[i], -diff, game if i == by_points else None), bonus
            )
            if against["code"] == "plays_better" and against["points"] < PLAIN_POINTS:
                percent = round(100 * cost, 1)
                against = (
                    {"code": "wins_more", "percent": percent} if percent else {"code": "close_call"}
                )
        t = totals[i]
        numbers: Reason = {
            "code": "expected",
            "points": round(points, 2),
            "win": _percent(t[4], t[0]),
            "lose": _percent(t[5], t[0]),
            "samples": round(t[8]),
            "game": round(100 * win, 1),
        }
        rest = [r for r in reasons(found[i], bonus) if r != reason]
        choices.append(
            Choice(
                actions[i],
                round(win, 4),
                round(points, 2),
                round(cost, 4),
                round(se, 4) if math.isfinite(se) else 1.0,
                round(cost / point_value, 2),
                round(t[8]),
                i != best and is_mistake(cost, se, point_value),
                reason,
                against,
                (numbers, reason, *rest),
            )
        )
    return Advice(
        me,
        seen.phase,
        tuple(choices),
        round(totals[best][8]),
        evaluation.exact,
        evaluation.exact or evaluation.worlds >= MAX_WORLDS,
        round(point_value, 6),
        needs,
        actions[by_points],
        game_first,
        evaluation,
    )


def _pair_points(pairs: tuple[tuple[float, ...], ...], count: int, leader: int, i: int) -> float:
    """How many fewer hand points ``i`` scored than ``leader`` in the worlds both played."""
    if i == leader:
        return 0.0
    a, b, sign = (leader, i, 1.0) if leader < i else (i, leader, -1.0)
    p = pairs[_pair_index(a, b, count)]
    return sign * p[3] / p[0] if p[0] else 0.0


def _percent(part: float, whole: float) -> int:
    return round(100 * part / whole) if whole else 0


def forget() -> None:
    """Forget what the playouts remembered (the browser's memory snapshot is taken without
    it: it would only make the download bigger)."""
    forget_deadwood()


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
    state: HandState, plays: tuple[tuple[Any, int], ...] | None
) -> dict[str, Any]:
    """The defender's lay-offs so far (``(card, meld index)`` in order), checked one at a time
    against the knocker's layout in the ``lay_off`` phase: the knocker's melds after them,
    the defender's melds and deadwood. Raises the coded error of the first bad lay-off."""
    if state.phase != "lay_off":
        raise RuleError("wrong_phase", "lay-offs follow a knock", kind="lay_off", phase=state.phase)
    plays = Action("lay_off", state.turn, lay_offs=plays).lay_offs
    assert state.layout is not None and plays is not None  # set by the knock; given
    return check_lay_offs(state.layout, state.hands[state.turn], plays).to_json()
