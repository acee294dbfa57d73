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
from ginrummy.hand import deal
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


GAME = next_hand(finish(new_game(RULESETS["standard"], seed=3)))  # hand 1 was dead
SPOILED_GAMES = {  # name: (the JSON of GAME changed, the error in full)
    "not an object": (
        lambda d: ["game"],
        {
            "code": "bad_game",
            "message": "a game must be an object",
            "params": {"field": "game", "value": "list"},
        },
    ),
    "no hand": (
        lambda d: {k: v for k, v in d.items() if k != "hand"},
        {
            "code": "bad_game",
            "message": "the game has no 'hand'",
            "params": {"field": "hand", "value": "None"},
        },
    ),
    "version 2": (
        lambda d: {**d, "version": 2},
        {
            "code": "bad_game",
            "message": "unknown game version 2",
            "params": {"field": "version", "value": "2"},
        },
    ),
    "an unknown end of the stock": (
        lambda d: {**d, "end_of_stock": "burn"},
        {
            "code": "bad_game",
            "message": "end_of_stock must be void or reshuffle",
            "params": {"field": "end_of_stock", "value": "burn"},
        },
    ),
    "a first dealer of 2": (
        lambda d: {**d, "first_dealer": 2},
        {
            "code": "bad_game",
            "message": "first_dealer must be 0 or 1",
            "params": {"field": "first_dealer", "value": "2"},
        },
    ),
    "the other first dealer": (
        lambda d: {**d, "first_dealer": 1 - d["first_dealer"]},
        {
            "code": "bad_game",
            "message": "hand 1 was dealt by 1",
            "params": {"field": "played", "value": "0"},
        },
    ),
    "played as a text": (
        lambda d: {**d, "played": "x"},
        {
            "code": "bad_game",
            "message": "played must be a list of at most 4000 hands",
            "params": {"field": "played", "value": "str"},
        },
    ),
    "a hand that is a list": (
        lambda d: {**d, "hand": []},
        {
            "code": "bad_game",
            "message": "hand must be a hand state",
            "params": {"field": "hand", "value": "list"},
        },
    ),
    "a hand played without its dealer": (
        lambda d: {**d, "played": [{"entry": None}]},
        {
            "code": "bad_game",
            "message": "each hand played is {dealer, entry}",
            "params": {"field": "played", "value": "{'entry': None}"},
        },
    ),
    "a hand played by the wrong dealer": (
        lambda d: {**d, "played": [{**d["played"][0], "dealer": 1 - d["played"][0]["dealer"]}]},
        {
            "code": "bad_game",
            "message": "hand 1 was dealt by 0",
            "params": {"field": "played", "value": "1"},
        },
    ),
    "the current hand's dealer": (
        lambda d: {**d, "hand": {**d["hand"], "dealer": 1 - d["hand"]["dealer"]}},
        {
            "code": "bad_game",
            "message": "hand 2 is dealt by 0",
            "params": {"field": "hand", "value": "1"},
        },
    ),
    "the current hand under other rules": (
        lambda d: {**d, "hand": {**d["hand"], "rules": "pagat"}},
        {
            "code": "bad_game",
            "message": "the hand is played with the game's rules",
            "params": {"field": "hand", "value": "pagat"},
        },
    ),
    "an unknown format": (
        lambda d: {**d, "format": "swiss"},
        {
            "code": "bad_setting",
            "message": "format must be one of standard, hollywood, not 'swiss'",
            "params": {"setting": "format", "value": "swiss"},
        },
    ),
}


@pytest.mark.parametrize("name", SPOILED_GAMES)
def test_a_spoiled_game_is_refused_in_full(name):
    change, expected = SPOILED_GAMES[name]
    data = json.loads(json.dumps(GAME.to_json()))
    assert game_from_json(data) == GAME
    with pytest.raises(RuleError) as info:
        game_from_json(change(data))
    assert info.value.to_json() == expected


def test_a_game_stored_after_its_end_is_refused():
    """A game whose hands played already make a finished sheet cannot go on to another."""
    over = finish(new_game(RULESETS["standard"].replace(game_target=1), seed=6))
    assert over.finished
    data = json.loads(json.dumps(over.to_json()))
    entry = over.hand.entry()
    data["played"].append({"dealer": over.hand.dealer, "entry": entry.to_json()})
    dealer = next_dealer(over.rules, over.hand.dealer, entry)
    data["hand"] = deal(seed=1, dealer=dealer, rules=over.rules).to_json()
    with pytest.raises(RuleError) as info:
        game_from_json(data)
    assert info.value.to_json() == {
        "code": "game_over",
        "message": "the game ended before hand 2",
        "params": {"hand": 2, "ended_on": 1},
    }


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
