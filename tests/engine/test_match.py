"""A whole game: the dealer rule, dead hands, the sheet, JSON."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest
from ginrummy import RULESETS, RuleError, score_hand
from ginrummy.bots import joins_meld
from ginrummy.cards import DECK
from ginrummy.game import MAX_ENTRIES, HandEntry, score_game
from ginrummy.hand import deal
from ginrummy.match import (
    MAX_DEALS,
    MAX_SEED,
    deck_for,
    game_from_json,
    new_game,
    next_dealer,
    next_hand,
    play,
)
from ginrummy.melds import meld_kind
from ginrummy.rules import NEXT_DEALER_RULES, VOID_DEAL_RULES


def test_the_dealer_rules():
    won_by_1 = HandEntry(1, 20)
    for dealer in (0, 1):
        rules = {name: RULESETS["standard"].replace(next_dealer=name) for name in NEXT_DEALER_RULES}
        assert next_dealer(rules["alternate"], dealer, won_by_1) == 1 - dealer
        assert next_dealer(rules["winner"], dealer, won_by_1) == 1
        assert next_dealer(rules["loser"], dealer, won_by_1) == 0
        for rule in rules.values():
            assert next_dealer(rule, dealer, None) == dealer  # a dead hand: the same dealer
            passing = rule.replace(void_deal="next")  # Parlett: the deal passes
            assert next_dealer(passing, dealer, None) == 1 - dealer
            assert next_dealer(passing, dealer, won_by_1) == next_dealer(rule, dealer, won_by_1)
    assert RULESETS["pokerwiner"].next_dealer == "winner"
    assert RULESETS["pagat"].next_dealer == "winner"  # as quoted from Pagat (compared.md)
    assert RULESETS["standard"].next_dealer == "alternate"
    # every preset says who deals after a void hand, and each cites its sources
    for name, preset in RULESETS.items():
        assert preset.void_deal in VOID_DEAL_RULES and preset.sources, name
    with pytest.raises(RuleError) as info:
        RULESETS["standard"].replace(void_deal="loser")
    assert info.value.code == "bad_rule"
    with pytest.raises(RuleError) as info:
        RULESETS["standard"].replace(next_dealer="youngest")
    assert info.value.code == "bad_rule"


def test_who_deals_under_pagat_s_rules_after_a_win_a_tie_and_a_void_hand():
    pagat = RULESETS["pagat"]
    knocker = "5C 6C 7C KS KH KD 3S 3H 3D 4H"  # 4 points of deadwood (scoring/hand.md)
    for dealer in (0, 1):
        for knocked in (0, 1):
            # the defender has 37 left: the knocker wins the hand and deals the next
            won = score_hand(knocker, "8C 9C 2S 2D 2C QS JH TD 6H AS", rules=pagat)
            entry = HandEntry.from_result(won, knocked, pagat)
            assert (won.winner, entry.winner) == ("knocker", knocked)
            assert next_dealer(pagat, dealer, entry) == knocked
            # a tie (4 against 4) counts as an undercut: the defender wins it and deals next
            tie = score_hand(knocker, "8C 4C QS QC QD 6S 7S 8S 2D 2H", rules=pagat)
            entry = HandEntry.from_result(tie, knocked, pagat)
            assert (tie.outcome, tie.points, entry.winner) == ("undercut", 10, 1 - knocked)
            assert next_dealer(pagat, dealer, entry) == 1 - knocked
        # a void hand: nobody won it, and the same dealer deals again
        assert next_dealer(pagat, dealer, None) == dealer
    # a whole game under Pagat's rules: each hand is dealt by the winner of the last one won,
    # the dealer of a void hand deals again
    game = new_game(pagat, seed=3, dealer=0)  # hand 1 of seed 3 is dead (GAME below)
    for _ in range(6):
        game = finish(game)
        entry, dealer = game.hand.entry(), game.hand.dealer
        game = next_hand(game)
        assert game.hand.dealer == (dealer if entry is None else entry.winner)
    assert None in [p.entry for p in game.played]  # the dead hand was played
    assert game_from_json(game.to_json()) == game


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


def test_after_a_void_hand_the_deal_passes_when_the_rules_say_so():
    rules = RULESETS["standard"].replace(void_deal="next")
    game = new_game(rules, seed=3, dealer=0)  # hand 1 of seed 3 is dead (GAME below)
    game = finish(game)
    assert game.hand.outcome == "dead"
    after = next_hand(game)
    assert after.hand.dealer == 1 and after.played[-1].entry is None
    assert game_from_json(after.to_json()) == after


@pytest.mark.parametrize("format", ["standard", "hollywood"])
def test_the_sheet_numbers_hands_as_the_table_does_void_hands_counted(format):
    game = finish(new_game(seed=3, format=format))  # hand 1 of seed 3 is dead
    assert game.hand.outcome == "dead" and game.sheet.rows == ()
    while game.hand.outcome == "dead":
        game = finish(next_hand(game))
    won = game.number
    assert won > 1 and game.numbers == (won,)
    assert [row.hand for row in game.sheet.rows] == [won]
    assert score_game(game.entries).rows[0].hand == 1  # a bare list of entries: 1, 2, 3…
    with pytest.raises(RuleError, match="one rising hand number per entry"):
        score_game(game.entries, numbers=[won, won + 1])


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
    "a long unknown end of the stock": (
        lambda d: {**d, "end_of_stock": "y" * 50},
        {
            "code": "bad_game",
            "message": "end_of_stock must be void or reshuffle",
            "params": {"field": "end_of_stock", "value": "y" * 40},
        },
    ),
    "another seed": (
        lambda d: {**d, "seed": d["seed"] + 1},
        {
            "code": "bad_game",
            "message": f"hand {GAME.number} was not dealt from seed {GAME.seed + 1}",
            "params": {"field": "seed", "value": str(GAME.seed + 1)},
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


def test_a_new_game_is_seed_0_first_dealt_by_player_0_by_default():
    """new_game's seed and first dealer default to 0, and the sheet's format to standard."""
    rules = RULESETS["standard"]
    game = new_game(rules)
    assert game == new_game(rules, format="standard", seed=0, dealer=0)
    assert (game.seed, game.first_dealer, game.hand.dealer) == (0, 0, 0)
    assert game.hand.stock == deck_for(0, 0)[21:]


LONG = "x" * 50
BAD_SETTINGS = {  # name: (new_game's keyword arguments, the error in full)
    "a seed above the largest": (
        {"seed": MAX_SEED + 1},
        {
            "code": "bad_setting",
            "message": f"seed must be a whole number from 0 to {MAX_SEED}, not {MAX_SEED + 1}",
            "params": {"setting": "seed", "value": str(MAX_SEED + 1)},
        },
    ),
    "a long seed": (
        {"seed": LONG},
        {
            "code": "bad_setting",
            "message": f"seed must be a whole number from 0 to {MAX_SEED}, not {'x' * 40}",
            "params": {"setting": "seed", "value": "x" * 40},
        },
    ),
    "a long format": (
        {"format": LONG},
        {
            "code": "bad_setting",
            "message": f"format must be one of standard, hollywood, not {'x' * 40!r}",
            "params": {"setting": "format", "value": "x" * 40},
        },
    ),
}


@pytest.mark.parametrize("name", BAD_SETTINGS)
def test_a_bad_setting_is_refused_in_full(name):
    """A seed out of 0..MAX_SEED or an unknown format is refused, the value quoted cut to 40
    characters in the message and in the params."""
    kwargs, expected = BAD_SETTINGS[name]
    with pytest.raises(RuleError) as info:
        new_game(**kwargs)
    assert info.value.to_json() == expected


def test_the_largest_seed_is_accepted():
    """MAX_SEED itself is a seed: its first deal is that seed's deck."""
    game = new_game(seed=MAX_SEED)
    assert game.seed == MAX_SEED and game.hand.stock == deck_for(MAX_SEED, 0)[21:]


def test_the_end_of_the_stock_rule_carries_to_every_hand_and_through_json():
    """A game's end_of_stock is the rule of its first hand, of each next hand, and is read back
    from the game's JSON."""
    game = new_game(seed=6, end_of_stock="reshuffle")
    assert game.end_of_stock == game.hand.end_of_stock == "reshuffle"
    after = next_hand(finish(game))
    assert after.number == 2 and after.hand.end_of_stock == "reshuffle"
    for stored in (game, after):
        again = game_from_json(json.loads(json.dumps(stored.to_json())))
        assert again == stored and again.end_of_stock == "reshuffle"


def test_no_hand_follows_the_end_of_the_game():
    """next_hand on a game over: game_over, naming the hand that cannot be played and the
    hand the game ended on."""
    over = finish(new_game(RULESETS["standard"].replace(game_target=1), seed=6))
    assert over.finished and over.number == 1
    with pytest.raises(RuleError) as info:
        next_hand(over)
    assert info.value.to_json() == {
        "code": "game_over",
        "message": "the game ended on hand 1; hand 2 cannot be played",
        "params": {"hand": 2, "ended_on": 1},
    }


def dead_hands(count, hand):
    """GAME's JSON with ``count`` dead hands played (all dealt by player 0), then ``hand``."""
    data = json.loads(json.dumps(GAME.to_json()))
    return {**data, "played": [{"dealer": 0, "entry": None}] * count, "hand": hand}


def test_a_game_read_back_may_have_played_up_to_max_deals_hands():
    """MAX_DEALS hands played (dead ones included) are not too many; one more is refused."""
    hand = deal(deck=deck_for(GAME.seed, MAX_DEALS), rules=GAME.rules).to_json()
    assert GAME.hand.dealer == 0
    assert game_from_json(dead_hands(MAX_DEALS, hand)).number == MAX_DEALS + 1
    with pytest.raises(RuleError) as info:
        game_from_json(dead_hands(MAX_DEALS + 1, hand))
    assert info.value.to_json() == {
        "code": "bad_game",
        "message": f"played must be a list of at most {MAX_DEALS} hands",
        "params": {"field": "played", "value": "list"},
    }


def test_a_game_whose_finished_hand_would_overfill_the_sheet_is_refused():
    """The current hand, once finished, is an entry of the sheet too: after MAX_ENTRIES hands
    won (the game not over) a finished hand is one entry too many, refused on reading."""
    won = finish(new_game(seed=6))
    assert won.hand.entry() is not None and won.hand.dealer == 0
    data = json.loads(json.dumps(won.to_json()))
    nothing = {"winner": 0, "points": 0, "boxes": 1}
    data["played"] = [{"dealer": n % 2, "entry": nothing} for n in range(MAX_ENTRIES)]
    with pytest.raises(RuleError) as info:
        game_from_json(data)
    assert info.value.to_json() == {
        "code": "too_many",
        "message": f"entries: more than {MAX_ENTRIES} hands",
        "params": {"field": "entries", "limit": MAX_ENTRIES},
    }
    del data["played"][-2:]  # two hands fewer (the same dealer for the current hand): read
    fresh = deal(deck=deck_for(won.seed, MAX_ENTRIES - 2), rules=won.rules)
    data["hand"] = finish(dataclasses.replace(won, hand=fresh)).hand.to_json()
    assert game_from_json(data).number == MAX_ENTRIES - 1
