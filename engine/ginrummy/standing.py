"""Where a game stands, and each player's chance of winning it from there.

A :class:`Standing` is the score of a game before the hand being played: its rules, its
sheet's format (``standard`` or ``hollywood``) and the hands won so far
(:class:`~ginrummy.game.HandEntry`). :meth:`Standing.win_chance` is a player's chance of winning
the game from there; :meth:`Standing.after` the standing once the hand at play has been won
(or was dead). The coach values a move by the chance of winning the game it leaves
(:mod:`ginrummy.advice`), so that at 90 to 97 ending the hand now can matter more than points.

**The model.** Every hand to come is won by either player with equal chance, for points
drawn from :data:`HAND_OUTCOMES` scored by the game's rules (a dead hand changes nothing).
:func:`win_table` works out, for every pair of points still needed (by the player, by the
other), the chance that the player reaches the target first: a dynamic programme over the
points needed, exact for this model (checked against a simulation of it in the tests). Who
wins a game depends only on who reaches the target first: the game bonus, the boxes and the
shutout change what the win is worth, not who wins, so they do not enter the chance.
Who deals next is not modelled (the non-dealer's edge is small).

**Hollywood.** The chance is the expected share of the columns won: a closed column counts
1 for its winner, an open one the chance of winning it from its own points (each column
taken as a game of its own). A hand's entry goes into the columns the sheet's rule gives
(:func:`~ginrummy.game.score_hollywood`), so what one hand does to every column is exact.

**Long targets.** Above :data:`FINEST` points the table counts points in steps of
``ceil(target / FINEST)`` (a game to 250 in steps of 2), so its work stays bounded.

>>> from ginrummy import RULESETS
>>> start = Standing(RULESETS["standard"])
>>> round(start.win_chance(0), 3)
0.5
>>> near = Standing(RULESETS["standard"], "standard", (HandEntry(0, 97), HandEntry(1, 60)))
>>> near.needs(0), near.needs(1), round(near.win_chance(0), 3)
(3, 40, 0.843)
>>> near.after(HandEntry(0, 5)).win_chance(0), near.after(None) == near
(1.0, True)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from .errors import RuleError
from .game import HandEntry, score_game, score_hollywood
from .rules import RuleSet

FORMATS = ("standard", "hollywood")

HAND_OUTCOMES: tuple[tuple[str, int, int], ...] = (
    # (how the hand ended, deadwood difference, hands): 3,000 hands of the strong bot of
    # commit 69d0c4d (bench/frozen_bots.py) against itself, bench/hand_outcomes.py's output
    # (66 dead hands left out). "knock": the defender's deadwood minus the knocker's;
    # "undercut": the knocker's minus the defender's (0: a tie); "gin", "big_gin": the
    # defender's deadwood. Dead hands are left out (they change no score).
    ("big_gin", 15, 1),
    ("gin", 1, 2), ("gin", 2, 3), ("gin", 9, 1), ("gin", 10, 1), ("gin", 11, 4),
    ("gin", 12, 4), ("gin", 13, 5), ("gin", 14, 4), ("gin", 15, 2), ("gin", 16, 3),
    ("gin", 17, 2), ("gin", 18, 4), ("gin", 19, 1), ("gin", 20, 4), ("gin", 21, 3),
    ("gin", 22, 5), ("gin", 23, 1), ("gin", 24, 3), ("gin", 25, 3), ("gin", 26, 5),
    ("gin", 27, 1), ("gin", 28, 1), ("gin", 29, 2), ("gin", 30, 3), ("gin", 34, 1),
    ("gin", 35, 1), ("gin", 36, 1), ("gin", 39, 1), ("gin", 41, 2), ("gin", 43, 1),
    ("gin", 44, 2), ("gin", 46, 1), ("gin", 49, 1), ("gin", 62, 1),
    ("knock", 1, 81), ("knock", 2, 97), ("knock", 3, 128), ("knock", 4, 139),
    ("knock", 5, 125), ("knock", 6, 141), ("knock", 7, 143), ("knock", 8, 143),
    ("knock", 9, 115), ("knock", 10, 115), ("knock", 11, 121), ("knock", 12, 103),
    ("knock", 13, 95), ("knock", 14, 99), ("knock", 15, 90), ("knock", 16, 76),
    ("knock", 17, 65), ("knock", 18, 64), ("knock", 19, 60), ("knock", 20, 55),
    ("knock", 21, 49), ("knock", 22, 48), ("knock", 23, 40), ("knock", 24, 32),
    ("knock", 25, 39), ("knock", 26, 33), ("knock", 27, 30), ("knock", 28, 27),
    ("knock", 29, 28), ("knock", 30, 15), ("knock", 31, 20), ("knock", 32, 13),
    ("knock", 33, 12), ("knock", 34, 21), ("knock", 35, 20), ("knock", 36, 14),
    ("knock", 37, 11), ("knock", 38, 8), ("knock", 39, 9), ("knock", 40, 10),
    ("knock", 41, 12), ("knock", 42, 5), ("knock", 43, 17), ("knock", 44, 10),
    ("knock", 45, 7), ("knock", 46, 3), ("knock", 47, 5), ("knock", 48, 7),
    ("knock", 49, 7), ("knock", 50, 3), ("knock", 51, 2), ("knock", 52, 5),
    ("knock", 53, 2), ("knock", 54, 2), ("knock", 55, 2), ("knock", 56, 1),
    ("knock", 57, 1), ("knock", 58, 1), ("knock", 59, 1), ("knock", 60, 2),
    ("knock", 61, 3), ("knock", 62, 1), ("knock", 63, 2), ("knock", 66, 1),
    ("knock", 70, 1), ("knock", 74, 1),
    ("undercut", 0, 66), ("undercut", 1, 41), ("undercut", 2, 30), ("undercut", 3, 28),
    ("undercut", 4, 15), ("undercut", 5, 11), ("undercut", 6, 4), ("undercut", 7, 7),
    ("undercut", 8, 8), ("undercut", 9, 6),
)  # fmt: skip
"""How hands end between two good players, as counts: what :func:`hand_points` scores."""

FINEST = 160
"""The longest target the table counts point by point (see the module docstring)."""


def hand_points(rules: RuleSet) -> tuple[tuple[int, float], ...]:
    """The points a hand's winner scores under ``rules`` and their chances (summing to 1),
    from :data:`HAND_OUTCOMES`: a knock scores the difference, an undercut its bonus plus the
    difference (a tie: the bonus, or 0 for the knocker under ``tie="knocker"``), gin and big
    gin their bonus (big gin's is gin's where the rules have none) plus the defender's
    deadwood; with Oklahoma's ``spade_doubles``, a quarter of the hands (a spade upcard) score
    double.

    >>> from ginrummy import RULESETS
    >>> round(sum(chance for _, chance in hand_points(RULESETS["standard"])), 9)
    1.0
    >>> round(dict(hand_points(RULESETS["standard"]))[25], 3)  # a tie's undercut, a knock of 25
    0.036
    """
    bonus = {
        "knock": 0,
        "undercut": rules.undercut_bonus,
        "gin": rules.gin_bonus,
        "big_gin": rules.gin_bonus if rules.big_gin_bonus is None else rules.big_gin_bonus,
    }
    counts: dict[int, float] = {}
    for kind, difference, hands in HAND_OUTCOMES:
        points = bonus[kind] + difference
        if kind == "undercut" and difference == 0 and rules.tie == "knocker":
            points = 0
        shares = ((points, 0.75), (2 * points, 0.25)) if rules.spade_doubles else ((points, 1.0),)
        for value, share in shares:
            counts[value] = counts.get(value, 0.0) + hands * share
    total = math.fsum(counts.values())
    return tuple((points, count / total) for points, count in sorted(counts.items()))


def win_table(rules: RuleSet) -> tuple[tuple[float, ...], ...]:
    """``table[i][j]``: the chance that a player needing ``i`` more points (in steps, see
    :func:`step`) wins the game against one needing ``j``; row and column 0 are unused (a
    player needing nothing has won). Worked out once per distinct scoring (cached)."""
    return _win_table(rules.game_target, hand_points(rules))


def step(target: int) -> int:
    """The points one step of :func:`win_table` counts: 1 up to :data:`FINEST`, then more."""
    return max(1, math.ceil(target / FINEST))


@functools.lru_cache(maxsize=8)
def _win_table(target: int, points: tuple[tuple[int, float], ...]) -> tuple[tuple[float, ...], ...]:
    unit = step(target)
    size = math.ceil(target / unit)
    chances: dict[int, float] = {}
    for value, chance in points:
        steps = max(1, round(value / unit)) if value else 0
        chances[steps] = chances.get(steps, 0.0) + chance
    # a hand won for 0 points (a tie under tie="knocker") changes no score: like a dead hand
    stay = chances.pop(0, 0.0)
    outcomes = sorted((k, c / (1.0 - stay)) for k, c in chances.items())
    reach = [math.fsum(c for k, c in outcomes if k >= need) for need in range(size + 1)]
    table = [[0.0] * (size + 1) for _ in range(size + 1)]
    for mine in range(1, size + 1):
        row = table[mine]
        short = [(c, mine - k) for k, c in outcomes if k < mine]  # wins that leave me short
        for theirs in range(1, size + 1):
            # I win the next hand (reaching the target, or not yet), or they win it
            mine_next = reach[mine] + math.fsum(c * table[left][theirs] for c, left in short)
            theirs_next = math.fsum(c * row[theirs - k] for k, c in outcomes if k < theirs)
            row[theirs] = 0.5 * mine_next + 0.5 * theirs_next
    return tuple(tuple(row) for row in table)


def chance(rules: RuleSet, mine: int, theirs: int) -> float:
    """The chance that a player needing ``mine`` points wins against one needing ``theirs``
    (1 when ``mine`` is 0 or less, 0 when ``theirs`` is and ``mine`` is not).

    >>> from ginrummy import RULESETS
    >>> round(chance(RULESETS["standard"], 100, 100), 3), chance(RULESETS["standard"], 0, 5)
    (0.5, 1.0)
    """
    if mine <= 0:
        return 1.0
    if theirs <= 0:
        return 0.0
    unit = step(rules.game_target)
    table = win_table(rules)
    return table[math.ceil(mine / unit)][math.ceil(theirs / unit)]


@dataclass(frozen=True)
class Standing:
    """The score of a game before the hand at play (see the module docstring)."""

    rules: RuleSet
    format: str = "standard"
    entries: tuple[HandEntry, ...] = ()

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise RuleError(
                "bad_setting",
                f"format must be one of {', '.join(FORMATS)}, not {str(self.format)[:40]!r}",
                setting="format",
                value=str(self.format)[:40],
            )
        object.__setattr__(self, "entries", tuple(self.entries))

    def _columns(self) -> list[tuple[bool, int | None, tuple[int, int]]]:
        """Each column (one for a standard game): finished, winner, points."""
        if self.format == "standard":
            sheet = score_game(self.entries, self.rules)
            return [(sheet.finished, sheet.winner, sheet.points)]
        return [
            (c.finished, c.winner, c.points)
            for c in score_hollywood(self.entries, self.rules).columns
        ]

    def needs(self, player: int) -> int:
        """The points ``player`` still needs to win the game (on a Hollywood sheet, in its
        first open column; 0 when none is open)."""
        for finished, _, points in self._columns():
            if not finished:
                return self.rules.game_target - points[player]
        return 0

    def win_chance(self, player: int) -> float:
        """``player``'s chance of winning the game from here (Hollywood: the expected share of
        the columns won)."""
        return _win_chance(self, player)

    def after(self, entry: HandEntry | None) -> Standing:
        """The standing once the hand at play is won (``entry``) or dead (None)."""
        if entry is None:
            return self
        return Standing(self.rules, self.format, self.entries + (entry,))

    @property
    def finished(self) -> bool:
        return all(finished for finished, _, _ in self._columns())


@functools.lru_cache(maxsize=1 << 12)
def _win_chance(standing: Standing, player: int) -> float:
    target = standing.rules.game_target
    shares = []
    for finished, winner, points in standing._columns():
        if finished:
            shares.append(1.0 if winner == player else 0.0)
        else:
            mine, theirs = target - points[player], target - points[1 - player]
            shares.append(chance(standing.rules, mine, theirs))
    return math.fsum(shares) / len(shares)
