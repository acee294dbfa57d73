"""A hand at one moment: :class:`HandState`, its public history (:class:`Event`), and its JSON,
written by :meth:`HandState.to_json` and read back, checked, by :meth:`HandState.from_json`. The
transitions that move a state on are in :mod:`ginrummy.hand`, which re-exports every name here.

:meth:`HandState.from_json` raises :class:`RuleError` ``bad_state`` (``field``, ``value``), or
for its rules ``unknown_rules``, ``unknown_rule`` or ``bad_rule``, for a knocker's layout that
does not end the hand as the state says ``meld_not_in_hand``, ``knock_over_limit``, ``not_gin``
or ``gin_required``: never a bare ``KeyError``. A bad card, or a layout that is not melds, is
``bad_state`` naming the field that holds it (``cards`` for a card missing or held twice).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from functools import partial
from typing import Any, TypeVar

from .actions import MAX_MELDS, TAKE_KINDS, Action, lay_offs_json, melds_json
from .cards import Card, Hand, notation, parse_cards
from .ending import check_ending
from .errors import CardError, GinRummyError, RuleError, short_repr, shown, whole_number
from .game import HandEntry
from .layoffs import check_melds
from .melds import Meld
from .rules import RuleSet, get_rules
from .scoring import HandResult, check_melds_in_hand, score_hand
from .vocab import (
    ACTION_KINDS,
    ENDINGS,
    PHASES,
    STATE_OUTCOMES,
    ActionKind,
    Ending,
    Phase,
    StateOutcome,
)

__all__ = [
    "END_OF_STOCK",
    "JSON_VERSION",
    "MAX_HISTORY",
    "MAX_RESHUFFLES",
    "PHASES",
    "SEEN_KINDS",
    "STATE_OUTCOMES",
    "Event",
    "HandState",
    "fast_replace",
    "known_cards",
    "layout_deadwood",
    "rules_from_json",
    "score_state",
]

END_OF_STOCK = ("void", "reshuffle")
MAX_RESHUFFLES = 1
JSON_VERSION = 1


SEEN_KINDS: tuple[ActionKind, ...] = (*TAKE_KINDS, "discard")
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

    kind: ActionKind
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
    phase: Phase
    turn: int
    end_of_stock: str = "void"
    taken: Card | None = None
    stock_only: bool = False
    reshuffles: int = 0
    knocker: int | None = None
    ending: Ending | None = None
    knock_discard: Card | None = None
    outcome: StateOutcome | None = None
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
            "stock": notation(self.stock),
            "discards": notation(self.discards),
            "upcard": str(self.upcard),
            "phase": self.phase,
            "turn": self.turn,
            "end_of_stock": self.end_of_stock,
            "taken": notation(self.taken),
            "stock_only": self.stock_only,
            "reshuffles": self.reshuffles,
            "knocker": self.knocker,
            "ending": self.ending,
            "knock_discard": notation(self.knock_discard),
            "outcome": self.outcome,
            "history": [event.to_json() for event in self.history],
            "layout": None if self.layout is None else melds_json(self.layout),
            "laid_off": None if self.laid_off is None else lay_offs_json(self.laid_off),
            "result": self.result.to_json() if self.result is not None else None,
        }

    @classmethod
    def from_json(cls, data: object) -> HandState:
        """A state from :meth:`to_json` output, checked: coded errors, never a ``KeyError``.

        ``result`` is not read: it is scored again from the cards.
        """
        return _state_from_json(data)


def fast_replace(state: HandState, **changes: Any) -> HandState:
    """``dataclasses.replace`` without its checks (HandState has no ``__post_init__``): a move
    is a few microseconds, which the bots' and the coach's playouts need."""
    new = object.__new__(HandState)
    values = new.__dict__
    values.update(state.__dict__)
    values.update(changes)
    return new


def layout_deadwood(layout: tuple[Meld, ...], hand: Hand) -> int:
    """The deadwood points ``hand`` keeps out of the melds ``layout`` (checked melds); a meld
    card not in the hand raises ``RuleError("meld_not_in_hand")``."""
    melded = check_melds_in_hand(layout, hand)
    return sum(card.value for card in hand if not card.bit & melded)


def score_state(state: HandState) -> HandResult:
    """The score of a hand someone ended (a knock, gin or big gin), from its cards and the
    knocker's layout and the defender's own lay-offs, if any."""
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


def known_cards(history: Iterable[Event], player: int) -> Hand:
    """The cards ``player`` took from the discard pile (the upcard too) and has not discarded
    since, in the order taken: the cards of their hand the other player knows.

    >>> from ginrummy.hand import Action, apply, deal
    >>> state = apply(deal(seed=7), Action("take_upcard", 1))
    >>> known_cards(state.history, 1), known_cards(state.history, 0)
    (Hand('9H'), Hand(''))
    """
    held: list[Card] = []
    for event in history:
        if event.player != player:
            continue
        if event.kind in TAKE_KINDS:
            assert event.card is not None  # Event checks that these moves show a card
            held.append(event.card)
        elif event.kind == "discard" and event.card in held:
            held.remove(event.card)
    return Hand(held)


# --- reading a state back from JSON ----------------------------------------------------------

_FIELDS = ("version", *(f.name for f in fields(HandState) if f.name != "result"))
"""The fields a state's JSON must hold: its version and every field but the derived result."""


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
        ending=choice("ending", (None, *ENDINGS)),
        knock_discard=knock_discard,
        outcome=choice("outcome", (None, *STATE_OUTCOMES)),
        history=_read("history", _history_from_json, data["history"]),
        layout=_read("layout", _layout_from_json, data["layout"]),
        laid_off=_read("laid_off", _laid_off_from_json, data["laid_off"]),
    )
    _check_consistent(state)
    if phase == "finished" and state.outcome != "dead":
        result = score_state(state)
        state = fast_replace(state, result=result)
        if result.outcome != state.outcome:
            raise _bad(
                "outcome", f"the cards score {result.outcome}, not {state.outcome}", state.outcome
            )
    return state


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
            notation(state.knock_discard),
        )
    if (phase == "finished") != (state.outcome is not None):
        raise _bad("outcome", "the outcome is set exactly when the hand is finished", state.outcome)
    if phase == "lay_off" and (state.ending != "knock" or turn == state.knocker):
        raise _bad("phase", "only a knock has a lay-off phase, played by the defender", phase)
    if state.taken is not None and (phase != "discard" or state.taken not in state.hands[turn]):
        raise _bad(
            "taken",
            "the taken card must be in the hand of the player discarding",
            notation(state.taken),
        )
    if state.stock_only and (phase != "draw" or turn != state.non_dealer):
        raise _bad("stock_only", "only the non-dealer's first draw can be stock-only", True)
    if phase == "offer" and state.discards != (state.upcard,):
        raise _bad(
            "discards",
            "during the offer the upcard is alone on the discard pile",
            notation(state.discards),
        )
    if phase in ("draw", "discard") and not state.stock:
        raise _bad("stock", "the stock cannot be empty while playing", "")
    if (state.layout is not None) != (state.ending in ("knock", "gin")):
        raise _bad(
            "layout",
            "the knocker's layout is set exactly after a knock or gin",
            notation(state.layout and [c for m in state.layout for c in m.cards]),
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
