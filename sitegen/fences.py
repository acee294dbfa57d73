"""Live examples in pages: a ```gin fence becomes a complete example, drawn at build time.

An example is written in any language's Markdown as a fenced block whose body is YAML::

    ```gin
    kind: score
    knocker: 2S 3S 4S 7H 7D 7C 9C TC JC 5D
    defender: 8S 9S TS KH KD 4H 6C 6H 2C AD
    rules: standard
    ```

A fence holding only ``kind: play`` is the play page's game (:mod:`ginview.play`). The kinds
and their fields are the presentation layer's (:data:`ginview.examples.KINDS`). The
build reads the fence, makes it canonical, asks the engine and writes the example's markup in
the page's language (:func:`ginview.examples.example_html`): a reader without JavaScript gets
the whole example. A bad card, a misspelt field, a wrong count or an illegal knock stops the
build with the file, the line and the problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from ginrummy.errors import GinRummyError
from ginview.catalog import Catalog
from ginview.examples import example_html, render
from ginview.play import page_html as play_html

from . import BuildError, strict_yaml

OPENER = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)$")
"""A line that opens a fenced block, CommonMark's way: three or more backticks or tildes, then
the info string (its first word is the language)."""
PLAY = {"kind": "play"}
"""The one fence that is not an example: the play page's game (:mod:`ginview.play`)."""


class ExampleError(BuildError):
    """A bad example in a page: the message names the file, the line and the problem."""


@dataclass(frozen=True)
class Fence:
    """A fenced block of a page: where it starts and ends (offsets of its first line and just
    past its closing line, without that line's newline), its indent, fence and info string,
    and its body with the offset where the body starts; ``closed`` is False when nothing
    closes it (it runs to the end of the page)."""

    start: int
    end: int
    indent: str
    fence: str
    info: str
    body: str
    body_start: int
    closed: bool

    @property
    def gin(self) -> bool:
        """The author meant a live example: the fence's language is gin, in any case."""
        words = self.info.split()
        return bool(words) and words[0].lower() == "gin"


def fences(markdown: str) -> Iterator[Fence]:
    """Every fenced block of a page, of any language, in order. A fence is closed by a line of
    the same character, at least as long, and nothing else; what a fence holds is its body,
    never another fence (a ```gin shown inside a ````markdown fence is text)."""
    lines = markdown.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    number = 0
    while number < len(lines):
        opened = OPENER.match(lines[number].rstrip("\r\n"))
        if not opened or (opened.group("fence")[0] == "`" and "`" in opened.group("info")):
            number += 1
            continue
        fence = opened.group("fence")
        closer = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        close = next(
            (n for n in range(number + 1, len(lines)) if closer.match(lines[n].rstrip("\r\n"))),
            None,
        )
        last = close if close is not None else len(lines)
        yield Fence(
            start=starts[number],
            end=starts[last] + len(lines[last].rstrip("\r\n"))
            if close is not None
            else len(markdown),
            indent=opened.group("indent"),
            fence=fence,
            info=opened.group("info").strip(),
            body="".join(lines[number + 1 : last]),
            body_start=starts[number + 1],
            closed=close is not None,
        )
        number = last + 1


def _hidden_example(fence: Fence) -> int | None:
    """The offset of a line in a fence's body that opens a gin example with the same fence
    (or a longer one), if any: the fence around it was surely left open by mistake (a fence
    shown as text inside another is written inside a longer one: ````markdown)."""
    offset = fence.body_start
    for line in fence.body.splitlines(keepends=True):
        inner = OPENER.match(line.rstrip("\r\n"))
        if (
            inner
            and inner.group("fence")[0] == fence.fence[0]
            and len(inner.group("fence")) >= len(fence.fence)
            and inner.group("info").split()[:1] == ["gin"]
        ):
            return offset
        offset += len(line)
    return None


def read_fence(
    body: str, where: Callable[[int], str], start: int = 0, opener: int | None = None
) -> dict[str, object]:
    """The example written in a fence body, as a mapping (:class:`strict_yaml.Mapping`, with
    its lines). ``where(offset)`` names a place of the page ("file:line"); ``start`` is the
    body's offset in the page, so that a YAML error is named by its own line in the file, and
    ``opener`` the fence's (default: the body's)."""
    try:
        data = strict_yaml.load(body)
    except strict_yaml.YamlError as error:
        raise ExampleError(
            f"{where(_line_offset(body, start, error.line))}: the example is {error.problem}"
        ) from None
    if not isinstance(data, dict) or "kind" not in data:
        raise ExampleError(
            f"{where(start if opener is None else opener)}: an example is a mapping with a "
            "'kind' and its fields"
        )
    return data


def _line_offset(body: str, start: int, line: int) -> int:
    """The offset in the page of line ``line`` (1-based) of a body that starts at ``start``."""
    return start + sum(len(text) for text in body.splitlines(keepends=True)[: line - 1])


def _place(fence: Fence, data: Mapping[str, object], field: object) -> int:
    """Where an error about ``field`` is: the line of that field in the fence, or the fence's
    opening line (a problem of the whole example, or of a field nested in another)."""
    line: int | None = getattr(data, "lines", {}).get(field)
    return fence.start if line is None else _line_offset(fence.body, fence.body_start, line)


def render_page(markdown: str, where: Callable[[int], str], catalog: Catalog) -> tuple[str, int]:
    """Replace every ```gin fence in a page with its example; ``where(offset)`` names the place of
    a bad one ("file:line"): the line of the field at fault, or the fence's own line. Returns
    the page and how many examples it has.

    A fence whose language is gin is an example whatever its fence (``~~~gin``, four
    backticks); one with more than ``gin`` on its opening line stops the build, as does any
    fence left open (it would hide the examples after it)."""
    out, done, count = [], 0, 0
    for fence in fences(markdown):
        opener = markdown[fence.start : fence.body_start].strip()
        if not fence.closed:
            raise ExampleError(
                f"{where(fence.start)}: the fence {opener[:40]!r} is never closed: end it with "
                f"a line of {fence.fence}"
            )
        if not fence.gin:
            hidden = _hidden_example(fence)
            if hidden is not None:
                raise ExampleError(
                    f"{where(hidden)}: this ```gin is inside the fence {opener[:40]!r} opened "
                    f"on line {where(fence.start).rpartition(':')[2]}: close that fence first"
                )
            continue
        if fence.info != "gin":
            raise ExampleError(
                f"{where(fence.start)}: an example's fence is {fence.fence}gin alone, not "
                f"{opener[:40]!r}"
            )
        data = read_fence(fence.body, where, fence.body_start, fence.start)
        if data.get("kind") == PLAY["kind"]:  # the play page's game (ginview.play), not an example
            extra = sorted((str(k) for k in data if k != "kind"), key=str)
            if extra:
                raise ExampleError(
                    f"{where(_place(fence, data, extra[0]))}: the play fence holds "
                    f"'kind: play' alone; it has no field {extra[0][:40]!r}"
                )
            html = play_html(catalog)
        else:
            try:
                html = example_html(render(data, catalog), catalog)
            except GinRummyError as error:
                place = where(_place(fence, data, error.params.get("field")))
                raise ExampleError(f"{place}: {error}") from None
        count += 1
        out += [markdown[done : fence.start], fence.indent, html]
        done = fence.end
    return "".join(out) + markdown[done:], count
