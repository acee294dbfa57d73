"""Browser benchmark: the live examples in headless Chromium, against the built site.

    .venv/bin/python bench/browser.py [--site site] [--runs 5] [--edits 30] [--before SITE]
                                      [--variant NAME=SITE ...] [--compare-snapshot]
                                      [--no-throttle] [--no-lighthouse] [--no-gzip]
                                      [--no-play] [--profile]
                                      [--pages "" rules/gin/ ...]

Builds nothing: it serves an already built site/ (`make site`) on loopback with nginx and the
configuration the README recommends (sitegen/hosting.py: the .br or .gz copies as the browser
accepts, the types, the runtime's folder cached as immutable and everything else revalidated,
the Content-Security-Policy header), as a real host would; nginx's log counts the bytes.

For each page, `--runs` cold loads (a fresh browser context: empty HTTP and code caches), each
followed by a warm load (the same context). Per load:
- boot: from the boot trigger (performance mark "gin-boot", set by gin.js) to the first live
  answer ("gin-first-answer"), and to the worker's "ready"; and from the reader's action
  (pointing at the example, once the network is quiet) to that answer: on a second visit the
  engine boots by itself at idle when its runtime is kept offline, before the reader acts;
- long tasks on the main thread (PerformanceObserver 'longtask', with its attribution, and
  'long-animation-frame' for the scripts behind them), from navigation to the end of the edits;
- bytes over the wire (the server counts what it sends): before any interaction (the page is
  left alone until the network is quiet: the engine must not boot by itself), then after
  scrolling to the first example, pointing at it, and its first answer;
- edits (warm loads): a card of the first example is changed through the UI (the picker), and
  the time to `data-gin-answered` changing (or an inline error) is taken, p50 and p95.

Side by side, interleaved in one run on the same machine, each variant on its own server: the
site served with its .br copies, and with only its .gz ones (a host without Brotli); with
--before SITE, a site built before a change (e.g. from the main branch); with
--compare-snapshot, the site whose runtime.js omits SNAPSHOT_FILE (the worker then boots Python
and loads the engine wheel). For each: the bytes from the boot trigger to the first live answer,
and that time cold, from the offline cache (a warm load with the network off, served by the
service worker) and cold at 12 Mbit/s down and 40 ms latency (DevTools network emulation).

The boot step by step: the engine worker reports when each of its steps ended (worker.js's
timeline: the worker created and started, the module and the snapshot read from the cache or the
network, the module compiled, Pyodide's scripts imported, the module instantiated, the snapshot
restored, the engine imported), printed in ms from the boot trigger for the first visit (cold)
beside the second (offline), for each variant: where a second visit's time goes. (The first
answer after that is the "reader's action→first answer" above: on a second visit the engine
boots at idle, before the reader acts.) With --profile each run's browser keeps a profile on
disk, as a reader's does (a fresh context keeps its caches in memory; on disk Chromium keeps the
code it compiled for Pyodide's script beside its kept copy), and a third visit follows the
second. (--no-gzip, --no-play, --no-throttle, --no-lighthouse and --edits 0 leave out the rest.)

Lighthouse (`npx --yes lighthouse@12.2.3`, mobile, on the first two pages) runs when npx is
available and --no-lighthouse is not given. Nothing here is a test: `make test` never runs it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from sitegen.hosting import Nginx  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
LIGHTHOUSE = "lighthouse@12.2.3"
# The home page (its example just below the fold at 1280x900), a rule page with its example in
# view, and one whose example is far below the fold.
PAGES = ["", "rules/gin/", "rules/cards-and-deal/"]

TARGETS = {  # issue 4's table
    "boot_cold_ms": 1000,
    "longtasks": 0,
    "edit_p95_ms": 50,
    "bytes_before_kb": 300,
    "lh_performance": 0.95,
    "lh_tbt_ms": 50,
    "lh_cls": 0.05,
    "action_warm_ms": 400,  # issue 14: a second visit's engine, live from the reader's action
    "boot_kb": 4500,  # issue 34: the runtime's bytes, boot trigger to the first answer (Brotli)
}

# ------------------------------------------------------------------------------------------------
# The server: nginx, with the configuration the README recommends (sitegen/hosting.py)


class Host:
    """A variant of the site behind its own nginx; take() is what it sent since the last call,
    as (time read, path, bytes on the wire, headers included)."""

    def __init__(self, nginx: Nginx) -> None:
        self.nginx = nginx
        self.seen = 0

    @property
    def base(self) -> str:
        return self.nginx.url

    def take(self) -> list[tuple[float, str, int]]:
        requests = self.nginx.requests()
        new, self.seen = requests[self.seen :], len(requests)
        now = time.perf_counter()
        return [(now, r.path.split("?", 1)[0], r.bytes_sent) for r in new]


@contextlib.contextmanager
def serve(site: Path, brotli: bool = True):
    """The site at the root of nginx: its .br copies to a browser that accepts Brotli (unless
    brotli is false: a server without Brotli, sending the .gz copies), else its .gz ones."""
    with Nginx(site, "/", brotli=brotli) as nginx:
        yield Host(nginx)


def without_snapshot(site: Path, into: Path) -> Path:
    """A copy of the site (hard links) whose runtime.js names no snapshot: the worker boots
    Python and loads the wheels."""
    shutil.copytree(site, into, copy_function=os.link)
    runtime_js = into / "assets/gin/runtime.js"
    text = "".join(
        ln
        for ln in runtime_js.read_text().splitlines(True)
        if not ln.startswith(("export const SNAPSHOT_", "export const BOOT_FILES"))
    )
    for suffix in ("", ".br", ".gz"):
        runtime_js.with_name(runtime_js.name + suffix).unlink(missing_ok=True)
    runtime_js.write_text(text)
    return into


# ------------------------------------------------------------------------------------------------
# In the page

INIT_SCRIPT = r"""
(() => {
  const bench = (window.__bench = { longtasks: [], frames: [] });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longtasks.push({
        start: Math.round(e.startTime), ms: Math.round(e.duration),
        attribution: (e.attribution || []).map((a) =>
          [a.name, a.containerType, a.containerSrc, a.containerName].filter(Boolean).join(" ")),
      });
    }).observe({ type: "longtask", buffered: true });
  } catch (e) {}
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.duration <= 50) continue;
        bench.frames.push({
          start: Math.round(e.startTime), ms: Math.round(e.duration),
          blocking: Math.round(e.blockingDuration || 0),
          scripts: (e.scripts || []).map((s) => ({
            what: `${s.invoker || s.invokerType} ${(s.sourceURL || "").split("/").slice(-2).join("/")}`,
            ours: /\/assets\/(gin|runtime)\//.test(s.sourceURL || ""),
            ms: Math.round(s.duration) })),
        });
      }
    }).observe({ type: "long-animation-frame", buffered: true });
  } catch (e) {}
})();
"""

# The boot's timeline: when each step ended, in ms from the boot trigger ("gin-boot"): the
# worker's steps (worker.js's timeline, in ms since the epoch) and the page's "gin-ready".
TIMELINE_JS = """async () => {
  const boot = (performance.getEntriesByName("gin-boot")[0] || {}).startTime;
  if (boot === undefined || !window.ginEngine) return null;
  const ready = await Promise.race([window.ginEngine.ready.catch(() => null),
    new Promise((resolve) => setTimeout(() => resolve(null), 100))]);
  if (!ready || !ready.timeline) return null;
  const zero = performance.timeOrigin + boot;
  const timeline = Object.fromEntries(Object.entries(ready.timeline).map(
    ([name, at]) => [name, Math.round(at - zero)]));
  timeline["ready (page)"] = Math.round(performance.getEntriesByName("gin-ready")[0].startTime - boot);
  return timeline;
}"""

MARKS_JS = """() => Object.fromEntries(["gin-boot", "gin-ready", "gin-first-answer",
  "bench-action"].map(
  (n) => [n, (performance.getEntriesByName(n)[0] || {}).startTime ?? null]))"""

NEAR_VIEW_JS = """() => {
  const ex = document.querySelector('.gin-example, .gin-demo, [data-gin]');
  if (!ex) return null;
  const r = ex.getBoundingClientRect();
  return { top: Math.round(r.top), viewport: innerHeight };
}"""

EDIT_JS = """async (i) => {
  const ex = document.querySelector('.gin-example');
  const buttons = [...ex.querySelectorAll('button[data-field]')];
  const pool = buttons.filter((b) => b.dataset.field === 'defender');
  const button = (pool.length ? pool : buttons)[(pool.length ? pool : buttons).length - 1];
  button.click(); // opens the picker
  const free = [...ex.querySelectorAll('.gin-picker [data-pick]:not(.gin-taken)')];
  const cell = free[(i * 7) % free.length];
  const status = ex.querySelector('.gin-status');
  const before = ex.dataset.ginAnswered;
  const started = performance.now();
  const answered = new Promise((resolve) => {
    const done = () => ex.dataset.ginAnswered !== before || status.classList.contains('gin-error');
    const observer = new MutationObserver(() => {
      if (done()) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(ex, { attributes: true, subtree: true,
                           attributeFilter: ['data-gin-answered', 'class'] });
  });
  cell.click();
  const at = await answered;
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return { ms: at - started, frame: performance.now() - started,
           error: status.classList.contains('gin-error') };
}"""


ROUND_TRIP_JS = """async (n) => {
  // The engine alone: window.ginEngine.request round trips (worker + Pyodide + JSON), no drawing.
  const ranks = "A23456789TJQK";
  const times = [];
  for (let i = 0; i < n; i++) {
    const defender = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => ranks[(k + i) % 13] + "SHDC"[k % 4]);
    const started = performance.now();
    await window.ginEngine.request({ op: "engine", request: { op: "score",
      knocker: "2S 3S 4S 7H 7D 7C 9C TC JC 5D", defender: [...new Set(defender)].join(" ") } });
    times.push(performance.now() - started);
  }
  return times;
}"""


def wait_quiet(server: Host, log: list, quiet_s: float = 1.5, limit_s: float = 20.0) -> None:
    """Move what the server sent into log until nothing was sent for quiet_s seconds."""
    started = last = time.perf_counter()
    while time.perf_counter() - started < limit_s:
        time.sleep(0.25)
        got = server.take()
        if got:
            log.extend(got)
            last = time.perf_counter()
        elif time.perf_counter() - last >= quiet_s:
            return


THROTTLE = {
    "offline": False,
    "latency": 40,
    "downloadThroughput": 12e6 / 8,
    "uploadThroughput": -1,
}  # 12 Mbit/s down, 40 ms: a phone on a mobile link

KEPT_JS = """async (paths) => {
  for (const path of paths) if (!(await caches.match(new URL(path, location.origin).href))) return false;
  return true;
}"""


def offline_files(site: Path, page_path: str) -> list[str] | None:
    """The site paths the service worker must hold for page_path to work offline with its
    engine (sw.js's RUNTIME and the page), or None if the site has no service worker."""
    sw = site / "sw.js"
    if not sw.is_file():
        return None
    runtime = json.loads(re.search(r"^const RUNTIME = (.*);$", sw.read_text(), re.M).group(1))
    return ["/" + page_path, *("/" + p for p in runtime)]


def one_load(
    context,
    server: Host,
    page_path: str,
    edits: int,
    throttle: bool = False,
    keep: list[str] | None = None,
) -> dict:
    """Load page_path in context, leave it alone, then scroll to its example; measure.
    throttle: through THROTTLE (Chrome DevTools Protocol network emulation); keep: wait, at the
    end, until the service worker holds these paths (for an offline load next)."""
    page = context.new_page()
    if throttle:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", THROTTLE)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    server.take()
    sent: list = []
    page.goto(server.base + page_path, wait_until="load")
    where = page.evaluate(NEAR_VIEW_JS)
    wait_quiet(server, sent)
    before_kb = sum(n for _, _, n in sent) / 1024
    before_files_sent = list(sent)
    before_files = sorted({p for _, p, _ in sent})
    booted_alone = page.evaluate(MARKS_JS)["gin-boot"] is not None
    if where is not None:  # the reader scrolls to the example and points at it: that boots
        example = page.locator(".gin-example, [data-gin]").first
        page.evaluate(  # the reader's action: pointing at the example
            """() => addEventListener("pointerover", () => performance.mark("bench-action"),
                                    { once: true, capture: true })"""
        )
        example.scroll_into_view_if_needed()
        example.hover()
        # The reader's first question: the example as it stands (an example asks nothing of the
        # engine until the reader changes it), asked at once, answered once the engine is live.
        page.evaluate("""() => { window.ginEngine.request({ op: "render",
            state: JSON.parse(document.querySelector("[data-gin]").dataset.gin) }); }""")
        page.wait_for_function(
            "() => performance.getEntriesByName('gin-first-answer').length", timeout=120_000
        )
        wait_quiet(server, sent, quiet_s=1.0)
    marks = page.evaluate(MARKS_JS)
    result = {
        "example_top": where and where["top"],
        "viewport": where and where["viewport"],
        "booted_alone": booted_alone,
        "before_kb": before_kb,
        "before_files": before_files,
        "total_kb": sum(n for _, _, n in sent) / 1024,
        "errors": errors,
    }
    if marks["gin-boot"] is not None and marks["gin-first-answer"] is not None:
        result["boot_ms"] = marks["gin-first-answer"] - marks["gin-boot"]
        result["ready_ms"] = marks["gin-ready"] - marks["gin-boot"]
        # what the reader waits: from their first action to the first answer (the same as the
        # boot's when their action boots the engine; less when it booted before, at idle)
        result["action_ms"] = marks["gin-first-answer"] - marks["bench-action"]
    if marks["gin-ready"] is not None:  # the engine live, from the navigation's start
        result["live_ms"] = marks["gin-ready"]
    if edits and page.evaluate("() => !!document.querySelector('.gin-example button[data-field]')"):
        page.wait_for_function("() => document.querySelector('.gin-example[data-gin-ready]')")
        page.evaluate(EDIT_JS, 0)  # one untimed edit first: the first call warms caches
        result["edits"] = [page.evaluate(EDIT_JS, i + 1) for i in range(edits)]
        result["round_trips"] = page.evaluate(ROUND_TRIP_JS, edits)
    page.wait_for_timeout(300)  # let the last long-animation-frame entries arrive
    bench = page.evaluate("() => window.__bench")
    result["longtasks"] = bench["longtasks"]
    result["frames"] = bench["frames"]
    # Caused by the engine: a long animation frame in which the site's engine scripts (gin.js,
    # examples.js, worker glue, Pyodide) ran for 50 ms or more.
    result["engine_frames"] = [
        f for f in bench["frames"] if sum(x["ms"] for x in f["scripts"] if x["ours"]) >= 50
    ]
    result["phases"] = page.evaluate(
        "() => window.ginEngine && Promise.race([window.ginEngine.ready.then((r) => r.phases,"
        " () => null), new Promise((r) => setTimeout(() => r(null), 100))])"
    )
    result["timeline"] = page.evaluate(TIMELINE_JS)
    result["sent"] = sent
    # The engine's download, from the boot trigger to the first answer: the runtime's files
    # (the worker's own scripts load when the page is idle, before any action).
    result["boot_kb"] = (
        sum(
            n
            for _, path, n in sent[len(before_files_sent) :]
            if path.startswith("/assets/runtime/")
        )
        / 1024
    )
    deadline = time.monotonic() + 120
    while keep and not page.evaluate(KEPT_JS, keep) and time.monotonic() < deadline:
        page.wait_for_timeout(250)  # (wait_for_function would not await the async check)
    page.close()
    return result


PLAY_PAGE = "play/#seed=3&rules=standard&level=beginner"
PLAYABLE_JS = "() => document.querySelector('.gin-play[data-gin-answers]') && performance.now()"


def play_loads(browser, server: Host, site: Path, throttle: bool = False) -> tuple:
    """The play page's time to its first move (the deal drawn live by the engine, from the
    navigation's start): on a first visit (a fresh context), and on a second visit, offline
    (None if the site keeps nothing offline or throttled)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        if throttle:
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", THROTTLE)
        page.goto(server.base + PLAY_PAGE)
        first = page.wait_for_function(PLAYABLE_JS, timeout=120_000).json_value()
        keep = offline_files(site, "play/")
        if throttle or keep is None:
            return first, None
        page.hover(".gin-play")  # the reader's first action: the language is kept offline
        deadline = time.monotonic() + 120
        while not page.evaluate(KEPT_JS, keep):
            if time.monotonic() > deadline:
                return first, None
            page.wait_for_timeout(250)
        page.close()
        context.set_offline(True)
        page = context.new_page()
        page.goto(server.base + PLAY_PAGE)
        return first, page.wait_for_function(PLAYABLE_JS, timeout=120_000).json_value()
    finally:
        context.close()


# ------------------------------------------------------------------------------------------------
# Lighthouse


def lighthouse(url: str, out: Path) -> dict | None:
    npx = shutil.which("npx")
    if npx is None:
        return None
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    cmd = [
        npx,
        "--yes",
        LIGHTHOUSE,
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        "--only-categories=performance",
        "--chrome-flags=--headless=new --no-sandbox",
    ]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0 or not out.is_file():
        print(f"  lighthouse failed on {url}: {(proc.stderr or proc.stdout).strip()[-300:]}")
        return None
    report = json.loads(out.read_text())
    audits = report["audits"]
    return {
        "performance": report["categories"]["performance"]["score"],
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "fcp_ms": audits["first-contentful-paint"]["numericValue"],
        "lcp_ms": audits["largest-contentful-paint"]["numericValue"],
        "bytes_kb": audits["total-byte-weight"]["numericValue"] / 1024,
    }


# ------------------------------------------------------------------------------------------------
# Report


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def pct(values, q):
    values = sorted(values)
    if not values:
        return None
    return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))]


def fmt(value, unit="", digits=0):
    return "—" if value is None else f"{value:,.{digits}f}{unit}"


def verdict(ok):
    return "n/a" if ok is None else ("PASS" if ok else "FAIL")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--runs", type=int, default=5, help="cold loads (each + one warm) per page")
    parser.add_argument("--edits", type=int, default=30, help="timed edits per page, in all")
    parser.add_argument(
        "--pages",
        nargs="*",
        default=PAGES,
        help="site-relative pages ('' = the home page); Lighthouse: the first two",
    )
    parser.add_argument(
        "--before",
        type=Path,
        help="a site built before a change, measured side by side (served as it "
        "was built: its .br copies if it has them, else its .gz ones)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME=SITE",
        help="another built site, measured side by side under NAME (repeatable)",
    )
    parser.add_argument(
        "--compare-snapshot",
        action="store_true",
        help="also measure the site without the engine's memory snapshot",
    )
    parser.add_argument(
        "--no-throttle",
        dest="throttle",
        action="store_false",
        help="skip the cold loads at 12 Mbit/s and 40 ms",
    )
    parser.add_argument("--no-lighthouse", action="store_true")
    parser.add_argument(
        "--no-gzip", action="store_true", help="skip the site served with only its .gz copies"
    )
    parser.add_argument("--no-play", action="store_true", help="skip the play page")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="each cold load in a fresh browser profile on disk (not in memory), followed by a "
        "second and a third visit (offline): with the code caches a reader's browser keeps",
    )
    args = parser.parse_args()

    site = args.site.resolve()
    runtime_js = site / "assets/gin/runtime.js"
    if not runtime_js.is_file():
        print(f"no built site at {site}: run `make site` first")
        return 2
    # name -> (site, Brotli served): the site as built, with Brotli and with only the .gz copies
    # (a server without Brotli); the site before (--before), as it was served; without the
    # snapshot (a copy whose runtime.js names none).
    variants = {"after, br": (site, True)}
    if not args.no_gzip:
        variants["after, gzip only"] = (site, False)
    if args.before:
        before = args.before.resolve()
        has_br = any((before / "assets/runtime").rglob("*.br"))
        variants["before, br" if has_br else "before, gzip"] = (before, has_br)
    for spec in args.variant:
        name, _, path = spec.partition("=")
        variants[name] = (Path(path).resolve(), True)
    scratch = Path(tempfile.mkdtemp(prefix="gin-bench-"))
    if "SNAPSHOT_FILE" in runtime_js.read_text() and args.compare_snapshot:
        variants["no snapshot"] = (without_snapshot(site, scratch / "no-snapshot"), True)
    from playwright.sync_api import sync_playwright

    edits_per_load = math.ceil(args.edits / args.runs) if args.edits else 0
    results = {
        (v, p): {"cold": [], "warm": [], "third": [], "throttled": []}
        for v in variants
        for p in args.pages
    }
    plays: dict = {v: {"first": [], "second": [], "throttled": []} for v in variants}
    print(
        f"site: {site}; {args.runs} cold + {args.runs} warm (offline if the site has a service "
        f"worker) + {args.runs if args.throttle else 0} throttled cold loads per page and "
        f"variant; variants: {', '.join(variants)}",
        flush=True,
    )
    with contextlib.ExitStack() as stack, sync_playwright() as pw:
        stack.callback(shutil.rmtree, scratch, ignore_errors=True)
        servers = {v: stack.enter_context(serve(s, br)) for v, (s, br) in variants.items()}
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for run in range(args.runs):
            for page_path in args.pages:
                for variant, server in servers.items():  # interleaved: same conditions
                    keep = offline_files(variants[variant][0], page_path)
                    if args.profile:  # a fresh profile on disk, as a reader's browser keeps one
                        context = pw.chromium.launch_persistent_context(
                            tempfile.mkdtemp(prefix="profile-", dir=scratch),
                            executable_path=CHROMIUM,
                            args=CHROMIUM_ARGS,
                            viewport={"width": 1280, "height": 900},
                        )
                    else:
                        context = browser.new_context(viewport={"width": 1280, "height": 900})
                    context.add_init_script(INIT_SCRIPT)
                    cold = one_load(context, server, page_path, 0, keep=keep)
                    context.set_offline(keep is not None)  # from the offline cache
                    warm = one_load(
                        context,
                        server,
                        page_path,
                        edits_per_load if variant == next(iter(variants)) else 0,
                    )
                    r = results[variant, page_path]
                    if args.profile:  # and a third visit, with the code the browser kept
                        r["third"].append(one_load(context, server, page_path, 0))
                    context.close()
                    r["cold"].append(cold)
                    r["warm"].append(warm)
                    line = (
                        f"  run {run + 1} /{page_path} [{variant}]: boot cold "
                        f"{fmt(cold.get('boot_ms'), ' ms')} ({cold['boot_kb']:,.0f} KB), "
                        f"{'offline' if keep else 'warm'} {fmt(warm.get('boot_ms'), ' ms')}"
                    )
                    if args.throttle:
                        context = browser.new_context(
                            viewport={"width": 1280, "height": 900}, service_workers="block"
                        )
                        context.add_init_script(INIT_SCRIPT)
                        r["throttled"].append(
                            one_load(context, server, page_path, 0, throttle=True)
                        )
                        context.close()
                        line += f", throttled {fmt(r['throttled'][-1].get('boot_ms'), ' ms')}"
                    print(
                        f"{line}; long tasks {len(cold['longtasks'])}+{len(warm['longtasks'])}",
                        flush=True,
                    )
            for variant, server in servers.items() if not args.no_play else ():
                first, second = play_loads(browser, server, variants[variant][0])
                plays[variant]["first"].append(first)
                plays[variant]["second"].append(second)
                line = f"  run {run + 1} /{PLAY_PAGE} [{variant}]: first move possible after "
                line += f"{fmt(first, ' ms')}, second visit {fmt(second, ' ms')}"
                if args.throttle:
                    throttled, _ = play_loads(browser, server, variants[variant][0], True)
                    plays[variant]["throttled"].append(throttled)
                    line += f", throttled {fmt(throttled, ' ms')}"
                print(line, flush=True)
        browser.close()

        lh = {}
        if not args.no_lighthouse:
            with tempfile.TemporaryDirectory() as tmp:
                server = servers[next(iter(variants))]
                for page_path in args.pages[:2]:
                    print(f"  lighthouse /{page_path} …", flush=True)
                    lh[page_path] = lighthouse(server.base + page_path, Path(tmp) / "lh.json")

    report(results, variants, args.pages, lh, args.runs)
    report_timeline(results, variants, args.pages)
    report_play(plays)
    return 0


def report_timeline(results, variants, pages) -> None:
    """The boot's steps, first visit (cold) beside second visit (offline), each variant side by
    side: when each step ended, in ms from the boot trigger (medians)."""
    names = list(variants)
    for page_path in pages:
        kinds = (
            ("cold", "warm", "third") if results[names[0], page_path]["third"] else ("cold", "warm")
        )
        columns = [(n, kind) for n in names for kind in kinds]
        lines = {
            column: [x["timeline"] for x in results[column[0], page_path][column[1]]]
            for column in columns
        }
        lines = {c: [t for t in ts if t] for c, ts in lines.items()}
        steps: list[str] = []
        for ts in lines.values():
            for t in ts:
                steps += [k for k in t if k not in steps]
        if not steps:
            continue
        at = {c: {k: med([t.get(k) for t in ts]) for k in steps} for c, ts in lines.items()}
        steps.sort(key=lambda k: min((a[k] for a in at.values() if a[k] is not None), default=0))
        print(
            f"\nThe boot of /{page_path}, step by step: when each step ended, ms from the boot "
            "trigger (medians; first visit = cold, second (and third) = offline, from the cache):"
        )
        label = {"cold": "first", "warm": "second", "third": "third"}
        heads = [f"{n}: {label[kind]}" for n, kind in columns]
        width = max(map(len, steps))
        print(" " * (width + 2) + "  ".join(h.rjust(max(len(h), 8)) for h in heads))
        for k in steps:
            cells = [fmt(at[c][k]).rjust(max(len(h), 8)) for c, h in zip(columns, heads)]
            print(f"  {k.ljust(width)}" + "  ".join(cells))
        if len(names) > 1:
            for kind in kinds:
                values = [at[n, kind].get("ready (page)") for n in names]
                if values[0] is not None:
                    print(f"  {label[kind]} visit, boot→ready: {side_by_side(names, values, 'ms')}")


def report_play(plays: dict) -> None:
    names = list(plays)
    print(f"\nThe play page (/{PLAY_PAGE}): from the navigation's start to its first move possible")
    print("(the deal drawn live by the engine), medians; ratio = variant / first variant:")
    for label, key in (
        ("first visit", "first"),
        ("second visit, offline", "second"),
        ("first visit, 12 Mbit/s + 40 ms", "throttled"),
    ):
        values = [med(plays[n][key]) for n in names]
        if values[0] is not None:
            print(f"  {label}: {side_by_side(names, values, 'ms')}")


def side_by_side(names: list[str], values: list, unit: str) -> str:
    """Each variant's value, and its ratio to the first variant's."""
    return "; ".join(
        f"{n} {fmt(v, ' ' + unit)}" + (f" (×{v / values[0]:.2f})" if v and i else "")
        for i, (n, v) in enumerate(zip(names, values))
    )


def report(results, variants, pages, lh, runs):
    main_variant = next(iter(variants))
    print(
        f"\nMedians of {runs} cold (fresh context), {runs} warm (same context; offline, from "
        "the service worker's cache, when the site has one) and throttled cold (12 Mbit/s, "
        "40 ms, no service worker) loads, headless Chromium 1280x900, on loopback."
    )
    rows = []
    for page_path in pages:
        name = "/" + page_path
        for variant in variants:
            r = results[variant, page_path]
            cold_boot = med([x.get("boot_ms") for x in r["cold"]])
            warm_boot = med([x.get("boot_ms") for x in r["warm"]])
            cold_ready = med([x.get("ready_ms") for x in r["cold"]])
            ok = None if cold_boot is None else cold_boot <= TARGETS["boot_cold_ms"]
            rows.append(
                (
                    name,
                    f"boot→first answer, cold [{variant}]",
                    fmt(cold_boot, " ms"),
                    "≤ 1000 ms",
                    verdict(ok),
                )
            )
            rows.append(
                (name, f"boot→worker ready, cold [{variant}]", fmt(cold_ready, " ms"), "", "")
            )
            alone = sum(bool(x["booted_alone"]) for x in r["warm"])
            rows.append(
                (
                    name,
                    f"boot→first answer, warm/offline [{variant}]"
                    + (" (booted at idle: the wait for the reader included)" if alone else ""),
                    fmt(warm_boot, " ms"),
                    "",
                    "",
                )
            )
            rows.append(
                (
                    name,
                    f"  boot→worker ready, warm/offline [{variant}]",
                    fmt(med([x.get("ready_ms") for x in r["warm"]]), " ms"),
                    "",
                    "",
                )
            )
            warm_action = med([x.get("action_ms") for x in r["warm"]])
            rows.append(
                (
                    name,
                    f"  reader's action→first answer, warm/offline, booted at idle "
                    f"{alone}/{len(r['warm'])} [{variant}]",
                    fmt(warm_action, " ms"),
                    f"≤ {TARGETS['action_warm_ms']} ms",
                    verdict(
                        None if warm_action is None else warm_action <= TARGETS["action_warm_ms"]
                    ),
                )
            )
            throttled = med([x.get("boot_ms") for x in r["throttled"]])
            if throttled is not None:
                rows.append(
                    (
                        name,
                        f"boot→first answer, 12 Mbit/s + 40 ms [{variant}]",
                        fmt(throttled, " ms"),
                        "",
                        "",
                    )
                )
            kb = med([x["boot_kb"] for x in r["cold"]])
            rows.append(
                (
                    name,
                    f"KB boot trigger→first answer, cold [{variant}]",
                    fmt(kb, " KB"),
                    f"≤ {TARGETS['boot_kb']} KB",
                    verdict(kb if kb is None else kb <= TARGETS["boot_kb"]),
                )
            )
        r = results[main_variant, page_path]
        loads = r["cold"] + r["warm"]
        lt = med([len(x["longtasks"]) for x in loads])
        worst = max((t["ms"] for x in loads for t in x["longtasks"]), default=0)
        ours = med([len(x["engine_frames"]) for x in loads])
        rows.append(
            (
                name,
                "main-thread long tasks > 50 ms caused by the engine, per load",
                fmt(ours, "", 1),
                "0",
                verdict(ours == 0),
            )
        )
        rows.append(
            (
                name,
                f"main-thread long tasks > 50 ms, all causes, per load (max {worst} ms)",
                fmt(lt, "", 1),
                "",
                "",
            )
        )
        for load in ("cold", "warm"):
            phases = [x["phases"] for x in r[load] if x.get("phases")]
            for k in phases[0] if phases else ():
                rows.append(
                    (
                        name,
                        f"  worker boot phase, {load}: {k}",
                        fmt(med([p.get(k) for p in phases]), " ms"),
                        "",
                        "",
                    )
                )
        edits = [e for x in r["warm"] for e in x.get("edits", [])]
        if edits:
            p95 = pct([e["ms"] for e in edits], 0.95)
            rows.append(
                (
                    name,
                    f"edit→data-gin-answered p50 / p95 (n={len(edits)})",
                    f"{pct([e['ms'] for e in edits], 0.5):.1f} / {p95:.1f} ms",
                    "p95 < 50 ms",
                    verdict(p95 < TARGETS["edit_p95_ms"]),
                )
            )
            trips = [t for x in r["warm"] for t in x.get("round_trips", [])]
            rows.append(
                (
                    name,
                    "engine round trip alone (ginEngine.request) p50 / p95",
                    f"{pct(trips, 0.5):.1f} / {pct(trips, 0.95):.1f} ms",
                    "",
                    "",
                )
            )
            rows.append(
                (
                    name,
                    "edit→next frame p50 / p95",
                    f"{pct([e['frame'] for e in edits], 0.5):.1f} / "
                    f"{pct([e['frame'] for e in edits], 0.95):.1f} ms",
                    "",
                    "",
                )
            )
            bad = sum(e["error"] for e in edits)
            if bad:
                rows.append((name, "edits answered with an inline error", str(bad), "", ""))
        cold = r["cold"]
        before = med([x["before_kb"] for x in cold])
        alone = any(x["booted_alone"] for x in cold)
        top = cold[0]["example_top"]
        where = (
            "no example"
            if top is None
            else f"example at y={top}, {'BOOTED BY ITSELF' if alone else 'not booted'}"
        )
        rows.append(
            (
                name,
                f"KB before interaction, cold ({where})",
                fmt(before, " KB"),
                "≤ 300 KB",
                verdict(before <= TARGETS["bytes_before_kb"]),
            )
        )
        rows.append(
            (
                name,
                "KB after scrolling to and pointing at the example, its first answer, cold",
                fmt(med([x["total_kb"] for x in cold]), " KB"),
                "",
                "",
            )
        )
        rows.append(
            (
                name,
                "KB, warm load, in all",
                fmt(med([x["total_kb"] for x in r["warm"]]), " KB"),
                "",
                "",
            )
        )
        res = lh.get(page_path)
        if res:
            rows.append(
                (
                    name,
                    "Lighthouse mobile performance",
                    f"{res['performance']:.2f}",
                    "≥ 0.95",
                    verdict(res["performance"] >= TARGETS["lh_performance"]),
                )
            )
            rows.append(
                (
                    name,
                    "Lighthouse TBT",
                    fmt(res["tbt_ms"], " ms"),
                    "≤ 50 ms",
                    verdict(res["tbt_ms"] <= TARGETS["lh_tbt_ms"]),
                )
            )
            rows.append(
                (
                    name,
                    "Lighthouse CLS",
                    f"{res['cls']:.3f}",
                    "≤ 0.05",
                    verdict(res["cls"] <= TARGETS["lh_cls"]),
                )
            )
            rows.append(
                (
                    name,
                    "Lighthouse FCP / LCP / bytes",
                    f"{res['fcp_ms']:.0f} / {res['lcp_ms']:.0f} ms / {res['bytes_kb']:.0f} KB",
                    "",
                    "",
                )
            )
        elif page_path in lh:
            rows.append((name, "Lighthouse", "failed", "", "n/a"))
    widths = [max(len(str(row[i])) for row in rows) for i in range(5)]
    header = ("page", "measure", "value", "target", "")
    widths = [max(w, len(h)) for w, h in zip(widths, header)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))

    if len(variants) > 1:
        print("\nSide by side (same run, interleaved), medians; ratio = variant / first variant:")
        names = list(variants)
        for page_path in pages:
            for label, kind, key, unit in (
                ("KB trigger→first answer, cold", "cold", "boot_kb", "KB"),
                ("boot→first answer, cold", "cold", "boot_ms", "ms"),
                ("boot→first answer, warm/offline", "warm", "boot_ms", "ms"),
                ("reader's action→first answer, warm/offline", "warm", "action_ms", "ms"),
                ("navigation→engine live, second visit (offline)", "warm", "live_ms", "ms"),
                ("boot→worker ready, second visit (offline)", "warm", "ready_ms", "ms"),
                ("boot→first answer, 12 Mbit/s", "throttled", "boot_ms", "ms"),
            ):
                values = [med([x.get(key) for x in results[n, page_path][kind]]) for n in names]
                if values[0] is not None:
                    print(f"  /{page_path} {label}: {side_by_side(names, values, unit)}")
    details = [
        (p, t)
        for p in pages
        for x in results[main_variant, p]["cold"] + results[main_variant, p]["warm"]
        for t in x["frames"]
    ]
    if details:
        print("\nLong animation frames > 50 ms, with the scripts that ran in them (first 12):")
        for page_path, frame in details[:12]:
            scripts = "; ".join(f"{x['what']} {x['ms']} ms" for x in frame["scripts"])
            print(
                f"  /{page_path} at {frame['start']} ms: {frame['ms']} ms "
                f"(blocking {frame['blocking']} ms): {scripts or 'no script over 5 ms (style/layout/GC)'}"
            )
    errors = {
        e
        for v in variants
        for p in pages
        for k in ("cold", "warm")
        for x in results[v, p][k]
        for e in x["errors"]
    }
    if errors:
        print("\nConsole/page errors:", *sorted(errors)[:5], sep="\n  ")
    for page_path in pages:
        first = results[main_variant, page_path]["cold"][0]
        sizes: dict[str, int] = {}
        for _, path, n in first["sent"]:
            sizes[path] = sizes.get(path, 0) + n
        before = set(first["before_files"])
        print(f"\nBytes over the wire, first cold load of /{page_path} (* = before interaction):")
        for path, n in sorted(sizes.items(), key=lambda kv: -kv[1]):
            print(f"  {'*' if path in before else ' '} {n / 1024:8.1f} KB  {path}")


if __name__ == "__main__":
    sys.exit(main())
