"""The coach: exact on small endgames, refined in steps, honest about mistakes, blind to the
game's seed and to hidden cards; its reasons true to the position."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re

import ginrummy.advice
import pytest
from ginrummy import RuleError
from ginrummy.advice import (
    MAX_PLAYOUTS,
    MAX_SAMPLES,
    MISTAKE_POINTS,
    MISTAKE_SE,
    Evaluation,
    advise,
    advise_view,
    is_mistake,
)
from ginrummy.cards import DECK, Card, Hand, parse_cards
from ginrummy.game import HandEntry
from ginrummy.hand import Action, Event, HandState, apply, deal, legal_actions
from ginrummy.match import new_game, play
from ginrummy.opponent import Model
from ginrummy.playout import playout_end, policy_action
from ginrummy.public import view
from ginrummy.reasons import AGAINST_CODES, REASON_CODES
from ginrummy.rules import get_rules
from ginrummy.standing import Standing

from tests.engine.test_bots import MELDED, position


def endgame(mine, known, hidden, stock, rules="standard", phase="discard", history=()):
    """Player 0 to play (to discard with the 11 cards ``mine``, or to draw with 10); player 1
    holds ``known`` (taken from the pile, so player 0 knows them) and ``hidden``; ``stock`` top
    first; the rest is the pile."""
    mine, known, hidden, stock = (parse_cards(x) for x in (mine, known, hidden, stock))
    placed = set(mine) | set(known) | set(hidden) | set(stock)
    pile = tuple(c for c in DECK if c not in placed)
    events = tuple(Event("draw_discard", 1, c) for c in known) + tuple(history)
    return HandState(
        rules=get_rules(rules),
        dealer=1,
        hands=(mine, known + hidden),
        stock=tuple(stock),
        discards=pile,
        upcard=pile[0],
        phase=phase,
        turn=0,
        history=events,
    )


ENDGAMES = {
    # knock with 9 or 10, or play on? Two of the five unseen cards are in the other hand (with
    # 8C they hold three eights); the stock is nearly out
    "knock": endgame(
        "AS 2S 3S 7H 7D 7C 4C 5C 6C 9D KH", "QS QH QD JC TC 9C 8D 8H", "8C 4H", "KD 2D 6S"
    ),
    # take the top of the pile (it makes a run: 4C 5C 6C) or draw?
    "draw": endgame(
        "AS 2S 3S 7H 7D 7C 5C 6C 9D KH",
        "QS QH QD JC TC 9C 8D 8H",
        "8C 4H",
        "KD 2D 6S",
        phase="draw",
    ),
}


def exhaustive(state: HandState) -> dict[Action, float]:
    """Each legal action's chance of winning the game (0 to 0 before the hand) for the player
    to act: over every deal of the unseen cards (every pair of hidden cards, weighed by the
    opponent model; every order of the stock, equally), the hand played out by the base
    policy."""
    me = state.turn
    seen = view(state, me)
    model = Model(seen)
    standing = Standing(state.rules)
    unseen = list(seen.unseen)
    known = [c for c in state.hands[1 - me] if c in seen.known]
    totals = dict.fromkeys(legal_actions(state), 0.0)
    weight_sum = 0.0
    for held in itertools.combinations(unseen, model.hidden):
        weight = model.weight(sum(c.bit for c in held))
        rest = [c for c in unseen if c not in held]
        orders = list(itertools.permutations(rest))
        for stock in orders:
            hands = [None, None]
            hands[me], hands[1 - me] = state.hands[me], Hand(known + list(held))
            world = dataclasses.replace(state, hands=tuple(hands), stock=stock)
            for action in totals:
                entry, _, _ = playout_end(apply(world, action))
                totals[action] += weight / len(orders) * standing.after(entry).win_chance(me)
        weight_sum += weight
    return {a: t / weight_sum for a, t in totals.items()}


@pytest.mark.parametrize("name", sorted(ENDGAMES))
def test_the_ranking_is_exact_when_every_world_fits(name):
    state = ENDGAMES[name]
    expected = exhaustive(state)
    worlds = Model(view(state, 0)).world_count()
    advice = advise(state, samples=min(worlds, MAX_SAMPLES))
    assert advice.exact and advice.settled
    assert {c.action: c.win for c in advice.choices} == {
        a: round(v, 4) for a, v in expected.items()
    }
    assert [c.win for c in advice.choices] == sorted((c.win for c in advice.choices), reverse=True)
    assert all(c.se == 0 for c in advice.choices)
    best = max(expected.values())
    for choice in advice.choices:  # exact: a mistake is any cost of a point's worth or more
        cost = best - expected[choice.action]
        assert choice.mistake == (cost >= MISTAKE_POINTS * advice.point_value and cost > 0)
    assert len({round(v, 4) for v in expected.values()}) >= 2  # the choices differ


@pytest.mark.parametrize("name", sorted(ENDGAMES))
def test_a_sampled_ranking_agrees_with_the_exact_one(name):
    state = ENDGAMES[name]
    exact = {c.action: c.win for c in advise(state, samples=200).choices}
    advice = advise(state, samples=40, seed=3)
    assert not advice.exact and advice.samples == 40
    position = {c.action: i for i, c in enumerate(advice.choices)}
    assert advice.best.action == max(exact, key=exact.get)
    for a, b in itertools.permutations(exact, 2):
        if exact[a] > exact[b] + 0.05:  # clearly better: ranked above
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
    assert advise_view(view(state, 0), samples=12, seed=9) == first


def test_rankings_do_not_depend_on_the_games_seed():
    """The worlds are seeded by the decision itself: the same position in games of different
    seeds gets the same advice; a given seed changes the worlds, not the rules of the game."""
    game = new_game(seed=11)
    for _ in range(4):
        game = play(game, policy_action(game.hand))
    other = dataclasses.replace(game, seed=12345)
    assert advise(game, samples=8) == advise(other, samples=8)
    assert advise(game.hand, samples=8) == advise(dataclasses.replace(game.hand), samples=8)
    assert (
        advise(game, samples=8).evaluation.seed != advise(game, samples=8, seed=1).evaluation.seed
    )


def some_decisions(count: int, phases=("offer", "draw", "discard")) -> list[HandState]:
    out, seed = [], 0
    while len(out) < count:
        state = deal(seed=seed)
        moves = 0
        while not state.finished and len(out) < count:
            if state.phase in phases and moves % 5 == seed % 5:
                out.append(state)
            state = apply(state, policy_action(state))
            moves += 1
        seed += 1
    return out


def test_refining_in_steps_equals_asking_at_once():
    """advise(previous=...) plays more worlds for the same decision: two steps of 8 give the
    advice of one of 16, from the advice itself or its JSON."""
    state = some_decisions(3, ("discard",))[2]
    once = advise(state, samples=16)
    first = advise(state, samples=8)
    assert advise(state, samples=8, previous=first) == once
    assert advise(state, samples=8, previous=json.loads(json.dumps(first.to_json()))) == once
    assert once.samples > first.samples
    # 0 more worlds: the advice read back from its JSON, to judge the move played
    assert advise(state, samples=0, previous=once.to_json()) == once


def test_refining_keeps_to_its_decision_and_its_bounds():
    states = some_decisions(2, ("discard",))
    first = advise(states[0], samples=4)
    with pytest.raises(RuleError) as info:
        advise(states[1], samples=4, previous=first)
    assert info.value.code == "bad_setting" and info.value.params["setting"] == "previous"
    with pytest.raises(RuleError) as info:
        advise(states[0], samples=4, seed=99, previous=first)
    assert info.value.params["setting"] == "previous"
    tampered = first.to_json()
    tampered["evaluation"]["totals"][0][1] = "x"
    with pytest.raises(RuleError) as info:
        advise(states[0], samples=4, previous=tampered)
    assert info.value.code == "bad_setting" and "totals" in info.value.params["value"]
    for bad in (None, 5, {"evaluation": 5}, {"evaluation": {"version": 2}}):
        with pytest.raises(RuleError):
            advise(states[0], samples=4, previous=bad if bad is not None else {})


def test_one_request_plays_a_bounded_number_of_playouts():
    """MAX_SAMPLES worlds asked for an 11-choice discard: at most MAX_PLAYOUTS playouts."""
    state = some_decisions(1, ("discard",))[0]
    advice = advise(state, samples=MAX_SAMPLES)
    playouts = sum(t[-1] for t in advice.evaluation.totals)
    assert len(advice.choices) >= 10 and playouts <= MAX_PLAYOUTS


def test_the_mistake_rule():
    """A mistake costs a point's worth of winning chance and more than two standard errors."""
    assert is_mistake(0.02, 0.004, 0.006)
    assert not is_mistake(0.02, 0.011, 0.006)  # within two standard errors
    assert not is_mistake(0.005, 0.0001, 0.006)  # less than a point's worth
    assert not is_mistake(0.0, 0.0, 0.006)
    for state in some_decisions(6):
        advice = advise(state, samples=12)
        assert not advice.best.mistake and advice.best.cost == 0
        for choice in advice.choices:
            margin = max(MISTAKE_POINTS * advice.point_value, MISTAKE_SE * choice.se)
            if choice.cost <= margin:  # within the margin: never a mistake
                assert not choice.mistake
            assessed = advice.assess(choice.action)
            assert assessed.mistake == choice.mistake and assessed.best == advice.best.action
            assert choice.cost_points == pytest.approx(
                choice.cost / advice.point_value, rel=0.01, abs=0.05
            )
            assert (assessed.reason is None) == (choice is advice.best)


def test_a_flag_rests_on_more_worlds_than_the_first_hint():
    """Refined, the choices still in doubt are played in more worlds and their standard
    errors shrink; the choices dropped were already surely worse (flagged)."""
    state = some_decisions(4, ("discard",))[3]
    first = advise(state)
    refined = advise(state, samples=64, previous=first)
    refined = advise(state, samples=64, previous=refined)
    assert refined.samples > 3 * first.samples
    before = {c.action: c for c in first.choices}
    for choice in refined.choices[1:]:
        # the first hint's best has no standard error of its own (the others' are to it)
        if choice.action == first.best.action:
            continue
        if choice.samples > 2 * before[choice.action].samples:
            assert choice.se < before[choice.action].se
        elif choice.samples < refined.samples:  # dropped along the way: surely worse
            assert choice.mistake


def test_why_the_best_beats_another_is_always_a_reason_of_that_kind():
    """``against`` (what a mistake is explained by, worded after the move on the play page)
    only ever holds a code of AGAINST_CODES, at every kind of decision."""
    seen = set()
    for state in some_decisions(24):
        for choice in advise(state).choices[1:]:
            assert choice.against is not None and choice.against["code"] in AGAINST_CODES
            seen.add(choice.against["code"])
    assert len(seen) >= 5, seen  # the decisions are varied enough to say something


def test_the_json_shape():
    state = some_decisions(2, ("discard",))[1]
    advice = advise(state, samples=8)
    data = json.loads(json.dumps(advice.to_json()))
    assert set(data) == {
        "player", "phase", "samples", "exact", "settled", "point_value", "needs",
        "best_by_points", "game_first", "choices", "evaluation",
    }  # fmt: skip
    for choice in data["choices"]:
        assert set(choice) == {
            "action", "win", "points", "cost", "se", "cost_points", "samples", "mistake",
            "reason", "against", "reasons",
        }  # fmt: skip
        assert 0 <= choice["win"] <= 1 and choice["cost"] >= 0 and choice["se"] >= 0
        assert choice["reasons"][0]["code"] == "expected"
        assert choice["reasons"][1] == choice["reason"]
        for reason in choice["reasons"][1:] + [choice["reason"]]:
            assert set(reason) - {"code"} == set(REASON_CODES[reason["code"]]), reason
            assert all(isinstance(v, (int, float, str)) for v in reason.values()), reason
    assert Evaluation.from_json(data["evaluation"]) == advice.evaluation
    assert data["choices"][0]["against"] is None
    assert all(c["against"]["code"] in AGAINST_CODES for c in data["choices"][1:])


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
        advice.assess({"kind": "pass", "player": 0})
    assert info.value.to_json() == {
        "code": "illegal_choice",
        "message": "pass 0 is not one of the choices",
        "params": {"action": "pass 0"},
    }


def refusal(setting: str, value: str, message: str) -> dict:
    return {
        "code": "bad_setting",
        "message": message,
        "params": {"setting": setting, "value": value},
    }


SAMPLES = f"samples must be a whole number from 1 to {MAX_SAMPLES} (or 0 with previous), not "
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


def test_advice_in_every_phase_of_a_real_hand():
    state = deal(seed=4)
    phases = set()
    while not state.finished:
        advice = advise(state, samples=2)
        assert sorted(map(str, (c.action for c in advice.choices))) == sorted(
            map(str, legal_actions(state))
        )
        phases.add(state.phase)
        state = apply(state, advice.best.action)
    assert {"offer", "draw", "discard"} <= phases


# --- the score of the game ----------------------------------------------------------------


def test_near_the_end_of_a_game_ending_the_hand_matters_more_than_points():
    """Knock with 2 now, or play on for gin (5 cards give it, 20 in the stock)? Needing 5 to
    win the game, the knock wins it unless undercut: the coach knocks, and says why when hand
    points would rank otherwise."""
    from ginrummy.match import Game, Played

    state = position(MELDED + " 9C 2D KD", "5H", "discard")
    state = dataclasses.replace(state, stock=state.stock[:20])
    game = Game(
        state.rules, "standard", 0, 1, "void",
        (Played(1, HandEntry(0, 95)), Played(0, HandEntry(1, 50))), state,
    )  # fmt: skip
    advice = advise(game, samples=MAX_SAMPLES)  # playing on loses about 1 game in 300: 64
    assert advice.needs == (5, 50)  # worlds may see none of it, then points rank the two
    assert advice.best.action == Action("knock", 0, Card.parse("KD"))
    assert advice.best.win > 0.9
    at_start = advise(state, samples=64)
    assert advice.point_value != at_start.point_value
    if advice.game_first:
        assert advice.best.reason == {"code": "game_first", "player": 0, "needs": 5}


# --- reasons true to the position ---------------------------------------------------------


def coach(hand: str, pile: str, rules: str = "standard", phase: str = "discard") -> dict:
    """Each choice's reasons after its numbers, by the choice's text, in the position of
    ``hand`` and ``pile`` (tests.engine.test_bots.position)."""
    state = position(hand, pile, phase, rules)
    return {str(c.action): list(c.reasons[1:]) for c in advise(state, samples=4).choices}


GIN_HAND = "AS 2S 3S 4H 5H 6H 7C 8C 9C TC"


@pytest.mark.parametrize(
    "hand, pile, rules, phase, choice, reason",
    [
        (GIN_HAND + " KD", "5D", "standard", "discard", "gin 0 KD", {"code": "gin", "bonus": 25}),
        (GIN_HAND + " JC", "5D", "standard", "discard", "big_gin 0", {"code": "big_gin", "bonus": 31}),
        ("AS 2S 3S 4H 5H 6H 7C 8C 9C 2D KD", "5D", "oklahoma", "discard", "knock 0 KD",
         {"code": "knock", "deadwood": 2, "limit": 5}),
        ("AS 2S 3S 4H 5H 6H 7C 8C 2D KD", "9C", "standard", "offer", "take_upcard 0",
         {"code": "knock_after", "card": "9C", "deadwood": 2}),
        ("AS 2S 3S 4H 5H 6H 7C 8C 2D KD", "5D 9C", "standard", "draw", "draw_discard 0",
         {"code": "makes_meld", "card": "9C", "meld": "7C 8C 9C"}),
        ("AS 2S 3S 4H 5H 6H 7C 8C 2D KD", "5D QS", "standard", "draw", "draw_stock 0",
         {"code": "no_meld", "card": "QS"}),
    ],
)  # fmt: skip
def test_each_choice_gets_its_reasons(hand, pile, rules, phase, choice, reason):
    assert reason in coach(hand, pile, rules, phase)[choice]


def test_outs_are_the_unseen_cards_that_make_or_extend_a_meld():
    """3S 4S 5S 7H 7D 7C 9C TC JC KD and 2D: after throwing KD, the outs are 2S, 6S (the run),
    7S (the set), 8C, QC (the clubs run): 5 cards, not every card that lowers the deadwood."""
    reasons = coach("3S 4S 5S 7H 7D 7C 9C TC JC KD 2D", "8H")["discard 0 KD"]
    assert {"code": "outs", "outs": 5} in reasons


def test_two_cards_are_never_called_a_run():
    """7D 8D loose: a partial meld of two cards, and the unseen cards that complete it."""
    reasons = coach("2S 3S 4S 9C 9S 9H 7D 8D KD QC JH", "4C")["discard 0 JH"]
    partial = [r for r in reasons if r["code"] == "keeps_partial"]
    assert {"code": "keeps_partial", "cards": "7D 8D", "outs": "6D 9D"} in partial
    assert all(len(r["cards"].split()) == 2 for r in partial)
    runs = [r for r in reasons if r["code"] == "keeps_run_open"]
    assert all(len(r["meld"].split()) >= 3 for r in runs)


def test_a_card_the_computer_threw_is_never_said_to_be_of_its_own_rank():
    """Player 1 threw Q♣, player 0 took it back from the pile and now may throw it again: the
    reason is that the other player threw this very card, not "Q♣, of the same rank" (a
    Hungarian editor read "the computer threw a card of the same rank, Q♣" about Q♣)."""
    state = position("AS 2S 3S 4H 5H 6H QC 9D KD 2C 7S", "5D TD 2H 8H", "discard")
    history = (
        Event("pass", 0),
        Event("pass", 1),
        Event("draw_stock", 0),
        Event("discard", 0, Card.parse("TD")),
        Event("draw_stock", 1),
        Event("discard", 1, Card.parse("QC")),
        Event("draw_discard", 0, Card.parse("QC")),
        Event("discard", 0, Card.parse("2H")),
        Event("draw_stock", 1),
        Event("discard", 1, Card.parse("8H")),
        Event("draw_stock", 0),
    )
    state = dataclasses.replace(state, history=history)
    reasons = {str(c.action): c.reasons for c in advise(state, samples=4).choices}
    said = reasons["discard 0 QC"]
    assert {"code": "opponent_threw_it", "card": "QC"} in said
    assert not any(r.get("threw") == "QC" for r in said)


def test_the_docstring_lists_every_reason_code():
    listed = set(re.findall(r"^- ``(\w+)``", ginrummy.advice.__doc__, re.M)) - {"expected"}
    assert listed == set(REASON_CODES)


# --- hand-built positions from issue 30 ----------------------------------------------------


def test_a_one_point_knock_late_in_the_stock_is_no_mistake():
    """1 point of deadwood, 8 cards left in the stock: knocking is the coach's choice, or at
    worst within the margin: never called a mistake of many points."""
    state = position("AS 2S 3S 4H 5H 6H 7C 8C 9C AD KD", "5D", "discard")
    state = dataclasses.replace(state, stock=state.stock[:8], discards=state.discards)
    advice = advise(state, samples=48)
    knock = advice.choice(Action("knock", 0, Card.parse("KD")))
    assert not knock.mistake and knock.cost_points < 8


def test_the_safe_card_beside_the_other_players_known_cards():
    """The other player took JH and QH: 9C (no meld with them, safe) rather than breaking the
    pair 6C 6S; throwing TH would hand them a run."""
    state = endgame(
        "AS 2S 3S 4D 5D 6D 6C 6S 9C TH KC", "JH QH", "2C 3C 4C 5C 7C 8C 2H 3H", "KS KH 2D 3D"
    )
    state = dataclasses.replace(state, stock=state.stock + tuple(state.discards[:10]))
    state = dataclasses.replace(state, discards=state.discards[10:])
    advice = advise(state, samples=64)
    th = advice.choice(Action("discard", 0, Card.parse("TH")))
    assert any(r["code"] == "known_to_opponent" for r in th.reasons)
    assert th.against == {"code": "avoids_feeding", "card": "TH", "took": "JH QH"}
    assert advice.best.action.card not in parse_cards("TH 6C 6S")
    six = advice.choice(Action("discard", 0, Card.parse("6C")))
    assert six.cost > 0 and advice.best.action.card in parse_cards("9C KC")


def test_between_two_knocks_the_reason_is_what_is_left_never_the_discards_safety():
    """A knock's discard goes face down and ends the hand: which card the other player threw
    or might take says nothing about it (the reader was told a knock with 6♥ was "safer")."""
    from ginrummy.reasons import Facts, why

    six, three = Card.parse("6H"), Card.parse("3H")
    low = Facts(
        Action("knock", 0, six), six, left=3, ends="knock", limit=10, threw=Card.parse("6S")
    )
    high = Facts(Action("knock", 0, three), three, left=6, ends="knock", limit=10, feeds_near="4H")
    assert why(low, high) == {"code": "lower_deadwood", "points": 3, "other": 6}
    same = dataclasses.replace(high, action=Action("knock", 0, Card.parse("3D")), feeds_near=None)
    assert why(same, high, points=1.2) == {"code": "plays_better", "points": 1.2}
