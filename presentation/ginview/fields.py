"""The fields of examples and lesson steps: what each holds, made canonical once, at the boundary.

Whatever writes a field (a ```gin fence, a lesson file, a reader typing cards, a share link),
its value goes through the field's type, which returns the canonical value or raises a coded
:class:`FieldError`. Cards are always held as the engine writes them (``str(parse_cards(…))``):
a fence with ``10c`` holds ``TC`` and is drawn as 10♣.

>>> CARDS10.parse(["10c", "a♠", "2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h"], "hand")
'TC AS 2H 3H 4H 5H 6H 7H 8H 9H'
>>> MELDS.parse("7s 8s 9s / kh kd kc", "knocker_melds")
['7S 8S 9S', 'KH KD KC']
>>> ENTRIES.parse(["A 25", {"winner": 1, "points": 14}], "entries")
[{'winner': 0, 'points': 25}, {'winner': 1, 'points': 14}]
>>> ENTRIES.to_link(_), ENTRIES.from_link("A25_B14")
('A25_B14', ['A25', 'B14'])
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ginrummy import RULESETS, parse_cards
from ginrummy.errors import CardError, GinRummyError, RuleError
from ginrummy.hand import Action
from ginrummy.vocab import ACTION_KINDS

from .shapes import Entry

MAX_ENTRIES = 100
"""The most hands a score sheet example holds (a game to 100 rarely passes 20)."""
MAX_POINTS = 1000
"""The most points one hand may score on a sheet (the most a hand can score is about 250)."""
MAX_TEXT = 400
"""The longest text a field reads (a hand written out in full is about 40 characters)."""
PLAYERS = "AB"
MOVES = ACTION_KINDS
"""The moves of a hand (the engine's action kinds), as a lesson or a hand example writes them."""
MAX_MOVES = 200


class FieldError(GinRummyError):
    """A field that does not hold what it should. Codes: ``missing_field``, ``unknown_field``,
    ``bad_field`` (``field``, ``expected``), ``out_of_range`` (``field``, ``value``, ``low``,
    ``high``), ``too_many`` (``field``, ``limit``), ``unknown_rules`` (``rules``, ``presets``),
    and the card codes of :class:`~ginrummy.errors.CardError` with the ``field`` added."""


def bad(name: str, expected: str, value: object = None) -> FieldError:
    shown = repr(value) if value is not None else "nothing"
    if len(shown) > 60:
        shown = shown[:59] + "…"
    return FieldError(
        "bad_field", f"{name} must be {expected}, not {shown}", field=name, expected=expected
    )


def _text(value: object, name: str, expected: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise bad(name, expected, value)
    text = str(value)
    if len(text) > MAX_TEXT:
        raise FieldError(
            "too_long", f"{name} is too long ({len(text)} characters)", field=name, limit=MAX_TEXT
        )
    return text


def _cards(value: object, name: str, counts: tuple[int, ...] | None) -> str:
    """Cards written as a string or a list of card strings, checked and canonical."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = " ".join(value)
    text = _text(value, name, "cards written like 7H 8H 9H")
    try:
        return str(parse_cards(text, count=counts))
    except CardError as error:
        raise _card_error(error, name) from None


def _card_error(error: CardError, name: str) -> CardError:
    """A card error in the field ``name``: named in its message and its params."""
    return CardError(
        error.code,
        f"{name}: {error}",
        token=error.params.get("token"),
        position=error.params.get("position"),
        **{k: v for k, v in error.params.items() if k not in ("token", "position")},
        field=name,
    )


T = TypeVar("T")


class FieldType(Generic[T]):
    """How one kind of field is read, written and put into a share link; ``T`` is its
    canonical value."""

    @property
    def expected(self) -> str:
        """What a field of this type holds, as an error message says it."""
        return "a value"

    def parse(self, value: object, name: str) -> T:
        """The canonical value, or a FieldError (CardError for bad cards)."""
        raise NotImplementedError

    def to_link(self, value: T) -> str:
        """The value in a share link: short, readable, nothing to escape in a URL."""
        return str(value)

    def from_link(self, text: str) -> object:
        """What :meth:`parse` reads back from :meth:`to_link`'s text."""
        return text


@dataclass(frozen=True)
class Cards(FieldType[str]):
    counts: tuple[int, ...] | None = None  # None: any number

    @property
    def expected(self) -> str:
        return "cards written like 7H 8H 9H"

    def parse(self, value: object, name: str) -> str:
        return _cards(value, name, self.counts)

    def to_link(self, value: str) -> str:
        return value.replace(" ", "-")

    def from_link(self, text: str) -> str:
        return text.replace("-", " ")


@dataclass(frozen=True)
class Melds(FieldType[list[str]]):
    """Melds: a list (each melds' cards a string or a list), or one text with "/" between."""

    expected = "a list of melds, like [7S 8S 9S, KH KD KC]"

    def parse(self, value: object, name: str) -> list[str]:
        if isinstance(value, str):
            value = [m for m in _text(value, name, self.expected).split("/") if m.strip()]
        if not isinstance(value, list) or not value or len(value) > 4:
            raise bad(name, self.expected, value)
        return [_cards(m, name, None) for m in value]

    def to_link(self, value: list[str]) -> str:
        return "_".join(m.replace(" ", "-") for m in value)

    def from_link(self, text: str) -> list[str]:
        return [m.replace("-", " ") for m in text.split("_")]


@dataclass(frozen=True)
class Entries(FieldType[list[Entry]]):
    """Score sheet entries: who won each hand and its points, like "A 25" (or, as JSON,
    ``{"winner": 0, "points": 25}``); "A 25 x2" (``"boxes": 2``) for an Oklahoma hand whose
    box counts twice."""

    expected = 'a list of hands won, like ["A 25", "B 14"]'

    def parse(self, value: object, name: str) -> list[Entry]:
        if not isinstance(value, list):
            raise bad(name, self.expected, value)
        if len(value) > MAX_ENTRIES:
            raise FieldError(
                "too_many", f"{name}: more than {MAX_ENTRIES} hands", field=name, limit=MAX_ENTRIES
            )
        return [self.entry(item, name) for item in value]

    def entry(self, item: object, name: str) -> Entry:
        boxes: object = 1
        winner: object
        points: object
        if isinstance(item, str):
            match = re.fullmatch(r"\s*([ABab])\s*(\d{1,6})\s*(x2)?\s*", item)
            if not match:
                raise bad(
                    name, 'hands won written like "A 25" (winner A or B, then the points)', item
                )
            winner, points = PLAYERS.index(match.group(1).upper()), int(match.group(2))
            boxes = 2 if match.group(3) else 1
        elif isinstance(item, dict) and {"winner", "points"} <= set(item) <= {
            "winner",
            "points",
            "boxes",
        }:
            winner, points, boxes = item["winner"], item["points"], item.get("boxes", 1)
        else:
            raise bad(name, self.expected, item)
        if isinstance(winner, bool) or winner not in (0, 1):
            raise bad("winner", "player 0 (A) or 1 (B)", winner)
        entry: Entry = {"winner": winner, "points": number(points, "points", 0, MAX_POINTS)}
        if number(boxes, "boxes", 1, 2) != 1:
            entry["boxes"] = 2
        return entry

    def to_link(self, value: list[Entry]) -> str:
        return "_".join(
            f"{PLAYERS[e['winner']]}{e['points']}{'x2' if e.get('boxes') == 2 else ''}"
            for e in value
        )

    def from_link(self, text: str) -> list[str]:
        return text.split("_") if text else []


def number(value: object, name: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``, or a FieldError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(name, "a whole number", value)
    if not low <= value <= high:
        raise FieldError(
            "out_of_range",
            f"{name} must be from {low} to {high}, not {value}",
            field=name,
            value=value,
            low=low,
            high=high,
        )
    return value


@dataclass(frozen=True)
class Rules(FieldType[str]):
    """A rules preset by name: a share link cannot change a preset's numbers, only choose one."""

    expected = "the name of a rules preset"

    def parse(self, value: object, name: str) -> str:
        if not isinstance(value, str) or value not in RULESETS:
            shown = value if isinstance(value, str) else repr(value)
            raise FieldError(
                "unknown_rules",
                f"unknown rules {shown[:40]!r}; use one of {', '.join(RULESETS)}",
                rules=shown[:40],
                presets=list(RULESETS),
            )
        return value


@dataclass(frozen=True)
class Choice(FieldType[str]):
    options: tuple[str, ...] = ()

    @property
    def expected(self) -> str:
        return "one of " + ", ".join(self.options)

    def parse(self, value: object, name: str) -> str:
        if not isinstance(value, str) or value not in self.options:
            raise bad(name, self.expected, value)
        return value


@dataclass(frozen=True)
class Number(FieldType[int]):
    low: int = 0
    high: int = MAX_POINTS

    expected = "a whole number"

    def parse(self, value: object, name: str) -> int:
        return number(value, name, self.low, self.high)


@dataclass(frozen=True)
class Deal(FieldType[dict[str, object]]):
    expected = "a mapping with a seed or a deck, and optionally the dealer"

    def parse(self, value: object, name: str) -> dict[str, object]:
        if (
            not isinstance(value, dict)
            or set(value) - {"seed", "deck", "dealer"}
            or ("seed" in value) == ("deck" in value)
        ):
            raise bad(name, self.expected, value)
        return value


@dataclass(frozen=True)
class Moves(FieldType[list[str]]):
    """Moves like "pass 1", "discard 1 7H" (with the player), or, as choices, "draw_stock",
    "discard 7H" (the learner's own moves)."""

    choices: bool = False

    @property
    def expected(self) -> str:
        return (
            'a list of moves like "discard 7H"' if self.choices else 'a list of moves like "pass 1"'
        )

    def parse(self, value: object, name: str) -> list[str]:
        if not isinstance(value, list) or (self.choices and len(value) < 2):
            raise bad(name, self.expected, value)
        if len(value) > MAX_MOVES:
            raise FieldError(
                "too_many", f"{name}: more than {MAX_MOVES} moves", field=name, limit=MAX_MOVES
            )
        with_player = not self.choices
        return [read_move(item, with_player, name).text(with_player) for item in value]


def read_move(text: object, with_player: bool, name: str = "move") -> Action:
    """A move in the engine's notation, read by :meth:`ginrummy.hand.Action.parse`: "discard 1
    7H" (``with_player``), or a learner's choice without the player, "discard 7H" (read as
    player 0's). A miswritten move is refused in the field's name, saying what the engine
    expected; a card that is not one with its card error."""
    try:
        # Not text: read as "", refused as any miswritten move (the error quotes ``text``).
        return Action.parse(text if isinstance(text, str) else "", None if with_player else 0)
    except CardError as error:
        raise _card_error(error, name) from None
    except RuleError as error:
        raise bad(name, error.params.get("expected", "a move"), text) from None


def parse_move(text: object, with_player: bool, name: str = "move") -> dict[str, Any]:
    """:func:`read_move` as an engine action in JSON (a choice's without ``player``)."""
    action = read_move(text, with_player, name).to_json()
    if not with_player:
        del action["player"]
    return action


def move_text(action: dict[str, object]) -> str:
    """A move in the engine's notation, "discard 1 7H" (a choice without a player: "discard
    7H")."""
    with_player = "player" in action
    return Action.from_json({"player": 0, **action}).text(with_player=with_player)


@dataclass(frozen=True)
class Field:
    """A named field of a kind: its type, whether it must be given, the catalog key of its
    label (for fields a reader sees), and its value when left out."""

    name: str
    type: FieldType[Any]  # a kind's fields hold values of different types
    required: bool = True
    label: str = ""
    default: object = None


def read_fields(data: object, fields: tuple[Field, ...], what: str) -> dict[str, Any]:
    """The canonical fields of ``data`` (a mapping of field names to raw values), checked
    against ``fields``: an unknown field, a missing one or a bad value is a FieldError."""
    if not isinstance(data, dict):
        raise bad(what, "a mapping of fields", data)
    known = {f.name: f for f in fields}
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise FieldError(
            "unknown_field",
            f"{what} has no field {unknown[0]!r}; its fields are {', '.join(known)}",
            field=unknown[0],
            fields=list(known),
        )
    out: dict[str, Any] = {}
    for f in fields:
        value = data.get(f.name)
        if value is None or value == "":
            if f.required:
                raise FieldError("missing_field", f"{what} needs {f.name!r}", field=f.name)
            if f.default is not None:
                out[f.name] = f.default
            continue
        out[f.name] = f.type.parse(value, f.name)
    return out


CARD = Cards((1,))
CARDS10 = Cards((10,))
CARDS11 = Cards((11,))
CARDS10OR11 = Cards((10, 11))
MELDS = Melds()
ENTRIES = Entries()
RULES = Rules()
