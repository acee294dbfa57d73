"""The play page as a reader meets it, in headless Chromium, on the built site.

    .venv/bin/python bench/play_page.py [--site site] [--runs 5] [--moves 40]

Builds nothing: it serves an already built site/ (`make site`) on loopback, as bench/browser.py
does (its server: the .br copies, the runtime immutable, the rest no-cache with an ETag).

1. The page live after the reader's first action, cold (a fresh browser context: empty caches)
   and from the offline cache (the same context with the network off, the service worker
   serving the page and the engine's runtime). The page is loaded; at its "load" event the
   reader's first action is taken at once: the discard pile pressed (a move of the first
   visit's deal). Measured: from navigation to the table live (its first answer in place), and
   from the reader's action to its answer in place (what the reader waits).
2. A move answered before its animation starts: a game is played by mouse (the reader's moves
   chosen by the engine's beginner bot, at the normal speed, the coach on), and for each move
   the time from the press to the worker's answer ("gin-play-answer") and to the move starting
   to show on the table ("gin-play-shown": the first step of its animation), p50 and p95. The
   reader thinks before each move (--think, 1.5 s: the coach works out its ranking meanwhile),
   and again with no thought at all (--think 0 in a second pass: a press at once).

Reports medians and p95 over the runs, and each figure against its goal: the page live within
a second of the reader's action from the offline cache, a move shown within 100 ms (the answer
before the animation starts). Nothing here is a test: `make test` never runs it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from browser import CHROMIUM, CHROMIUM_ARGS, offline_files, serve  # noqa: E402

GOALS = {"live_offline_ms": 1000, "move_shown_p95_ms": 100}
PAGE = "play/"
KEPT_JS = """async (paths) => {
  for (const path of paths) if (!(await caches.match(new URL(path, location.origin).href))) return false;
  return true;
}"""
LIVE_JS = """() => new Promise((resolve) => {
  const node = document.querySelector('.gin-play');
  const check = () => (node.dataset.ginAnswers ? resolve(performance.now()) : setTimeout(check, 5));
  check();
})"""
MARKS_JS = """() => Object.fromEntries(["gin-play-move", "gin-play-answer", "gin-play-shown"]
  .map((n) => [n, performance.getEntriesByName(n).map((e) => e.startTime)]))"""


def pct(values, q):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def answers(page) -> int:
    return int(page.locator(".gin-play").get_attribute("data-gin-answers") or 0)


def wait_answer(page, before: int) -> None:
    page.wait_for_function(
        "(n) => Number(document.querySelector('.gin-play').dataset.ginAnswers || 0) > n"
        " && !document.querySelector('.gin-play').hasAttribute('aria-busy')",
        arg=before,
        timeout=120_000,
    )


def first_action(context, base: str) -> dict:
    """Load the play page (no game kept: the first visit's deal) and press the discard pile at
    the load event: the time to the table live, and from the press to its answer in place."""
    page = context.new_page()
    page.add_init_script(
        """addEventListener('load', () => {
             const pile = () => document.querySelector('.gin-pile.gin-discard');
             performance.mark('bench-action');
             const press = () => {
               const b = pile();
               if (b && b.tagName === 'BUTTON' && !b.disabled && document.querySelector('.gin-play[data-gin-live]'))
                 b.click();
               else setTimeout(press, 5);
             };
             press();
           }, { once: true });"""
    )
    page.goto(base + PAGE, wait_until="load")
    page.wait_for_function(
        "() => Number(document.querySelector('.gin-play').dataset.ginAnswers || 0) >= 2"
        " && !document.querySelector('.gin-play').hasAttribute('aria-busy')",
        timeout=120_000,
    )
    times = page.evaluate(
        """() => ({ action: performance.getEntriesByName('bench-action')[0].startTime,
                   answer: performance.getEntriesByName('gin-play-answer').map((e) => e.startTime),
                   move: performance.getEntriesByName('gin-play-move').map((e) => e.startTime),
                   live: performance.getEntriesByName('gin-first-answer')[0]?.startTime })"""
    )
    page.close()
    return {
        "live_ms": times["live"],
        "action_ms": times["answer"][0] - times["action"] if times["answer"] else None,
        "move_ms": times["answer"][0] - times["move"][0] if times["answer"] else None,
    }


def a_game(context, base: str, moves: int, think: float) -> dict:
    """Moves of a game by mouse, timed by the page's own marks."""
    from ginrummy.bots import choose
    from ginrummy.match import game_from_json

    page = context.new_page()
    page.goto(base + PAGE + "#seed=31&rules=standard&level=intermediate", wait_until="load")
    wait_answer(page, 0)
    played = 0
    while played < moves:
        data = page.evaluate(
            """() => JSON.parse(localStorage.getItem('gin-play-game-' +
                       localStorage.getItem('gin-play-current'))).session"""
        )
        game = game_from_json(data["game"])
        hand = game.hand
        if game.finished:
            before = answers(page)
            page.locator(".gin-game-end button[data-new-game]").click()
            wait_answer(page, before)
            continue
        if think:
            time.sleep(think)
        before = answers(page)
        if hand.finished:
            selector = ".gin-turn button[data-move*=next]"
        elif hand.phase == "lay_off":
            selector = ".gin-turn button[data-move*=lay_offs_done]"
        else:
            move = choose(hand, "beginner", seed=played)
            selector = {
                "pass": ".gin-turn button[data-move*='\"pass\"']",
                "take_upcard": "button.gin-pile.gin-discard",
                "draw_discard": "button.gin-pile.gin-discard",
                "draw_stock": "button.gin-pile.gin-stock",
                "discard": f".gin-hand button[data-key='c{move.card}']",
            }.get(move.kind)
            if selector is None:  # a knock: two presses, the second one timed
                page.locator(".gin-turn button.gin-knock[data-move*=knock]").click()
                wait_answer(page, before)
                before = answers(page)
                selector = f".gin-hand button[data-key='c{move.card}']"
        page.locator(selector).first.click()
        wait_answer(page, before)
        played += 1
    marks = page.evaluate(MARKS_JS)
    page.close()
    pairs = list(zip(marks["gin-play-move"], marks["gin-play-answer"], strict=False))
    shown = marks["gin-play-shown"]
    answered = [a - m for m, a in pairs]
    started = [s - m for (m, _), s in zip(pairs, shown, strict=False)]
    return {"answered": answered, "shown": started}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--moves", type=int, default=40, help="timed moves per pass")
    parser.add_argument("--think", type=float, default=1.5, help="seconds before each move")
    args = parser.parse_args()
    site = args.site.resolve()
    if not (site / PAGE / "index.html").is_file():
        print(f"no built site at {site}: run `make site` first")
        return 2
    from playwright.sync_api import sync_playwright

    keep = offline_files(site, PAGE)
    cold, offline = [], []
    passes = {"thinking": ([], []), "at once": ([], [])}
    with serve(site) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for run in range(args.runs):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            cold.append(first_action(context, server.base))
            page = context.new_page()  # until the service worker keeps the page and runtime
            page.goto(server.base + PAGE)
            deadline = time.monotonic() + 120
            while keep and not page.evaluate(KEPT_JS, keep) and time.monotonic() < deadline:
                page.wait_for_timeout(250)
            page.close()
            if keep:
                context.set_offline(True)
                page = context.new_page()
                page.goto(server.base + PAGE)
                page.evaluate("() => localStorage.clear()")  # a first visit's deal again
                page.close()
                offline.append(first_action(context, server.base))
            context.close()
            print(
                f"  run {run + 1}: live cold {cold[-1]['live_ms']:.0f} ms, action→answer "
                f"{cold[-1]['action_ms']:.0f} ms"
                + (
                    f"; offline live {offline[-1]['live_ms']:.0f} ms, action→answer "
                    f"{offline[-1]['action_ms']:.0f} ms"
                    if offline
                    else ""
                ),
                flush=True,
            )
        for name, think in (("thinking", args.think), ("at once", 0.0)):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            got = a_game(context, server.base, args.moves, think)
            passes[name][0].extend(got["answered"])
            passes[name][1].extend(got["shown"])
            context.close()
        browser.close()

    def med(rows, key):
        values = [r[key] for r in rows if r.get(key) is not None]
        return statistics.median(values) if values else None

    print(f"\nThe play page, headless Chromium 1280x800 on loopback, {args.runs} runs:")
    for label, rows in (("cold", cold), ("offline cache", offline)):
        if rows:
            print(
                f"  {label:14s} navigation→live {med(rows, 'live_ms'):7.0f} ms (median)   "
                f"reader's first action→its answer {med(rows, 'action_ms'):7.0f} ms "
                f"(median; p95 {pct([r['action_ms'] for r in rows], 0.95):.0f} ms)"
            )
    for name, (answered, shown) in passes.items():
        print(
            f"  moves, reader {name:9s} press→answer p50 {pct(answered, 0.5):6.0f} ms, "
            f"p95 {pct(answered, 0.95):6.0f} ms; press→first step shown p50 "
            f"{pct(shown, 0.5):6.0f} ms, p95 {pct(shown, 0.95):6.0f} ms ({len(shown)} moves)"
        )
    if offline:
        ok = med(offline, "action_ms") <= GOALS["live_offline_ms"]
        print(
            f"  goal: live within {GOALS['live_offline_ms']} ms of the action, offline: {'met' if ok else 'NOT met'}"
        )
    p95 = pct(passes["thinking"][1], 0.95)
    ok = p95 is not None and p95 <= GOALS["move_shown_p95_ms"]
    print(
        f"  goal: a move shown within {GOALS['move_shown_p95_ms']} ms (p95, thinking): {'met' if ok else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
