"""The shapes of the values ginview passes around, where the engine's own classes do not hold
them: the JSON the engine's API answers, an example's state, a score sheet's entry.

The engine's API (``ginrummy.api``) types its requests and answers as ``dict[str, Any]``:
ginview reads them as the engine wrote them, so :data:`JsonObject` is that same type. What a
reader or a file wrote is read as ``object`` and narrowed, in :mod:`ginview.fields`.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

JsonObject = dict[str, Any]
"""A JSON object from (or for) the engine's API, as ``ginrummy.api`` types it: its values are
what the engine wrote, so they are read without checks."""

State = dict[str, Any]
"""An example's or a lesson step's canonical state: ``kind`` and its fields by name, each
made canonical by its field's type (:class:`ginview.fields.Field`). A kind reads its fields by
the names its ``fields`` list, so the state is a mapping by name rather than a TypedDict."""


class Entry(TypedDict):
    """A hand won on a score sheet: its winner (0 or 1), its points, ``boxes`` 2 for an
    Oklahoma hand whose box counts twice (left out when 1)."""

    winner: int
    points: int
    boxes: NotRequired[int]
