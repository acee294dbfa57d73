"""Minimum-deadwood throughput: ginrummy against OpenSpiel and RLCard, side by side; and the
latency of ginrummy's score_hand.

    .venv/bin/python bench/deadwood.py            # full run
    .venv/bin/python bench/deadwood.py --quick    # short run

OpenSpiel (``pip install open-spiel``) and RLCard (``pip install rlcard``) are optional; see
requirements-bench.txt. An engine that does not import is skipped with a note.

Hands are seeded and converted to each engine's own card objects before timing, so only the
deadwood call is timed. Each engine is timed through its public function on its own parsed
objects: ``ginrummy.min_deadwood`` on a :class:`~ginrummy.cards.Hand`, OpenSpiel's
``GinRummyUtils.min_deadwood`` on a list of card numbers, RLCard's best meld clusters and
deadwood count on its Card objects. ginrummy's mask core (``min_deadwood_mask`` on an int) is
timed too ("ginrummy core"), and ratios against OpenSpiel and RLCard are given for both.
Workloads:

- random 10-card hands;
- meld-dense 10-card hands (cards from ranks 3-7 only);
- random and meld-dense 11-card hands: least deadwood after the best discard. Ours is
  ``min_deadwood_after_discard_mask`` (exact); OpenSpiel's ``min_deadwood`` has an 11-card
  mode (not exact: see tests/data/deadwood.json); RLCard has none, so it is timed as the
  minimum of its 10-card routine over the 11 discards.

Every engine's answers are compared with ours; disagreements are counted and a few printed.

Then ``score_hand`` latency, one call at a time (each the best of a few runs, CPU time), on
legal knocks: knocks reached in play (from random deals both players draw and throw the card
leaving the least deadwood until one can knock; random 10-card hands almost never can),
meld-dense knocks from a narrow window of ranks with the defender's cards around it (several
layouts for the knocker, long lay-off chains), and a few hand-made worst cases. It prints p50,
p99 and the worst, with the worst hand.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from ginrummy import melds, min_deadwood, score_hand
from ginrummy.cards import DECK, cards_from_mask, parse_cards
from ginrummy.melds import min_deadwood_after_discard_mask, min_deadwood_mask

# OpenSpiel numbers cards suit * 13 + rank - 1 with suits s, c, d, h: As..Ks, Ac..Kc, Ad..Kd, Ah..Kh
OPENSPIEL_SUITS = {"S": 0, "C": 1, "D": 2, "H": 3}


def make_hands(count: int, size: int, dense: bool, seed: int) -> list[int]:
    """Seeded hands as 52-bit masks."""
    rng = random.Random(seed)
    pool = [c for c in DECK if 3 <= c.rank <= 7] if dense else list(DECK)
    return [sum(c.bit for c in rng.sample(pool, size)) for _ in range(count)]


# --- engines: each is (prepare(masks) -> inputs, run(inputs) -> answers) ----------------------


def ours(size: int):
    """The public function on parsed hands."""

    def prepare(masks):
        return [parse_cards(str(cards_from_mask(m))) for m in masks]

    def run(hands):
        return [min_deadwood(h) for h in hands]

    return prepare, run


def ours_core(size: int):
    """The mask core on ints."""
    fn = min_deadwood_mask if size == 10 else min_deadwood_after_discard_mask

    def run(masks):
        return [fn(m) for m in masks]

    return list, run


def openspiel(size: int):
    import pyspiel

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)  # ranks, suits, hand size
    assert utils.card_string(13) == "Ac", "unexpected OpenSpiel card numbering"

    def prepare(masks):
        return [
            [OPENSPIEL_SUITS[c.suit] * 13 + c.rank - 1 for c in cards_from_mask(m)] for m in masks
        ]

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
        return [min(deadwood10(h[:i] + h[i + 1 :]) for i in range(len(h))) for h in hands]

    return prepare, run


ENGINES = {"ginrummy": ours, "ginrummy core": ours_core, "OpenSpiel": openspiel, "RLCard": rlcard}
OURS = ("ginrummy", "ginrummy core")


# --- score_hand latency -------------------------------------------------------------------------


def played_knocks(count: int, seed: int) -> list[tuple[int, int]]:
    """(knocker, defender) masks of knocks reached in play: from a random deal the players draw
    from the stock in turn and throw the card leaving the least deadwood (the highest on ties)
    until one of them has deadwood 1 to 10 (a gin is played on)."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        deck = [card.bit for card in rng.sample(DECK, 52)]
        hands, stock = [sum(deck[0:10]), sum(deck[10:20])], deck[20:]
        for turn, drawn in enumerate(stock):
            hand = hands[turn % 2] | drawn
            throw = min(
                cards_from_mask(hand), key=lambda c: (min_deadwood_mask(hand ^ c.bit), -c.value)
            ).bit
            hands[turn % 2] = hand ^ throw
            if 0 < min_deadwood_mask(hand ^ throw) <= 10:
                found.append((hands[turn % 2], hands[1 - turn % 2]))
                break
    return found


def dense_knocks(count: int, seed: int) -> list[tuple[int, int]]:
    """Knocks from a window of 3 to 5 ranks (many melds, several layouts) with the defender's
    cards around the window (long lay-off chains at both ends, fourth cards of sets)."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        low, width = rng.randint(1, 10), rng.choice((3, 4, 4, 5))
        window = [c for c in DECK if low <= c.rank < low + width]
        knocker = (
            sum(c.bit for c in rng.sample(window, 9))
            | rng.choice([c for c in DECK if c.rank < 11]).bit
        )
        if knocker.bit_count() < 10 or not 0 < min_deadwood_mask(knocker) <= 10:
            continue
        near = [c for c in DECK if not c.bit & knocker and low - 3 <= c.rank < low + width + 3]
        found.append((knocker, sum(c.bit for c in rng.sample(near, 10))))
    return found


WORST_CASES = [  # two layouts with the most lay-off combinations; runs meeting in one suit
    ("3S 4S 5S 3H 4H 5H 3D 4D 5D AC", "AS 2S 6S 7S AH 2H 6H 7H 6D 7D"),
    ("TS JS QS TH JH QH TD JD QD 4S", "8S 9S KS 8H 9H KH 8D 9D KD 7H"),
    ("9S TS JS 9H TH JH 9D TD JD 4H", "KS QS QH KH 8S 8H 8D 7D QD KD"),
    ("3S 4S 5S 9S TS JS 3H 4H 5H AD", "6S 7S 8S 2H 6H 7H 2S AS AH QS"),
    ("5D 5S 4D 3D 4H 5H 4S 3H 3S 9H", "AS 2D 6S 6H 2S 7S 2H 7D 6D AH"),
    ("TH 9S JS 9H 9D JH JD TD TS 4H", "KH 8S QS QH KS KD 8D 8H QD 7D"),
    ("4D 6D 6H 5D 4H 5C 5H 4C 6C 7S", "7D 3H TH 3D 2H 7H 3C 7C 8H 8C"),
    ("JS QS TC QD QC TD TS JC JD 3C", "KS 6S 7D 9C 8C 9D 8D KD KC 9S"),
]


def latencies(pairs: list, repeats: int) -> list[tuple[float, object, object]]:
    """(seconds, knocker, defender) per knock: the best of ``repeats`` calls, CPU time."""
    found = []
    for knocker, defender in pairs:
        best = None
        for _ in range(repeats):
            start = time.process_time()
            score_hand(knocker, defender)
            elapsed = time.process_time() - start
            best = elapsed if best is None else min(best, elapsed)
        found.append((best, knocker, defender))
    return found


def score_latency(quick: bool, seed: int) -> None:
    count, repeats = (300, 2) if quick else (3000, 3)
    hands = lambda masks: [(cards_from_mask(k), cards_from_mask(d)) for k, d in masks]  # noqa
    groups = [
        ("knocks in play", hands(played_knocks(count, seed))),
        ("meld-dense knocks", hands(dense_knocks(count, seed + 1))),
        ("hand-made worst cases", [(parse_cards(k), parse_cards(d)) for k, d in WORST_CASES]),
    ]
    print(f"score_hand latency (ms; each knock the best of {repeats} calls, CPU time):")
    print(
        f"{'knocks':<24}{'count':>7}{'p50':>9}{'p99':>9}{'worst':>9}  worst hand "
        "(knocker | defender)"
    )
    everything = []
    for label, pairs in groups + [("all", None)]:
        found = latencies(pairs, repeats) if pairs is not None else everything
        if pairs is not None:
            everything = everything + found
        times = sorted(found, key=lambda item: item[0])
        p50, p99 = times[len(times) // 2][0], times[min(len(times) - 1, len(times) * 99 // 100)][0]
        worst, knocker, defender = times[-1]
        print(
            f"{label:<24}{len(times):>7}{p50 * 1e3:>9.3f}{p99 * 1e3:>9.3f}{worst * 1e3:>9.3f}"
            f"  {knocker} | {defender}"
        )


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
    print(
        f"Python {platform.python_version()}; {count} hands per workload (RLCard {slow}, "
        f"{slow // 5} for 11 cards); seed {args.seed}; best of {rounds} rounds; CPU time."
    )
    print(f"ginrummy builds its lane tables in {build_ms:.1f} ms (at import).\n")

    workloads = [
        ("random 10", 10, False),
        ("dense 10 (ranks 3-7)", 10, True),
        ("random 11 (after discard)", 11, False),
        ("dense 11 (after discard)", 11, True),
    ]
    names = list(available)
    header = f"{'workload':<27}" + "".join(f"{n:>15}" for n in names)
    ratios = [(ours_name, n) for n in names if n not in OURS for ours_name in OURS]
    header += "".join(
        f"{('public' if o == 'ginrummy' else 'core') + '/' + n:>17}" for o, n in ratios
    )
    print("hands/s, and ginrummy's public function and mask core against the others:")
    print(header)
    print("-" * len(header))
    agreement = []
    for label, size, dense in workloads:
        masks = make_hands(count, size, dense, args.seed + size + dense)
        expected = [
            min_deadwood_mask(m) if size == 10 else min_deadwood_after_discard_mask(m)
            for m in masks
        ]
        engines = {}
        for name in names:
            n = slow_count.get(name, count) // (5 if size == 11 and name in slow_count else 1)
            prepare, run = available[name](size)
            engines[name] = (run, prepare(masks[:n]))
        rates, answers = best_rates(engines, rounds)
        for name in names:
            bad = [(m, a, e) for m, a, e in zip(masks, answers[name], expected) if a != e]
            agreement.append((label, name, len(bad), len(answers[name]), bad[:3]))
        row = f"{label:<27}" + "".join(f"{rates[n]:>15,.0f}" for n in names)
        row += "".join(f"{rates[o] / rates[n]:>16.2f}x" for o, n in ratios)
        print(row)

    print(
        "\nAgreement with ginrummy's mask core (exact; checked against a brute force in its tests):"
    )
    for label, name, bad, n, examples in agreement:
        verdict = f"DISAGREES on {bad} of {n} hands, e.g." if bad else f"agrees on all {n} hands"
        print(f"  {label:<27} {name:<14} {verdict}")
        for mask, theirs, ours_ in examples:
            print(f"      {cards_from_mask(mask).sorted()}: {name} {theirs}, ginrummy {ours_}")

    print()
    score_latency(args.quick, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
