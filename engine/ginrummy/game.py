"""Score sheets: a game to the target, Hollywood (several games scored at once), Oklahoma.

Everything here is a pure function over immutable values. The players are ``0`` and ``1``
(the same numbers as in :mod:`ginrummy.hand`, where ``0`` is the first dealer by default);
every per-player field is a pair indexed by player number.

A sheet is built from the hands won, in order. Each is a :class:`HandEntry`: who won the hand,
the points it scored, and how many boxes it counts for (1; 2 for an Oklahoma spade hand when
``rules.spade_doubles_box`` is set).

>>> sheet = score_game([HandEntry(0, 60), HandEntry(1, 14), HandEntry(0, 45)])
>>> sheet.finished, sheet.winner, sheet.points
(True, 0, (105, 14))
>>> sheet.game_bonus, sheet.box_bonus, sheet.totals, sheet.difference
(100, (50, 25), (255, 39), 216)

**A standard game.** Hand points add up row by row. The game ends on the hand that brings a
player to ``rules.game_target`` or more; a further entry raises ``RuleError`` code
``game_over``. Then it is settled:

- the winner gets the game bonus (``rules.game_bonus``);
- each player gets ``rules.box_bonus`` per box (hand won); boxes do not count toward the target;
- a *shutout* is when the loser's hand points are 0. What it pays depends on ``rules.shutout``:
  ``double_points`` adds the winner's hand points again, ``double_game_bonus`` adds the game bonus
  again, ``double_difference`` adds the difference before the shutout again (so the difference is
  doubled), ``none`` adds nothing. This extra is ``shutout_bonus``, credited to the winner;
- ``totals`` are hand points + box bonus + game bonus + shutout bonus for each player. The
  player with the larger total collects the ``difference`` between the totals from the other
  (``collector``): usually the winner, but not always. A player who won many small hands can
  end with more boxes than the winner has points to spare, and then collects from the winner
  (``collector`` is the loser); with equal totals nobody collects (``collector`` is ``None``,
  ``difference`` 0).

>>> small = score_game([(1, 12)] * 8 + [(0, 100)])   # B wins 8 hands of 12, A one of 100
>>> small.winner, small.totals, small.collector, small.difference
(0, (225, 296), 1, 71)

While the game runs, ``winner``, ``collector`` and ``difference`` are ``None`` and no bonus is
credited (``totals`` equal ``points``).

**Hollywood** (:func:`score_hollywood`) keeps ``rules.hollywood_columns`` games (columns) at
once. The exact rule used for entering a won hand:

    The hand's points go into every *open* column in which the winner already has an entry,
    and into the leftmost open column in which the winner has no entry yet (if there is one).

While all columns are open this is the familiar rule: a player's 1st hand won is entered in
column 1, the 2nd in columns 1 and 2, the 3rd and later in columns 1, 2 and 3. Closed columns
take nothing more ("later hands are scored only into the columns still open"). A player who
never won a hand in a column before it closed (shut out there) makes their first entry in the
next open column. A column closes when a player reaches the target in it; it is settled like a
standard game with its own hands, boxes and shutout. Play stops when every column is closed.

Worked example (target 100, three columns; A is player 0, B player 1). A wins 40, 40, 40:
column 1 gets 40+40+40 = 120 (A closes it, B shut out), column 2 gets 40+40, column 3 gets 40. B's first win, 30, goes to
column 2 only (column 1 is closed, B has no entry anywhere open). A wins 15: columns 2 and 3.
B wins 10: column 2 (B's entry) and column 3 (B's first entry in an open column).

>>> sheet = score_hollywood([HandEntry(0, 40)] * 3 + [HandEntry(1, 30), HandEntry(0, 15),
...                         HandEntry(1, 10)])
>>> [row.columns for row in sheet.rows]
[(1,), (1, 2), (1, 2, 3), (2,), (2, 3), (2, 3)]
>>> [column.points for column in sheet.columns]
[(120, 0), (95, 40), (55, 10)]
>>> [column.finished for column in sheet.columns]
[True, False, False]

A second example: A wins 10 (column 1). B wins 60, 60, 60: B's 2nd win closes column 1 at 120,
B's 3rd goes into columns 2 and 3 and closes column 2 at 120 (A shut out there). A's 2nd win,
5, would belong in columns 1 and 2, both closed: it goes into column 3, the first open column
where A has no entry. (A literal "k-th win goes in columns 1..k" would drop it.)

>>> sheet = score_hollywood([(0, 10), (1, 60), (1, 60), (1, 60), (0, 5)])
>>> [row.columns for row in sheet.rows]
[(1,), (1,), (1, 2), (2, 3), (3,)]
>>> [column.points for column in sheet.columns]
[(10, 120), (0, 120), (5, 60)]

**Oklahoma** uses the same two functions with ``rules="oklahoma"`` (game to 150). With
``spade_doubles_box`` set, a hand won under a spade upcard counts as 2 boxes:
:meth:`HandEntry.from_result` sets that.

**Explanation steps.** ``explain()`` returns a list of flat dicts, ``{"code": ..., **params}``
(the same shape as :meth:`ginrummy.scoring.HandResult.explain`), JSON-serialisable, in order;
no English: the site words them in each language. Players are 0/1, columns
and hands are numbered from 1. The codes:

- ``hand_won``: ``hand, player, points, boxes, totals`` (both players' running hand points
  after this hand, ``[p0, p1]``); on a Hollywood sheet ``totals`` holds one such pair per column
  and ``columns`` lists the columns the hand was entered in.
- ``column_closed`` (Hollywood): ``column, hand, player`` — ``player`` reached the target there.
- ``game_won``: ``hand, player, points, target`` — the hand on which ``player`` reached the
  target.
- ``game_in_progress``: ``target, points`` — nobody has reached the target yet; nothing settled.
- ``game_bonus``: ``player, amount``.
- ``box_bonus``: ``player, boxes, each, amount`` (one step per player with boxes).
- ``shutout``: ``player`` (winner), ``loser``, ``rule`` (a ``SHUTOUT_RULES`` name), ``amount``
  (the extra credited to the winner).
- ``total``: ``player, points, box_bonus, game_bonus, shutout_bonus, total`` (one per player).
- ``difference``: ``player`` (the collector: the larger total), ``loser`` (the other player),
  ``amount`` (the difference, more than 0), ``winner`` (who reached the target);
  ``settled_even``: ``total`` when both totals are equal.
- ``grand_total`` (Hollywood): ``player, total`` — the sum of that player's column totals.
- ``hollywood_won`` (Hollywood, all columns closed): ``player, amount`` (the net difference);
  ``hollywood_tied``: ``total`` when both grand totals are equal;
  ``hollywood_in_progress``: ``open`` (the open column numbers).

On a Hollywood sheet every settlement step (``game_won`` … ``difference``) carries a
``column`` parameter too.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import RuleError, listed, quote, shown, whole_number
from .rules import RuleSet, get_rules
from .vocab import SheetStepCode

if TYPE_CHECKING:
    from .cards import Card
    from .scoring import HandResult

PLAYERS = (0, 1)
MAX_ENTRIES = 1000
"""The most hands a score sheet takes (a game to 10,000 is a few hundred)."""
MAX_HAND_POINTS = 10_000
MAX_BOXES = 10
"""Player numbers on a sheet."""


@dataclass(frozen=True)
class HandEntry:
    """One hand won: ``winner`` (player 0 or 1), its ``points``, and its ``boxes`` (usually 1).

    >>> HandEntry(1, 25).to_json()
    {'winner': 1, 'points': 25, 'boxes': 1}
    >>> HandEntry.from_json({"winner": 0, "points": 12, "boxes": 2})
    HandEntry(winner=0, points=12, boxes=2)
    >>> HandEntry(2, 10)
    Traceback (most recent call last):
    ...
    ginrummy.errors.RuleError: winner must be player 0 or 1, not 2
    """

    winner: int
    points: int
    boxes: int = 1

    def __post_init__(self) -> None:
        if not whole_number(self.winner) or self.winner not in PLAYERS:
            raise RuleError(
                "bad_entry",
                f"winner must be player 0 or 1, not {shown(self.winner)}",
                field="winner",
                value=quote(self.winner)
                if isinstance(self.winner, (list, tuple, dict))
                else self.winner,
            )
        for name, high in (("points", MAX_HAND_POINTS), ("boxes", MAX_BOXES)):
            value = getattr(self, name)
            if not whole_number(value) or not 0 <= value <= high:
                raise RuleError(
                    "bad_entry",
                    f"{name} must be a whole number from 0 to {high}, not {quote(value)}",
                    field=name,
                    value=quote(value),
                    low=0,
                    high=high,
                )

    @classmethod
    def from_result(
        cls,
        result: HandResult,
        knocker: int,
        rules: str | RuleSet | dict[str, Any] = "standard",
        upcard: Card | None = None,
    ) -> HandEntry:
        """The entry for a scored hand (a ``HandResult``) in which player ``knocker`` knocked.

        ``result.points`` is taken as final (any Oklahoma spade doubling already applied). A
        hand won by gin or big gin counts as ``rules.gin_boxes`` boxes, one won by an undercut
        as ``rules.undercut_boxes``, any other as 1; twice that when the rules are Oklahoma with
        ``spade_doubles_box`` and the upcard is a spade.
        """
        rules = get_rules(rules)
        if not whole_number(knocker) or knocker not in PLAYERS:
            raise RuleError(
                "bad_entry",
                f"knocker must be player 0 or 1, not {shown(knocker)}",
                field="knocker",
                value=quote(knocker) if isinstance(knocker, (list, tuple, dict)) else knocker,
            )
        winner = knocker if result.winner == "knocker" else 1 - knocker
        doubled = (
            rules.oklahoma and rules.spade_doubles_box and upcard is not None and upcard.suit == "S"
        )
        boxes = {
            "gin": rules.gin_boxes,
            "big_gin": rules.gin_boxes,
            "undercut": rules.undercut_boxes,
        }.get(result.outcome, 1)
        return cls(winner, result.points, boxes * (2 if doubled else 1))

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "points": self.points, "boxes": self.boxes}

    @classmethod
    def from_json(cls, data: object) -> HandEntry:
        """From ``{"winner": 0, "points": 25, "boxes": 1}`` (``boxes`` optional) or ``[0, 25]``."""
        if isinstance(data, HandEntry):
            return data
        if isinstance(data, (list, tuple)) and len(data) in (2, 3):
            return cls(*data)
        if not isinstance(data, dict):
            raise RuleError(
                "bad_entry",
                f"a hand entry must be an object, not {quote(data)}",
                field="entry",
                value=quote(data),
            )
        unknown = set(data) - {"winner", "points", "boxes"}
        if unknown:
            name = sorted(unknown)[0]
            raise RuleError(
                "bad_entry",
                f"unknown field {quote(str(name))!r} in a hand entry",
                field=quote(str(name)),
                value=quote(data[name]),
            )
        for name in ("winner", "points"):
            if name not in data:
                raise RuleError("bad_entry", f"a hand entry needs {name!r}", field=name, value=None)
        return cls(data["winner"], data["points"], data.get("boxes", 1))


@dataclass(frozen=True)
class GameRow:
    """One line of a sheet: the hand number (from 1), who won it, its points and boxes, and
    both players' running hand points after it."""

    hand: int
    winner: int
    points: int
    boxes: int
    totals: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "winner": self.winner,
            "points": self.points,
            "boxes": self.boxes,
            "totals": list(self.totals),
        }


@dataclass(frozen=True)
class GameSheet:
    """A game's rows and, once finished, its settlement (see the module docstring)."""

    rules: RuleSet
    rows: tuple[GameRow, ...]
    finished: bool
    winner: int | None
    points: tuple[int, int]
    hands_won: tuple[int, int]
    boxes: tuple[int, int]
    game_bonus: int
    box_bonus: tuple[int, int]
    shutout: bool
    shutout_bonus: int
    totals: tuple[int, int]
    difference: int | None
    """The difference between the two totals, once the game is over (never negative)."""
    collector: int | None = None
    """The player with the larger total, who collects the difference (None: equal totals, or the
    game is not over)."""
    column: int | None = None
    """The Hollywood column number (from 1), or None for a standard game."""

    def explain(self) -> list[dict[str, Any]]:
        """Structured steps: ``hand_won`` per row, then the settlement (module docstring)."""
        steps = [
            _step(
                "hand_won",
                hand=row.hand,
                player=row.winner,
                points=row.points,
                boxes=row.boxes,
                totals=list(row.totals),
            )
            for row in self.rows
        ]
        return steps + self._settlement_steps()

    def _settlement_steps(self) -> list[dict[str, Any]]:
        extra = {} if self.column is None else {"column": self.column}
        target = self.rules.game_target
        if not self.finished:
            return [_step("game_in_progress", target=target, points=list(self.points), **extra)]
        assert self.winner is not None  # a finished game has a winner
        winner, loser = self.winner, 1 - self.winner
        steps = [
            _step(
                "game_won",
                hand=self.rows[-1].hand,
                player=winner,
                points=self.points[winner],
                target=target,
                **extra,
            ),
            _step("game_bonus", player=winner, amount=self.game_bonus, **extra),
        ]
        for player in PLAYERS:
            if self.boxes[player]:
                steps.append(
                    _step(
                        "box_bonus",
                        player=player,
                        boxes=self.boxes[player],
                        each=self.rules.box_bonus,
                        amount=self.box_bonus[player],
                        **extra,
                    )
                )
        if self.shutout:
            steps.append(
                _step(
                    "shutout",
                    player=winner,
                    loser=loser,
                    rule=self.rules.shutout,
                    amount=self.shutout_bonus,
                    **extra,
                )
            )
        for player in PLAYERS:
            steps.append(
                _step(
                    "total",
                    player=player,
                    points=self.points[player],
                    box_bonus=self.box_bonus[player],
                    game_bonus=self.game_bonus if player == winner else 0,
                    shutout_bonus=self.shutout_bonus if player == winner else 0,
                    total=self.totals[player],
                    **extra,
                )
            )
        if self.collector is None:
            steps.append(_step("settled_even", total=self.totals[0], **extra))
        else:
            steps.append(
                _step(
                    "difference",
                    player=self.collector,
                    loser=1 - self.collector,
                    amount=self.difference,
                    winner=winner,
                    **extra,
                )
            )
        return steps

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rules": self.rules.name,
            "target": self.rules.game_target,
            "rows": [row.to_json() for row in self.rows],
            "finished": self.finished,
            "winner": self.winner,
            "points": list(self.points),
            "hands_won": list(self.hands_won),
            "boxes": list(self.boxes),
            "game_bonus": self.game_bonus,
            "box_bonus": list(self.box_bonus),
            "shutout": self.shutout,
            "shutout_bonus": self.shutout_bonus,
            "totals": list(self.totals),
            "difference": self.difference,
            "collector": self.collector,
            "steps": self.explain(),
        }
        if self.column is not None:
            data["column"] = self.column
        return data


def score_game(
    entries: Iterable[Any],
    rules: str | RuleSet | dict[str, Any] = "standard",
    numbers: Sequence[int] | None = None,
) -> GameSheet:
    """The sheet of one game from its hands won, in order (``HandEntry``, dicts or pairs),
    numbered 1, 2, 3… or by ``numbers`` (a game's hand numbers, void hands counted).

    >>> sheet = score_game([(1, 60), (1, 45)], rules="pokerwiner")
    >>> sheet.winner, sheet.shutout, sheet.totals, sheet.difference
    (1, True, (0, 490), 490)
    >>> score_game([(1, 60), (1, 45), (0, 10)])
    Traceback (most recent call last):
    ...
    ginrummy.errors.RuleError: the game ended on hand 2; hand 3 cannot be scored
    """
    rules = get_rules(rules)
    numbered = _numbered(_entries(entries), numbers)
    return _play(numbered, rules)


def _play(
    numbered: list[tuple[int, HandEntry]], rules: RuleSet, column: int | None = None
) -> GameSheet:
    totals = [0, 0]
    rows: list[GameRow] = []
    for number, entry in numbered:
        if rows and max(rows[-1].totals) >= rules.game_target:
            raise RuleError(
                "game_over",
                f"the game ended on hand {rows[-1].hand}; hand {number} cannot be scored",
                hand=number,
                ended_on=rows[-1].hand,
            )
        totals[entry.winner] += entry.points
        rows.append(GameRow(number, entry.winner, entry.points, entry.boxes, _pair(totals)))
    return _settle(tuple(rows), rules, column)


def _settle(rows: tuple[GameRow, ...], rules: RuleSet, column: int | None) -> GameSheet:
    points = rows[-1].totals if rows else (0, 0)
    hands_won = _pair(sum(1 for row in rows if row.winner == p) for p in PLAYERS)
    boxes = _pair(sum(row.boxes for row in rows if row.winner == p) for p in PLAYERS)
    finished = max(points) >= rules.game_target
    if not finished:
        return GameSheet(
            rules,
            rows,
            False,
            None,
            points,
            hands_won,
            boxes,
            0,
            (0, 0),
            False,
            0,
            points,
            None,
            None,
            column,
        )
    winner = 0 if points[0] >= rules.game_target else 1
    loser = 1 - winner
    game_bonus = rules.game_bonus
    box_bonus = _pair(b * rules.box_bonus for b in boxes)
    before = [points[p] + box_bonus[p] + (game_bonus if p == winner else 0) for p in PLAYERS]
    shutout = points[loser] == 0
    shutout_bonus = 0
    if shutout:
        shutout_bonus = {
            "double_points": points[winner],
            "double_game_bonus": game_bonus,
            "double_difference": max(0, before[winner] - before[loser]),
            "none": 0,
        }[rules.shutout]
    before[winner] += shutout_bonus
    totals = _pair(before)
    return GameSheet(
        rules,
        rows,
        True,
        winner,
        points,
        hands_won,
        boxes,
        game_bonus,
        box_bonus,
        shutout,
        shutout_bonus,
        totals,
        abs(totals[0] - totals[1]),
        None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1),
        column,
    )


@dataclass(frozen=True)
class HollywoodRow:
    """One hand on a Hollywood sheet: the columns it was entered in, the columns it closed,
    and every column's running hand points after it."""

    hand: int
    winner: int
    points: int
    boxes: int
    columns: tuple[int, ...]
    closed: tuple[int, ...]
    totals: tuple[tuple[int, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "winner": self.winner,
            "points": self.points,
            "boxes": self.boxes,
            "columns": list(self.columns),
            "closed": list(self.closed),
            "totals": [list(t) for t in self.totals],
        }


@dataclass(frozen=True)
class HollywoodSheet:
    """Rows, each column's :class:`GameSheet`, and the grand totals over all columns."""

    rules: RuleSet
    rows: tuple[HollywoodRow, ...]
    columns: tuple[GameSheet, ...]
    finished: bool
    totals: tuple[int, int]
    winner: int | None
    difference: int | None

    def explain(self) -> list[dict[str, Any]]:
        """``hand_won`` (with ``columns``) and ``column_closed`` per row, then each column's
        settlement, then ``grand_total`` and ``hollywood_won`` / ``_tied`` / ``_in_progress``."""
        steps: list[dict[str, Any]] = []
        for row in self.rows:
            steps.append(
                _step(
                    "hand_won",
                    hand=row.hand,
                    player=row.winner,
                    points=row.points,
                    boxes=row.boxes,
                    totals=[list(t) for t in row.totals],
                    columns=list(row.columns),
                )
            )
            for column in row.closed:
                steps.append(
                    _step("column_closed", column=column, hand=row.hand, player=row.winner)
                )
        for sheet in self.columns:
            steps += sheet._settlement_steps()
        for player in PLAYERS:
            steps.append(_step("grand_total", player=player, total=self.totals[player]))
        if not self.finished:
            steps.append(
                _step(
                    "hollywood_in_progress", open=[c.column for c in self.columns if not c.finished]
                )
            )
        elif self.winner is None:
            steps.append(_step("hollywood_tied", total=self.totals[0]))
        else:
            steps.append(_step("hollywood_won", player=self.winner, amount=self.difference))
        return steps

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.name,
            "target": self.rules.game_target,
            "rows": [row.to_json() for row in self.rows],
            "columns": [
                {k: v for k, v in c.to_json().items() if k != "steps"} for c in self.columns
            ],
            "finished": self.finished,
            "totals": list(self.totals),
            "winner": self.winner,
            "difference": self.difference,
            "steps": self.explain(),
        }


def hollywood_columns(started: Iterable[int], open_columns: Iterable[int]) -> tuple[int, ...]:
    """The columns a won hand goes into: every open column where the winner has an entry
    (``started``), plus the leftmost open column where they have none.

    >>> hollywood_columns(started=[], open_columns=[1, 2, 3])
    (1,)
    >>> hollywood_columns(started=[1, 2], open_columns=[1, 2, 3])
    (1, 2, 3)
    >>> hollywood_columns(started=[1], open_columns=[2, 3])   # column 1 closed
    (2,)
    >>> hollywood_columns(started=[], open_columns=[2, 3])    # shut out in column 1
    (2,)
    """
    columns = [listed(started), listed(open_columns)]
    if any(c is None or not all(whole_number(n) for n in c) for c in columns):
        raise RuleError(
            "bad_setting",
            f"columns are lists of column numbers, not {shown(started)} and {shown(open_columns)}",
            setting="columns",
            value=quote([started, open_columns]),
        )
    started, open_columns = set(columns[0] or ()), sorted(columns[1] or ())
    chosen = {c for c in open_columns if c in started}
    fresh = [c for c in open_columns if c not in started]
    if fresh:
        chosen.add(fresh[0])
    return tuple(sorted(chosen))


def score_hollywood(
    entries: Iterable[Any],
    rules: str | RuleSet | dict[str, Any] = "standard",
    numbers: Sequence[int] | None = None,
) -> HollywoodSheet:
    """The Hollywood sheet of ``rules.hollywood_columns`` games scored at once (module docstring).

    >>> sheet = score_hollywood([(0, 50), (0, 50), (0, 50), (0, 50)])
    >>> [row.columns for row in sheet.rows]
    [(1,), (1, 2), (2, 3), (3,)]
    >>> [row.closed for row in sheet.rows]
    [(), (1,), (2,), (3,)]
    >>> sheet.finished, sheet.winner, [c.totals for c in sheet.columns]
    (True, 0, [(350, 0), (350, 0), (350, 0)])
    """
    rules = get_rules(rules)
    count = rules.hollywood_columns  # 1 to 10: RuleSet refuses any other
    numbered = _numbered(_entries(entries), numbers)
    target = rules.game_target
    per_column: list[list[tuple[int, HandEntry]]] = [[] for _ in range(count)]
    running = [[0, 0] for _ in range(count)]
    started: list[set[int]] = [set(), set()]
    rows: list[HollywoodRow] = []
    for number, entry in numbered:
        open_columns = [c for c in range(1, count + 1) if max(running[c - 1]) < target]
        if not open_columns:
            raise RuleError(
                "game_over",
                f"every Hollywood column closed on hand {rows[-1].hand}; "
                f"hand {number} cannot be scored",
                hand=number,
                ended_on=rows[-1].hand,
            )
        columns = hollywood_columns(started[entry.winner], open_columns)
        closed = []
        for column in columns:
            per_column[column - 1].append((number, entry))
            running[column - 1][entry.winner] += entry.points
            started[entry.winner].add(column)
            if running[column - 1][entry.winner] >= target:
                closed.append(column)
        rows.append(
            HollywoodRow(
                number,
                entry.winner,
                entry.points,
                entry.boxes,
                columns,
                tuple(closed),
                tuple(_pair(r) for r in running),
            )
        )
    sheets = tuple(_play(per_column[c], rules, column=c + 1) for c in range(count))
    totals = _pair(sum(s.totals[p] for s in sheets) for p in PLAYERS)
    finished = all(s.finished for s in sheets)
    winner: int | None = None
    difference: int | None = None
    if finished:
        difference = abs(totals[0] - totals[1])
        if totals[0] != totals[1]:
            winner = 0 if totals[0] > totals[1] else 1
    return HollywoodSheet(rules, tuple(rows), sheets, finished, totals, winner, difference)


def _entries(entries: Iterable[Any]) -> list[HandEntry]:
    if isinstance(entries, (str, bytes, dict)) or not hasattr(entries, "__iter__"):
        raise RuleError(
            "bad_entry", "hand entries must be a list", field="entries", value=quote(entries)
        )
    entries = list(itertools.islice(entries, MAX_ENTRIES + 1))
    if len(entries) > MAX_ENTRIES:
        raise RuleError(
            "too_many",
            f"entries: more than {MAX_ENTRIES} hands",
            field="entries",
            limit=MAX_ENTRIES,
        )
    return [HandEntry.from_json(e) for e in entries]


def _numbered(
    entries: list[HandEntry], numbers: Sequence[int] | None
) -> list[tuple[int, HandEntry]]:
    """Each entry with its hand's number: 1, 2, 3… or ``numbers``, the hands' numbers in a game
    where void hands count (:attr:`ginrummy.match.Game.numbers`)."""
    if numbers is None:
        return list(enumerate(entries, 1))
    numbers = list(numbers)
    rising = all(whole_number(n) and n > 0 for n in numbers) and numbers == sorted(set(numbers))
    if len(numbers) != len(entries) or not rising:
        raise RuleError(
            "bad_entry",
            "numbers: one rising hand number per entry",
            field="numbers",
            value=quote(numbers),
        )
    return list(zip(numbers, entries, strict=True))


ROW_STEPS: tuple[SheetStepCode, ...] = ("hand_won", "column_closed")
"""The steps of a sheet's explanation that follow its rows (the others settle the game)."""


def _step(code: SheetStepCode, **params: Any) -> dict[str, Any]:
    return {"code": code, **params}


def _pair(values: Iterable[int]) -> tuple[int, int]:
    """Two numbers, one per player, as a tuple."""
    first, second = values
    return first, second
