"""Rule sets: every number of the game is a field, and each preset names its sources.

>>> RULESETS["standard"].undercut_bonus
25
>>> house = RULESETS["standard"].replace(undercut_bonus=20, box_bonus=20)
>>> house.undercut_bonus, house.name
(20, 'custom')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .errors import RuleError, quote, shown
from .vocab import RULE_FIELDS, RuleField

TIE_RULES = ("undercut", "knocker")
"""What a tie (defender's deadwood equals the knocker's) counts as."""

SHUTOUT_RULES = ("double_points", "double_game_bonus", "double_difference", "none")
"""How a shutout (the loser scored nothing) is rewarded:

- ``double_points``: the winner's hand points are doubled (Wikipedia, ginrummy.com);
- ``double_game_bonus``: the game bonus is doubled, 100 becomes 200 (Pagat, as copies of its text give it);
- ``double_difference``: the final difference between the players is doubled (pokerwiner, seed 000);
- ``none``: no shutout rule.
"""

NEXT_DEALER_RULES = ("alternate", "winner", "loser")
"""Who deals the next hand: the players take turns (Wikipedia, Parlett, the EAAI competition),
the winner of the hand deals (seed 000; pokerwiner's page does not say, so the pokerwiner
preset's winner-deals and same-dealer rules are the site's choice; Bicycle only for its four-player
Partnership Rummy; Pagat as rules files citing its current page give it, not confirmed: the page
itself not read, and older copies differ), or the loser deals (rummytalk.com, "The Art of the
Deal"; a program "based on the rules on Pagat.com")."""

VOID_DEAL_RULES = ("same", "next")
"""Who deals after a void hand (the stock ran down to 2 cards): the same dealer again (rubl.com,
the EAAI competition, copies of Pagat's page), or the deal passes to the other player, as after
any hand (Parlett, The Penguin Book of Card Games)."""

ACE_UPCARD_RULES = ("gin_only", "one")
"""Oklahoma with an ace upcard: only gin ends the hand (Bicycle; rummy-games.com and
rummyrulebook.com: "many players"),
or knock with 1 (ginrummy.cards; a Pagat copy)."""


NUMBER_RANGES: dict[RuleField, tuple[int, int]] = {
    "knock_limit": (0, 100),
    "gin_bonus": (0, 1000),
    "big_gin_bonus": (0, 1000),
    "undercut_bonus": (0, 1000),
    "game_target": (1, 10_000),
    "game_bonus": (0, 1000),
    "box_bonus": (0, 1000),
    "gin_boxes": (1, 5),
    "undercut_boxes": (1, 5),
    "hollywood_columns": (1, 10),
}
"""The numbers a rule set may hold: any sane house rule, and no more (a score sheet's work
grows with the target and the columns)."""


CHOICE_RULES: dict[RuleField, tuple[str, ...]] = {
    "tie": TIE_RULES,
    "shutout": SHUTOUT_RULES,
    "ace_upcard": ACE_UPCARD_RULES,
    "next_dealer": NEXT_DEALER_RULES,
    "void_deal": VOID_DEAL_RULES,
}
"""The rules that are a choice among names, and the names each allows."""

FLAG_RULES: tuple[RuleField, ...] = ("oklahoma", "spade_doubles", "spade_doubles_box")
"""The rules that are on or off."""


def _bad_rule(rule: str, value: Any, must: str, **params: Any) -> RuleError:
    """``bad_rule`` for a value a rule cannot take: ``"<must>, not <value>"``, the value cut
    to 40 characters in the message and the params alike."""
    quoted = quote(value)
    return RuleError("bad_rule", f"{must}, not {quoted}", rule=rule, value=quoted, **params)


def _check_known(names: Iterable[str]) -> None:
    unknown = sorted(str(name) for name in set(names).difference(RULE_FIELDS))
    if unknown:
        raise RuleError("unknown_rule", f"no rule called {unknown[0]!r}", rule=unknown[0])


@dataclass(frozen=True)
class RuleSet:
    """The numbers and choices of one way to play. Build house rules with :meth:`replace`."""

    name: str = "custom"
    knock_limit: int = 10
    gin_bonus: int = 25
    big_gin_bonus: int | None = 31
    """``None``: big gin is not played; an 11-card hand must discard first."""
    undercut_bonus: int = 25
    tie: str = "undercut"
    game_target: int = 100
    game_bonus: int = 100
    box_bonus: int = 25
    gin_boxes: int = 1
    """How many boxes a hand won by gin (or big gin) counts for at the end of the game."""
    undercut_boxes: int = 1
    """How many boxes a hand won by an undercut counts for at the end of the game."""
    shutout: str = "double_points"
    oklahoma: bool = False
    """The upcard's value sets the knock limit (pictures count 10)."""
    ace_upcard: str = "gin_only"
    spade_doubles: bool = False
    """Oklahoma: a spade upcard doubles the hand's score, its gin, big gin or undercut bonus
    included (Bicycle: "all scores accruing from that deal are doubled"); its box counts once
    unless ``spade_doubles_box``."""
    spade_doubles_box: bool = False
    """Oklahoma: a hand won with a spade upcard also counts as two boxes."""
    hollywood_columns: int = 3
    next_dealer: str = "alternate"
    """Who deals the next hand: one of :data:`NEXT_DEALER_RULES`."""
    void_deal: str = "same"
    """Who deals after a void hand: one of :data:`VOID_DEAL_RULES`."""
    sources: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        for name, (low, high) in NUMBER_RANGES.items():
            value = getattr(self, name)
            if value is None and name == "big_gin_bonus":
                continue
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise _bad_rule(
                    name,
                    value,
                    f"{name} must be a whole number from {low} to {high}"
                    + (" or None" if name == "big_gin_bonus" else ""),
                    low=low,
                    high=high,
                )
        for name in FLAG_RULES:
            if not isinstance(getattr(self, name), bool):
                raise _bad_rule(name, getattr(self, name), f"{name} must be true or false")
        if not isinstance(self.name, str) or not self.name:
            raise _bad_rule("name", self.name, "a rule set's name must be a text")
        for name, allowed in CHOICE_RULES.items():
            value = getattr(self, name)
            if not isinstance(value, str) or value not in allowed:
                raise RuleError(
                    "bad_rule",
                    f"{name} must be one of {', '.join(allowed)}, not {shown(value)}",
                    rule=name,
                    value=quote(value),
                )
        sources = self.sources
        if not isinstance(sources, (tuple, list)) or not all(isinstance(s, str) for s in sources):
            raise RuleError(
                "bad_rule", "sources must be a list of texts", rule="sources", value=quote(sources)
            )
        object.__setattr__(self, "sources", tuple(sources))

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed; it is named ``custom`` unless a name is given (not
        a preset's: a rule set named like a preset is that preset, in JSON)."""
        _check_known(changes)
        changes.setdefault("name", "custom")
        if not isinstance(changes["name"], str):
            raise _bad_rule("name", changes["name"], "a rule set's name must be a text")
        if changes["name"] in RULESETS:
            raise RuleError(
                "bad_rule",
                f"{changes['name']!r} is a preset's name: give house rules another",
                rule="name",
                value=changes["name"],  # a preset's name: short, and a str
            )
        if changes["name"] == "custom":
            changes.setdefault("sources", ())
        return dataclasses.replace(self, **changes)

    def knock_limit_for(self, upcard: Card | None = None) -> int:
        """The most deadwood a knock may have: the fixed limit, or in Oklahoma the upcard's value."""
        if not self.oklahoma:
            return self.knock_limit
        if upcard is None:
            raise RuleError("upcard_required", "Oklahoma needs the upcard to set the knock limit")
        if upcard.rank == 1 and self.ace_upcard == "gin_only":
            return 0
        return upcard.value

    def multiplier(self, upcard: Card | None = None) -> int:
        """2 when a spade upcard doubles the hand (Oklahoma), else 1."""
        if self.oklahoma and self.spade_doubles and upcard is not None and upcard.suit == "S":
            return 2
        return 1

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["sources"] = list(self.sources)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RuleSet:
        """A rule set from JSON, as :meth:`to_json` writes it: a preset by name, with any other
        keys as changes (``{"name": "pagat", "gin_bonus": 30}``; no name: the standard
        preset); under any other name, a whole rule set, the fields left out as in the
        standard one. The preset itself when nothing changes.

        >>> RuleSet.from_json({"name": "pagat", "gin_bonus": 20}) is RULESETS["pagat"]
        True
        >>> custom = RULESETS["pagat"].replace(gin_bonus=30)
        >>> RuleSet.from_json(custom.to_json()) == custom
        True
        """
        if not isinstance(data, dict):
            raise _bad_rule("rules", data, "rules must be an object")
        _check_known(data)
        fields = {k: v for k, v in data.items() if k != "sources"}
        name = fields.pop("name", "standard")
        if isinstance(name, str) and name in RULESETS:
            base = RULESETS[name]
            # 25.0 is not 25, nor True 1: a number of another type is a change (and refused)
            changed = {k: v for k, v in fields.items() if not _same(getattr(base, k), v)}
            return base.replace(**changed) if changed else base
        sources = data.get("sources", [])
        if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
            raise RuleError(
                "bad_rule",
                "sources must be a list of texts",
                rule="sources",
                value=quote(sources),
            )
        return cls(name=name, sources=tuple(sources), **fields)


def _same(old: object, new: object) -> bool:
    """The same value, of the same type (JSON's 25.0 and true are not the numbers 25 and 1)."""
    return type(old) is type(new) and old == new


def get_rules(rules: str | RuleSet | dict[str, Any]) -> RuleSet:
    """A :class:`RuleSet` from a preset name, a RuleSet, or a JSON object."""
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, dict):
        return RuleSet.from_json(rules)
    try:
        return RULESETS[rules]
    except (KeyError, TypeError):
        raise RuleError(
            "unknown_rules",
            f"no rule preset called {shown(rules)}; choose one of {', '.join(RULESETS)}",
            rules=quote(rules),
        ) from None


if tuple(f.name for f in dataclasses.fields(RuleSet)) != RULE_FIELDS:
    raise ImportError("ginrummy.vocab.RuleField must name RuleSet's fields, in order")

RULESETS: dict[str, RuleSet] = {
    "standard": RuleSet(
        name="standard",
        # Wikipedia: the deal alternates; rubl.com and the EAAI competition: the same dealer
        # deals again after a void hand
        sources=("en.wikipedia.org", "ginrummy.com", "MobilityWare"),
    ),
    "pagat": RuleSet(
        name="pagat",
        gin_bonus=20,
        big_gin_bonus=None,
        undercut_bonus=10,
        box_bonus=20,
        shutout="double_game_bonus",
        next_dealer="winner",
        # The numbers as copies of Pagat's page give them (pagat.com/rummy/ginrummy.html could not
        # be read while this was written). next_dealer is NOT CONFIRMED, and the copies disagree.
        # For the winner: three rules files in code repositories that cite the current page (one
        # "© 1996–2024" quoting "the dealer is the winner of the previous hand" and "Some books
        # give the rule that the loser of each hand deals the next"; one "fetched directly" in
        # 2026), and a fourth that calls alternate deals a variation the page allows. Against:
        # a close paraphrase (lasvegascardgames.com: "dealing rotates among the players"), a
        # scraped page carrying "Many books give the rule that the winner of each hand deals the
        # next", and a program "based on the rules on Pagat.com" where the loser deals. The
        # paraphrase and the scraped page may follow an older version, so the winner is kept
        # until Pagat's own page can be read (variants/compared.md says so). The same dealer
        # again after a void hand: copies.
        sources=("pagat.com",),
    ),
    "pokerwiner": RuleSet(
        name="pokerwiner",
        big_gin_bonus=None,
        undercut_bonus=20,
        box_bonus=20,
        shutout="double_difference",
        next_dealer="winner",
        # Also the numbers of the project's Romanian source text (seed 000), which follows it.
        sources=("pokerwiner.com",),
    ),
    "oklahoma": RuleSet(
        name="oklahoma",
        # the deal as in the standard game: in turn, the same dealer again after a void hand
        oklahoma=True,
        spade_doubles=True,
        game_target=150,
        # Bicycle: an ace upcard means gin only, a spade upcard doubles; game to 150:
        # rummyrulebook.com, freegambling.org.
        sources=("Bicycle", "rummyrulebook.com", "freegambling.org"),
    ),
}
"""The named presets. ``standard`` is the site's default."""
