"""Whether and how a hand may end: big gin, gin, a knock, or not yet. The one place these rules
live: :func:`~ginrummy.scoring.score_hand`, the turn-by-turn hand (:mod:`ginrummy.hand`) and the
JSON ``knock`` op all ask here.

- **Big gin**: all 11 cards meld, no discard; only when ``rules.big_gin_bonus`` is not None.
- **Gin**: the 10 cards kept after the discard all meld (deadwood 0).
- **Knock**: their deadwood is at most the knock limit, ``rules.knock_limit_for(upcard)``:
  ``knock_limit``, or in Oklahoma the upcard's value, and with an ace upcard under
  ``ace_upcard="gin_only"`` the limit is 0, so only gin ends the hand.

>>> from ginrummy import RULESETS, Card
>>> verdict(5, RULESETS["standard"])
Verdict(kind='knock', deadwood=5, limit=10)
>>> verdict(5, RULESETS["oklahoma"], Card.parse("3D")).kind
'no'
>>> verdict(0, RULESETS["pagat"], big_gin=True).kind  # Pagat plays no big gin
'gin'
>>> check_ending("knock", 1, RULESETS["oklahoma"], Card.parse("AH"))
Traceback (most recent call last):
...
ginrummy.errors.RuleError: with an ace upcard only gin ends the hand, not deadwood 1
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .errors import RuleError, shown, whole_number
from .rules import RuleSet
from .vocab import ENDINGS, VERDICTS, VerdictKind

__all__ = ["ENDINGS", "VERDICTS", "Verdict", "check_ending", "verdict"]


@dataclass(frozen=True)
class Verdict:
    """How a hand may end: ``kind`` is one of :data:`VERDICTS`; ``deadwood`` is the deadwood it
    was judged on and ``limit`` the knock limit that applies."""

    kind: VerdictKind
    deadwood: int
    limit: int


def verdict(
    deadwood: int, rules: RuleSet, upcard: Card | None = None, *, big_gin: bool = False
) -> Verdict:
    """The best way a hand may end. ``deadwood``: the deadwood of the 10 cards kept after the
    discard; ``big_gin``: all 11 cards meld. Raises ``RuleError("upcard_required")`` in Oklahoma
    without an upcard (it sets the knock limit)."""
    if not whole_number(deadwood) or deadwood < 0:
        raise RuleError(
            "bad_setting",
            f"deadwood must be a whole number of points, not {shown(deadwood)}",
            setting="deadwood",
            value=shown(deadwood),
        )
    limit = rules.knock_limit_for(upcard)
    kind: VerdictKind
    if big_gin and rules.big_gin_bonus is not None:
        kind = "big_gin"
    elif deadwood == 0:
        kind = "gin"
    elif deadwood <= limit:
        kind = "knock"
    else:
        kind = "no"
    return Verdict(kind, deadwood, limit)


def check_ending(claim: str, deadwood: int, rules: RuleSet, upcard: Card | None = None) -> Verdict:
    """The verdict on a player's claim to end the hand, or the coded :class:`RuleError` that
    refuses it.

    ``claim`` is ``"knock"`` or ``"gin"``, with ``deadwood`` that of the 10 cards kept (a knock
    with deadwood 0 is gin: the verdict says ``"gin"``), or ``"big_gin"``, with ``deadwood`` that
    of all 11 cards. Errors (``code``: ``params``): ``big_gin_not_played``: ``rules`` (the rules'
    name); ``not_big_gin``, ``not_gin``: ``deadwood``; ``gin_required`` (Oklahoma, ace upcard):
    ``deadwood``, ``upcard``; ``knock_over_limit``: ``deadwood``, ``limit``.
    """
    if not isinstance(claim, str) or claim not in ENDINGS:
        raise RuleError(
            "bad_claim",
            f"a hand ends by {', '.join(ENDINGS)}, not {shown(claim)}",
            claim=shown(claim),
        )
    if claim == "big_gin":
        found = verdict(deadwood, rules, upcard, big_gin=deadwood == 0)
        if found.kind == "big_gin":
            return found
        if rules.big_gin_bonus is None:
            raise RuleError(
                "big_gin_not_played",
                f"the {rules.name} rules have no big gin: discard one card",
                rules=rules.name,
            )
        raise RuleError(
            "not_big_gin",
            f"big gin needs all 11 cards melded, not deadwood {deadwood}",
            deadwood=deadwood,
        )
    found = verdict(deadwood, rules, upcard)
    if claim == "gin" and found.kind != "gin":
        raise RuleError("not_gin", f"gin needs deadwood 0, not {deadwood}", deadwood=deadwood)
    if found.kind == "no":
        if found.limit == 0 and rules.oklahoma:
            raise RuleError(
                "gin_required",
                f"with an ace upcard only gin ends the hand, not deadwood {deadwood}",
                deadwood=deadwood,
                upcard=str(upcard),
            )
        raise RuleError(
            "knock_over_limit",
            f"deadwood {deadwood} is over the knock limit {found.limit}",
            deadwood=deadwood,
            limit=found.limit,
        )
    return found
