"""Advice.cost_against: what one choice costs against another, the engine's one formula for a
move's cost (a choice's cost_points is it against the best)."""

import pytest
from ginrummy.advice import advise
from ginrummy.hand import apply, deal, legal_actions


def _discard_decision():
    state = deal(seed=4)
    while state.phase != "discard":
        state = apply(state, legal_actions(state)[0])
    return state


def test_cost_against_the_best_is_the_choices_cost_and_never_below_zero():
    """(The best is the coach's usual move, kept unless another beats it beyond doubt: another
    choice may win a little more often, and cost nothing against it.)"""
    advice = advise(_discard_decision(), samples=8, seed=1)
    best = advice.best
    assert len(advice.choices) > 2
    for choice in advice.choices:
        assert advice.cost_against(choice.action, best.action) == pytest.approx(
            choice.cost_points, abs=0.05
        )
        for other in advice.choices:
            lost = (other.win - choice.win) / advice.point_value
            assert advice.cost_against(choice.action, other.action) == max(0.0, lost)
    assert advice.cost_against(best.action.to_json(), best.action) == 0.0
