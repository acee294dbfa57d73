"""How a hand may end (ginrummy.ending): the verdicts and coded refusals, and every caller
(score_hand, the turn-by-turn hand, the JSON knock op) agreeing with them."""

from __future__ import annotations

import json
import random

import pytest
from ginrummy import (
    DECK,
    RULESETS,
    Card,
    RuleError,
    api,
    best_melds,
    check_ending,
    get_rules,
    min_deadwood,
    parse_cards,
    score_hand,
    verdict,
)
from ginrummy.hand import Action, apply, deal, legal_actions

STANDARD, PAGAT, OKLAHOMA = RULESETS["standard"], RULESETS["pagat"], RULESETS["oklahoma"]
ACE_ONE = OKLAHOMA.replace(ace_upcard="one")
NO_KNOCK = STANDARD.replace(knock_limit=0)


@pytest.mark.parametrize(
    "deadwood, rules, upcard, big_gin, kind, limit",
    [
        (0, STANDARD, None, False, "gin", 10),
        (10, STANDARD, None, False, "knock", 10),
        (11, STANDARD, None, False, "no", 10),
        (0, STANDARD, None, True, "big_gin", 10),
        (0, PAGAT, None, True, "gin", 10),  # no big gin in Pagat's rules: the hand is still gin
        (3, OKLAHOMA, "3D", False, "knock", 3),
        (4, OKLAHOMA, "3D", False, "no", 3),
        (10, OKLAHOMA, "KD", False, "knock", 10),
        (1, OKLAHOMA, "AH", False, "no", 0),
        (0, OKLAHOMA, "AH", False, "gin", 0),
        (1, ACE_ONE, "AH", False, "knock", 1),
        (1, NO_KNOCK, None, False, "no", 0),
    ],
)
def test_verdicts(deadwood, rules, upcard, big_gin, kind, limit):
    upcard = Card.parse(upcard) if upcard else None
    found = verdict(deadwood, rules, upcard, big_gin=big_gin)
    assert (found.kind, found.deadwood, found.limit) == (kind, deadwood, limit)


@pytest.mark.parametrize(
    "claim, deadwood, rules, upcard, code, params",
    [
        ("knock", 11, STANDARD, None, "knock_over_limit", {"deadwood": 11, "limit": 10}),
        ("knock", 4, OKLAHOMA, "3D", "knock_over_limit", {"deadwood": 4, "limit": 3}),
        ("knock", 1, OKLAHOMA, "AH", "gin_required", {"deadwood": 1, "upcard": "AH"}),
        ("knock", 1, NO_KNOCK, None, "knock_over_limit", {"deadwood": 1, "limit": 0}),
        ("gin", 3, STANDARD, None, "not_gin", {"deadwood": 3}),
        ("gin", 15, STANDARD, None, "not_gin", {"deadwood": 15}),
        ("big_gin", 0, PAGAT, None, "big_gin_not_played", {"rules": "pagat"}),
        ("big_gin", 5, PAGAT, None, "big_gin_not_played", {"rules": "pagat"}),
        ("big_gin", 5, STANDARD, None, "not_big_gin", {"deadwood": 5}),
        ("knock", 3, OKLAHOMA, None, "upcard_required", {}),
        ("fold", 3, STANDARD, None, "bad_claim", {"claim": "'fold'"}),
    ],
)
def test_refusals_are_coded(claim, deadwood, rules, upcard, code, params):
    with pytest.raises(RuleError) as info:
        check_ending(claim, deadwood, rules, Card.parse(upcard) if upcard else None)
    assert (info.value.code, info.value.params) == (code, params)


def test_allowed_claims():
    assert check_ending("knock", 0, STANDARD).kind == "gin"  # a knock with deadwood 0 is gin
    assert check_ending("knock", 7, STANDARD).kind == "knock"
    assert check_ending("gin", 0, OKLAHOMA, Card.parse("AH")).kind == "gin"
    assert check_ending("big_gin", 0, STANDARD).kind == "big_gin"


RULES = [
    ("standard", None),
    ("pagat", None),
    ("oklahoma", "random"),
    ("oklahoma", "AH"),
    ({"name": "oklahoma", "ace_upcard": "one"}, "AD"),
    ({"name": "standard", "knock_limit": 0}, None),
]


def eleven_card_hands(count: int, seed: int):
    """Seeded 11-card hands, half of them meld-dense (ranks 3 to 7), with a defender."""
    rng = random.Random(seed)
    dense = [c for c in DECK if 3 <= c.rank <= 7]
    for i in range(count):
        cards = rng.sample(dense, 11) if i % 2 else rng.sample(DECK, 11)
        rest = [c for c in DECK if c not in cards]
        yield parse_cards(cards), parse_cards(rng.sample(rest, 10)), rng


def test_every_caller_agrees_with_the_verdict():
    """The JSON knock op, score_hand and the hand's legal actions decide alike, hand by hand."""
    seen = set()
    for cards, defender, rng in eleven_card_hands(300, 7):
        for rules, upcard in RULES:
            upcard = rng.choice(DECK) if upcard == "random" else upcard and Card.parse(upcard)
            request = {"op": "knock", "cards": str(cards), "rules": rules}
            if upcard:
                request["upcard"] = str(upcard)
            answer = json.loads(api.handle(json.dumps(request)))["result"]
            best = best_melds(cards)
            found = verdict(best.points, get_rules(rules), upcard, big_gin=best.big_gin)
            assert (answer["verdict"], answer["limit"]) == (found.kind, found.limit)
            seen.add(found.kind)
            kept = [c for c in cards if c is not best.discard]
            if found.kind == "big_gin":
                assert score_hand(cards, defender, rules, upcard).outcome == "big_gin"
            elif found.kind == "no":
                with pytest.raises(RuleError) as info:
                    score_hand(kept, defender, rules, upcard)
                assert info.value.code in ("knock_over_limit", "gin_required")
            else:
                result = score_hand(kept, defender, rules, upcard)
                assert result.knocker_points == best.points
                assert (result.outcome == "gin") == (found.kind == "gin")
    assert seen == {"big_gin", "gin", "knock", "no"}


def test_legal_actions_follow_the_verdict():
    """Along played hands, each discard's knock/gin actions and big gin follow the verdict."""
    for seed in range(12):
        state = deal(seed=seed, rules=["standard", "oklahoma", "pagat"][seed % 3])
        for _ in range(60):
            if state.finished:
                break
            actions = legal_actions(state)
            if state.phase == "discard":
                hand = state.hands[state.turn]
                for card in hand:
                    if card is state.taken:
                        continue
                    kind = verdict(
                        min_deadwood([c for c in hand if c is not card]), state.rules, state.upcard
                    ).kind
                    assert (Action("knock", state.turn, card) in actions) == (
                        kind in ("knock", "gin")
                    )
                    assert (Action("gin", state.turn, card) in actions) == (kind == "gin")
                big = (
                    verdict(
                        min_deadwood(hand),
                        state.rules,
                        state.upcard,
                        big_gin=best_melds(hand).big_gin,
                    ).kind
                    == "big_gin"
                )
                assert (Action("big_gin", state.turn) in actions) == big
                ends = [a for a in actions if a.kind != "discard"]
                if ends:
                    state = apply(state, ends[0])
                    continue
            state = apply(state, actions[-1] if state.phase == "discard" else actions[0])
