"""How far to trust the coach: its mistake flags, its rankings and its opponent model, measured.

    .venv/bin/python bench/coach.py                       # 200 decisions, 200 knocks
    .venv/bin/python bench/coach.py --decisions 40 --knocks 60 --reference 256   # a quick look

Not a test: `make test` never runs it. Everything is measured on positions from seeded games
between two sensible players (the base policy of ginrummy.policy for both), side by side in
one run:

- **Flags** (issue 30: at least 90% of the moves flagged cost the reference a point or more;
  at least 80% of the reference's mistakes of 2 points or more are flagged). The reference
  is the same model with many more worlds (``--reference``, from another seed, so it shares
  no worlds with the coach). The coach is asked as the page asks: a first hint, then refined
  (``previous=``) to each of ``--refined`` worlds. Every legal move but the best of each
  decision is a candidate; a move's cost is the reference's, in hand points at the score.
- **Rankings**: how often the coach's best is the reference's best (top-1 agreement), how
  often its best costs the reference less than a point, and how often three seeds agree on
  the best (stability).
- **Calibration** (goal: the knock's value within 3 points of the real one, the undercut
  rate within 2 points of percentage, by stock phase): at every position where a knock is
  legal, the coach's expected points for knocking (and share of worlds undercut) against
  what knocking scores against the real hidden hand; and the model's mean deadwood of the
  other hand against the real one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from ginrummy.advice import MISTAKE_POINTS, advise
from ginrummy.hand import HandState, apply, deal, legal_actions
from ginrummy.melds import min_deadwood_mask
from ginrummy.opponent import Model, sample_worlds, world_state
from ginrummy.playout import playout_end, policy_action
from ginrummy.public import view

REFERENCE_SEED = 987_654_321
PHASES = (
    ("stock 25-31", 25, 31),
    ("stock 15-24", 15, 24),
    ("stock 8-14", 8, 14),
    ("stock 0-7", 0, 7),
)


def phase_of(stock: int) -> str:
    return next(name for name, low, high in PHASES if low <= stock <= high)


def decisions(count: int, first_seed: int = 0) -> list[HandState]:
    """Decision points (two or more legal moves) from seeded games, spread over the hand."""
    out, seed = [], first_seed
    while len(out) < count:
        state = deal(seed=seed, dealer=seed % 2)
        moves = 0
        while not state.finished and len(out) < count:
            if len(legal_actions(state)) > 1 and state.phase != "lay_off" and moves % 3 == seed % 3:
                out.append(state)
            state = apply(state, policy_action(state))
            moves += 1
        seed += 1
    return out


def knock_positions(count: int, first_seed: int = 10_000) -> list[HandState]:
    out, seed = [], first_seed
    while len(out) < count:
        state = deal(seed=seed, dealer=seed % 2)
        while not state.finished and len(out) < count:
            if state.phase == "discard" and any(a.kind == "knock" for a in legal_actions(state)):
                out.append(state)
            state = apply(state, policy_action(state))
        seed += 1
    return out


def judge(args: tuple[HandState, int, list[int]]) -> dict:
    """The reference and the coach at each budget on one decision."""
    state, reference, budgets = args
    started = time.process_time()
    ref = advise(state, samples=256, seed=REFERENCE_SEED)
    while ref.samples < reference and not ref.settled:
        ref = advise(
            state, samples=min(256, reference - ref.samples), seed=REFERENCE_SEED, previous=ref
        )
    ref_seconds = time.process_time() - started
    ref_cost = {c.action: c.cost_points for c in ref.choices}
    started = time.process_time()
    first = advise(state)
    first_seconds = time.process_time() - started
    steps = [("first hint", first)]
    advice = first
    for refined in budgets:  # as the page refines while the reader thinks (previous=)
        while advice.samples < refined and not advice.settled:
            advice = advise(state, samples=min(32, refined - advice.samples), previous=advice)
        steps.append((f"refined to {refined}", advice))
    bests = [advise(state, seed=seed).best.action for seed in (1, 2, 3)]
    return {
        "phase": state.phase,
        "choices": len(ref.choices),
        "ref_best": ref.best.action,
        "ref_cost": ref_cost,
        "ref_samples": ref.samples,
        "ref_seconds": ref_seconds,
        "first_seconds": first_seconds,
        "steps": [
            (name, a.best.action, {c.action: c.mistake for c in a.choices}, a.samples)
            for name, a in steps
        ],
        "stable": len(set(bests)) == 1,
    }


def knock_calibration(args: tuple[HandState, int]) -> dict:
    """The model's value of the best knock against its real value."""
    state, worlds = args
    me = state.turn
    seen = view(state, me)
    knocks = [a for a in legal_actions(state) if a.kind == "knock"]
    action = min(
        knocks, key=lambda a: (min_deadwood_mask(state.hands[me].mask ^ a.card.bit), -a.card.value)
    )
    entry, outcome, _ = playout_end(apply(state, action))
    real = entry.points if entry.winner == me else -entry.points
    predicted, undercut, deadwood = [], 0, []
    for world in sample_worlds(Model(seen), worlds, random.Random(REFERENCE_SEED)):
        dealt = world_state(seen, world)
        e, o, _ = playout_end(apply(dealt, action))
        predicted.append(e.points if e.winner == me else -e.points)
        undercut += o == "undercut"
        deadwood.append(min_deadwood_mask(dealt.hands[1 - me].mask))

    # the knock policies, each judged by what its move really scores here (the real hidden
    # hand and stock; after a move that plays on, both players play the base policy)
    def really(move) -> int:
        e, _, _ = playout_end(apply(state, move))
        return 0 if e is None else (e.points if e.winner == me else -e.points)

    coach = advise(state, samples=64).best.action
    return {
        "phase": phase_of(len(state.stock)),
        "policies": {
            "knock at once": real,
            "the base policy": really(policy_action(state)),
            "the coach (64 worlds)": really(coach),
        },
        "coach_knocks": coach.kind in ("knock", "gin"),
        "predicted": statistics.mean(predicted),
        "real": real,
        "undercut": undercut / worlds,
        "undercut_real": outcome == "undercut",
        "deadwood": statistics.mean(deadwood),
        "deadwood_real": min_deadwood_mask(state.hands[1 - me].mask),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--knocks", type=int, default=200)
    parser.add_argument("--reference", type=int, default=1024, help="the reference's worlds")
    parser.add_argument(
        "--refined",
        type=int,
        nargs="+",
        default=[128, 416],
        help="the coach refined to (416: the most the play page reaches, 32 + 24 rounds of 16)",
    )
    parser.add_argument("--worlds", type=int, default=200, help="worlds per knock calibrated")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with Pool(args.workers) as pool:
        started = time.time()
        if args.knocks:
            knocks = pool.map(
                knock_calibration,
                [(s, args.worlds) for s in knock_positions(args.knocks)],
                chunksize=4,
            )
            report_calibration(knocks)
            print(f"  ({time.time() - started:.0f} s)\n", flush=True)
        if not args.decisions:
            return
        started = time.time()
        judged = pool.map(
            judge,
            [(s, args.reference, args.refined) for s in decisions(args.decisions)],
            chunksize=2,
        )
        report_flags(judged, args.reference)
        print(f"  ({time.time() - started:.0f} s)")


def report_calibration(rows: list[dict]) -> None:
    print(f"Calibration: {len(rows)} positions where a knock is legal (the best knock), "
          "the model's expectation against the real hidden hand")  # fmt: skip
    print(f"{'phase':<12} {'knocks':>6} {'value: model':>13} {'real':>6} {'diff':>6} "
          f"{'undercut: model':>16} {'real':>6} {'other deadwood: model':>22} {'real':>6}")  # fmt: skip
    by_phase = defaultdict(list)
    for row in rows:
        by_phase[row["phase"]].append(row)
    for name, _, _ in PHASES + (("all", 0, 31),):
        group = rows if name == "all" else by_phase[name]
        if not group:
            continue
        model = statistics.mean(r["predicted"] for r in group)
        real = statistics.mean(r["real"] for r in group)
        under = 100 * statistics.mean(r["undercut"] for r in group)
        under_real = 100 * statistics.mean(r["undercut_real"] for r in group)
        print(
            f"{name:<12} {len(group):>6} {model:>13.1f} {real:>6.1f} {model - real:>+6.1f} "
            f"{under:>15.1f}% {under_real:>5.1f}% {statistics.mean(r['deadwood'] for r in group):>22.1f} "
            f"{statistics.mean(r['deadwood_real'] for r in group):>6.1f}"
        )
    print("Goal: value within 3 points, undercut rate within 2 points of percentage, per phase.")
    print("Knock policies at the same positions, each move's real score (hand points):")
    for name in rows[0]["policies"]:
        print(f"  {name:<24} {statistics.mean(r['policies'][name] for r in rows):+6.2f}")
    print(f"  (the coach knocks at {statistics.mean(r['coach_knocks'] for r in rows):.0%} of them)")


def report_flags(rows: list[dict], reference: int) -> None:
    print(
        f"Flags and rankings: {len(rows)} decisions, the reference at up to {reference} worlds "
        f"(mean {statistics.mean(r['ref_samples'] for r in rows):.0f}), another seed"
    )
    names = [name for name, *_ in rows[0]["steps"]]
    print(f"{'coach':<16} {'worlds':>7} {'flagged':>8} {'precision':>10} {'mistakes>=2':>12} "
          f"{'recall':>7} {'top-1':>6} {'best<1pt':>9}")  # fmt: skip
    for k, name in enumerate(names):
        flagged = good = serious = caught = top = close = 0
        worlds = []
        for row in rows:
            _, best, mistakes, samples = row["steps"][k]
            worlds.append(samples)
            top += best == row["ref_best"]
            close += row["ref_cost"][best] < MISTAKE_POINTS
            for action, cost in row["ref_cost"].items():
                if action == row["ref_best"]:
                    continue
                if mistakes[action]:
                    flagged += 1
                    good += cost >= MISTAKE_POINTS
                if cost >= 2:
                    serious += 1
                    caught += mistakes[action]
        print(
            f"{name:<16} {statistics.mean(worlds):>7.0f} {flagged:>8} "
            f"{good / flagged if flagged else 1:>10.1%} {serious:>12} "
            f"{caught / serious if serious else 1:>7.1%} {top / len(rows):>6.1%} "
            f"{close / len(rows):>9.1%}"
        )
    print(f"Stability: the first hint's best is the same for three seeds at "
          f"{statistics.mean(r['stable'] for r in rows):.1%} of decisions")  # fmt: skip
    by_phase = defaultdict(list)
    for row in rows:
        by_phase[row["phase"]].append(row["steps"][0][1] == row["ref_best"])
    print("Top-1 of the first hint by phase: " + ", ".join(
        f"{p} {statistics.mean(v):.0%} ({len(v)})" for p, v in sorted(by_phase.items())))  # fmt: skip
    print(f"CPU per decision: first hint {statistics.mean(r['first_seconds'] for r in rows):.2f} s, "
          f"reference {statistics.mean(r['ref_seconds'] for r in rows):.1f} s")  # fmt: skip
    print("Goals: precision >= 90%, recall (mistakes of 2 points or more) >= 80%.")


if __name__ == "__main__":
    main()
