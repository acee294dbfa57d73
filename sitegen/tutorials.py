"""Lessons as data: ``tutorials/*.yaml`` checked, replayed through the engine and rendered.

A lesson file holds no language. Its words are message ids (``lesson.<id>.…``) in the
``locales/`` catalogs; its cards, its rules preset and the answer its author states are data.
The build, for every lesson:

1. checks the file against :data:`SCHEMA` (a malformed lesson stops the build with one line:
   the file, the step and what is wrong);
2. replays every step through the engine (:func:`ginrummy.api.call`, the same requests the
   browser sends later): if the stated answer is not what the engine computes, the build
   stops with the file and the step;
3. renders the lesson with Jinja2 (``sitegen/templates/``) into one Markdown page per
   language, ``docs/<lang>/lessons/<NN>-<id>.md``, plus ``docs/<lang>/lessons/index.md``
   (generated files, not in git). ``docs/assets/gin/lessons.js`` makes the steps live.

A lesson file::

    id: deadwood                # lowercase letters, digits and "-"
    order: 3                    # its place in the list of lessons (unique)
    title: lesson.deadwood.title
    intro: [lesson.deadwood.intro]       # paragraphs, as message ids
    steps:
      - id: count
        ask: deadwood           # what the learner does: one of SCHEMA's kinds
        hand: AS 2S 3S 7H 7D 7C 9C TC JC KD
        answer: 10              # the right answer, as the author states it
        text: lesson.deadwood.count.text      # the question
        hints: [lesson.deadwood.count.hint]   # shown one at a time, on request
        explain: lesson.deadwood.count.explain  # shown once the step is answered

Messages may use ``{placeholders}``: the rule numbers of the step's preset (``knock_limit``,
``gin_bonus``, ``big_gin_bonus``, ``undercut_bonus``, ``game_target``, ``game_bonus``,
``box_bonus``) and what the engine found (see :func:`replay_step`), so no message ever types a
preset's number. A placeholder the step cannot fill stops the build.
"""

from __future__ import annotations

import html
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ginrummy import RULESETS, api, parse_cards
from ginrummy.melds import min_deadwood_mask

from . import BuildError
from .catalogs import LANGUAGES, Catalog, load, source_messages
from .examples import card_html, cards_html, melds_html, result_html, rules_html, parse_entry

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Path(__file__).resolve().parent / "templates"
OUT_FOLDER = "lessons"
ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")

VERDICTS = ("big_gin", "gin", "knock", "no")
MOVES = ("take_upcard", "pass", "draw_stock", "draw_discard", "discard", "knock", "gin",
         "big_gin")
CARD_MOVES = ("discard", "knock", "gin")

# --- the schema -------------------------------------------------------------------------------
# Every kind of step: its fields (required, optional) and what its answer is.
# Field types: cards10/cards11/cards10or11 (card lists), card, rules (a preset name), melds
# (a list of melds), entries (score sheet entries like "A 25"), deal ({seed|deck, dealer}),
# moves (actions like "pass 1" or "discard 1 7H"), choices, text (a path into a result).

COMMON_REQUIRED = ("id", "ask", "text", "answer", "explain")
COMMON_OPTIONAL = ("hints",)

SCHEMA: dict[str, dict] = {
    "discard": {"required": {"hand": "cards11"}, "optional": {"rules": "rules", "upcard": "card"},
                "answer": "card"},
    "deadwood": {"required": {"hand": "cards10or11"}, "optional": {}, "answer": "int"},
    "melds": {"required": {"hand": "cards10"}, "optional": {}, "answer": "cards"},
    "knock": {"required": {"hand": "cards11"},
              "optional": {"rules": "rules", "upcard": "card", "choices": "verdicts"},
              "answer": "verdict"},
    "layoff": {"required": {"knocker_melds": "melds", "defender": "cards10"}, "optional": {},
               "answer": "cards"},
    "score": {"required": {"knocker": "cards10or11", "defender": "cards10"},
              "optional": {"rules": "rules", "upcard": "card"}, "answer": "int"},
    "sheet": {"required": {"entries": "entries", "find": "path"},
              "optional": {"rules": "rules", "format": "format"}, "answer": "int"},
    "move": {"required": {"deal": "deal", "choices": "moves_choices"},
             "optional": {"moves": "moves", "rules": "rules"}, "answer": "move"},
}
"""The kinds of step (``ask``) and their fields. See the module docstring for the rest."""

LESSON_REQUIRED = ("id", "order", "title", "intro", "steps")
LESSON_OPTIONAL = ("rules",)
RULE_PARAMS = ("knock_limit", "gin_bonus", "big_gin_bonus", "undercut_bonus", "game_target",
               "game_bonus", "box_bonus")


class LessonError(BuildError):
    """A lesson that is malformed, or whose stated answer the engine does not confirm."""


@dataclass
class Step:
    data: dict
    number: int
    check: dict = field(default_factory=dict)   # what the browser checks against (pre-render)
    params: dict = field(default_factory=dict)  # placeholder values for its messages
    example: dict | None = None  # the step as a live example kind, for the worked answer
    result: dict | None = None   # the engine's result
    table: dict = field(default_factory=dict)   # move steps: the position the learner sees


@dataclass
class Lesson:
    data: dict
    path: Path
    steps: list[Step]
    where: str = ""  # the file, as error messages name it

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def slug(self) -> str:
        return f"{self.data['order']:02d}-{self.data['id']}"


# --- reading and checking a lesson file ------------------------------------------------------

def _where(path: Path, root: Path | None) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve())) if root else str(path)
    except ValueError:
        return str(path)


def read_lesson(path: Path, messages: dict | None = None, root: Path | None = ROOT) -> dict:
    """The lesson in ``path``, checked against the schema; a problem raises LessonError."""
    where = _where(path, root)
    messages = source_messages() if messages is None else messages
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise LessonError(f"{where}: not valid YAML: {' '.join(str(error).split())}") from None
    if not isinstance(data, dict):
        raise LessonError(f"{where}: a lesson is a mapping with {', '.join(LESSON_REQUIRED)}")

    def fail(problem: str, step: str | None = None):
        raise LessonError(f"{where}: {step + ': ' if step else ''}{problem}")

    for name in LESSON_REQUIRED:
        if name not in data:
            fail(f"the lesson needs {name!r}")
    unknown = sorted(set(data) - set(LESSON_REQUIRED) - set(LESSON_OPTIONAL))
    if unknown:
        fail(f"unknown lesson field {unknown[0]!r}; the fields are "
             f"{', '.join(LESSON_REQUIRED + LESSON_OPTIONAL)}")
    if not isinstance(data["id"], str) or not ID.match(data["id"]):
        fail(f"the id {data['id']!r} must be lowercase letters, digits and '-'")
    if not isinstance(data["order"], int) or isinstance(data["order"], bool) or data["order"] < 1:
        fail(f"the order must be a whole number from 1, not {data['order']!r}")
    if "rules" in data and data["rules"] not in RULESETS:
        fail(f"unknown rules {data['rules']!r}; use one of {', '.join(RULESETS)}")
    _message(data["title"], messages, fail, "title")
    intro = data["intro"] if isinstance(data["intro"], list) else [data["intro"]]
    for key in intro:
        _message(key, messages, fail, "intro")
    data["intro"] = intro
    if not isinstance(data["steps"], list) or not data["steps"]:
        fail("'steps' must be a non-empty list")
    seen = set()
    for number, step in enumerate(data["steps"], 1):
        label = f"step {number}"
        if isinstance(step, dict) and isinstance(step.get("id"), str):
            label = f"step {number} ({step['id']!r})"
        _check_step(step, messages, lambda problem, label=label: fail(problem, label))
        if step["id"] in seen:
            fail(f"a second step with the id {step['id']!r}", label)
        seen.add(step["id"])
    return data


def _message(key, messages: dict, fail, what: str) -> None:
    if not isinstance(key, str):
        fail(f"{what} must be a message id, not {key!r}")
    if key not in messages:
        fail(f"{what}: no message {key!r} in locales/messages.pot")


def _check_step(step, messages: dict, fail) -> None:
    if not isinstance(step, dict):
        fail("a step is a mapping with " + ", ".join(COMMON_REQUIRED))
    for name in ("id", "ask"):
        if name not in step:
            fail(f"the step needs {name!r}")
    if not isinstance(step["id"], str) or not ID.match(step["id"]):
        fail(f"the step id {step['id']!r} must be lowercase letters, digits and '-'")
    kind = step["ask"]
    if kind not in SCHEMA:
        fail(f"unknown kind ask: {kind!r}; use one of {', '.join(SCHEMA)}")
    spec = SCHEMA[kind]
    for name in COMMON_REQUIRED + tuple(spec["required"]):
        if name not in step:
            fail(f"a {kind} step needs {name!r}")
    allowed = set(COMMON_REQUIRED) | set(COMMON_OPTIONAL) | set(spec["required"]) | set(spec["optional"])
    unknown = sorted(set(step) - allowed)
    if unknown:
        fail(f"a {kind} step has no field {unknown[0]!r}; its fields are {', '.join(sorted(allowed))}")
    _message(step["text"], messages, fail, "text")
    _message(step["explain"], messages, fail, "explain")
    hints = step.get("hints", [])
    if not isinstance(hints, list):
        fail("'hints' must be a list of message ids")
    for key in hints:
        _message(key, messages, fail, "hints")
    for name, kind_of in {**spec["required"], **spec["optional"]}.items():
        if name in step:
            step[name] = _value(name, step[name], kind_of, fail)
    step["answer"] = _value("answer", step["answer"], spec["answer"], fail)
    if kind == "knock":
        step.setdefault("choices", ["knock", "no"])
    if kind == "discard" and step["answer"] not in step["hand"].split():
        fail(f"the answer {step['answer']} is not in the hand")
    if kind == "move" and step["answer"] not in step["choices"]:
        fail(f"the answer {step['answer']!r} is not one of the choices")


def _cards(name: str, value, counts, fail) -> str:
    if value is None:
        value = ""
    if isinstance(value, list):
        value = " ".join(str(v) for v in value)
    try:
        cards = parse_cards(str(value))
    except Exception as error:  # noqa: BLE001 - a CardError, reported in one line
        fail(f"{name}: bad card: {error}")
    if counts is not None and len(cards) not in counts:
        fail(f"{name}: needs {' or '.join(map(str, counts))} cards, not {len(cards)}")
    return str(cards)


def _value(name: str, value, kind_of: str, fail):
    if kind_of.startswith("cards"):
        counts = {"cards10": (10,), "cards11": (11,), "cards10or11": (10, 11), "cards": None}[kind_of]
        return _cards(name, value, counts, fail)
    if kind_of == "card":
        return _cards(name, value, (1,), fail)
    if kind_of == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            fail(f"{name} must be a whole number, not {value!r}")
        return value
    if kind_of == "rules":
        if value not in RULESETS:
            fail(f"{name}: unknown rules {value!r}; use one of {', '.join(RULESETS)}")
        return value
    if kind_of == "format":
        if value not in ("standard", "hollywood"):
            fail(f"{name} must be standard or hollywood, not {value!r}")
        return value
    if kind_of == "verdict":
        if value not in VERDICTS:
            fail(f"{name} must be one of {', '.join(VERDICTS)}, not {value!r}")
        return value
    if kind_of == "verdicts":
        if not isinstance(value, list) or len(value) < 2 or any(v not in VERDICTS for v in value):
            fail(f"{name} must be a list of two or more of {', '.join(VERDICTS)}")
        return value
    if kind_of == "melds":
        if not isinstance(value, list) or not value:
            fail(f"{name} must be a list of melds, like [7S 8S 9S, KH KD KC]")
        return [_cards(name, m, (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), fail) for m in value]
    if kind_of == "entries":
        if not isinstance(value, list) or not value:
            fail(f"{name} must be a list of entries like \"A 25\"")
        try:
            return [parse_entry(e, name) for e in value]
        except BuildError as error:
            fail(str(error).split(": ", 1)[1])
    if kind_of == "path":
        if not isinstance(value, str) or not re.fullmatch(r"\w+(\.\w+)*", value):
            fail(f"{name} must be a path into the result like totals.0, not {value!r}")
        return value
    if kind_of == "deal":
        if not isinstance(value, dict) or set(value) - {"seed", "deck", "dealer"} or not (
                ("seed" in value) ^ ("deck" in value)):
            fail(f"{name} must be a mapping with a seed or a deck, and optionally the dealer")
        return value
    if kind_of in ("moves", "moves_choices", "move"):
        items = value if kind_of != "move" else [value]
        if not isinstance(items, list):
            fail(f"{name} must be a list of moves like \"pass 1\"")
        for item in items:
            _move(item, kind_of != "moves", name, fail)
        if kind_of == "moves_choices" and len(items) < 2:
            fail(f"{name} needs two or more choices")
        return value
    raise AssertionError(kind_of)


def _move(text, choice: bool, name: str, fail) -> dict:
    """A move: "pass 1", "discard 1 7H" (moves), or "draw_stock", "discard 7H" (choices)."""
    parts = str(text).split()
    if not parts or parts[0] not in MOVES:
        fail(f"{name}: {text!r} is not a move; moves are {', '.join(MOVES)}")
    kind, rest = parts[0], parts[1:]
    action = {"kind": kind}
    if not choice:
        if not rest or rest[0] not in ("0", "1"):
            fail(f"{name}: {text!r} needs the player, 0 or 1, like \"pass 1\"")
        action["player"] = int(rest.pop(0))
    if kind in CARD_MOVES:
        if len(rest) != 1:
            fail(f"{name}: {text!r} needs one card, like \"{kind} 7H\"")
        action["card"] = _cards(name, rest[0], (1,), fail)
    elif rest:
        fail(f"{name}: {text!r} has something extra after the move")
    return action


# --- replaying a lesson through the engine ---------------------------------------------------

def _call(request: dict, fail) -> dict:
    response = api.call({"v": 1, **request})
    if not response["ok"]:
        fail(f"the engine refuses the step: {response['error']['message']}")
    return response["result"]


def requests_for(step: dict) -> dict:
    """The engine request of a step (lessons.js sends the same)."""
    kind = step["ask"]
    extra = {k: step[k] for k in ("rules", "upcard") if step.get(k)}
    if kind in ("discard", "knock"):
        return {"op": "knock", "cards": step["hand"], **extra}
    if kind in ("deadwood", "melds"):
        return {"op": "melds", "cards": step["hand"]}
    if kind == "layoff":
        return {"op": "layoffs", "knocker_melds": step["knocker_melds"], "defender": step["defender"]}
    if kind == "score":
        return {"op": "score", "knocker": step["knocker"], "defender": step["defender"], **extra}
    if kind == "sheet":
        return {"op": "sheet", "entries": step["entries"], "format": step.get("format", "standard"),
                **extra}
    raise AssertionError(kind)


def resolve(result, path: str):
    """The value at a dotted path (``totals.0``) in an engine result, or None."""
    value = result
    for part in path.split("."):
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return None
    return value


def _card_set(text: str) -> set:
    return set(text.split()) if text else set()


def _sorted_cards(cards) -> str:
    return str(parse_cards(" ".join(cards))) if cards else ""


def replay_step(step: dict, lesson_rules: str | None, fail) -> Step:
    """Run a step through the engine; the stated answer must be what the engine computes.

    Returns the step with ``check`` (embedded in the page for the browser's check before the
    engine is ready), ``params`` (placeholder values) and the engine result for rendering.
    """
    kind, stated = step["ask"], step["answer"]
    rules = RULESETS[step.get("rules") or lesson_rules or "standard"]
    if lesson_rules and "rules" not in step and kind in ("discard", "knock", "score", "sheet", "move"):
        step["rules"] = lesson_rules
    params = {name: getattr(rules, name) for name in RULE_PARAMS}
    out = Step(data=step, number=0)
    if kind in ("discard", "knock", "deadwood", "melds", "layoff", "score", "sheet"):
        out.result = _call(requests_for(step), fail)
    result = out.result

    if kind == "discard":
        after = {}
        for card in step["hand"].split():
            rest = " ".join(c for c in step["hand"].split() if c != card)
            after[card] = _call({"op": "deadwood", "cards": rest}, fail)["points"]
        best = result["points"]
        if after[stated] != best:
            fail(f"the stated answer {stated} is not what the engine computes: discarding it "
                 f"leaves deadwood {after[stated]}, the best discard ({result['discard']}) "
                 f"leaves {best}")
        out.check = {"best": best, "after": after}
        params.update(points=best, discard=stated, limit=result["limit"])
        out.example = {"kind": "knock", "hand": step["hand"],
                       **{k: step[k] for k in ("rules", "upcard") if step.get(k)}}
    elif kind == "deadwood":
        if stated != result["points"]:
            fail(f"the stated answer {stated} is not what the engine computes: "
                 f"{result['points']}")
        out.check = {"points": result["points"]}
        params.update(points=result["points"], deadwood=result["deadwood"])
        out.example = {"kind": "melds", "hand": step["hand"]}
    elif kind == "melds":
        if _card_set(stated) != _card_set(result["deadwood"]):
            fail(f"the stated answer {stated or 'none'} is not what the engine computes: "
                 f"the deadwood of the best arrangement is {result['deadwood'] or 'none'}")
        _unique_arrangement(step["hand"], result["points"], fail)
        out.check = {"deadwood": result["deadwood"], "points": result["points"]}
        params.update(points=result["points"], deadwood=result["deadwood"])
        out.example = {"kind": "melds", "hand": step["hand"]}
    elif kind == "knock":
        if stated != result["verdict"]:
            fail(f"the stated answer {stated!r} is not what the engine computes: "
                 f"{result['verdict']!r} (deadwood {result['points']}, limit {result['limit']})")
        if result["verdict"] not in step["choices"]:
            fail(f"the engine's answer {result['verdict']!r} is not one of the choices")
        out.check = {k: result[k] for k in ("verdict", "points", "limit", "discard")}
        params.update(points=result["points"], limit=result["limit"], discard=result["discard"] or "")
        out.example = {"kind": "knock", "hand": step["hand"],
                       **{k: step[k] for k in ("rules", "upcard") if step.get(k)}}
    elif kind == "layoff":
        laid = [l["card"] for l in result["lay_offs"]]
        if _card_set(stated) != set(laid):
            fail(f"the stated answer {stated or 'none'} is not what the engine computes: "
                 f"the defender lays off {' '.join(laid) or 'nothing'}")
        out.check = {"cards": _sorted_cards(laid), "points": result["points"]}
        params.update(points=result["points"], cards=_sorted_cards(laid), count=len(laid))
        out.example = {"kind": "layoffs", "knocker_melds": step["knocker_melds"],
                       "defender": step["defender"]}
    elif kind == "score":
        if stated != result["points"]:
            fail(f"the stated answer {stated} is not what the engine computes: "
                 f"{result['points']} ({result['outcome']})")
        out.check = {"points": result["points"]}
        params.update(points=result["points"], knocker_points=result["knocker_points"],
                      defender_points=result["defender_points"], limit=result["knock_limit"])
        out.example = {"kind": "score", "knocker": step["knocker"], "defender": step["defender"],
                       **{k: step[k] for k in ("rules", "upcard") if step.get(k)}}
    elif kind == "sheet":
        value = resolve(result, step["find"])
        if not isinstance(value, int) or isinstance(value, bool):
            fail(f"find: {step['find']!r} is not a number in the engine's score sheet")
        if stated != value:
            fail(f"the stated answer {stated} is not what the engine computes: {value}")
        out.check = {"value": value}
        params.update(value=value)
        out.example = {"kind": "hollywood" if step.get("format") == "hollywood" else "sheet",
                       "entries": step["entries"],
                       **{k: step[k] for k in ("rules",) if step.get(k)}}
    elif kind == "move":
        state = _call({"op": "deal", **step["deal"], **({"rules": step["rules"]} if step.get("rules") else {})}, fail)
        for text in step.get("moves", []):
            action = _move(text, False, "moves", fail)
            state = _call({"op": "play", "state": state["state"], "action": action}, fail)
        legal = state["legal"]
        turn = state["state"]["turn"]
        legal_keys = {_move_key(a) for a in legal}
        for choice in step["choices"]:
            key = _move_key(_move(choice, True, "choices", fail))
            if choice == stated and key not in legal_keys:
                fail(f"the stated answer {stated!r} is not what the engine computes: it is not "
                     f"a legal move now")
            if choice != stated and key in legal_keys:
                fail(f"the choice {choice!r} is legal too: a step needs exactly one right choice")
        s = state["state"]
        out.check = {"legal": [c for c in step["choices"]
                               if _move_key(_move(c, True, "choices", fail)) in legal_keys]}
        out.table = {"hand": s["hands"][turn], "upcard": s["upcard"],
                     "top": s["discards"].split()[-1] if s["discards"] else "",
                     "taken": s.get("taken") or "", "dealer": s["dealer"], "turn": turn,
                     "phase": s["phase"]}
        out.result = state
        params.update(upcard=s["upcard"])
    if step.get("upcard"):
        params["upcard"] = step["upcard"]
    out.params = params
    return out


def _move_key(action: dict) -> str:
    return f"{action['kind']} {action.get('card', '')}".strip()


def _unique_arrangement(hand: str, best: int, fail) -> None:
    """A melds step must have one best deadwood: the engine's arrangement is then the answer."""
    cards = parse_cards(hand)
    full = cards.mask
    found = 0
    for subset in range(1 << len(cards)):
        chosen = [c for i, c in enumerate(cards) if subset >> i & 1]
        if sum(c.value for c in chosen) != best:
            continue
        rest = full
        for c in chosen:
            rest ^= c.bit
        if min_deadwood_mask(rest) == 0:
            found += 1
            if found > 1:
                fail("the hand has more than one best arrangement: choose a hand with one")


def load_lessons(folder: Path, root: Path | None = ROOT, messages: dict | None = None) -> list[Lesson]:
    """Every lesson in ``folder`` (``*.yaml``), checked and replayed, in order."""
    messages = source_messages() if messages is None else messages
    lessons, ids, orders = [], {}, {}
    for path in sorted(Path(folder).glob("*.yaml")):
        where = _where(path, root)
        data = read_lesson(path, messages, root)
        if data["id"] in ids:
            raise LessonError(f"{where}: the id {data['id']!r} is used by {ids[data['id']]} too")
        if data["order"] in orders:
            raise LessonError(f"{where}: the order {data['order']} is used by "
                              f"{orders[data['order']]} too")
        ids[data["id"]], orders[data["order"]] = where, where
        steps = []
        for number, step in enumerate(data["steps"], 1):
            label = f"step {number} ({step['id']!r})"

            def fail(problem, label=label):
                raise LessonError(f"{where}: {label}: {problem}")

            replayed = replay_step(step, data.get("rules"), fail)
            replayed.number = number
            steps.append(replayed)
        lessons.append(Lesson(data, path, steps, where))
    return sorted(lessons, key=lambda lesson: lesson.data["order"])


# --- rendering ---------------------------------------------------------------------------------

CARD_PARAMS = ("discard", "deadwood", "cards", "upcard", "card")


def message_html(key: str, params: dict, catalog: Catalog, where: str) -> str:
    """A message as HTML with its placeholders filled: cards drawn, numbers as they are.

    A placeholder that the step does not provide stops the build (``where`` names it)."""
    template = html.escape(catalog.text(key), quote=False)

    def fill(match: re.Match) -> str:
        name = match.group(1)
        if name not in params:
            raise LessonError(f"{where}: message {key!r} ({catalog.language}) uses {{{name}}}, "
                              f"which this step does not provide (it has "
                              f"{', '.join(sorted(params))})")
        value = params[name]
        if name in CARD_PARAMS and isinstance(value, str):
            return cards_html(value, catalog) if " " in value or not value else card_html(value, catalog)
        if value is None:
            return html.escape(catalog.text("rule.no_big_gin"))
        return html.escape(str(value))

    return re.sub(r"\{(\w+)\}", fill, template)


def _label(text: str) -> str:
    return html.escape(text)


def _attr(value) -> str:
    return html.escape(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def table_html(step: Step, catalog: Catalog) -> str:
    """The cards on the table (or the score sheet) of a step."""
    data, t = step.data, catalog.text
    rows = []

    def row(label, value_html, pickable=False):
        # A row whose cards are also the card picker: lessons.js hides it once the picker shows.
        extra = ' class="gin-lesson-pickable"' if pickable else ""
        rows.append(f"<dt{extra}>{_label(label)}</dt><dd{extra}>{value_html}</dd>")

    kind = data["ask"]
    if kind in ("discard", "deadwood", "melds", "knock"):
        row(t("ui.hand"), cards_html(data["hand"], catalog), kind in ("discard", "melds"))
        if data.get("upcard"):
            row(t("ui.upcard"), card_html(data["upcard"], catalog))
    elif kind == "layoff":
        row(t("tutorial.knocker_melds"), melds_html(data["knocker_melds"], catalog))
        row(t("ui.defender_hand"), cards_html(data["defender"], catalog), True)
    elif kind == "score":
        row(t("ui.knocker_hand"), cards_html(data["knocker"], catalog))
        row(t("ui.defender_hand"), cards_html(data["defender"], catalog))
        if data.get("upcard"):
            row(t("ui.upcard"), card_html(data["upcard"], catalog))
    elif kind == "move":
        table = step.table
        row(t("tutorial.you_are"), _label(t("tutorial.dealer" if table["dealer"] == table["turn"]
                                           else "tutorial.non_dealer")))
        row(t("tutorial.your_hand"), cards_html(table["hand"], catalog))
        if table["taken"]:
            row(t("tutorial.taken"), card_html(table["taken"], catalog))
        else:
            row(t("ui.upcard"), card_html(table["upcard"], catalog))
    out = f'<dl class="gin-inputs">{"".join(rows)}</dl>' if rows else ""
    if kind == "sheet":
        head = (f"<tr><th>#</th><th>{_label(t('ui.winner'))}</th>"
                f"<th>{_label(t('ui.points'))}</th></tr>")
        body = "".join(f"<tr><td>{i}</td><td>{_label(t('player.%d' % e['winner']))}</td>"
                       f"<td>{e['points']}</td></tr>" for i, e in enumerate(data["entries"], 1))
        out += f'<table class="gin-sheet"><thead>{head}</thead><tbody>{body}</tbody></table>'
    if step.example and step.example["kind"] in ("knock", "score", "sheet", "hollywood"):
        out += rules_html(step.example, catalog)
    return out


def _pick_html(step: Step, cards: str, multiple: bool, catalog: Catalog) -> str:
    kind = "checkbox" if multiple else "radio"
    name = f"gin-{step.data['id']}"
    items = "".join(
        f'<label class="gin-pick"><input type="{kind}" name="{name}" value="{c}">'
        f"{card_html(c, catalog)}</label>" for c in cards.split())
    return f'<span class="gin-picks">{items}</span>'


def _choices_html(step: Step, values: list, key_of, catalog: Catalog) -> str:
    name = f"gin-{step.data['id']}"
    items = []
    for value in values:
        items.append(f'<label class="gin-choice"><input type="radio" name="{name}" '
                     f'value="{html.escape(value)}"> {key_of(value)}</label>')
    return f'<span class="gin-choices">{"".join(items)}</span>'


def move_label(choice: str, catalog: Catalog) -> str:
    parts = choice.split()
    template = html.escape(catalog.text(f"tutorial.move.{parts[0]}"), quote=False)
    card = card_html(parts[1], catalog) if len(parts) > 1 else ""
    return template.replace("{card}", card)


def form_html(step: Step, catalog: Catalog) -> str:
    """The answer controls (hidden until lessons.js mounts them: without JavaScript the
    question and its worked answer remain)."""
    data, t = step.data, catalog.text
    kind = data["ask"]
    legend = _label(t(f"tutorial.ask.{kind}"))
    if kind == "discard":
        control = _pick_html(step, data["hand"], False, catalog)
    elif kind == "melds":
        control = _pick_html(step, data["hand"], True, catalog)
    elif kind == "layoff":
        control = _pick_html(step, data["defender"], True, catalog)
    elif kind == "knock":
        control = _choices_html(step, data["choices"],
                                lambda v: _label(t(f"tutorial.verdict.{v}")), catalog)
    elif kind == "move":
        control = _choices_html(step, data["choices"], lambda v: move_label(v, catalog), catalog)
    else:
        control = (f'<input class="gin-number" type="number" inputmode="numeric" min="0" '
                   f'step="1" name="gin-{data["id"]}" aria-label="{_label(t(f"tutorial.ask.{kind}"))}">')
    hint_button = (f'<button type="button" class="gin-lesson-hint-button">{_label(t("tutorial.hint"))}'
                   f"</button>" if data.get("hints") else "")
    return (f'<form class="gin-lesson-form" hidden><fieldset><legend>{legend}</legend>{control}'
            f'</fieldset><p class="gin-lesson-buttons"><button type="submit" class="gin-lesson-check">'
            f'{_label(t("tutorial.check"))}</button>{hint_button}</p></form>')


def solution_html(step: Step, catalog: Catalog, where: str) -> str:
    """The right answer, why, and the engine's worked answer."""
    explain = message_html(step.data["explain"], step.params, catalog, where)
    detail = result_html(step.example, step.result, catalog) if step.example else ""
    return (f'<details class="gin-lesson-solution"><summary>{_label(catalog.text("tutorial.show_answer"))}'
            f'</summary><div class="gin-lesson-explain"><p>{explain}</p>{detail}</div></details>')


def step_html(lesson: Lesson, step: Step, catalog: Catalog) -> str:
    data = step.data
    where = f"{lesson.where}: step {step.number} ({data['id']!r})"
    client = {k: v for k, v in data.items()
              if k not in ("text", "hints", "explain", "answer")}
    question = message_html(data["text"], step.params, catalog, where)
    hints = "".join(f'<p class="gin-lesson-hint" hidden>{message_html(h, step.params, catalog, where)}</p>'
                    for h in data.get("hints", []))
    return (f'<div class="gin-lesson-step" id="step-{data["id"]}" data-step="{data["id"]}" '
            f'data-ask="{data["ask"]}" data-gin-step="{_attr(client)}" '
            f'data-gin-check="{_attr(step.check)}">'
            f'<p class="gin-lesson-question">{question}</p>{table_html(step, catalog)}'
            f'{form_html(step, catalog)}'
            f'<div class="gin-lesson-feedback" role="status" aria-live="polite"></div>'
            f'<div class="gin-lesson-hints">{hints}</div>'
            f'{solution_html(step, catalog, where)}</div>')


def _environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    return Environment(loader=FileSystemLoader(str(TEMPLATES)), undefined=StrictUndefined,
                       autoescape=False, keep_trailing_newline=True, trim_blocks=True,
                       lstrip_blocks=True)


def intro_params(lesson: Lesson) -> dict:
    rules = RULESETS[lesson.data.get("rules") or "standard"]
    return {name: getattr(rules, name) for name in RULE_PARAMS}


def render_lesson(lesson: Lesson, lessons: list[Lesson], catalog: Catalog, env=None) -> str:
    """One lesson page (Markdown) in the catalog's language."""
    env = env or _environment()
    where = lesson.where
    index = lessons.index(lesson)
    t = catalog.text
    return env.get_template("lesson.md.j2").render(
        lesson=lesson, lang=catalog.language, t=t, e=html.escape,
        title=t(lesson.data["title"]),
        intro=[message_html(k, intro_params(lesson), catalog, f"{where}: intro")
               for k in lesson.data["intro"]],
        steps=[{"heading": t("tutorial.step", number=s.number, count=len(lesson.steps)),
                "html": step_html(lesson, s, catalog)} for s in lesson.steps],
        step_ids=_attr([s.data["id"] for s in lesson.steps]),
        previous=lessons[index - 1] if index else None,
        next=lessons[index + 1] if index + 1 < len(lessons) else None,
        ltitle=lambda other: t(other.data["title"]),
    )


def render_index(lessons: list[Lesson], catalog: Catalog, env=None) -> str:
    """The lessons index page (Markdown): the list, with the learner's progress."""
    env = env or _environment()
    t = catalog.text
    return env.get_template("index.md.j2").render(
        lang=catalog.language, t=t, e=html.escape,
        lessons=[{"slug": l.slug, "id": l.id, "title": t(l.data["title"]),
                  "steps": _attr([s.data["id"] for s in l.steps]), "count": len(l.steps)}
                 for l in lessons])


def _write(path: Path, text: str) -> bool:
    """Write atomically, and only when the text changed (other builds may read it meanwhile)."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return True


def render_all(root: Path, docs_dir: Path, languages=LANGUAGES) -> list[Path]:
    """Check, replay and render every lesson into ``docs_dir/<lang>/lessons/``.

    Returns the pages (all languages). Lesson pages no longer backed by a lesson file are
    removed, so a renamed lesson leaves no stale page behind."""
    root, docs_dir = Path(root), Path(docs_dir)
    if not (root / "tutorials").is_dir():
        return []
    lessons = load_lessons(root / "tutorials", root)
    env = _environment()
    written = []
    for language in languages:
        catalog = load(language)
        folder = docs_dir / language / OUT_FOLDER
        pages = {folder / "index.md": render_index(lessons, catalog, env)}
        for lesson in lessons:
            pages[folder / f"{lesson.slug}.md"] = render_lesson(lesson, lessons, catalog, env)
        for path, text in pages.items():
            _write(path, text)
        if folder.is_dir():
            for stale in folder.glob("*.md"):
                if stale not in pages:
                    stale.unlink(missing_ok=True)
        written.extend(pages)
    return written
