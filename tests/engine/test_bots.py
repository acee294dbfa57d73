"""Bots: levels, determinism, blindness to hidden cards; whole games between bots, checked."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import ginrummy.bots
import pytest
from ginrummy import RULESETS, RuleError, score_game, score_hand, score_hollywood
from ginrummy.bots import (
    LEVELS,
    _discard_score,
    _partner_patterns,
    _should_knock,
    choose,
    danger,
    decide,
    draw_measures,
    expected_after_draw,
)
from ginrummy.cards import DECK, Card, Hand, parse_cards
from ginrummy.hand import Action, Event, HandState, apply, deal, legal_actions
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
    for seed in range(3):
        state = deal(seed=seed)
        assert choose(state) == choose(state, "strong", None)
        assert decide(view(state, state.turn)) == choose(state, "strong", None)


def test_a_bot_has_no_move_in_a_finished_hand():
    state = states_of(2)[-1]
    state = apply(state, choose(state, "strong", seed=2))
    assert state.finished
    with pytest.raises(RuleError) as info:
        choose(state, "beginner")
    assert (info.value.code, str(info.value), info.value.params) == (
        "hand_over",
        "the hand is over",
        {"kind": "bot"},
    )


def states_of(seed, levels=("strong", "intermediate"), rules="standard"):
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


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_sees_only_its_view(level):
    rng = random.Random(level)
    checked = 0
    for seed in range(4):
        for state in states_of(seed, (level, level)):
            if state.phase == "lay_off":
                continue
            action = choose(state, level, seed=seed)
            for _ in range(3):
                other = shuffled(state, rng)
                assert other != state or len(state.stock) < 3
                assert choose(other, level, seed=seed) == action
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_is_deterministic_for_a_seed(level):
    for seed in range(3):
        first = [choose(s, level, seed=seed) for s in states_of(seed)]
        assert [choose(s, level, seed=seed) for s in states_of(seed)] == first


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
        assert game.sheet == scorer(list(game.entries), game.rules)
        if game.finished:
            assert game.sheet.finished
            return game, hands
        again = game_from_json(json.loads(json.dumps(game.to_json())))
        assert again == game
        dealer = game.hand.dealer
        game = next_hand(game)
        assert game.hand.dealer == next_dealer(game.rules, dealer, game.played[-1].entry)


PAIRS = list(itertools.product(LEVELS, LEVELS))


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


SOAK_GAMES = 10_000
SOAK_CHUNKS = 20


def soak_game(number: int) -> tuple[Game, tuple[str, str]]:
    """Game ``number`` of the soak, and its two levels: the games cycle through every pair of
    levels, every preset, both sheet formats and both end-of-stock rules; they are played to a
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


def test_the_expected_deadwood_after_a_draw_is_exact():
    from ginrummy.cards import DECK
    from ginrummy.melds import min_deadwood_after_discard_mask, min_deadwood_mask

    rng = random.Random(4)
    for _ in range(500):
        cards = rng.sample(DECK, 10)
        mask = sum(c.bit for c in cards)
        unseen = rng.sample([c for c in DECK if not c.bit & mask], rng.randint(1, 42))
        brute = sum(min_deadwood_after_discard_mask(mask | c.bit) for c in unseen)
        assert expected_after_draw(mask, unseen) == brute / len(unseen)
    # nothing left to draw: the deadwood held now
    assert expected_after_draw(mask, []) == min_deadwood_mask(mask)


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
        (MELDED + " 2D KD", "9C", "offer", "take_upcard by 0"),  # it makes a run
        (MELDED + " 2D KD", "QS", "offer", "pass by 0"),
        (MELDED + " 2D KD", "5D QS", "draw", "draw_stock by 0"),
        (MELDED + " 2D KD", "5D 9C", "draw", "draw_discard by 0"),
        (MELDED + " 9C TC JC", "5D", "discard", "big_gin by 0"),
    ],
)
def test_the_beginner_takes_what_melds_and_declares_big_gin(hand, pile, phase, move):
    for seed in range(5):
        assert str(choose(position(hand, pile, phase), "beginner", seed=seed)) == move


def test_the_beginner_throws_only_cards_that_are_not_melded():
    state = position(MELDED + " 9C 2D QD", "5D", "discard")
    thrown = {str(choose(state, "beginner", seed=seed).card) for seed in range(30)}
    assert thrown == {"2D", "QD"}  # the highest half the time, else any loose card


KNOCKER = "AS 2S 3S 4H 5H 6H 7C 8C 9C 2D"
"""10 cards kept, 2 points (2D): 4S, 3H, 7H, 6C and TC would each give gin."""


def knock_view(turns: int, stock: int, pile: str):
    """Player 0 about to throw KD from ``KNOCKER`` KD: ``turns`` draws played (each kind of
    draw in turn, each followed by a discard; the passes and discards do not count), ``stock``
    cards left."""
    draws = itertools.cycle(["draw_stock", "draw_discard", "take_upcard"])
    five = Card.parse("5D")
    history = [Event("pass", 1), Event("pass", 0)]  # both passed the upcard
    for _ in range(turns):
        kind = next(draws)
        history += [
            Event(kind, 0, None if kind == "draw_stock" else five),
            Event("discard", 0, five),
        ]
    state = position(KNOCKER + " KD", pile, "discard")
    return view(dataclasses.replace(state, stock=state.stock[:stock], history=tuple(history)), 0)


@pytest.mark.parametrize(
    "points, turns, stock, pile, knocks",
    [
        (0, 40, 3, "5D", True),  # gin: always
        (2, 0, 13, "5D", False),  # 2 points, 5 cards give gin, a long stock: play on for gin
        (1, 0, 13, "5D TC", False),  # 4 cards give gin
        (2, 0, 13, "5D TC 6C", True),  # 3 cards: knock
        (2, 0, 12, "5D", True),  # the stock is short: knock
        (3, 0, 30, "5D", True),  # 3 points: knock
        (10, 16, 30, "5D", True),  # early: any knock
        (10, 17, 30, "5D", True),
        (10, 18, 30, "5D", False),  # then the points asked for fall by 1 every 2 draws
        (9, 18, 30, "5D", True),
        (9, 20, 30, "5D", False),
        (8, 20, 30, "5D", True),
        (5, 26, 30, "5D", True),
        (5, 28, 30, "5D", False),
        (4, 40, 30, "5D", True),  # down to 4 points, never fewer
        (5, 40, 30, "5D", False),
    ],
)
def test_when_the_strong_bot_knocks(points, turns, stock, pile, knocks):
    seen = knock_view(turns, stock, pile)
    assert seen.stock_count == stock
    rest = parse_cards(KNOCKER).mask
    assert _should_knock(seen, points, rest, list(seen.unseen)) is knocks


@pytest.mark.parametrize(
    "card, partners",
    [
        ("7H", "7S+7D 7S+7C 7D+7C 5H+6H 6H+8H 8H+9H"),
        ("AS", "AH+AD AH+AC AD+AC 2S+3S"),  # an ace is low: A 2 3 only
        ("2C", "2S+2H 2S+2D 2H+2D AC+3C 3C+4C"),
        ("KD", "KS+KH KS+KC KH+KC JD+QD"),
    ],
)
def test_the_pairs_of_cards_that_make_a_meld_with_a_card(card, partners):
    """The strong bot's danger of a discard looks for these in the other hand: two more of the
    rank, or the two cards of each run of 3 the card is in (lowest, middle or highest)."""
    got = _partner_patterns(Card.parse(card))
    assert " ".join(f"{a}+{b}" for a, b in got) == partners


def known_view(mine: str, known: str, pile: str, rules: str = "standard"):
    """Player 0's view, to throw one of the 11 cards ``mine``; player 1 took the cards
    ``known`` from the pile (so player 0 knows they hold them) and holds 10 in all; ``pile``
    the discard pile, its first card the upcard."""
    mine_, known_, pile_ = parse_cards(mine), parse_cards(known), parse_cards(pile)
    rest = [c for c in DECK if c not in mine_ and c not in known_ and c not in pile_]
    hidden = 10 - len(known_)
    state = HandState(
        rules=RULESETS[rules],
        dealer=1,
        hands=(mine_, Hand(list(known_) + rest[:hidden])),
        stock=tuple(rest[hidden:]),
        discards=tuple(pile_),
        upcard=pile_[0],
        phase="discard",
        turn=0,
        history=tuple(Event("draw_discard", 1, c) for c in known_),
    )
    return view(state, 0)


def test_the_danger_of_a_discard():
    """The chance the other player holds two cards that make a meld with the card thrown: a
    card they took counts as held, an unseen card as held with the share of unseen cards in
    their hand, a card in the pile or in our hand as not theirs."""
    hand = "7S 7D 7C 6H 8H AS 2S 3S 4D 5D JC"
    assert danger(known_view(hand, "", "5H 9H"), Card.parse("7H")) == 0.0  # all ours or seen
    assert danger(known_view(MELDED + " 2D KD QC", "KS KH", "5H"), Card.parse("KD")) == 1.0
    seen = known_view(MELDED + " 2D KD QC", "KS", "JD")
    share = 9 / len(seen.unseen)  # 9 of their 10 cards are unseen
    # KS with KH or KC, KH with KC; the run JD QD KD: JD is in the pile
    expected = 1 - (1 - share) ** 2 * (1 - share * share)
    assert danger(seen, Card.parse("KD")) == pytest.approx(expected)


@pytest.mark.parametrize(
    "level, known, thrown",
    [("intermediate", "KS KH", {"KD"}), ("strong", "", {"KD"}), ("strong", "KS KH", {"QH", "QS"})],
)
def test_the_discard_kept_from_the_other_player(level, known, thrown):
    """QH QS KD: each throw leaves 20 points. Keeping the pair of queens gives more ways to
    meld, so both bots throw the king; but when the other player took KS and KH, the king
    would surely make them a set, and the strong bot breaks its pair instead."""
    seen = known_view(MELDED + " 9C QH QS KD", known, "5H")
    assert {str(decide(seen, level, seed).card) for seed in range(8)} == thrown


@pytest.mark.parametrize(
    "level, rules, taking, drawing, takes",
    [
        # intermediate: take when it leaves at least a point less than a draw is expected to
        ("intermediate", "standard", 5, 6.1, True),
        ("intermediate", "standard", 5, 6, False),
        ("intermediate", "standard", 0, 0.5, False),
        # strong: take for 1.5 points or more, or for any gain when it leaves a knock
        ("strong", "standard", 11, 12.6, True),
        ("strong", "standard", 11, 12.5, False),
        ("strong", "standard", 10, 10.1, True),
        ("strong", "standard", 10, 10, False),
        ("strong", "standard", 11, 11.2, False),
        ("strong", "oklahoma", 5, 5.2, True),  # Oklahoma, upcard 5D: a knock is 5 or fewer
        ("strong", "oklahoma", 6, 6.2, False),
    ],
)
@pytest.mark.parametrize("phase, pile", [("offer", "5D"), ("draw", "5D 9C")])
def test_when_a_bot_takes_from_the_pile(
    monkeypatch, level, rules, taking, drawing, takes, phase, pile
):
    """The rule each level applies to its two measures (:func:`draw_measures`: the deadwood
    left after taking the top of the pile, and the mean after a draw from the stock)."""
    monkeypatch.setattr(ginrummy.bots, "draw_measures", lambda seen, unseen: (taking, drawing))
    seen = view(position(MELDED + " 2D KD", pile, phase, rules), 0)
    move = {"offer": ("take_upcard", "pass"), "draw": ("draw_discard", "draw_stock")}[phase]
    assert decide(seen, level).kind == move[0 if takes else 1]


def test_the_measures_of_taking_and_drawing():
    """Taking 9C makes 7C 8C 9C: 2D and KD are left, and KD is thrown, 2 points; the top of
    the pile itself cannot be thrown back. Drawing: the mean over the unseen cards."""
    seen = view(position(MELDED + " 2D KD", "5D 9C", "draw"), 0)
    unseen = list(seen.unseen)
    assert draw_measures(seen, unseen) == (2, expected_after_draw(seen.hand.mask, unseen))
    seen = view(position("AS 2S 3S 4H 5H 6H 7C 8C 9C KD", "5D KH", "draw"), 0)
    assert draw_measures(seen, unseen)[0] == 10  # KH with KD: no meld; KD or KH is kept
    bare = dataclasses.replace(seen, discards=())  # no pile (after a reshuffle): no gain
    drawing = expected_after_draw(seen.hand.mask, unseen)
    assert draw_measures(bare, unseen) == (drawing, drawing)


@pytest.mark.parametrize("stock, weight", [(31, 1.0), (16, 1 + 15 / 31), (1, 1 + 30 / 31)])
def test_the_strong_bots_measure_of_a_discard(stock, weight):
    """The points kept now, weighed 0.4; the points expected after the next draw; the danger,
    weighed 8 with a full stock and more as it runs down (twice that with none left)."""
    seen = known_view(MELDED + " 9C QH QS KD", "KS", "5H")
    seen = dataclasses.replace(seen, stock_count=stock)
    card, unseen = Card.parse("KD"), list(seen.unseen)
    rest = seen.hand.mask ^ card.bit
    assert 0 < danger(seen, card) < 1
    expected = 0.4 * 20 + expected_after_draw(rest, unseen) + 8 * weight * danger(seen, card)
    assert _discard_score(seen, rest, 20, card, unseen) == pytest.approx(expected)


@pytest.mark.parametrize(
    "level, hand, move",
    [
        ("strong", "9C 3D KD", "knock KD by 0"),  # 3 points left: knock at once, early on
        ("strong", "9C 2D KD", "discard KD by 0"),  # 2 points, 5 cards give gin: play on
        ("strong", "9C TC KD", "gin KD by 0"),
        ("strong", "9C TC JC", "big_gin by 0"),
        ("intermediate", "9C 2D KD", "knock KD by 0"),  # at the first chance
        ("intermediate", "9C TC KD", "gin KD by 0"),
        ("intermediate", "9C TC JC", "big_gin by 0"),
    ],
)
def test_when_a_bot_ends_the_hand(level, hand, move):
    state = position(MELDED + " " + hand, "5H", "discard")
    assert {str(choose(state, level, seed=seed)) for seed in range(4)} == {move}


@pytest.mark.parametrize("level", ["intermediate", "strong"])
@pytest.mark.parametrize(
    "top, move",
    [
        ("9C", "draw_discard"),  # it melds: 2 points left
        ("AC", "draw_discard"),  # in place of KD: 18 points, a draw is expected to leave 22.7
        ("3C", "draw_discard"),  # 20 points
        ("5C", "draw_stock"),  # 22 points: about what a draw is expected to leave
    ],
)
def test_a_bot_takes_the_top_of_the_pile_when_it_beats_a_draw(level, top, move):
    """With 27 points (7C 8C 2D KD): taking the top of the pile and throwing the king, against
    the deadwood a draw from the stock is expected to leave."""
    seen = view(position(MELDED + " 2D KD", "5H " + top, "draw"), 0)
    assert decide(seen, level).kind == move


def test_the_danger_of_a_discard_when_no_card_is_unseen():
    """No unseen card (not in a real hand: the stock is never empty): only the cards the other
    player took count."""
    seen = known_view(MELDED + " 2D KD QC", "KS KH", "5H")
    assert danger(dataclasses.replace(seen, unseen=Hand([])), Card.parse("KD")) == 1.0
    assert danger(dataclasses.replace(seen, unseen=Hand([])), Card.parse("QC")) == 0.0


def test_the_strong_bot_weighs_the_five_discards_leaving_the_least_deadwood(monkeypatch):
    """KD and QC leave 12 points, 2D 20; each end of the runs A-4 of spades and 5-8 of hearts
    leaves 22: the highest of those, 8H and 5H, make up the five (the order of equal
    cards: highest first)."""
    weighed = []
    measure = ginrummy.bots._discard_score

    def recorded(seen, rest, now, card, unseen):
        weighed.append(str(card))
        return measure(seen, rest, now, card, unseen)

    monkeypatch.setattr(ginrummy.bots, "_discard_score", recorded)
    state = position("AS 2S 3S 4S 5H 6H 7H 8H KD QC 2D", "5D", "discard")
    assert choose(state, "strong", seed=0) == Action("discard", 0, Card.parse("KD"))
    assert weighed == ["KD", "QC", "2D", "8H", "5H"]


def test_the_intermediate_bot_breaks_a_tie_by_the_next_draw():
    """QH and TD each leave 41 points; keeping TD (near 8D 6D) is expected to leave fewer after
    the next draw (35.6 against 36.2): QH goes, whatever the seed."""
    state = position("QH 5C AH 2D 8C 2S 8D 2H 3D 6D TD", "AS", "discard")
    assert {str(choose(state, "intermediate", seed=seed).card) for seed in range(8)} == {"QH"}


@pytest.mark.parametrize("level", LEVELS)
def test_after_both_passed_the_first_draw_is_from_the_stock(level):
    """The upcard both players passed cannot be taken, even when it makes a meld (9C)."""
    state = dataclasses.replace(position(MELDED + " 2D KD", "9C", "draw"), stock_only=True)
    assert [a.kind for a in legal_actions(state)] == ["draw_stock"]
    assert choose(state, level, seed=0).kind == "draw_stock"
    seen = view(dataclasses.replace(state, stock_only=False), 0)
    assert decide(seen, level, seed=0).kind == "draw_discard"  # else it would take it


@pytest.mark.parametrize("known, thrown", [("QH QC", "KD"), ("KH KC", "QS")])
def test_the_strong_bot_knocks_with_the_safer_card(known, thrown):
    """Throwing QS or KD leaves 10 points, a knock either way: the card that would not make a
    set for the other player (they took two of its rank) goes."""
    seen = known_view(MELDED + " 9C QS KD", known, "5H")
    assert {str(decide(seen, "strong", seed)) for seed in range(4)} == {f"knock {thrown} by 0"}
