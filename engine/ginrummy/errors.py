"""Error classes. Each carries a machine-readable ``code`` and ``params``.

The site renders ``code`` + ``params`` in the reader's language; ``str(error)`` is the
English message for the command line and for Python users.
"""

from __future__ import annotations

from typing import Any

MAX_MESSAGE = 300
"""The longest message: whatever input it quotes, an error stays one readable line."""


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


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


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        if value and all(hasattr(v, "rank") and hasattr(v, "suit") for v in value):
            return " ".join(str(v) for v in value)
        return [_jsonable(v) for v in value]
    if isinstance(value, str):
        return cut(value, MAX_MESSAGE)
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    return cut(str(value), MAX_MESSAGE)
