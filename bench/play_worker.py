"""The play page's requests in the browser's worker: a bot move, a first hint, refining.

    .venv/bin/python bench/play_worker.py [--site site] [--states 40] [--refine 2000]

Builds nothing: serves an already built site/ (`make site`) on loopback, opens the play page
in headless Chromium and, once the engine has booted, sends the worker the requests the page
sends, for the same decisions taken from seeded games: the computer's move (``bot``, level
strong), the coach's first hint (``advice`` with no ``samples``), and the refinement the page
runs while the reader thinks (``advice`` with ``previous`` and 32 more worlds, again and
again for ``--refine`` milliseconds: how many worlds the advice reaches). The same requests
run in CPython here, side by side, and the ratio is printed. Not a test: `make test` never
runs it. Issue 30's goals: a bot move p95 <= 500 ms, the first hint p95 <= 300 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "engine"), str(ROOT / "presentation")]

from ginrummy import api  # noqa: E402
from ginrummy.advice import MAX_SAMPLES  # noqa: E402
from ginrummy.bots import choose  # noqa: E402
from ginrummy.match import new_game, play  # noqa: E402

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402

GOALS = {"bot": 500, "hint": 300}


def decisions(count: int) -> list[dict]:
    """Games (as JSON) at decisions where a player has a real choice, from seeded games
    between two intermediate bots (the strong bot's own moves would take long to make)."""
    games, seed = [], 0
    while len(games) < count:
        game = new_game(seed=seed)
        moves = 0
        while not game.hand.finished and len(games) < count:
            if game.hand.phase in ("offer", "draw", "discard") and moves % 3 == seed % 3:
                games.append(game.to_json())
            game = play(game, choose(game, "intermediate", seed=seed))
            moves += 1
        seed += 1
    return games


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def cpython(requests: list[dict]) -> list[float]:
    times = []
    for request in requests:
        started = time.perf_counter()
        response = api.call({"v": 1, **request})
        times.append((time.perf_counter() - started) * 1000)
        assert response["ok"], response
    return times


def cpython_refine(games: list[dict], budget: float) -> list[int]:
    reached = []
    for game in games:
        advice = api.call({"v": 1, "op": "advice", "game": game})["result"]
        started = time.perf_counter()
        while (time.perf_counter() - started) * 1000 < budget and not advice["settled"]:
            request = {"v": 1, "op": "advice", "game": game, "samples": 32, "previous": advice}
            advice = api.call(request)["result"]
        reached.append(advice["samples"])
    return reached


BROWSER_RUN = """async (requests) => {
    await window.ginEngine.ready;
    const times = [];
    for (const request of requests) {
        const started = performance.now();
        const response = await window.ginEngine.request({op: "engine", lang: "en", request});
        times.push(performance.now() - started);
        if (!response.ok || !response.result.ok) throw new Error(JSON.stringify(response));
    }
    return times;
}"""

BROWSER_REFINE = """async ([games, budget]) => {
    await window.ginEngine.ready;
    const ask = async (request) => {
        const response = await window.ginEngine.request({op: "engine", lang: "en", request});
        if (!response.ok || !response.result.ok) throw new Error(JSON.stringify(response));
        return response.result.result;
    };
    const reached = [];
    for (const game of games) {
        let advice = await ask({v: 1, op: "advice", game});
        const started = performance.now();
        while (performance.now() - started < budget && !advice.settled) {
            advice = await ask({v: 1, op: "advice", game, samples: 32, previous: advice});
        }
        reached.push(advice.samples);
    }
    return reached;
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default=str(ROOT / "site"))
    parser.add_argument("--states", type=int, default=40)
    parser.add_argument("--refine", type=float, default=2000, help="milliseconds of refining")
    parser.add_argument("--refine-states", type=int, default=10)
    args = parser.parse_args()
    games = decisions(args.states)
    suites = {
        "bot": [{"op": "bot", "state": g["hand"], "level": "strong", "seed": 1} for g in games],
        "hint": [{"op": "advice", "game": g} for g in games],
    }
    from playwright.sync_api import sync_playwright

    with serve(Path(args.site)) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(base + "play/")
        page.wait_for_selector(".gin-play[data-gin-answers]", timeout=120000)
        print(
            f"{len(games)} decisions from seeded games; times in ms (worker: round trip "
            f"from the page; CPython: the same request here)"
        )
        print(
            f"{'request':<8} {'worker p50':>10} {'p95':>8} {'CPython p50':>12} {'p95':>8} "
            f"{'ratio p95':>9}  goal p95"
        )
        for name, requests in suites.items():
            worker = page.evaluate(BROWSER_RUN, [{"v": 1, **r} for r in requests])
            local = cpython(requests)
            goal = GOALS[name]
            w95, c95 = percentile(worker, 0.95), percentile(local, 0.95)
            print(
                f"{name:<8} {statistics.median(worker):>10.1f} {w95:>8.1f} "
                f"{statistics.median(local):>12.1f} {c95:>8.1f} {w95 / c95:>9.2f}  "
                f"{goal} ({'met' if w95 <= goal else 'NOT met'})",
                flush=True,
            )
        # the most work one request may ask for: MAX_SAMPLES worlds at the decisions with
        # the most choices
        heavy = sorted(
            games,
            key=lambda g: (
                -len(
                    api.call(
                        {"v": 1, "op": "view", "state": g["hand"], "player": g["hand"]["turn"]}
                    )["result"]["legal"]
                )
            ),
        )[:3]
        largest = [{"op": "advice", "game": g, "samples": MAX_SAMPLES} for g in heavy]
        worker = page.evaluate(BROWSER_RUN, [{"v": 1, **r} for r in largest])
        local = cpython(largest)
        print(
            f"largest request ({MAX_SAMPLES} worlds, {len(heavy)} decisions of the most "
            f"choices): worker max {max(worker):.0f} ms, CPython max {max(local):.0f} ms",
            flush=True,
        )
        chosen = games[: args.refine_states]
        reached = page.evaluate(BROWSER_REFINE, [chosen, args.refine])
        local = cpython_refine(chosen, args.refine)
        print(
            f"refined for {args.refine:.0f} ms from the first hint ({len(chosen)} decisions): "
            f"worker {statistics.median(reached):.0f} worlds (median; least {min(reached)}), "
            f"CPython {statistics.median(local):.0f} (least {min(local)})"
        )
        browser.close()


if __name__ == "__main__":
    main()
