"""The YAML authors write (the ```gin fences, the lesson files): plain data, read with its lines.

Authors write mappings, lists, texts and numbers. The YAML features beyond them only ever
surprise an author, so they are refused with the line they are on, never read in a way the
author did not mean:

- anchors and aliases (``&a``, ``*a``, ``<<: *a``): a few lines of aliases can stand for
  billions of values, so a fence could take minutes and gigabytes to read or to quote;
- tags (``!!str``, ``!!binary``, ``!!set``): they make values no example or lesson holds;
- a key given twice in one mapping (which one did the author mean?).

Scalars are read as YAML 1.2 reads them, not as YAML 1.1: ``yes``, ``no``, ``on``, ``off`` are
texts (``rules: yes`` is the preset "yes", not True), ``010`` is ten, ``2024-01-01`` is a text;
only ``true``/``false`` are flags and only ``null``, ``~`` or nothing is no value.

>>> data = load("kind: melds\\nhand: AS 2S 3S\\nrules: yes\\n")
>>> data, data.line, data.lines["hand"]
({'kind': 'melds', 'hand': 'AS 2S 3S', 'rules': 'yes'}, 1, 2)
>>> load("a: &x [1]\\nb: *x\\n")
Traceback (most recent call last):
...
sitegen.strict_yaml.YamlError: line 1: anchors and aliases (&, *) are not allowed: write the value out
"""

from __future__ import annotations

import math
import re

import yaml
from yaml.events import AliasEvent, CollectionStartEvent, Event, ScalarEvent
from yaml.nodes import MappingNode, Node, ScalarNode


class YamlError(Exception):
    """Text that is not the plain YAML authors write; ``line`` is 1-based, in the text read."""

    def __init__(self, line: int, problem: str):
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


class Mapping(dict[object, object]):
    """A mapping as written: ``line``, where it starts; ``lines``, the line of each key."""

    line: int = 1
    lines: dict[object, int]


class _Loader(yaml.SafeLoader):
    # only those below (YAML 1.2's core schema, in short)
    yaml_implicit_resolvers: dict[str, list[tuple[str, re.Pattern[str]]]] = {}

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        event: Event = self.peek_event()  # type: ignore[no-untyped-call]  # untyped in the stubs
        line = event.start_mark.line + 1 if event.start_mark else 1
        if isinstance(event, AliasEvent) or getattr(event, "anchor", None) is not None:
            raise YamlError(line, "anchors and aliases (&, *) are not allowed: write the value out")
        tag = getattr(event, "tag", None)
        if isinstance(event, (ScalarEvent, CollectionStartEvent)) and tag not in (None, "!"):
            shown = tag.replace("tag:yaml.org,2002:", "!!")[:40]
            raise YamlError(line, f"tags like {shown} are not allowed: write the value alone")
        return super().compose_node(parent, index)

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> Mapping:
        mapping = Mapping()
        mapping.line, mapping.lines = node.start_mark.line + 1, {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=deep)
            line = key_node.start_mark.line + 1
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                raise YamlError(line, "a key must be a word or a number")
            if key in mapping.lines:
                raise YamlError(
                    line, f"{str(key)[:40]!r} is given twice (line {mapping.lines[key]} and here)"
                )
            mapping.lines[key] = line
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


def _resolver(tag: str, pattern: str, first: list[str]) -> None:
    _Loader.add_implicit_resolver(f"tag:yaml.org,2002:{tag}", re.compile(pattern), first)


_resolver("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF"))
_resolver("int", r"^[-+]?[0-9]+$", list("-+0123456789"))
_resolver("float", r"^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$", list("-+0123456789."))
_resolver("null", r"^(?:~|null|Null|NULL|)$", [*"~nN", ""])


def _text(loader: _Loader, node: ScalarNode) -> str:
    text = loader.construct_scalar(node)
    if not text.isascii() and any("\ud800" <= c <= "\udfff" for c in text):
        raise YamlError(
            node.start_mark.line + 1, "a lone surrogate (\\ud800 to \\udfff) is no text"
        )
    return text


MAX_DIGITS = 30
"""The longest number read (a card count, a score or a seed is far shorter)."""


def _number(loader: _Loader, node: ScalarNode) -> int | float:
    value: str = node.value
    number = float(value) if node.tag.endswith("float") else None
    if len(value) > MAX_DIGITS or (number is not None and not math.isfinite(number)):
        raise YamlError(node.start_mark.line + 1, f"{value[:20]}… is too long to be a number")
    return int(value) if number is None else number


_Loader.add_constructor("tag:yaml.org,2002:str", _text)
_Loader.add_constructor("tag:yaml.org,2002:int", _number)
_Loader.add_constructor("tag:yaml.org,2002:float", _number)
_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_mapping)


def load(text: str) -> object:
    """The data of one YAML document, mappings as :class:`Mapping`; a :class:`YamlError` names
    the line of anything that is not plain data, or not YAML at all."""
    try:
        return yaml.load(text, Loader=_Loader)  # a SafeLoader, narrowed further
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = " ".join(str(error.problem or error.context or "not YAML").split())
        column = f" (column {mark.column + 1})" if mark else ""
        raise YamlError(
            mark.line + 1 if mark else 1, f"not valid YAML: {problem}{column}"
        ) from None
    except yaml.YAMLError as error:
        raise YamlError(1, f"not valid YAML: {' '.join(str(error).split())}") from None
