"""A whole game: the dealer rule, dead hands, the sheet, JSON."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from ginrummy import RULESETS, RuleError
from ginrummy.bots import joins_meld
from ginrummy.cards import DECK
from ginrummy.game import HandEntry
from ginrummy.match import deck_for, game_from_json, new_game, next_dealer, next_hand, play
from ginrummy.melds import meld_kind
from ginrummy.rules import NEXT_DEALER_RULES


def test_the_dealer_rules():
    won_by_1 = HandEntry(1, 20)
    for dealer in (0, 1):
        rules = {name: RULESETS["standard"].replace(next_dealer=name) for name in NEXT_DEALER_RULES}
        assert next_dealer(rules["alternate"], dealer, won_by_1) == 1 - dealer
        assert next_dealer(rules["winner"], dealer, won_by_1) == 1
        assert next_dealer(rules["loser"], dealer, won_by_1) == 0
        for rule in rules.values():
            assert next_dealer(rule, dealer, None) == dealer  # a dead hand: the same dealer
    assert RULESETS["pokerwiner"].next_dealer == "winner"
    assert RULESETS["standard"].next_dealer == "alternate"
    with pytest.raises(RuleError) as info:
        RULESETS["standard"].replace(next_dealer="youngest")
    assert info.value.code == "bad_rule"


def finish(game, seed=0):
    """Play the current hand to its end: each player throws the highest card they can."""
    rng = random.Random(seed)
    from ginrummy.hand import legal_actions

    while not game.hand.finished:
        actions = legal_actions(game.hand)
        ending = [a for a in actions if a.kind in ("knock", "gin", "big_gin", "lay_off")]
        game = play(game, ending[0] if ending else rng.choice(actions))
    return game


def test_a_dead_hand_is_dealt_again_by_the_same_dealer_and_the_seed_replays_the_deals():
    game = new_game(seed=11, dealer=1)
    assert game.hand.stock == deck_for(11, 0)[21:]
    while True:
        game = finish(game)
        if game.hand.outcome == "dead":
            break
        game = next_hand(game)
    dealer = game.hand.dealer
    after = next_hand(game)
    assert after.hand.dealer == dealer and after.played[-1].entry is None
    assert after.hand.stock == deck_for(11, len(after.played))[21:]
    assert game_from_json(after.to_json()) == after


def test_the_game_ends_with_its_sheet_and_json_is_checked():
    game = new_game(RULESETS["standard"].replace(game_target=1), seed=3)
    while not game.finished:
        game = finish(game)
        if not game.finished:
            game = next_hand(game)
    assert game.sheet.finished and game.sheet.winner in (0, 1)
    with pytest.raises(RuleError) as info:
        next_hand(game)
    assert info.value.code == "game_over"
    data = json.loads(json.dumps(game.to_json()))
    assert game_from_json(data) == game

    def code(change):
        spoiled = json.loads(json.dumps(data))
        change(spoiled)
        with pytest.raises(RuleError) as info:
            game_from_json(spoiled)
        return info.value.code

    assert code(lambda d: d.update(version=2)) == "bad_game"
    assert code(lambda d: d.update(format="swiss")) == "bad_setting"
    assert code(lambda d: d.update(first_dealer=1 - d["first_dealer"])) == "bad_game"
    assert code(lambda d: d.pop("played")) == "bad_game"
    assert code(
        lambda d: d["played"].append({"dealer": 0, "entry": {"winner": 0, "points": 200}})
    ) in ("bad_game", "game_over")
    assert code(lambda d: d.update(played="x")) == "bad_game"
    assert code(lambda d: d.update(hand=[])) == "bad_game"


def test_hollywood_games_run_until_every_column_closes():
    game = new_game(RULESETS["standard"].replace(game_target=1), format="hollywood", seed=8)
    while not game.finished:
        game = finish(game, seed=game.number)
        if not game.finished:
            game = next_hand(game)
    assert all(column.finished for column in game.sheet.columns)


def test_joins_meld_agrees_with_a_brute_force():
    rng = random.Random(2)
    for _ in range(2000):
        cards = rng.sample(DECK, 9)
        card = cards.pop()
        mask = sum(c.bit for c in cards)
        brute = any(
            meld_kind(card.bit | a.bit | b.bit) for a, b in itertools.combinations(cards, 2)
        )
        assert joins_meld(mask, card) == brute
