"""Live examples: a ```gin fence in a page becomes a complete example, rendered at build time.

An example is written in any language's Markdown as a fenced block whose body is YAML::

    ```gin
    kind: score
    knocker: 2S 3S 4S 7H 7D 7C 9C TC JC 5D
    defender: 8S 9S TS KH KD 4H 6C 6H 2C AD
    rules: standard
    ```

The build runs the engine on it (the same request the browser sends later), so a bad card, a
wrong count or an illegal knock stops the build with the file, the line and the problem. The
result is written into the page as plain, accessible HTML in the page's language: a reader
without JavaScript or WebAssembly gets the whole example. ``gin.js`` makes it live; it reads
the example from ``data-gin`` and renders answers with the same markup (``docs/assets/gin/``).

Kinds and their fields (``rules`` is a preset name, default ``standard``; ``upcard`` optional):

=========== ===================================================================
melds       ``hand``: 10 or 11 cards
knock       ``hand``: 11 cards; ``rules``, ``upcard``
layoffs     ``knocker_melds``: a list of melds; ``defender``: 10 cards
score       ``knocker``: 10 cards (11: big gin); ``defender``: 10 cards; ``rules``, ``upcard``
oklahoma    as score, with ``upcard`` required and ``rules`` defaulting to oklahoma
sheet       ``entries``: a list like ``["A 25", "B 14"]`` (winner, points); ``rules``
hollywood   as sheet
=========== ===================================================================
"""

from __future__ import annotations

import html
import json
import re

import yaml

from ginrummy import RULESETS, Card, api

from . import BuildError
from .catalogs import Catalog
from .macros import rule_value

FENCE = re.compile(r"^(?P<indent>[ \t]*)```gin[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.MULTILINE | re.DOTALL)

FIELDS = {
    "melds": {"hand"},
    "knock": {"hand", "rules", "upcard"},
    "layoffs": {"knocker_melds", "defender"},
    "score": {"knocker", "defender", "rules", "upcard"},
    "oklahoma": {"knocker", "defender", "rules", "upcard"},
    "sheet": {"entries", "rules"},
    "hollywood": {"entries", "rules"},
}
REQUIRED = {
    "melds": {"hand"}, "knock": {"hand"}, "layoffs": {"knocker_melds", "defender"},
    "score": {"knocker", "defender"}, "oklahoma": {"knocker", "defender", "upcard"},
    "sheet": {"entries"}, "hollywood": {"entries"},
}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
PLAYERS = "AB"


class ExampleError(BuildError):
    """A bad example in a page: the message names the file, the line and the problem."""


# --- reading an example ---------------------------------------------------------------------

def read_example(body: str, where: str) -> dict:
    """The example's fields from the fence body, checked; ``where`` is "file:line"."""
    try:
        data = yaml.safe_load(body)
    except yaml.YAMLError as error:
        raise ExampleError(f"{where}: the example is not valid YAML: "
                           f"{' '.join(str(error).split())}") from None
    if not isinstance(data, dict) or "kind" not in data:
        raise ExampleError(f"{where}: an example needs a 'kind' (one of {', '.join(FIELDS)})")
    kind = data["kind"]
    if kind not in FIELDS:
        raise ExampleError(f"{where}: unknown example kind {kind!r}; use one of "
                           f"{', '.join(FIELDS)}")
    fields = {k: v for k, v in data.items() if k != "kind"}
    unknown = sorted(set(fields) - FIELDS[kind])
    if unknown:
        raise ExampleError(f"{where}: a {kind} example has no field {unknown[0]!r}; its fields "
                           f"are {', '.join(sorted(FIELDS[kind]))}")
    missing = sorted(REQUIRED[kind] - set(fields))
    if missing:
        raise ExampleError(f"{where}: a {kind} example needs {missing[0]!r}")
    if kind == "oklahoma":
        fields.setdefault("rules", "oklahoma")
    if "rules" in fields and fields["rules"] not in RULESETS:
        raise ExampleError(f"{where}: unknown rules {fields['rules']!r}; use one of "
                           f"{', '.join(RULESETS)}")
    if "entries" in fields:
        fields["entries"] = [parse_entry(e, where) for e in fields["entries"] or []]
    return {"kind": kind, **fields}


def parse_entry(text, where: str) -> dict:
    """A score sheet entry written "A 25" (winner A or B, then the points) as API JSON."""
    winner, _, points = str(text).strip().partition(" ")
    if winner.upper() not in PLAYERS or not points.strip().isdigit():
        raise ExampleError(f"{where}: a score sheet entry is written like \"A 25\" "
                           f"(winner A or B, then the points), not {text!r}")
    return {"winner": PLAYERS.index(winner.upper()), "points": int(points)}


def request(example: dict) -> dict:
    """The engine API request that answers an example (the browser sends the same one)."""
    kind = example["kind"]
    extra = {k: example[k] for k in ("rules", "upcard") if example.get(k) is not None}
    if kind == "melds":
        return {"v": 1, "op": "melds", "cards": example["hand"]}
    if kind == "knock":
        return {"v": 1, "op": "knock", "cards": example["hand"], **extra}
    if kind == "layoffs":
        return {"v": 1, "op": "layoffs", "knocker_melds": example["knocker_melds"],
                "defender": example["defender"]}
    if kind in ("score", "oklahoma"):
        return {"v": 1, "op": "score", "knocker": example["knocker"],
                "defender": example["defender"], **extra}
    return {"v": 1, "op": "sheet", "entries": example["entries"],
            "format": "hollywood" if kind == "hollywood" else "standard", **extra}


def answer(example: dict, where: str) -> dict:
    """The engine's result for an example; an engine error stops the build."""
    response = api.call(request(example))
    if not response["ok"]:
        raise ExampleError(f"{where}: {response['error']['message']}")
    return response["result"]


# --- rendering -------------------------------------------------------------------------------

def card_html(card: str, catalog: Catalog) -> str:
    """One card: its face for the eye, its name for screen readers."""
    parsed = Card.parse(card)
    rank = "10" if card[0] == "T" else card[0]
    return (f'<span class="gin-card gin-suit-{parsed.suit}" data-card="{card}">'
            f'<span aria-hidden="true">{rank}{SUIT_SYMBOLS[parsed.suit]}</span>'
            f'<span class="gin-sr">{html.escape(catalog.card_name(parsed))}</span></span>')


def cards_html(cards: str, catalog: Catalog) -> str:
    if not cards:
        return f'<span class="gin-none">{html.escape(catalog.text("word.none"))}</span>'
    return ('<span class="gin-cards">' + "".join(card_html(c, catalog) for c in cards.split())
            + "</span>")


def melds_html(melds: list, catalog: Catalog) -> str:
    if not melds:
        return f'<span class="gin-none">{html.escape(catalog.text("word.none"))}</span>'
    return " ".join(f'<span class="gin-meld">{cards_html(m, catalog)}</span>' for m in melds)


def _param_html(name: str, value, catalog: Catalog) -> str:
    """A step parameter as HTML: cards drawn, words looked up, numbers as they are."""
    if name == "melds":
        return melds_html(value, catalog)
    if name in ("card", "meld", "result", "deadwood", "upcard") and isinstance(value, str):
        return cards_html(value, catalog)
    if name == "winner" and isinstance(value, str):
        return html.escape(catalog.text(f"role.{value}"))
    if name in ("player", "loser") and isinstance(value, int):
        return html.escape(catalog.text(f"player.{value}"))
    if name == "outcome":
        return html.escape(catalog.text(f"outcome.{value}"))
    if name == "rule":
        return html.escape(catalog.text(f"shutout.{value}"))
    if isinstance(value, list):
        return html.escape(catalog.text("list.and").join(str(v) for v in value))
    return html.escape(str(value))


def step_key(step: dict) -> str:
    """The catalog key for a step: its code, with a few variants worded apart."""
    code = step["code"]
    if code == "knock" and step.get("oklahoma"):
        return "step.knock_oklahoma"
    if code == "undercut" and step.get("tie"):
        return "step.undercut_tie"
    if code == "hand_won" and "columns" in step:
        return "step.hand_won_columns"
    return f"step.{code}"


def step_html(step: dict, catalog: Catalog) -> str:
    """One explanation step as a sentence in the catalog's language."""
    text = catalog.text(step_key(step))
    params = {k: _param_html(k, v, catalog) for k, v in step.items() if k != "code"}
    out = re.sub(r"\{(\w+)\}", lambda m: params.get(m.group(1), m.group(0)),
                 html.escape(text, quote=False))
    if "column" in step and "{column}" not in text:  # a Hollywood column's step: say which
        out = f"{html.escape(catalog.text('ui.column', column=step['column']))}: {out}"
    return out


def steps_html(steps: list, catalog: Catalog) -> str:
    return ('<ol class="gin-steps">' + "".join(f"<li>{step_html(s, catalog)}</li>" for s in steps)
            + "</ol>")


def _row(label: str, value_html: str) -> str:
    return f"<dt>{html.escape(label)}</dt><dd>{value_html}</dd>"


def _points(n) -> str:
    return f' <strong class="gin-points">{n}</strong>'


def result_html(example: dict, result: dict, catalog: Catalog) -> str:
    """The answer part of an example: what the engine found, in words and cards."""
    kind, t = example["kind"], catalog.text
    if kind in ("melds", "knock"):
        rows = [_row(t("ui.melds"), melds_html(result["melds"], catalog)),
                _row(t("ui.deadwood"), cards_html(result["deadwood"], catalog)
                     + _points(result["points"]))]
        if result["discard"]:
            rows.append(_row(t("ui.discard"), card_html(result["discard"], catalog)))
        out = f'<dl class="gin-summary">{"".join(rows)}</dl>'
        verdict = _verdict(kind, result, catalog)
        return out + (f'<p class="gin-headline">{verdict}</p>' if verdict else "")
    if kind == "layoffs":
        lay = [{"code": "lay_off", "card": l["card"], "meld": l["meld"], "result": l["result"]}
               for l in result["lay_offs"]]
        rows = [_row(t("ui.lay_offs"), steps_html(lay, catalog) if lay else
                     f'<span class="gin-none">{html.escape(t("word.none"))}</span>'),
                _row(t("ui.melds"), melds_html(result["melds"], catalog)),
                _row(t("ui.deadwood"), cards_html(result["deadwood"], catalog)
                     + _points(result["points"]))]
        return f'<dl class="gin-summary">{"".join(rows)}</dl>'
    if kind in ("score", "oklahoma"):
        steps = result["steps"]
        return (f'<p class="gin-headline">{step_html(steps[-1], catalog)}</p>'
                + steps_html(steps[:-1], catalog))
    return _sheet_html(result, catalog)


def _verdict(kind: str, result: dict, catalog: Catalog) -> str:
    t = catalog.text
    if kind == "melds":
        return html.escape(t("ui.big_gin")) if result["big_gin"] else ""
    verdict, discard = result["verdict"], result["discard"]
    if verdict == "big_gin":
        return html.escape(t("ui.big_gin"))
    key = {"gin": "ui.gin_possible", "knock": "ui.can_knock", "no": "ui.cannot_knock"}[verdict]
    text = html.escape(t(key), quote=False)
    params = {"card": card_html(discard, catalog), "points": str(result["points"]),
              "limit": str(result["limit"])}
    return re.sub(r"\{(\w+)\}", lambda m: params.get(m.group(1), m.group(0)), text)


def _table_html(sheet: dict, catalog: Catalog, caption: str = "") -> str:
    t = catalog.text
    head = (f"<tr><th>#</th><th>{html.escape(t('ui.winner'))}</th>"
            f"<th>{html.escape(t('ui.points'))}</th><th>{html.escape(t('player.0'))}</th>"
            f"<th>{html.escape(t('player.1'))}</th></tr>")
    rows = "".join(
        f"<tr><td>{r['hand']}</td><td>{html.escape(t('player.%d' % r['winner']))}</td>"
        f"<td>{r['points']}</td><td>{r['totals'][0]}</td><td>{r['totals'][1]}</td></tr>"
        for r in sheet["rows"])
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f'<table class="gin-sheet">{cap}<thead>{head}</thead><tbody>{rows}</tbody></table>'


def _sheet_html(result: dict, catalog: Catalog) -> str:
    steps = [s for s in result["steps"] if s["code"] != "hand_won"]
    if "columns" not in result:
        return _table_html(result, catalog) + steps_html(steps, catalog)
    tables = []
    for column in result["columns"]:
        state = catalog.text("ui.closed" if column["finished"] else "ui.open")
        caption = f"{catalog.text('ui.column', column=column['column'])} ({state})"
        tables.append(_table_html(column, catalog, caption))
    return ('<div class="gin-columns">' + "".join(tables) + "</div>"
            + steps_html(steps, catalog))


def inputs_html(example: dict, catalog: Catalog) -> str:
    """The example's given cards, labelled; gin.js makes them editable."""
    t = catalog.text
    labels = {"hand": t("ui.hand"), "knocker": t("ui.knocker_hand"),
              "defender": t("ui.defender_hand"), "upcard": t("ui.upcard")}
    rows = []
    if "knocker_melds" in example:
        rows.append(f'<dt>{html.escape(t("role.knocker"))}</dt><dd data-gin-field="knocker_melds">'
                    f'{melds_html(example["knocker_melds"], catalog)}</dd>')
    for field in ("hand", "knocker", "defender", "upcard"):
        if example.get(field):
            rows.append(f'<dt>{html.escape(labels[field])}</dt>'
                        f'<dd data-gin-field="{field}">{cards_html(example[field], catalog)}</dd>')
    return f'<dl class="gin-inputs">{"".join(rows)}</dl>' if rows else ""


RULE_NUMBERS = {
    "knock": ("knock_limit",),
    "score": ("knock_limit", "gin_bonus", "big_gin_bonus", "undercut_bonus", "tie"),
    "oklahoma": ("knock_limit", "gin_bonus", "big_gin_bonus", "undercut_bonus", "tie"),
    "sheet": ("game_target", "game_bonus", "box_bonus", "shutout"),
    "hollywood": ("game_target", "game_bonus", "box_bonus", "shutout"),
}
"""The rule numbers an example of each kind depends on, shown with the preset's sources."""


def rules_html(example: dict, catalog: Catalog) -> str:
    """The preset's name, the numbers this example depends on, and who plays them."""
    kind = example["kind"]
    if kind not in RULE_NUMBERS:
        return ""
    name = example.get("rules") or "standard"
    rules = RULESETS[name]
    t = catalog.text
    numbers = " · ".join(f"{t(f'rule.{rule}')}: {rule_value(name, rule, catalog, name)}"
                         for rule in RULE_NUMBERS[kind])
    sources = (f' <span class="gin-source">({html.escape(t("ui.source", source="; ".join(rules.sources)))})'
               f"</span>") if rules.sources else ""
    return (f'<p class="gin-rules"><span class="gin-rules-name">{html.escape(t("ui.rules"))}: '
            f'{html.escape(t(f"rules.{name}"))}</span> — <span class="gin-rule-numbers">'
            f"{html.escape(numbers)}</span>{sources}</p>")


def example_html(example: dict, result: dict, catalog: Catalog) -> str:
    """The whole pre-rendered example; ``data-gin`` holds its input for gin.js."""
    state = html.escape(json.dumps(example, ensure_ascii=False, separators=(",", ":")))
    return (f'<div class="gin-example" data-gin-kind="{example["kind"]}" data-gin="{state}">'
            f"{inputs_html(example, catalog)}{rules_html(example, catalog)}"
            f'<div class="gin-output" aria-live="polite">{result_html(example, result, catalog)}'
            f'</div><p class="gin-status" role="status"></p></div>')


def render_page(markdown: str, path: str, catalog: Catalog) -> str:
    """Replace every ```gin fence in a page with its pre-rendered example."""

    def replace(match: re.Match) -> str:
        line = markdown.count("\n", 0, match.start()) + 1
        where = f"{path}:{line}"
        example = read_example(match.group("body"), where)
        result = answer(example, where)
        return match.group("indent") + example_html(example, result, catalog)

    return FENCE.sub(replace, markdown)
