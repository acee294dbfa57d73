"""Error classes. Each carries a machine-readable ``code`` and ``params``.

The site renders ``code`` + ``params`` in the reader's language; ``str(error)`` is the
English message for the command line and for Python users.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Any

MAX_MESSAGE = 300
"""The longest message: whatever input it quotes, an error stays one readable line."""
MAX_SHOWN = 40
"""The most characters of a bad value an error quotes (a caller may pass anything)."""
MAX_ITEMS = 60
"""The most items of a list an error's params keep."""


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


REPR_DEPTH = 8
"""How deep into nested lists and mappings a quoted value is written (then ``...``)."""
_BRACKETS: dict[type, str] = {list: "[]", tuple: "()", dict: "{}"}


def _pieces(value: object, depth: int) -> Iterator[str]:
    brackets = _BRACKETS.get(type(value))
    if brackets is None:
        try:
            yield repr(value)
        except Exception:  # a caller's object whose repr fails (or recurses): name its type
            yield f"<{type(value).__name__}>"
        return
    if depth >= REPR_DEPTH:
        yield "..."
        return
    yield brackets[0]
    if isinstance(value, dict):
        for n, (key, item) in enumerate(value.items()):
            yield ", " if n else ""
            yield from _pieces(key, depth + 1)
            yield ": "
            yield from _pieces(item, depth + 1)
    else:
        assert isinstance(value, (list, tuple))
        for n, item in enumerate(value):
            yield ", " if n else ""
            yield from _pieces(item, depth + 1)
        if isinstance(value, tuple) and len(value) == 1:
            yield ","
    yield brackets[1]


def short_repr(value: object, limit: int = MAX_SHOWN) -> str:
    """The first ``limit`` characters of ``repr(value)``, written only that far: at once however
    long or deeply nested the value is (never a ``RecursionError``)."""
    out, length = [], 0
    for piece in _pieces(value, 0):
        out.append(piece[: limit + 1])
        length += len(out[-1])
        if length > limit:
            break
    return "".join(out)[:limit]


def shown(value: object) -> str:
    """``value`` as an error's message quotes it: its repr, at most :data:`MAX_SHOWN`
    characters, however deeply it is nested (a list nested 100,000 deep is quoted at once).

    >>> shown([[[[[[[[["deep"]]]]]]]]]), shown("x" * 100)[-3:]
    ('[[[[[[[[...]]]]]]]]', 'xx…')
    """
    return cut(short_repr(value, MAX_SHOWN + 1), MAX_SHOWN)


def quote(value: object) -> str:
    """``value`` as an error's params quote it: a text as it is, anything else as its repr;
    the first :data:`MAX_SHOWN` characters."""
    return value[:MAX_SHOWN] if isinstance(value, str) else short_repr(value)


def whole_number(value: object) -> bool:
    """True for an int that is not a bool: what every count, index, seed and player is (a
    float such as 1.0 is not one, nor is True)."""
    return isinstance(value, int) and not isinstance(value, bool)


def listed(value: object) -> list[Any] | None:
    """The items of a list-like argument (a list, a tuple, any iterable but a text, a mapping
    or a card), or None when ``value`` is not one."""
    if isinstance(value, (str, bytes, dict)) or not isinstance(value, Iterable):
        return None
    if hasattr(value, "rank") and hasattr(value, "suit"):
        return None  # a Card is one card, not a list of them
    return list(value)


class GinRummyError(ValueError):
    """Base class: ``code`` names the problem, ``params`` holds its details."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(cut(message, MAX_MESSAGE))
        self.code = code
        self.params = params

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": str(self), "params": _jsonable(self.params)}


class CardError(GinRummyError):
    """Bad card notation or a bad hand: unknown rank or suit, duplicate, wrong count.

    ``token`` is the offending text (or None) and ``position`` its 0-based index
    among the cards written (or None).
    """

    def __init__(
        self,
        code: str,
        message: str,
        token: str | None = None,
        position: int | None = None,
        **params: Any,
    ) -> None:
        super().__init__(code, message, token=token, position=position, **params)
        self.token = token
        self.position = position


class RuleError(GinRummyError):
    """A move or claim the rules do not allow: an illegal knock, a bad action."""


def _jsonable(value: Any, depth: int = 0) -> Any:
    """A param as strict JSON: cards as notation, texts cut short, lists and mappings cut to
    :data:`MAX_ITEMS` items and a few levels, no NaN or infinity, no lone surrogate (a
    response must always encode)."""
    if depth > 3:
        return shown(value)
    if isinstance(value, dict):
        return {_text(str(k)): _jsonable(v, depth + 1) for k, v in list(value.items())[:MAX_ITEMS]}
    if isinstance(value, (list, tuple)):
        if value and all(hasattr(v, "rank") and hasattr(v, "suit") for v in value):
            return " ".join(str(v) for v in value)
        return [_jsonable(v, depth + 1) for v in value[:MAX_ITEMS]]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    return _text(value if isinstance(value, str) else str(value))


def _text(text: str) -> str:
    """A text cut short, a lone surrogate (which no UTF-8 can carry) replaced."""
    text = cut(text, MAX_MESSAGE)
    return text.encode("utf-8", "replace").decode("utf-8") if not text.isascii() else text
