"""Site benchmark: full 4-language build time, and where the bytes of a page using the engine go.

    .venv/bin/python bench/site.py [--skip-cold]
    .venv/bin/python bench/site.py --bytes [SITE]   # only the bytes of a built site (default site/)

- cold build: nothing cached (engine wheel built and compiled in Node, runtime gzipped);
- warm build: what `make site` / `make serve` do after the first time (target: under 20 s);
- page weight: the English home page (it mounts the engine demo), split into the site's own
  files and the runtime the engine boots from (which the browser caches under a versioned
  path), each file raw, as its .gz copy and as its .br copy (sitegen.compress), as a host that
  serves precompressed files sends them.

The browser figures (boot time, long tasks, edit latency, bytes before interaction, Lighthouse)
are bench/browser.py's.
"""

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sitegen.pipeline import build  # noqa: E402
from sitegen.runtime import BOOT_FILES, RUNTIME_FILES, SNAPSHOT, STDLIB_PYC  # noqa: E402

TARGET_S = 20.0


def timed_build(site_dir: Path, cache_dir: Path | None) -> float:
    started = time.perf_counter()
    build(ROOT, site_dir, cache_dir=cache_dir, log=lambda *_: None)
    return time.perf_counter() - started


def sent(path: Path, suffix: str) -> int:
    """Bytes a host sends for path given its precompressed copies: the copy, else the file."""
    copy = path.with_name(path.name + suffix)
    return copy.stat().st_size if copy.is_file() else path.stat().st_size


def page_assets(site: Path, page: Path) -> list[Path]:
    """Files the page itself loads: HTML, stylesheets, scripts, the engine front end, search."""
    html = page.read_text()
    refs = re.findall(r'<(?:script|link)[^>]*?(?:src|href)="([^"]+\.(?:js|css|png|svg))"', html)
    files = [page] + [(page.parent / ref).resolve() for ref in refs]
    gin = site / "assets/gin"
    files += [gin / "worker.js", gin / "runtime.js"]
    files += sorted((site / "assets/javascripts/workers").glob("search.*.min.js"))
    files += [site / "search/search_index.json"]
    lunr = site / "assets/javascripts/lunr/min"
    files += [
        lunr / f"lunr.{name}.min.js" for name in ("stemmer.support", "multi", "ro", "hu", "it")
    ]
    seen, unique = set(), []
    for f in files:
        if f.is_file() and f not in seen:
            seen.add(f)
            unique.append(f)
    return unique


def runtime_assets(site: Path) -> list[Path]:
    """The runtime files the browser loads: with the engine's snapshot (runtime.js's
    SNAPSHOT_FILE), BOOT_FILES; else the precompiled standard library (STDLIB_FILE) if there is
    one, and the wheels."""
    runtime = next((site / "assets/runtime").glob("pyodide-*"))
    if (runtime / SNAPSHOT).is_file():
        return [runtime / name for name in BOOT_FILES]
    names = list(RUNTIME_FILES)
    if (runtime / STDLIB_PYC).is_file():
        names[names.index("python_stdlib.zip")] = STDLIB_PYC
    return [runtime / name for name in names] + sorted(runtime.glob("*.whl"))


def report_bytes(site: Path) -> None:
    own = page_assets(site, site / "index.html")
    runtime = runtime_assets(site)
    kb = lambda n: f"{n / 1024:,.0f}"  # noqa: E731
    print(f"\nPage weight, English home page, KB: raw / .gz / .br (site {site}):")
    totals = [0, 0, 0]
    for title, files in (
        ("site's own files", own),
        ("runtime, boot trigger → first live answer", runtime),
    ):
        rows = [(f, f.stat().st_size, sent(f, ".gz"), sent(f, ".br")) for f in files]
        sums = [sum(r[i] for r in rows) for i in (1, 2, 3)]
        totals = [t + n for t, n in zip(totals, sums)]
        print(f"  {title}: {' / '.join(kb(n) for n in sums)}")
        for f, raw, gz, br in sorted(rows, key=lambda r: -r[3]):
            print(f"    {kb(raw):>7} / {kb(gz):>6} / {kb(br):>6}  {f.relative_to(site)}")
    print(f"  total: {' / '.join(kb(n) for n in totals)}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-cold", action="store_true", help="skip the no-cache build")
    parser.add_argument(
        "--bytes",
        nargs="?",
        const=ROOT / "site",
        type=Path,
        metavar="SITE",
        help="only report the bytes of an already built site",
    )
    args = parser.parse_args()
    if args.bytes:
        report_bytes(args.bytes.resolve())
        return 0
    with tempfile.TemporaryDirectory(prefix="gin-bench-") as tmp:
        tmp = Path(tmp)
        print("Full 4-language build (python -m sitegen build):")
        if not args.skip_cold:
            cold = timed_build(tmp / "cold", cache_dir=tmp / "empty-cache")
            print(f"  cold (no cache):   {cold:5.1f} s")
        timed_build(tmp / "warm", cache_dir=None)  # fill the repository's cache
        warm = min(timed_build(tmp / "warm", cache_dir=None) for _ in range(2))
        verdict = "ok" if warm < TARGET_S else "OVER TARGET"
        print(f"  warm (cached wheel): {warm:5.1f} s  (target < {TARGET_S:.0f} s: {verdict})")
        report_bytes(tmp / "warm")
    return 0


if __name__ == "__main__":
    sys.exit(main())
