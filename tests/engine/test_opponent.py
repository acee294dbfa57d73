"""The opponent model: each deal weighed by the other player's public moves, sampled in
proportion, checked against exact enumeration and a brute force of the definition."""

from __future__ import annotations

import collections
import dataclasses
import itertools
import math
import random

import pytest
from ginrummy.cards import DECK, Card, Hand, parse_cards
from ginrummy.hand import END_OF_STOCK, Event, HandState, apply, deal
from ginrummy.melds import meld_kind, min_deadwood_mask
from ginrummy.opponent import (
    TAKE_MELD,
    TAKE_OTHER,
    THROW_MELDED,
    THROW_PAIRED,
    TILT,
    TILT_FLOOR,
    Model,
    every_world,
    sample_worlds,
    world_state,
)
from ginrummy.playout import policy_action
from ginrummy.public import view
from ginrummy.rules import RULESETS, get_rules

MINE = "AS 2S 3S 7H 7D 7C 4C 5C 6C 9D KH"
KNOWN = "QS QH QD JC TC 9C 8D 8H"
UNSEEN = "8C 4H KD 2D 6S 5S"
THROWN = "KS KC JS JD TS TD 3H 3D"  # the other player's discards, in order
DECLINED = "2H 5H"  # my discards the other player drew from the stock over


def inferred() -> HandState:
    """Player 0 to throw from ``MINE``; player 1 took the 8 ``KNOWN`` cards from the pile,
    threw ``THROWN`` and passed over ``DECLINED``; 2 of the 6 ``UNSEEN`` cards are in their
    hand, 4 in the stock."""
    mine, known, unseen = parse_cards(MINE), parse_cards(KNOWN), parse_cards(UNSEEN)
    history = []
    for took, threw in zip(known, parse_cards(THROWN)):
        history += [
            Event("discard", 0, took),
            Event("draw_discard", 1, took),
            Event("discard", 1, threw),
            Event("draw_stock", 0),
        ]
    for passed in parse_cards(DECLINED):
        history += [
            Event("discard", 0, passed),
            Event("draw_stock", 1),
            Event("discard", 1, passed),
        ]
    history.append(Event("draw_stock", 0))
    placed = set(mine) | set(known) | set(unseen)
    pile = tuple(c for c in DECK if c not in placed)
    return HandState(
        rules=get_rules("standard"),
        dealer=1,
        hands=(mine, Hand(list(known) + list(unseen[:2]))),
        stock=tuple(unseen[2:]),
        discards=pile,
        upcard=pile[0],
        phase="discard",
        turn=0,
        history=tuple(history),
    )


def melds_with(cards: int, card: Card) -> bool:
    """Brute force: ``card`` makes a set or a run of 3 with two of ``cards``."""
    held = [c for c in DECK if cards & c.bit and c is not card]
    return any(meld_kind(a.bit | b.bit | card.bit) for a, b in itertools.combinations(held, 2))


def paired_with(cards: int, card: Card) -> bool:
    """Brute force: another card of ``cards`` of ``card``'s rank, or of its suit 1 or 2 away."""
    return any(
        c is not card
        and cards & c.bit
        and (c.rank == card.rank or (c.suit == card.suit and abs(c.rank - card.rank) <= 2))
        for c in DECK
    )


def brute_weight(state: HandState, hidden: tuple[Card, ...], tilt: float) -> float:
    """The weight of player 1 holding ``hidden`` (the definition in ginrummy.opponent,
    written out move by move, forwards)."""
    history = state.history
    now = parse_cards(KNOWN).mask | sum(c.bit for c in hidden)
    weight = math.exp(-tilt * max(min_deadwood_mask(now), TILT_FLOOR))
    top = state.upcard
    for index, event in enumerate(history):
        later = [e for e in history[index + 1 :] if e.player == 1 and e.card is not None]
        held = now
        for e in later:  # back in time: a card thrown since was held, one taken was not
            held = held | e.card.bit if e.kind == "discard" else held & ~e.card.bit
        if event.player == 1 and event.kind == "discard":
            if melds_with(held, event.card):
                weight *= THROW_MELDED
            elif paired_with(held, event.card):
                weight *= THROW_PAIRED
        elif event.player == 1 and event.kind == "draw_discard":
            held &= ~event.card.bit
            weight *= TAKE_MELD if melds_with(held, event.card) else TAKE_OTHER
        elif event.player == 1 and event.kind == "draw_stock":
            weight *= 1 - (TAKE_MELD if melds_with(held, top) else TAKE_OTHER)
        if event.kind == "discard":
            top = event.card
    return weight


def test_each_deal_is_weighed_by_the_other_players_moves():
    """The weight of every hidden pair equals the brute force of its definition, and the
    weights differ (the moves tell the deals apart)."""
    state = inferred()
    model = Model(view(state, 0))
    assert sorted(model.unseen) == sorted(parse_cards(UNSEEN)) and model.hidden == 2
    weights = {}
    for held in itertools.combinations(sorted(parse_cards(UNSEEN)), 2):
        weights[held] = model.weight(sum(c.bit for c in held))
        assert weights[held] == pytest.approx(brute_weight(state, held, model.tilt), rel=1e-12)
    assert model.tilt == TILT  # they drew 10 times
    assert max(weights.values()) > 3 * min(weights.values())


def test_the_worlds_enumerated_carry_the_exact_weights():
    state = inferred()
    model = Model(view(state, 0))
    worlds = list(every_world(model))
    assert len(worlds) == model.world_count() == math.comb(6, 2) * math.factorial(4)
    assert sum(w for _, w in worlds) == pytest.approx(1.0)
    by_hidden = collections.Counter()
    for (held, face_down, stock), weight in worlds:
        assert face_down is None and len(stock) == 4 and {*held, *stock} == set(model.unseen)
        by_hidden[frozenset(held)] += weight
    total = sum(brute_weight(state, tuple(h), model.tilt) for h in by_hidden)
    for held, weight in by_hidden.items():
        assert weight == pytest.approx(brute_weight(state, tuple(held), model.tilt) / total)


def test_the_sampler_draws_deals_in_proportion_to_their_weights():
    """4,000 worlds drawn by the sampler: each hidden pair as often as its exact weight says
    (within 0.025, about 3 standard errors), each stock order uniform."""
    state = inferred()
    model = Model(view(state, 0))
    exact = collections.Counter()
    for (held, _, _), weight in every_world(model):
        exact[frozenset(held)] += weight
    counts = collections.Counter()
    firsts = collections.Counter()
    drawn = 0
    for seed in range(8):
        for held, _, stock in sample_worlds(model, 500, random.Random(seed)):
            counts[frozenset(held)] += 1
            firsts[stock[0]] += 1
            drawn += 1
    assert drawn == 4000
    for held, weight in exact.items():
        assert abs(counts[held] / drawn - weight) < 0.025, (sorted(map(str, held)), weight)
    # the top of the stock: any unseen card not held, in proportion
    expected_first = {c: sum(w for h, w in exact.items() if c not in h) / 4 for c in model.unseen}
    for card, share in expected_first.items():
        assert abs(firsts[card] / drawn - share) < 0.025


def test_without_moves_to_weigh_every_deal_is_as_likely():
    state = deal(seed=3)
    model = Model(view(state, state.turn))
    assert model.moves == () and model.tilt == 0
    worlds = sample_worlds(model, 200, random.Random(1))
    seen = collections.Counter(c for held, _, _ in worlds for c in held)
    assert len(seen) > 35  # uniform: nearly every unseen card held somewhere


def test_after_a_knock_the_face_down_discard_is_dealt_too():
    """The defender sees the knocker's hand: a world is the face-down card and the stock."""
    from ginrummy.hand import Action

    from tests.engine.test_advice import ENDGAMES

    knocked = apply(ENDGAMES["knock"], Action("knock", 0, Card.parse("KH")))
    model = Model(view(knocked, 1))
    assert model.hidden == 0 and model.face_down == 1
    worlds = list(every_world(model))
    assert len(worlds) == model.world_count() == 24
    assert {down for (_, down, _), _ in worlds} == set(model.unseen)
    for held, down, stock in sample_worlds(model, 30, random.Random(2)):
        assert held == () and len(stock) == 3 and {down, *stock} == set(model.unseen)


@pytest.mark.parametrize("rules", sorted(RULESETS))
@pytest.mark.parametrize("end_of_stock", END_OF_STOCK)
def test_the_world_dealt_as_it_really_is_is_the_real_hand(rules, end_of_stock):
    """world_state with the unseen cards put where they really are gives back the real hand,
    every field (the other hand's cards in another order), for both players at every move of
    whole hands: the coach's worlds keep every public fact, the history too."""
    fields = {f.name for f in dataclasses.fields(HandState)} - {"hands"}
    moments = collections.Counter()
    for seed in range(6):
        state = deal(seed=seed, dealer=seed % 2, rules=rules, end_of_stock=end_of_stock)
        if seed % 2:  # a short stock (the rest under the pile): the hand meets its end
            short = 4 + seed % 3
            state = dataclasses.replace(
                state, stock=state.stock[:short], discards=state.stock[short:] + state.discards
            )
        while not state.finished:
            for player in (0, 1):
                seen = view(state, player)
                other = state.hands[1 - player]
                hidden = tuple(c for c in other if c not in seen.known)
                face_down = None if seen.knock_discard else state.knock_discard
                world = world_state(seen, (hidden, face_down, state.stock))
                assert {f: getattr(world, f) for f in fields} == {
                    f: getattr(state, f) for f in fields
                }
                assert world.hands[player] == state.hands[player]
                assert sorted(world.hands[1 - player]) == sorted(other)
            moments.update({"taken": state.taken is not None, state.phase: 1})
            state = apply(state, policy_action(state))
        moments[state.outcome] += 1
    assert moments["taken"] and moments["lay_off"] + moments["gin"]
