"""The public history of a hand and what each player may know of it (ginrummy.public)."""

from __future__ import annotations

import json
import random

import pytest
from ginrummy import RuleError
from ginrummy.cards import Card, Hand
from ginrummy.hand import Action, Event, HandState, apply, deal, known_cards, legal_actions
from ginrummy.public import view


def playout(seed, rules="standard", end_of_stock="void"):
    """The states of one hand played by random legal moves (preferring to end it)."""
    rng = random.Random(seed)
    state = deal(seed=seed, rules=rules, end_of_stock=end_of_stock)
    states = [state]
    while not state.finished:
        actions = legal_actions(state)
        ending = [a for a in actions if a.kind in ("knock", "gin", "big_gin", "lay_off")]
        state = apply(state, rng.choice(ending or actions))
        states.append(state)
    return states


def test_history_records_each_public_move():
    state = deal(seed=7)
    upcard = state.upcard
    state = apply(state, Action("pass", 1))
    state = apply(state, Action("take_upcard", 0))
    discard = state.hands[0][0]
    state = apply(state, Action("discard", 0, discard))
    state = apply(state, Action("draw_stock", 1))
    assert state.history == (
        Event("pass", 1),
        Event("take_upcard", 0, upcard),
        Event("discard", 0, discard),
        Event("draw_stock", 1),
    )
    assert [str(e) for e in state.history][1] == f"take_upcard 0 {upcard}"
    assert eval(repr(state.history[1]), {"Event": Event, "Card": Card}) == state.history[1]


def test_known_cards_follow_takes_and_discards():
    history = (
        Event("take_upcard", 1, Card.parse("9H")),
        Event("discard", 1, Card.parse("2C")),
        Event("draw_discard", 0, Card.parse("2C")),
        Event("discard", 0, Card.parse("KD")),
        Event("draw_discard", 1, Card.parse("KD")),
        Event("discard", 1, Card.parse("9H")),
    )
    assert known_cards(history, 1) == Hand("KD")
    assert known_cards(history, 0) == Hand("2C")


@pytest.mark.parametrize("seed", range(12))
def test_a_view_holds_exactly_what_the_player_may_know(seed):
    for state in playout(seed, end_of_stock="reshuffle" if seed % 2 else "void"):
        for player in (0, 1):
            seen = view(state, player)
            other = state.hands[1 - player]
            assert seen.hand == state.hands[player]
            assert seen.stock_count == len(state.stock) and seen.opponent_count == len(other)
            assert set(seen.known) <= set(other)
            hidden = set(other) - set(seen.known)
            if state.knock_discard is not None and seen.knock_discard is None:
                hidden.add(state.knock_discard)
            assert set(seen.unseen) == hidden | set(state.stock)
            if state.finished:
                assert seen.known == other and set(seen.unseen) == set(state.stock)
            if state.turn == player and not state.finished:
                assert seen.legal_actions() == legal_actions(state)
            else:
                assert seen.legal_actions() == []
            json.dumps(seen.to_json())


def test_the_knockers_hand_is_shown_in_the_lay_off_phase():
    state = next(s for seed in range(200) for s in playout(seed) if s.phase == "lay_off")
    defender, knocker = state.turn, state.knocker
    assert view(state, defender).known == state.hands[knocker]
    assert view(state, knocker).knock_discard == state.knock_discard
    assert view(state, defender).knock_discard is None


def test_history_round_trips_and_bad_history_is_refused():
    states = playout(3)
    for state in states:
        again = HandState.from_json(json.loads(json.dumps(state.to_json())))
        assert again == state and again.history == state.history
    data = states[-1].to_json()

    def code(history):
        with pytest.raises(RuleError) as info:
            HandState.from_json({**data, "history": history})
        return info.value.code, info.value.params["field"]

    assert code("pass") == ("bad_state", "history")
    assert code([{"kind": "fly", "player": 0}]) == ("bad_state", "history")
    assert code([{"kind": "discard", "player": 0}]) == ("bad_state", "history")
    assert code([{"kind": "pass", "player": 2}]) == ("bad_state", "history")
    assert code([{"kind": "pass", "player": 0, "card": "7H"}]) == ("bad_state", "history")
    assert code([{"kind": "pass", "player": 0}] * 2001) == ("bad_state", "history")
    outside = next(c for c in states[-1].stock)
    assert code([{"kind": "draw_discard", "player": 0, "card": str(outside)}]) == (
        "bad_state",
        "history",
    )


def test_view_refuses_a_bad_player():
    with pytest.raises(RuleError) as info:
        view(deal(seed=1), 2)
    assert info.value.code == "bad_setting"


def test_the_knocker_does_not_see_the_defenders_hand_in_the_lay_off_phase():
    """Laying out shows the knocker's hand to the defender, not the defender's to the knocker:
    until the hand is finished the knocker knows only the cards the defender took from the
    discard pile and kept."""
    state = next(s for seed in range(200) for s in playout(seed) if s.phase == "lay_off")
    defender, knocker = state.turn, state.knocker
    seen = view(state, knocker)
    assert seen.known == known_cards(state.history, defender) != state.hands[defender]
    assert set(seen.unseen) == (set(state.hands[defender]) - set(seen.known)) | set(state.stock)
