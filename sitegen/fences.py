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

import yaml
from ginrummy.errors import GinRummyError
from ginview.catalog import Catalog
from ginview.examples import example_html, render
from ginview.play import page_html as play_html

from . import BuildError

FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```gin[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.MULTILINE | re.DOTALL,
)


class ExampleError(BuildError):
    """A bad example in a page: the message names the file, the line and the problem."""


def read_fence(body: str, where: str) -> dict:
    """The example written in a fence body, as a mapping; ``where`` is "file:line"."""
    try:
        data = yaml.safe_load(body)
    except yaml.YAMLError as error:
        raise ExampleError(
            f"{where}: the example is not valid YAML: {' '.join(str(error).split())}"
        ) from None
    if not isinstance(data, dict) or "kind" not in data:
        raise ExampleError(f"{where}: an example is a mapping with a 'kind' and its fields")
    return data


def render_page(markdown: str, where, catalog: Catalog) -> tuple[str, int]:
    """Replace every ```gin fence in a page with its example; ``where(offset)`` names the
    place of a bad one ("file:line"). Returns the page and how many examples it has."""
    count = 0

    def replace(match: re.Match) -> str:
        nonlocal count
        place = where(match.start())
        data = read_fence(match.group("body"), place)
        if data == {"kind": "play"}:  # the play page's game (ginview.play), not an example
            count += 1
            return match.group("indent") + play_html(catalog)
        try:
            rendered = render(data, catalog)
        except GinRummyError as error:
            raise ExampleError(f"{place}: {error}") from None
        count += 1
        return match.group("indent") + example_html(rendered, catalog)

    return FENCE.sub(replace, markdown), count
