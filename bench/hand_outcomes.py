"""How hands end between two good players: the table ginrummy.standing.HAND_OUTCOMES.

    .venv/bin/python bench/hand_outcomes.py [--hands 3000] [--level frozen|policy|strong]

Plays ``--hands`` hands (seeds 10,000 on, the dealer alternating) between two copies of a
player and prints, as Python, each ending (how the hand ended, the deadwood difference) with
its count: the knock's difference (the defender's deadwood less the knocker's), the
undercut's (the knocker's less the defender's; 0 is a tie), gin's and big gin's (the
defender's deadwood). Dead hands are counted apart. ``frozen`` (the default, the table in the
engine) is the strong bot of bench/frozen_bots.py; ``policy`` the base policy; ``strong``
today's strong bot (slow).
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import frozen_bots
from ginrummy.bots import choose
from ginrummy.hand import apply, deal
from ginrummy.playout import policy_action

PLAYERS = {
    "frozen": lambda state, seed: frozen_bots.choose(state, "strong", seed=seed),
    "policy": lambda state, seed: policy_action(state),
    "strong": lambda state, seed: choose(state, "strong", seed=seed),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--level", choices=PLAYERS, default="frozen")
    args = parser.parse_args()
    move = PLAYERS[args.level]
    counts: collections.Counter[tuple[str, int]] = collections.Counter()
    dead = 0
    for number in range(args.hands):
        state = deal(seed=10_000 + number, dealer=number % 2)
        while not state.finished:
            state = apply(state, move(state, number))
        result = state.result
        if result is None:
            dead += 1
        elif result.outcome in ("gin", "big_gin"):
            counts[(result.outcome, result.defender_points)] += 1
        elif result.outcome == "undercut":
            counts[("undercut", result.knocker_points - result.defender_points)] += 1
        else:
            counts[("knock", result.defender_points - result.knocker_points)] += 1
    print(f"# {args.hands} hands, {args.level}; {dead} dead")
    print("HAND_OUTCOMES = (")
    for (kind, difference), count in sorted(counts.items()):
        print(f"    ({kind!r}, {difference}, {count}),")
    print(")")


if __name__ == "__main__":
    main()
