"""One hand turn by turn: deal, legal actions, transitions, coded errors, JSON round trips."""

from __future__ import annotations

import json

import pytest
from ginrummy import CardError, RuleError
from ginrummy.cards import DECK, Card, Hand, parse_cards
from ginrummy.errors import shown
from ginrummy.game import HandEntry, score_game
from ginrummy.hand import (
    ACTION_KINDS,
    MAX_HISTORY,
    MAX_MELDS,
    MAX_RESHUFFLES,
    Action,
    Event,
    HandState,
    apply,
    deal,
    legal_actions,
)
from ginrummy.melds import min_deadwood
from ginrummy.playout import policy_action
from ginrummy.rules import RULESETS
from hypothesis import given, settings
from hypothesis import strategies as st


def make_deck(non_dealer, dealer, upcard, stock=""):
    """A deck that deals these hands (10 cards each), this upcard, then ``stock`` on top of the
    rest of the cards in index order."""
    a, b = parse_cards(non_dealer, count=10), parse_cards(dealer, count=10)
    top = [c for pair in zip(a, b) for c in pair] + [Card.parse(upcard)] + list(parse_cards(stock))
    return top + [c for c in DECK if c not in top]


def dealt(non_dealer, dealer="6S 7S 8S 9S QS 8H 9H TH 5D 6D", upcard="KH", stock="", **kw):
    return deal(deck=make_deck(non_dealer, dealer, upcard, stock), dealer=0, **kw)


def act(state, kind, player=None, card=None):
    return apply(
        state,
        Action(kind, state.turn if player is None else player, Card.parse(card) if card else None),
    )


def code_of(call):
    with pytest.raises(RuleError) as info:
        call()
    return info.value.code


def accounted(state):
    """Every one of the 52 cards is in exactly one place."""
    cards = list(state.hands[0]) + list(state.hands[1]) + list(state.stock) + list(state.discards)
    if state.knock_discard is not None:
        cards.append(state.knock_discard)
    assert sorted(c.index for c in cards) == list(range(52))


def round_trips(state):
    data = json.loads(json.dumps(state.to_json()))
    again = HandState.from_json(data)
    assert again == state
    assert again.to_json() == state.to_json()


def bot(state):
    """A plain policy: take a discard only if it lowers deadwood, end the hand when possible,
    otherwise throw the card that leaves the least deadwood (highest card on ties)."""
    actions = legal_actions(state)
    kinds = {a.kind: a for a in actions}
    for kind in ("lay_off", "big_gin", "gin", "knock"):
        if kind in kinds:
            return kinds[kind]
    hand = state.hands[state.turn]
    if state.phase in ("offer", "draw"):
        top = state.discards[-1]
        take = "take_upcard" if state.phase == "offer" else "draw_discard"
        if take in kinds and min_deadwood(list(hand) + [top]) < min_deadwood(hand) - top.value:
            return kinds[take]
        return kinds.get("draw_stock") or kinds["pass"]
    discards = [a for a in actions if a.kind == "discard"]
    return min(
        discards,
        key=lambda a: (
            min_deadwood([c for c in hand if c is not a.card]),
            -a.card.value,
            a.card.index,
        ),
    )


def play(state, policy=bot, limit=1000):
    states, actions = [state], []
    while not state.finished and len(actions) < limit:
        action = policy(state)
        state = apply(state, action)
        states.append(state)
        actions.append(action)
    return states, actions


# --- dealing ------------------------------------------------------------------------------------


def test_deal_from_seed_is_deterministic():
    a, b = deal(seed=2024), deal(seed=2024)
    assert a == b and a.to_json() == b.to_json()
    assert deal(seed=2025) != a
    assert [len(h) for h in a.hands] == [10, 10] and len(a.stock) == 31
    assert a.discards == (a.upcard,) and a.phase == "offer" and a.turn == 1
    accounted(a)


def test_deal_one_at_a_time_non_dealer_first():
    state = deal(deck=DECK, dealer=0)
    assert state.hands[1] == tuple(DECK[0:20:2]) and state.hands[0] == tuple(DECK[1:20:2])
    assert state.upcard is DECK[20] and state.stock == tuple(DECK[21:])
    assert deal(deck=[str(c) for c in DECK]) == state
    assert deal(deck=" ".join(map(str, DECK))) == state


@pytest.mark.parametrize(
    "deck, code",
    [
        (DECK[:51], "wrong_count"),
        (DECK[:51] + (DECK[0],), "duplicate_card"),
        (" ".join(map(str, DECK[:51])) + " 1X", "unknown_rank"),
        (" ".join(map(str, DECK[:51])) + " AX", "unknown_suit"),
    ],
)
def test_bad_deck(deck, code):
    with pytest.raises(CardError) as info:
        deal(deck=deck)
    assert info.value.code == code


@pytest.mark.parametrize(
    "kwargs, setting",
    [
        ({"dealer": 2}, "dealer"),
        ({"end_of_stock": "burn"}, "end_of_stock"),
        ({"seed": "x"}, "seed"),
        ({"seed": 1, "deck": DECK}, "seed"),
    ],
)
def test_bad_settings(kwargs, setting):
    with pytest.raises(RuleError) as info:
        deal(**kwargs)
    assert info.value.code == "bad_setting" and info.value.params["setting"] == setting


# --- a full hand ------------------------------------------------------------------------------


def transcript(actions):
    return " ".join(f"{a.player}:{a.kind}" + (f":{a.card}" if a.card else "") for a in actions)


SEED_3 = (
    "1:pass 0:pass 1:draw_stock 1:discard:QS 0:draw_stock 0:discard:JS 1:draw_stock "
    "1:discard:QH 0:draw_stock 0:discard:TH 1:draw_stock 1:discard:JD 0:draw_stock 0:discard:TC "
    "1:draw_stock 1:discard:KC 0:draw_stock 0:discard:9H 1:draw_stock 1:discard:8H "
    "0:draw_discard 0:discard:9C 1:draw_stock 1:discard:8S 0:draw_stock 0:discard:TS "
    "1:draw_stock 1:discard:KH 0:draw_stock 0:discard:JC 1:draw_stock 1:discard:8D 0:draw_stock "
    "0:discard:KS 1:draw_stock 1:discard:7D 0:draw_stock 0:discard:TD 1:draw_stock 1:knock:6C "
    "0:lay_off"
)


def test_full_deterministic_hand_from_seed():
    """Seed 3, dealer 0, played by ``bot``: pinned move by move and scored."""
    start = deal(seed=3, dealer=0)
    assert str(start.hands[1]) == "AH 4S 4D KC JD 7D QS 8D QH 2S"  # the non-dealer's
    assert str(start.hands[0]) == "3D 7H AD TH JS 7S 5H TC 6D 6H"
    assert str(start.upcard) == "6S" and str(Hand(start.stock[:3])) == "3S 9H 6C"
    states, actions = play(start)
    assert transcript(actions) == SEED_3
    final = states[-1]
    for state in states:
        accounted(state)
        assert state.phase == "finished" or legal_actions(state)
    assert final.outcome == "knock" and final.knocker == 1 and final.turn == 1
    assert str(final.knock_discard) == "6C" and str(final.discards[-1]) == "TD"
    assert str(final.hands[1]) == "AH 4S 4D 2S 3S 5C 2D AC 2H 4H"
    result = final.result
    assert result.knocker_points == 10 and result.defender_points == 20
    assert [str(lay.card) for lay in result.lay_offs] == ["4C"]
    assert result.points == 10 and final.entry() == HandEntry(1, 10, 1)
    round_trips(final)


# --- the first upcard offer --------------------------------------------------------------------

HAND = "AS 2S 3S 4H 5H 6H 7C 8C 9C KD"


def test_non_dealer_takes_the_upcard():
    state = act(dealt(HAND, upcard="TC"), "take_upcard")
    assert state.phase == "discard" and state.turn == 1 and state.taken is Card.parse("TC")
    assert state.discards == () and len(state.hands[1]) == 11
    state = act(state, "discard", card="KD")
    assert state.phase == "draw" and state.turn == 0 and state.discards[-1] is Card.parse("KD")
    assert {a.kind for a in legal_actions(state)} == {"draw_stock", "draw_discard"}


def test_non_dealer_passes_dealer_takes():
    state = act(dealt(HAND, upcard="TC"), "pass")
    assert state.phase == "offer" and state.turn == 0
    state = act(state, "take_upcard")
    assert state.phase == "discard" and state.turn == 0 and len(state.hands[0]) == 11
    assert code_of(lambda: act(state, "discard", card="TC")) == "cannot_discard_taken_card"
    state = act(state, "discard", card="QS")
    assert state.turn == 1 and state.phase == "draw" and not state.stock_only
    assert act(state, "draw_discard").hands[1][-1] is Card.parse("QS")


def test_both_pass_non_dealer_draws_from_stock():
    state = act(act(dealt(HAND, upcard="TC", stock="QC"), "pass"), "pass")
    assert state.phase == "draw" and state.turn == 1 and state.stock_only
    assert [a.kind for a in legal_actions(state)] == ["draw_stock"]
    assert code_of(lambda: act(state, "draw_discard")) == "must_draw_stock"
    state = act(state, "draw_stock")
    assert state.hands[1][-1] is Card.parse("QC") and not state.stock_only
    assert state.taken is None
    assert Action("discard", 1, Card.parse("QC")) in legal_actions(state)


# --- endings ---------------------------------------------------------------------------------


def test_gin():
    state = act(dealt(HAND, upcard="TC"), "take_upcard")
    assert Action("gin", 1, Card.parse("KD")) in legal_actions(state)
    assert code_of(lambda: act(state, "gin", card="TC")) == "cannot_discard_taken_card"
    assert code_of(lambda: act(state, "gin", card="AS")) == "not_gin"
    final = act(state, "gin", card="KD")
    assert final.finished and final.outcome == "gin" and final.knocker == 1
    assert final.knock_discard is Card.parse("KD") and final.discards == ()
    assert final.result.points == 25 + final.result.defender_points
    assert final.entry() == HandEntry(1, final.result.points, 1)
    assert legal_actions(final) == []
    assert code_of(lambda: act(final, "draw_stock", player=0)) == "hand_over"
    accounted(final)
    round_trips(final)


def test_knock_then_lay_off():
    defender = "5S 5D 5C TC JH QH KS KC QC JD"
    state = act(dealt(HAND, dealer=defender, upcard="2D"), "take_upcard")
    state = act(state, "knock", card="KD")
    assert state.phase == "lay_off" and state.turn == 0 and state.knocker == 1
    assert state.ending == "knock" and state.result is None
    assert legal_actions(state) == [Action("lay_off", 0)]
    assert code_of(lambda: act(state, "lay_off", player=1)) == "not_your_turn"
    round_trips(state)
    final = act(state, "lay_off")
    assert final.finished and final.outcome == "knock" and final.result.knocker_points == 2
    assert [str(lay.card) for lay in final.result.lay_offs] == ["TC"]  # onto 7C 8C 9C
    assert final.result.defender_points == 60 and final.result.points == 58
    assert final.entry() == HandEntry(1, final.result.points)
    round_trips(final)


def test_knock_can_be_undercut():
    defender = "5S 5D 5C 7D 8D 9D JH QH KH AC"
    state = act(act(dealt(HAND, dealer=defender, upcard="2D"), "take_upcard"), "knock", card="KD")
    final = act(state, "lay_off")
    assert final.outcome == "undercut" and final.result.winner == "defender"
    assert final.entry().winner == 0


def test_knock_with_zero_deadwood_is_gin():
    state = act(dealt(HAND, upcard="TC"), "take_upcard")
    final = act(state, "knock", card="KD")
    assert final.finished and final.outcome == "gin" and final.ending == "gin"


def test_knock_over_limit():
    state = act(dealt("AS 2S 3S 4H 5H 6H 7C 8C KC KD", upcard="QD"), "take_upcard")
    assert not any(a.kind == "knock" for a in legal_actions(state))
    assert code_of(lambda: act(state, "knock", card="KD")) == "knock_over_limit"


def test_big_gin():
    state = act(dealt("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", upcard="JC"), "take_upcard")
    assert Action("big_gin", 1) in legal_actions(state)
    final = act(state, "big_gin")
    assert final.outcome == "big_gin" and final.knock_discard is None
    assert len(final.hands[1]) == 11 and final.result.points == 31 + final.result.defender_points
    accounted(final)
    round_trips(final)
    # in Oklahoma too, where the upcard (JC: limit 10) is part of every ending's judgement
    oklahoma = act(
        dealt("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", upcard="JC", rules="oklahoma"), "take_upcard"
    )
    assert act(oklahoma, "big_gin").result.points == final.result.points
    # by the dealer (player 0), who takes the upcard the other player passed
    offer = dealt("6S 7S 8S 9S QS 8H 9H TH 5D 6D", "AS 2S 3S 4H 5H 6H 7C 8C 9C TC", "JC")
    dealer = act(act(act(offer, "pass"), "take_upcard"), "big_gin")
    assert (dealer.outcome, dealer.knocker, [len(h) for h in dealer.hands]) == (
        "big_gin",
        0,
        [11, 10],
    )
    round_trips(dealer)


def test_big_gin_not_played_under_pagat():
    state = act(dealt("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", upcard="JC", rules="pagat"), "take_upcard")
    assert Action("big_gin", 1) not in legal_actions(state)
    assert code_of(lambda: act(state, "big_gin")) == "big_gin_not_played"
    assert act(state, "gin", card="7C").outcome == "gin"


def test_not_big_gin():
    state = act(dealt(HAND, upcard="2D"), "take_upcard")
    assert code_of(lambda: act(state, "big_gin")) == "not_big_gin"


def test_oklahoma_upcard_sets_the_knock_limit():
    hand = "AS 2S 3S 4H 5H 6H 7C 8C 9C 4D"
    taken = act(dealt(hand, upcard="3D", rules="oklahoma"), "take_upcard")
    # must keep the taken 3D, so discarding 4D leaves 3: within the limit of 3
    assert act(taken, "knock", card="4D").phase == "lay_off"
    loose = act(
        dealt("AS 2S 3S 4H 5H 6H 7C 8C 9C KD", upcard="2D", rules="oklahoma"), "take_upcard"
    )
    assert act(loose, "knock", card="KD").phase == "lay_off"
    assert code_of(lambda: act(loose, "knock", card="9C")) == "knock_over_limit"
    # upcard 2D sets the limit to 2; drawing 3D and knocking with it is over
    drew = act(
        act(act(dealt(HAND, upcard="2D", stock="3D", rules="oklahoma"), "pass"), "pass"),
        "draw_stock",
    )
    assert code_of(lambda: act(drew, "knock", card="KD")) == "knock_over_limit"
    standard = act(act(act(dealt(HAND, upcard="2D", stock="3D"), "pass"), "pass"), "draw_stock")
    assert act(standard, "knock", card="KD").phase == "lay_off"


def test_oklahoma_ace_upcard_needs_gin():
    state = act(dealt(HAND, upcard="AD", rules="oklahoma"), "take_upcard")
    assert code_of(lambda: act(state, "knock", card="KD")) == "gin_required"
    assert not any(a.kind == "knock" for a in legal_actions(state))


def test_oklahoma_spade_upcard_doubles_and_boxes():
    rules = {"name": "oklahoma", "spade_doubles_box": True}
    state = act(dealt(HAND, upcard="TC", rules=rules), "pass")
    state = act(state, "pass")
    # upcard TC is a club: normal hand
    assert state.rules.multiplier(state.upcard) == 1
    spade = act(dealt("AH 2H 3H 4C 5C 6C 7D 8D 9D KC", upcard="TD", rules=rules), "take_upcard")
    final = act(spade, "gin", card="KC")
    assert final.result.multiplier == 1 and final.entry().boxes == 1
    hand = "2H 3H 4H 4C 5C 6C 7D 8D 9D KC"
    spade = act(
        dealt(hand, dealer="AD 2D 3D 4D 5D 6D TD JD QD KD", upcard="5S", rules=rules), "take_upcard"
    )
    final = act(act(spade, "knock", card="KC"), "lay_off")
    assert final.result.multiplier == 2 and final.entry().boxes == 2


# --- illegal actions --------------------------------------------------------------------------


OFFER = dealt(HAND, upcard="TC")
TAKEN = act(OFFER, "take_upcard")  # player 1 took the TC and is to discard

ILLEGAL = {  # name: (the action, given the states OFFER and TAKEN above, its error in full)
    "pass out of turn": (
        lambda: act(OFFER, "pass", player=0),
        {
            "code": "not_your_turn",
            "message": "it is player 1's turn, not player 0's",
            "params": {"player": 0, "turn": 1},
        },
    ),
    "draw during the offer": (
        lambda: act(OFFER, "draw_stock"),
        {
            "code": "wrong_phase",
            "message": "cannot draw_stock in the offer phase",
            "params": {"kind": "draw_stock", "phase": "offer"},
        },
    ),
    "discard during the offer": (
        lambda: act(OFFER, "discard", card="KD"),
        {
            "code": "wrong_phase",
            "message": "cannot discard in the offer phase",
            "params": {"kind": "discard", "phase": "offer"},
        },
    ),
    "a card not held": (
        lambda: act(TAKEN, "discard", card="AD"),
        {
            "code": "card_not_in_hand",
            "message": "AD is not in player 1's hand",
            "params": {"card": "AD"},
        },
    ),
    "the card just taken": (
        lambda: act(TAKEN, "discard", card="TC"),
        {
            "code": "cannot_discard_taken_card",
            "message": "TC was just taken from the discard pile: it cannot be discarded this turn",
            "params": {"card": "TC"},
        },
    ),
    "a knock with the card just taken": (
        lambda: act(TAKEN, "knock", card="TC"),
        {
            "code": "cannot_discard_taken_card",
            "message": "TC was just taken from the discard pile: it cannot be discarded this turn",
            "params": {"card": "TC"},
        },
    ),
    "draw while discarding": (
        lambda: act(TAKEN, "draw_stock"),
        {
            "code": "wrong_phase",
            "message": "cannot draw_stock in the discard phase",
            "params": {"kind": "draw_stock", "phase": "discard"},
        },
    ),
    "lay off in play": (
        lambda: act(TAKEN, "lay_off"),
        {
            "code": "wrong_phase",
            "message": "cannot lay_off in the discard phase",
            "params": {"kind": "lay_off", "phase": "discard"},
        },
    ),
    "a discard without its card": (
        lambda: apply(TAKEN, {"kind": "discard", "player": 1}),
        {
            "code": "bad_action",
            "message": "discard needs a card",
            "params": {"field": "card", "value": None},
        },
    ),
    "an unknown kind": (
        lambda: apply(TAKEN, {"kind": "fold", "player": 1}),
        {
            "code": "bad_action",
            "message": "unknown action 'fold'",
            "params": {"field": "kind", "value": "fold"},
        },
    ),
    "a pass with a card": (
        lambda: apply(TAKEN, {"kind": "pass", "player": 1, "card": "7H"}),
        {
            "code": "bad_action",
            "message": "pass takes no card",
            "params": {"field": "card", "value": "7H"},
        },
    ),
    "no player": (
        lambda: apply(TAKEN, {"kind": "pass"}),
        {
            "code": "bad_action",
            "message": "an action needs 'player'",
            "params": {"field": "player", "value": None},
        },
    ),
    "player 3": (
        lambda: apply(TAKEN, {"kind": "pass", "player": 3}),
        {
            "code": "bad_action",
            "message": "player must be 0 or 1, not 3",
            "params": {"field": "player", "value": 3},
        },
    ),
    "a list": (
        lambda: apply(TAKEN, ["pass", 1]),
        {
            "code": "bad_action",
            "message": "an action must be an object, not ['pass', 1]",
            "params": {"field": "action", "value": "['pass', 1]"},
        },
    ),
    "a card as a number": (
        lambda: apply(TAKEN, {"kind": "discard", "player": 1, "card": 7}),
        {
            "code": "bad_action",
            "message": "card must be written like 7H, not 7",
            "params": {"field": "card", "value": "7"},
        },
    ),
    "an unknown field": (
        lambda: apply(TAKEN, {"kind": "pass", "player": 1, "x": 1}),
        {
            "code": "bad_action",
            "message": "unknown field 'x' in an action",
            "params": {"field": "x", "value": "1"},
        },
    ),
    "a bad card": (
        lambda: apply(TAKEN, {"kind": "discard", "player": 1, "card": "ZZ"}),
        {
            "code": "unknown_rank",
            "message": "unknown rank 'Z' in card 'ZZ'",
            "params": {"token": "ZZ", "position": None},
        },
    ),
}


@pytest.mark.parametrize("name", ILLEGAL)
def test_every_illegal_action_is_refused_in_full(name):
    call, expected = ILLEGAL[name]
    with pytest.raises((RuleError, CardError)) as info:
        call()
    assert info.value.to_json() == expected


UNREADABLE = {  # name: (a change to the JSON of TAKEN, the error in full)
    "no stock": (
        lambda d: d.pop("stock"),
        {
            "code": "bad_state",
            "message": "the hand state has no 'stock'",
            "params": {"field": "stock", "value": "None"},
        },
    ),
    "version 9": (
        lambda d: d.update(version=9),
        {
            "code": "bad_state",
            "message": "unknown state version 9",
            "params": {"field": "version", "value": "9"},
        },
    ),
    "an unknown phase": (
        lambda d: d.update(phase="dance"),
        {
            "code": "bad_state",
            "message": "phase must be one of offer, draw, discard, lay_off, finished",
            "params": {"field": "phase", "value": "'dance'"},
        },
    ),
    "a turn that is not a number": (
        lambda d: d.update(turn=True),
        {
            "code": "bad_state",
            "message": "turn must be one of 0, 1",
            "params": {"field": "turn", "value": "True"},
        },
    ),
    "hands as a text": (
        lambda d: d.update(hands="AS"),
        {
            "code": "bad_state",
            "message": "hands must be a list of two hands",
            "params": {"field": "hands", "value": "'AS'"},
        },
    ),
    "a stock that is a number": (
        lambda d: d.update(stock=5),
        {
            "code": "bad_state",
            "message": "stock must be cards written like '7H 8H'",
            "params": {"field": "stock", "value": "5"},
        },
    ),
    "a card twice": (
        lambda d: d.update(stock=d["stock"] + " AS"),
        {
            "code": "bad_state",
            "message": "the state must hold each of the 52 cards once: AS appears twice",
            "params": {"field": "cards", "value": "'AS'"},
        },
    ),
    "a card missing": (
        lambda d: d.update(stock=d["stock"][3:]),
        {
            "code": "bad_state",
            "message": "the state must hold each of the 52 cards once: expected 52 cards, got 51",
            "params": {"field": "cards", "value": "51"},
        },
    ),
    "a card that is not a card, in a hand": (
        lambda d: d.update(hands=[d["hands"][0], d["hands"][1][:-2] + "ZS"]),
        {
            "code": "bad_state",
            "message": "hands: unknown rank 'Z' in card 'ZS'",
            "params": {"field": "hands", "value": "'ZS'"},
        },
    ),
    "a card twice in the stock": (
        lambda d: d.update(stock=d["stock"] + " " + d["stock"][:2]),
        {
            "code": "bad_state",
            "message": "stock: 4S appears twice",
            "params": {"field": "stock", "value": "'4S'"},
        },
    ),
    "a card that is not a card, in the layout": (
        lambda d: d.update(layout=["ZZ"]),
        {
            "code": "bad_state",
            "message": "layout: unknown rank 'Z' in card 'ZZ'",
            "params": {"field": "layout", "value": "'ZZ'"},
        },
    ),
    "a layout that is not melds": (
        lambda d: d.update(layout=["AS 2S 4S"]),
        {
            "code": "bad_state",
            "message": "layout: AS 2S 4S is not a meld",
            "params": {"field": "layout", "value": "['AS 2S 4S']"},
        },
    ),
    "a card that is not a card, in the history": (
        lambda d: d.update(history=[{"kind": "discard", "player": 0, "card": "ZZ"}]),
        {
            "code": "bad_state",
            "message": "history: unknown rank 'Z' in card 'ZZ'",
            "params": {"field": "history", "value": "'ZZ'"},
        },
    ),
    "a card that is not a card, laid off": (
        lambda d: d.update(laid_off=[{"card": "ZZ", "meld": 0}]),
        {
            "code": "bad_state",
            "message": "laid_off: unknown rank 'Z' in card 'ZZ'",
            "params": {"field": "laid_off", "value": "'ZZ'"},
        },
    ),
    "lay-offs that are not a card and a meld": (
        lambda d: d.update(laid_off=["x"]),
        {
            "code": "bad_state",
            "message": "laid_off: lay_offs must be a list of {card, meld}",
            "params": {"field": "laid_off", "value": "['x']"},
        },
    ),
    "a taken card not in the hand": (
        lambda d: d.update(taken="AD"),
        {
            "code": "bad_state",
            "message": "the taken card must be in the hand of the player discarding",
            "params": {"field": "taken", "value": "'AD'"},
        },
    ),
    "the other player's turn": (
        lambda d: d.update(turn=0),
        {
            "code": "bad_state",
            "message": "in the discard phase the hands hold [11, 10], not [10, 11]",
            "params": {"field": "hands", "value": "[10, 11]"},
        },
    ),
    "drawing with 11 cards": (
        lambda d: d.update(phase="draw"),
        {
            "code": "bad_state",
            "message": "in the draw phase the hands hold [10, 10], not [10, 11]",
            "params": {"field": "hands", "value": "[10, 11]"},
        },
    ),
    "rules as a number": (
        lambda d: d.update(rules=7),
        {
            "code": "bad_state",
            "message": "rules must be a preset name or an object",
            "params": {"field": "rules", "value": "7"},
        },
    ),
    "unknown rules": (
        lambda d: d.update(rules="nope"),
        {
            "code": "unknown_rules",
            "message": "no rule preset called 'nope'; choose one of standard, pagat, pokerwiner, oklahoma",
            "params": {"rules": "nope"},
        },
    ),
    "stock_only as a text": (
        lambda d: d.update(stock_only="yes"),
        {
            "code": "bad_state",
            "message": "stock_only must be true or false",
            "params": {"field": "stock_only", "value": "'yes'"},
        },
    ),
    "no upcard": (
        lambda d: d.update(upcard=None),
        {
            "code": "bad_state",
            "message": "upcard must be a card written like 7H",
            "params": {"field": "upcard", "value": "None"},
        },
    ),
}


@pytest.mark.parametrize("name", UNREADABLE)
def test_a_state_that_cannot_be_read_is_refused_in_full(name):
    change, expected = UNREADABLE[name]
    assert refusal(TAKEN, change) == expected


def refusal(state: HandState, change) -> dict:
    """The error, in full, that refuses the JSON of ``state`` once ``change`` is made to it."""
    data = json.loads(json.dumps(state.to_json()))
    change(data)
    with pytest.raises((RuleError, CardError)) as info:
        HandState.from_json(data)
    return info.value.to_json()


def test_actions_round_trip_json():
    for state in play(deal(seed=11))[0]:
        for action in legal_actions(state):
            assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action


def test_legal_actions_are_exactly_the_accepted_ones():
    """Along a played hand, every legal action applies; every other card action is refused."""
    for state in play(deal(seed=5))[0][:12]:
        legal = legal_actions(state)
        for action in legal:
            apply(state, action)
        if state.phase == "discard":
            for kind in ("discard", "knock", "gin"):
                for card in DECK:
                    action = Action(kind, state.turn, card)
                    if action not in legal:
                        with pytest.raises(RuleError):
                            apply(state, action)


def test_every_card_but_the_one_taken_may_be_discarded_wherever_it_is_held():
    """A hand read from JSON keeps its cards in the order given: the card taken from the pile
    need not be the last, and every card after it may still be discarded."""
    data = TAKEN.to_json()
    data["hands"][1] = "TC " + data["hands"][1].removesuffix(" TC")
    state = HandState.from_json(data)
    assert state.hands[1][0] is Card.parse("TC") and state.taken is Card.parse("TC")
    discards = " ".join(str(a.card) for a in legal_actions(state) if a.kind == "discard")
    assert discards == "AS 2S 3S 4H 5H 6H 7C 8C 9C KD"


# --- end of stock -------------------------------------------------------------------------------


def stock_only(state):
    """Never take a discard, never knock: draw from the stock and throw the card drawn."""
    if state.phase == "offer":
        return Action("pass", state.turn)
    if state.phase == "draw":
        return Action("draw_stock", state.turn)
    return Action("discard", state.turn, state.hands[state.turn][-1])


def test_dead_hand_void():
    states, actions = play(deal(seed=9), stock_only)
    final = states[-1]
    assert final.finished and final.outcome == "dead" and final.result is None
    assert len(final.stock) == 2 and final.entry() is None
    assert sum(a.kind == "draw_stock" for a in actions) == 29
    assert states[-2].phase == "discard" and len(states[-2].stock) == 2
    for state in states:
        accounted(state)
    round_trips(final)


def test_knock_allowed_with_two_cards_left():
    """The player who draws the third-last card may still go out instead of discarding."""
    dealer, upcard = "6S 7S 8S 9S QS 8H 9H TH 5D 6D", "KH"
    used = parse_cards(" ".join([HAND, dealer, upcard, "TC"]))
    fillers = [c for c in DECK if c not in used][:28]
    state = dealt(HAND, dealer, upcard, stock=" ".join(map(str, fillers)) + " TC")
    while not (state.phase == "discard" and len(state.stock) == 2):
        state = apply(state, stock_only(state))
    assert state.turn == 1 and state.hands[1][-1] is Card.parse("TC")
    assert act(state, "gin", card="KD").outcome == "gin"
    assert act(state, "discard", card="KD").outcome == "dead"


def test_dead_hand_reshuffle():
    states, actions = play(deal(seed=9, end_of_stock="reshuffle"), stock_only)
    final = states[-1]
    assert final.outcome == "dead" and final.reshuffles == MAX_RESHUFFLES
    shuffled = next(i for i, s in enumerate(states) if s.reshuffles)
    before, after = states[shuffled - 1], states[shuffled]
    pile = before.discards + (actions[shuffled - 1].card,)
    assert after.discards == pile[-1:]
    assert after.stock[:2] == before.stock
    assert sorted(after.stock[2:]) == sorted(pile[:-1]) and after.stock[2:] != pile[:-1]
    # shuffled the same way on every machine and in every version: a saved hand replays
    assert " ".join(map(str, after.stock[2:])) == (
        "KC 4C AS 6H 5C 9H TH 2S 2D KD JD TD 7D 3S 3D QH 4H 4S KS QC 5H 8S 9D 9S JS QS 7C 5S 6S"
    )
    assert after.phase == "draw"
    again = play(deal(seed=9, end_of_stock="reshuffle"), stock_only)[0]
    assert again == states  # deterministic
    for state in states:
        accounted(state)
    round_trips(after)
    round_trips(final)


# --- JSON input ---------------------------------------------------------------------------------


def test_a_hand_state_is_an_object():
    with pytest.raises(RuleError) as info:
        HandState.from_json([1, 2])
    assert info.value.to_json() == {
        "code": "bad_state",
        "message": "a hand state must be an object",
        "params": {"field": "state", "value": "[1, 2]"},
    }


def test_custom_rules_round_trip():
    state = deal(seed=1, rules={"name": "standard", "gin_bonus": 20})
    assert state.rules.name == "custom"
    round_trips(state)


# --- random playouts ----------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    st.data(),
    st.integers(0, 2**32),
    st.sampled_from(["standard", "pagat", "oklahoma"]),
    st.sampled_from(["void", "reshuffle"]),
    st.integers(0, 1),
)
def test_random_playouts(data, seed, rules, end_of_stock, dealer):
    state = deal(seed=seed, rules=rules, end_of_stock=end_of_stock, dealer=dealer)
    for step in range(400):
        accounted(state)
        round_trips(state)
        if state.finished:
            break
        actions = legal_actions(state)
        assert actions
        if step > 100:  # keep hands short: stop taking discards so the stock runs down
            actions = [a for a in actions if a.kind != "draw_discard"]
        # half the time end the hand when possible, and mostly throw a card that leaves the
        # least deadwood, so that knocks, gins and undercuts happen as well as dead hands
        ends = [a for a in actions if a.kind in ("knock", "gin", "big_gin")]
        if ends and data.draw(st.booleans()):
            actions = ends
        elif state.phase == "discard" and data.draw(st.integers(0, 4)):
            hand = state.hands[state.turn]
            left = {
                a: min_deadwood([c for c in hand if c is not a.card])
                for a in actions
                if a.kind == "discard"
            }
            actions = [a for a in left if left[a] == min(left.values())]
        state = apply(state, data.draw(st.sampled_from(actions)))
    assert state.finished
    if state.outcome == "dead":
        assert state.result is None and len(state.stock) == 2
    else:
        assert state.outcome == state.result.outcome
        entry = state.entry()
        assert score_game([entry], rules).rows[0].points == state.result.points


@pytest.mark.parametrize(
    "seed, rules, outcome",
    [
        (0, "standard", "knock"),
        (0, "oklahoma", "dead"),
        (7, "oklahoma", "undercut"),
        (26, "oklahoma", "gin"),
    ],
)
def test_bot_hands_reach_each_ending(seed, rules, outcome):
    states, _ = play(deal(seed=seed, rules=rules))
    assert states[-1].outcome == outcome
    for state in states:
        accounted(state)
        round_trips(state)


def test_hands_fill_a_score_sheet():
    """Hands played one after another until the game is over; dead hands score nothing."""
    entries, seed = [], 0
    while not score_game(entries).finished:
        final = play(deal(seed=seed, dealer=seed % 2))[0][-1]
        if final.entry() is not None:
            entries.append(final.entry())
        seed += 1
    sheet = score_game(entries)
    assert sheet.finished and sheet.points[sheet.winner] >= 100
    assert sum(sheet.hands_won) == len(entries)


# --- a state whose fields disagree ------------------------------------------------------------

DRAW = act(TAKEN, "discard", card="KD")  # player 0 to draw; player 1 is known to hold TC
STOCK_ONLY = act(act(OFFER, "pass"), "pass")  # both passed: the non-dealer draws, from the stock
LAY_OFF = act(
    act(dealt(HAND, dealer="5S 5D 5C TC JH QH KS KC QC JD", upcard="2D"), "take_upcard"),
    "knock",
    card="KD",
)
KNOCKED = act(LAY_OFF, "lay_off")
BIG_GIN = act(act(dealt("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", upcard="JC"), "take_upcard"), "big_gin")


def _moved(data, source, target, card=None):
    """``data`` with one card (the first of ``source``, or ``card``) moved to the end of
    ``target``; each is "stock", "discards", "knock_discard" or a hand's number."""

    def cards(place):
        text = data["hands"][place] if isinstance(place, int) else data[place]
        return (text or "").split()

    def put(place, listed):
        if isinstance(place, int):
            data["hands"][place] = " ".join(listed)
        else:
            data[place] = " ".join(listed) or (None if place == "knock_discard" else "")

    taken = card or cards(source)[0]
    put(source, [c for c in cards(source) if c != taken])
    put(target, [*cards(target), taken])
    return data


SPOILED = {  # name: (state, change of its JSON, field, value, message)
    "an offer with 11 cards": (
        OFFER,
        lambda d: _moved(d, "stock", 0),
        "hands",
        "[11, 10]",
        "in the offer phase the hands hold [10, 10], not [11, 10]",
    ),
    "a discard with 10 cards": (
        TAKEN,
        lambda d: _moved(d, 1, "stock"),
        "hands",
        "[10, 10]",
        "in the discard phase the hands hold [10, 11], not [10, 10]",
    ),
    "big gin with 10 cards": (
        BIG_GIN,
        lambda d: _moved(d, 1, "stock"),
        "hands",
        "[10, 10]",
        "in the finished phase the hands hold [10, 11], not [10, 10]",
    ),
    "a knock without a knocker": (
        KNOCKED,
        lambda d: d.update(knocker=None),
        "knocker",
        "None",
        "knocker and ending are set exactly when someone ended the hand",
    ),
    "a knocker without an ending": (
        LAY_OFF,
        lambda d: d.update(ending=None),
        "knocker",
        "1",
        "knocker and ending are set exactly when someone ended the hand",
    ),
    "a knocker in play": (
        TAKEN,
        lambda d: d.update(knocker=1),
        "knocker",
        "1",
        "knocker and ending are set exactly when someone ended the hand",
    ),
    "a knock without its discard": (
        LAY_OFF,
        lambda d: _moved(d, "knock_discard", "stock"),
        "knock_discard",
        "None",
        "a knock or gin has a face-down discard, nothing else does",
    ),
    "big gin with a discard": (
        BIG_GIN,
        lambda d: _moved(d, "stock", "knock_discard", "KC"),
        "knock_discard",
        "'KC'",
        "a knock or gin has a face-down discard, nothing else does",
    ),
    "a finished hand without an outcome": (
        KNOCKED,
        lambda d: d.update(outcome=None),
        "outcome",
        "None",
        "the outcome is set exactly when the hand is finished",
    ),
    "an outcome in play": (
        DRAW,
        lambda d: d.update(outcome="dead"),
        "outcome",
        "'dead'",
        "the outcome is set exactly when the hand is finished",
    ),
    "the knocker laying off": (
        LAY_OFF,
        lambda d: d.update(turn=1),
        "phase",
        "'lay_off'",
        "only a knock has a lay-off phase, played by the defender",
    ),
    "lay-offs after gin": (
        LAY_OFF,
        lambda d: d.update(ending="gin"),
        "phase",
        "'lay_off'",
        "only a knock has a lay-off phase, played by the defender",
    ),
    "a taken card in the stock": (
        TAKEN,
        lambda d: d.update(taken="4S"),
        "taken",
        "'4S'",
        "the taken card must be in the hand of the player discarding",
    ),
    "a taken card while drawing": (
        DRAW,
        lambda d: d.update(taken="6S"),
        "taken",
        "'6S'",
        "the taken card must be in the hand of the player discarding",
    ),
    "stock only while discarding": (
        TAKEN,
        lambda d: d.update(stock_only=True),
        "stock_only",
        "True",
        "only the non-dealer's first draw can be stock-only",
    ),
    "stock only for the dealer": (
        STOCK_ONLY,
        lambda d: d.update(turn=0),
        "stock_only",
        "True",
        "only the non-dealer's first draw can be stock-only",
    ),
    "a pile under the upcard": (
        OFFER,
        lambda d: _moved(_moved(d, "stock", "discards", "KC"), "discards", "discards", "TC"),
        "discards",
        "'KC TC'",
        "during the offer the upcard is alone on the discard pile",
    ),
    "another card than the upcard": (
        OFFER,
        lambda d: _moved(_moved(d, "discards", "stock"), "stock", "discards", "KC"),
        "discards",
        "'KC'",
        "during the offer the upcard is alone on the discard pile",
    ),
    "no stock in play": (
        DRAW,
        lambda d: d.update(discards=d["stock"] + " " + d["discards"], stock=""),
        "stock",
        "''",
        "the stock cannot be empty while playing",
    ),
    "a knock without a layout": (
        KNOCKED,
        lambda d: d.update(layout=None),
        "layout",
        "None",
        "the knocker's layout is set exactly after a knock or gin",
    ),
    "a layout in play": (
        DRAW,
        lambda d: d.update(layout=["AS 2S 3S"]),
        "layout",
        "'AS 2S 3S'",
        "the knocker's layout is set exactly after a knock or gin",
    ),
    "lay-offs before the end": (
        LAY_OFF,
        lambda d: d.update(laid_off=[]),
        "laid_off",
        "'()'",
        "lay-offs are played only once a knock is finished",
    ),
    "lay-offs after big gin": (
        BIG_GIN,
        lambda d: d.update(laid_off=[]),
        "laid_off",
        "'()'",
        "lay-offs are played only once a knock is finished",
    ),
    "a known card gone": (
        DRAW,
        lambda d: _moved(_moved(d, 1, "stock", "TC"), "stock", 1),
        "history",
        "'TC'",
        "player 1 took TC from the discard pile and has not discarded it, but does not hold it",
    ),
}


@pytest.mark.parametrize("name", sorted(SPOILED))
def test_a_state_whose_fields_disagree_is_refused_naming_the_field(name):
    state, change, field, value, message = SPOILED[name]
    data = json.loads(json.dumps(state.to_json()))
    assert HandState.from_json(data) == state  # the state itself is good
    change(data)
    with pytest.raises(RuleError) as info:
        HandState.from_json(data)
    assert info.value.to_json() == {
        "code": "bad_state",
        "message": message,
        "params": {"field": field, "value": value},
    }


BAD_EVENTS = {  # name: (an event of the history in JSON, its error's message and quoted value)
    "a list": (["pass", 0], "an event is an object with kind, player and card", "['pass', 0]"),
    "a text": ("pass", "an event is an object with kind, player and card", "'pass'"),
    "an unknown field": (
        {"kind": "pass", "player": 0, "x": 1},
        "an event is an object with kind, player and card",
        "{'kind': 'pass', 'player': 0, 'x': 1}",
    ),
    "a long one, quoted cut": (
        {"kind": "pass", "player": 0, "note": "x" * 60},
        "an event is an object with kind, player and card",
        repr({"kind": "pass", "player": 0, "note": "x" * 60})[:40],
    ),
    "a card as a number": (
        {"kind": "discard", "player": 0, "card": 7},
        "an event's card is written like 7H",
        "7",
    ),
    "a pass showing a card": (
        {"kind": "pass", "player": 1, "card": "7H"},
        "pass in the history shows no card",
        "Card.parse('7H')",
    ),
    "a discard hiding its card": (
        {"kind": "discard", "player": 1},
        "discard in the history shows a card",
        "None",
    ),
    "an unknown move": (
        {"kind": "fold", "player": 1},
        "unknown move 'fold' in the history",
        "'fold'",
    ),
    "player 2": ({"kind": "pass", "player": 2}, "player must be 0 or 1, not 2", "2"),
}


@pytest.mark.parametrize("name", BAD_EVENTS)
def test_an_event_that_cannot_be_read_is_refused_in_full(name):
    data, message, value = BAD_EVENTS[name]
    with pytest.raises(RuleError) as info:
        Event.from_json(data)
    assert info.value.to_json() == {
        "code": "bad_state",
        "message": message,
        "params": {"field": "history", "value": value},
    }


TWELVE_MELDS = [f"{r1}{s} {r2}{s} {r3}{s}" for s in "SHDC" for r1, r2, r3 in ("A23", "456", "789")]
FIRST_EVENT = KNOCKED.to_json()["history"][0]
AT_THE_EDGE = {  # name: (state, a change to its JSON, the error in full)
    "a layout of one meld too many": (
        KNOCKED,
        lambda d: d.update(layout=TWELVE_MELDS[: MAX_MELDS + 1]),
        {
            "code": "bad_state",
            "message": f"the layout must be a list of at most {MAX_MELDS} melds",
            "params": {"field": "layout", "value": "['AS 2S 3S', '4S 5S 6S', '7S 8S 9S', 'AH"},
        },
    ),
    "a layout of as many melds as allowed, not the knocker's": (
        KNOCKED,
        lambda d: d.update(layout=TWELVE_MELDS[:MAX_MELDS]),
        {
            "code": "meld_not_in_hand",
            "message": "4S is in a meld but not in the knocker's hand",
            "params": {"card": "4S"},
        },
    ),
    "a layout of the defender's cards, while laying off": (
        LAY_OFF,
        lambda d: d.update(layout=["5S 5D 5C", "QH KH JH"]),
        {
            "code": "meld_not_in_hand",
            "message": "5S is in a meld but not in the knocker's hand",
            "params": {"card": "5S"},
        },
    ),
    "a layout over the knock limit, while laying off": (
        LAY_OFF,
        lambda d: d.update(layout=["AS 2S 3S"]),
        {
            "code": "knock_over_limit",
            "message": "deadwood 41 is over the knock limit 10",
            "params": {"deadwood": 41, "limit": 10},
        },
    ),
    "a knock whose layout leaves no deadwood (gin)": (
        LAY_OFF,
        lambda d: d.update(
            hands=[d["hands"][0].replace("TC", "2D"), d["hands"][1].replace("2D", "TC")],
            layout=["AS 2S 3S", "4H 5H 6H", "7C 8C 9C TC"],
        ),
        {
            "code": "bad_state",
            "message": "a layout that leaves deadwood 0 ends the hand by gin, not a knock",
            "params": {"field": "ending", "value": "'knock'"},
        },
    ),
    "the first hand as a number": (
        DRAW,
        lambda d: d["hands"].__setitem__(0, 5),
        {
            "code": "bad_state",
            "message": "hands must be cards written like '7H 8H'",
            "params": {"field": "hands", "value": "5"},
        },
    ),
    "the second hand as a number": (
        DRAW,
        lambda d: d["hands"].__setitem__(1, 5),
        {
            "code": "bad_state",
            "message": "hands must be cards written like '7H 8H'",
            "params": {"field": "hands", "value": "5"},
        },
    ),
    "an outcome the cards do not score": (
        KNOCKED,
        lambda d: d.update(outcome="undercut"),
        {
            "code": "bad_state",
            "message": "the cards score knock, not undercut",
            "params": {"field": "outcome", "value": "'undercut'"},
        },
    ),
    "a history of one event too many": (
        KNOCKED,
        lambda d: d.update(history=[FIRST_EVENT] * (MAX_HISTORY + 1)),
        {
            "code": "bad_state",
            "message": f"the history holds more than {MAX_HISTORY} events",
            "params": {"field": "history", "value": str(MAX_HISTORY + 1)},
        },
    ),
    "a history as long as allowed": (  # read, then refused for what it says
        KNOCKED,
        lambda d: d.update(history=[FIRST_EVENT] * MAX_HISTORY),
        {  # the first event twice: 2D taken twice and never discarded
            "code": "bad_state",
            "message": "history: 2D appears twice",
            "params": {"field": "history", "value": "'2D'"},
        },
    ),
    "an empty stock while discarding": (
        TAKEN,
        lambda d: d.update(discards=d["stock"] + " " + d["discards"], stock=""),
        {
            "code": "bad_state",
            "message": "the stock cannot be empty while playing",
            "params": {"field": "stock", "value": "''"},
        },
    ),
    "three lay-offs before the end, quoted short": (
        LAY_OFF,
        lambda d: d.update(
            laid_off=[
                {"card": "4S", "meld": 0},
                {"card": "TH", "meld": 1},
                {"card": "KH", "meld": 2},
            ]
        ),
        {
            "code": "bad_state",
            "message": "lay-offs are played only once a knock is finished",
            "params": {
                "field": "laid_off",
                "value": "\"((Card.parse('4S'), 0), (Card.parse('TH",  # cut at 40
            },
        },
    ),
}


@pytest.mark.parametrize("name", AT_THE_EDGE)
def test_a_state_at_the_edge_of_a_limit_or_a_check_is_refused_in_full(name):
    state, change, expected = AT_THE_EDGE[name]
    assert refusal(state, change) == expected


def test_a_draw_from_the_discard_pile_refused_in_full():
    """After both passed the upcard, or from an empty pile (all its cards back in the stock)."""
    with pytest.raises(RuleError) as info:
        apply(STOCK_ONLY, Action("draw_discard", STOCK_ONLY.turn))
    assert info.value.to_json() == {
        "code": "must_draw_stock",
        "message": "both players passed the upcard: draw from the stock",
        "params": {},
    }
    data = json.loads(json.dumps(DRAW.to_json()))
    data.update(stock=data["stock"] + " " + data["discards"], discards="")
    empty = HandState.from_json(data)
    with pytest.raises(RuleError) as info:
        apply(empty, Action("draw_discard", empty.turn))
    assert info.value.to_json() == {
        "code": "discard_pile_empty",
        "message": "the discard pile is empty",
        "params": {},
    }


def test_a_finished_state_writes_its_result():
    assert KNOCKED.to_json()["result"] == KNOCKED.result.to_json() is not None


@pytest.mark.parametrize(
    ("settings", "message", "value"),
    [
        ({"end_of_stock": "x"}, "end_of_stock must be one of void, reshuffle, not 'x'", "'x'"),
        ({"seed": 1, "deck": DECK}, "give a seed or a deck, not both", "1"),
        ({"seed": "x"}, "seed must be a whole number, not 'x'", "'x'"),
    ],
)
def test_a_bad_setting_of_a_deal_is_refused_in_full(settings, message, value):
    with pytest.raises(RuleError) as info:
        deal(**settings)
    setting = "end_of_stock" if "end_of_stock" in settings else "seed"
    assert info.value.to_json() == {
        "code": "bad_setting",
        "message": message,
        "params": {"setting": setting, "value": value},
    }


def test_melds_not_in_a_list_and_a_move_after_the_end_are_refused_in_full():
    for melds, quoted in [
        ("AS 2S 3S", "AS 2S 3S"),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS A"),
    ]:
        with pytest.raises(RuleError) as info:
            Action.from_json({"kind": "knock", "player": 0, "card": "KD", "melds": melds})
        assert info.value.to_json() == {
            "code": "bad_action",
            "message": "melds must be a list of melds",
            "params": {"field": "melds", "value": quoted},  # quoted short: 40 characters
        }
    with pytest.raises(RuleError) as info:
        apply(KNOCKED, Action("draw_stock", 0))
    assert info.value.to_json() == {
        "code": "hand_over",
        "message": "the hand is over",
        "params": {"kind": "draw_stock"},
    }


@pytest.mark.parametrize(
    "lay_offs",
    [
        "6S 0",  # not a list
        [["card", "meld"]],  # a list, not a mapping with those two names
        [{"card": "6S"}],  # the meld missing
        [{"card": "6S", "meld": 0, "extra": 1}],
        [{"card": "6S", "meld": 0}, {"card": "7S"}],  # quoted short: 40 characters
    ],
)
def test_lay_offs_not_a_list_of_card_and_meld_are_refused_in_full(lay_offs):
    with pytest.raises(RuleError) as info:
        Action.from_json({"kind": "lay_off", "player": 0, "lay_offs": lay_offs})
    assert info.value.to_json() == {
        "code": "bad_action",
        "message": "lay_offs must be a list of {card, meld}",
        "params": {"field": "lay_offs", "value": str(lay_offs)[:40]},
    }


def test_every_move_of_a_hand_reads_back_from_its_notation():
    """``text`` writes a move as lessons and examples do ("discard 1 7H"), or without its player
    as a learner's choice ("discard 7H"), and ``Action.parse`` reads both back, for every legal
    move of seeded hands under every preset (a knock's own layout aside)."""
    kinds = set()
    for rules in RULESETS:
        for seed in range(20):
            state = deal(seed=seed, rules=rules, dealer=seed % 2)
            while not state.finished:
                for action in legal_actions(state):
                    written, choice = action.text(), action.text(with_player=False)
                    assert written == str(action) and choice == written.replace(
                        f" {action.player}", "", 1
                    )
                    assert Action.parse(written) == action, written
                    assert Action.parse(written.lower().replace(" ", "   ")) == action
                    assert Action.parse(choice, player=action.player) == action, choice
                    assert Action.parse(f" {choice.lower()} ", player=action.player) == action
                    kinds.add(action.kind)
                state = apply(state, policy_action(state))
    assert kinds == set(ACTION_KINDS)


@pytest.mark.parametrize(
    ("text", "player", "expected"),
    [
        ("", None, "a move, one of " + ", ".join(ACTION_KINDS)),
        (None, None, "a move, one of " + ", ".join(ACTION_KINDS)),
        ("fly 0", None, "a move, one of " + ", ".join(ACTION_KINDS)),
        ("Discard 1 7H", None, "a move, one of " + ", ".join(ACTION_KINDS)),
        ("discard " * 20, None, "a move, one of " + ", ".join(ACTION_KINDS)),  # too long
        ("discard", None, 'a move with its player, like "discard 1"'),
        ("discard 7H", None, 'a move with its player, like "discard 1"'),
        ("discard 2 7H", None, 'a move with its player, like "discard 1"'),
        ("discard 1", None, 'a move with one card, like "discard 7H"'),
        ("discard 1 7H 8H", None, 'a move with one card, like "discard 7H"'),
        ("discard 1 7H", 1, 'a move with one card, like "discard 7H"'),
        ("pass 0 7H", None, 'the move "pass" alone'),
        ("pass 0", 0, 'the move "pass" alone'),
    ],
)
def test_a_miswritten_move_is_refused_and_quoted(text, player, expected):
    with pytest.raises(RuleError) as refused:
        Action.parse(text, player=player)
    assert refused.value.code == "bad_action"
    quoted = text[:40] if isinstance(text, str) else repr(text)
    assert refused.value.params == {"field": "move", "value": quoted, "expected": expected}
    assert str(refused.value) == f"a move must be {expected}, not {shown(text)}"


@pytest.mark.parametrize("player", [2, -1, True, "1", 1.0])
def test_a_move_for_no_player_is_refused(player):
    with pytest.raises(RuleError) as refused:
        Action.parse("pass", player=player)
    assert (refused.value.code, refused.value.params["field"]) == ("bad_action", "player")


def test_a_move_naming_no_card_is_refused_as_a_card():
    for text, player in [("discard 1 ZZ", None), ("knock 1X", 0)]:
        with pytest.raises(CardError) as refused:
            Action.parse(text, player=player)
        assert refused.value.token == text.split()[-1]
