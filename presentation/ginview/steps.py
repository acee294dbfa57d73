"""Lesson steps: the kinds of question a lesson asks, each with its fields, its engine replay,
its check of the author's answer, its markup and its feedback to a learner's answer.

A step (from a lesson file, ``tutorials/*.yaml``) is read by :func:`read_step` into canonical
fields; :func:`replay` runs it through the engine. The build then checks that the answer the
author states is the engine's (:func:`stated_problem`) and draws the step
(:func:`step_html`); in the browser, the worker answers a learner with :func:`feedback`, which
replays the same step and says, in the learner's language, what was right or what went wrong.

Kinds (``ask``) and their fields besides ``id``, ``text``, ``hints``, ``explain``, ``answer``:

========= ======================================================= ==========================
ask       fields                                                  answer
========= ======================================================= ==========================
discard   ``hand`` (11), ``rules``, ``upcard``                    the card to discard
deadwood  ``hand`` (10 or 11)                                     the deadwood count
melds     ``hand`` (10; one best arrangement)                     the deadwood cards
knock     ``hand`` (11), ``rules``, ``upcard``, ``choices``        a verdict: big_gin, gin,
                                                                  knock or no
layoff    ``knocker_melds``, ``defender`` (10)                    the cards laid off
score     ``knocker`` (10 or 11), ``defender`` (10), ``rules``,   the hand's points
          ``upcard``
sheet     ``entries``, ``find`` (a path such as ``totals.0``),    the number found there
          ``rules``, ``format`` (standard or hollywood)
move      ``deal`` ({seed or deck, dealer}), ``moves`` (before    the one legal choice
          the question, like "pass 1"), ``choices``, ``rules``
========= ======================================================= ==========================
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict, cast

from ginrummy import RULESETS, best_deadwood_sets, parse_cards
from ginrummy.api import call as api_call
from ginrummy.rules import NUMBER_RANGES
from ginrummy.scoring import GIN_OUTCOMES, POINTS_STEPS
from ginrummy.vocab import VERDICTS

from . import fields as F
from .catalog import Catalog, Html, esc
from .examples import GAME_RULES, HAND_RULES, engine, worked_html
from .fields import Deal, Field, FieldError, Moves, move_text, parse_move
from .markup import card_html, cards_html, knocker_label, melds_html, rules_line
from .shapes import JsonObject, StepState, Written

RULE_PARAMS = tuple(NUMBER_RANGES)
"""The preset numbers every step's messages may use as placeholders: every number of a
RuleSet."""
COMMON = ("id", "ask", "text", "hints", "explain", "answer")
"""The fields of every step (the messages' ids and the answer), checked by the lesson reader."""
MESSAGE_FIELDS = ("text", "hints", "explain", "answer")
"""Not sent to the browser: the browser asks the worker, which replays the step."""


class StepError(FieldError):
    """A step that is not well formed, or whose stated answer is not the engine's."""


@dataclass
class Replay:
    """A step run through the engine: ``check`` is what an answer is judged against,
    ``params`` the placeholder values of its messages, ``example`` the step as an example
    state (its worked answer), ``table`` the cards on the table for a move step."""

    check: JsonObject
    params: dict[str, object] = field(default_factory=dict)
    example: Written | None = None
    table: MoveTable | None = None


class MoveTable(TypedDict):
    """What a move step's learner sees on the table: their hand, the upcard (or the card they
    took), who dealt and whose turn it is."""

    hand: str
    upcard: str
    taken: str
    dealer: int
    turn: int


class StepMessages(TypedDict):
    """A step's message ids (``locales/messages.pot``): its question, its hints, its worked
    answer."""

    text: str
    hints: NotRequired[list[str]]
    explain: str


Answer = int | str
"""A learner's or an author's answer, read by the step's answer type: a number, a card, cards
or a choice."""


@dataclass(frozen=True)
class Verdict:
    """A learner's answer judged: right, or wrong with the message that says why."""

    right: bool
    key: str = ""
    params: Mapping[str, object] = field(default_factory=dict)


# --- field types only steps have ------------------------------------------------------------------


@dataclass(frozen=True)
class Verdicts(F.FieldType[list[str]]):
    expected = "a list of two or more of " + ", ".join(VERDICTS)

    def parse(self, value: object, name: str) -> list[str]:
        if not isinstance(value, list) or len(value) < 2 or any(v not in VERDICTS for v in value):
            raise F.bad(name, self.expected, value)
        return value


@dataclass(frozen=True)
class Path(F.FieldType[str]):
    expected = "a path into the score sheet, like totals.0"

    def parse(self, value: object, name: str) -> str:
        if not isinstance(value, str) or not re.fullmatch(r"\w+(\.\w+)*", value):
            raise F.bad(name, self.expected, value)
        return value


# --- the kinds --------------------------------------------------------------------------------------


def _rules_of(step: StepState) -> str:
    return step.get("rules") or "standard"


def rule_numbers(name: str | None) -> dict[str, object]:
    """The numbers of the preset ``name`` (standard if None), as messages' placeholders."""
    rules = RULESETS[name or "standard"]
    return {number: getattr(rules, number) for number in RULE_PARAMS}


def _numbers(step: StepState) -> dict[str, object]:
    return rule_numbers(step.get("rules"))


def _with(step: StepState, *names: str) -> dict[str, object]:
    fields: Mapping[str, object] = step  # by the names a kind's fields list
    return {n: fields[n] for n in names if fields.get(n)}


def _cards_set(text: str) -> set[str]:
    return set(text.split()) if text else set()


@dataclass(frozen=True)
class StepKind:
    name: str
    fields: tuple[Field, ...]
    answer: F.FieldType[Any]  # the kinds' answers are of different types (Answer)
    control: str = "number"  # the form: number, pick (one card), picks (cards), choice
    rules: bool = False  # the step has rules (a lesson's rules apply to it)

    def replay(self, step: StepState) -> Replay:
        raise NotImplementedError

    def stated_problem(self, step: StepState, replay: Replay) -> str | None:
        """What is wrong with the author's stated answer (English, for the build), or None."""
        raise NotImplementedError

    def judge(self, step: StepState, check: JsonObject, answer: Answer) -> Verdict:
        raise NotImplementedError

    def table_html(self, step: StepState, replay: Replay, cat: Catalog) -> Html:
        raise NotImplementedError

    def pickable(self, step: StepState) -> str:
        """The cards the learner picks from (pick and picks controls)."""
        return ""

    def choices(self, step: StepState) -> list[str]:
        return []

    def choice_html(self, step: StepState, choice: str, cat: Catalog) -> Html:
        return esc(choice)


def _table(rows: list[tuple[str, Html, bool]]) -> Html:
    """A step's cards: (label, cards, pickable) rows. A pickable row is hidden once the
    answer form, which shows the same cards to pick, is live."""
    out = []
    for label, value, pickable in rows:
        extra = ' class="gin-lesson-pickable"' if pickable else ""
        out.append(f"<dt{extra}>{esc(label)}</dt><dd{extra}>{value}</dd>")
    return Html(f'<dl class="gin-inputs">{"".join(out)}</dl>')


def _hand_rows(step: StepState, cat: Catalog, pickable: bool) -> list[tuple[str, Html, bool]]:
    rows = [(cat.text("ui.hand"), cards_html(step["hand"], cat), pickable)]
    if step.get("upcard"):
        rows.append((cat.text("ui.upcard"), card_html(step["upcard"], cat), False))
    return rows


@dataclass(frozen=True)
class DiscardStep(StepKind):
    def replay(self, step: StepState) -> Replay:
        request = {"op": "knock", "cards": step["hand"], **_with(step, "rules", "upcard")}
        result = engine(request)
        hand = step["hand"].split()
        after = {
            c: engine({"op": "deadwood", "cards": " ".join(x for x in hand if x != c)})["points"]
            for c in hand
        }
        return Replay(
            {"best": result["points"], "after": after, "discard": result["discard"]},
            {"points": result["points"], "limit": result["limit"]},
            {"kind": "knock", "hand": step["hand"], **_with(step, "rules", "upcard")},
        )

    def stated_problem(self, step: StepState, replay: Replay) -> str | None:
        stated, check = step["answer"], replay.check
        if stated not in step["hand"].split():
            return wrong(step, f"the answer {stated} is not in the hand")
        if check["after"][stated] != check["best"]:
            return wrong(
                step,
                f"discarding {stated} leaves deadwood {check['after'][stated]}, "
                f"the best discard ({check['discard']}) leaves {check['best']}",
            )
        replay.params["discard"] = stated
        return None

    def judge(self, step: StepState, check: JsonObject, answer: Answer) -> Verdict:
        points = check["after"].get(answer)
        if points == check["best"]:
            return Verdict(True)
        return Verdict(False, "tutorial.why.discard", {"card": answer, "points": points})

    def table_html(self, step: StepState, replay: Replay, cat: Catalog) -> Html:
        return Html(
            _table(_hand_rows(step, cat, True)) + rules_line(_rules_of(step), ("knock_limit",), cat)
        )

    def pickable(self, step: StepState) -> str:
        return step["hand"]


@dataclass(frozen=True)
class DeadwoodStep(StepKind):
    def replay(self, step: StepState) -> Replay:
        result = engine({"op": "melds", "cards": step["hand"]})
        every = sum(c.value for c in parse_cards(step["hand"]))
        return Replay(
            {"points": result["points"], "deadwood": result["deadwood"], "every": every},
            {"points": result["points"], "deadwood": result["deadwood"]},
            {"kind": "melds", "hand": step["hand"]},
        )

    def stated_problem(self, step: StepState, replay: Replay) -> str | None:
        if step["answer"] != replay.check["points"]:
            return wrong(step, replay.check["points"])
        return None

    def judge(self, step: StepState, check: JsonObject, answer: Answer) -> Verdict:
        if answer == check["points"]:
            return Verdict(True)
        if answer == check["every"]:  # every card counted, melds too
            return Verdict(False, "tutorial.why.deadwood_every", {"value": answer})
        if check["points"] == check["every"]:  # no meld: only the sum can be wrong
            return Verdict(False, "tutorial.why.deadwood_no_meld", {"value": answer})
        key = (
            "tutorial.why.deadwood_high"
            if answer > check["points"]
            else "tutorial.why.deadwood_low"
        )
        return Verdict(False, key, {"value": answer})

    def table_html(self, step: StepState, replay: Replay, cat: Catalog) -> Html:
        return _table(_hand_rows(step, cat, False))


@dataclass(frozen=True)
class MeldsStep(StepKind):
    def replay(self, step: StepState) -> Replay:
        result = engine({"op": "melds", "cards": step["hand"]})
        return Replay(
            {"deadwood": result["deadwood"], "points": result["points"]},
            {"points": result["points"], "deadwood": result["deadwood"]},
            {"kind": "melds", "hand": step["hand"]},
        )

    def stated_problem(self, step: StepState, replay: Replay) -> str | None:
        if _cards_set(str(step["answer"])) != _cards_set(replay.check["deadwood"]):
            return wrong(
                step,
                f"the deadwood of the best arrangement is {replay.check['deadwood'] or 'none'}",
            )
        if len(best_deadwood_sets(step["hand"])) > 1:
            return "the hand has more than one best arrangement: choose a hand with one"
        return None

    def judge(self, step: StepState, check: JsonObject, answer: Answer) -> Verdict:
        answer = str(answer)  # a picks answer: cards
        if _cards_set(answer) == _cards_set(check["deadwood"]):
            return Verdict(True)
        value = sum(c.value for c in parse_cards(answer)) if answer else 0
        key = (
            "tutorial.why.melds_more" if value > check["points"] else "tutorial.why.melds_unmelded"
        )
        return Verdict(False, key, {"value": value})

    def table_html(self, step: StepState, replay: Replay, cat: Catalog) -> Html:
        return _table(_hand_rows(step, cat, True))

    def pickable(self, step: StepState) -> str:
        return step["hand"]


@dataclass(frozen=True)
class KnockStep(StepKind):
    def replay(self, step: StepState) -> Replay:
        result = engine({"op": "knock", "cards": step["hand"], **_with(step, "rules", "upcard")})
        check = {k: result[k] for k in ("verdict", "points", "limit", "discard")}
        return Replay(
            check,
            {
                "points": result["points"],
                "limit": result["limit"],
                "discard": result["discard"] or "",
            },
            {"kind": "knock", "hand": step["hand"], **_with(step, "rules", "upcard")},
        )

    def stated_problem(self, step: StepState, replay: Replay) -> str | None:
        check = replay.check
        if step["answer"] != check["verdict"]:
            return wrong(
                step, f"{check['verdict']!r} (deadwood {check['points']}, limit {check['limit']})"
            )
        if check["verdict"] not in self.choices(step):
            return f"the engine's answer {check['verdict']!r} is not one of the choices"
        return None

    def judge(self, step: StepState, check: JsonObject, answer: Answer) -> Verdict:
        if answer == check["verdict"]:
            return Verdict(True)
        gin_only = check["verdict"] == "no" and check["limit"] == 0
        return Verdict(
            False,
            "tutorial.why.knock_gin_only" if gin_only else f"tutorial.why.knock_{check['verdict']}",
            {"card": check["discard"] or "", "points": check["points"], "limit": check["limit"]},
        )

    def table_html(self, step: StepState, replay: Replay, cat: Catalog) -> Html:
        return Html(
            _table(_hand_rows(step, cat, False))
            + rules_line(_rules_of(step), ("knock_limit",), cat)
        )

    def choices(self, step: StepState) -> list[str]:
        return step.get("choices") or ["knock", "no"]

    def choice_html(self, step: StepState, choice: str, cat: Catalog) -> Html:
        return cat.html(f"tutorial.verdict.{choice}")


@dataclass(frozen=True)
class LayoffStep(StepKind):
    def replay(self, step: StepState) -> Replay:
        result = engine({"op": "layoffs", **_with(step, "knocker_melds", "defender")})
        laid = [l["card"] for l in result["lay_offs"]]
        cards = str(parse_cards(" ".join(laid))) if laid else ""
        return Replay(
            {"cards": cards, "points": result["points"]},
            {"points": result["points"], "cards": cards, "count": len(laid)},
            {"kind": "layoffs", **_with(step, "knocker_melds", "defender")},
        )

    def stated_problem(self, step: StepState, replay: Replay) -> str | None:
        if _cards_set(str(step["answer"])) != _cards_set(replay.check["cards"]):
            return wrong(step, f"the defender lays off {replay.check['cards'] or 'nothing'}")
        return None

    def judge(self, step: StepState, check: JsonObject, answer: Answer) -> Verdict:
        answer = str(answer)  # a picks answer: cards
        if _cards_set(answer) == _cards_set(check["cards"]):
            return Verdict(True)
        extra = [c for c in answer.split() if c not in _cards_set(check["cards"])]
        if extra:
            return Verdict(False, "tutorial.why.layoff_extra", {"cards": " ".join(extra)})
        return Verdict(False, "tutorial.why.layoff_missing")

    def table_html(self, step: StepState, replay: Replay, cat: Catalog) -> Html:
        return _table(
            [
                (cat.text("ui.knocker_melds"), melds_html(step["knocker_melds"], cat), False),
                # the reader is the defender here: "Your hand", never the defender's name
                (cat.text("tutorial.your_hand"), cards_html(step["defender"], cat), True),
            ]
        )

    def pickable(self, step: StepState) -> str:
        return step["defender"]


@dataclass(frozen=True)
class ScoreStep(StepKind):
    def replay(self, step: StepState) -> Replay:
        result = engine({"op": "score", **_with(step, "knocker", "defender", "rules", "upcard")})
        return Replay(
            score_check(result),
            {
                "points": result["points"],
                "knocker_points": result["knocker_points"],
                "defender_points": result["defender_points"],
                "limit": result["knock_limit"],
            },
            {"kind": "score", **_with(step, "knocker", "defender", "rules", "upcard")},
        )

    def stated_problem(self, step: StepState, replay: Replay) -> str | None:
        if step["answer"] != replay.check["points"]:
            return wrong(step, replay.check["points"])
        return None

    def judge(self, step: StepState, check: JsonObject, answer: Answer) -> Verdict:
        return judge_number(check["points"], check["mistakes"], answer)

    def table_html(self, step: StepState, replay: Replay, cat: Catalog) -> Html:
        rows = [
            (
                cat.text(knocker_label(replay.check["outcome"])),
                cards_html(step["knocker"], cat),
                False,
            ),
            (cat.text("ui.defender_hand"), cards_html(step["defender"], cat), False),
        ]
        if step.get("upcard"):
            rows.append((cat.text("ui.upcard"), card_html(step["upcard"], cat), False))
        return Html(_table(rows) + rules_line(_rules_of(step), HAND_RULES, cat))


def resolve(result: object, path: str) -> object:
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


@dataclass(frozen=True)
class SheetStep(StepKind):
    def replay(self, step: StepState) -> Replay:
        result = engine(
            {
                "op": "sheet",
                "entries": step["entries"],
                "format": step.get("format") or "standard",
                **_with(step, "rules"),
            }
        )
        value = resolve(result, step["find"])
        kind = "hollywood" if step.get("format") == "hollywood" else "sheet"
        return Replay(
            {"value": value, "mistakes": sheet_mistakes(result, step["find"], value)},
            {"value": value},
            {"kind": kind, "entries": step["entries"], **_with(step, "rules")},
        )

    def stated_problem(self, step: StepState, replay: Replay) -> str | None:
        value = replay.check["value"]
        if isinstance(value, bool) or not isinstance(value, int):
            return f"find: {step['find']!r} is not a number in the engine's score sheet"
        if step["answer"] != value:
            return wrong(step, value)
        return None

    def judge(self, step: StepState, check: JsonObject, answer: Answer) -> Verdict:
        return judge_number(check["value"], check["mistakes"], answer)

    def table_html(self, step: StepState, replay: Replay, cat: Catalog) -> Html:
        t = cat.text
        head = f"<tr><th>#</th><th>{esc(t('ui.winner'))}</th><th>{esc(t('ui.points'))}</th></tr>"
        body = "".join(
            f"<tr><td>{i}</td><td>{esc(t('player.' + str(e['winner'])))}</td>"
            f"<td>{e['points']}</td></tr>"
            for i, e in enumerate(step["entries"], 1)
        )
        return Html(
            f'<table class="gin-sheet"><thead>{head}</thead><tbody>{body}</tbody></table>'
            + rules_line(_rules_of(step), GAME_RULES, cat)
        )


@dataclass(frozen=True)
class MoveStep(StepKind):
    def replay(self, step: StepState) -> Replay:
        state = engine({"op": "deal", **step["deal"], **_with(step, "rules")})
        for text in step.get("moves") or []:
            state = engine(
                {"op": "play", "state": state["state"], "action": parse_move(text, True, "moves")}
            )
        legal = {move_text({k: v for k, v in a.items() if k != "player"}) for a in state["legal"]}
        s = state["state"]
        turn = s["turn"]
        table: MoveTable = {
            "hand": s["hands"][turn],
            "upcard": s["upcard"],
            "taken": s.get("taken") or "",
            "dealer": s["dealer"],
            "turn": turn,
        }
        why: dict[
            str, JsonObject
        ] = {}  # the engine's reason for each illegal choice, when it speaks to the learner
        for choice in self.choices(step):
            if choice not in legal:
                action = {**parse_move(choice, False), "player": turn}
                refused = api_call({"op": "play", "state": s, "action": action})
                if not refused["ok"] and refused["error"]["code"] in MOVE_REASONS:
                    why[choice] = {k: refused["error"][k] for k in ("code", "params")}
        return Replay(
            {"legal": [c for c in self.choices(step) if c in legal], "why": why},
            {"upcard": s["upcard"]},
            None,
            table,
        )

    def stated_problem(self, step: StepState, replay: Replay) -> str | None:
        legal = replay.check["legal"]
        if step["answer"] not in step["choices"]:
            return f"the answer {step['answer']!r} is not one of the choices"
        if step["answer"] not in legal:
            return wrong(step, f"{step['answer']!r} is not a legal move now")
        if len(legal) > 1:
            other = next(c for c in legal if c != step["answer"])
            return f"the choice {other!r} is legal too: a step needs exactly one right choice"
        return None

    def judge(self, step: StepState, check: JsonObject, answer: Answer) -> Verdict:
        if answer in check["legal"]:
            return Verdict(True)
        reason = check["why"].get(answer)
        if reason:
            return Verdict(False, f"error.{reason['code']}", reason["params"])
        return Verdict(False, "tutorial.why.move")

    def table_html(self, step: StepState, replay: Replay, cat: Catalog) -> Html:
        table, t = replay.table, cat.text
        assert table is not None, "a move step's replay sets its table"
        who = "tutorial.dealer" if table["dealer"] == table["turn"] else "tutorial.non_dealer"
        rows = [
            (t("tutorial.you_are"), esc(t(who)), False),
            (t("tutorial.your_hand"), cards_html(table["hand"], cat), False),
        ]
        if table["taken"]:
            rows.append((t("tutorial.taken"), card_html(table["taken"], cat), False))
        else:
            rows.append((t("ui.upcard"), card_html(table["upcard"], cat), False))
        return _table(rows)

    def choices(self, step: StepState) -> list[str]:
        return step["choices"]

    def choice_html(self, step: StepState, choice: str, cat: Catalog) -> Html:
        parts = choice.split()
        card = card_html(parts[1], cat) if len(parts) > 1 else ""
        return cat.html(f"tutorial.move.{parts[0]}", card=card)


def wrong(step: StepState, detail: object) -> str:
    return f"the stated answer {step['answer']!r} is not what the engine computes: {detail}"


MOVE_REASONS = (
    "must_draw_stock",
    "cannot_discard_taken_card",
    "discard_pile_empty",
    "knock_over_limit",
    "gin_required",
    "not_gin",
    "card_not_in_hand",
)
"""The engine's refusals that tell a learner why a move is not allowed (the others name the
engine's phases and are told as tutorial.why.move)."""


Mistake = tuple[str, int, dict[str, object]]
"""A likely wrong number: the message that says what was left out, the number, its params."""


def judge_number(right: int, mistakes: list[Mistake], answer: Answer) -> Verdict:
    """A number given as an answer: right, one of the likely mistakes (each with the message
    that says what was left out), or simply wrong."""
    if answer == right:
        return Verdict(True)
    for key, value, params in mistakes:
        if answer == value:
            return Verdict(False, f"tutorial.why.{key}", params)
    return Verdict(False, "tutorial.why.number", {"value": answer})


def score_check(result: JsonObject) -> JsonObject:
    """What a score answer is judged against: the points, and the likely wrong answers, each
    with the message that says what was left out."""
    mult = result["multiplier"]
    final = next(s for s in result["steps"] if s["code"] in POINTS_STEPS)
    mistakes: list[Mistake] = []
    if result["outcome"] == "undercut":
        mistakes += [
            ("undercut_bonus", final["difference"] * mult, {"bonus": final["bonus"]}),
            ("undercut_difference", final["bonus"] * mult, {"difference": final["difference"]}),
        ]
    elif result["outcome"] in GIN_OUTCOMES:
        mistakes.append(
            (
                f"{result['outcome']}_bonus",
                result["defender_points"] * mult,
                {"bonus": final.get("bonus", 0)},
            )
        )
    if result["lay_offs"]:
        laid = " ".join(l["card"] for l in result["lay_offs"])
        before = result["defender_points"] + sum(c.value for c in parse_cards(laid))
        mistakes.append(
            ("before_lay_offs", (before - result["knocker_points"]) * mult, {"cards": laid})
        )
    if mult > 1:
        mistakes.append(("spade_double", result["points"] // mult, {"upcard": result["upcard"]}))
    return {
        "points": result["points"],
        "mistakes": [m for m in mistakes if m[1] != result["points"]],
        "outcome": result["outcome"],
    }


def sheet_mistakes(result: JsonObject, path: str, value: object) -> list[Mistake]:
    """The likely wrong totals of a player (``totals.N``): each bonus left out."""
    parts = path.split(".")
    if len(parts) != 2 or parts[0] != "totals" or "game_bonus" not in result:
        return []
    player = int(parts[1])
    won = result.get("winner") == player
    left_out = [
        ("box_bonus", result["box_bonus"][player], {"boxes": result["boxes"][player]}),
        ("game_bonus", result["game_bonus"] if won else 0, {}),
        ("shutout_bonus", result["shutout_bonus"] if won else 0, {}),
    ]
    mistakes = [
        (key, value - amount, {**params, "amount": amount})
        for key, amount, params in left_out
        if amount
    ]
    if sum(m[2]["amount"] for m in mistakes) and len(mistakes) > 1:
        mistakes.append(("no_bonuses", result["points"][player], {}))
    return [m for m in mistakes if m[1] != value]


def _rules() -> Field:
    return Field("rules", F.RULES, required=False)


def _upcard() -> Field:
    return Field("upcard", F.CARD, required=False)


STEPS: dict[str, StepKind] = {
    k.name: k
    for k in (
        DiscardStep(
            "discard", (Field("hand", F.CARDS11), _rules(), _upcard()), F.CARD, "pick", True
        ),
        DeadwoodStep("deadwood", (Field("hand", F.CARDS10OR11),), F.Number()),
        MeldsStep("melds", (Field("hand", F.CARDS10),), F.Cards(), "picks"),
        KnockStep(
            "knock",
            (
                Field("hand", F.CARDS11),
                _rules(),
                _upcard(),
                Field("choices", Verdicts(), required=False),
            ),
            F.Choice(VERDICTS),
            "choice",
            True,
        ),
        LayoffStep(
            "layoff",
            (Field("knocker_melds", F.MELDS), Field("defender", F.CARDS10)),
            F.Cards(),
            "picks",
        ),
        ScoreStep(
            "score",
            (Field("knocker", F.CARDS10OR11), Field("defender", F.CARDS10), _rules(), _upcard()),
            F.Number(),
            rules=True,
        ),
        SheetStep(
            "sheet",
            (
                Field("entries", F.ENTRIES),
                Field("find", Path()),
                _rules(),
                Field("format", F.Choice(("standard", "hollywood")), required=False),
            ),
            F.Number(),
            rules=True,
        ),
        MoveStep(
            "move",
            (
                Field("deal", Deal()),
                Field("choices", Moves(choices=True)),
                Field("moves", Moves(), required=False),
                _rules(),
            ),
            F.Choice(()),
            "choice",
            True,
        ),
    )
}
"""Every kind of lesson step, by its ``ask``."""


def read_step(data: object, lesson_rules: str | None = None) -> StepState:
    """A step's fields (without its message ids) checked and canonical; ``answer`` too, when
    given. A lesson's rules apply to its steps that have rules and name none."""
    if not isinstance(data, dict):
        raise F.bad("step", "a mapping of fields", data)
    name = data.get("ask")
    if not isinstance(name, str) or name not in STEPS:
        shown = name if isinstance(name, str) else repr(name)
        raise StepError(
            "unknown_kind",
            f"unknown kind ask: {shown[:40]!r}; use one of {', '.join(STEPS)}",
            kind=shown[:40],
            kinds=list(STEPS),
        )
    kind = STEPS[name]
    own = {k: v for k, v in data.items() if k not in COMMON}
    # each field read by its type, so the step has the shape its kind's fields give it
    out = cast(
        StepState,
        {
            "ask": name,
            **({"id": data["id"]} if "id" in data else {}),
            **F.read_fields(own, kind.fields, f"a {name} step"),
        },
    )
    if kind.rules and lesson_rules and "rules" not in out:
        out["rules"] = lesson_rules
    if "answer" in data:
        answer = data["answer"]
        out["answer"] = (
            F.Choice(tuple(kind.choices(out))).parse(answer, "answer")
            if name == "move"
            else kind.answer.parse(answer, "answer")
        )
    return out


def replay(step: StepState) -> Replay:
    return STEPS[step["ask"]].replay(step)


def stated_problem(step: StepState, replayed: Replay) -> str | None:
    """What is wrong with the author's answer, or None when the engine confirms it."""
    return STEPS[step["ask"]].stated_problem(step, replayed)


# --- markup -------------------------------------------------------------------------------------


def message_html(key: str, params: Mapping[str, object], cat: Catalog) -> Html:
    """A lesson message with its placeholders filled: cards drawn, numbers as they are. A
    placeholder the step cannot fill is a StepError (``missing_param``)."""
    missing = [n for n in re.findall(r"\{(\w+)\}", cat.template(key)) if n not in params]
    if missing:
        raise StepError(
            "missing_param",
            f"message {key!r} ({cat.language}) uses {{{missing[0]}}}, "
            f"which this step does not provide (it has {', '.join(sorted(params))})",
            key=key,
            param=missing[0],
        )
    filled: dict[str, object] = {}
    for name, value in params.items():
        if name in ("discard", "deadwood", "cards", "upcard", "card") and isinstance(value, str):
            filled[name] = (
                card_html(value, cat) if len(value.split()) == 1 else cards_html(value, cat)
            )
        elif value is None:
            filled[name] = cat.text("rule.no_big_gin")
        else:
            filled[name] = value
    return cat.html(key, **filled)


def params_of(step: StepState, replayed: Replay) -> dict[str, object]:
    """The placeholder values of a step's messages: the preset's numbers, what the engine
    found, and the stated answer's card."""
    return {**_numbers(step), **replayed.params, **_with(step, "upcard")}


def form_html(step: StepState, cat: Catalog, hints: bool) -> Html:
    """The answer controls (hidden until the page's script shows them: without it the
    question and its worked answer stay)."""
    kind = STEPS[step["ask"]]
    name = f"gin-{step['id']}"
    legend = esc(cat.text(f"tutorial.ask.{kind.name}"))
    if kind.control in ("pick", "picks"):
        input_type = "radio" if kind.control == "pick" else "checkbox"
        control = (
            '<span class="gin-picks">'
            + "".join(
                f'<label class="gin-pick"><input type="{input_type}" name="{name}" value="{c}">'
                f"{card_html(c, cat)}</label>"
                for c in kind.pickable(step).split()
            )
            + "</span>"
        )
    elif kind.control == "choice":
        control = (
            '<span class="gin-choices">'
            + "".join(
                f'<label class="gin-choice"><input type="radio" name="{name}" value="{esc(c)}"> '
                f"{kind.choice_html(step, c, cat)}</label>"
                for c in kind.choices(step)
            )
            + "</span>"
        )
    else:
        control = (
            f'<input class="gin-number" type="number" inputmode="numeric" min="0" '
            f'max="{F.MAX_POINTS}" step="1" name="{name}" aria-label="{legend}">'
        )
    hint = (
        f'<button type="button" class="gin-lesson-hint-button">{esc(cat.text("tutorial.hint"))}'
        f"</button>"
        if hints
        else ""
    )
    return Html(
        f'<form class="gin-lesson-form" hidden><fieldset><legend>{legend}</legend>{control}'
        f'</fieldset><p class="gin-lesson-buttons"><button type="submit" class="gin-lesson-check">'
        f"{esc(cat.text('tutorial.check'))}</button>{hint}</p></form>"
    )


def step_html(step: StepState, messages: StepMessages, replayed: Replay, cat: Catalog) -> Html:
    """A whole step as the build writes it: the question, the cards, the answer form, the
    feedback line, the hints and the worked answer. ``messages``: the step's message ids
    (``text``, ``hints``, ``explain``)."""
    params = params_of(step, replayed)
    kind = STEPS[step["ask"]]
    question = message_html(messages["text"], params, cat)
    hints = "".join(
        f'<p class="gin-lesson-hint" hidden>{message_html(h, params, cat)}</p>'
        for h in messages.get("hints", [])
    )
    explain = message_html(messages["explain"], params, cat)
    worked = worked_html(replayed.example, cat) if replayed.example else ""
    client = {k: v for k, v in step.items() if k not in MESSAGE_FIELDS}
    data = esc(json.dumps(client, ensure_ascii=False, separators=(",", ":")))
    return Html(
        f'<div class="gin-lesson-step" id="step-{step["id"]}" data-step="{step["id"]}" '
        f'data-ask="{kind.name}" data-gin-step="{data}">'
        f'<p class="gin-lesson-question">{question}</p>{kind.table_html(step, replayed, cat)}'
        f"{form_html(step, cat, bool(messages.get('hints')))}"
        f'<div class="gin-lesson-feedback" role="status" aria-live="polite"></div>'
        f'<div class="gin-lesson-hints">{hints}</div>'
        f'<details class="gin-lesson-solution"><summary>{esc(cat.text("tutorial.show_answer"))}'
        f'</summary><div class="gin-lesson-explain"><p>{explain}</p>{worked}</div></details></div>'
    )


# --- a learner's answer ---------------------------------------------------------------------------


def read_answer(step: StepState, text: object) -> Answer:
    """A learner's answer as the form sends it (a card, cards, a number, a choice)."""
    kind = STEPS[step["ask"]]
    if kind.control == "number":
        if isinstance(text, str) and text.strip().isdigit() and len(text.strip()) < 7:
            return int(text.strip())
        raise F.bad("answer", "a whole number", text)
    if kind.control == "picks":
        return F.Cards().parse(text, "answer") if text else ""
    if kind.control == "pick":
        return F.CARD.parse(text, "answer")
    return F.Choice(tuple(kind.choices(step))).parse(text, "answer")


def feedback(step: object, answer: object, cat: Catalog) -> JsonObject:
    """Judge a learner's answer to a step (replayed through the engine): ``right`` and the
    ``html`` that says so, and why not."""
    step = read_step(step)
    value = read_answer(step, answer)
    kind = STEPS[step["ask"]]
    verdict = kind.judge(step, kind.replay(step).check, value)
    if verdict.right:
        text = f'<strong class="gin-lesson-right">{esc(cat.text("tutorial.right"))}</strong>'
    else:
        why = message_html(verdict.key, verdict.params, cat)
        text = f'<strong class="gin-lesson-wrong">{esc(cat.text("tutorial.wrong"))}</strong> {why}'
    return {"right": verdict.right, "html": f"<p>{text}</p>"}
