"""The chance of winning a game from its score: the table against a simulation of its model."""

from __future__ import annotations

import random

import pytest
from ginrummy.game import HandEntry
from ginrummy.rules import RULESETS
from ginrummy.standing import FINEST, Standing, chance, hand_points, step, win_table


def simulate(rules, mine: int, theirs: int, games: int, rng: random.Random) -> float:
    """The share of games won by the player needing ``mine`` against one needing ``theirs``,
    each hand won by either with equal chance for points drawn from the model's (exact, not
    grouped into the table's steps)."""
    points, chances = zip(*hand_points(rules))
    won = 0
    for _ in range(games):
        need = [mine, theirs]
        while need[0] > 0 and need[1] > 0:
            need[rng.random() < 0.5] -= rng.choices(points, chances)[0]
        won += need[0] <= 0
    return won / games


@pytest.mark.parametrize(
    "rules, mine, theirs",
    [
        ("standard", 100, 100),
        ("standard", 40, 100),
        ("standard", 3, 40),
        ("standard", 60, 8),
        ("standard", 25, 26),
        ("pagat", 50, 90),
        ("oklahoma", 150, 70),  # a game to 150, scores doubled under a spade
    ],
)
def test_the_table_agrees_with_a_simulation_of_its_model(rules, mine, theirs):
    """4,000 simulated games from each score: the table's chance is within 3 standard errors
    (about 2.3 points of percentage)."""
    rules = RULESETS[rules]
    games = 4000
    simulated = simulate(rules, mine, theirs, games, random.Random(mine * 1000 + theirs))
    expected = chance(rules, mine, theirs)
    assert abs(simulated - expected) < 3 * (expected * (1 - expected) / games) ** 0.5 + 0.002


def test_the_table_is_fair_and_ordered():
    rules = RULESETS["standard"]
    table = win_table(rules)
    assert len(table) == 101
    for mine in range(1, 101, 7):
        for theirs in range(1, 101, 9):
            assert chance(rules, mine, theirs) + chance(rules, theirs, mine) == pytest.approx(1)
            if mine > 1:
                assert chance(rules, mine - 1, theirs) >= chance(rules, mine, theirs)
    assert chance(rules, 0, 5) == 1.0 and chance(rules, 5, -3) == 0.0


def test_a_long_game_counts_its_points_in_steps():
    rules = RULESETS["standard"].replace(game_target=1000)
    assert step(1000) == 7 and step(FINEST) == 1
    assert len(win_table(rules)) == 1000 // 7 + 2
    assert chance(rules, 1000, 1000) == pytest.approx(0.5)
    assert chance(rules, 300, 900) > 0.9


def test_a_standing_reads_the_score_sheet():
    rules = RULESETS["standard"]
    start = Standing(rules)
    assert start.win_chance(0) == pytest.approx(0.5) and start.needs(1) == 100
    near = start.after(HandEntry(0, 97)).after(HandEntry(1, 60))
    assert (near.needs(0), near.needs(1)) == (3, 40)
    assert near.win_chance(0) == pytest.approx(chance(rules, 3, 40))
    assert near.win_chance(0) + near.win_chance(1) == pytest.approx(1)
    assert near.after(HandEntry(0, 3)).win_chance(0) == 1.0
    assert near.after(HandEntry(1, 40)).win_chance(0) == 0.0
    assert near.after(None) is near and not near.finished
    assert near.after(HandEntry(0, 3)).finished


def test_hollywood_counts_the_share_of_columns_won():
    """Three columns: a player's first win goes in column 1, the second in 1 and 2, ...; a
    closed column counts 1 for its winner; the chance is the mean over the columns."""
    rules = RULESETS["standard"]
    sheet = Standing(rules, "hollywood", (HandEntry(0, 60), HandEntry(0, 50)))
    # column 1: 110 to 0, closed (won by 0); column 2: 50 to 0; column 3: nothing yet
    expected = (1.0 + chance(rules, 50, 100) + chance(rules, 100, 100)) / 3
    assert sheet.win_chance(0) == pytest.approx(expected)
    assert sheet.needs(0) == 50  # the first open column
    with pytest.raises(Exception) as info:
        Standing(rules, "knockout")
    assert info.value.code == "bad_setting"
