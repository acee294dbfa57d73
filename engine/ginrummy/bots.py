"""Computer players: :func:`choose` picks an action for the player to act, at a given level.

There is one mind: the coach (:mod:`ginrummy.advice`), which plays out every choice in worlds
drawn from its opponent model with the base policy (:mod:`ginrummy.policy`) and weighs the
score of the game. The levels (:data:`LEVELS`) are that mind at full strength, or made
weaker on purpose:

- ``strong``: plays the coach's best choice, with :data:`STRONG_PLAYOUTS` playouts per
  decision (more than a first hint's :data:`~ginrummy.advice.HINT_PLAYOUTS`): the teacher is
  at least as strong as the strongest opponent. That is the base policy's move unless the
  coach's playouts show another beats it beyond doubt (:data:`~ginrummy.advice.PRIOR_SE`):
  playing the leader of a dozen noisy estimates, it lost to its own base policy;
- ``intermediate``: no look-ahead: the base policy alone (the move the coach's playouts
  would make for it), with a worse knock rule: it knocks at the first chance;
- ``beginner``: the intermediate, with noise: it takes from the pile only to make a meld,
  and half the time throws a random card that is in no meld rather than the policy's.

A bot reads only :func:`ginrummy.public.view` of the state, so it never uses the other hand's
hidden cards or the order of the stock. Its choice is deterministic for a given ``seed``.
Given a :class:`~ginrummy.match.Game` rather than a hand, the strong bot weighs its score.

>>> from ginrummy.hand import deal
>>> state = deal(seed=7)
>>> choose(state, "beginner", seed=1)
Action(kind='pass', player=1, card=None)
>>> choose(state, "grandmaster")
Traceback (most recent call last):
...
ginrummy.errors.RuleError: no bot level 'grandmaster'; choose one of beginner, intermediate, strong
"""

from __future__ import annotations

import random
from typing import Any

from .advice import advise_view, decision_key, position_of
from .cards import Card
from .errors import RuleError
from .hand import Action
from .melds import arrange
from .playout import view_action
from .policy import joins_meld, least_deadwood, meld_outs
from .public import PlayerView, view
from .standing import Standing
from .vocab import ActionKind

__all__ = ["LEVELS", "choose", "decide", "joins_meld"]

LEVELS = ("beginner", "intermediate", "strong")
STRONG_PLAYOUTS = 192
"""The strong bot's playouts per decision (its worlds: this divided by the choices)."""
NOISE = 0.5
"""How often the beginner throws a random card that is in no meld."""


def choose(position: Any, level: str = "strong", seed: int | None = None) -> Action:
    """The action ``level`` plays for the player to act in ``position`` (a hand state or a
    game). Raises ``RuleError`` ``unknown_level`` (``level``) for an unknown level,
    ``hand_over`` when the hand is finished."""
    if level not in LEVELS:
        raise RuleError(
            "unknown_level",
            f"no bot level {str(level)[:40]!r}; choose one of {', '.join(LEVELS)}",
            level=str(level)[:40],
        )
    state, standing = position_of(position)
    if state.phase == "finished":
        raise RuleError("hand_over", "the hand is over", kind="bot")
    return decide(view(state, state.turn), level, seed, standing)


def decide(
    seen: PlayerView,
    level: str = "strong",
    seed: int | None = None,
    standing: Standing | None = None,
) -> Action:
    """The action ``level`` plays from a player's view (it must be their turn)."""
    actions = seen.legal_actions()
    if len(actions) == 1:
        return actions[0]
    if level == "strong":
        standing = standing or Standing(seen.rules)
        mixed = None if seed is None else int(decision_key(seen, standing)[:12], 16) ^ seed
        return advise_view(seen, standing, None, mixed, playouts=STRONG_PLAYOUTS).best.action
    move = view_action(seen)
    if seen.phase == "discard" and move.kind == "discard":
        ending = _first_knock(seen, actions)
        if ending is not None:
            return ending
    if level == "beginner":
        rng = random.Random(f"{seed}|{seen.hand}|{len(seen.history)}|{seen.phase}")
        return _noisy(seen, actions, move, rng)
    return move


def _first_knock(seen: PlayerView, actions: list[Action]) -> Action | None:
    """Gin or a knock at the first chance: the worse knock rule of the weaker levels."""
    for kind in ("big_gin", "gin", "knock"):
        ends = [a for a in actions if a.kind == kind]
        if ends:
            return min(ends, key=lambda a: _kept(seen, a.card))
    return None


def _kept(seen: PlayerView, card: Card | None) -> tuple[int, int]:
    if card is None:
        return (0, 0)
    return (least_deadwood(seen.hand.mask ^ card.bit), -card.value)


def _noisy(seen: PlayerView, actions: list[Action], move: Action, rng: random.Random) -> Action:
    """The beginner's move: takes only what makes a meld; half the time a random throw of a
    card in no meld."""
    kinds = {a.kind: a for a in actions}
    if seen.phase in ("offer", "draw"):
        top = seen.discards[-1] if seen.discards else None
        melds = top is not None and bool(meld_outs(seen.hand.mask) & top.bit)
        take: ActionKind = "take_upcard" if seen.phase == "offer" else "draw_discard"
        give: ActionKind = "pass" if seen.phase == "offer" else "draw_stock"
        return kinds[take] if melds and take in kinds else kinds[give]
    if move.kind != "discard" or rng.random() >= NOISE:
        return move
    loose = [c for c in arrange(seen.hand).deadwood if c is not seen.taken]
    if not loose:
        return move
    return Action("discard", seen.player, rng.choice(loose))
