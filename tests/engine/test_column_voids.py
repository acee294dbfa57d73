"""Which void hands each Hollywood column records (Game.column_voids): column 1, from the first
hand until it closes; the later columns none."""

import dataclasses

import pytest
from ginrummy.game import HandEntry
from ginrummy.match import Played, new_game


def _game(results, format="hollywood"):
    """A game whose hands went as ``results`` say: None a void hand, (winner, points) a win;
    the current hand is dealt, not played."""
    game = new_game(format=format, seed=11)
    played = tuple(Played(0, None if result is None else HandEntry(*result)) for result in results)
    return dataclasses.replace(game, played=played)


@pytest.mark.parametrize(
    "results, expected",
    [
        ([], ((), (), ())),
        ([None, (0, 30), None], ((1, 3), (), ())),
        # column 1 closes on hand 4 (A reaches 120): the void hand 5 is after it
        ([None, (0, 60), None, (0, 60), None], ((1, 3), (), ())),
        # B's 60s open columns 2 and 3 while column 1 is still open: all voids go to column 1
        ([(1, 60), None, (1, 30), None], ((2, 4), (), ())),
        # column 1 closed on hand 2, before any void hand: it records none
        ([(0, 60), (0, 60), None, (1, 10), None], ((), (), ())),
    ],
)
def test_column_voids(results, expected):
    game = _game(results)
    assert game.column_voids == expected
    assert len(game.column_voids) == len(game.sheet.columns)
    assert set(game.voids) == {n for n, r in enumerate(results, 1) if r is None}


def test_a_standard_sheet_has_no_columns():
    game = _game([None, (0, 30), None], format="standard")
    assert game.column_voids == ()
    assert game.voids == (1, 3)


def test_the_current_hand_once_void_counts():
    game = _game([(0, 30)])
    hand = dataclasses.replace(game.hand, phase="finished", outcome="dead")
    assert dataclasses.replace(game, hand=hand).column_voids == ((2,), (), ())
