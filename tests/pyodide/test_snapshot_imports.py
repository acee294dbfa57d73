"""The engine's memory snapshot is shipped with no standard library (an empty zip): restored as
the browser restores it, every module of the engine and of the presentation layer imports (they
are all in it), and a module that is not in it fails cleanly as not found, never half-loaded."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """
import { readFileSync } from "node:fs";
import { loadPyodide } from %(pyodide)s;
import { expandSnapshot } from %(format)s;
const dir = %(runtime)s;
const read = (name) => new Uint8Array(readFileSync(dir + "/" + name)).buffer;
const pyodide = await loadPyodide({
  stdLibURL: dir + "/engine_stdlib.zip",
  _loadSnapshot: expandSnapshot(read("engine.snapshot"), read("pyodide.asm.wasm")),
  stdout: () => {}, stderr: (line) => console.error(line),
});
const result = pyodide.runPython(%(python)s);
console.log(result);
"""

PYTHON = """
import importlib, json, sys, zipfile
wanted = json.loads(%r)
imported, failed = [], {}
for name in wanted:
    try:
        importlib.import_module(name)
        imported.append(name)
    except Exception as exc:
        failed[name] = f"{type(exc).__name__}: {exc}"
try:
    import xmlrpc.client
    missing = "imported"
except ModuleNotFoundError as exc:
    missing = f"ModuleNotFoundError: {exc}"
json.dumps({"imported": imported, "failed": failed, "missing": missing,
            "stdlib": zipfile.ZipFile(next(p for p in sys.path if p.endswith(".zip"))).namelist()})
"""


def modules(folder: Path, package: str) -> list[str]:
    """Every module of a source package, the command line (never run in the browser) left out."""
    out = []
    for path in sorted(folder.rglob("*.py")):
        parts = list(path.relative_to(folder).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join([package, *parts])
        if name != "ginrummy.__main__":
            out.append(name)
    return out


def run_in_snapshot(node: str, runtime_dir: Path, tmp_path: Path, python: str) -> Any:
    """``python`` run in the snapshot restored as the browser restores it (SCRIPT): the value
    of its last expression, a JSON text, read back."""
    script = tmp_path / "restored.mjs"
    script.write_text(
        SCRIPT
        % {
            "pyodide": json.dumps((REPO / "node_modules/pyodide/pyodide.mjs").as_uri()),
            "format": json.dumps((REPO / "docs/assets/gin/snapshot.js").as_uri()),
            "runtime": json.dumps(str(runtime_dir)),
            "python": json.dumps(python),
        }
    )
    run = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_every_module_imports_from_the_snapshot_alone(node, runtime_dir, tmp_path):
    wanted = modules(REPO / "engine/ginrummy", "ginrummy") + modules(
        REPO / "presentation/ginview", "ginview"
    )
    assert {"ginrummy.api", "ginview.api", "ginview.page", "ginrummy.hand"} <= set(wanted)
    out = run_in_snapshot(node, runtime_dir, tmp_path, PYTHON % json.dumps(wanted))
    assert out["failed"] == {}
    assert out["imported"] == wanted
    assert out["stdlib"] == []  # restored on the empty zip the site ships
    assert out["missing"] == "ModuleNotFoundError: No module named 'xmlrpc'"


LINES = """
import json, traceback
import ginrummy.melds, ginview.api
from ginrummy.cards import parse_cards
codes = [ginrummy.melds.min_deadwood_mask.__code__, ginview.api.handle.__code__,
         json.dumps.__code__, traceback.format_exc.__code__]
lines = [sorted({line for _, _, line in code.co_lines()}, key=str) for code in codes]
try:
    parse_cards("2S 2S")  # a card twice: raised inside the engine
except Exception:
    told = traceback.format_exc()
json.dumps({"lines": lines, "told": told})
"""


def test_the_snapshot_holds_no_line_numbers(node, runtime_dir, tmp_path):
    """The snapshot's code, the engine's and Python's own, has no line table (in_pyodide.mjs
    bareLines): no instruction has a line, and a traceback still tells what was raised where,
    with "line None"."""
    out = run_in_snapshot(node, runtime_dir, tmp_path, LINES)
    assert out["lines"] == [[None]] * 4
    told = out["told"]
    assert 'ginrummy/cards.py", line None, in parse_cards' in told, told
    assert told.rstrip().splitlines()[-1].startswith("ginrummy.errors.CardError: "), told
