"""The shapes of the values ginview passes around, where the engine's own classes do not hold
them: the JSON the engine's API answers, an example's state, a score sheet's entry.

The engine's API (``ginrummy.api``) types its requests and answers as ``dict[str, Any]``:
ginview reads them as the engine wrote them, so :data:`JsonObject` is that same type. What a
reader or a file wrote is read as ``object`` and narrowed, in :mod:`ginview.fields`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, Required, TypedDict

JsonObject = dict[str, Any]
"""A JSON object from (or for) the engine's API, as ``ginrummy.api`` types it: its values are
what the engine wrote, so they are read without checks."""

Written = Mapping[str, object]
"""An example or a step as written (a fence, a lesson, a reader's edit, a share link): read
into its canonical state by its fields' types."""


class Entry(TypedDict):
    """A hand won on a score sheet: its winner (0 or 1), its points, ``boxes`` 2 for an
    Oklahoma hand whose box counts twice (left out when 1)."""

    winner: int
    points: int
    boxes: NotRequired[int]


class ExampleState(TypedDict, total=False):
    """An example's canonical state: its ``kind`` and the fields that kind has
    (:data:`ginview.examples.KINDS`), each made canonical by its field's type."""

    kind: Required[str]
    hand: str
    knocker: str
    defender: str
    upcard: str
    knocker_melds: list[str]
    entries: list[Entry]
    rules: str
    deal: dict[str, object]
    moves: list[str]


class StepState(TypedDict, total=False):
    """A lesson step's canonical fields: its kind (``ask``), its ``id``, the stated ``answer``
    and the fields its kind has (:data:`ginview.steps.STEPS`), without its message ids."""

    ask: Required[str]
    id: object  # a lesson's step has one, checked by the lesson reader (sitegen.lessons)
    answer: int | str
    hand: str
    knocker: str
    defender: str
    upcard: str
    knocker_melds: list[str]
    entries: list[Entry]
    find: str
    format: str
    rules: str
    deal: dict[str, object]
    moves: list[str]
    choices: list[str]
