"""Choices the engine used to make become the player's: the knocker's layout, the defender's
lay-offs (each checked), and a review of the lay-offs against the best ones."""

from __future__ import annotations

import itertools
import json

import pytest
from ginrummy import CardError, RuleError, score_hand
from ginrummy.advice import check_lay_off_plan, lay_off_review
from ginrummy.api import call
from ginrummy.cards import DECK, Card, parse_cards
from ginrummy.hand import Action, Event, HandState, apply, deal, layout_deadwood
from ginrummy.layoffs import check_lay_offs
from ginrummy.melds import Meld

KNOCKER = "7S 8S 9S 2H 3H 4H KC KD KH AD 5C"  # throws 5C; deadwood 1
DEFENDER = "6S TS AC 2C 3D 5D 7D 9D QH QS"


def knock_ready(knocker=KNOCKER):
    """Player 0 holds ``knocker`` (11 cards) and may knock; player 1 holds DEFENDER."""
    a, b = parse_cards(knocker), parse_cards(DEFENDER)
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
    with pytest.raises(RuleError) as info:
        knocked(["7S 8S 9S", "5H 6H 7H"])
    assert info.value.to_json() == {
        "code": "meld_not_in_hand",
        "message": "5H is in a meld but not in the knocker's hand",
        "params": {"card": "5H"},
    }
    assert code(lambda: Action("discard", 0, "5C", ["7S 8S 9S"])) == "bad_action"
    state = knocked(["7S 8S 9S", "2H 3H 4H", "KC KD KH"])
    assert state.layout == (Meld("7S 8S 9S"), Meld("2H 3H 4H"), Meld("KC KD KH"))
    # a knock with the AD out (1 point), not gin: the defender lays off next
    assert (state.phase, state.ending, state.turn) == ("lay_off", "knock", 1)


def test_a_layout_worse_than_the_best_is_scored_as_laid_out():
    """Cards the knocker leaves out of its melds count as its deadwood: the 2H 3H 4H kept apart
    make 10 points with the AD, where the best layout leaves 1."""
    layout = ["7S 8S 9S", "KC KD KH"]
    state = knocked(layout)
    assert state.layout == (Meld("7S 8S 9S"), Meld("KC KD KH"))
    final = apply(state, Action("lay_off", 1))
    assert final.result == score_hand(*state.hands, upcard=state.upcard, knocker_melds=layout)
    assert final.result.knocker_points == 10
    assert final.result.points == score_hand(*state.hands, upcard=state.upcard).points - 9


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


# --- the shape of a layout or of lay-offs given by hand (the Python API; JSON is checked first
# by Action.from_json) --------------------------------------------------------------------------


def endless(item, read):
    """``item`` without end, for a reader meant to stop after ``read`` of them: one more read
    fails the test at once (instead of a read that never ends)."""
    yield from itertools.repeat(item, read)
    pytest.fail(f"read past {read} items")


RUN = Meld(parse_cards("7S 8S 9S"))
BAD_SHAPES = {  # name: (keyword arguments of Action, the error in full)
    "melds with a discard": (
        {"kind": "discard", "card": "5C", "melds": [RUN]},
        ("melds", "discard takes no melds", "[Meld('7S 8S 9S')]"),
    ),
    "melds as a text": (
        {"kind": "knock", "card": "5C", "melds": "7S 8S 9S"},
        ("melds", "a layout is a list of melds", "7S 8S 9S"),
    ),
    "melds as an object": (
        {"kind": "gin", "card": "5C", "melds": {"7S 8S 9S": 0}},
        ("melds", "a layout is a list of melds", "{'7S 8S 9S': 0}"),
    ),
    "melds as a number": (
        {"kind": "knock", "card": "5C", "melds": 7},
        ("melds", "a layout is a list of melds", "7"),
    ),
    "melds as a long text, quoted cut": (
        {"kind": "knock", "card": "5C", "melds": "7S 8S 9S " * 5},
        ("melds", "a layout is a list of melds", ("7S 8S 9S " * 5)[:40]),
    ),
    "a card that is not a card": (
        {"kind": "discard", "card": 7},
        ("card", "7 is not a card", "7"),
    ),
    "melds with a discard, quoted cut": (
        {"kind": "discard", "card": "5C", "melds": [RUN] * 3},
        ("melds", "discard takes no melds", str([RUN] * 3)[:40]),
    ),
    "eleven melds": (
        {"kind": "knock", "card": "5C", "melds": [RUN] * 11},
        ("melds", "a layout has at most 10 melds", 11),
    ),
    "melds without end": (
        {"kind": "knock", "card": "5C", "melds": endless(RUN, 11)},
        ("melds", "a layout has at most 10 melds", 11),
    ),
    "lay-offs with a knock": (
        {"kind": "knock", "card": "5C", "lay_offs": [("6S", 0)]},
        ("lay_offs", "knock takes no lay-offs", "[('6S', 0)]"),
    ),
    "lay-offs as a text": (
        {"kind": "lay_off", "lay_offs": "6S"},
        ("lay_offs", "lay-offs are a list of (card, meld number) pairs", "6S"),
    ),
    "lay-offs as a long text, quoted cut": (
        {"kind": "lay_off", "lay_offs": "6S 0 " * 12},
        ("lay_offs", "lay-offs are a list of (card, meld number) pairs", ("6S 0 " * 12)[:40]),
    ),
    "lay-offs as an object": (
        {"kind": "lay_off", "lay_offs": {"6S": 0}},
        ("lay_offs", "lay-offs are a list of (card, meld number) pairs", "{'6S': 0}"),
    ),
    "lay-offs as a number": (
        {"kind": "lay_off", "lay_offs": 6},
        ("lay_offs", "lay-offs are a list of (card, meld number) pairs", "6"),
    ),
    "eleven lay-offs": (
        {"kind": "lay_off", "lay_offs": [("6S", 0)] * 11},
        ("lay_offs", "the defender has only 10 cards to lay off", 11),
    ),
    "lay-offs without end": (
        {"kind": "lay_off", "lay_offs": endless(("6S", 0), 11)},
        ("lay_offs", "the defender has only 10 cards to lay off", 11),
    ),
    "a lay-off without its meld": (
        {"kind": "lay_off", "lay_offs": [("6S",)]},
        ("lay_offs", "a lay-off is a card and a meld number", "('6S',)"),
    ),
    "a lay-off of three parts": (
        {"kind": "lay_off", "lay_offs": [("6S", 0, 1)]},
        ("lay_offs", "a lay-off is a card and a meld number", "('6S', 0, 1)"),
    ),
    "a lay-off as a text": (
        {"kind": "lay_off", "lay_offs": ["6S"]},
        ("lay_offs", "a lay-off is a card and a meld number", "6S"),
    ),
    "a meld number as a text": (
        {"kind": "lay_off", "lay_offs": [("6S", "0")]},
        ("lay_offs", "a lay-off is a card and a meld number", "('6S', '0')"),
    ),
    "a meld number as true": (
        {"kind": "lay_off", "lay_offs": [("6S", True)]},
        ("lay_offs", "a lay-off is a card and a meld number", "('6S', True)"),
    ),
    "a card as a number": (
        {"kind": "lay_off", "lay_offs": [("6S", 0), (6, 0)]},
        ("lay_offs", "a lay-off is a card and a meld number", "(6, 0)"),
    ),
    "a long lay-off, quoted cut": (
        {"kind": "lay_off", "lay_offs": [("6S", 0, "x" * 60)]},
        ("lay_offs", "a lay-off is a card and a meld number", str(("6S", 0, "x" * 60))[:40]),
    ),
    "long lay-offs with a knock, quoted cut": (
        {"kind": "knock", "card": "5C", "lay_offs": [("6S", 0)] * 9},
        ("lay_offs", "knock takes no lay-offs", str([("6S", 0)] * 9)[:40]),
    ),
}


@pytest.mark.parametrize("name", BAD_SHAPES)
def test_a_layout_or_lay_offs_of_the_wrong_shape_are_refused_in_full(name):
    fields, (field, message, value) = BAD_SHAPES[name]
    with pytest.raises(RuleError) as info:
        Action(player=0, **fields)
    expected = {"field": field, "value": value}
    assert info.value.to_json() == {"code": "bad_action", "message": message, "params": expected}


@pytest.mark.parametrize(
    "lay_offs",
    [
        lambda: [("6s", 0), ["TS", 1]],
        lambda: ((Card.parse("6S"), 0), (Card.parse("TS"), 1)),
        lambda: iter([("6S", 0), ("TS", 1)]),  # made afresh for each run: it is used up
    ],
)
def test_lay_offs_given_as_any_pairs_are_read_as_cards_and_meld_numbers(lay_offs):
    action = Action("lay_off", 1, lay_offs=lay_offs())
    assert action.lay_offs == ((Card.parse("6S"), 0), (Card.parse("TS"), 1))
    assert action == Action.from_json(action.to_json())


def test_ten_lay_offs_and_ten_melds_are_the_most_accepted():
    assert len(Action("lay_off", 1, lay_offs=[("6S", 0)] * 10).lay_offs) == 10
    ten = [Meld(parse_cards(f"{rank}S {rank}H {rank}D")) for rank in "A23456789T"]
    assert Action("knock", 0, Card.parse("5C"), ten).melds == tuple(ten)


@pytest.mark.parametrize(
    "action, text, pasted",
    [
        (
            Action("discard", 0, Card.parse("7H")),
            "discard 0 7H",
            "Action(kind='discard', player=0, card=Card.parse('7H'))",
        ),
        (Action("pass", 1), "pass 1", "Action(kind='pass', player=1, card=None)"),
        (
            Action("gin", 1, Card.parse("KC"), [RUN]),
            "gin 1 KC",
            "Action(kind='gin', player=1, card=Card.parse('KC'), melds=(Meld('7S 8S 9S'),))",
        ),
        (
            Action("lay_off", 0, lay_offs=[("6S", 0)]),
            "lay_off 0",
            "Action(kind='lay_off', player=0, card=None, lay_offs=((Card.parse('6S'), 0),))",
        ),
    ],
)
def test_an_action_reads_as_text_and_its_repr_pastes_back(action, text, pasted):
    assert (str(action), repr(action)) == (text, pasted)
    assert eval(pasted) == action
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action


def test_an_action_in_json_names_its_layout_and_lay_offs():
    knock = Action("knock", 0, Card.parse("5C"), [RUN, Meld(parse_cards("2H 3H 4H"))])
    assert knock.to_json() == {
        "kind": "knock",
        "player": 0,
        "card": "5C",
        "melds": ["7S 8S 9S", "2H 3H 4H"],
    }
    lay_off = Action("lay_off", 1, lay_offs=[("6S", 0), ("TS", 0)])
    assert lay_off.to_json() == {
        "kind": "lay_off",
        "player": 1,
        "lay_offs": [{"card": "6S", "meld": 0}, {"card": "TS", "meld": 0}],
    }


def test_an_event_reads_as_text():
    assert str(Event("draw_discard", 1, Card.parse("7H"))) == "draw_discard 1 7H"
    assert str(Event("knock", 0)) == "knock 0"  # the knock's discard is face down


def test_the_review_in_the_lay_off_phase_gives_only_the_best_lay_offs():
    state = knocked()
    review = lay_off_review(state)
    assert set(review) == {"best", "best_points"}
    # the engine's own lay-offs (a lay_off without a choice) are the best ones
    best = apply(state, Action("lay_off", 1)).result.defender_points
    assert review["best_points"] == review["best"]["points"] == best


@pytest.mark.parametrize("ending", ["in play", "gin"])
def test_no_review_of_lay_offs_without_a_knock(ending):
    state = knock_ready()
    if ending == "gin":  # the knocker melds all ten: a finished hand with a layout, not a knock
        ready = knock_ready("7S 8S 9S 2H 3H 4H 5H KC KD KH 5C")
        state = apply(ready, Action("gin", 0, Card.parse("5C")))
        assert state.phase == "finished" and state.layout is not None
    with pytest.raises(RuleError) as info:
        lay_off_review(state)
    assert info.value.to_json() == {
        "code": "wrong_phase",
        "message": "lay-offs follow a knock",
        "params": {"kind": "lay_off", "phase": state.phase},
    }


@pytest.mark.parametrize(
    "layout, hand, points",
    [
        (["7S 8S 9S"], "7S 8S 9S AS KC", 11),  # the ace of spades is a card like any other
        (["7S 8S 9S", "KC KD KH"], "7S 8S 9S KC KD KH 2D", 2),
        ([], "AS 2D", 3),
        (["AS 2S 3S"], "AS 2S 3S", 0),
    ],
)
def test_a_layouts_deadwood_is_the_hand_outside_its_melds(layout, hand, points):
    assert layout_deadwood(tuple(Meld(m) for m in layout), parse_cards(hand)) == points
