"""The vocabularies (ginrummy.vocab) are the names the engine really uses: every explanation step,
reason, rule field, phase and action kind it writes is one of them, and each is used."""

import dataclasses
import json
from pathlib import Path
from typing import get_args

import pytest
from ginrummy import RULESETS, RuleSet, score_game, score_hand, score_hollywood, verdict
from ginrummy import vocab as V
from ginrummy.actions import CARD_KINDS, DRAW_KINDS, KNOCK_KINDS, TAKE_KINDS
from ginrummy.game import ROW_STEPS
from ginrummy.hand import PHASE_OF, SEEN_KINDS, TRANSITIONS, apply, deal, legal_actions
from ginrummy.reasons import AGAINST_CODES, REASON_CODES
from ginrummy.scoring import GIN_OUTCOMES, POINTS_STEPS

DATA = Path(__file__).parent.parent / "data"


def _scored_hands():
    for case in json.loads((DATA / "hands.json").read_text())["hands"]:
        if "error" not in case["expect"]:
            yield score_hand(
                case["knocker"],
                case["defender"],
                case.get("rules", "standard"),
                case.get("upcard"),
                case.get("knocker_melds"),
            )


def _sheets():
    for case in json.loads((DATA / "sheets.json").read_text())["cases"]:
        if "error" not in case:
            score = score_game if case["kind"] == "game" else score_hollywood
            yield score([tuple(e) for e in case["entries"]], case.get("rules", "standard"))


def test_every_explanation_code_is_written_and_only_those():
    hand_codes = [s["code"] for r in _scored_hands() for s in r.explain()]
    sheet_codes = [s["code"] for sheet in _sheets() for s in sheet.explain()]
    assert set(hand_codes) == set(V.HAND_STEP_CODES)
    assert set(sheet_codes) == set(V.SHEET_STEP_CODES)
    assert V.EXPLAIN_CODES == V.HAND_STEP_CODES + V.SHEET_STEP_CODES
    assert {s for s in ROW_STEPS} <= set(V.SHEET_STEP_CODES)


def test_every_explanation_has_one_points_step():
    results = list(_scored_hands())
    assert {r.outcome for r in results} == set(V.OUTCOMES)
    for result in results:
        steps = [s["code"] for s in result.explain()]
        assert sum(code in POINTS_STEPS for code in steps) == 1, steps
        gin = result.outcome in GIN_OUTCOMES
        assert steps[0] == "knocker_melds" and result.explain()[0]["gin"] == gin


def test_rule_fields_are_the_rule_sets_fields_in_order():
    assert tuple(f.name for f in dataclasses.fields(RuleSet)) == V.RULE_FIELDS
    assert set(RULESETS["standard"].to_json()) <= set(V.RULE_FIELDS)


def test_reason_codes_are_the_coachs_codes_in_order():
    assert tuple(REASON_CODES) == get_args(V.ReasonCode)
    assert set(AGAINST_CODES) <= set(REASON_CODES)


@pytest.mark.parametrize("table", [PHASE_OF, TRANSITIONS], ids=["PHASE_OF", "TRANSITIONS"])
def test_tables_by_action_kind_name_every_kind(table):
    assert tuple(table) == V.ACTION_KINDS


def test_subsets_of_action_kinds():
    assert set(PHASE_OF.values()) == set(V.PHASES) - {"finished"}
    assert set(DRAW_KINDS) == {k for k in V.ACTION_KINDS if PHASE_OF[k] in ("offer", "draw")} - {
        "pass"
    }
    assert set(TAKE_KINDS) < set(DRAW_KINDS)
    assert set(KNOCK_KINDS) == set(CARD_KINDS) - {"discard"}
    assert (*TAKE_KINDS, "discard") == SEEN_KINDS


def test_verdicts_best_first_and_each_given():
    assert set(V.VERDICTS) == set(get_args(V.VerdictKind))
    assert V.VERDICTS == ("big_gin", "gin", "knock", "no")
    standard = RULESETS["standard"]
    given = {
        verdict(0, standard, big_gin=True).kind,
        verdict(0, standard).kind,
        verdict(5, standard).kind,
        verdict(20, standard).kind,
    }
    assert given == set(V.VERDICTS)


def test_a_played_hand_stays_within_the_vocabularies():
    state = deal(seed=3)
    while not state.finished:
        assert state.phase in V.PHASES
        state = apply(state, legal_actions(state)[0])
    assert state.outcome in V.STATE_OUTCOMES
    assert all(event.kind in V.ACTION_KINDS for event in state.history)
    assert state.ending is None or state.ending in V.ENDINGS
