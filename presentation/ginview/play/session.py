"""A game on the play page as the browser keeps it: :class:`Session`, its JSON codec, and the
game links that deal a game again.

The browser stores a session as JSON and sends it back with each move; :meth:`Session.from_json`
reads it back checked field by field, and a stored game that does not hold together is refused
as ``bad_session`` naming its field (never a bare exception): the page says so and keeps the
damaged copy.

A game link is the URL fragment that deals a game again from its first move:
``seed=7&rules=standard&level=beginner`` (``&format=hollywood`` for Hollywood scoring; a rule
set that is not a preset adds its changes to the nearest one, ``&gin_bonus=30``).

>>> read_link("seed=7&level=strong")["seed"], link(new_session(7, "pagat", "strong"))
(7, 'seed=7&rules=pagat&level=strong')
>>> link(new_session(7, RULESETS["pagat"].replace(gin_bonus=30), "beginner"))
'seed=7&rules=pagat&level=beginner&gin_bonus=30'
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from ginrummy import RULESETS, Card
from ginrummy.advice import Evaluation, check_lay_off_plan
from ginrummy.bots import LEVELS
from ginrummy.errors import GinRummyError
from ginrummy.hand import Action
from ginrummy.match import MAX_SEED, Game, game_from_json, new_game
from ginrummy.rules import RuleSet

from ..examples import ExampleError

YOU, BOT = 0, 1
"""The reader plays player 0, the computer player 1."""
VERSION = 2


class Start(TypedDict):
    seed: int
    rules: str
    level: str
    format: str


START: Start = {"seed": 1, "rules": "standard", "level": "beginner", "format": "standard"}
"""The game a first visit plays, drawn into the page by the build (so the deal seen before the
engine is live is the deal then played), and the defaults of a game link."""
MAX_LOG = 5000
"""The most decisions a stored game may have judged (a long game has a few hundred)."""
MAX_CHOICES = 64
"""The most choices a stored ranking may hold (a discard turn has at most 34)."""
MAX_REASONS = 40
OLD_MISTAKE = 1.0
"""A decision judged before the coach said whether it was a mistake: one that cost a point."""
MAX_LINK = 400


def bad_session(field: str, message: str = "") -> ExampleError:
    return ExampleError(
        "bad_session", message or f"the stored game's {field} is spoiled", field=field
    )


@dataclass(frozen=True)
class Judged:
    """A decision of the reader's that the coach judged: ``cost`` is what it lost against
    ``best`` (in hand points' worth of the chance of winning); ``mistake``: by the coach's rule
    (beyond the margin its uncertainty supports); ``why`` the reason the best was better (a
    coach's reason: a code with parameters), for a mistake; ``top`` the top of the discard
    pile then (a take names it)."""

    hand: int
    action: Action
    best: Action
    cost: float
    why: dict[str, Any] | None = None
    top: Card | None = None
    mistake: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "hand": self.hand,
            "action": self.action.to_json(),
            "best": self.best.to_json(),
            "cost": self.cost,
        }
        if self.why is not None:
            data["why"] = self.why
        if self.top is not None:
            data["top"] = str(self.top)
        data["mistake"] = self.mistake
        return data


@dataclass(frozen=True)
class Session:
    """Everything the page keeps of a game.

    - ``game``: the engine's game; ``level``: the computer's; ``coach``: on or off.
    - ``log``: the decisions the coach judged, for its verdicts and the review.
    - ``plan``: the lay-offs the reader made so far as defender (card, meld number).
    - ``advice``: the coach's ranking of the decision at ``advice["at"]`` (once asked for, or
      worked out while the reader thinks), so that the move played next is judged by it;
      ``hint``: the reader asked to see it.
    - ``knocking``: the reader pressed Knock (the next card pressed is the knock's discard);
      ``knock_card``: the card chosen, when the melds can be laid out more than one way.
    - ``order``: the reader's own order of their cards (dragged); ``first``: the game a first
      visit plays (the page invites the reader to choose the computer's level).
    """

    game: Game
    level: str = START["level"]
    coach: bool = True
    log: tuple[Judged, ...] = ()
    plan: tuple[tuple[Card, int], ...] = ()
    advice: dict[str, Any] | None = None
    hint: bool = False
    knocking: bool = False
    knock_card: Card | None = None
    order: tuple[Card, ...] = ()
    first: bool = False

    def replace(self, **changes: Any) -> Session:
        return dataclasses.replace(self, **changes)

    def moved(self, game: Game) -> Session:
        """The session after a move in the game: what belonged to the decision is over."""
        return self.replace(game=game, hint=False, knocking=False, knock_card=None)

    def to_json(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "game": game_json(self.game),
            "level": self.level,
            "coach": self.coach,
            "log": [entry.to_json() for entry in self.log],
            "plan": [{"card": str(card), "meld": meld} for card, meld in self.plan],
            "advice": self.advice,
            "hint": self.hint,
            "knocking": self.knocking,
            "knock_card": None if self.knock_card is None else str(self.knock_card),
            "order": " ".join(str(card) for card in self.order),
            "first": self.first,
        }

    @classmethod
    def from_json(cls, data: object) -> Session:
        """A stored session, checked: ``bad_session`` naming the first field that is spoiled.
        A session of the first version (before the table) is read too."""
        if not isinstance(data, dict):
            raise bad_session("session", "a stored game is an object")
        version = data.get("v")
        fields = V1_FIELDS if version == 1 and type(version) is int else FIELDS
        if type(version) is not int or version not in (1, VERSION):
            raise bad_session("v", "not a stored game of this site")
        if set(data) != fields:
            raise bad_session(sorted(set(data) ^ fields)[0], "a stored game has other fields")
        try:
            game = game_from_json(data["game"])
        except (GinRummyError, TypeError, ValueError, KeyError, IndexError, AttributeError):
            # the engine's coded errors; anything else is a game spoiled in a way it missed
            raise bad_session("game", "the game does not hold together") from None
        level = data["level"]
        if not isinstance(level, str) or level not in LEVELS:
            raise bad_session("level")
        session = cls(
            game,
            level,
            _flag(data, "coach"),
            _log(data["log"]),
            _plan(data["plan"], game),
            _advice(data["advice"]),
        )
        if version == 1:
            return session
        knock_card = _card(data["knock_card"], "knock_card", game, optional=True)
        if knock_card is not None and not _flag(data, "knocking"):
            raise bad_session("knock_card", "a card for a knock, but no knock")
        return session.replace(
            hint=_flag(data, "hint"),
            knocking=_flag(data, "knocking"),
            knock_card=knock_card,
            order=_order(data["order"]),
            first=_flag(data, "first"),
        )


def game_json(game: Game) -> dict[str, Any]:
    """The game as stored: without what the engine works out again when it reads it back (the
    sheet, the hand's score), so a long game stays small."""
    data = {k: v for k, v in game.to_json().items() if k not in ("sheet", "finished", "number")}
    data["hand"] = {k: v for k, v in data["hand"].items() if k != "result"}
    return data


FIELDS = {f.name for f in dataclasses.fields(Session)} | {"v"}
JUDGED_FIELDS = {f.name for f in dataclasses.fields(Judged)}
V1_FIELDS = {"v", "game", "level", "coach", "log", "plan", "selected", "advice"}
"""A session as the page stored it before the table (``selected`` is no longer used)."""


def new_session(
    seed: int,
    rules: str | RuleSet,
    level: str,
    coach: bool = True,
    format: str = "standard",
    first: bool = False,
) -> Session:
    """A new game against ``level`` with the deals of ``seed``, scored as one game or as
    Hollywood (``format``); the computer has not played yet."""
    if isinstance(rules, str) and rules not in RULESETS:
        raise ExampleError(
            "unknown_rules", f"no rules {rules[:40]!r}", rules=rules[:40], presets=list(RULESETS)
        )
    if not isinstance(level, str) or level not in LEVELS:
        raise ExampleError("unknown_level", f"no level {str(level)[:40]!r}", level=str(level)[:40])
    return Session(new_game(rules, format=format, seed=seed), level, coach, first=first)


# --- the fields ------------------------------------------------------------------------------


def _flag(data: Mapping[str, object], name: str) -> bool:
    value = data[name]
    if not isinstance(value, bool):
        raise bad_session(name, f"{name} is true or false")
    return value


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _action(value: object, field: str) -> Action:
    try:
        return Action.from_json(value)
    except GinRummyError:
        raise bad_session(field) from None


def _card(value: object, field: str, game: Game, optional: bool = False) -> Card | None:
    if value is None and optional:
        return None
    if isinstance(value, str):
        try:
            card = Card.parse(value)
        except GinRummyError:
            raise bad_session(field) from None
        if card in game.hand.hands[YOU]:
            return card
    raise bad_session(field, f"{field} is a card of the reader's hand")


CODE = re.compile(r"[a-z][a-z0-9_]{0,39}")


def reason(value: object, field: str) -> dict[str, Any]:
    """A coach's reason as stored: a code with parameters that are plain values."""
    if (
        not isinstance(value, dict)
        or not isinstance(value.get("code"), str)
        or not CODE.fullmatch(value["code"])
        or len(value) > MAX_REASONS
        or not all(
            isinstance(k, str)
            and CODE.fullmatch(k)
            and (_number(v) or isinstance(v, bool) or (isinstance(v, str) and len(v) <= 80))
            for k, v in value.items()
        )
    ):
        raise bad_session(field, f"{field} holds a reason of the coach's")
    return dict(value)


def _log(value: object) -> tuple[Judged, ...]:
    if not isinstance(value, list) or len(value) > MAX_LOG:
        raise bad_session("log")
    entries = []
    for entry in value:
        if (
            not isinstance(entry, dict)
            or not {"hand", "action", "best", "cost"} <= set(entry) <= JUDGED_FIELDS
            or type(entry["hand"]) is not int
            or not _number(entry["cost"])
        ):
            raise bad_session("log")
        why, top = entry.get("why"), entry.get("top")
        mistake = entry.get("mistake", entry["cost"] >= OLD_MISTAKE)
        try:
            top_card = None if top is None else Card.parse(top)
        except GinRummyError:
            raise bad_session("log") from None
        if not isinstance(mistake, bool):
            raise bad_session("log")
        entries.append(
            Judged(
                entry["hand"],
                _action(entry["action"], "log"),
                _action(entry["best"], "log"),
                float(entry["cost"]),
                None if why is None else reason(why, "log"),
                top_card,
                mistake,
            )
        )
    return tuple(entries)


def _plan(value: object, game: Game) -> tuple[tuple[Card, int], ...]:
    if not isinstance(value, list) or len(value) > 10:
        raise bad_session("plan")
    if not value:
        return ()
    if not all(
        isinstance(p, dict) and set(p) == {"card", "meld"} and type(p["meld"]) is int for p in value
    ):
        raise bad_session("plan")
    hand = game.hand
    if hand.phase != "lay_off" or hand.turn != YOU:
        raise bad_session("plan", "lay-offs are made only by the reader, after a knock")
    try:
        check_lay_off_plan(hand, tuple((p["card"], p["meld"]) for p in value))
    except GinRummyError:
        raise bad_session("plan") from None
    return tuple((Card.parse(p["card"]), p["meld"]) for p in value)


def _advice(value: object) -> dict[str, Any] | None:
    """The coach's ranking as stored: ``at`` (the decision), and the engine's advice as JSON:
    its choices (each an action with its numbers and reasons) and the sums that refine it
    (checked by the engine)."""
    if value is None:
        return None
    if (
        not isinstance(value, dict)
        or not {"at", "samples", "choices", "evaluation"} <= set(value)
        or not isinstance(value["at"], list)
        or not all(type(n) is int for n in value["at"])
        or type(value["samples"]) is not int
        or not isinstance(value["choices"], list)
        or not 0 < len(value["choices"]) <= MAX_CHOICES
    ):
        raise bad_session("advice")
    try:
        Evaluation.from_json(value["evaluation"])
    except GinRummyError:
        raise bad_session("advice") from None
    choices = []
    for choice in value["choices"]:
        if (
            not isinstance(choice, dict)
            or not {"action", "points", "win", "reasons"} <= set(choice)
            or not _number(choice["points"])
            or not _number(choice["win"])
            or not _number(choice.get("cost_points", 0))
            or not isinstance(choice["reasons"], list)
            or len(choice["reasons"]) > MAX_REASONS
        ):
            raise bad_session("advice")
        choices.append(
            {
                **choice,
                "action": _action(choice["action"], "advice").to_json(),
                "reasons": [reason(r, "advice") for r in choice["reasons"]],
                "reason": None
                if choice.get("reason") is None
                else reason(choice["reason"], "advice"),
                "against": None
                if choice.get("against") is None
                else reason(choice["against"], "advice"),
            }
        )
    return {**value, "choices": choices}


def _order(value: object) -> tuple[Card, ...]:
    if not isinstance(value, str) or len(value) > 100:
        raise bad_session("order")
    try:
        cards = tuple(Card.parse(text) for text in value.split())
    except GinRummyError:
        raise bad_session("order") from None
    if len(set(cards)) != len(cards):
        raise bad_session("order")
    return cards


# --- game links ------------------------------------------------------------------------------

LINK_PARTS = ("seed", "rules", "level", "format")
RULE_PARTS = tuple(f.name for f in dataclasses.fields(RuleSet) if f.name not in ("name", "sources"))
"""The rules a game link may change (each a field of the engine's rule sets)."""
SEED = re.compile(r"[0-9]{1,16}")


def bad_link(part: str, message: str = "not a part of a game link") -> ExampleError:
    return ExampleError("bad_game_link", f"{message}: {part[:40]!r}", part=part[:40])


def read_link(text: object) -> dict[str, Any]:
    """A game link (a page's URL fragment) as the settings of a new game: ``seed``, ``rules``
    (a preset's name, or a rule set when the link changes some rules), ``level``, ``format``.
    A part that is not a setting, a setting given twice, a seed that is not a whole number
    from 0 to 2**53 - 1: ``bad_game_link``; a rule's bad value: the rule set's own error."""
    if not isinstance(text, str) or len(text) > MAX_LINK:
        raise bad_link(str(text)[:40], "not a game link")
    parts: dict[str, str] = {}
    changes: dict[str, Any] = {}
    for part in text.removeprefix("#").split("&") if text.removeprefix("#") else []:
        name, sep, value = part.partition("=")
        if not sep or name not in (*LINK_PARTS, *RULE_PARTS) or name in parts or name in changes:
            raise bad_link(part)
        if name in LINK_PARTS:
            parts[name] = value
        else:
            changes[name] = _rule_value(value)
    settings: dict[str, Any] = {**START, **parts}
    seed = settings["seed"]
    if isinstance(seed, str) and not (SEED.fullmatch(seed) and int(seed) <= MAX_SEED):
        raise bad_link(f"seed={seed}", "not a seed")
    settings["seed"] = int(seed)
    if changes:
        preset = settings["rules"]
        if preset not in RULESETS:
            raise ExampleError(
                "unknown_rules",
                f"no rules {preset[:40]!r}",
                rules=preset[:40],
                presets=list(RULESETS),
            )
        settings["rules"] = RuleSet.from_json({"name": preset, **changes})
    return settings


def _rule_value(text: str) -> int | bool | str | None:
    """A rule's value as a link writes it: a whole number, true or false, none, or a name."""
    if SEED.fullmatch(text):
        return int(text)
    return {"true": True, "false": False, "none": None}.get(text, text)


def _link_value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def link(session: Session) -> str:
    """The link that deals this game again from its first move: its preset (or, for other
    rules, the nearest preset and the rules that differ), the computer's level, and the format
    when it is not a single game."""
    game = session.game
    rules = game.rules
    preset = RULESETS.get(rules.name)
    changed: list[tuple[str, Any]] = []
    if preset is None or preset != rules:
        preset = min(RULESETS.values(), key=lambda p: len(_changes(p, rules)))
        changed = _changes(preset, rules)
    text = f"seed={game.seed}&rules={preset.name}&level={session.level}"
    if game.format != START["format"]:
        text += f"&format={game.format}"
    return text + "".join(f"&{name}={_link_value(value)}" for name, value in changed)


def _changes(preset: RuleSet, rules: RuleSet) -> list[tuple[str, Any]]:
    return [
        (name, getattr(rules, name))
        for name in RULE_PARTS
        if getattr(rules, name) != getattr(preset, name)
    ]
