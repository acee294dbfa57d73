"""Rule numbers in the text: ``{{ standard.undercut_bonus }}`` becomes ``25``.

Pages never type a preset's number by hand: they name it, and the build fills it in from
``ginrummy.RULESETS``, so changing a preset changes every page that quotes it. A name that
does not exist stops the build with the file and the line.
"""

from __future__ import annotations

import re

from ginrummy import RULESETS

from . import BuildError
from .catalogs import Catalog

MACRO = re.compile(r"\{\{\s*(\w+)\.(\w+)\s*\}\}")


def rule_value(preset: str, field: str, catalog: Catalog, where: str) -> str:
    """One preset number as text in the page's language."""
    if preset not in RULESETS:
        raise BuildError(f"{where}: no rule preset {preset!r} (use one of {', '.join(RULESETS)})")
    rules = RULESETS[preset]
    if not hasattr(rules, field) or field in ("name", "sources"):
        raise BuildError(f"{where}: the {preset} rules have no number {field!r}")
    value = getattr(rules, field)
    if field == "knock_limit" and rules.oklahoma:
        return catalog.text("rule.upcard_limit")
    if value is None:
        return catalog.text("rule.no_big_gin")
    if field in ("tie", "shutout"):
        return catalog.text(f"{field}.{value}")
    return str(value)


def expand(markdown: str, path: str, catalog: Catalog) -> str:
    """Replace every ``{{ preset.field }}`` in a page."""

    def replace(match: re.Match) -> str:
        line = markdown.count("\n", 0, match.start()) + 1
        return rule_value(match.group(1), match.group(2), catalog, f"{path}:{line}")

    return MACRO.sub(replace, markdown)
