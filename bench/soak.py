"""Seeded games between bots, every move and score checked: the games of
tests/engine/test_bots.py::test_ten_thousand_checked_games, from any seed and in any number.

    .venv/bin/python bench/soak.py                   # the test's 10,000 games, timed
    .venv/bin/python bench/soak.py --games 500 --start 20000

``soak_game`` there says what each game is; ``play_checked`` checks that each action is legal,
each hand's result equals ``score_hand`` on the final hands, each sheet ``score_game`` or
``score_hollywood`` on its entries, and that each game survives a JSON round trip.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "engine"), str(ROOT / "tests" / "engine")]

from test_bots import SOAK_GAMES, play_checked, soak_game  # noqa: E402


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=SOAK_GAMES)
    parser.add_argument("--start", type=int, default=0, help="the first game's seed")
    args = parser.parse_args(argv)
    hands = 0
    started = time.perf_counter()
    for number in range(args.start, args.start + args.games):
        game, levels = soak_game(number)
        hands += play_checked(game, levels, number)[1]
        done = number - args.start + 1
        if done % 1000 == 0:
            print(
                f"{done} games, {hands} hands checked, {time.perf_counter() - started:.0f}s",
                flush=True,
            )
    seconds = time.perf_counter() - started
    print(
        f"{args.games} games from seed {args.start}: {hands} hands, every move legal and every "
        f"score equal to score_hand / score_game / score_hollywood ({seconds:.0f}s, "
        f"{hands / seconds:.0f} hands/s)"
    )


if __name__ == "__main__":
    main()
