"""The coach: its ranking on small endgames equals an exhaustive evaluation of every world."""

from __future__ import annotations

import collections
import dataclasses
import itertools
import json
import random

import ginrummy.advice
import pytest
from ginrummy import RuleError
from ginrummy.advice import (
    MAX_PLIES,
    MAX_SAMPLES,
    _passed,
    advise,
    advise_view,
    all_worlds,
    playout,
    playout_action,
    points_for,
    sampled_worlds,
    world_count,
    world_state,
)
from ginrummy.cards import DECK, Card, Hand, parse_cards
from ginrummy.hand import _MOVES, END_OF_STOCK, Action, Event, HandState, apply, deal, legal_actions
from ginrummy.public import view
from ginrummy.rules import RULESETS, get_rules

from tests.engine.test_bots import MELDED, position


def endgame(mine, known, hidden, stock, rules="standard", phase="discard"):
    """Player 0 to play (to discard with the 11 cards ``mine``, or to draw with 10); player 1
    holds ``known`` (taken from the pile, so player 0 knows them) and ``hidden``; ``stock`` top
    first; the rest is the pile."""
    mine, known, hidden, stock = (parse_cards(x) for x in (mine, known, hidden, stock))
    placed = set(mine) | set(known) | set(hidden) | set(stock)
    pile = tuple(c for c in DECK if c not in placed)
    history = tuple(Event("draw_discard", 1, c) for c in known)
    return HandState(
        rules=get_rules(rules),
        dealer=1,
        hands=(mine, known + hidden),
        stock=tuple(stock),
        discards=pile,
        upcard=pile[0],
        phase=phase,
        turn=0,
        history=history,
    )


ENDGAMES = {
    # knock with 9 or 10, or play on? Two of the five unseen cards are in the other hand (with
    # 8C they hold three eights); the stock is nearly out
    "knock": endgame(
        "AS 2S 3S 7H 7D 7C 4C 5C 6C 9D KH", "QS QH QD JC TC 9C 8D 8H", "8C 4H", "KD 2D 6S"
    ),
    # take the 4S from the pile (it lays off nowhere but makes a run) or draw?
    "draw": endgame(
        "AS 2S 3S 7H 7D 7C 5C 6C 9D KH",
        "QS QH QD JC TC 9C 8D 8H",
        "8C 4H",
        "KD 2D 6S 4C",
        phase="draw",
    ),
}


def exhaustive(state):
    """Each legal action's mean points for the player to act over every world (every way to
    deal the cards they have not seen into the other hand's unknown places and the stock), the
    number of worlds, and each action's percent of worlds where the player is undercut."""
    me = state.turn
    seen = view(state, me)
    unseen = list(seen.unseen)
    other = list(state.hands[1 - me])
    places = [i for i, c in enumerate(other) if c not in seen.known]
    totals = {a: 0 for a in legal_actions(state)}
    undercut = dict.fromkeys(totals, 0)
    count = 0
    for order in itertools.permutations(unseen):
        held, stock = order[: len(places)], order[len(places) :]
        if list(held) != sorted(held, key=lambda c: c.index):
            continue  # the other hand's order does not matter: one world per set of cards
        hand = list(other)
        for place, card in zip(places, held):
            hand[place] = card
        hands = [None, None]
        hands[me], hands[1 - me] = state.hands[me], Hand(hand)
        world = dataclasses.replace(state, hands=tuple(hands), stock=tuple(stock))
        count += 1
        for action in totals:
            final = playout(apply(world, action))
            totals[action] += points_for(final, me)
            undercut[action] += final.outcome == "undercut" and final.knocker == me
    means = {a: total / count for a, total in totals.items()}
    return means, count, {a: round(100 * n / count) for a, n in undercut.items()}


@pytest.mark.parametrize("name", sorted(ENDGAMES))
def test_the_ranking_is_exact_when_every_world_fits(name):
    state = ENDGAMES[name]
    expected, worlds, undercut = exhaustive(state)
    assert world_count(view(state, 0)) == worlds
    advice = advise(state, samples=worlds, seed=5)
    assert advice.exact and advice.samples == worlds
    assert {c.action: c.points for c in advice.choices} == {
        a: round(v, 2) for a, v in expected.items()
    }
    ranked = sorted(expected, key=lambda a: -expected[a])
    assert [c.action for c in advice.choices] == sorted(
        ranked, key=lambda a: (-round(expected[a], 2), legal_actions(state).index(a))
    )
    assert len({round(v, 2) for v in expected.values()}) >= 2  # the choices differ
    # a knock's undercut risk: the share of every world where it is undercut
    risks = {
        c.action: r["percent"]
        for c in advice.choices
        for r in c.reasons
        if r["code"] == "undercut_risk"
    }
    assert risks == {a: p for a, p in undercut.items() if a.kind == "knock"}
    assert name == "draw" or 0 < max(risks.values()) < 100


@pytest.mark.parametrize("name", sorted(ENDGAMES))
def test_a_sampled_ranking_agrees_with_the_exhaustive_one(name):
    state = ENDGAMES[name]
    expected, worlds, _ = exhaustive(state)
    advice = advise(state, samples=worlds - 1, seed=3)
    assert not advice.exact and advice.samples == worlds - 1
    position = {c.action: i for i, c in enumerate(advice.choices)}
    assert advice.best.action == max(expected, key=expected.get)
    for a, b in itertools.permutations(expected, 2):
        if expected[a] > expected[b] + 2:  # clearly better: ranked above
            assert position[a] < position[b], (a, b)


def test_advice_is_repeatable_and_blind_to_hidden_cards():
    state = ENDGAMES["knock"]
    first = advise(state, samples=12, seed=9)
    assert advise(state, samples=12, seed=9) == first
    swapped = dataclasses.replace(
        state,
        hands=(state.hands[0], parse_cards("QS QH QD JC TC 9C 8D 8H KD 2D")),
        stock=tuple(parse_cards("8C 4H 6S")),
    )
    assert advise(swapped, samples=12, seed=9) == first
    assert advise(state, samples=12, seed=10) != first
    # the default seed is 0, whichever way the coach is asked
    assert advise(state, samples=12) == advise(state, samples=12, seed=0)
    assert advise_view(view(state, 0), samples=12) == advise(state, samples=12, seed=0)


def test_reasons_are_codes_with_parameters():
    advice = advise(ENDGAMES["knock"], samples=60)
    knock = next(
        c for c in advice.choices if c.action.kind == "knock" and str(c.action.card) == "KH"
    )
    codes = {r["code"]: r for r in knock.reasons}
    assert codes["knock"] == {"code": "knock", "deadwood": 9, "limit": 10}
    assert 0 < codes["undercut_risk"]["percent"] < 100
    seven = next(c for c in advice.choices if str(c.action) == "discard 7C by 0")
    assert {"code": "breaks_meld", "card": "7C", "meld": "7H 7D 7C"} in seven.reasons
    assert any(r["code"] == "gives_meld" and r["percent"] > 0 for r in seven.reasons)
    assert advice.cost(knock.action) == 0 and advice.cost(seven.action) > 10
    costs = [advice.cost(c.action.to_json()) for c in advice.choices]
    assert costs == [round(advice.best.points - c.points, 2) for c in advice.choices]
    assert any(cost % 1 for cost in costs)  # tenths of a point, not rounded away
    for choice in advice.choices:
        json.dumps(choice.to_json())
        for reason in choice.reasons:
            assert all(isinstance(v, (int, float, str)) for v in reason.values())


def test_advice_in_every_phase_of_a_real_hand():
    state = deal(seed=4)
    phases = set()
    while not state.finished:
        advice = advise(state, samples=2, seed=1)
        assert sorted(map(str, (c.action for c in advice.choices))) == sorted(
            map(str, legal_actions(state))
        )
        phases.add(state.phase)
        state = apply(state, advice.best.action)
    assert {"offer", "draw", "discard"} <= phases


def test_bad_requests_are_refused_with_codes():
    finished = ENDGAMES["knock"]
    while not finished.finished:
        finished = apply(finished, legal_actions(finished)[0])
    with pytest.raises(RuleError) as info:
        advise(finished)
    assert info.value.to_json() == {
        "code": "hand_over",
        "message": "the hand is over",
        "params": {"kind": "advice"},
    }
    advice = advise(ENDGAMES["knock"], samples=3)
    with pytest.raises(RuleError) as info:
        advice.cost({"kind": "pass", "player": 0})
    assert info.value.to_json() == {
        "code": "illegal_choice",
        "message": "pass by 0 is not one of the choices",
        "params": {"action": "pass by 0"},
    }


def test_a_discard_that_joins_cards_the_other_player_took_is_flagged():
    state = endgame(
        "AS 2S 3S 7H 7D 7C 4C 5C 6C 9D QC", "QS QH QD", "KH KD 2H 3H 4D 5D 9S", "KC 2D 6S"
    )
    reasons = {str(c.action): c.reasons for c in advise(state, samples=4, seed=1).choices}
    assert {"code": "known_to_opponent", "card": "QC"} in reasons["discard QC by 0"]
    assert all(r["code"] != "known_to_opponent" for r in reasons["discard 9D by 0"])


def refusal(setting: str, value: str, message: str) -> dict:
    return {
        "code": "bad_setting",
        "message": message,
        "params": {"setting": setting, "value": value},
    }


SAMPLES = f"samples must be a whole number from 1 to {MAX_SAMPLES}, not "
TOO_MANY = str(MAX_SAMPLES + 1)


@pytest.mark.parametrize(
    "settings, error",
    [
        ({"samples": 0}, refusal("samples", "0", SAMPLES + "0")),
        ({"samples": MAX_SAMPLES + 1}, refusal("samples", TOO_MANY, SAMPLES + TOO_MANY)),
        ({"samples": True}, refusal("samples", "True", SAMPLES + "True")),
        ({"samples": "9" * 50}, refusal("samples", "9" * 40, SAMPLES + "9" * 40)),
        ({"seed": "x" * 50}, refusal("seed", "x" * 40, "seed must be a whole number, not " + "x" * 40)),
        ({"seed": 1.5}, refusal("seed", "1.5", "seed must be a whole number, not 1.5")),
    ],
)  # fmt: skip
def test_a_bad_setting_is_refused_in_full(settings, error):
    with pytest.raises(RuleError) as info:
        advise(ENDGAMES["knock"], **settings)
    assert info.value.to_json() == error


def test_samples_from_one_to_the_limit_are_taken():
    state = ENDGAMES["knock"]
    assert advise(state, samples=1).samples == 1
    assert advise(state, samples=MAX_SAMPLES).exact


def test_draw_reasons_give_the_deadwood_after_the_draw():
    from ginrummy.melds import min_deadwood_mask

    state = ENDGAMES["draw"]
    hand, top = state.hands[0], state.discards[-1]
    advice = advise(state, samples=4)
    take = next(c for c in advice.choices if c.action.kind == "draw_discard")
    expected = min(min_deadwood_mask((hand.mask | top.bit) ^ c.bit) for c in hand)
    assert {"code": "deadwood", "points": expected} in take.reasons
    assert {"code": "reveals", "card": str(top)} in take.reasons
    # drawing from the stock: the mean over the cards not seen of the least deadwood after
    # drawing each (throwing the best card), in tenths; nothing else is said of it
    unseen = view(state, 0).unseen
    after = [
        min(min_deadwood_mask((hand.mask | u.bit) ^ c.bit) for c in (*hand, u)) for u in unseen
    ]
    draw = next(c for c in advice.choices if c.action.kind == "draw_stock")
    assert draw.reasons[1:] == ({"code": "deadwood", "points": round(sum(after) / len(after), 1)},)


def policy_moves(state: HandState, most: int = MAX_PLIES) -> HandState:
    """``state`` after up to ``most`` of :func:`playout_action`'s moves, each played by the
    engine's own move, stopping at the end of the hand."""
    for _ in range(most):
        if state.phase == "finished":
            break
        action = playout_action(state)
        state = _MOVES[action.kind](state, action)
    return state


@pytest.mark.parametrize("rules", sorted(RULESETS))
@pytest.mark.parametrize("end_of_stock", END_OF_STOCK)
def test_a_playout_plays_the_policy_move_by_move(rules, end_of_stock):
    """The playout plays its draws and discards on bit masks: the hand it ends with (cards in
    order, stock, pile, outcome, score) is the one the engine's moves give, move by move, for
    the moves :func:`playout_action` chooses, from every phase of many hands."""
    ended, reshuffled = set(), 0
    for seed in range(40):
        state = deal(seed=seed, dealer=seed % 2, rules=rules, end_of_stock=end_of_stock)
        if seed % 2:  # a short stock (the rest under the pile): the playout meets its end
            short = 3 + seed % 5
            state = dataclasses.replace(
                state, stock=state.stock[:short], discards=state.stock[short:] + state.discards
            )
        state = policy_moves(state, seed % 9 * 5)  # from the offer to late in the hand
        expected = policy_moves(state)
        got = playout(state)
        assert got.__dict__ == expected.__dict__, seed
        ended.add(got.outcome)
        reshuffled += got.reshuffles
    # the playouts end by a knock, and meet the end of the stock: dead, or the pile reshuffled
    assert "knock" in ended
    assert ("dead" in ended) if end_of_stock == "void" else reshuffled


def test_a_playout_draws_from_the_stock_when_the_pile_is_closed():
    """After both players pass the upcard, the first draw is from the stock, even in a world
    where the player to draw holds a pair the upcard would make a set with."""
    state = deal(seed=0)
    for _ in range(2):
        state = apply(state, Action("pass", state.turn))
    assert state.stock_only and str(state.upcard) == "AC"
    aces = [c for c in state.stock if c.rank == 1]
    assert [str(c) for c in aces] == ["AH", "AD"]
    hands = list(state.hands)
    hands[state.turn] = Hand(aces + list(hands[state.turn])[2:])
    stock = tuple(list(state.hands[state.turn])[:2] + [c for c in state.stock if c.rank != 1])
    state = dataclasses.replace(state, hands=tuple(hands), stock=stock)
    assert playout_action(state) == Action("draw_stock", state.turn)
    assert playout(state).__dict__ == policy_moves(state).__dict__


@pytest.mark.parametrize("cap", [1, 2, 3, 4, 7, 12])
def test_a_playout_that_reaches_the_cap_counts_as_a_dead_hand(monkeypatch, cap):
    """A playout stops after MAX_PLIES moves (no hand is that long; the cap keeps a fault from
    hanging the coach): it is the hand after those moves, dead."""
    monkeypatch.setattr(ginrummy.advice, "MAX_PLIES", cap)
    state = deal(seed=3)
    expected = policy_moves(state, cap)
    assert expected.phase != "finished"
    got = playout(state)
    assert (got.phase, got.outcome) == ("finished", "dead")
    assert got.__dict__ == {**expected.__dict__, "phase": "finished", "outcome": "dead"}


def moves_to_the_end(state: HandState) -> int:
    """How many of :func:`playout_action`'s moves end the hand from ``state``."""
    for count in range(MAX_PLIES):
        if state.phase == "finished":
            return count
        state = policy_moves(state, 1)
    raise AssertionError("the hand did not end")


KNOCK_AT_ONCE = position(MELDED + " 9C 2D KD", "5D", "discard")
"""Player 0 knocks at once (throw KD, 2 left): the playout's first draws and discards stop
before any move."""


@pytest.mark.parametrize(
    "state", [KNOCK_AT_ONCE, deal(seed=3), deal(seed=5, rules="oklahoma"), deal(seed=8)]
)
def test_a_playout_that_ends_on_its_last_allowed_move_keeps_its_outcome(monkeypatch, state):
    """A hand that ends on move MAX_PLIES has ended: its own outcome, not a dead hand. One move
    fewer allowed, and it is dead."""
    moves = moves_to_the_end(state)
    monkeypatch.setattr(ginrummy.advice, "MAX_PLIES", moves)
    ended = policy_moves(state)
    assert ended.phase == "finished" and ended.outcome != "dead"
    assert playout(state).__dict__ == ended.__dict__
    monkeypatch.setattr(ginrummy.advice, "MAX_PLIES", moves - 1)
    assert playout(state).outcome == "dead"


def test_a_playout_never_throws_the_card_it_took_to_end_the_hand():
    """Player 0 takes QH to a run already melded (9H TH JH): both 9H and QH then leave gin. The
    policy's highest card would be QH, but the card just taken from the pile cannot be thrown:
    gin with 9H, also when the playout's draws and discards stop at the gin."""
    state = position("9H TH JH 2C 2D 2S 4C 4D 4S 4H", "5D QH", "draw", rules="pagat")
    ended = policy_moves(state)
    assert ended.outcome == "gin" and str(ended.knock_discard) == "9H"
    assert playout(state).__dict__ == ended.__dict__


@pytest.mark.parametrize("rules, move", [("standard", "big_gin by 0"), ("pagat", "gin QH by 0")])
def test_the_playout_policy_declares_big_gin_where_the_rules_have_it(rules, move):
    """Eleven cards in melds: big gin, or (where the rules have no big gin) gin with the
    highest card, by the policy's own order of throws."""
    state = position("9H TH JH QH 2C 2D 2S 4C 4D 4S 4H", "5D", "discard", rules=rules)
    assert str(playout_action(state)) == move


@pytest.mark.parametrize(
    "hand, drawn, kept, expected",
    [
        ("2C 3C 4C", "5C", "2C 3C 4C 5C", "2C 3C 4C 5C"),  # a card drawn goes to the end
        ("2C 3C 4C", "5C 6C", "2C 4C 5C 6C", "2C 4C 5C 6C"),  # a card thrown leaves its place
        ("2C 3C 4C", "5C 6C 5C", "2C 3C 4C 5C 6C", "2C 3C 4C 6C 5C"),  # drawn twice: last place
        ("2C 3C 4C", "3C 7D", "2C 3C 4C 7D", "2C 4C 3C 7D"),  # thrown, then drawn back
        ("2C 3C 4C", "5C 3C 5C 8H", "2C 3C 4C 5C 8H", "2C 4C 3C 5C 8H"),
    ],
)
def test_the_playouts_keep_a_hand_in_the_order_of_the_engines_moves(hand, drawn, kept, expected):
    """After the draws and discards played on bit masks, the hand's cards are put in the order
    the engine's moves keep them in, a card drawn more than once at its last place."""
    mask = sum(c.bit for c in parse_cards(kept))
    drawn_cards = [Card.parse(card) for card in drawn.split()]  # a card may come twice
    got = ginrummy.advice._kept(Hand(parse_cards(hand)), drawn_cards, mask)
    assert got == Hand(parse_cards(expected))


@pytest.mark.parametrize("rules", sorted(RULESETS))
@pytest.mark.parametrize("end_of_stock", END_OF_STOCK)
def test_the_world_dealt_as_it_really_is_is_the_real_hand(rules, end_of_stock):
    """world_state with the cards a player cannot see put where they really are gives back the
    real hand, every field (the other hand's cards in another order), for both players at
    every move of whole hands until the end: the coach's worlds keep every public fact, the
    history too."""
    fields = {f.name for f in dataclasses.fields(HandState)} - {"hands"}
    moments = collections.Counter()
    for seed in range(8):
        state = deal(seed=seed, dealer=seed % 2, rules=rules, end_of_stock=end_of_stock)
        short = 4 + seed % 3  # a short stock (the rest under the pile): the hand meets its end
        state = dataclasses.replace(
            state, stock=state.stock[:short], discards=state.stock[short:] + state.discards
        )
        while state.phase != "finished":  # the coach has nothing to say after the end
            for player in (0, 1):
                seen = view(state, player)
                other = state.hands[1 - player]
                hidden = [c for c in other if c not in seen.known]
                face_down = None if seen.knock_discard else state.knock_discard
                world = world_state(seen, hidden, face_down, state.stock)
                assert {f: getattr(world, f) for f in fields} == {
                    f: getattr(state, f) for f in fields
                }
                assert world.hands[player] == state.hands[player]
                assert sorted(world.hands[1 - player]) == sorted(other)
            moments.update(
                {
                    "taken": state.taken is not None,
                    "stock only": state.stock_only,
                    "history": bool(state.history),
                    state.phase: 1,
                }
            )
            state = apply(state, playout_action(state))  # the engine's moves keep the history
        moments[state.outcome] += 1
        moments["reshuffled"] += state.reshuffles
    assert moments["taken"] and moments["stock only"] and moments["lay_off"] + moments["gin"]
    assert moments["history"]
    assert moments["reshuffled"] if end_of_stock == "reshuffle" else moments["dead"]


def coach(hand: str, pile: str, rules: str = "standard", phase: str = "discard") -> dict:
    """The coach's reasons for each choice, after its expectation, by the choice's text, in
    the :func:`~tests.engine.test_bots.position` of ``hand`` and ``pile``."""
    state = position(hand, pile, phase, rules)
    return {str(c.action): list(c.reasons[1:]) for c in advise(state, samples=4, seed=1).choices}


def discard_reasons(hand: str, pile: str, discard: str) -> list[dict]:
    """The coach's reasons for throwing ``discard`` from ``hand`` (see :func:`coach`)."""
    return coach(hand, pile)[f"discard {discard} by 0"]


GIN_HAND = "AS 2S 3S 4H 5H 6H 7C 8C 9C TC"


@pytest.mark.parametrize(
    "hand, pile, rules, phase, choice, reasons",
    [
        # gin, and a knock with nothing left over, are both gin
        (GIN_HAND + " KD", "5D", "standard", "discard", "gin KD by 0",
         [{"code": "deadwood", "points": 0}, {"code": "gin", "bonus": 25}]),
        (GIN_HAND + " KD", "5D", "standard", "discard", "knock KD by 0",
         [{"code": "deadwood", "points": 0}, {"code": "gin", "bonus": 25}]),
        (GIN_HAND + " JC", "5D", "standard", "discard", "big_gin by 0",
         [{"code": "big_gin", "bonus": 31}]),
        # Oklahoma: the upcard's value is the knock limit
        ("AS 2S 3S 4H 5H 6H 7C 8C 9C 2D KD", "5D", "oklahoma", "discard", "knock KD by 0",
         [{"code": "deadwood", "points": 2}, {"code": "knock", "deadwood": 2, "limit": 5},
          {"code": "undercut_risk", "percent": 0}]),
        # the upcard makes a meld: take it, or pass (valued as a draw from the stock)
        ("AS 2S 3S 4H 5H 6H 7C 8C 2D KD", "9C", "standard", "offer", "take_upcard by 0",
         [{"code": "deadwood", "points": 2}, {"code": "joins_meld", "card": "9C"},
          {"code": "reveals", "card": "9C"}]),
        ("AS 2S 3S 4H 5H 6H 7C 8C 2D KD", "9C", "standard", "offer", "pass by 0",
         [{"code": "deadwood", "points": 23.0}]),
        # the top of the pile makes a meld
        ("AS 2S 3S 4H 5H 6H 7C 8C 2D KD", "5D 9C", "standard", "draw", "draw_discard by 0",
         [{"code": "deadwood", "points": 2}, {"code": "joins_meld", "card": "9C"},
          {"code": "reveals", "card": "9C"}]),
    ],
)  # fmt: skip
def test_each_choice_gets_its_reasons(hand, pile, rules, phase, choice, reasons):
    assert coach(hand, pile, rules, phase)[choice] == reasons


@pytest.mark.parametrize(
    "hand, pile, runs",
    [
        # 5H 6H loose, 4H and 7H unseen: open at both ends
        ("2S 3S 4S 9C 9D 9H 5H 6H KD QC JD", "8C", ["5H 6H"]),
        # 7H seen in the pile: one end only
        ("2S 3S 4S 9C 9D 9H 5H 6H KD QC JD", "7H", []),
        # 4H in the hand: 4H 5H 6H is a meld, nothing loose to keep open
        ("2S 3S 4S 9C 9D 9H 4H 5H 6H KD JD", "8C", []),
        # Q-K cannot grow past the king, A-2 not below the ace; 2-3 of clubs can
        ("9C 9D 9H 4S 5S 6S QD KD AH 2H JD", "8C", []),
        ("9C 9D 9H 4S 5S 6S 2C 3C KH QS JD", "8H", ["2C 3C"]),
        # the jack is the highest card a two-way run starts from: J-Q grows to 10 or king
        ("2S 3S 4S 9C 9D 9H JH QH 5D 2C JD", "8C", ["JH QH"]),
        # 4H seen in the pile: the run is open at the top only
        ("2S 3S 4S 9C 9D 9H 5H 6H KD QC JD", "4H", []),
        # 3H seen changes nothing: 4H and 7H are the ends
        ("2S 3S 4S 9C 9D 9H 5H 6H KD QC JD", "3H", ["5H 6H"]),
    ],
)
def test_a_two_way_run_is_a_loose_pair_open_at_both_ends(hand, pile, runs):
    reasons = discard_reasons(hand, pile, "JD")
    assert [r["cards"] for r in reasons if r["code"] == "two_way_run"] == runs


def test_every_world_after_a_knock_hides_the_face_down_discard():
    """After a knock the defender sees the knocker's whole hand: a world is where the knock's
    face-down discard is and the order of the stock, so 4 unseen cards make 4 x 3! worlds."""
    knocked = apply(ENDGAMES["knock"], Action("knock", 0, Card.parse("KH")))
    seen = view(knocked, 1)
    unseen = set(seen.unseen)
    assert unseen == set(parse_cards("KH KD 2D 6S"))
    worlds = list(all_worlds(seen))
    assert len(worlds) == len(set(worlds)) == world_count(seen) == 24
    assert {down for _, down, _ in worlds} == unseen
    samples = list(sampled_worlds(seen, 30, random.Random(2)))
    assert len(samples) == 30 and len({down for _, down, _ in samples}) > 1
    for held, down, stock in worlds + samples:
        assert held == () and len(stock) == 3 and {down, *stock} == unseen


def test_every_world_in_play_deals_the_hidden_cards_and_the_stock():
    """In play nothing is face down: a world is the other hand's hidden cards and the stock."""
    seen = view(ENDGAMES["knock"], 0)
    unseen = set(seen.unseen)
    assert len(unseen) == 5 and seen.opponent_count - len(seen.known) == 2
    worlds = list(all_worlds(seen))
    assert len(worlds) == len(set(worlds)) == world_count(seen) == 10 * 6
    samples = list(sampled_worlds(seen, 30, random.Random(2)))
    for held, down, stock in worlds + samples:
        assert len(held) == 2 and down is None and len(stock) == 3
        assert {*held, *stock} == unseen


@pytest.mark.parametrize(
    "upcard, moves, passed",
    [
        ("7H", "pass 1", "7"),  # the other player declined the upcard
        ("7H", "pass 0", ""),  # only I declined it
        ("7H", "pass 1, pass 0, draw_stock 1", "7"),
        ("7H", "pass 0, pass 1, draw_stock 0", "7"),
        # I took the upcard and threw the 9C; the other drew from the stock over it
        ("7H", "take_upcard 7H 0, discard 9C 0, draw_stock 1", "9"),
        ("7H", "take_upcard 7H 0, discard 9C 0, draw_discard 9C 1, discard 5D 1", "5"),
        # thrown by the other, then drawn over by me: only the rank they threw
        ("7H", "take_upcard 7H 1, discard 3C 1, draw_stock 0, discard KC 0, draw_stock 1", "3K"),
        (
            "7H",
            "take_upcard 7H 1, discard 3C 1, draw_discard 3C 0, discard KC 0, draw_discard KC 1",
            "3",
        ),
    ],
)
def test_the_coach_knows_which_ranks_the_other_player_let_go(upcard, moves, passed):
    """A rank is safe to throw ('opponent_passed') when the other player (1) threw one, or
    passed one over: declined the upcard, or drew from the stock while it topped the pile."""
    history = []
    for move in moves.split(", "):
        kind, *card, player = move.split()
        history.append(Event(kind, int(player), Card.parse(card[0]) if card else None))
    seen = dataclasses.replace(
        view(ENDGAMES["draw"], 0), upcard=Card.parse(upcard), history=tuple(history)
    )
    assert seen.opponent == 1
    assert "".join(r for r in "A23456789TJQK" if _passed(seen, Card.parse(r + "S"))) == passed
