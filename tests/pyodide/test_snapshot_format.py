"""docs/assets/gin/snapshot.js: the shipped snapshot (zero pages left out) expands to the exact
bytes Pyodide made, and a damaged file is refused with a message instead of restored."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FORMAT = (REPO / "docs/assets/gin/snapshot.js").as_uri()

SCRIPT = """
import { sparseSnapshot, expandSnapshot } from "%s";
const PAGE = 65536;
const bytes = new Uint8Array(5 * PAGE + 100);           // pages 0, 2, 5 (short) hold data
bytes[7] = 1; bytes[2 * PAGE + 9] = 2; bytes[5 * PAGE + 99] = 3;
const sparse = sparseSnapshot(bytes);
const copy = (a) => new Uint8Array(a).buffer;
const back = expandSnapshot(copy(sparse));
const same = back.length === bytes.length && back.every((b, i) => b === bytes[i]);
const refused = (buffer) => { try { expandSnapshot(buffer); return "accepted"; } catch (e) { return e.message; } };
const wrongMagic = copy(sparse); new Uint8Array(wrongMagic)[0] ^= 1;
console.log(JSON.stringify({
  same, shipped: sparse.length, pages: new Uint32Array(copy(sparse), 12, 1)[0],
  truncated: refused(copy(sparse.subarray(0, sparse.length - 1))),
  wrongMagic: refused(wrongMagic),
}));
"""


def test_round_trip_and_damage(node, tmp_path):
    script = tmp_path / "check.mjs"
    script.write_text(SCRIPT % FORMAT)
    run = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["same"] is True
    assert out["pages"] == 3
    assert out["shipped"] == 16 + 4 * 3 + 2 * 65536 + 100  # header, page numbers, the pages
    assert out["truncated"] == "the engine snapshot is truncated or damaged"
    assert out["wrongMagic"] == "the engine snapshot is not in the site's format"
