"""Live examples: the kinds, each with its fields, its engine request and its markup.

An example's **state** is a dict: its ``kind`` and its fields, canonical (see
:mod:`ginview.fields`), e.g. ``{"kind": "score", "knocker": "2S 3S …", "defender": "…",
"rules": "standard"}``. :func:`read_state` makes any written state canonical (a fence, a
reader's edit, a share link); :func:`render` asks the engine and returns the markup. The build
writes :func:`example_html` into the page; the browser's worker runs the same code after each
edit and puts the new :func:`view_html` in place, so an example is drawn by one piece of code.

=========== ====================================================================================
kind        fields (``rules``: a preset name; ``upcard``: optional unless stated)
=========== ====================================================================================
melds       ``hand``: 10 or 11 cards
knock       ``hand``: 11 cards; ``rules``, ``upcard``
layoffs     ``knocker_melds``: the knocker's melds; ``defender``: 10 cards
score       ``knocker``: 10 cards (11: big gin); ``defender``: 10 cards; ``rules``, ``upcard``
oklahoma    as score, with ``rules`` oklahoma by default (the engine asks for the ``upcard``)
sheet       ``entries``: hands won, like ``["A 25", "B 14"]``; ``rules``
hollywood   as sheet, scored as three Hollywood columns
hand        ``deal`` (``{seed, dealer}`` or ``{deck, dealer}``), ``moves`` (like
            ``["pass 1", "take_upcard 0", "discard 0 8H"]``), ``rules``: a whole hand, drawn
            move by move with its score (not editable)
=========== ====================================================================================
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from ginrummy import api
from ginrummy.actions import DRAW_KINDS
from ginrummy.errors import GinRummyError
from ginrummy.vocab import RuleField

from . import fields as F
from .catalog import Catalog, Html, esc
from .fields import Field, FieldError
from .markup import (
    card_html,
    card_text,
    cards_html,
    hand_buttons,
    knocker_label,
    melds_buttons,
    melds_html,
    none_html,
    player_name,
    rules_line,
    step_html,
    step_text,
    steps_html,
)
from .shapes import ExampleState, JsonObject, Written

T = TypeVar("T")


class ExampleError(GinRummyError):
    """An example the engine refuses, or a state that is not an example; ``code`` and
    ``params`` as the engine's (or :class:`~ginview.fields.FieldError`'s)."""


def engine(request: JsonObject) -> JsonObject:
    """The engine's result for a request, or its coded error raised as an ExampleError."""
    response = api.call({"v": 1, **request})
    if not response["ok"]:
        error = response["error"]
        raise ExampleError(error["code"], error["message"], **error["params"])
    result: JsonObject = response["result"]
    return result


@dataclass(frozen=True)
class Kind:
    """One kind of example. ``numbers``: the preset numbers it depends on, shown with it."""

    name: str
    fields: tuple[Field, ...]
    numbers: tuple[RuleField, ...] = ()
    status: str = "ui.ready_cards"  # what the reader can do with it, once live

    static = False  # drawn, not edited: no controls

    def request(self, state: ExampleState) -> JsonObject:
        raise NotImplementedError

    def compute(self, state: ExampleState) -> JsonObject:
        """What the engine says of the state (one request; a kind may need more)."""
        return engine(self.request(state))

    def inputs_html(self, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
        raise NotImplementedError

    def output_html(self, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
        raise NotImplementedError

    def summary(self, state: ExampleState, result: JsonObject, cat: Catalog) -> str:
        """One sentence for the status line after a change (read out by screen readers)."""
        raise NotImplementedError

    def worked_html(self, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
        """The example as a lesson's worked answer: what the engine found."""
        return self.output_html(state, result, cat)

    def edit(self, state: ExampleState, edit: Mapping[str, object]) -> Written:
        """The state after a reader's edit (not yet checked by the engine)."""
        raise ExampleError(
            "bad_edit",
            f"a {self.name} example cannot be edited that way",
            edit=sorted(edit)[0] if edit else "",
        )


def _with(state: ExampleState, *names: str) -> dict[str, object]:
    return {n: _field(state, n) for n in names if _field(state, n) is not None}


def _field(state: ExampleState, name: str) -> object:
    """A field of the state by its name, as a kind's ``fields`` list them (None if not
    given)."""
    fields: Mapping[str, object] = state
    return fields.get(name)


# --- kinds with cards -----------------------------------------------------------------------------

CARD_LABELS = {
    "hand": "ui.hand",
    "knocker": "ui.knocker_hand",
    "defender": "ui.defender_hand",
    "upcard": "ui.upcard",
    "knocker_melds": "ui.knocker_melds",
}


@dataclass(frozen=True)
class CardKind(Kind):
    """An example whose input is cards: the reader changes a card, types cards or picks rules."""

    def card_fields(self, state: ExampleState) -> list[Field]:
        return [
            f for f in self.fields if isinstance(f.type, (F.Cards, F.Melds)) and state.get(f.name)
        ]

    def label(self, f: Field, result: JsonObject | None) -> str:
        """The message of a field's label (a kind may name a field by the result)."""
        return f.label

    def inputs_html(self, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
        rows = []
        for f in self.card_fields(state):
            label = cat.text(self.label(f, result))
            value = _field(state, f.name)  # a Melds field's a list, a Cards field's a text
            group = (
                melds_buttons(value, cat, f.name, label)
                if isinstance(value, list)
                else hand_buttons(str(value), cat, f.name, label)
            )
            rows.append(f"<dt>{esc(label)}</dt><dd>{group}</dd>")
        return Html(f'<dl class="gin-inputs">{"".join(rows)}</dl>')

    def typing_html(self, state: ExampleState, result: JsonObject | None, cat: Catalog) -> Html:
        """Fields to type the cards into (live only)."""
        inputs = []
        for f in self.fields:
            if not isinstance(f.type, (F.Cards, F.Melds)):
                continue
            value = state.get(f.name) or ""
            text = " / ".join(value) if isinstance(value, list) else value
            inputs.append(
                f'<label>{esc(cat.text(self.label(f, result)))} <input class="gin-text" '
                f'data-field="{f.name}" autocomplete="off" spellcheck="false" '
                f'value="{esc(text)}"></label>'
            )
        return Html(
            f'<details class="gin-type gin-edit"><summary>{esc(cat.text("ui.type_cards"))}'
            f"</summary>{''.join(inputs)}</details>"
        )

    def edit(self, state: ExampleState, edit: Mapping[str, object]) -> Written:
        """``{"field", "index", "card"[, "meld"]}``: one card replaced (or swapped with the
        same card elsewhere in the example); ``{"field", "text"}``: a field typed anew;
        ``{"rules"}``: another preset."""
        if set(edit) == {"rules"}:
            return {**state, "rules": edit["rules"]}
        name = edit.get("field")
        if not isinstance(name, str) or not any(
            f.name == name
            for f in self.card_fields(state) + [f for f in self.fields if f.name == "upcard"]
        ):
            raise ExampleError("bad_edit", f"no card field {str(name)[:40]!r}", edit="field")
        if set(edit) == {"field", "text"}:
            return {**state, name: edit["text"]}
        if set(edit) - {"meld"} != {"field", "index", "card"}:
            raise ExampleError("bad_edit", "an edit is a card, a text or rules", edit="kind")
        card = F.CARD.parse(edit["card"], "card")
        return swap_card(state, self, name, edit.get("meld"), edit["index"], card)


Slot = tuple[str, int | None, int]
"""A card's position in an example: its field, its meld (None in a hand), its index."""


def _slots(state: ExampleState, kind: CardKind) -> Iterator[tuple[str, int | None, int, str]]:
    """Every card position in the example: (field, meld or None, index, card)."""
    for f in kind.card_fields(state):
        value = _field(state, f.name)
        if isinstance(value, list):
            for m, meld in enumerate(value):
                for i, c in enumerate(meld.split()):
                    yield f.name, m, i, c
        else:
            for i, c in enumerate(str(value).split()):
                yield f.name, None, i, c


def swap_card(
    state: ExampleState, kind: CardKind, field: str, meld: object, index: object, card: str
) -> Written:
    """``card`` put at one position; if it was elsewhere in the example, the card it replaces
    goes there (the two swap)."""
    slots = list(_slots(state, kind))
    target = next((s for s in slots if s[:3] == (field, meld, index)), None)
    if target is None:
        raise ExampleError("bad_edit", "no card at that position", edit="index")
    placed: dict[Slot, str] = {target[:3]: card}
    for slot in slots:
        if slot[3] == card and slot[:3] != target[:3]:
            placed[slot[:3]] = target[3]
    out: dict[str, object] = dict(state)
    for (name, m, i), new in placed.items():
        value = out[name]
        if isinstance(value, list) and m is not None:  # a meld's card (a hand's has no meld)
            cards = value[m].split()
            cards[i] = new
            out[name] = [*value[:m], " ".join(cards), *value[m + 1 :]]
        else:
            cards = str(value).split()
            cards[i] = new
            out[name] = " ".join(cards)
    return out


@dataclass(frozen=True)
class MeldsKind(CardKind):
    def request(self, state: ExampleState) -> JsonObject:
        op = "knock" if self.name == "knock" else "melds"
        return {
            "op": op,
            "cards": state["hand"],
            **(_with(state, "rules", "upcard") if op == "knock" else {}),
        }

    def output_html(self, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
        rows = [
            _row(cat.text("ui.melds"), melds_html(result["melds"], cat)),
            _row(
                cat.text("ui.deadwood"),
                Html(cards_html(result["deadwood"], cat) + _points(result["points"])),
            ),
        ]
        if result["discard"]:
            rows.append(_row(cat.text("ui.discard"), card_html(result["discard"], cat)))
        verdict = self.verdict_html(result, cat)
        return Html(
            f'<dl class="gin-summary">{"".join(rows)}</dl>'
            + (f'<p class="gin-headline">{verdict}</p>' if verdict else "")
        )

    def verdict_html(self, result: JsonObject, cat: Catalog) -> Html:
        if self.name == "melds" or result["verdict"] == "big_gin":
            return cat.html("ui.big_gin") if result["big_gin"] else Html("")
        return cat.html(
            verdict_key(result),
            card=card_html(result["discard"], cat),
            points=result["points"],
            limit=result["limit"],
        )

    def summary(self, state: ExampleState, result: JsonObject, cat: Catalog) -> str:
        if self.name == "knock" and result["verdict"] != "big_gin":
            return cat.text(
                verdict_key(result),
                card=card_text(result["discard"]),
                points=result["points"],
                limit=result["limit"],
            )
        return cat.text("ui.summary_deadwood", points=result["points"])


def verdict_key(result: JsonObject) -> str:
    """The sentence for a knock verdict; with a limit of 0 (an ace upcard in Oklahoma) only gin
    ends the hand, which is what the reader is told."""
    if result["verdict"] == "no" and result["limit"] == 0:
        return "ui.gin_only"
    return {"gin": "ui.gin_possible", "knock": "ui.can_knock", "no": "ui.cannot_knock"}[
        result["verdict"]
    ]


@dataclass(frozen=True)
class LayoffsKind(CardKind):
    def request(self, state: ExampleState) -> JsonObject:
        return {
            "op": "layoffs",
            "knocker_melds": state["knocker_melds"],
            "defender": state["defender"],
        }

    def output_html(self, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
        lay = [
            {"code": "lay_off", "card": l["card"], "meld": l["meld"], "result": l["result"]}
            for l in result["lay_offs"]
        ]
        rows = [
            _row(cat.text("ui.lay_offs"), steps_html(lay, cat) if lay else none_html(cat)),
            _row(cat.text("ui.melds"), melds_html(result["melds"], cat)),
            _row(
                cat.text("ui.deadwood"),
                Html(cards_html(result["deadwood"], cat) + _points(result["points"])),
            ),
        ]
        return Html(f'<dl class="gin-summary">{"".join(rows)}</dl>')

    def summary(self, state: ExampleState, result: JsonObject, cat: Catalog) -> str:
        return cat.text(
            "ui.summary_layoffs", count=len(result["lay_offs"]), points=result["points"]
        )


@dataclass(frozen=True)
class ScoreKind(CardKind):
    def label(self, f: Field, result: JsonObject | None) -> str:
        if f.name == "knocker" and result:  # the hand that went gin: nobody knocked
            return knocker_label(result.get("outcome"))
        return f.label

    def request(self, state: ExampleState) -> JsonObject:
        return {"op": "score", **_with(state, "knocker", "defender", "rules", "upcard")}

    def output_html(self, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
        steps = result["steps"]
        return Html(
            f'<p class="gin-headline">{step_html(steps[-1], cat)}</p>' + steps_html(steps[:-1], cat)
        )

    def summary(self, state: ExampleState, result: JsonObject, cat: Catalog) -> str:
        return step_text(result["steps"][-1], cat)


# --- score sheets ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetKind(Kind):
    """A score sheet: the reader adds, changes and removes hands won."""

    status: str = "ui.ready_sheet"

    def request(self, state: ExampleState) -> JsonObject:
        return {
            "op": "sheet",
            "entries": state["entries"],
            "rules": state["rules"],
            "format": self.name if self.name == "hollywood" else "standard",
        }

    def finished(self, result: JsonObject) -> bool:
        return bool(result.get("finished"))

    def inputs_html(self, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
        t = cat.text
        standard = self.name != "hollywood"
        totals = {r["hand"]: r["totals"] for r in result.get("rows", [])} if standard else {}
        head = (
            f"<tr><th>#</th><th>{esc(t('ui.winner'))}</th><th>{esc(t('ui.points'))}</th>"
            + (f"<th>{esc(t('player.0'))}</th><th>{esc(t('player.1'))}</th>" if standard else "")
            + f'<th class="gin-edit"><span class="gin-sr" data-search-exclude>{esc(t("ui.remove"))}</span></th></tr>'
        )
        rows = []
        for number, entry in enumerate(state["entries"], 1):
            i = number - 1
            winner = esc(t(f"player.{entry['winner']}"))
            options = "".join(
                f'<option value="{p}"{" selected" if p == entry["winner"] else ""}>'
                f"{esc(t(f'player.{p}'))}</option>"
                for p in (0, 1)
            )
            shown = totals.get(number)
            rows.append(
                f"<tr><td>{number}</td>"
                f'<td><span class="gin-static">{winner}</span><select class="gin-edit" '
                f'data-entry="{i}" data-part="winner" aria-label="{esc(t("ui.winner_of", hand=number))}">'
                f"{options}</select></td>"
                f'<td><span class="gin-static">{entry["points"]}</span><input class="gin-edit" '
                f'type="number" min="0" max="{F.MAX_POINTS}" step="1" inputmode="numeric" '
                f'data-entry="{i}" data-part="points" value="{entry["points"]}" '
                f'aria-label="{esc(t("ui.points_of", hand=number))}"></td>'
                + (
                    f"<td>{shown[0]}</td><td>{shown[1]}</td>"
                    if shown
                    else ("<td></td><td></td>" if standard else "")
                )
                + f'<td class="gin-edit"><button type="button" class="gin-remove" data-entry="{i}" '
                f'aria-label="{esc(t("ui.remove_hand", hand=number))}">×</button></td></tr>'
            )
        caption = f"<caption>{esc(t('ui.hands'))}</caption>"
        table = (
            f'<table class="gin-sheet gin-entries">{caption}<thead>{head}</thead>'
            f"<tbody>{''.join(rows)}</tbody></table>"
        )
        over = self.finished(result)
        options = "".join(f'<option value="{p}">{esc(t(f"player.{p}"))}</option>' for p in (0, 1))
        add = (
            f'<p class="gin-add gin-edit"><label>{esc(t("ui.winner"))} <select class="gin-add-winner">'
            f"{options}</select></label> <label>{esc(t('ui.points'))} <input class='gin-add-points' "
            f'type="number" min="0" max="{F.MAX_POINTS}" step="1" inputmode="numeric" value="25">'
            f'</label> <button type="button" class="gin-add-hand"{" disabled" if over else ""}>'
            f"{esc(t('ui.add_hand'))}</button>"
            + (f' <span class="gin-note">{esc(t("ui.game_over_edit"))}</span>' if over else "")
            + "</p>"
        )
        return Html(table + add)

    def output_html(self, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
        if "columns" not in result:  # the table is the inputs'
            return steps_html([s for s in result["steps"] if s["code"] != "hand_won"], cat)
        return sheet_html(result, cat)

    def worked_html(self, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
        return Html(self.inputs_html(state, result, cat) + self.output_html(state, result, cat))

    def summary(self, state: ExampleState, result: JsonObject, cat: Catalog) -> str:
        last = result["steps"][-1] if result["steps"] else None
        return step_text(last, cat) if last else ""

    def edit(self, state: ExampleState, edit: Mapping[str, object]) -> Written:
        """``{"add": {"winner", "points"}}``, ``{"entry": i, "winner"|"points": …}``,
        ``{"remove": i}``, ``{"rules": name}``."""
        entries: list[object] = list(state["entries"])
        if set(edit) == {"rules"}:
            return {**state, "rules": edit["rules"]}
        if set(edit) == {"add"}:
            return {**state, "entries": entries + [edit["add"]]}
        index = edit.get("entry", edit.get("remove"))
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(entries):
            raise ExampleError("bad_edit", "no such hand on the sheet", edit="entry")
        if set(edit) == {"remove"}:
            return {**state, "entries": entries[:index] + entries[index + 1 :]}
        part = (set(edit) - {"entry"}).pop() if len(edit) == 2 else None
        if part not in ("winner", "points"):
            raise ExampleError("bad_edit", "a hand's winner or points", edit="part")
        entries[index] = {**state["entries"][index], part: edit[part]}
        return {**state, "entries": entries}


@dataclass(frozen=True)
class HollywoodKind(SheetKind):
    def finished(self, result: JsonObject) -> bool:
        return all(c["finished"] for c in result.get("columns", []))


# --- a whole hand, move by move ----------------------------------------------------------------


@dataclass(frozen=True)
class HandKind(Kind):
    """A hand played through: the deal, every move, the score and the sheet's entry, replayed
    by the engine's hand state machine. Drawn, not edited."""

    static = True

    def compute(self, state: ExampleState) -> JsonObject:
        current = engine({"op": "deal", **state["deal"], "rules": state["rules"]})
        start, moves = current["state"], []
        for text in state["moves"]:
            action = F.parse_move(text, True, "moves")
            before = current["state"]
            current = engine({"op": "play", "state": before, "action": action})
            moves.append({**action, **_drawn(before, current["state"], action)})
        return {"start": start, "moves": moves, "end": current["state"]}

    def inputs_html(self, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
        start, t = result["start"], cat.text
        rows = [_row(t("ui.dealer"), esc(t(f"player.{start['dealer']}")))]
        for player in (start["dealer"], 1 - start["dealer"]):
            rows.append(
                _row(
                    t("ui.hand_of", player=player_name(player, cat)),
                    cards_html(start["hands"][player], cat),
                )
            )
        rows.append(_row(t("ui.upcard"), card_html(start["upcard"], cat)))
        return Html(f'<dl class="gin-inputs">{"".join(rows)}</dl>')

    def output_html(self, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
        moves = "".join(f"<li>{_move_html(m, cat)}</li>" for m in result["moves"])
        out = f'<ol class="gin-moves">{moves}</ol>'
        end = result["end"]
        if end.get("result"):
            steps = end["result"]["steps"]
            out += f'<p class="gin-headline">{step_html(steps[-1], cat)}</p>' + steps_html(
                steps[:-1], cat
            )
            out += (
                f"<p>{cat.html('hand.entry', player=player_name(_winner(end), cat), points=end['result']['points'])}"
                f"</p>"
            )
        elif end.get("outcome") == "dead":  # who deals next follows the rules
            dead = cat.html(f"hand.dead.{end['rules']['void_deal']}")
            out += f'<p class="gin-headline">{dead}</p>'
        return Html(out)

    def summary(self, state: ExampleState, result: JsonObject, cat: Catalog) -> str:
        return ""


def _drawn(before: JsonObject, after: JsonObject, action: JsonObject) -> dict[str, str]:
    """The card a draw brought into the player's hand (what the table saw or the player did)."""
    if action["kind"] not in DRAW_KINDS:
        return {}
    player = action["player"]
    new = set(after["hands"][player].split()) - set(before["hands"][player].split())
    return {"card": new.pop()} if new else {}


def _winner(end: JsonObject) -> int:
    knocker: int = end["knocker"]
    return knocker if end["result"]["winner"] == "knocker" else 1 - knocker


def _move_html(move: JsonObject, cat: Catalog) -> Html:
    params: dict[str, object] = {"player": player_name(move["player"], cat)}
    if move.get("card"):
        params["card"] = card_html(move["card"], cat)
    return cat.html(f"hand.{move['kind']}", **params)


def sheet_table(
    sheet: JsonObject,
    cat: Catalog,
    caption: str = "",
    names: tuple[str, str] | None = None,
    voids: Sequence[int] = (),
) -> Html:
    """A score sheet's rows as a table; ``names``: the two players' (Player A and B);
    ``voids``: the numbers of void hands, each a row in its place where nobody scored."""
    t = cat.text
    names = names or (t("player.0"), t("player.1"))
    head = (
        f"<tr><th>#</th><th>{esc(t('ui.winner'))}</th><th>{esc(t('ui.points'))}</th>"
        f"<th>{esc(names[0])}</th><th>{esc(names[1])}</th></tr>"
    )

    def row(hand: int, winner: str, points: int, totals: Sequence[int], cls: str = "") -> str:
        return (
            f"<tr{cls}><td>{hand}</td><td>{esc(winner)}</td>"
            f"<td>{points}</td><td>{totals[0]}</td><td>{totals[1]}</td></tr>"
        )

    rows: list[str] = []
    totals: Sequence[int] = (0, 0)
    pending = sorted(voids)
    void = ' class="gin-void"'
    for r in sheet["rows"]:
        while pending and pending[0] < r["hand"]:
            rows.append(row(pending.pop(0), t("ui.void_hand"), 0, totals, void))
        rows.append(row(r["hand"], names[r["winner"]], r["points"], r["totals"]))
        totals = r["totals"]
    rows += [row(n, t("ui.void_hand"), 0, totals, void) for n in pending]
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return Html(
        f'<table class="gin-sheet">{cap}<thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'
    )


def sheet_html(sheet: JsonObject, cat: Catalog, names: tuple[str, str] | None = None) -> Html:
    """A whole score sheet as the engine's ``sheet`` gives it: its table, or for Hollywood each
    column's table with what happened in it; then the rest of its steps (the hands won are in
    the tables)."""
    steps = [s for s in sheet["steps"] if s["code"] != "hand_won"]
    if "columns" not in sheet:
        return Html(str(sheet_table(sheet, cat, names=names)) + str(steps_html(steps, cat)))
    columns = []
    for column in sheet["columns"]:  # each column's table, then what happened in it
        number = column["column"]
        state_word = cat.text("ui.closed" if column["finished"] else "ui.open")
        caption = f"{cat.text('ui.column', column=number)} ({state_word})"
        own = [s for s in steps if s.get("column") == number]
        columns.append(
            f'<div class="gin-column">{sheet_table(column, cat, caption, names)}'
            f"{steps_html(own, cat) if own else ''}</div>"
        )
    rest = [s for s in steps if "column" not in s]
    return Html('<div class="gin-columns">' + "".join(columns) + "</div>" + steps_html(rest, cat))


def _row(label: str, value: Html) -> str:
    return f"<dt>{esc(label)}</dt><dd>{value}</dd>"


def _points(n: int) -> str:
    return f' <strong class="gin-points">{n}</strong>'


# --- the registry -----------------------------------------------------------------------------------

HAND_RULES: tuple[RuleField, ...] = (
    "knock_limit",
    "gin_bonus",
    "big_gin_bonus",
    "undercut_bonus",
    "tie",
)
GAME_RULES: tuple[RuleField, ...] = ("game_target", "game_bonus", "box_bonus", "shutout")


# The kinds' fields are made once, at import (KINDS): not mutated, since no mutant of them
# could run (make mutate).
def _rules(default: str = "standard") -> Field:  # pragma: no mutate block
    return Field("rules", F.RULES, required=False, default=default)


def _cards(
    name: str, kind: F.FieldType[T], required: bool = True
) -> Field:  # pragma: no mutate block
    return Field(name, kind, required, CARD_LABELS[name])


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        MeldsKind("melds", (_cards("hand", F.CARDS10OR11),)),
        MeldsKind(
            "knock",
            (_cards("hand", F.CARDS11), _rules(), _cards("upcard", F.CARD, False)),
            ("knock_limit",),
        ),
        LayoffsKind("layoffs", (_cards("knocker_melds", F.MELDS), _cards("defender", F.CARDS10))),
        ScoreKind(
            "score",
            (
                _cards("knocker", F.CARDS10OR11),
                _cards("defender", F.CARDS10),
                _rules(),
                _cards("upcard", F.CARD, False),
            ),
            HAND_RULES,
        ),
        ScoreKind(
            "oklahoma",
            (
                _cards("knocker", F.CARDS10OR11),
                _cards("defender", F.CARDS10),
                _rules("oklahoma"),
                _cards("upcard", F.CARD, False),
            ),
            HAND_RULES,
        ),
        SheetKind("sheet", (Field("entries", F.ENTRIES), _rules()), GAME_RULES),
        HollywoodKind("hollywood", (Field("entries", F.ENTRIES), _rules()), GAME_RULES),
        HandKind(
            "hand",
            (Field("deal", F.Deal()), Field("moves", F.Moves()), _rules()),
            HAND_RULES,
            status="",
        ),
    )
}
"""Every kind of example, by name."""


def kind_of(data: object) -> Kind:
    name = data.get("kind") if isinstance(data, dict) else None
    if not isinstance(name, str) or name not in KINDS:
        shown = name if isinstance(name, str) else repr(name)
        raise FieldError(
            "unknown_kind",
            f"unknown example kind {shown[:40]!r}; use one of {', '.join(KINDS)}",
            kind=shown[:40],
            kinds=list(KINDS),
        )
    return KINDS[name]


def read_state(data: Mapping[str, object]) -> ExampleState:
    """A written example (a fence's fields, a reader's edit, a share link) as a canonical
    state; a FieldError (or CardError) names what is wrong. The engine is not asked yet."""
    kind = kind_of(data)
    fields = read_fields_of(kind, {k: v for k, v in data.items() if k != "kind"})
    # each field read by its type, so the state has the shape the kind's fields give it
    return cast(ExampleState, {"kind": kind.name, **fields})


def read_fields_of(kind: Kind, data: Mapping[str, object]) -> dict[str, Any]:
    return F.read_fields(data, kind.fields, f"a {kind.name} example")


@dataclass(frozen=True)
class Rendered:
    """An example drawn: its canonical state, the engine's result, the markup of its view
    (what a change replaces), its share-link text and its status sentence."""

    state: ExampleState
    result: JsonObject
    view: Html
    link: str
    summary: str

    def to_json(self) -> JsonObject:
        return {
            "state": self.state,
            "view": str(self.view),
            "link": self.link,
            "summary": self.summary,
        }


def render(written: Written, cat: Catalog) -> Rendered:
    """Check a state (canonical already, or written: it is read first), ask the engine, draw."""
    state = read_state(written)
    kind = KINDS[state["kind"]]
    result = kind.compute(state)
    return Rendered(
        state,
        result,
        view_html(kind, state, result, cat),
        link(state),
        kind.summary(state, result, cat),
    )


def worked_html(written: Written, cat: Catalog) -> Html:
    """An example's result alone (a lesson step's worked answer)."""
    state = read_state(written)
    kind = KINDS[state["kind"]]
    return kind.worked_html(state, kind.compute(state), cat)


def view_html(kind: Kind, state: ExampleState, result: JsonObject, cat: Catalog) -> Html:
    """What an edit redraws: the inputs, the rules line, the result, the typing fields."""
    rules = (
        rules_line(state["rules"], kind.numbers, cat, choose=not kind.static)
        if kind.numbers
        else Html("")
    )
    typing = kind.typing_html(state, result, cat) if isinstance(kind, CardKind) else ""
    return Html(
        f"{kind.inputs_html(state, result, cat)}{rules}"
        f'<div class="gin-output">{kind.output_html(state, result, cat)}</div>{typing}'
    )


def example_html(rendered: Rendered, cat: Catalog) -> Html:
    """A whole example, as the build writes it into a page: the view, the controls (shown
    once the page's script runs), the "you changed it" notice and the status line. The search
    leaves it out (``data-search-exclude``, on a ``section``: material's search indexer matches
    elements by tag, so the excluded one must not hold another of its tag): a result quotes the
    page's own words, not the example's labels and screen-reader text."""
    state = rendered.state
    kind = KINDS[state["kind"]]
    data = esc(json.dumps(state, ensure_ascii=False, separators=(",", ":")))
    t = cat.text
    if kind.static:  # a drawing: no controls, no status
        return Html(
            f'<section class="gin-example gin-static-example" data-gin-kind="{kind.name}" '
            f'data-gin="{data}" data-search-exclude><div class="gin-view">{rendered.view}</div>'
            "</section>"
        )
    tools = (
        f'<div class="gin-tools gin-edit">'
        f'<button type="button" class="gin-undo" disabled>{esc(t("ui.undo"))}</button>'
        f'<button type="button" class="gin-share">{esc(t("ui.share"))}</button></div>'
        f'<p class="gin-changed" hidden>{esc(t("ui.changed"))} '
        f'<button type="button" class="gin-reset">{esc(t("ui.back_to_original"))}</button></p>'
    )
    return Html(
        f'<section class="gin-example" data-gin-kind="{kind.name}" data-gin="{data}" '
        f'data-gin-link="{esc(rendered.link)}" data-gin-ready-text="{esc(t(kind.status))}" '
        f"data-search-exclude>"
        f'<div class="gin-view">{rendered.view}</div>{tools}'
        f'<p class="gin-status" role="status"></p></section>'
    )


# --- share links --------------------------------------------------------------------------------


def link(state: ExampleState) -> str:
    """The state as share-link text: ``knocker:2S-3S-…;defender:…;rules:pagat``."""
    kind = KINDS[state["kind"]]
    if kind.static:
        return ""
    return ";".join(
        f"{f.name}:{f.type.to_link(_field(state, f.name))}"
        for f in kind.fields
        if _field(state, f.name) is not None
    )


def from_link(kind_name: str, text: str) -> ExampleState:
    """The state a share link's text describes (read and checked, not yet rendered)."""
    kind = KINDS[kind_name]
    types = {f.name: f.type for f in kind.fields}
    data: dict[str, object] = {"kind": kind_name}
    for part in text.split(";") if text else []:
        name, sep, value = part.partition(":")
        if not sep or name not in types or name in data:
            raise FieldError(
                "bad_link", f"not a part of a {kind_name} link: {part[:40]!r}", part=part[:40]
            )
        data[name] = types[name].from_link(value)
    return read_state(data)
