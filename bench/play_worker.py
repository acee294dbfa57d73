"""The play page's requests in the browser's worker: a bot move and a coach ranking.

    .venv/bin/python bench/play_worker.py [--site site] [--states 40] [--samples 8 32]

Builds nothing: serves an already built site/ (`make site`) on loopback, opens the play page
in headless Chromium and, once the engine has booted, sends the worker the requests the page
sends: the computer's move (``bot``, level strong) and the coach's ranking (``advice``) with each
number of ``--samples``, for the same decisions taken from seeded games. The same requests run
in CPython here, side by side, and the ratio is printed. Not a test: `make test` never runs it.
Issue 12's goals: a bot move p95 <= 50 ms, a coach ranking p95 <= 300 ms.
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
from ginrummy.bots import choose  # noqa: E402
from ginrummy.match import new_game, play  # noqa: E402

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402

GOALS = {"bot": 50, "advice": 300}


def decisions(count: int) -> list[dict]:
    """Hand states where a player has a real choice, from bot-against-bot games."""
    states, seed = [], 0
    while len(states) < count:
        game = new_game(seed=seed)
        while not game.hand.finished and len(states) < count:
            state = game.hand.to_json()
            if game.hand.phase in ("offer", "draw", "discard"):
                states.append(state)
            game = play(game, choose(game.hand, "strong", seed=seed))
        seed += 1
    return states


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default=str(ROOT / "site"))
    parser.add_argument("--states", type=int, default=40)
    parser.add_argument("--samples", type=int, nargs="+", default=[8, 32])
    args = parser.parse_args()
    states = decisions(args.states)
    suites = {"bot": [{"op": "bot", "state": s, "level": "strong", "seed": 1} for s in states]}
    for samples in args.samples:
        suites[f"advice/{samples}"] = [
            {"op": "advice", "state": s, "samples": samples} for s in states
        ]
    from playwright.sync_api import sync_playwright

    with serve(Path(args.site)) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(base + "play/")
        page.wait_for_selector(".gin-play[data-gin-answers]", timeout=120000)
        print(
            f"{len(states)} decisions from seeded games; times in ms (worker: round trip "
            f"from the page)"
        )
        print(
            f"{'request':<12} {'worker p50':>10} {'p95':>8} {'CPython p50':>12} {'p95':>8} "
            f"{'ratio p95':>9}  goal p95"
        )
        for name, requests in suites.items():
            worker = page.evaluate(BROWSER_RUN, [{"v": 1, **r} for r in requests])
            local = cpython(requests)
            goal = GOALS[name.split("/")[0]]
            w95, c95 = percentile(worker, 0.95), percentile(local, 0.95)
            print(
                f"{name:<12} {statistics.median(worker):>10.1f} {w95:>8.1f} "
                f"{statistics.median(local):>12.1f} {c95:>8.1f} {w95 / c95:>9.2f}  "
                f"{goal} ({'met' if w95 <= goal else 'NOT met'})"
            )
        browser.close()


if __name__ == "__main__":
    main()
