"""What the engine's memory snapshot holds, by kind: the Python half of bench/snapshot.py.

Runs inside Pyodide (bench/snapshot_contents.mjs), once sitegen/snapshot.py has prepared it as
for the snapshot. measure() walks every object reachable from the collector's objects and the
modules, and answers JSON: for each kind, its objects' (address, size) (an object's bytes lie
at its id(), sys.getsizeof of them), so bench/snapshot.py can weigh each kind's bytes.
"""

import gc
import json
import sys
import types
from collections import defaultdict


def reachable() -> dict[int, object]:
    """Every object the collector knows of, or that one of those refers to, by id."""
    seen: dict[int, object] = {}
    stack = [*gc.get_objects(), *sys.modules.values(), sys.modules]
    mine = {id(seen), id(stack)}  # this walk's own
    while stack:
        obj = stack.pop()
        if id(obj) not in seen and id(obj) not in mine:
            seen[id(obj)] = obj
            stack.extend(gc.get_referents(obj))
    return seen


def kind(obj: object) -> str:
    name = type(obj).__name__
    return name if name in KINDS else ("type" if isinstance(obj, type) else "other")


KINDS = ("code", "str", "dict", "int", "float", "function", "tuple", "list", "bytes")


def owners(seen: dict[int, object]) -> dict[int, str]:
    """Each object's module: the first module (the engine's and the view's first) from whose
    namespace it is reachable without passing through another module's."""
    owner: dict[int, str] = {}
    spaces = {id(vars(m)) for m in sys.modules.values() if hasattr(m, "__dict__")}
    spaces |= {id(m) for m in sys.modules.values()}
    names = sorted(sys.modules, key=lambda n: (n.split(".")[0] not in ("ginrummy", "ginview"), n))
    for name in names:
        module = sys.modules[name]
        top = name.split(".")[0]
        label = name if top in ("ginrummy", "ginview") else f"stdlib/Pyodide: {top}"
        stack: list[object] = [module, getattr(module, "__dict__", None)]
        while stack:
            obj = stack.pop()
            i = id(obj)
            if i in owner or i not in seen:
                continue
            if i in spaces and obj is not module and obj is not getattr(module, "__dict__", 0):
                continue
            owner[i] = label
            stack.extend(gc.get_referents(obj))
    return owner


def measure() -> str:
    gc.unfreeze()
    gc.collect()
    seen = reachable()
    seen.pop(id(sys._getframe()), None)
    by: dict[str, list[tuple[int, int]]] = defaultdict(list)
    tables: set[int] = set()
    for obj in seen.values():
        if isinstance(obj, types.CodeType):
            for table, label in (
                (obj.co_linetable, "co_linetable"),
                (obj.co_exceptiontable, "co_exceptiontable"),
            ):
                if id(table) not in tables and table:
                    tables.add(id(table))
                    by[label].append((id(table), sys.getsizeof(table)))
    for obj in seen.values():  # what annotations keep: 3.14's __annotate__ functions, dicts
        if isinstance(obj, types.FunctionType):
            annotate = obj.__annotate__
            if annotate is not None:
                by["annotations: __annotate__ functions and code"] += [
                    (id(annotate), sys.getsizeof(annotate)),
                    (id(annotate.__code__), sys.getsizeof(annotate.__code__)),
                ]
    owner = owners(seen)
    for i, obj in seen.items():
        if i in tables:
            continue
        size = sys.getsizeof(obj)
        by[f"type: {kind(obj)}"].append((i, size))
        by[f"module: {owner.get(i, '(no module: interned, caches)')}"].append((i, size))
    catalogs = sys.modules["ginview.catalog"]
    for lang in catalogs.languages():
        stack: list[object] = [catalogs.catalog(lang)]
        mine: set[int] = set()
        while stack:
            obj = stack.pop()
            if id(obj) not in mine and not isinstance(obj, (type, types.ModuleType)):
                mine.add(id(obj))
                stack.extend(gc.get_referents(obj))
        by[f"catalog: {lang}"] = [(i, sys.getsizeof(seen[i])) for i in mine if i in seen]
    gc.collect()
    gc.freeze()
    return json.dumps(by)
