"""The JSON boundary: the only way the browser talks to the engine. STUB, being written."""

from __future__ import annotations

import json

from . import __version__
from .melds import best_melds

API_VERSION = 1


def handle(request: str) -> str:
    req = json.loads(request)
    op = req.get("op")
    if op == "version":
        result = {"engine": __version__, "api": API_VERSION}
    elif op == "melds":
        a = best_melds(req["cards"])
        result = {"points": a.points, "melds": [str(m) for m in a.melds],
                  "deadwood": str(a.deadwood), "discard": str(a.discard) if a.discard else None}
    else:
        return json.dumps({"v": API_VERSION, "ok": False, "error": {"code": "unknown_op"}})
    return json.dumps({"v": API_VERSION, "ok": True, "result": result})
