"""Prepare a Pyodide for its memory snapshot: the engine installed, imported and warmed up.

This file runs inside Pyodide (in Node, through in_pyodide.mjs snapshot), just before
``makeMemorySnapshot``. Whatever Python state exists then is what the browser restores: so
every op of ``ginrummy.api`` is answered once here, good requests and bad, and any module an
op imports lazily (or any table it builds on first use) is already in the snapshot.

A restored Python has imported all it needs, so the standard library shipped with the snapshot
holds only the modules imported here (``trim_stdlib``): a third of the full zip. The snapshot is
made on that trimmed zip, since zipimport keeps the zip's table of contents in memory.
"""

import gc
import json
import sys
import zipfile

WARM_UP = [
    {"op": "version"},
    {"op": "rules"},
    {"op": "rules", "name": "oklahoma"},
    {"op": "parse", "cards": "A♠ 10h jh qh kh"},
    {"op": "deadwood", "cards": "AS 2S 3S 4H 5H 6H 7C 8C 9C KD"},
    {"op": "melds", "cards": "AS 2S 3S 4H 5H 6H 7C 8C 9C KD"},
    {"op": "melds", "cards": "4S 6S KS KH 4D 5D 6D 4C 5C 6C KC"},
    {"op": "knock", "cards": "AS 2S 3S 4H 5H 6H 7C 8C 9C KD QD", "rules": "oklahoma",
     "upcard": "5S"},
    {"op": "layoffs", "knocker_melds": [["4H", "5H", "6H"], ["9S", "9D", "9C"]],
     "defender": "7H 8H 9H 3H 2C 3C KD KS QD JD"},
    {"op": "score", "knocker": "AS 2S 3S 4H 5H 6H 7C 8C 9C KD",
     "defender": "AD 2D 3D 4C 5C 6C 7H 8H 9H QS", "rules": "pagat"},
    {"op": "sheet", "entries": [[0, 25], {"winner": 1, "points": 40, "boxes": 1}]},
    {"op": "sheet", "format": "hollywood", "entries": [[0, 25], [1, 40], [0, 110]]},
    {"op": "deal", "seed": 7},
    # Bad input: the error paths (coded errors, their messages) are warmed up too.
    {"op": "melds", "cards": "AS AS 3S 4S 5S 6S 7S 8S 9S TS"},
    {"op": "melds", "cards": "ZS 2S"},
    {"op": "score", "knocker": "AS 5S 9S 4H 8H QH 7C JC 3D KD", "defender": "AD"},
    {"op": "play", "state": {}, "action": {}},
    {"op": "no_such_op"},
]


def prepare(wheel_path):
    """Install the wheel, import the engine, answer WARM_UP. Returns len(sys.modules)."""
    site_packages = next(p for p in sys.path if p.endswith("site-packages"))
    with zipfile.ZipFile(wheel_path) as wheel:
        wheel.extractall(site_packages)
    from ginrummy.api import handle

    state = json.loads(handle(json.dumps({"op": "deal", "seed": 7})))["result"]
    WARM_UP.append({"op": "play", "state": state["state"], "action": state["legal"][0]})
    for request in WARM_UP:
        json.loads(handle(json.dumps(request)))
    handle("this is not JSON")
    gc.collect()
    return len(sys.modules)


def trim_stdlib(dest):
    """Write ``dest``: the standard library zip with only the members imported so far.
    Returns how many members it holds."""
    source = next(p for p in sys.path if p.endswith(".zip"))
    with zipfile.ZipFile(source) as zin:
        names = set(zin.namelist())
        used = set()
        for module in list(sys.modules.values()):
            file = getattr(module, "__file__", None) or ""
            if file.startswith(source + "/"):
                name = file[len(source) + 1:]
                # Frozen modules name their .py; the zip holds .pyc (stdlib compiled by pyc_wheel).
                used.update(n for n in (name, name + "c") if n in names)
        with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_STORED) as zout:
            for info in zin.infolist():
                if info.filename in used:
                    zout.writestr(info, zin.read(info.filename))
    return len(used)
