"""Rule numbers in the text: ``{{ standard.undercut_bonus }}`` becomes ``25``.

Pages never type a preset's number by hand: they name it, and the build fills it in from
``ginrummy.RULESETS``, so changing a preset changes every page that quotes it. Only a preset's
numbers (and its named choices: the tie, shutout and dealing rules) may be named; anything else
stops the build with the file and the line, and so does any ``{{`` or ``}}`` left that is not a
macro (a misspelt one, a brace missing), which would otherwise be printed as it is.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from ginrummy import RULESETS, RuleSet
from ginrummy.vocab import RuleField
from ginview.catalog import Catalog
from ginview.markup import rule_value

from . import BuildError

MACRO = re.compile(r"\{\{\s*(\w+)\.(\w+)\s*\}\}")
BRACES = re.compile(r"\{\{|\}\}")
"""What is left of a macro that is not one: ``{{ standard.gin-bonus }}``, ``{{ pagat.box }``."""
CHOICES: tuple[RuleField, ...] = ("tie", "shutout", "next_dealer", "void_deal")
FIELDS = tuple(
    f.name
    for f in dataclasses.fields(RuleSet)
    if f.type in ("int", "int | None") or f.name in CHOICES
)
"""The preset fields a page may quote: the numbers, and the named choices."""
SHORT = ("tie_short", "shutout_short")
"""A choice in its short form, the words after its label in a rules line ("Tie: counts as an
undercut"), for a page's own such lines."""


def _around(markdown: str, brace: re.Match[str]) -> tuple[int, str]:
    """The would-be macro around a stray ``{{`` or ``}}``: where it starts, and its text from
    its opening brace to its closing one, on its line, cut to 40 characters."""
    line_start = markdown.rfind("\n", 0, brace.start()) + 1
    line = markdown[line_start:].split("\n", 1)[0]
    at = brace.start() - line_start
    if brace.group() == "{{":
        close = line.find("}", at)
        end = close + 1 + line[close + 1 : close + 2].count("}") if close >= 0 else len(line)
    else:
        at, end = max(line.rfind("{", 0, at), 0), at + 2
    shown = line[at:end]
    return line_start + at, shown if len(shown) <= 40 else shown[:39] + "…"


def expand(
    markdown: str, where: Callable[[int], str], catalog: Catalog, written: bool = True
) -> str:
    """Replace every ``{{ preset.field }}`` in a page; ``where(offset)`` names the place of a
    bad one ("file:line"). In a page an author ``written`` (not one the build generated, whose
    data attributes may hold ``}}``), any other ``{{`` or ``}}`` is a bad one."""

    def replace(match: re.Match[str]) -> str:
        preset, field = match.group(1), match.group(2)
        if preset not in RULESETS:
            raise BuildError(
                f"{where(match.start())}: no rule preset {preset!r} "
                f"(use one of {', '.join(RULESETS)})"
            )
        if field in SHORT:
            return rule_value(preset, field.removesuffix("_short"), catalog, short=True)
        if field not in FIELDS:
            raise BuildError(
                f"{where(match.start())}: {field!r} is not a number of the rules; "
                f"a page may quote {', '.join(FIELDS + SHORT)}"
            )
        return rule_value(preset, field, catalog)

    expanded = MACRO.sub(replace, markdown)
    left = written and BRACES.search(MACRO.sub(lambda m: " " * len(m.group()), markdown))
    if left:
        start, shown = _around(markdown, left)
        raise BuildError(
            f"{where(start)}: {shown!r} is not a rule number: write one as {{{{ preset.field }}}}, "
            "like {{ standard.gin_bonus }}"
        )
    return expanded
