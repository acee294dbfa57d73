"""docs/assets/gin/snapshot.js: the shipped snapshot (the pages left out that the WebAssembly
module starts with: zero, or its data segments; the pages kept as their difference from it)
expands to the exact bytes Pyodide made, and a damaged file is refused with a message instead
of restored."""

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
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const refused = (buffer, wasm) => { try { expandSnapshot(buffer, wasm); return "accepted"; } catch (e) { return e.message; } };
const wrongMagic = copy(sparse); new Uint8Array(wrongMagic)[0] ^= 1;

// A module with one data section: two active segments, at 3 and at PAGE + 1 (its memory starts
// 8 bytes into the snapshot, as the snapshot's header says in its second uint32).
const module = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 11, 14, 2,
  0, 0x41, 3, 0x0b, 2, 9, 9,  0, 0x41, 0x81, 0x80, 0x04, 0x0b, 1, 7]);
const made = new Uint8Array(3 * PAGE);
made[4] = 8;                                // the header's second uint32: the memory starts at 8
made[8 + 3] = 9; made[8 + 4] = 9;           // page 0 as the module starts it ... but its header
made[8 + PAGE + 1] = 7;                     // page 1: exactly as the module starts it
made[2 * PAGE + 5] = 1;                     // page 2: changed
const withBase = sparseSnapshot(made, module);
const backWithBase = expandSnapshot(copy(withBase), copy(module));
console.log(JSON.stringify({
  same: same(back, bytes), shipped: sparse.length, pages: new Uint32Array(copy(sparse), 12, 1)[0],
  truncated: refused(copy(sparse.subarray(0, sparse.length - 1))),
  wrongMagic: refused(wrongMagic),
  baseSame: same(backWithBase, made), basePages: [...new Uint32Array(copy(withBase), 12, 3)],
  page0: [...withBase.subarray(28, 28 + 13)], // after the header and its 2 page numbers
  noModule: refused(copy(withBase)),
  badModule: refused(copy(withBase), copy(new Uint8Array(8))),
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
    assert out["shipped"] == 20 + 4 * 3 + 2 * 65536 + 100  # header, page numbers, the pages
    assert out["truncated"] == "the engine snapshot is truncated or damaged"
    assert out["wrongMagic"] == "the engine snapshot is not in the site's format"
    # Against the module: page 0 differs (its header), page 1 is left out, page 2 differs.
    assert out["baseSame"] is True
    assert out["basePages"] == [2, 8, 0]  # count, base, first page number
    # Page 0 is shipped as its difference from the module's start: its header's base (8) is
    # new; the 9s the module writes at 3 and 4 (bytes 11 and 12 of the page) are not.
    assert out["page0"] == [0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0]
    assert out["noModule"] == "the engine snapshot needs pyodide.asm.wasm"
    assert out["badModule"] == "pyodide.asm.wasm cannot be read: not WebAssembly"
