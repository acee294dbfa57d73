"""Rule numbers in the text: ``{{ standard.undercut_bonus }}`` becomes ``25``.

Pages never type a preset's number by hand: they name it, and the build fills it in from
``ginrummy.RULESETS``, so changing a preset changes every page that quotes it. Only a preset's
numbers (and its named choices: the tie, shutout and dealing rules) may be named; anything else stops
the build with the file and the line.
"""

from __future__ import annotations

import dataclasses
import re

from ginrummy import RULESETS, RuleSet
from ginview.catalog import Catalog
from ginview.markup import rule_value

from . import BuildError

MACRO = re.compile(r"\{\{\s*(\w+)\.(\w+)\s*\}\}")
CHOICES = ("tie", "shutout", "next_dealer", "void_deal")
FIELDS = tuple(
    f.name
    for f in dataclasses.fields(RuleSet)
    if f.type in ("int", "int | None") or f.name in CHOICES
)
"""The preset fields a page may quote: the numbers, and the named choices."""


def expand(markdown: str, where, catalog: Catalog) -> str:
    """Replace every ``{{ preset.field }}`` in a page; ``where(offset)`` names the place of a
    bad one ("file:line")."""

    def replace(match: re.Match) -> str:
        preset, field = match.group(1), match.group(2)
        if preset not in RULESETS:
            raise BuildError(
                f"{where(match.start())}: no rule preset {preset!r} "
                f"(use one of {', '.join(RULESETS)})"
            )
        if field not in FIELDS:
            raise BuildError(
                f"{where(match.start())}: {field!r} is not a number of the rules; "
                f"a page may quote {', '.join(FIELDS)}"
            )
        return rule_value(preset, field, catalog)

    return MACRO.sub(replace, markdown)
