"""Site benchmark: full 4-language build time, and the gzipped bytes of a page using the engine.

    .venv/bin/python bench/site.py [--skip-cold]

- cold build: nothing cached (engine wheel built and compiled in Node, runtime gzipped);
- warm build: what `make site` / `make serve` do after the first time (target: under 20 s);
- page weight: the English home page (it mounts the engine demo), gzipped, split into the site's
  own files and the Pyodide runtime (which the browser caches under a versioned path).

The browser figures (boot time, long tasks, edit latency, bytes before interaction, Lighthouse)
are bench/browser.py's.
"""

import argparse
import gzip
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sitegen.pipeline import build  # noqa: E402
from sitegen.runtime import RUNTIME_FILES, SNAPSHOT, SNAPSHOT_STDLIB, STDLIB_PYC  # noqa: E402

TARGET_S = 20.0


def timed_build(site_dir: Path, cache_dir: Path | None) -> float:
    started = time.perf_counter()
    build(ROOT, site_dir, cache_dir=cache_dir, log=lambda *_: None)
    return time.perf_counter() - started


def gz(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=9))


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
    files += [lunr / f"lunr.{name}.min.js" for name in ("stemmer.support", "multi", "ro", "hu", "it")]
    seen, unique = set(), []
    for f in files:
        if f.is_file() and f not in seen:
            seen.add(f)
            unique.append(f)
    return unique


def runtime_assets(site: Path) -> list[Path]:
    """The runtime files the browser loads: with the engine's snapshot (runtime.js's
    SNAPSHOT_FILE), the snapshot and its trimmed standard library instead of the wheel and
    python_stdlib.zip; else the precompiled standard library (STDLIB_FILE) if there is one."""
    runtime = next((site / "assets/runtime").glob("pyodide-*"))
    names = list(RUNTIME_FILES)
    if (runtime / SNAPSHOT).is_file():
        names[names.index("python_stdlib.zip")] = SNAPSHOT_STDLIB
        return [runtime / name for name in names + [SNAPSHOT]]
    if (runtime / STDLIB_PYC).is_file():
        names[names.index("python_stdlib.zip")] = STDLIB_PYC
    return [runtime / name for name in names] + sorted(runtime.glob("*.whl"))


def report_bytes(site: Path) -> None:
    own = page_assets(site, site / "index.html")
    runtime = runtime_assets(site)
    print("\nPage weight, English home page (gzip -9):")
    for title, files in (("site's own files", own), ("runtime (Pyodide + engine)", runtime)):
        total_raw = sum(f.stat().st_size for f in files)
        total_gz = sum(gz(f) for f in files)
        print(f"  {title}: {total_gz / 1024:,.0f} KiB gzipped ({total_raw / 1024:,.0f} KiB raw)")
        for f in files:
            print(f"    {f.relative_to(site)}: {gz(f) / 1024:,.1f} KiB")
    print(f"  total: {sum(gz(f) for f in own + runtime) / 1024 / 1024:,.2f} MiB gzipped")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-cold", action="store_true", help="skip the no-cache build")
    args = parser.parse_args()
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
