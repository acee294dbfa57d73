"""One move of a hand: :class:`Action`, its kinds, its notation and its JSON.

An action is ``kind`` (one of :data:`ACTION_KINDS`), ``player`` (0 or 1) and ``card`` for
``discard``, ``knock`` and ``gin``; a knock (or gin) may carry the knocker's own ``melds``, a
``lay_off`` the defender's own ``lay_offs``. :func:`ginrummy.hand.apply` plays it. As JSON:
``{"kind": "discard", "player": 0, "card": "7H"}``; :meth:`Action.from_json` reads it back. In
its notation, ``"discard 1 7H"`` (or a learner's choice without the player, ``"discard 7H"``);
:meth:`Action.parse` reads it back.

A malformed action, action JSON or notation raises :class:`RuleError` ``bad_action``
(``field``, ``value``; a miswritten notation also ``expected``); a bad card in it raises
:class:`CardError`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from .cards import Card, notation
from .errors import RuleError, quote, short_repr, shown, whole_number
from .layoffs import check_melds
from .melds import Meld
from .vocab import ACTION_KINDS, ActionKind

__all__ = [
    "ACTION_KINDS",
    "CARD_KINDS",
    "DRAW_KINDS",
    "KNOCK_KINDS",
    "MAX_LAY_OFFS",
    "MAX_MELDS",
    "MAX_MOVE_TEXT",
    "TAKE_KINDS",
    "Action",
    "lay_offs_json",
    "melds_json",
]

CARD_KINDS: tuple[ActionKind, ...] = ("discard", "knock", "gin")
"""The action kinds that name a card."""
KNOCK_KINDS: tuple[ActionKind, ...] = ("knock", "gin")
"""The action kinds that end the hand with a discard, face down, and a layout of melds."""
TAKE_KINDS: tuple[ActionKind, ...] = ("take_upcard", "draw_discard")
"""The action kinds that take the top of the discard pile."""
DRAW_KINDS: tuple[ActionKind, ...] = ("take_upcard", "draw_stock", "draw_discard")
"""The action kinds that bring a card into the hand."""


@dataclass(frozen=True)
class Action:
    """One move: ``kind``, the acting ``player``, and the ``card`` for discard/knock/gin.

    >>> Action("discard", 0, Card.parse("7H")).to_json()
    {'kind': 'discard', 'player': 0, 'card': '7H'}
    >>> Action.from_json({"kind": "gin", "player": 1, "card": "ks"})
    Action(kind='gin', player=1, card=Card.parse('KS'))

    Its notation (:meth:`parse` reads what :meth:`text` and ``str`` write): the kind, the
    player, the card; or, where the player goes without saying (a learner's choice of move),
    the kind and the card:

    >>> move = Action("discard", 1, Card.parse("7H"))
    >>> str(move), move.text(with_player=False)
    ('discard 1 7H', 'discard 7H')
    >>> Action.parse("pass 0") == Action("pass", 0), Action.parse("discard 7H", player=1) == move
    (True, True)
    """

    kind: ActionKind
    player: int
    card: Card | None = None
    melds: tuple[Meld, ...] | None = None
    """``knock`` or ``gin`` only: the knocker's own layout (None: the engine lays out the
    melds best for the knocker)."""
    lay_offs: tuple[tuple[Card, int], ...] | None = None
    """``lay_off`` only: the defender's own lay-offs, ``(card, meld index)`` in order (None:
    the engine plays the best ones)."""

    def __post_init__(self) -> None:
        if self.kind not in ACTION_KINDS:
            raise RuleError(
                "bad_action",
                f"unknown action {shown(self.kind)}",
                field="kind",
                value=quote(self.kind),
            )
        if self.melds is not None:
            if self.kind not in KNOCK_KINDS:
                raise RuleError(
                    "bad_action",
                    f"{self.kind} takes no melds",
                    field="melds",
                    value=quote(self.melds),
                )
            if isinstance(self.melds, (str, dict)) or not hasattr(self.melds, "__iter__"):
                raise RuleError(
                    "bad_action",
                    "a layout is a list of melds",
                    field="melds",
                    value=quote(self.melds),
                )
            melds = list(itertools.islice(self.melds, MAX_MELDS + 1))
            if len(melds) > MAX_MELDS:
                raise RuleError(
                    "bad_action",
                    f"a layout has at most {MAX_MELDS} melds",
                    field="melds",
                    value=len(melds),
                )
            object.__setattr__(self, "melds", check_melds(melds))
        if self.lay_offs is not None:
            object.__setattr__(self, "lay_offs", _lay_off_pairs(self.kind, self.lay_offs))
        if not whole_number(self.player) or self.player not in (0, 1):
            raise RuleError(
                "bad_action",
                f"player must be 0 or 1, not {shown(self.player)}",
                field="player",
                value=quote(self.player)
                if isinstance(self.player, (list, tuple, dict))
                else self.player,
            )
        if isinstance(self.card, str):
            object.__setattr__(self, "card", Card.parse(self.card))
        if (self.kind in CARD_KINDS) != (self.card is not None):
            raise RuleError(
                "bad_action",
                f"{self.kind} " + ("needs a card" if self.card is None else "takes no card"),
                field="card",
                value=notation(self.card),
            )
        if self.card is not None and not isinstance(self.card, Card):
            raise RuleError(
                "bad_action",
                f"{shown(self.card)} is not a card",
                field="card",
                value=short_repr(self.card),
            )

    def __str__(self) -> str:
        return self.text()

    def text(self, with_player: bool = True) -> str:
        """The move in its notation: "discard 1 7H", or without the player "discard 7H" (a knock's
        own layout and a defender's own lay-offs are not part of it: read back, the engine plays
        its best ones).

        >>> Action("pass", 0).text(), Action("knock", 1, Card.parse("TS")).text(with_player=False)
        ('pass 0', 'knock TS')
        """
        words: list[str] = [self.kind, str(self.player)] if with_player else [self.kind]
        if self.card is not None:
            words.append(str(self.card))
        return " ".join(words)

    @classmethod
    def parse(cls, text: str, player: int | None = None) -> Action:
        """A move in its notation, as :meth:`text` writes it: the kind, the player (0 or 1), then
        the card for a move that names one ("discard 1 7H", "take_upcard 0"); with ``player``
        given, the text leaves the player out ("discard 7H", "pass"). Any case for the card, any
        spaces between.

        Each way a move can be miswritten is refused with ``bad_action`` (``field`` "move",
        ``value`` the text quoted, ``expected`` what a move looks like); a card that is not one
        with its :class:`CardError`.

        >>> Action.parse("  knock 0 ks ")
        Action(kind='knock', player=0, card=Card.parse('KS'))
        >>> Action.parse("draw_stock", player=1)
        Action(kind='draw_stock', player=1, card=None)
        >>> Action.parse("discard 2 7H")
        Traceback (most recent call last):
        ...
        ginrummy.errors.RuleError: a move must be a move with its player, like "discard 1", not 'discard 2 7H'
        >>> Action.parse("pass 7H", player=0)
        Traceback (most recent call last):
        ...
        ginrummy.errors.RuleError: a move must be the move "pass" alone, not 'pass 7H'
        """
        if player is not None and (not whole_number(player) or player not in (0, 1)):
            raise RuleError(
                "bad_action",
                f"player must be 0 or 1, not {shown(player)}",
                field="player",
                value=short_repr(player),
            )
        words = text.split() if isinstance(text, str) and len(text) <= MAX_MOVE_TEXT else []
        kind = words[0] if words else ""
        if kind not in ACTION_KINDS:
            raise _bad_move(text, "a move, one of " + ", ".join(ACTION_KINDS))
        rest = words[1:]
        if player is None:
            if not rest or rest[0] not in ("0", "1"):
                raise _bad_move(text, f'a move with its player, like "{kind} 1"')
            player, rest = int(rest[0]), rest[1:]
        if kind in CARD_KINDS and len(rest) != 1:
            raise _bad_move(text, f'a move with one card, like "{kind} 7H"')
        if kind not in CARD_KINDS and rest:
            raise _bad_move(text, f'the move "{kind}" alone')
        return cls(kind, player, Card.parse(rest[0]) if rest else None)

    def __repr__(self) -> str:
        extra = "".join(
            f", {name}={getattr(self, name)!r}"
            for name in ("melds", "lay_offs")
            if getattr(self, name) is not None
        )
        return f"Action(kind={self.kind!r}, player={self.player!r}, card={self.card!r}{extra})"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "player": self.player}
        if self.card is not None:
            data["card"] = str(self.card)
        if self.melds is not None:
            data["melds"] = melds_json(self.melds)
        if self.lay_offs is not None:
            data["lay_offs"] = lay_offs_json(self.lay_offs)
        return data

    @classmethod
    def from_json(cls, data: object) -> Action:
        if isinstance(data, Action):
            return data
        if not isinstance(data, dict):
            raise RuleError(
                "bad_action",
                f"an action must be an object, not {shown(data)}",
                field="action",
                value=short_repr(data),
            )
        unknown = set(data) - {"kind", "player", "card", "melds", "lay_offs"}
        if unknown:
            name = sorted(unknown)[0]
            raise RuleError(
                "bad_action",
                f"unknown field {shown(name)} in an action",
                field=quote(name),
                value=short_repr(data[name]),
            )
        for name in ("kind", "player"):
            if name not in data:
                raise RuleError("bad_action", f"an action needs {name!r}", field=name, value=None)
        card = data.get("card")
        if card is not None and not isinstance(card, str):
            raise RuleError(
                "bad_action",
                f"card must be written like 7H, not {shown(card)}",
                field="card",
                value=short_repr(card),
            )
        melds, plays = data.get("melds"), data.get("lay_offs")
        if melds is not None and not isinstance(melds, list):
            raise RuleError(
                "bad_action", "melds must be a list of melds", field="melds", value=quote(melds)
            )
        if plays is not None:
            if not isinstance(plays, list) or not all(
                isinstance(p, dict) and set(p) == {"card", "meld"} for p in plays
            ):
                raise RuleError(
                    "bad_action",
                    "lay_offs must be a list of {card, meld}",
                    field="lay_offs",
                    value=quote(plays),
                )
            plays = [(p["card"], p["meld"]) for p in plays]
        # __post_init__ parses the card and checks the melds and lay-offs
        return cls(data["kind"], data["player"], card, melds, plays)  # type: ignore[arg-type]


def melds_json(melds: tuple[Meld, ...]) -> list[str]:
    """Melds as JSON, each in notation: an action's ``melds``, a state's ``layout``."""
    return [str(meld) for meld in melds]


def lay_offs_json(lay_offs: tuple[tuple[Card, int], ...]) -> list[dict[str, Any]]:
    """Lay-offs as JSON, ``{"card": "7H", "meld": 0}`` each: an action's ``lay_offs``, a
    state's ``laid_off``."""
    return [{"card": str(card), "meld": index} for card, index in lay_offs]


MAX_MOVE_TEXT = 100
"""The longest text :meth:`Action.parse` reads (a move is at most about 20 characters)."""


def _bad_move(text: object, expected: str) -> RuleError:
    return RuleError(
        "bad_action",
        f"a move must be {expected}, not {shown(text)}",
        field="move",
        value=quote(text),
        expected=expected,
    )


MAX_MELDS = 10
"""The most melds a layout may have (10 cards make at most 3)."""
MAX_LAY_OFFS = 10
"""The most lay-offs a defender may play (they hold 10 cards)."""


def _lay_off_pairs(kind: str, plays: Any) -> tuple[tuple[Card, int], ...]:
    """The lay-offs of a ``lay_off`` action as ``(Card, int)`` pairs, shapes checked."""
    if kind != "lay_off":
        raise RuleError(
            "bad_action", f"{kind} takes no lay-offs", field="lay_offs", value=quote(plays)
        )
    if isinstance(plays, (str, dict)) or not hasattr(plays, "__iter__"):
        raise RuleError(
            "bad_action",
            "lay-offs are a list of (card, meld number) pairs",
            field="lay_offs",
            value=quote(plays),
        )
    plays = list(itertools.islice(plays, MAX_LAY_OFFS + 1))
    if len(plays) > MAX_LAY_OFFS:
        raise RuleError(
            "bad_action",
            f"the defender has only {MAX_LAY_OFFS} cards to lay off",
            field="lay_offs",
            value=len(plays),
        )
    pairs = []
    for play in plays:
        if (
            not isinstance(play, (tuple, list))
            or len(play) != 2
            or not whole_number(play[1])
            or not isinstance(play[0], (str, Card))
        ):
            raise RuleError(
                "bad_action",
                "a lay-off is a card and a meld number",
                field="lay_offs",
                value=quote(play),
            )
        pairs.append((Card.parse(play[0]), play[1]))
    return tuple(pairs)
