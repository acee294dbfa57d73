"""The JSON boundary: the one way the browser (and any other client) talks to the engine.

A request is a JSON object with the API version ``v``, an ``op`` and that op's fields; the
response is ``{"v": 1, "ok": true, "result": ...}`` or ``{"v": 1, "ok": false, "error":
{"code": ..., "message": ..., "params": {...}}}``. It never raises: bad input of any kind
comes back as a coded error the site can render in the reader's language. A field the op
does not take is refused (``unknown_field``), so a misspelt one is never silently ignored.

>>> handle('{"v": 1, "op": "deadwood", "cards": "AS 2S 3S 7H 7D 7C 9C TC JC KD"}')
'{"v": 1, "ok": true, "result": {"points": 10}}'
>>> handle('{"v": 1, "op": "deadwood", "cards": "AS 2S 3S"}')  # doctest: +ELLIPSIS
'{"v": 1, "ok": false, "error": {"code": "wrong_count", ...}}'

Ops and their fields:

============== ========================================== =====================================
op             fields                                     result
============== ========================================== =====================================
version                                                   ``engine``, ``api``
rules          ``name`` (optional)                        all presets, or one, as objects
parse          ``cards``                                  ``cards`` (canonical), ``count``
deadwood       ``cards`` (10 or 11)                       ``points``
melds          ``cards`` (10 or 11)                       an arrangement (see ``arrangement_json``)
knock          ``cards`` (11), ``rules``, ``upcard``       the arrangement, ``limit`` and
                                                          ``verdict``: ``big_gin``, ``gin``,
                                                          ``knock`` or ``no``
layoffs        ``knocker_melds`` (list), ``defender``     lay-offs, defender melds and deadwood
score          ``knocker``, ``defender``, ``rules``,      a hand result with ``explain`` steps
               ``upcard``
sheet          ``entries`` (``{"winner": 0, "points":    a standard or Hollywood score sheet
               25}``), ``rules``, ``format``
               (``standard`` or ``hollywood``)
deal           ``seed`` or ``deck``, ``dealer``,          ``state`` (a hand state) and ``legal``
               ``rules``, ``end_of_stock``                (the legal actions)
play           ``state``, ``action`` (``{"kind":         the next ``state`` and ``legal``
               "discard", "player": 0, "card": "7H"}``;
               a knock may carry ``"melds"``, a
               lay_off ``"lay_offs"``)
view           ``state``, ``player``                      what that player may know (a
                                                          :class:`~ginrummy.public.PlayerView`)
bot            ``state``, ``level`` (``strong``),         ``action``: the bot's move for the
               ``seed`` (optional)                        player to act
advice         ``state`` or ``game``, ``samples``         the coach's advice: ranked ``choices``
               (a first hint's), ``seed`` (from the       (chance of winning the game, hand
               decision), ``previous`` (an advice of      points, cost, standard error, mistake,
               the same decision to refine)               reasons; see ginrummy.advice)
lay_off_check  ``state`` (lay_off phase), ``lay_offs``    the knocker's melds after the
               (``[{"card": "4S", "meld": 0}]``)          defender's lay-offs so far, each
                                                          checked; the defender's deadwood
lay_off_review ``state`` (after a knock)                  the best lay-offs beside those
                                                          played, and the points ``left``
game_new       ``rules``, ``format`` (``standard`` or     ``game`` (see :mod:`ginrummy.match`)
               ``hollywood``), ``seed``, ``dealer``,      and ``legal`` (the current hand's
               ``end_of_stock``                           legal actions)
game_play      ``game``, ``action``                       the next ``game`` and ``legal``
game_next      ``game``                                   the game with the next hand dealt
============== ========================================== =====================================

``rules`` is a preset name or an object such as ``{"name": "standard", "gin_bonus": 20}``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any

from . import __version__
from .advice import advise, check_lay_off_plan, lay_off_review
from .bots import choose
from .cards import Card, Hand, parse_cards
from .ending import verdict
from .errors import GinRummyError, quote, shown
from .game import score_game, score_hollywood
from .hand import Action, HandState, apply, deal, legal_actions
from .layoffs import lay_offs
from .match import Game, game_from_json, new_game, next_hand, play
from .melds import Arrangement, arrange, best_melds, min_deadwood
from .public import view
from .rules import RULESETS, get_rules
from .scoring import score_hand

API_VERSION = 1


class RequestError(GinRummyError):
    """A request that is not well formed: bad JSON, an unknown op, a missing field."""


def arrangement_json(arrangement: Arrangement, cards: Hand | None = None) -> dict[str, Any]:
    """An arrangement as JSON. With big gin (and the 11 ``cards`` given) all 11 cards are shown
    melded and there is no discard."""
    if arrangement.big_gin and cards is not None:
        arrangement = arrange(cards)
        return {
            "melds": [str(m) for m in arrangement.melds],
            "deadwood": "",
            "points": 0,
            "discard": None,
            "big_gin": True,
        }
    return {
        "melds": [str(m) for m in arrangement.melds],
        "deadwood": str(arrangement.deadwood),
        "points": arrangement.points,
        "discard": str(arrangement.discard) if arrangement.discard else None,
        "big_gin": arrangement.big_gin,  # all 11 meld, where the rules play no big gin
    }


def _field(
    request: dict[str, Any], name: str, kind: type | tuple[type, ...] = str, default: Any = ...
) -> Any:
    if name not in request:
        if default is not ...:
            return default
        raise RequestError("missing_field", f"the request needs a {name!r} field", field=name)
    value = request[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise RequestError("bad_field", f"field {name!r} has the wrong type", field=name)
    return value


def _upcard(request: dict[str, Any]) -> Card | None:
    text = _field(request, "upcard", str, None)
    return parse_cards(text, count=1)[0] if text else None


def _op_version(request: dict[str, Any]) -> dict[str, Any]:
    return {"engine": __version__, "api": API_VERSION}


def _op_rules(request: dict[str, Any]) -> dict[str, Any]:
    name = _field(request, "name", str, None)
    if name is not None:
        return get_rules(name).to_json()
    return {name: rules.to_json() for name, rules in RULESETS.items()}


def _op_parse(request: dict[str, Any]) -> dict[str, Any]:
    cards = parse_cards(_field(request, "cards"))
    return {"cards": str(cards), "count": len(cards)}


def _op_deadwood(request: dict[str, Any]) -> dict[str, Any]:
    return {"points": min_deadwood(_field(request, "cards"))}


def _op_melds(request: dict[str, Any]) -> dict[str, Any]:
    cards = parse_cards(_field(request, "cards"))  # best_melds wants 10 or 11
    return arrangement_json(best_melds(cards), cards)


def _op_knock(request: dict[str, Any]) -> dict[str, Any]:
    """Can these 11 cards knock? The best discard, its deadwood and the limit."""
    rules = get_rules(_field(request, "rules", (str, dict), "standard"))
    upcard = _upcard(request)
    cards = parse_cards(_field(request, "cards"), count=11)
    arrangement = best_melds(cards)
    found = verdict(arrangement.points, rules, upcard, big_gin=arrangement.big_gin)
    shown = arrangement_json(arrangement, cards if found.kind == "big_gin" else None)
    return {**shown, "limit": found.limit, "verdict": found.kind}


def _op_layoffs(request: dict[str, Any]) -> dict[str, Any]:
    melds = _field(request, "knocker_melds", list)
    return lay_offs(melds, parse_cards(_field(request, "defender"), count=10)).to_json()


def _op_score(request: dict[str, Any]) -> dict[str, Any]:
    rules = get_rules(_field(request, "rules", (str, dict), "standard"))
    return score_hand(
        _field(request, "knocker"), _field(request, "defender"), rules, _upcard(request)
    ).to_json()


def _op_sheet(request: dict[str, Any]) -> dict[str, Any]:
    rules = get_rules(_field(request, "rules", (str, dict), "standard"))
    entries = _field(request, "entries", list)
    kind = _field(request, "format", str, "standard")
    if kind == "standard":
        return score_game(entries, rules).to_json()
    if kind == "hollywood":
        return score_hollywood(entries, rules).to_json()
    raise RequestError("bad_field", f"unknown sheet format {kind!r}", field="format")


def _state_json(state: HandState) -> dict[str, Any]:
    return {"state": state.to_json(), "legal": [a.to_json() for a in legal_actions(state)]}


def _op_deal(request: dict[str, Any]) -> dict[str, Any]:
    kwargs = {
        name: request[name]
        for name in ("seed", "deck", "dealer", "end_of_stock")
        if name in request
    }
    rules = get_rules(_field(request, "rules", (str, dict), "standard"))
    return _state_json(deal(rules=rules, **kwargs))


def _op_play(request: dict[str, Any]) -> dict[str, Any]:
    state = HandState.from_json(_field(request, "state", dict))
    return _state_json(apply(state, Action.from_json(_field(request, "action", dict))))


def _op_view(request: dict[str, Any]) -> dict[str, Any]:
    state = HandState.from_json(_field(request, "state", dict))
    return view(state, _field(request, "player", int)).to_json()


def _op_bot(request: dict[str, Any]) -> dict[str, Any]:
    state = HandState.from_json(_field(request, "state", dict))
    level = _field(request, "level", str, "strong")
    seed = _field(request, "seed", int, None)
    return {"action": choose(state, level, seed).to_json()}


def _op_advice(request: dict[str, Any]) -> dict[str, Any]:
    """The coach's advice on a hand (``state``) or on a game's current hand (``game``: the
    score is weighed), refining ``previous`` if given. The work is bounded by
    :data:`ginrummy.advice.MAX_SAMPLES` and :data:`ginrummy.advice.MAX_PLAYOUTS`."""
    if ("state" in request) == ("game" in request):
        raise RequestError(
            "missing_field", "the request needs a 'state' or a 'game' field", field="state"
        )
    position: HandState | Game = (
        HandState.from_json(_field(request, "state", dict))
        if "state" in request
        else game_from_json(_field(request, "game", dict))
    )
    return advise(
        position,
        _field(request, "samples", int, None),
        _field(request, "seed", int, None),
        _field(request, "previous", dict, None),
    ).to_json()


def _op_lay_off_check(request: dict[str, Any]) -> dict[str, Any]:
    state = HandState.from_json(_field(request, "state", dict))
    plays = _field(request, "lay_offs", list)
    return check_lay_off_plan(
        state,
        Action.from_json({"kind": "lay_off", "player": state.turn, "lay_offs": plays}).lay_offs,
    )


def _op_lay_off_review(request: dict[str, Any]) -> dict[str, Any]:
    return lay_off_review(HandState.from_json(_field(request, "state", dict)))


def _game_json(game: Game) -> dict[str, Any]:
    return {"game": game.to_json(), "legal": [a.to_json() for a in legal_actions(game.hand)]}


def _op_game_new(request: dict[str, Any]) -> dict[str, Any]:
    kwargs = {
        name: request[name]
        for name in ("format", "seed", "dealer", "end_of_stock")
        if name in request
    }
    rules = get_rules(_field(request, "rules", (str, dict), "standard"))
    return _game_json(new_game(rules, **kwargs))


def _op_game_play(request: dict[str, Any]) -> dict[str, Any]:
    game = game_from_json(_field(request, "game", dict))
    return _game_json(play(game, Action.from_json(_field(request, "action", dict))))


def _op_game_next(request: dict[str, Any]) -> dict[str, Any]:
    return _game_json(next_hand(game_from_json(_field(request, "game", dict))))


OPS = {
    "version": _op_version,
    "rules": _op_rules,
    "parse": _op_parse,
    "deadwood": _op_deadwood,
    "melds": _op_melds,
    "knock": _op_knock,
    "layoffs": _op_layoffs,
    "score": _op_score,
    "sheet": _op_sheet,
    "deal": _op_deal,
    "play": _op_play,
    "view": _op_view,
    "bot": _op_bot,
    "advice": _op_advice,
    "lay_off_check": _op_lay_off_check,
    "lay_off_review": _op_lay_off_review,
    "game_new": _op_game_new,
    "game_play": _op_game_play,
    "game_next": _op_game_next,
}


def run_op(
    name: str,
    op: Callable[[dict[str, Any]], Any],
    request: dict[str, Any],
    also: Iterable[str] = (),
) -> Any:
    """``op``'s answer to ``request``, refusing any field it did not read (besides ``v``,
    ``op`` and ``also``): a misspelt field would otherwise be a silent wrong answer. (The site's
    own boundary, ginview.api, answers the same way.)"""
    fields = _Fields(request)
    result = op(fields)
    unread = sorted(str(field) for field in set(request) - fields.read - {"v", "op", *also})
    if unread:
        raise RequestError(
            "unknown_field", f"op {name!r} has no field {unread[0]!r}", field=unread[0], op=name
        )
    return result


class _Fields(dict[str, Any]):
    """A request that remembers which of its fields the op looked at: any other is refused."""

    def __init__(self, request: dict[str, Any]) -> None:
        super().__init__(request)
        self.read: set[str] = set()

    def __getitem__(self, name: str) -> Any:
        self.read.add(name)
        return super().__getitem__(name)

    def __contains__(self, name: object) -> bool:
        self.read.add(str(name))
        return super().__contains__(name)

    def get(self, name: str, default: Any = None) -> Any:
        self.read.add(name)
        return super().get(name, default)


MAX_DEPTH = 20
"""The deepest nesting of lists and objects a request may have (a real one has four)."""


def check_request(value: object, limit: int = MAX_DEPTH) -> None:
    """Refuse, before anything reads it, a request nested deeper than ``limit``, holding a
    number JSON has not (NaN, an infinity: a response quoting it would not be JSON) or a text
    with a lone surrogate (no UTF-8 can carry it, so no response quoting it could be sent)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                raise _too_deep(limit)
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
            stack.extend(
                (child, depth + 1) for child in (item.values() if isinstance(item, dict) else item)
            )
        elif isinstance(item, float) and not math.isfinite(item):
            raise RequestError("bad_json", f"the request holds {item}, which JSON has not")
        elif isinstance(item, str) and not item.isascii() and _surrogate(item):
            raise RequestError("bad_json", "the request holds a text that is not Unicode")


def _surrogate(text: str) -> bool:
    """``text`` holds a lone surrogate (a half of a UTF-16 pair, alone)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def _too_deep(limit: int) -> RequestError:
    return RequestError("too_deep", f"the request is nested more than {limit} deep", limit=limit)


def call(request: object) -> dict[str, Any]:
    """Answer a request already decoded from JSON (anything: what is not an object is refused
    as such); the result is a JSON-ready dict."""
    try:
        if not isinstance(request, dict):
            raise RequestError("bad_request", "a request must be a JSON object")
        check_request(request)
        check_version(request, API_VERSION)
        op = request.get("op")
        if not isinstance(op, str) or op not in OPS:
            raise RequestError("unknown_op", f"unknown op {shown(op)}", op=quote(op))
        return {"v": API_VERSION, "ok": True, "result": run_op(op, OPS[op], request)}
    except GinRummyError as error:
        return {"v": API_VERSION, "ok": False, "error": error.to_json()}
    except Exception as error:  # a bug: still answer, so the page keeps working
        return {
            "v": API_VERSION,
            "ok": False,
            "error": {
                "code": "internal_error",
                "message": f"{type(error).__name__}: {error}",
                "params": {},
            },
        }


def check_version(request: dict[str, Any], supported: int) -> None:
    """Refuse a request for another version of the API than ``supported`` (which it may leave
    out): the number itself, not 1.0 or true."""
    version = request.get("v", supported)
    if type(version) is not int or version != supported:
        raise RequestError(
            "unsupported_version",
            f"API version {shown(version)} is not supported; use {supported}",
            version=version,
            supported=supported,
        )


def decode(request: str) -> Any:
    """A request's JSON text, decoded: strict JSON (no NaN or Infinity), or ``ValueError``."""
    return json.loads(request, parse_constant=_no_constant)


def encode(response: dict[str, Any]) -> str:
    """A response as strict JSON text (what a browser's ``JSON.parse`` and UTF-8 both take)."""
    return json.dumps(response, ensure_ascii=False, allow_nan=False)


def handle(request: str) -> str:
    """Answer one JSON request (a string) with a JSON response (a string)."""
    try:
        decoded = decode(request)
    except (TypeError, ValueError, RecursionError) as error:
        refused = (
            _too_deep(MAX_DEPTH)
            if isinstance(error, RecursionError)  # too deep for the JSON reader itself
            else RequestError("bad_json", f"the request is not JSON: {error}")
        )
        response = {"v": API_VERSION, "ok": False, "error": refused.to_json()}
    else:
        response = call(decoded)
    return encode(response)
