"""Prepare a Pyodide for its memory snapshot: the wheels installed, imported and warmed up.

This file runs inside Pyodide (in Node, through in_pyodide.mjs snapshot), just before
``makeMemorySnapshot``. Whatever Python state exists then is what the browser restores: so the
catalog of every language is loaded, every op of ``ginview.api`` is answered (every kind of
example and lesson step, good requests and bad), and any module an op imports lazily (or any
table it builds on first use) is already in the snapshot. The files of the wheels are not in
the snapshot: nothing may be read from them after it.

A restored Python has imported all it needs (every module of the wheels is imported here), so
no standard library is shipped with the snapshot: the browser mounts an empty zip in its place
(``EMPTY_ZIP``), and Python is made to forget the one it was made on (``forget_stdlib``), so a
module that was somehow not imported fails as not found. Garbage is collected and what is left
frozen (``gc.freeze``): a collection in the browser never walks the engine's own objects.

Every function's code is kept without its line table (``line_tables``, in_pyodide.mjs
``bareLines``): where each instruction came from in the source, which only a traceback or a
warning reads (it then says "line None"); nothing the engine answers reads it.
"""

import gc
import json
import os
import sys
import types
import zipfile

EMPTY_ZIP = b"PK\x05\x06" + bytes(18)  # a zip with no members: the end-of-directory record
BUILD_ONLY = {"ginrummy.__main__"}  # the command line: never run in the browser

HAND = "2S 3S 4S 7H 7D 7C 9C TC JC 5D"
OTHER = "8S 9S TS KH KD 4H 6C 6H 2C AD"
EXAMPLES = [
    {"kind": "melds", "hand": "10c jc qc 2h 2d 2s 5h 6h 7h 9d"},
    {"kind": "knock", "hand": HAND + " KH", "rules": "pagat"},
    {
        "kind": "layoffs",
        "knocker_melds": ["8C 8D 8H", "9S TS JS"],
        "defender": "8S 7S KH KD KC 2H 3H 4H 5C 6D",
    },
    {"kind": "score", "knocker": HAND, "defender": OTHER},
    {"kind": "oklahoma", "knocker": HAND, "defender": OTHER, "upcard": "QS"},
    {"kind": "sheet", "entries": ["A 25", "B 14", "A 80"]},
    {"kind": "hollywood", "entries": ["A 25", "B 40", "A 110"]},
    {
        "kind": "hand",
        "deal": {"seed": 21, "dealer": 0},
        "moves": [
            "pass 1",
            "take_upcard 0",
            "discard 0 8H",
            "draw_stock 1",
            "discard 1 KS",
            "draw_discard 0",
            "knock 0 6S",
            "lay_off 1",
        ],
    },
]
STEPS = [
    ({"ask": "discard", "hand": HAND + " KH"}, "KH"),
    ({"ask": "deadwood", "hand": HAND}, "5"),
    ({"ask": "melds", "hand": HAND}, "5D"),
    ({"ask": "knock", "hand": HAND + " KH"}, "no"),
    (
        {
            "ask": "layoff",
            "knocker_melds": ["8C 8D 8H", "9S TS JS"],
            "defender": "8S 7S KH KD KC 2H 3H 4H 5C 6D",
        },
        "8S",
    ),
    ({"ask": "score", "knocker": HAND, "defender": OTHER}, "34"),
    ({"ask": "sheet", "entries": ["A 25", "B 14"], "find": "totals.0"}, "25"),
    (
        {"ask": "move", "deal": {"seed": 7, "dealer": 0}, "choices": ["draw_stock", "take_upcard"]},
        "pass",
    ),
]
BAD: list[dict[str, object]] = [
    {"op": "render", "state": {"kind": "melds", "hand": "ZS 2S"}},
    {
        "op": "render",
        "state": {"kind": "score", "knocker": "AS 5S 9S 4H 8H QH 7C JC 3D KD", "defender": OTHER},
    },
    {"op": "render", "state": {"kind": "nothing"}},
    {"op": "render", "kind": "score", "link": "knocker:2S-3S;rules:nope"},
    {"op": "edit", "state": EXAMPLES[3], "edit": {"field": "knocker", "index": 0, "card": "5D"}},
    {"op": "edit", "state": EXAMPLES[5], "edit": {"remove": 0}},
    {"op": "edit", "state": EXAMPLES[5], "edit": {"add": {"winner": 1, "points": 30}}},
    {"op": "feedback", "step": STEPS[0][0], "answer": "ZZ"},
    {"op": "engine", "request": {"op": "deal", "seed": 7}},
    {"op": "nothing"},
    {"op": "play", "session": None, "move": {"deal": 1}},
]
PLAY = {
    "op": "play",
    "session": None,
    "move": {"new": {"seed": 1, "rules": "standard", "level": "strong"}},
}


def requests(languages: tuple[str, ...]) -> list[dict[str, object]]:
    """Every request answered before the snapshot: each kind and step in each language."""
    out: list[dict[str, object]] = []
    for lang in languages:
        out += [{"op": "render", "lang": lang, "state": state} for state in EXAMPLES]
        out += [
            {"op": "feedback", "lang": lang, "step": step, "answer": answer}
            for step, answer in STEPS
        ]
        out += [{"lang": lang, **request} for request in BAD]
        out.append({"lang": lang, **PLAY})
    return out


def prepare(wheel_paths_json: str) -> int:
    """Install the wheels, import the presentation layer, answer every request of
    :func:`requests`. Returns len(sys.modules)."""
    site_packages = next(p for p in sys.path if p.endswith("site-packages"))
    for path in json.loads(wheel_paths_json):
        with zipfile.ZipFile(path) as wheel:
            wheel.extractall(site_packages)
    sys.path_importer_cache.clear()  # the clock is fixed (in_pyodide.mjs): no mtime shows the new files
    for package in ("ginrummy", "ginview"):
        for module in modules(os.path.join(site_packages, package), package):
            __import__(module)
    from ginview.api import handle
    from ginview.catalog import catalog, languages

    for request in requests(languages()):
        json.loads(handle(json.dumps(request)))
    game = json.loads(handle(json.dumps(PLAY)))["result"]["session"]
    handle(json.dumps({"op": "play", "session": game, "move": {"hint": True}}))  # the coach
    from ginrummy.advice import forget

    forget()  # what the coach's playouts remembered: data, not code
    for lang in languages():
        catalog(lang).text("unit.points", count=2)  # the plural rule, compiled
    handle("this is not JSON")
    import random

    random.seed(0)  # the module's own generator was seeded from os.urandom: fix its state
    gc.collect()
    gc.freeze()
    return len(sys.modules)


def line_tables() -> str:
    """Where the line table of every function's code lies in memory, as JSON: a list of
    [address, length] (a table is a bytes object, at its id()). in_pyodide.mjs writes over each,
    in place, a table that gives no instruction a line. (Only attributes that cache nothing are
    read: ``co_code`` would keep a copy of each code's bytecode.)"""
    gc.unfreeze()  # (prepare froze them: gc.get_objects() leaves frozen objects out)
    stack = [f.__code__ for f in gc.get_objects() if isinstance(f, types.FunctionType)]
    gc.freeze()
    seen: set[int] = set()
    tables: dict[int, int] = {}
    while stack:
        code = stack.pop()
        if id(code) not in seen:
            seen.add(id(code))
            stack += [c for c in code.co_consts if isinstance(c, types.CodeType)]
            tables[id(code.co_linetable)] = len(code.co_linetable)
    return json.dumps([[address, length] for address, length in tables.items() if length])


def modules(folder: str, package: str) -> list[str]:
    """The names of a package's modules (from its compiled files), the command line left out."""
    out: list[str] = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if os.path.isdir(path) and os.path.exists(os.path.join(path, "__init__.pyc")):
            out += modules(path, f"{package}.{name}")
        elif name.endswith(".pyc"):
            stem = name[:-4]
            module = package if stem == "__init__" else f"{package}.{stem}"
            if module not in BUILD_ONLY:
                out.append(module)
    return out


def forget_stdlib() -> str:
    """Drop what zipimport remembers of the standard library's zip (its table of contents), as
    the snapshot is restored on an empty zip. Returns the zip's path."""
    import zipimport

    source = next(p for p in sys.path if p.endswith(".zip"))
    getattr(zipimport, "_zip_directory_cache", {}).pop(source, None)
    sys.path_importer_cache.pop(source, None)
    return source
