"""Playouts: a hand played to its end by the base policy (:mod:`ginrummy.policy`) for both
players, fast.

:func:`playout` plays the draws and discards between the offer and the end on bit masks
(:func:`_draws_and_discards`), and the offer, the end of the stock and the end of the hand
(knock, gin, big gin, lay-offs, scoring) as the engine's own moves. The moves it plays on
masks are the engine's moves: the tests play the same hands move by move through
:func:`ginrummy.hand.apply` and find the same hand, every field. Each player decides from
what they may know (:func:`policy_action`): their cards, the pile, the cards the other
player took from it and kept, the size of the stock.

A playout that has not ended after :data:`MAX_PLIES` moves (the move cap: no hand is that
long unless the stock is reshuffled) stops there and counts as a dead hand.

>>> from ginrummy.hand import deal
>>> ended = playout(deal(seed=7))
>>> ended.phase, ended.outcome, ended.knocker
('finished', 'undercut', 0)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .cards import Card, Hand, cards_from_mask, unchecked_hand
from .ending import verdict
from .game import HandEntry
from .hand import TAKE_KINDS, TRANSITIONS, Action, HandState, fast_replace, known_cards
from .policy import discard_choice, knocks, least_deadwood, live_mask, takes
from .public import PlayerView
from .rules import RuleSet
from .scoring import score_hand
from .vocab import Phase

MAX_PLIES = 80
"""The move cap of a playout (see the module docstring)."""


def policy_action(state: HandState) -> Action:
    """The base policy's move for ``state.turn``, from what that player may know (their
    cards, the pile, the public history)."""
    known = [known_cards(state.history, player).mask for player in (0, 1)]
    return _policy_move(state, known)


def view_action(seen: PlayerView) -> Action:
    """The base policy's move from a player's view (it must be their turn)."""
    return _move(
        seen.player,
        seen.phase,
        seen.hand.mask,
        seen.discards,
        seen.taken,
        seen.stock_only,
        seen.stock_count,
        seen.rules,
        seen.upcard,
        seen.known.mask,
    )


def _policy_move(state: HandState, known: list[int]) -> Action:
    """The policy's move, ``known[p]`` the cards player ``p`` is known to hold."""
    player = state.turn
    return _move(
        player,
        state.phase,
        state.hands[player].mask,
        state.discards,
        state.taken,
        state.stock_only,
        len(state.stock),
        state.rules,
        state.upcard,
        known[1 - player],
    )


def _move(
    player: int,
    phase: Phase,
    mask: int,
    discards: tuple[Card, ...],
    taken: Card | None,
    stock_only: bool,
    stock: int,
    rules: RuleSet,
    upcard: Card,
    other: int,
) -> Action:
    """The policy's move for ``player`` from what they know (``other``: the cards the other
    player is known to hold)."""
    limit = rules.knock_limit_for(upcard)
    if phase == "offer":
        return Action("take_upcard" if takes(mask, discards[-1], limit) else "pass", player)
    if phase == "draw":
        take = not stock_only and bool(discards) and takes(mask, discards[-1], limit)
        return Action("draw_discard" if take else "draw_stock", player)
    if phase == "lay_off":
        return Action("lay_off", player)
    if rules.big_gin_bonus is not None and least_deadwood(mask) == 0:
        return Action("big_gin", player)
    pile = 0
    for card in discards:
        pile |= card.bit
    live = live_mask(mask, pile, other)
    points, card, _, thrown = discard_choice(mask, taken, live, other, stock)
    kind = verdict(points, rules, upcard).kind
    if kind != "no" and knocks(points, mask ^ card.bit, live, stock, limit):
        return Action(kind, player, card)
    return Action("discard", player, thrown)


def playout(state: HandState) -> HandState:
    """Play the hand to its end with the base policy for both players (module docstring).
    The moves are legal by construction, so they skip :func:`~ginrummy.hand.apply`'s checks
    and the public history (nobody reads it after this)."""
    known = [known_cards(state.history, player).mask for player in (0, 1)]
    plies = 0
    while state.phase != "finished":
        if state.phase in ("draw", "discard"):
            run = _draws_and_discards(state, known, MAX_PLIES - plies)
            plies += run.played
            state = run.state(state)
        if plies >= MAX_PLIES:
            return fast_replace(state, phase="finished", outcome="dead")
        state = _engine_move(state, known)
        plies += 1
    return state


End = tuple[HandEntry | None, str, int | None]
"""How a hand ended: the sheet entry (None: dead), the outcome and the knocker (or None)."""


def playout_end(state: HandState, known: tuple[int, int] | None = None) -> End:
    """How the hand ends when :func:`playout` plays it to its end, scored from the cards
    without building the hand states on the way: the same as :func:`playout`'s (the tests
    check it), faster. Hands ended by a knock, gin or big gin are scored once per pair of
    hands (:func:`score_end`). ``known``: each player's cards the other knows of, when the
    caller has them (else read from the public history)."""
    if known is None:
        known = (known_cards(state.history, 0).mask, known_cards(state.history, 1).mask)
    now = list(known)
    plies = 0
    while state.phase != "finished":
        if state.phase in ("draw", "discard"):
            run = _draws_and_discards(state, now, MAX_PLIES - plies)
            plies += run.played
            # a knock takes two moves (the knock, the lay-offs), gin and big gin one
            if run.ending is not None and plies + 1 + (run.ending[0] == "knock") <= MAX_PLIES:
                _, player, card = run.ending
                mask = run.masks[player]
                knocker = mask if card is None else mask ^ card.bit
                entry, outcome = score_end(
                    knocker, run.masks[1 - player], state.rules, state.upcard, player
                )
                return entry, outcome, player
            state = run.state(state)
        if plies >= MAX_PLIES:
            return None, "dead", None
        state = _engine_move(state, now)
        plies += 1
    return state.entry(), state.outcome or "dead", state.knocker


@functools.lru_cache(maxsize=1 << 13)
def score_end(
    knocker: int, defender: int, rules: RuleSet, upcard: Card, player: int
) -> tuple[HandEntry, str]:
    """The entry and outcome of a hand that ``player`` ended holding ``knocker`` (10 cards, or
    11 for big gin) against ``defender``: :func:`~ginrummy.scoring.score_hand` with the
    knocker's best layout and the defender's best lay-offs, as the engine scores it."""
    result = score_hand(cards_from_mask(knocker), cards_from_mask(defender), rules, upcard)
    return HandEntry.from_result(result, player, rules, upcard), result.outcome


def known_after(known: tuple[int, int], state: HandState, action: Action) -> tuple[int, int]:
    """Each player's cards the other knows of after ``action`` in ``state`` (from before it):
    a card taken from the pile is known, a card thrown no longer held."""
    player = action.player
    mask = known[player]
    if action.kind in TAKE_KINDS:
        mask |= state.discards[-1].bit
    elif action.kind == "discard" and action.card is not None:
        mask &= ~action.card.bit
    return (mask, known[1]) if player == 0 else (known[0], mask)


def _engine_move(state: HandState, known: list[int]) -> HandState:
    """The policy's move played by the engine (the offer, the end of the stock, the end of
    the hand), ``known`` following it."""
    action = _policy_move(state, known)
    if action.kind == "take_upcard":
        known[action.player] |= state.discards[-1].bit
    elif action.kind == "discard":
        assert action.card is not None  # a discard names its card
        known[action.player] &= ~action.card.bit
    return TRANSITIONS[action.kind](state, action)


@dataclass
class _Run:
    """Where :func:`_draws_and_discards` stopped: the masks and piles, the moves played, and
    the ending the player to act chose there (kind, player, card; None: no ending)."""

    masks: list[int]
    new: tuple[list[Card], list[Card]]
    drawn: int
    discards: list[Card]
    turn: int
    phase: Phase
    taken: Card | None
    stock_only: bool
    played: int
    ending: tuple[str, int, Card | None] | None

    def state(self, before: HandState) -> HandState:
        """The hand state then: what :func:`~ginrummy.hand.apply` would give for the same
        moves from ``before``, without the public history."""
        if not self.played:
            return before
        hands = (
            _kept(before.hands[0], self.new[0], self.masks[0]),
            _kept(before.hands[1], self.new[1], self.masks[1]),
        )
        return fast_replace(
            before,
            hands=hands,
            stock=before.stock[self.drawn :],
            discards=tuple(self.discards),
            phase=self.phase,
            turn=self.turn,
            taken=self.taken,
            stock_only=self.stock_only,
        )


def _draws_and_discards(state: HandState, known: list[int], most: int) -> _Run:
    """The policy's draws and discards, played on bit masks from a ``draw`` or ``discard``
    phase, up to ``most`` moves (``known`` follows them). Stops before a move the engine must
    play: big gin, a knock or gin (the ending chosen is kept), or a discard that leaves 2
    cards or fewer in the stock."""
    rules, stock, drawn = state.rules, state.stock, 0
    upcard = state.upcard
    limit = rules.knock_limit_for(upcard)
    big_gin = rules.big_gin_bonus is not None
    masks, discards = [state.hands[0].mask, state.hands[1].mask], list(state.discards)
    pile = 0
    for card in discards:
        pile |= card.bit
    turn, phase, taken, stock_only = state.turn, state.phase, state.taken, state.stock_only
    new: tuple[list[Card], list[Card]] = ([], [])  # each player's cards drawn here, in order
    played = 0
    ending: tuple[str, int, Card | None] | None = None
    while played < most:
        mask = masks[turn]
        if phase == "draw":
            if not stock_only and discards and takes(mask, discards[-1], limit):
                card = taken = discards.pop()
                pile ^= card.bit
                known[turn] |= card.bit
            else:
                card, taken, drawn = stock[drawn], None, drawn + 1
            masks[turn] = mask | card.bit
            new[turn].append(card)
            phase, stock_only = "discard", False
            played += 1
            continue
        if big_gin and least_deadwood(mask) == 0:
            ending = ("big_gin", turn, None)
            break
        other = known[1 - turn]
        live = live_mask(mask, pile, other)
        left = len(stock) - drawn
        points, card, _, thrown = discard_choice(mask, taken, live, other, left)
        if points <= limit and knocks(points, mask ^ card.bit, live, left, limit):
            ending = ("gin" if points == 0 else "knock", turn, card)
            break
        if left <= 2:
            break
        card = thrown
        masks[turn] = mask ^ card.bit
        discards.append(card)
        pile |= card.bit
        known[turn] &= ~card.bit
        turn, phase, taken = 1 - turn, "draw", None
        played += 1
    return _Run(masks, new, drawn, discards, turn, phase, taken, stock_only, played, ending)


def _kept(hand: Hand, drawn: list[Card], mask: int) -> Hand:
    """The hand of ``mask`` in the order the engine's moves keep it: a card drawn goes to the
    end (a card drawn twice, at its last place), a card thrown leaves its place."""
    tail, placed = [], 0
    for card in reversed(drawn):
        if mask & card.bit and not placed & card.bit:
            tail.append(card)
            placed |= card.bit
    kept = [c for c in hand if mask & c.bit and not placed & c.bit]
    return unchecked_hand((*kept, *reversed(tail)), mask)


def points_for(state: HandState, player: int) -> int:
    """A finished hand's score from ``player``'s side: won +, lost -, dead 0."""
    entry = state.entry()
    if entry is None:
        return 0
    return entry.points if entry.winner == player else -entry.points
