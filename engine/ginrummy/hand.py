"""One 2-player hand, turn by turn: an immutable :class:`HandState` and pure transitions.

This module deals a hand and moves it on (:func:`deal`, :func:`legal_actions`, :func:`apply`);
the moves themselves, :class:`Action`, are in :mod:`ginrummy.actions`, and the state with its
history and its JSON in :mod:`ginrummy.hand_state`. Every name of those two is importable from
here.

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
In notation, ``"discard 0 7H"``; :meth:`Action.parse` reads it back.

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
:meth:`HandState.from_json` (:mod:`ginrummy.hand_state`) raises ``bad_state`` and the
other codes listed there.

:func:`legal_actions` lists both ``knock`` and ``gin`` for a discard that leaves deadwood 0
(they score the same), so :func:`apply` accepts exactly the listed actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .actions import (
    CARD_KINDS,
    DRAW_KINDS,
    KNOCK_KINDS,
    MAX_LAY_OFFS,
    MAX_MELDS,
    MAX_MOVE_TEXT,
    TAKE_KINDS,
    Action,
)
from .cards import DECK, Card, CardsLike, Hand, parse_cards, unchecked_hand
from .ending import check_ending, verdict
from .errors import RuleError, short_repr, shown, whole_number
from .hand_state import (
    END_OF_STOCK,
    JSON_VERSION,
    MAX_HISTORY,
    MAX_RESHUFFLES,
    PHASES,
    SEEN_KINDS,
    STATE_OUTCOMES,
    Event,
    HandState,
    fast_replace,
    known_cards,
    layout_deadwood,
    rules_from_json,
    score_state,
)
from .melds import min_deadwood, min_deadwood_after_discard_mask, min_deadwood_mask
from .rules import RuleSet, get_rules
from .scoring import knocker_layout
from .vocab import ACTION_KINDS, ActionKind, Phase

__all__ = [
    "ACTION_KINDS",
    "CARD_KINDS",
    "DRAW_KINDS",
    "END_OF_STOCK",
    "JSON_VERSION",
    "KNOCK_KINDS",
    "MAX_HISTORY",
    "MAX_LAY_OFFS",
    "MAX_MELDS",
    "MAX_MOVE_TEXT",
    "MAX_RESHUFFLES",
    "PHASES",
    "PHASE_OF",
    "SEEN_KINDS",
    "STATE_OUTCOMES",
    "TAKE_KINDS",
    "TRANSITIONS",
    "Action",
    "Event",
    "HandState",
    "apply",
    "deal",
    "fast_replace",
    "known_cards",
    "layout_deadwood",
    "legal_actions",
    "legal_for",
    "rules_from_json",
    "score_state",
]

PHASE_OF: dict[ActionKind, Phase] = {
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
    phase: Phase,
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
        if kind in KNOCK_KINDS:
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
        if action.kind in TAKE_KINDS
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


def _big_gin(state: HandState, action: Action) -> HandState:
    check_ending(
        "big_gin", min_deadwood_mask(state.hands[action.player].mask), state.rules, state.upcard
    )
    return _finish(fast_replace(state, taken=None, knocker=action.player, ending="big_gin"))


def _lay_off(state: HandState, action: Action) -> HandState:
    return _finish(fast_replace(state, laid_off=action.lay_offs))


def _finish(state: HandState) -> HandState:
    result = score_state(state)
    return fast_replace(
        state, phase="finished", turn=state.knocker, outcome=result.outcome, result=result
    )


TRANSITIONS: dict[ActionKind, Callable[[HandState, Action], HandState]] = {
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


def _give(hands: tuple[Hand, Hand], player: int, card: Card) -> tuple[Hand, Hand]:
    hand = hands[player]
    return _set(hands, player, unchecked_hand(tuple(hand) + (card,), hand.mask | card.bit))


def _set(hands: tuple[Hand, Hand], player: int, hand: Hand) -> tuple[Hand, Hand]:
    return (hand, hands[1]) if player == 0 else (hands[0], hand)


def _without(hand: Hand, card: Card) -> Hand:
    return unchecked_hand(tuple(c for c in hand if c is not card), hand.mask & ~card.bit)
