"""Bots: levels, determinism, blindness to hidden cards; whole games between bots, checked."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest
from ginrummy import RULESETS, RuleError, score_game, score_hand, score_hollywood
from ginrummy.bots import LEVELS, choose, decide
from ginrummy.cards import DECK, Hand, parse_cards
from ginrummy.hand import HandState, apply, deal, legal_actions
from ginrummy.match import FORMATS, Game, game_from_json, new_game, next_dealer, next_hand, play
from ginrummy.public import view


def test_levels_and_an_unknown_level():
    assert {"beginner", "intermediate", "strong"} <= set(LEVELS)
    with pytest.raises(RuleError) as info:
        choose(deal(seed=1), "expert")
    assert info.value.code == "unknown_level" and info.value.params == {"level": "expert"}
    with pytest.raises(RuleError) as info:
        choose(deal(seed=1), "x" * 50)
    assert str(info.value) == f"no bot level {'x' * 40!r}; choose one of {', '.join(LEVELS)}"
    assert info.value.params == {"level": "x" * 40}


def test_the_strong_level_is_the_default():
    for seed in range(2):
        state = deal(seed=seed)
        assert choose(state) == choose(state, "strong", None)
        assert decide(view(state, state.turn)) == choose(state, "strong", None)


def test_a_bot_has_no_move_in_a_finished_hand():
    state = states_of(2)[-1]
    state = apply(state, choose(state, "intermediate", seed=2))
    assert state.finished
    with pytest.raises(RuleError) as info:
        choose(state, "beginner")
    assert (info.value.code, str(info.value), info.value.params) == (
        "hand_over",
        "the hand is over",
        {"kind": "bot"},
    )


def states_of(seed, levels=("intermediate", "beginner"), rules="standard"):
    """Every state of one hand played by two bots."""
    state = deal(seed=seed, rules=rules, dealer=seed % 2)
    states = []
    while not state.finished:
        states.append(state)
        state = apply(state, choose(state, levels[state.turn], seed=seed))
    return states


def shuffled(state, rng):
    """The state with the opponent's unknown cards and the stock shuffled among themselves."""
    me = state.turn
    seen = view(state, me)
    other = list(state.hands[1 - me])
    hidden = [i for i, c in enumerate(other) if c not in seen.known]
    pool = [other[i] for i in hidden] + list(state.stock)
    rng.shuffle(pool)
    for i in hidden:
        other[i] = pool.pop()
    hands = [None, None]
    hands[me], hands[1 - me] = state.hands[me], type(state.hands[me])(other)
    return dataclasses.replace(state, hands=tuple(hands), stock=tuple(pool))


CHECKED = {"beginner": 1, "intermediate": 1, "strong": 6}
"""Every how many states of a hand each level is checked at (the strong level plays out
every choice: a sample of its decisions keeps the test fast)."""


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_sees_only_its_view(level):
    rng = random.Random(level)
    checked = 0
    for seed in range(4):
        for state in states_of(seed)[seed % CHECKED[level] :: CHECKED[level]]:
            if state.phase == "lay_off":
                continue
            action = choose(state, level, seed=seed)
            for _ in range(3 if level != "strong" else 1):
                other = shuffled(state, rng)
                assert other != state or len(state.stock) < 3
                assert choose(other, level, seed=seed) == action
            checked += 1
    assert checked > 50 / CHECKED[level]


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_is_deterministic_for_a_seed(level):
    for seed in range(3):
        states = states_of(seed)[:: CHECKED[level]]
        first = [choose(s, level, seed=seed) for s in states]
        assert [choose(s, level, seed=seed) for s in states] == first


def play_checked(game: Game, levels, seed):
    """Play a game to its end with bots, checking every move and every score."""
    hands = 0
    while True:
        while not game.hand.finished:
            hand = game.hand
            action = choose(hand, levels[hand.turn], seed=seed)
            assert action in legal_actions(hand)
            game = play(game, action)
        hand = game.hand
        if hand.outcome != "dead":
            knocker = hand.knocker
            expected = score_hand(
                hand.hands[knocker], hand.hands[1 - knocker], hand.rules, hand.upcard
            )
            assert hand.result == expected
            assert hand.entry().winner == (knocker if expected.winner == "knocker" else 1 - knocker)
        hands += 1
        scorer = score_hollywood if game.format == "hollywood" else score_game
        assert game.sheet == scorer(list(game.entries), game.rules, game.numbers)
        if game.finished:
            assert game.sheet.finished
            return game, hands
        again = game_from_json(json.loads(json.dumps(game.to_json())))
        assert again == game
        dealer = game.hand.dealer
        game = next_hand(game)
        assert game.hand.dealer == next_dealer(game.rules, dealer, game.played[-1].entry)


FAST = ("beginner", "intermediate")
PAIRS = list(itertools.product(FAST, FAST))
"""The levels that play the many checked games: the strong level plays out every choice of
every decision, so it plays fewer (test_the_strong_bot_plays_whole_games)."""


@pytest.mark.parametrize("preset", sorted(RULESETS))
@pytest.mark.parametrize("format", FORMATS)
def test_whole_games_between_every_level(preset, format):
    """Full games under every preset and sheet format; over them every pair of levels plays
    (test_ten_thousand_checked_games plays 10,000 shorter ones)."""
    start = 3 * sorted(RULESETS).index(preset) + 12 * FORMATS.index(format)
    for number in range(start, start + 3):
        game = new_game(preset, format, seed=number, dealer=number % 2)
        game, hands = play_checked(game, PAIRS[number % len(PAIRS)], number)
        assert game.finished and hands >= 1


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_the_strong_bot_plays_whole_games(preset):
    """The strong level against each other level, in a short game (to 25) of every preset,
    Hollywood for two of them, every move and score checked."""
    number = sorted(RULESETS).index(preset)
    rules = RULESETS[preset].replace(game_target=25)
    game = new_game(rules, FORMATS[number % 2], seed=number, dealer=number % 2)
    levels = ("strong", LEVELS[number % 3]) if number % 2 else (LEVELS[number % 3], "strong")
    game, hands = play_checked(game, levels, number)
    assert game.finished and hands >= 1


SOAK_GAMES = 10_000
SOAK_CHUNKS = 20


def soak_game(number: int) -> tuple[Game, tuple[str, str]]:
    """Game ``number`` of the soak, and its two levels: the games cycle through every pair of
    the fast levels, every preset, both sheet formats and both end-of-stock rules; they are
    played to a
    low target (10 points, a hand or a few each) except every 50th, played to the preset's own
    target."""
    presets = sorted(RULESETS)
    rules = RULESETS[presets[number % len(presets)]]
    if number % 50:
        rules = rules.replace(game_target=10)
    game = new_game(
        rules,
        FORMATS[number // 7 % 2],
        seed=number,
        dealer=number % 2,
        end_of_stock="reshuffle" if number % 5 == 0 else "void",
    )
    return game, PAIRS[number % len(PAIRS)]


@pytest.mark.soak
@pytest.mark.parametrize("chunk", range(SOAK_CHUNKS))
def test_ten_thousand_checked_games(chunk):
    """10,000 seeded games between bots (in chunks, so the test runners share them): every
    action legal, every hand's score equal to score_hand, every sheet to score_game or
    score_hollywood, every game through a JSON round trip."""
    size = SOAK_GAMES // SOAK_CHUNKS
    hands = 0
    for number in range(chunk * size, chunk * size + size):
        game, levels = soak_game(number)
        finished, played = play_checked(game, levels, number)
        assert finished.finished
        hands += played
    assert hands > size


def position(hand: str, pile: str, phase: str, rules: str = "standard") -> HandState:
    """Player 0 to play with ``hand``, ``pile`` the discard pile (its first card the upcard,
    the top last); player 1 holds the next 10 cards of the deck, the rest is the stock."""
    cards, shown = parse_cards(hand), parse_cards(pile)
    rest = [c for c in DECK if c not in cards and c not in shown]
    return HandState(
        rules=RULESETS[rules],
        dealer=1,
        hands=(cards, Hand(rest[:10])),
        stock=tuple(rest[10:]),
        discards=tuple(shown),
        upcard=shown[0],
        phase=phase,
        turn=0,
    )


MELDED = "AS 2S 3S 4H 5H 6H 7C 8C"


@pytest.mark.parametrize(
    "hand, pile, phase, move",
    [
        (MELDED + " 2D KD", "9C", "offer", "take_upcard 0"),  # it makes a run
        (MELDED + " 2D KD", "QS", "offer", "pass 0"),
        (MELDED + " 2D KD", "5D QS", "draw", "draw_stock 0"),
        (MELDED + " 2D KD", "5D 9C", "draw", "draw_discard 0"),
        (MELDED + " 9C TC JC", "5D", "discard", "big_gin 0"),
    ],
)
def test_the_beginner_takes_what_melds_and_declares_big_gin(hand, pile, phase, move):
    for seed in range(5):
        assert str(choose(position(hand, pile, phase), "beginner", seed=seed)) == move


def test_the_beginner_throws_only_cards_that_are_not_melded():
    """Half the time the policy's throw (a picture), else any card in no meld."""
    state = position(MELDED + " 2D QD KH", "5D", "discard")  # 7C 8C: no meld yet
    thrown = [str(choose(state, "beginner", seed=seed).card) for seed in range(40)]
    assert set(thrown) <= {"2D", "QD", "KH", "7C", "8C"} and len(set(thrown)) >= 4
    assert thrown.count("QD") + thrown.count("KH") > 20


@pytest.mark.parametrize("level", LEVELS)
def test_after_both_passed_the_first_draw_is_from_the_stock(level):
    """The upcard both players passed cannot be taken, even when it makes a meld (9C)."""
    state = dataclasses.replace(position(MELDED + " 2D KD", "9C", "draw"), stock_only=True)
    assert [a.kind for a in legal_actions(state)] == ["draw_stock"]
    assert choose(state, level, seed=0).kind == "draw_stock"
    seen = view(dataclasses.replace(state, stock_only=False), 0)
    assert decide(seen, level, seed=0).kind == "draw_discard"  # else it would take it


def test_the_strong_bot_plays_the_coachs_best_choice_with_a_larger_budget():
    """One mind: the strong level plays the coach's recommendation, from more worlds than a
    first hint."""
    from ginrummy.advice import HINT_PLAYOUTS, advise_view, decision_key
    from ginrummy.bots import STRONG_PLAYOUTS
    from ginrummy.standing import Standing

    assert STRONG_PLAYOUTS > HINT_PLAYOUTS
    for state in states_of(5)[1:12:5]:
        seen = view(state, state.turn)
        actions = seen.legal_actions()
        standing = Standing(seen.rules)
        seed = int(decision_key(seen, standing)[:12], 16) ^ 5
        advice = advise_view(seen, standing, None, seed, playouts=STRONG_PLAYOUTS)
        hint = advise_view(seen, standing, None, seed)
        assert advice.samples >= hint.samples and len(actions) == len(advice.choices)
        assert choose(state, "strong", seed=5) == advice.best.action


def test_the_intermediate_bot_plays_the_base_policy_and_knocks_at_the_first_chance():
    """No look-ahead: the move the coach's playouts make, except that any knock is taken."""
    from ginrummy.playout import policy_action

    differ = 0
    for seed in range(6):
        for state in states_of(seed):
            move = choose(state, "intermediate", seed=seed)
            policy = policy_action(state)
            if move != policy:
                differ += 1
                assert move.kind in ("knock", "gin") and policy.kind == "discard"
                assert move in legal_actions(state)
    state = position(MELDED + " 9C 2D KD", "5H", "discard")  # 2 points: the policy plays on
    assert policy_action(state).kind == "discard"
    assert str(choose(state, "intermediate")) == "knock 0 KD"


@pytest.mark.parametrize(
    "level, hand, move",
    [
        ("strong", "9C TC KD", "gin 0 KD"),
        ("strong", "9C TC JC", "big_gin 0"),
        ("intermediate", "9C 2D KD", "knock 0 KD"),  # at the first chance
        ("intermediate", "9C TC KD", "gin 0 KD"),
        ("intermediate", "9C TC JC", "big_gin 0"),
    ],
)
def test_when_a_bot_ends_the_hand(level, hand, move):
    state = position(MELDED + " " + hand, "5H", "discard")
    assert {str(choose(state, level, seed=seed)) for seed in range(2)} == {move}


def test_a_strong_bot_given_the_game_weighs_its_score():
    """Given a game, the strong bot plays the coach's best choice for that score."""
    from ginrummy.advice import advise

    game = new_game(seed=4)
    for _ in range(3):
        game = play(game, choose(game, "intermediate", seed=1))
    advice = advise(game, samples=8, seed=3)
    assert advice.best.action in legal_actions(game.hand)
    assert choose(game, "strong", seed=3) in legal_actions(game.hand)


def test_the_strong_bot_keeps_the_base_policys_move_unless_it_is_surely_worse():
    """With a few dozen worlds per choice, the best of many noisy estimates is often only
    lucky: a strong bot that played its coach's leader threw cards that broke melds and lost
    to its own base policy. So the base policy's move stays the best unless the coach finds
    it a mistake beyond doubt; at seeded decisions the strong bot mostly plays it, and where
    it does not, an evaluation with many more worlds (another seed) finds its move no worse."""
    from ginrummy.advice import advise
    from ginrummy.playout import policy_action

    decisions = []
    for seed in itertools.count():
        for number, state in enumerate(states_of(seed, ("intermediate", "intermediate"))):
            mover = state.phase in ("draw", "discard") and len(legal_actions(state)) > 1
            if mover and number % 3 == seed % 3:
                decisions.append((seed, state))
        if len(decisions) >= 24:
            break
    gained, deviations = 0.0, 0
    for seed, state in decisions:
        strong, base = choose(state, "strong", seed=seed), policy_action(state)
        if strong != base:
            reference = advise(state, samples=256, seed=987_654_321)
            gained += reference.choice(strong).win - reference.choice(base).win
            deviations += 1
    assert deviations <= len(decisions) // 4
    assert gained >= 0
