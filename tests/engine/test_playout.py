"""Playouts: the base policy's moves on bit masks are the engine's moves, proven move by move."""

from __future__ import annotations

import dataclasses
import random

import ginrummy.playout
import pytest
from ginrummy.cards import DECK, Card, Hand, parse_cards
from ginrummy.hand import END_OF_STOCK, Action, HandState, apply, deal, legal_actions
from ginrummy.melds import min_deadwood_after_discard_mask, min_deadwood_mask
from ginrummy.playout import playout, playout_end, policy_action, score_end, view_action
from ginrummy.policy import (
    knock_threshold,
    knocks,
    live_mask,
    meld_capable,
    meld_outs,
    near_cards,
    takes,
    throw,
)
from ginrummy.public import view
from ginrummy.rules import RULESETS
from ginrummy.scoring import score_hand

from tests.engine.test_bots import MELDED, position


def policy_moves(state: HandState, most: int = 10_000) -> HandState:
    """``state`` after up to ``most`` of the policy's moves, each played by the engine's
    :func:`~ginrummy.hand.apply` (checks and public history included)."""
    for _ in range(most):
        if state.finished:
            break
        action = policy_action(state)
        assert action in legal_actions(state)
        state = apply(state, action)
    return state


def without_history(state: HandState) -> dict:
    return {k: v for k, v in state.__dict__.items() if k != "history"}


def hands_to_check(rules: str, end_of_stock: str, count: int = 30):
    for seed in range(count):
        state = deal(seed=seed, dealer=seed % 2, rules=rules, end_of_stock=end_of_stock)
        if seed % 2:  # a short stock (the rest under the pile): the playout meets its end
            short = 3 + seed % 5
            state = dataclasses.replace(
                state, stock=state.stock[:short], discards=state.stock[short:] + state.discards
            )
        yield seed, policy_moves(state, seed % 9 * 5)  # from the offer to late in the hand


@pytest.mark.parametrize("rules", sorted(RULESETS))
@pytest.mark.parametrize("end_of_stock", END_OF_STOCK)
def test_a_playout_plays_the_policy_move_by_move(rules, end_of_stock):
    """The playout plays its draws and discards on bit masks: the hand it ends with (cards in
    order, stock, pile, outcome, score) is the one the engine's moves give, move by move, for
    the moves the policy chooses from each player's own knowledge; and the fast ending
    (scored from the cards) is the same."""
    ended, reshuffled = set(), 0
    for seed, state in hands_to_check(rules, end_of_stock):
        expected = policy_moves(state)
        got = playout(state)
        assert without_history(got) == without_history(expected), seed
        assert got.result == expected.result
        assert playout_end(state) == (got.entry(), got.outcome, got.knocker)
        ended.add(got.outcome)
        reshuffled += got.reshuffles
    assert "knock" in ended
    assert ("dead" in ended) if end_of_stock == "void" else reshuffled


def test_the_policy_reads_only_what_its_player_may_know():
    """The move from the state (the public history) and from the player's view agree, and
    shuffling the cards the player cannot see changes nothing."""
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        state = deal(seed=seed)
        while not state.finished:
            if state.phase != "lay_off":
                seen = view(state, state.turn)
                move = policy_action(state)
                assert view_action(seen) == move
                pool = [c for c in seen.unseen]
                rng.shuffle(pool)
                other = [c for c in state.hands[1 - state.turn] if c in seen.known]
                hidden = len(state.hands[1 - state.turn]) - len(other)
                hands = list(state.hands)
                hands[1 - state.turn] = Hand(other + pool[:hidden])
                moved = dataclasses.replace(state, hands=tuple(hands), stock=tuple(pool[hidden:]))
                assert policy_action(moved) == move
                checked += 1
            state = apply(state, policy_action(state))
    assert checked > 100


def test_a_playout_draws_from_the_stock_when_the_pile_is_closed():
    """After both players pass the upcard, the first draw is from the stock, even in a world
    where the player to draw holds a pair the upcard would make a set with."""
    state = deal(seed=0)
    for _ in range(2):
        state = apply(state, Action("pass", state.turn))
    assert state.stock_only and str(state.upcard) == "AC"
    aces = [c for c in state.stock if c.rank == 1]
    hands = list(state.hands)
    hands[state.turn] = Hand(aces + list(hands[state.turn])[2:])
    stock = tuple(list(state.hands[state.turn])[:2] + [c for c in state.stock if c.rank != 1])
    state = dataclasses.replace(state, hands=tuple(hands), stock=stock)
    assert policy_action(state) == Action("draw_stock", state.turn)
    assert without_history(playout(state)) == without_history(policy_moves(state))


@pytest.mark.parametrize("cap", [1, 2, 3, 4, 7, 12])
def test_a_playout_that_reaches_the_cap_counts_as_a_dead_hand(monkeypatch, cap):
    """A playout stops after MAX_PLIES moves (the move cap): it is the hand after those
    moves, dead; the fast ending says dead too."""
    monkeypatch.setattr(ginrummy.playout, "MAX_PLIES", cap)
    state = deal(seed=3)
    expected = policy_moves(state, cap)
    assert expected.phase != "finished"
    got = playout(state)
    assert (got.phase, got.outcome) == ("finished", "dead")
    assert without_history(got) == {
        **without_history(expected),
        "phase": "finished",
        "outcome": "dead",
    }
    assert playout_end(state) == (None, "dead", None)


def moves_to_the_end(state: HandState) -> int:
    for count in range(10_000):
        if state.finished:
            return count
        state = policy_moves(state, 1)
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("seed", [3, 5, 8, 11])
def test_a_playout_that_ends_on_its_last_allowed_move_keeps_its_outcome(monkeypatch, seed):
    """A hand that ends on move MAX_PLIES has ended: its own outcome, not a dead hand. One move
    fewer allowed, and it is dead."""
    state = deal(seed=seed)
    moves = moves_to_the_end(state)
    ended = policy_moves(state)
    assert ended.outcome != "dead"
    monkeypatch.setattr(ginrummy.playout, "MAX_PLIES", moves)
    assert without_history(playout(state)) == without_history(ended)
    assert playout_end(state) == (ended.entry(), ended.outcome, ended.knocker)
    monkeypatch.setattr(ginrummy.playout, "MAX_PLIES", moves - 1)
    assert playout(state).outcome == "dead"
    assert playout_end(state) == (None, "dead", None)


def test_the_policy_never_throws_the_card_it_took():
    """Neither the throw to play on nor the one to end the hand is the card just taken from
    the pile, whatever the hand (the engine would refuse it)."""
    from ginrummy.policy import discard_choice

    rng = random.Random(8)
    for _ in range(300):
        cards = rng.sample(DECK, 11)
        mask = sum(c.bit for c in cards)
        taken = cards[rng.randrange(11)]
        least, end, left, thrown = discard_choice(mask, taken, live_mask(mask, 0, 0), 0, 20)
        assert taken not in (end, thrown)
        assert least == min(min_deadwood_mask(mask ^ c.bit) for c in cards if c is not taken)
        assert min_deadwood_mask(mask ^ end.bit) == least
        assert min_deadwood_mask(mask ^ thrown.bit) == left


@pytest.mark.parametrize("rules, move", [("standard", "big_gin 0"), ("pagat", "gin 0 QH")])
def test_the_policy_declares_big_gin_where_the_rules_have_it(rules, move):
    state = position("9H TH JH QH 2C 2D 2S 4C 4D 4S 4H", "5D", "discard", rules=rules)
    assert str(policy_action(state)) == move


@pytest.mark.parametrize(
    "hand, drawn, kept, expected",
    [
        ("2C 3C 4C", "5C", "2C 3C 4C 5C", "2C 3C 4C 5C"),  # a card drawn goes to the end
        ("2C 3C 4C", "5C 6C", "2C 4C 5C 6C", "2C 4C 5C 6C"),  # a card thrown leaves its place
        ("2C 3C 4C", "5C 6C 5C", "2C 3C 4C 5C 6C", "2C 3C 4C 6C 5C"),  # drawn twice: last place
        ("2C 3C 4C", "3C 7D", "2C 3C 4C 7D", "2C 4C 3C 7D"),  # thrown, then drawn back
    ],
)
def test_the_playouts_keep_a_hand_in_the_order_of_the_engines_moves(hand, drawn, kept, expected):
    mask = sum(c.bit for c in parse_cards(kept))
    drawn_cards = [Card.parse(card) for card in drawn.split()]
    got = ginrummy.playout._kept(Hand(parse_cards(hand)), drawn_cards, mask)
    assert got == Hand(parse_cards(expected))


def test_a_hand_ended_is_scored_as_the_engine_scores_it():
    rules = RULESETS["standard"]
    knocker, defender = (
        parse_cards("2S 3S 4S 7H 7D 7C 9C TC JC 5D"),
        parse_cards("8S 9S TS KH KD 4H 6C 6H 2C AD"),
    )
    entry, outcome = score_end(knocker.mask, defender.mask, rules, Card.parse("5D"), 1)
    result = score_hand(knocker, defender, rules, "5D")
    assert (entry.winner, entry.points, outcome) == (1, result.points, "knock")


# --- the policy's measures, each against a brute force -------------------------------------


def test_the_outs_of_a_hand_are_the_cards_that_make_or_extend_a_meld():
    """meld_outs against its definition: a card not held that forms a set or a run of 3 with
    some cards held; meld_capable: the cards in some meld of the hand."""
    from itertools import combinations

    from ginrummy.melds import meld_kind

    rng = random.Random(5)
    for _ in range(300):
        cards = rng.sample(DECK, rng.randint(0, 12))
        mask = sum(c.bit for c in cards)
        expected = 0
        for card in DECK:
            if mask & card.bit:
                continue
            for a, b in combinations(cards, 2):
                if meld_kind(a.bit | b.bit | card.bit):
                    expected |= card.bit
                    break
        assert meld_outs(mask) == expected
        capable = 0
        for trio in combinations(cards, 3):
            bits = sum(c.bit for c in trio)
            if meld_kind(bits):
                capable |= bits
        assert meld_capable(mask) == capable
        near = 0
        for card in cards:
            for other in DECK:
                same = other.rank == card.rank
                suit = other.suit == card.suit and 1 <= abs(other.rank - card.rank) <= 2
                if (same or suit) and not mask & other.bit:
                    near |= other.bit
        assert near_cards(mask) == near


def test_the_throw_leaves_the_deadwood_it_says():
    rng = random.Random(6)
    for _ in range(200):
        cards = rng.sample(DECK, 11)
        mask = sum(c.bit for c in cards)
        taken = rng.choice(cards + [None])
        points, card = throw(mask, taken, live_mask(mask, 0, 0), 0, 20)
        assert card is not taken and mask & card.bit
        assert points == min_deadwood_mask(mask ^ card.bit)
        least = min(min_deadwood_mask(mask ^ c.bit) for c in cards if c is not taken)
        assert points <= least + ginrummy.policy.SLACK


@pytest.mark.parametrize(
    "hand, top, taken",
    [
        (MELDED + " 2D KD", "9C", True),  # makes a run: 2 points left
        (MELDED + " 2D KD", "QS", False),  # no meld, 12 points: no gain worth it
        (MELDED + " 2D KD", "AC", True),  # throw KD for AC: 13 to 3, and a knock at once
        ("AS 2S 3S 4H 5H 6H 8C 9D KD QC", "2C", True),  # 8 or more points lower: 41 to 33
        ("AS 2S 3S 4H 5H 6H 8C 9D KD QC", "5C", False),  # 5 lower
    ],
)
def test_when_the_policy_takes_from_the_pile(hand, top, taken):
    assert takes(parse_cards(hand).mask, Card.parse(top), 10) is taken


def test_the_knock_threshold_falls_as_the_stock_runs_down():
    assert [knock_threshold(s, 10) for s in range(31, 0, -1)][:17] == [10] * 17
    assert knock_threshold(2, 10) == 4 and knock_threshold(20, 6) == 6
    rest = parse_cards("AS 2S 3S 4H 5H 6H 7C 8C 9C 2D").mask  # 2 points: 5 cards give gin
    live = live_mask(rest, 0, 0)
    assert not knocks(2, rest, live, 20, 10)  # play on for gin
    assert knocks(2, rest, live, 12, 10)
    assert min_deadwood_after_discard_mask(rest | Card.parse("4S").bit) == 0
