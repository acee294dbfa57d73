"""Choices the engine used to make become the player's: the knocker's layout, the defender's
lay-offs (each checked), and a review of the lay-offs against the best ones."""

from __future__ import annotations

import json

import pytest
from ginrummy import CardError, RuleError, score_hand
from ginrummy.advice import check_lay_off_plan, lay_off_review
from ginrummy.api import call
from ginrummy.cards import DECK, Card, parse_cards
from ginrummy.hand import Action, HandState, apply, deal
from ginrummy.layoffs import check_lay_offs
from ginrummy.melds import Meld

KNOCKER = "7S 8S 9S 2H 3H 4H KC KD KH AD 5C"  # throws 5C; deadwood 1
DEFENDER = "6S TS AC 2C 3D 5D 7D 9D QH QS"


def knock_ready():
    """Player 0 holds KNOCKER (11 cards) and may knock; player 1 holds DEFENDER."""
    a, b = parse_cards(KNOCKER), parse_cards(DEFENDER)
    rest = [c for c in DECK if c not in a and c not in b]
    return HandState(
        rules=deal(seed=1).rules,
        dealer=1,
        hands=(a, b),
        stock=tuple(rest[1:]),
        discards=(rest[0],),
        upcard=rest[0],
        phase="discard",
        turn=0,
    )


def knocked(melds=None):
    return apply(knock_ready(), Action("knock", 0, Card.parse("5C"), melds))


def code(call_):
    with pytest.raises((RuleError, CardError)) as info:
        call_()
    return info.value.code


def test_the_engine_lays_out_the_knockers_best_melds_by_default():
    state = knocked()
    assert state.phase == "lay_off" and [str(m) for m in state.layout] == [
        "7S 8S 9S",
        "2H 3H 4H",
        "KH KD KC",
    ]
    final = apply(state, Action("lay_off", 1))
    assert final.result == score_hand(state.hands[0], state.hands[1], upcard=state.upcard)
    assert final.laid_off is None and len(final.result.lay_offs) == 2


def test_the_knocker_may_choose_a_layout():
    layout = ["7S 8S 9S", "2H 3H 4H"]  # the kings left out: 31
    with pytest.raises(RuleError) as info:
        knocked(layout)
    assert info.value.code == "knock_over_limit" and info.value.params["deadwood"] == 31
    assert code(lambda: knocked(["7S 8S 9S", "2H 3H 5H"])) == "not_a_meld"
    assert code(lambda: knocked(["7S 8S 9S", "QH KH AH"])) == "not_a_meld"
    assert code(lambda: knocked(["7S 8S 9S", "5H 6H 7H"])) == "meld_not_in_hand"
    assert code(lambda: Action("discard", 0, "5C", ["7S 8S 9S"])) == "bad_action"
    state = knocked(["7S 8S 9S", "2H 3H 4H", "KC KD KH"])
    assert state.layout == (Meld("7S 8S 9S"), Meld("2H 3H 4H"), Meld("KC KD KH"))


def test_the_defender_lays_off_by_hand_each_card_checked():
    state = knocked()
    plan = check_lay_off_plan(state, [("6S", 0)])
    assert plan["knocker_melds"][0] == "6S 7S 8S 9S"
    assert code(lambda: check_lay_off_plan(state, [("AC", 0)])) == "cannot_lay_off"
    assert code(lambda: check_lay_off_plan(state, [("6S", 5)])) == "no_such_meld"
    assert code(lambda: check_lay_off_plan(state, [("KS", 0)])) == "card_not_in_hand"
    assert (
        code(lambda: apply(state, Action("lay_off", 1, lay_offs=[("AC", 1)]))) == "cannot_lay_off"
    )
    # only the 6S: the TS (10 points), which would extend the run upwards, stays
    final = apply(state, Action("lay_off", 1, lay_offs=[("6S", 0)]))
    best = lay_off_review(final)
    assert best["left"] == 10 and best["points"] == best["best_points"] + 10
    assert [lay["card"] for lay in best["played"]] == ["6S"]
    assert final.result.defender_points == best["points"]
    again = HandState.from_json(json.loads(json.dumps(final.to_json())))
    assert again == final and again.result == final.result
    nothing = apply(state, Action("lay_off", 1, lay_offs=[]))
    assert lay_off_review(nothing)["left"] == 16


@pytest.mark.parametrize(
    "meld, plays",
    [
        ("JS QS KS", [("AS", 0)]),  # a run does not wrap from the king to the ace
        ("JS QS KS", [("AS", 0), ("2S", 0)]),  # not even as a chain
        ("AS 2S 3S", [("KS", 0)]),  # nor from the ace down to the king
    ],
)
def test_a_lay_off_by_hand_never_wraps_round_the_ace(meld, plays):
    defender = "AS 2S KS 4H 5H 6D 7D 8C 9C TH"
    assert code(lambda: check_lay_offs([meld], defender, plays)) == "cannot_lay_off"


def test_lay_offs_through_the_api():
    state = knocked().to_json()
    answer = call(
        {
            "op": "lay_off_check",
            "state": state,
            "lay_offs": [{"card": "6S", "meld": 0}, {"card": "TS", "meld": 0}],
        }
    )
    assert answer["ok"] and answer["result"]["knocker_melds"][0] == "6S 7S 8S 9S TS"
    wrong = call({"op": "lay_off_check", "state": state, "lay_offs": [{"card": "QH", "meld": 1}]})
    assert wrong["error"]["code"] == "cannot_lay_off"
    played = call(
        {
            "op": "play",
            "state": state,
            "action": {"kind": "lay_off", "player": 1, "lay_offs": [{"card": "6S", "meld": 0}]},
        }
    )["result"]
    review = call({"op": "lay_off_review", "state": played["state"]})["result"]
    assert review["left"] == 10
    assert (
        call({"op": "lay_off_review", "state": deal(seed=1).to_json()})["error"]["code"]
        == "wrong_phase"
    )
    bad = call(
        {
            "op": "play",
            "state": state,
            "action": {"kind": "lay_off", "player": 1, "lay_offs": [["6S", 0]]},
        }
    )
    assert bad["error"]["code"] == "bad_action"
