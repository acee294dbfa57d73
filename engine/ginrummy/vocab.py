"""The engine's vocabularies, each written once: the names an action, a phase, a way to end a
hand, an outcome, a verdict, a step of an explanation, a coach's reason and a rule may take.

Each is a ``Literal`` type, so that mypy checks every such name the engine, ``ginview`` and
``sitegen`` write (a misspelt ``"draw_stok"`` is a type error, not a branch never taken), with a
tuple of its names, in order, for code that iterates or checks input (``typing.get_args``). A
list of some of them (the action kinds that name a card, say) is a tuple typed by the
vocabulary it draws from, where the module that owns that fact keeps it.

>>> ACTION_KINDS[:3], ENDINGS, OUTCOMES[-1], STATE_OUTCOMES[-1]
(('take_upcard', 'pass', 'draw_stock'), ('knock', 'gin', 'big_gin'), 'undercut', 'dead')
>>> VERDICTS
('big_gin', 'gin', 'knock', 'no')
"""

from __future__ import annotations

from typing import Literal, get_args

__all__ = [
    "ACTION_KINDS",
    "ENDINGS",
    "EXPLAIN_CODES",
    "HAND_STEP_CODES",
    "OUTCOMES",
    "PHASES",
    "RULE_FIELDS",
    "SHEET_STEP_CODES",
    "STATE_OUTCOMES",
    "VERDICTS",
    "ActionKind",
    "Ending",
    "ExplainCode",
    "HandStepCode",
    "Outcome",
    "Phase",
    "ReasonCode",
    "RuleField",
    "SheetStepCode",
    "StateOutcome",
    "VerdictKind",
]

ActionKind = Literal[
    "take_upcard",
    "pass",
    "draw_stock",
    "draw_discard",
    "discard",
    "knock",
    "gin",
    "big_gin",
    "lay_off",
]
"""The kinds of :class:`~ginrummy.actions.Action`: the moves of a hand."""
ACTION_KINDS: tuple[ActionKind, ...] = get_args(ActionKind)

Phase = Literal["offer", "draw", "discard", "lay_off", "finished"]
"""Where a hand stands (:attr:`~ginrummy.hand.HandState.phase`)."""
PHASES: tuple[Phase, ...] = get_args(Phase)

Ending = Literal["knock", "gin", "big_gin"]
"""The ways a player ends a hand (:attr:`~ginrummy.hand.HandState.ending`, the claims
:func:`~ginrummy.ending.check_ending` judges)."""
ENDINGS: tuple[Ending, ...] = get_args(Ending)

Outcome = Literal[Ending, "undercut"]
"""How a scored hand ended (:attr:`~ginrummy.scoring.HandResult.outcome`)."""
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)

StateOutcome = Literal[Outcome, "dead"]
"""How a hand ended (:attr:`~ginrummy.hand.HandState.outcome`): scored, or void (dead)."""
STATE_OUTCOMES: tuple[StateOutcome, ...] = get_args(StateOutcome)

VerdictKind = Literal[Ending, "no"]
"""The best way a hand may end, or ``no`` (:attr:`~ginrummy.ending.Verdict.kind`)."""
VERDICTS: tuple[VerdictKind, ...] = (*reversed(ENDINGS), "no")
"""The verdicts from the best to none (as a lesson offers them)."""

HandStepCode = Literal[
    "knocker_melds",
    "gin",
    "big_gin",
    "knock",
    "defender_melds",
    "lay_off",
    "defender_deadwood",
    "gin_score",
    "big_gin_score",
    "undercut",
    "tie_knocker",
    "knock_win",
    "spade_doubles",
    "result",
]
"""The codes of a hand's score explained (:meth:`~ginrummy.scoring.HandResult.explain`)."""
HAND_STEP_CODES: tuple[HandStepCode, ...] = get_args(HandStepCode)

SheetStepCode = Literal[
    "hand_won",
    "column_closed",
    "game_won",
    "game_in_progress",
    "game_bonus",
    "box_bonus",
    "shutout",
    "total",
    "difference",
    "settled_even",
    "grand_total",
    "hollywood_won",
    "hollywood_tied",
    "hollywood_in_progress",
]
"""The codes of a score sheet explained (:meth:`~ginrummy.game.GameSheet.explain`,
:meth:`~ginrummy.game.HollywoodSheet.explain`)."""
SHEET_STEP_CODES: tuple[SheetStepCode, ...] = get_args(SheetStepCode)

ExplainCode = Literal[HandStepCode, SheetStepCode]
"""The code of any step of an explanation, a hand's or a sheet's."""
EXPLAIN_CODES: tuple[ExplainCode, ...] = get_args(ExplainCode)

ReasonCode = Literal[
    "big_gin",
    "gin",
    "knock",
    "undercut_risk",
    "avoids_undercut",
    "gin_outs",
    "game_first",
    "keeps_meld",
    "breaks_meld",
    "avoids_feeding",
    "known_to_opponent",
    "opponent_took",
    "opponent_threw",
    "opponent_threw_it",
    "opponent_passed",
    "gives_meld",
    "lower_deadwood",
    "deadwood",
    "keeps_partial",
    "keeps_run_open",
    "outs",
    "more_outs",
    "high_card",
    "makes_meld",
    "extends_meld",
    "knock_after",
    "lowers_deadwood",
    "reveals",
    "no_meld",
    "stock_outs",
    "plays_better",
    "wins_more",
    "close_call",
    "only_choice",
]
"""The coach's reasons, in the order :func:`ginrummy.reasons.reasons` lists them (each with
its parameters: :data:`ginrummy.reasons.REASON_CODES`, which iterates them)."""

RuleField = Literal[
    "name",
    "knock_limit",
    "gin_bonus",
    "big_gin_bonus",
    "undercut_bonus",
    "tie",
    "game_target",
    "game_bonus",
    "box_bonus",
    "gin_boxes",
    "undercut_boxes",
    "shutout",
    "oklahoma",
    "ace_upcard",
    "spade_doubles",
    "spade_doubles_box",
    "hollywood_columns",
    "next_dealer",
    "void_deal",
    "sources",
]
"""The fields of :class:`~ginrummy.rules.RuleSet`, in order: the rules module checks, as it
loads, that they are its fields, so a field added there is added here."""
RULE_FIELDS: tuple[RuleField, ...] = get_args(RuleField)
