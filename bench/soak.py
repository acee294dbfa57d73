"""Many seeded games between bots, every move and score checked (the checks of
tests/engine/test_bots.py, on many more games than the test suite can afford).

    .venv/bin/python bench/soak.py                   # 10,000 games
    .venv/bin/python bench/soak.py --games 500 --start 20000

Games cycle through every pair of levels, every preset, both sheet formats and both
end-of-stock rules; they are played to a low target (10 points, so a hand or a few each)
except every 50th, played to the preset's own target. Each action must be legal, each hand's
result must equal ``score_hand`` on the final hands, each sheet ``score_game`` or
``score_hollywood`` on its entries, and each game must survive a JSON round trip.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "engine"), str(ROOT / "tests" / "engine")]

from ginrummy import RULESETS  # noqa: E402
from ginrummy.match import FORMATS, new_game  # noqa: E402
from test_bots import PAIRS, play_checked  # noqa: E402


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--start", type=int, default=0, help="the first game's seed")
    args = parser.parse_args(argv)
    presets = sorted(RULESETS)
    hands = 0
    started = time.perf_counter()
    for number in range(args.start, args.start + args.games):
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
        hands += play_checked(game, PAIRS[number % len(PAIRS)], number)[1]
        done = number - args.start + 1
        if done % 1000 == 0:
            print(
                f"{done} games, {hands} hands checked, {time.perf_counter() - started:.0f}s",
                flush=True,
            )
    print(
        f"{args.games} games from seed {args.start}: {hands} hands, every move legal and every "
        f"score equal to score_hand / score_game / score_hollywood "
        f"({time.perf_counter() - started:.0f}s)"
    )


if __name__ == "__main__":
    main()
