"""What one player may know of a hand: :func:`view` and :class:`PlayerView`.

A player sees their own cards, the discard pile, how many cards the stock and the other hand
hold, the public history (:class:`~ginrummy.hand.Event`), and so the cards of the other hand
taken from the discard pile and not discarded since (``known``). Every other card is
``unseen``: in the other hand or in the stock, in an order nobody knows. Once the knocker lays
out their melds (the ``lay_off`` phase) their hand is shown to both; when the hand is finished,
every hand and the knock's face-down discard are shown.

Bots and the coach read only a view, so they cannot use what a player could not know.

>>> from ginrummy.hand import Action, apply, deal
>>> state = apply(deal(seed=7), Action("take_upcard", 1))
>>> seen = view(state, 0)
>>> seen.known, seen.stock_count, seen.opponent_count, len(seen.unseen)
(Hand('9H'), 31, 11, 41)
>>> [str(a) for a in view(state, 1).legal_actions()][:2]
['discard 1 5H', 'discard 1 6D']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import lay_offs_json, melds_json
from .cards import DECK, Card, Hand, cards_from_mask, notation
from .errors import RuleError, whole_number
from .hand import Action, Event, HandState, known_cards, legal_for
from .melds import Meld
from .rules import RuleSet
from .vocab import Ending, Phase, StateOutcome

ALL_CARDS = (1 << len(DECK)) - 1


@dataclass(frozen=True)
class PlayerView:
    """A hand as ``player`` sees it (see the module docstring). ``hand`` is the player's cards in
    the order they arrived; ``taken`` the card taken from the discard pile this turn (by
    whoever is to act); ``knock_discard`` is shown to the knocker, and to both once the hand
    is finished."""

    player: int
    rules: RuleSet
    dealer: int
    upcard: Card
    phase: Phase
    turn: int
    hand: Hand
    discards: tuple[Card, ...]
    known: Hand
    opponent_count: int
    stock_count: int
    unseen: Hand
    taken: Card | None
    stock_only: bool
    end_of_stock: str
    reshuffles: int
    history: tuple[Event, ...]
    knocker: int | None = None
    ending: Ending | None = None
    knock_discard: Card | None = None
    outcome: StateOutcome | None = None
    layout: tuple[Meld, ...] | None = None
    laid_off: tuple[tuple[Card, int], ...] | None = None

    @property
    def opponent(self) -> int:
        return 1 - self.player

    def legal_actions(self) -> list[Action]:
        """The legal actions when it is this player's turn (else none), as
        :func:`ginrummy.hand.legal_actions` gives them."""
        if self.turn != self.player:
            return []
        return legal_for(
            self.phase,
            self.player,
            self.hand,
            self.taken,
            self.stock_only,
            bool(self.discards),
            self.rules,
            self.upcard,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "rules": self.rules.to_json(),
            "dealer": self.dealer,
            "upcard": str(self.upcard),
            "phase": self.phase,
            "turn": self.turn,
            "hand": str(self.hand),
            "discards": notation(self.discards),
            "known": str(self.known),
            "opponent_count": self.opponent_count,
            "stock_count": self.stock_count,
            "unseen": str(self.unseen),
            "taken": notation(self.taken),
            "stock_only": self.stock_only,
            "end_of_stock": self.end_of_stock,
            "reshuffles": self.reshuffles,
            "history": [event.to_json() for event in self.history],
            "knocker": self.knocker,
            "ending": self.ending,
            "knock_discard": notation(self.knock_discard),
            "outcome": self.outcome,
            "layout": None if self.layout is None else melds_json(self.layout),
            "laid_off": None if self.laid_off is None else lay_offs_json(self.laid_off),
            "legal": [action.to_json() for action in self.legal_actions()],
        }


def view(state: HandState, player: int) -> PlayerView:
    """What ``player`` (0 or 1) may know of ``state``; anything else raises ``RuleError``
    ``bad_setting``."""
    if not whole_number(player) or player not in (0, 1):
        raise RuleError(
            "bad_setting",
            f"player must be 0 or 1, not {player!r}",
            setting="player",
            value=repr(player),
        )
    other = 1 - player
    finished = state.phase == "finished"
    if finished or (state.phase == "lay_off" and state.knocker == other):
        known = state.hands[other]
    else:
        known = known_cards(state.history, other)
    shown = state.knock_discard if finished or state.knocker == player else None
    hand = state.hands[player]
    seen = hand.mask | known.mask | (shown.bit if shown is not None else 0)
    for card in state.discards:
        seen |= card.bit
    return PlayerView(
        player=player,
        rules=state.rules,
        dealer=state.dealer,
        upcard=state.upcard,
        phase=state.phase,
        turn=state.turn,
        hand=hand,
        discards=state.discards,
        known=known,
        opponent_count=len(state.hands[other]),
        stock_count=len(state.stock),
        unseen=cards_from_mask(ALL_CARDS & ~seen),
        taken=state.taken,
        stock_only=state.stock_only,
        end_of_stock=state.end_of_stock,
        reshuffles=state.reshuffles,
        history=state.history,
        knocker=state.knocker,
        ending=state.ending,
        knock_discard=shown,
        outcome=state.outcome,
        layout=state.layout,
        laid_off=state.laid_off,
    )
