"""One 2-player hand, turn by turn: an immutable :class:`HandState` and pure transitions.

The players are ``0`` and ``1`` (as on the score sheets of :mod:`ginrummy.game`). A hand goes
through these phases (``state.phase``); ``state.turn`` is the player to act:

- ``offer``: the first upcard is offered to the non-dealer, who may ``take_upcard`` or ``pass``;
  then, if they passed, to the dealer. If both pass, the non-dealer must draw from the stock.
- ``draw``: ``draw_stock`` or ``draw_discard`` (the top of the discard pile).
- ``discard``: with 11 cards, ``discard`` a card, or end the hand: ``knock`` (discard face down
  with deadwood at most the knock limit; in Oklahoma the upcard sets it), ``gin`` (discard
  face down leaving deadwood 0) or ``big_gin`` (all 11 cards melded, no discard; only when
  ``rules.big_gin_bonus`` is not None). The card taken from the discard pile this turn (the
  upcard too, when taken at the offer) may not be discarded, nor knocked with, that turn.
  A ``knock`` whose deadwood is 0 is gin and is scored as gin. A knock (or gin) may carry
  the knocker's own ``melds``; without them the engine lays out the melds best for the
  knocker. Either way ``state.layout`` holds them from then on.
- ``lay_off`` (after a knock, not after gin or big gin): the defender's one action,
  ``lay_off``: they lay out their melds and lay off onto the knocker's melds (``layout``).
  The action may carry the defender's own ``lay_offs`` (``(card, meld index)`` in order, each
  checked by :func:`ginrummy.layoffs.check_lay_offs`); without them the engine makes the
  choices that leave the defender the least deadwood (via :func:`ginrummy.scoring.score_hand`).
- ``finished``: ``state.outcome`` is ``"knock"``, ``"gin"``, ``"big_gin"``, ``"undercut"``
  (from ``state.result``, a :class:`~ginrummy.scoring.HandResult`) or ``"dead"``;
  :meth:`HandState.entry` gives the score-sheet entry. ``turn`` no longer matters.

**End of stock.** When a player discards without knocking and leaves 2 cards in the stock,
the hand ends. With ``end_of_stock="void"`` (the default, the standard rule) it is dead:
``outcome`` is ``"dead"``, nobody scores, and the same dealer deals again. With
``end_of_stock="reshuffle"`` (seed 002's variant) the discard pile except its top card is
shuffled and put under the 2 stock cards, and play goes on; the shuffle is
``random.Random(<the pile's cards as notation>)``, so it is deterministic. This happens at most
``MAX_RESHUFFLES`` (1) times a hand, so every hand ends: when the new stock also runs down to
2 cards (or the pile holds nothing to reshuffle) the hand is dead.

**Actions** are :class:`Action` values: ``kind`` (one of :data:`ACTION_KINDS`), ``player``,
and ``card`` for ``discard``, ``knock`` and ``gin``. As JSON:
``{"kind": "discard", "player": 0, "card": "7H"}``; :meth:`Action.from_json` reads it back.

**Public history.** ``state.history`` lists every move as both players saw it
(:class:`Event`): the card of a take from the discard pile and of a discard, but not a card
drawn from the stock nor a knock's face-down discard. :func:`known_cards` reads from it the
cards a player is known to hold; :func:`ginrummy.public.view` gives all a player may know.

>>> state = deal(seed=7)
>>> state.phase, state.turn, len(state.stock), str(state.upcard)
('offer', 1, 31, '9H')
>>> [str(a) for a in legal_actions(state)]
['take_upcard 1', 'pass 1']
>>> state = apply(state, Action("pass", 1))
>>> state = apply(state, {"kind": "pass", "player": 0})
>>> state.phase, state.turn, [a.kind for a in legal_actions(state)]
('draw', 1, ['draw_stock'])
>>> apply(state, Action("draw_discard", 1))
Traceback (most recent call last):
...
ginrummy.errors.RuleError: both players passed the upcard: draw from the stock

**Errors.** :func:`apply` raises :class:`RuleError` with one of these codes (params in
brackets):

- ``hand_over``: the hand is finished (``kind``);
- ``not_your_turn``: (``player``, ``turn``);
- ``wrong_phase``: this kind of action is not played in this phase (``kind``, ``phase``);
- ``must_draw_stock``: both players passed the upcard, so the non-dealer draws from the stock;
- ``discard_pile_empty``: nothing to take;
- ``card_not_in_hand`` (``card``);
- ``cannot_discard_taken_card``: the card was taken from the discard pile this turn (``card``);
- ``knock_over_limit`` (``deadwood``, ``limit``);
- ``gin_required``: Oklahoma with an ace upcard (``deadwood``, ``upcard``);
- ``not_gin`` (``deadwood``);
- ``big_gin_not_played``: these rules have no big gin (``rules``);
- ``not_big_gin``: the 11 cards are not all melded (``deadwood``);
- ``bad_action``: malformed action or action JSON (``field``, ``value``); a bad card in it
  raises :class:`CardError`;
- a knocker's layout: ``not_a_meld`` (``meld``), ``meld_not_in_hand`` (``card``), and the
  knock errors above for the deadwood it leaves; a defender's lay-offs: ``card_not_in_hand``,
  ``no_such_meld`` (``index``, ``count``), ``cannot_lay_off`` (``card``, ``meld``).

:func:`deal` raises :class:`CardError` (``wrong_count``, ``duplicate_card``, ``unknown_rank``,
``unknown_suit`` … for a bad deck) or :class:`RuleError` ``bad_setting`` (``setting``,
``value``: a bad dealer, seed or end_of_stock, or both a seed and a deck).
:meth:`HandState.from_json` raises :class:`RuleError` ``bad_state`` (``field``, ``value``), or
for its rules ``unknown_rules``, ``unknown_rule`` or ``bad_rule``, for a knocker's layout that
does not end the hand as the state says ``meld_not_in_hand``, ``knock_over_limit``, ``not_gin``
or ``gin_required``: never a bare ``KeyError``. A bad card, or a layout that is not melds, is
``bad_state`` naming the field that holds it (``cards`` for a card missing or held twice).

:func:`legal_actions` lists both ``knock`` and ``gin`` for a discard that leaves deadwood 0
(they score the same), so :func:`apply` accepts exactly the listed actions.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from .cards import DECK, Card, CardsLike, Hand, parse_cards, unchecked_hand
from .ending import check_ending, verdict
from .errors import CardError, GinRummyError, RuleError, quote, short_repr, shown, whole_number
from .game import HandEntry
from .layoffs import check_melds
from .melds import Meld, min_deadwood, min_deadwood_after_discard_mask, min_deadwood_mask
from .rules import RuleSet, get_rules
from .scoring import OUTCOMES as SCORED
from .scoring import HandResult, knocker_layout, score_hand

PHASES = ("offer", "draw", "discard", "lay_off", "finished")
ACTION_KINDS = (
    "take_upcard",
    "pass",
    "draw_stock",
    "draw_discard",
    "discard",
    "knock",
    "gin",
    "big_gin",
    "lay_off",
)
CARD_KINDS = ("discard", "knock", "gin")
"""The action kinds that name a card."""
PHASE_OF = {
    "take_upcard": "offer",
    "pass": "offer",
    "draw_stock": "draw",
    "draw_discard": "draw",
    "discard": "discard",
    "knock": "discard",
    "gin": "discard",
    "big_gin": "discard",
    "lay_off": "lay_off",
}
END_OF_STOCK = ("void", "reshuffle")
MAX_RESHUFFLES = 1
OUTCOMES = (*SCORED, "dead")
"""How a hand ends: a scored outcome, or void (dead)."""
JSON_VERSION = 1


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

    kind: str
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
            if self.kind not in ("knock", "gin"):
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
                value=_text(self.card),
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
        words = [self.kind, str(self.player)] if with_player else [self.kind]
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
            data["melds"] = [str(m) for m in self.melds]
        if self.lay_offs is not None:
            data["lay_offs"] = [{"card": str(c), "meld": i} for c, i in self.lay_offs]
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


SEEN_KINDS = ("take_upcard", "draw_discard", "discard")
"""The moves whose card both players see (the knock's discard is face down)."""
MAX_HISTORY = 2000
"""The most events a hand state read from JSON may hold (real hands have well under 200)."""


@dataclass(frozen=True)
class Event:
    """One public move of a hand: what both players saw. ``card`` is the card taken from the
    discard pile (``take_upcard``, ``draw_discard``) or discarded face up (``discard``), else
    None: a card drawn from the stock and a knock's face-down discard stay hidden.

    >>> Event("draw_discard", 1, Card.parse("7H"))
    Event(kind='draw_discard', player=1, card=Card.parse('7H'))
    >>> Event.from_json({"kind": "pass", "player": 0}).to_json()
    {'kind': 'pass', 'player': 0}
    """

    kind: str
    player: int
    card: Card | None = None

    def __post_init__(self) -> None:
        if self.kind not in ACTION_KINDS:
            raise _bad("history", f"unknown move {shown(self.kind)} in the history", self.kind)
        if not whole_number(self.player) or self.player not in (0, 1):
            raise _bad("history", f"player must be 0 or 1, not {shown(self.player)}", self.player)
        if (self.kind in SEEN_KINDS) != isinstance(self.card, Card):
            raise _bad(
                "history",
                f"{self.kind} in the history "
                + ("shows a card" if self.kind in SEEN_KINDS else "shows no card"),
                self.card,
            )

    def __str__(self) -> str:
        return f"{self.kind} {self.player}{'' if self.card is None else ' ' + str(self.card)}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "player": self.player}
        if self.card is not None:
            data["card"] = str(self.card)
        return data

    @classmethod
    def from_json(cls, data: object) -> Event:
        if not isinstance(data, dict) or set(data) - {"kind", "player", "card"}:
            raise _bad("history", "an event is an object with kind, player and card", data)
        card = data.get("card")
        if card is not None:
            if not isinstance(card, str):
                raise _bad("history", "an event's card is written like 7H", card)
            card = Card.parse(card)
        return cls(data.get("kind"), data.get("player"), card)  # type: ignore[arg-type]  # checked by __post_init__


@dataclass(frozen=True)
class HandState:
    """Everything about a hand at one moment. Build with :func:`deal`, move with :func:`apply`.

    ``stock`` is in drawing order (``stock[0]`` is the top card); ``discards`` is the discard
    pile bottom to top (``discards[-1]`` is the top). ``hands`` keep the order cards arrived.
    ``taken`` is the card taken from the discard pile this turn; ``stock_only`` is set when both
    players passed the upcard. ``history`` holds the public moves (:class:`Event`). After a
    knock, ``knocker``, ``ending`` (``knock``, ``gin`` or ``big_gin``), ``knock_discard`` (the
    face-down card, None for big gin) and ``layout`` are set; once finished, ``outcome``,
    ``laid_off`` and (unless the hand is dead) ``result``.
    """

    rules: RuleSet
    dealer: int
    hands: tuple[Hand, Hand]
    stock: tuple[Card, ...]
    discards: tuple[Card, ...]
    upcard: Card
    phase: str
    turn: int
    end_of_stock: str = "void"
    taken: Card | None = None
    stock_only: bool = False
    reshuffles: int = 0
    knocker: int | None = None
    ending: str | None = None
    knock_discard: Card | None = None
    outcome: str | None = None
    history: tuple[Event, ...] = ()
    """The public moves so far, oldest first (see :class:`Event`)."""
    layout: tuple[Meld, ...] | None = None
    """After a knock or gin: the knocker's melds as laid out (their own choice, or the engine's
    best for them)."""
    laid_off: tuple[tuple[Card, int], ...] | None = None
    """Once finished after a knock: the defender's own lay-offs, or None when the engine
    played the best ones."""
    result: HandResult | None = field(default=None, compare=False, repr=False)
    """Derived from the rest of the state (so left out of ``==``)."""

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    @property
    def finished(self) -> bool:
        return self.phase == "finished"

    def entry(self) -> HandEntry | None:
        """The score-sheet entry for a finished hand (None while playing or for a dead hand)."""
        if self.result is None:
            return None
        assert self.knocker is not None  # a scored hand has a knocker
        return HandEntry.from_result(self.result, self.knocker, self.rules, self.upcard)

    def to_json(self) -> dict[str, Any]:
        """Every field as JSON values; :meth:`from_json` reads it back to an equal state."""
        return {
            "version": JSON_VERSION,
            "rules": self.rules.to_json(),
            "dealer": self.dealer,
            "hands": [str(h) for h in self.hands],
            "stock": _text(self.stock),
            "discards": _text(self.discards),
            "upcard": str(self.upcard),
            "phase": self.phase,
            "turn": self.turn,
            "end_of_stock": self.end_of_stock,
            "taken": _text(self.taken),
            "stock_only": self.stock_only,
            "reshuffles": self.reshuffles,
            "knocker": self.knocker,
            "ending": self.ending,
            "knock_discard": _text(self.knock_discard),
            "outcome": self.outcome,
            "history": [event.to_json() for event in self.history],
            "layout": None if self.layout is None else [str(m) for m in self.layout],
            "laid_off": None
            if self.laid_off is None
            else [{"card": str(c), "meld": i} for c, i in self.laid_off],
            "result": self.result.to_json() if self.result is not None else None,
        }

    @classmethod
    def from_json(cls, data: object) -> HandState:
        """A state from :meth:`to_json` output, checked: coded errors, never a ``KeyError``.

        ``result`` is not read: it is scored again from the cards.
        """
        return _state_from_json(data)


def deal(
    seed: int | None = None,
    deck: CardsLike | None = None,
    dealer: int = 0,
    rules: str | RuleSet | dict[str, Any] = "standard",
    end_of_stock: str = "void",
) -> HandState:
    """Deal a hand: from ``deck`` (52 distinct cards, top first) or a shuffle of
    :data:`~ginrummy.cards.DECK` by ``random.Random(seed)``.

    Ten cards each, one at a time, the non-dealer first; the 21st card is turned up; the rest
    is the stock.

    >>> state = deal(deck=DECK, dealer=1)
    >>> str(state.hands[0]), str(state.hands[1]), str(state.upcard), str(state.stock[0])
    ('AS 3S 5S 7S 9S JS KS 2H 4H 6H', '2S 4S 6S 8S TS QS AH 3H 5H 7H', '8H', '9H')
    >>> deal(deck=DECK[:51])
    Traceback (most recent call last):
    ...
    ginrummy.errors.CardError: expected 52 cards, got 51
    """
    rules = get_rules(rules)
    if not whole_number(dealer) or dealer not in (0, 1):
        raise RuleError(
            "bad_setting",
            f"dealer must be player 0 or 1, not {shown(dealer)}",
            setting="dealer",
            value=short_repr(dealer),
        )
    if end_of_stock not in END_OF_STOCK:
        raise RuleError(
            "bad_setting",
            f"end_of_stock must be one of {', '.join(END_OF_STOCK)}, not {shown(end_of_stock)}",
            setting="end_of_stock",
            value=short_repr(end_of_stock),
        )
    if deck is not None and seed is not None:
        raise RuleError(
            "bad_setting", "give a seed or a deck, not both", setting="seed", value=short_repr(seed)
        )
    if deck is None:
        if seed is not None and (not whole_number(seed)):
            raise RuleError(
                "bad_setting",
                f"seed must be a whole number, not {shown(seed)}",
                setting="seed",
                value=short_repr(seed),
            )
        order = list(DECK)
        random.Random(seed).shuffle(order)
        deck = Hand(order)
    else:
        deck = parse_cards(deck, count=52)
    non_dealer = 1 - dealer
    first, second = Hand(deck[0:20:2]), Hand(deck[1:20:2])  # the non-dealer's, the dealer's
    hands = (first, second) if non_dealer == 0 else (second, first)
    return HandState(
        rules=rules,
        dealer=dealer,
        hands=hands,
        stock=tuple(deck[21:]),
        discards=(deck[20],),
        upcard=deck[20],
        phase="offer",
        turn=non_dealer,
        end_of_stock=end_of_stock,
    )


def legal_actions(state: HandState) -> list[Action]:
    """Every action :func:`apply` accepts now, in a fixed order (cards in hand order).

    >>> state = apply(deal(seed=7), Action("take_upcard", 1))
    >>> [a.kind for a in legal_actions(state)].count("discard")
    10
    """
    return legal_for(
        state.phase,
        state.turn,
        state.hands[state.turn],
        state.taken,
        state.stock_only,
        bool(state.discards),
        state.rules,
        state.upcard,
    )


def legal_for(
    phase: str,
    player: int,
    hand: Hand,
    taken: Card | None,
    stock_only: bool,
    pile: bool,
    rules: RuleSet,
    upcard: Card,
) -> list[Action]:
    """The legal actions from what the player to act knows (``pile``: the pile has a card)."""
    if phase == "offer":
        return [Action("take_upcard", player), Action("pass", player)]
    if phase == "draw":
        actions = [Action("draw_stock", player)]
        if not stock_only and pile:
            actions.append(Action("draw_discard", player))
        return actions
    if phase == "lay_off":
        return [Action("lay_off", player)]
    if phase != "discard":
        return []
    actions = []
    for card in hand:
        if card is taken:
            continue
        actions.append(Action("discard", player, card))
        kind = verdict(min_deadwood_mask(hand.mask ^ card.bit), rules, upcard).kind
        if kind in ("knock", "gin"):
            actions.append(Action("knock", player, card))
        if kind == "gin":
            actions.append(Action("gin", player, card))
    best = verdict(
        min_deadwood_after_discard_mask(hand.mask),
        rules,
        upcard,
        big_gin=min_deadwood_mask(hand.mask) == 0,
    )
    if best.kind == "big_gin":
        actions.append(Action("big_gin", player))
    return actions


def apply(state: HandState, action: Action | dict[str, Any]) -> HandState:
    """The state after ``action`` (an :class:`Action` or its JSON); illegal actions raise
    :class:`RuleError` with a code (see the module docstring)."""
    action = Action.from_json(action)
    if state.phase == "finished":
        raise RuleError("hand_over", "the hand is over", kind=action.kind)
    if action.player != state.turn:
        raise RuleError(
            "not_your_turn",
            f"it is player {state.turn}'s turn, not player {action.player}'s",
            player=action.player,
            turn=state.turn,
        )
    if PHASE_OF[action.kind] != state.phase:
        raise RuleError(
            "wrong_phase",
            f"cannot {action.kind} in the {state.phase} phase",
            kind=action.kind,
            phase=state.phase,
        )
    after = TRANSITIONS[action.kind](state, action)
    seen = (
        state.discards[-1]
        if action.kind in ("take_upcard", "draw_discard")
        else (action.card if action.kind == "discard" else None)
    )
    return fast_replace(after, history=state.history + (Event(action.kind, action.player, seen),))


def _take_upcard(state: HandState, action: Action) -> HandState:
    card = state.discards[-1]
    return fast_replace(
        state,
        hands=_give(state.hands, action.player, card),
        discards=state.discards[:-1],
        phase="discard",
        taken=card,
    )


def _pass(state: HandState, action: Action) -> HandState:
    if action.player == state.non_dealer:
        return fast_replace(state, turn=state.dealer)
    return fast_replace(state, phase="draw", turn=state.non_dealer, stock_only=True)


def _draw_stock(state: HandState, action: Action) -> HandState:
    card = state.stock[0]
    return fast_replace(
        state,
        hands=_give(state.hands, action.player, card),
        stock=state.stock[1:],
        phase="discard",
        taken=None,
        stock_only=False,
    )


def _draw_discard(state: HandState, action: Action) -> HandState:
    if state.stock_only:
        raise RuleError("must_draw_stock", "both players passed the upcard: draw from the stock")
    if not state.discards:
        raise RuleError("discard_pile_empty", "the discard pile is empty")
    card = state.discards[-1]
    return fast_replace(
        state,
        hands=_give(state.hands, action.player, card),
        discards=state.discards[:-1],
        phase="discard",
        taken=card,
    )


def _check_discard(state: HandState, action: Action) -> Hand:
    """The hand left after discarding ``action.card``, if the card may be discarded."""
    hand = state.hands[action.player]
    assert action.card is not None  # Action checks that a discard names a card
    if action.card not in hand:
        raise RuleError(
            "card_not_in_hand",
            f"{action.card} is not in player {action.player}'s hand",
            card=str(action.card),
        )
    if action.card is state.taken:
        raise RuleError(
            "cannot_discard_taken_card",
            f"{action.card} was just taken from the discard pile: it cannot be discarded this turn",
            card=str(action.card),
        )
    return _without(hand, action.card)


def _discard(state: HandState, action: Action) -> HandState:
    rest = _check_discard(state, action)
    hands = _set(state.hands, action.player, rest)
    discards = state.discards + (action.card,)
    other = 1 - action.player
    after = fast_replace(
        state, hands=hands, discards=discards, phase="draw", turn=other, taken=None
    )
    if len(state.stock) > 2:
        return after
    # the stock's last 2 cards or fewer: the other 30 of the 32 not in a hand are on the pile
    if state.end_of_stock == "reshuffle" and state.reshuffles < MAX_RESHUFFLES:
        pile = list(discards[:-1])
        random.Random(" ".join(map(str, pile))).shuffle(pile)
        return fast_replace(
            after,
            stock=state.stock + tuple(pile),
            discards=discards[-1:],
            reshuffles=state.reshuffles + 1,
        )
    return fast_replace(after, phase="finished", outcome="dead")


def _knock(state: HandState, action: Action) -> HandState:
    rest = _check_discard(state, action)
    layout = action.melds
    deadwood = min_deadwood(rest) if layout is None else layout_deadwood(layout, rest)
    ending = check_ending(action.kind, deadwood, state.rules, state.upcard).kind
    if layout is None:  # the engine's best layout for the knocker, shown to the defender
        other = state.hands[1 - action.player]
        layout = knocker_layout(rest, other)
    knocked = fast_replace(
        state,
        hands=_set(state.hands, action.player, rest),
        taken=None,
        knocker=action.player,
        ending=ending,
        knock_discard=action.card,
        layout=layout,
    )
    if ending == "gin":
        return _finish(knocked)
    return fast_replace(knocked, phase="lay_off", turn=1 - action.player)


def layout_deadwood(layout: tuple[Meld, ...], hand: Hand) -> int:
    """The deadwood points ``hand`` keeps out of the melds ``layout`` (checked melds); a meld
    card not in the hand raises ``RuleError("meld_not_in_hand")``."""
    melded = 0
    for meld in layout:
        for card in meld.cards:
            if not card.bit & hand.mask:
                raise RuleError(
                    "meld_not_in_hand",
                    f"{card} is in a meld but not in the knocker's hand",
                    card=str(card),
                )
        melded |= meld.cards.mask
    return sum(card.value for card in hand if not card.bit & melded)


def _big_gin(state: HandState, action: Action) -> HandState:
    check_ending(
        "big_gin", min_deadwood_mask(state.hands[action.player].mask), state.rules, state.upcard
    )
    return _finish(fast_replace(state, taken=None, knocker=action.player, ending="big_gin"))


def _lay_off(state: HandState, action: Action) -> HandState:
    return _finish(fast_replace(state, laid_off=action.lay_offs))


def _finish(state: HandState) -> HandState:
    result = _score(state)
    return fast_replace(
        state, phase="finished", turn=state.knocker, outcome=result.outcome, result=result
    )


def _score(state: HandState) -> HandResult:
    knocker = state.knocker
    assert knocker is not None  # only an ended hand is scored
    return score_hand(
        state.hands[knocker],
        state.hands[1 - knocker],
        state.rules,
        state.upcard,
        knocker_melds=state.layout,
        defender_lay_offs=state.laid_off,
    )


TRANSITIONS = {
    "take_upcard": _take_upcard,
    "pass": _pass,
    "draw_stock": _draw_stock,
    "draw_discard": _draw_discard,
    "discard": _discard,
    "knock": _knock,
    "gin": _knock,
    "big_gin": _big_gin,
    "lay_off": _lay_off,
}


def fast_replace(state: HandState, **changes: Any) -> HandState:
    """``dataclasses.replace`` without its checks (HandState has no ``__post_init__``): a move
    is a few microseconds, which the bots' and the coach's playouts need."""
    new = object.__new__(HandState)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new


def _give(hands: tuple[Hand, Hand], player: int, card: Card) -> tuple[Hand, Hand]:
    hand = hands[player]
    return _set(hands, player, unchecked_hand(tuple(hand) + (card,), hand.mask | card.bit))


def _set(hands: tuple[Hand, Hand], player: int, hand: Hand) -> tuple[Hand, Hand]:
    return (hand, hands[1]) if player == 0 else (hands[0], hand)


def _without(hand: Hand, card: Card) -> Hand:
    return unchecked_hand(tuple(c for c in hand if c is not card), hand.mask & ~card.bit)


def _text(cards: Card | Iterable[object] | None) -> str | None:
    if cards is None:
        return None
    if isinstance(cards, Card):
        return str(cards)
    return " ".join(map(str, cards))


# --- reading a state back from JSON ----------------------------------------------------------

_FIELDS = (
    "version",
    "rules",
    "dealer",
    "hands",
    "stock",
    "discards",
    "upcard",
    "phase",
    "turn",
    "end_of_stock",
    "taken",
    "stock_only",
    "reshuffles",
    "knocker",
    "ending",
    "knock_discard",
    "outcome",
    "history",
    "layout",
    "laid_off",
)


def _bad(field_name: str, message: str, value: object = None) -> RuleError:
    return RuleError("bad_state", message, field=field_name, value=short_repr(value))


def _is(value: object, expected: object) -> bool:
    """``value`` is ``expected``, and of its type: JSON's 1.0 and true are not the number 1."""
    return type(value) is type(expected) and value == expected


_T = TypeVar("_T")


def _read(name: str, read: Callable[[Any], _T], value: Any) -> _T:
    """``read(value)`` for the field ``name`` of a state: an error in it (a bad card, a card
    twice, not a meld) is refused as that field, quoting the card at fault where there is one."""
    try:
        return read(value)
    except GinRummyError as error:
        if error.code == "bad_state":
            raise
        token = error.params.get("token")
        raise _bad(name, f"{name}: {error}", token or value) from None


def rules_from_json(data: object) -> RuleSet:
    if isinstance(data, str):
        return get_rules(data)
    if not isinstance(data, dict):
        raise _bad("rules", "rules must be a preset name or an object", data)
    return RuleSet.from_json(data)


def _state_from_json(data: object) -> HandState:
    if not isinstance(data, dict):
        raise _bad("state", "a hand state must be an object", data)
    missing = [name for name in _FIELDS if name not in data]
    if missing:
        raise _bad(missing[0], f"the hand state has no {missing[0]!r}")
    if not _is(data["version"], JSON_VERSION):
        raise _bad("version", f"unknown state version {shown(data['version'])}", data["version"])
    rules = rules_from_json(data["rules"])

    def cards(name: str, text: object, count: int | None = None) -> Hand:
        if not isinstance(text, str):
            raise _bad(name, f"{name} must be cards written like '7H 8H'", text)
        return _read(name, partial(parse_cards, count=count), text)

    def card(name: str, text: object) -> Card:
        if not isinstance(text, str):
            raise _bad(name, f"{name} must be a card written like 7H", text)
        return cards(name, text, 1)[0]

    def optional_card(name: str, text: object) -> Card | None:
        return None if text is None else card(name, text)

    def choice(name: str, allowed: tuple[Any, ...]) -> Any:
        value = data[name]
        if not any(_is(value, option) for option in allowed):
            raise _bad(name, f"{name} must be one of {', '.join(map(str, allowed))}", value)
        return value

    if not isinstance(data["hands"], list) or len(data["hands"]) != 2:
        raise _bad("hands", "hands must be a list of two hands", data["hands"])
    hands = (cards("hands", data["hands"][0]), cards("hands", data["hands"][1]))
    stock, discards = cards("stock", data["stock"]), cards("discards", data["discards"])
    knock_discard = optional_card("knock_discard", data["knock_discard"])
    everything = list(hands[0]) + list(hands[1]) + list(stock) + list(discards)
    if knock_discard is not None:
        everything.append(knock_discard)
    try:
        parse_cards(everything, count=52)  # every card exactly once
    except CardError as error:
        message = f"the state must hold each of the 52 cards once: {error}"
        raise _bad("cards", message, error.token or len(everything)) from None
    reshuffles = data["reshuffles"]
    if not whole_number(reshuffles) or not 0 <= reshuffles <= MAX_RESHUFFLES:
        raise _bad("reshuffles", f"reshuffles must be 0 to {MAX_RESHUFFLES}", reshuffles)
    if not isinstance(data["stock_only"], bool):
        raise _bad("stock_only", "stock_only must be true or false", data["stock_only"])
    phase = choice("phase", PHASES)
    state = HandState(
        rules=rules,
        dealer=choice("dealer", (0, 1)),
        hands=hands,
        stock=tuple(stock),
        discards=tuple(discards),
        upcard=card("upcard", data["upcard"]),
        phase=phase,
        turn=choice("turn", (0, 1)),
        end_of_stock=choice("end_of_stock", END_OF_STOCK),
        taken=optional_card("taken", data["taken"]),
        stock_only=data["stock_only"],
        reshuffles=reshuffles,
        knocker=choice("knocker", (None, 0, 1)),
        ending=choice("ending", (None, "knock", "gin", "big_gin")),
        knock_discard=knock_discard,
        outcome=choice("outcome", (None,) + OUTCOMES),
        history=_read("history", _history_from_json, data["history"]),
        layout=_read("layout", _layout_from_json, data["layout"]),
        laid_off=_read("laid_off", _laid_off_from_json, data["laid_off"]),
    )
    _check_consistent(state)
    if phase == "finished" and state.outcome != "dead":
        result = _score(state)
        state = fast_replace(state, result=result)
        if result.outcome != state.outcome:
            raise _bad(
                "outcome", f"the cards score {result.outcome}, not {state.outcome}", state.outcome
            )
    return state


def known_cards(history: Iterable[Event], player: int) -> Hand:
    """The cards ``player`` took from the discard pile (the upcard too) and has not discarded
    since, in the order taken: the cards of their hand the other player knows.

    >>> state = apply(deal(seed=7), Action("take_upcard", 1))
    >>> known_cards(state.history, 1), known_cards(state.history, 0)
    (Hand('9H'), Hand(''))
    """
    held: list[Card] = []
    for event in history:
        if event.player != player:
            continue
        if event.kind in ("take_upcard", "draw_discard"):
            assert event.card is not None  # Event checks that these moves show a card
            held.append(event.card)
        elif event.kind == "discard" and event.card in held:
            held.remove(event.card)
    return Hand(held)


def _layout_from_json(data: object) -> tuple[Meld, ...] | None:
    if data is None:
        return None
    if not isinstance(data, list) or len(data) > MAX_MELDS:
        raise _bad("layout", f"the layout must be a list of at most {MAX_MELDS} melds", data)
    return check_melds(data)


def _laid_off_from_json(data: object) -> tuple[tuple[Card, int], ...] | None:
    if data is None:
        return None
    if not isinstance(data, list):
        raise _bad("laid_off", "laid_off must be a list of {card, meld}", data)
    return Action.from_json({"kind": "lay_off", "player": 0, "lay_offs": data}).lay_offs


def _history_from_json(data: object) -> tuple[Event, ...]:
    if not isinstance(data, list):
        raise _bad("history", "the history must be a list of events", data)
    if len(data) > MAX_HISTORY:
        raise _bad("history", f"the history holds more than {MAX_HISTORY} events", len(data))
    return tuple(Event.from_json(event) for event in data)


def _check_consistent(state: HandState) -> None:
    """Card counts and fields that must agree with the phase."""
    sizes = [len(h) for h in state.hands]
    phase, turn = state.phase, state.turn
    expected = [10, 10]
    if phase == "discard":
        expected[turn] = 11
    elif state.ending == "big_gin" and state.knocker is not None:
        expected[state.knocker] = 11  # big gin keeps all 11 cards
    if sizes != expected:
        raise _bad("hands", f"in the {phase} phase the hands hold {expected}, not {sizes}", sizes)
    ended = phase == "lay_off" or (phase == "finished" and state.outcome != "dead")
    if ended != (state.knocker is not None) or ended != (state.ending is not None):
        raise _bad(
            "knocker",
            "knocker and ending are set exactly when someone ended the hand",
            state.knocker,
        )
    if (state.knock_discard is not None) != (ended and state.ending != "big_gin"):
        raise _bad(
            "knock_discard",
            "a knock or gin has a face-down discard, nothing else does",
            _text(state.knock_discard),
        )
    if (phase == "finished") != (state.outcome is not None):
        raise _bad("outcome", "the outcome is set exactly when the hand is finished", state.outcome)
    if phase == "lay_off" and (state.ending != "knock" or turn == state.knocker):
        raise _bad("phase", "only a knock has a lay-off phase, played by the defender", phase)
    if state.taken is not None and (phase != "discard" or state.taken not in state.hands[turn]):
        raise _bad(
            "taken",
            "the taken card must be in the hand of the player discarding",
            _text(state.taken),
        )
    if state.stock_only and (phase != "draw" or turn != state.non_dealer):
        raise _bad("stock_only", "only the non-dealer's first draw can be stock-only", True)
    if phase == "offer" and state.discards != (state.upcard,):
        raise _bad(
            "discards",
            "during the offer the upcard is alone on the discard pile",
            _text(state.discards),
        )
    if phase in ("draw", "discard") and not state.stock:
        raise _bad("stock", "the stock cannot be empty while playing", "")
    if (state.layout is not None) != (state.ending in ("knock", "gin")):
        raise _bad(
            "layout",
            "the knocker's layout is set exactly after a knock or gin",
            _text(state.layout and [c for m in state.layout for c in m.cards]),
        )
    ending = state.ending
    if state.layout is not None and state.knocker is not None and ending is not None:
        # the layout ends the hand as the state says: a knock within the limit, gin at zero
        deadwood = layout_deadwood(state.layout, state.hands[state.knocker])
        if check_ending(ending, deadwood, state.rules, state.upcard).kind != ending:
            raise _bad(
                "ending",
                f"a layout that leaves deadwood {deadwood} ends the hand by gin, not a knock",
                ending,
            )
    if state.laid_off is not None and (state.ending != "knock" or phase != "finished"):
        raise _bad(
            "laid_off",
            "lay-offs are played only once a knock is finished",
            str(state.laid_off)[:40],
        )
    for player in (0, 1):
        for card in _read("history", partial(known_cards, player=player), state.history):
            if card not in state.hands[player] and card is not state.knock_discard:
                raise _bad(
                    "history",
                    f"player {player} took {card} from the discard pile and "
                    "has not discarded it, but does not hold it",
                    str(card),
                )
