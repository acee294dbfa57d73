"""The JSON boundary the browser's worker calls: ``handle(request_json) -> response_json``.

It never raises. A response is ``{"v": 1, "ok": true, "result": …}`` or ``{"v": 1, "ok":
false, "error": {"code", "params", "message"}}``, where ``message`` is the error in the
request's language (``lang``), ready to show.

Ops (``lang`` is the page's language in every one):

========== ================================================ ===================================
op         fields                                           result
========== ================================================ ===================================
render     ``state`` (an example), or ``kind`` and ``link``  ``state`` (canonical), ``view``
           (a share link's text)                            (the markup an edit replaces),
                                                            ``link``, ``summary``
edit       ``state`` and ``edit`` (see the kinds' ``edit``)  as render, for the edited state
feedback   ``step`` (a lesson step) and ``answer``           ``right`` and ``html``
engine     ``request``: any request of ``ginrummy.api``      the engine's response, as it is
play       ``session`` (or none) and ``move`` (see          ``session``, ``html``, ``announce``,
           :mod:`ginview.play`)                              ``refused``, ``link``
========== ================================================ ===================================

>>> import json
>>> answer = json.loads(handle('{"op": "render", "lang": "en", "state": {"kind": "melds", "hand": "10c jc qc 2h 2d 2s 5h 6h 7h 9d"}}'))
>>> answer["result"]["state"], answer["result"]["link"]
({'kind': 'melds', 'hand': 'TC JC QC 2H 2D 2S 5H 6H 7H 9D'}, 'hand:TC-JC-QC-2H-2D-2S-5H-6H-7H-9D')
>>> json.loads(handle('{"op": "render", "lang": "en", "state": {"kind": "melds", "hand": "ZZ"}}'))["error"]["code"]
'unknown_rank'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ginrummy import api as engine_api
from ginrummy.errors import GinRummyError

from . import play
from .catalog import catalog
from .examples import KINDS, ExampleError, from_link, kind_of, read_state, render
from .fields import bad
from .markup import error_text
from .shapes import JsonObject
from .steps import feedback

Request = Mapping[str, object]
"""A request as decoded from JSON: its fields are checked where they are read."""

VERSION = 1
MAX_REQUEST = 100_000
"""The longest request read, in characters (an example's state is well under 2,000)."""


def _lang(request: Request) -> str:
    lang = request.get("lang")
    return lang if isinstance(lang, str) else "en"


def _op_render(request: Request) -> JsonObject:
    cat = catalog(_lang(request))
    if "link" in request:
        kind, text = request.get("kind"), request.get("link")
        if not isinstance(kind, str) or kind not in KINDS:
            raise bad("kind", "one of " + ", ".join(KINDS), kind)
        if not isinstance(text, str):
            raise bad("link", "the text of a link", text)
        return render(from_link(kind, text), cat).to_json()
    return render(_state(request), cat).to_json()


def _op_edit(request: Request) -> JsonObject:
    # The state is read as any state is (canonical, or a coded error) before an edit applies:
    # an edit never meets a field it does not expect.
    edit = request.get("edit")
    if not isinstance(edit, dict):
        raise bad("edit", "an object", edit)
    state = read_state(_state(request))
    return render(kind_of(state).edit(state, edit), catalog(_lang(request))).to_json()


def _op_feedback(request: Request) -> JsonObject:
    step = request.get("step")
    if not isinstance(step, dict):
        raise bad("step", "an object", step)
    return feedback(step, request.get("answer"), catalog(_lang(request)))


def _op_engine(request: Request) -> JsonObject:
    return engine_api.call(request.get("request"))


def _op_play(request: Request) -> JsonObject:
    return play.respond(request.get("session"), request.get("move"), catalog(_lang(request)))


def _state(request: Request) -> dict[str, object]:
    state = request.get("state")
    if not isinstance(state, dict):
        raise bad("state", "an object", state)
    return state


OPS: dict[str, Callable[[Request], JsonObject]] = {
    "render": _op_render,
    "edit": _op_edit,
    "feedback": _op_feedback,
    "engine": _op_engine,
    "play": _op_play,
}


def call(request: object) -> JsonObject:
    """Answer a request already decoded from JSON."""
    lang = _lang(request) if isinstance(request, dict) else "en"
    try:
        engine_api.check_request(request)
        if not isinstance(request, dict):
            raise ExampleError("bad_request", "a request must be a JSON object")
        engine_api.check_version(request, VERSION)
        op = request.get("op")
        if not isinstance(op, str) or op not in OPS:
            raise ExampleError(
                "unknown_op", "unknown op", op=op[:40] if isinstance(op, str) else ""
            )
        return {
            "v": VERSION,
            "ok": True,
            "result": engine_api.run_op(op, OPS[op], request, ["lang", "v"]),
        }
    except GinRummyError as error:
        return _error(error.code, error.to_json()["params"], lang)
    except Exception as error:
        return _error("internal_error", {"detail": f"{type(error).__name__}: {error}"[:200]}, lang)


def _error(code: str, params: Mapping[str, object], lang: str) -> JsonObject:
    params = GinRummyError(code, "", **params).to_json()["params"]  # strict JSON, cut short
    message = error_text({"code": code, "params": params}, catalog(lang))
    return {
        "v": VERSION,
        "ok": False,
        "error": {"code": code, "params": params, "message": message},
    }


def handle(request: str) -> str:
    """Answer one JSON request (a string) with a JSON response (a string)."""
    if isinstance(request, str) and len(request) > MAX_REQUEST:
        error = ExampleError("request_too_long", "the request is too long", limit=MAX_REQUEST)
        return engine_api.encode(_error(error.code, error.params, "en"))
    try:
        decoded = engine_api.decode(request)
    except RecursionError:  # nested deeper than the JSON reader itself can follow
        return engine_api.encode(_error("too_deep", {"limit": engine_api.MAX_DEPTH}, "en"))
    except (TypeError, ValueError):
        return engine_api.encode(_error("bad_json", {}, "en"))
    return engine_api.encode(call(decoded))
