"""Minimum-deadwood throughput: ginrummy against OpenSpiel and RLCard, side by side.

    .venv/bin/python bench/deadwood.py            # full run
    .venv/bin/python bench/deadwood.py --quick    # short run

OpenSpiel (``pip install open-spiel``) and RLCard (``pip install rlcard``) are optional; see
requirements-bench.txt. An engine that does not import is skipped with a note.

Hands are seeded and converted to each engine's own card format before timing, so only the
deadwood call is timed. Workloads:

- random 10-card hands;
- meld-dense 10-card hands (cards from ranks 3-7 only);
- random and meld-dense 11-card hands: least deadwood after the best discard. Ours is
  ``min_deadwood_after_discard_mask`` (exact); OpenSpiel's ``min_deadwood`` has an 11-card
  mode (not exact: see tests/data/deadwood.json); RLCard has none, so it is timed as the
  minimum of its 10-card routine over the 11 discards.

Every engine's answers are compared with ours; disagreements are counted and a few printed.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from ginrummy.cards import DECK, cards_from_mask  # noqa: E402
from ginrummy import melds  # noqa: E402
from ginrummy.melds import min_deadwood_after_discard_mask, min_deadwood_mask  # noqa: E402

# OpenSpiel numbers cards suit * 13 + rank - 1 with suits s, c, d, h: As..Ks, Ac..Kc, Ad..Kd, Ah..Kh
OPENSPIEL_SUITS = {"S": 0, "C": 1, "D": 2, "H": 3}


def make_hands(count: int, size: int, dense: bool, seed: int) -> list[int]:
    """Seeded hands as 52-bit masks."""
    rng = random.Random(seed)
    pool = [c for c in DECK if 3 <= c.rank <= 7] if dense else list(DECK)
    return [sum(c.bit for c in rng.sample(pool, size)) for _ in range(count)]


# --- engines: each is (prepare(masks) -> inputs, run(inputs) -> answers) ----------------------

def ours(size: int):
    fn = min_deadwood_mask if size == 10 else min_deadwood_after_discard_mask

    def run(masks):
        return [fn(m) for m in masks]
    return list, run


def openspiel(size: int):
    import pyspiel
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)  # ranks, suits, hand size
    assert utils.card_string(13) == "Ac", "unexpected OpenSpiel card numbering"

    def prepare(masks):
        return [[OPENSPIEL_SUITS[c.suit] * 13 + c.rank - 1 for c in cards_from_mask(m)]
                for m in masks]

    def run(hands):
        md = utils.min_deadwood
        return [md(h) for h in hands]
    return prepare, run


def rlcard(size: int):
    from rlcard.games.gin_rummy.utils import melding, utils

    def deadwood10(hand):
        clusters = melding.get_best_meld_clusters(hand)
        if not clusters:
            return sum(utils.get_deadwood_value(c) for c in hand)
        return utils.get_deadwood_count(hand, clusters[0])

    def prepare(masks):  # RLCard numbers cards like us: AS..KS, AH..KH, AD..KD, AC..KC
        return [[utils.get_card(c.index) for c in cards_from_mask(m)] for m in masks]

    def run(hands):
        if size == 10:
            return [deadwood10(h) for h in hands]
        return [min(deadwood10(h[:i] + h[i + 1:]) for i in range(len(h))) for h in hands]
    return prepare, run


ENGINES = {"ginrummy": ours, "OpenSpiel": openspiel, "RLCard": rlcard}


def best_rates(engines: dict, rounds: int) -> tuple[dict, dict]:
    """Hands/s per engine: the best of ``rounds`` passes, the engines taking turns in each round
    so that a change in machine load hits them alike. Time is this process's CPU time, which a
    busy shared machine disturbs less than wall-clock time."""
    rates, answers = {name: 0.0 for name in engines}, {}
    for _ in range(rounds):
        for name, (run, inputs) in engines.items():
            start = time.process_time()
            answers[name] = run(inputs)
            elapsed = max(time.process_time() - start, 1e-9)
            rates[name] = max(rates[name], len(inputs) / elapsed)
    return rates, answers


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands, shorter timing")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    count = 5_000 if args.quick else 50_000
    rounds = 3 if args.quick else 7
    slow_count = {"RLCard": count // 10}  # pure Python and slow: fewer hands suffice

    available = {}
    for name, factory in ENGINES.items():
        try:
            factory(10)
            available[name] = factory
        except ImportError as error:
            print(f"note: {name} skipped ({error}); pip install -r requirements-bench.txt")
    start = time.process_time()
    melds._build_lane_tables()
    build_ms = (time.process_time() - start) * 1000
    slow = slow_count["RLCard"]
    print(f"Python {platform.python_version()}; {count} hands per workload (RLCard {slow}, "
          f"{slow // 5} for 11 cards); seed {args.seed}; best of {rounds} rounds; CPU time.")
    print(f"ginrummy builds its lane tables in {build_ms:.1f} ms (at import).\n")

    workloads = [("random 10", 10, False), ("dense 10 (ranks 3-7)", 10, True),
                 ("random 11 (after discard)", 11, False),
                 ("dense 11 (after discard)", 11, True)]
    names = list(available)
    header = f"{'workload':<27}" + "".join(f"{n + ' hands/s':>20}" for n in names)
    ratios = [n for n in names if n != "ginrummy"]
    header += "".join(f"{'ours/' + n:>16}" for n in ratios)
    print(header)
    print("-" * len(header))
    agreement = []
    for label, size, dense in workloads:
        masks = make_hands(count, size, dense, args.seed + size + dense)
        expected = [min_deadwood_mask(m) if size == 10 else min_deadwood_after_discard_mask(m)
                    for m in masks]
        engines = {}
        for name in names:
            n = slow_count.get(name, count) // (5 if size == 11 and name in slow_count else 1)
            prepare, run = available[name](size)
            engines[name] = (run, prepare(masks[:n]))
        rates, answers = best_rates(engines, rounds)
        for name in ratios:
            bad = [(m, a, e) for m, a, e in zip(masks, answers[name], expected) if a != e]
            agreement.append((label, name, len(bad), len(answers[name]), bad[:3]))
        row = f"{label:<27}" + "".join(f"{rates[n]:>20,.0f}" for n in names)
        row += "".join(f"{rates['ginrummy'] / rates[n]:>15.2f}x" for n in ratios)
        print(row)

    print("\nAgreement with ginrummy (exact; checked against a brute force in its tests):")
    for label, name, bad, n, examples in agreement:
        verdict = (f"DISAGREES on {bad} of {n} hands, e.g." if bad
                   else f"agrees on all {n} hands")
        print(f"  {label:<27} {name:<10} {verdict}")
        for mask, theirs, ours_ in examples:
            print(f"      {cards_from_mask(mask).sorted()}: {name} {theirs}, ginrummy {ours_}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
