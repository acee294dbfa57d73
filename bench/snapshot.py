"""What the engine's memory snapshot holds, by kind, and what each kind costs with Brotli.

    .venv/bin/python bench/snapshot.py [--site site] [--quality 11] [--prepare sitegen/snapshot.py]

Builds nothing: it takes the wheels and the precompiled standard library of an already built
site, prepares a Pyodide in Node exactly as the snapshot is prepared (sitegen/snapshot.py, via
bench/snapshot_contents.mjs), and weighs every object reachable then: by type (code objects
with their bytecode, their line tables and exception tables apart), by module (the first
module's namespace an object is reachable from), and the catalog of each language. For each:
the objects, their bytes (sys.getsizeof), and those bytes alone compressed with Brotli, an
estimate of what they cost in the shipped snapshot (compressed together, the kinds share some
context). `bench/site.py --bytes` gives the shipped snapshot's own Brotli size.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import brotli

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from sitegen.runtime import NODE_ENV, STDLIB_PYC  # noqa: E402


def runtime_dir(site: Path) -> Path:
    text = (site / "assets/gin/runtime.js").read_text()
    found = re.search(r'RUNTIME_DIR = "([^"]+)"', text)
    if not found:
        raise SystemExit(f"no RUNTIME_DIR in {site}/assets/gin/runtime.js")
    return (site / "assets/gin" / found.group(1)).resolve()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--quality", type=int, default=11, help="Brotli quality (11: as shipped)")
    parser.add_argument(
        "--prepare",
        type=Path,
        default=ROOT / "sitegen/snapshot.py",
        help="the script that prepares the snapshot (another version: what it held before)",
    )
    args = parser.parse_args()
    runtime = runtime_dir(args.site.resolve())
    wheels = sorted(runtime.glob("*.whl"), key=lambda p: not p.name.startswith("ginrummy"))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [
                "node",
                str(ROOT / "bench/snapshot_contents.mjs"),
                str(ROOT / "node_modules/pyodide"),
                str(runtime / STDLIB_PYC),
                tmp,
                str(args.prepare.resolve()),
                *map(str, wheels),
            ],
            check=True,
            env=NODE_ENV,
        )
        contents: dict[str, list[list[int]]] = json.loads((Path(tmp) / "contents.json").read_text())
        memory = (Path(tmp) / "memory.bin").read_bytes()
    print(f"The snapshot's Python objects (site {args.site}); Brotli q{args.quality}, each alone:")
    print(f"  {'kind':48} {'objects':>8} {'bytes':>11} {'Brotli':>9}")
    for group in ("type", "co_", "annotations", "module", "catalog"):
        rows = []
        for name, spans in contents.items():
            if name.startswith(group):
                data = b"".join(memory[a : a + n] for a, n in sorted(spans))
                rows.append((name, len(spans), len(data), data))
        rows.sort(key=lambda r: -r[2])
        for name, count, size, data in rows[:25]:
            packed = len(brotli.compress(data, quality=args.quality, lgwin=24))
            print(f"  {name:48} {count:>8,} {size:>11,} {packed:>9,}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
