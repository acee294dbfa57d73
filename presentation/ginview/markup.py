"""The pieces every kind draws with: cards, melds, explanation steps, rule lines, errors.

Every function takes a :class:`~ginview.catalog.Catalog` and returns :class:`Html`; cards are
given in the engine's notation (``"7H"``, ``"TS"``, ``"7H 8H 9H"``) and drawn with their face
for the eye and their name for screen readers.
"""

from __future__ import annotations

import re

from ginrummy import RULESETS, Card
from ginrummy.scoring import GIN_OUTCOMES
from ginrummy.vocab import ExplainCode, Outcome, RuleField

from .catalog import Catalog, Html, Named, esc, named
from .shapes import JsonObject

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
PLAYERS = "AB"  # player 0 and 1 as a score sheet writes them (and share links)


def face(card: str | Card) -> str:
    """A card as a reader writes it: ``10♥``, ``K♠``."""
    card = Card.parse(card) if isinstance(card, str) else card
    text = str(card)
    return ("10" if text[0] == "T" else text[0]) + SUIT_SYMBOLS[card.suit]


def card_name(card: str | Card, cat: Catalog) -> str:
    """A card's spoken name in the catalog's language: "seven of hearts", "kőr hetes"."""
    card = Card.parse(card) if isinstance(card, str) else card
    return cat.text(
        "card.name",
        rank=cat.text(f"card.rank.{card.rank}"),
        suit=cat.text(f"card.suit.{card.suit}"),
    )


def card_html(card: str, cat: Catalog) -> Html:
    """One card, not interactive (with its grammatical forms: ``{card:the}``)."""
    parsed = Card.parse(card)
    return named(
        Html(
            f'<span class="gin-card gin-suit-{parsed.suit}" data-card="{parsed}">'
            f'<span aria-hidden="true">{face(parsed)}</span>'
            f'<span class="gin-sr" data-search-exclude>{esc(card_name(parsed, cat))}</span></span>'
        ),
        f"card.{{}}.{parsed.rank}",
        "card",
    )


def card_text(card: str) -> Named:
    """One card as a reader writes it (7♥), with its grammatical forms."""
    parsed = Card.parse(card)
    return named(face(parsed), f"card.{{}}.{parsed.rank}", "card")


def player_name(player: int, cat: Catalog) -> Named:
    """A player's name (player.0: "Player A"), with its grammatical forms (``{player:of}``)."""
    return named(cat.text(f"player.{player}"), f"player.{{}}.{player}", "player")


def none_html(cat: Catalog) -> Html:
    return Html(f'<span class="gin-none">{esc(cat.text("word.none"))}</span>')


def cards_html(cards: str, cat: Catalog) -> Html:
    """Cards in a row (a hand, a meld, deadwood); "none" for no cards."""
    if not cards:
        return none_html(cat)
    return Html(
        '<span class="gin-cards">' + "".join(card_html(c, cat) for c in cards.split()) + "</span>"
    )


def melds_html(melds: list[str], cat: Catalog) -> Html:
    if not melds:
        return none_html(cat)
    return Html(" ".join(f'<span class="gin-meld">{cards_html(m, cat)}</span>' for m in melds))


def card_button(
    card: str, cat: Catalog, field: str, index: int, meld: int | None = None, label: str = ""
) -> Html:
    """A card the reader can change (the live example opens the card picker on it).

    Every card button starts out of the tab order: the page's script gives each hand one tab
    stop (arrow keys move inside it). ``label`` names the hand, for the picker's caption."""
    parsed = Card.parse(card)
    name = card_name(parsed, cat)
    meld_attr = f' data-meld="{meld}"' if meld is not None else ""
    caption = cat.text("ui.pick_caption", card=card_text(card), field=label)
    return Html(
        f'<button type="button" class="gin-card gin-suit-{parsed.suit}" '
        f'data-card="{parsed}" data-field="{field}"{meld_attr} data-index="{index}" '
        f'tabindex="-1" data-caption="{esc(caption)}"><span aria-hidden="true">'
        f'{face(parsed)}</span><span class="gin-sr" data-search-exclude>{esc(cat.text("ui.edit_card", card=name))}'
        f"</span></button>"
    )


def hand_buttons(cards: str, cat: Catalog, field: str, label: str) -> Html:
    """A hand whose cards the reader can change: one group, one tab stop."""
    buttons = "".join(
        card_button(c, cat, field, i, label=label) for i, c in enumerate(cards.split())
    )
    return Html(
        f'<span class="gin-cards gin-hand" role="group" aria-label="{esc(label)}" '
        f'data-field="{field}">{buttons}</span>'
    )


def melds_buttons(melds: list[str], cat: Catalog, field: str, label: str) -> Html:
    """Melds whose cards the reader can change: one group for all of them."""
    groups = []
    for m, meld in enumerate(melds):
        buttons = "".join(
            card_button(c, cat, field, i, meld=m, label=label) for i, c in enumerate(meld.split())
        )
        groups.append(f'<span class="gin-meld"><span class="gin-cards">{buttons}</span></span>')
    return Html(
        f'<span class="gin-hand" role="group" aria-label="{esc(label)}" '
        f'data-field="{field}">{" ".join(groups)}</span>'
    )


# --- explanation steps (the engine's codes and parameters, in words) ---------------------------

CARD_PARAMS = ("card", "meld", "result", "deadwood", "upcard", "discard", "cards")


def param_html(name: str, value: object, cat: Catalog) -> str:
    """A step parameter for an HTML message: cards drawn; the rest as :func:`param_text`
    words it (the message escapes it, and may ask for a form of a card or a player)."""
    if name == "melds" and isinstance(value, list):
        return melds_html(value, cat)
    if name in CARD_PARAMS and isinstance(value, str):
        return card_html(value, cat) if len(value.split()) == 1 else cards_html(value, cat)
    return param_text(name, value, cat)


def param_text(name: str, value: object, cat: Catalog) -> str:
    """A step parameter as plain text: cards as 7♥, players and outcomes named, numbers as
    they are."""
    if name == "melds" and isinstance(value, list):
        return ", ".join(faces(m) for m in value)
    if name in CARD_PARAMS and isinstance(value, str):
        if len(value.split()) == 1:
            return card_text(value)
        return faces(value) if value else cat.text("word.none")
    if name == "winner" and isinstance(value, str):
        return cat.text(f"role.{value}")
    if name in ("player", "loser") and isinstance(value, int):
        return player_name(value, cat)
    if name == "outcome":
        return cat.text(f"outcome.{value}")
    if name == "rule":
        return cat.text(f"shutout.{value}")
    if isinstance(value, list):
        return listed([str(v) for v in value], cat.text("list.and"))
    return str(value)


def listed(items: list[str], last: str) -> str:
    """Items as a reader lists them: "1, 2 and 3" (``last`` is the catalog's " and ")."""
    return ", ".join(items[:-1]) + last + items[-1] if len(items) > 1 else "".join(items)


def step_key(step: JsonObject) -> str:
    """The catalog key of an explanation step: its code, with a few variants worded apart."""
    code: ExplainCode = step["code"]
    if code == "knocker_melds" and step.get("gin"):
        return "step.knocker_melds_gin"  # no deadwood, and nobody knocked
    if code == "knock" and step.get("oklahoma"):
        return "step.knock_oklahoma"
    if code == "undercut" and step.get("tie"):
        return "step.undercut_tie"
    if code == "hand_won" and "columns" in step:
        return "step.hand_won_columns"
    if code == "defender_melds" and not step.get("melds"):
        return "step.defender_no_melds"
    if code == "defender_deadwood" and step.get("laid_off") == 0:
        return "step.defender_deadwood_none"  # "no card laid off", not "cards laid off: 0"
    if code == "result" and step.get("outcome") in GIN_OUTCOMES:
        return "step.result_gin"
    if code == "shutout" and step.get("rule") == "none":
        return "step.shutout_none"
    if code == "total" and not any(step.get(t) for t in TOTAL_TERMS[1:]):
        return "step.total_points"  # no bonus: never "hand points 0 = 0"
    if code == "difference" and step.get("winner", step.get("player")) != step.get("player"):
        return "step.difference_other"  # the game's winner does not have the larger total
    return f"step.{code}"


PLAYER_PARAMS = ("player", "loser", "turn")


def _number(value: object, name: str = "") -> bool:
    """A number to keep as one (a message may give it a unit), not a player's number."""
    return isinstance(value, int) and not isinstance(value, bool) and name not in PLAYER_PARAMS


def step_params(step: JsonObject, cat: Catalog, html: bool = True) -> dict[str, object]:
    """A step's parameters as its message takes them: cards drawn (or written, for plain
    text), players and outcomes named; numbers stay numbers, so that a message may write one
    with its unit ("{points:points}"); a step that lists things gives their ``count``; a
    player's total gives its sum as written (``terms``)."""
    word = param_html if html else param_text
    params: dict[str, object] = {
        k: v if _number(v, k) else word(k, v, cat) for k, v in step.items() if k != "code"
    }
    if step["code"] == "total":
        params["terms"] = total_terms(step, cat)
    return _counted(step, params)


TOTAL_TERMS = ("points", "box_bonus", "game_bonus", "shutout_bonus")
"""The terms of a player's total (the engine's ``total`` step), in the order they are added."""


def total_terms(step: JsonObject, cat: Catalog) -> str:
    """The sum behind a player's total, each term named (``sum.<term>``): the hand points,
    then each bonus that is not 0 ("hand points 145 + box bonus 75", never "+ game bonus 0")."""
    terms = [t for t in TOTAL_TERMS if t == "points" or step.get(t)]
    return " + ".join(cat.text(f"sum.{t}", amount=step[t]) for t in terms)


def step_html(step: JsonObject, cat: Catalog) -> Html:
    """One explanation step as a sentence."""
    return cat.html(step_key(step), **step_params(step, cat))


def steps_html(steps: list[JsonObject], cat: Catalog) -> Html:
    return Html(
        '<ol class="gin-steps">' + "".join(f"<li>{step_html(s, cat)}</li>" for s in steps) + "</ol>"
    )


def step_text(step: JsonObject, cat: Catalog) -> str:
    """A step as plain text, for a status line."""
    return cat.text(step_key(step), **step_params(step, cat, html=False))


# The steps that list things, and the list whose length picks their message's plural form.
COUNTED = {"hand_won": "columns", "hollywood_in_progress": "open"}


def _counted(step: JsonObject, params: dict[str, object]) -> dict[str, object]:
    """A step that lists things (columns) gives their number as ``count``, so that its message
    may have plural forms."""
    listed = COUNTED.get(step["code"])
    if listed in step and "count" not in params:
        params["count"] = len(step[listed])
    return params


# --- rule numbers -------------------------------------------------------------------------------


def rule_value(preset: str, field: str, cat: Catalog, short: bool = False) -> str:
    """One number (or choice) of a preset as text in the catalog's language. A choice (the tie
    and shutout rules) is a sentence; ``short``, the words that follow its label in a rules
    line ("Tie: counts as an undercut")."""
    rules = RULESETS[preset]
    value = getattr(rules, field)
    if field == "knock_limit" and rules.oklahoma:
        return cat.text("rule.upcard_limit")
    if value is None:
        return cat.text("rule.no_big_gin")
    if field in ("tie", "shutout"):
        return cat.text(f"{field}{'_short' if short else ''}.{value}")
    if field in ("next_dealer", "void_deal"):
        return cat.text(f"{field}.{value}")
    return str(value)


def knocker_label(outcome: Outcome | None) -> str:
    """The label of the hand that ended a scored hand: the knocker's, or the one that went gin
    (nobody knocked)."""
    return "ui.gin_hand" if outcome in GIN_OUTCOMES else "ui.knocker_hand"


SENTENCE_RULES: tuple[RuleField, ...] = ("game_target",)
"""The numbers a rules line gives as a sentence of their own (``rule.line.<field>``, "Game to
100 points") rather than as "label: value": a language may not have a label for them."""


def rule_item(preset: str, field: str, cat: Catalog) -> str:
    """One number of a rules line: "Gin bonus: 25", or its sentence (:data:`SENTENCE_RULES`)."""
    value = rule_value(preset, field, cat, short=True)
    if field in SENTENCE_RULES:
        return cat.text(f"rule.line.{field}", value=value)
    return f"{cat.text(f'rule.{field}')}: {value}"


def rules_line(
    preset: str, numbers: tuple[RuleField, ...], cat: Catalog, choose: bool = False
) -> Html:
    """ "Rules: Standard — Gin bonus: 25 · … (Source: …)": the preset, the numbers an example
    depends on, and who plays them. With ``choose``, the name is also a select (shown in a
    live example)."""
    rules = RULESETS[preset]
    name = esc(cat.text(f"rules.{preset}"))
    if choose:
        options = "".join(
            f'<option value="{p}"{" selected" if p == preset else ""}>'
            f"{esc(cat.text(f'rules.{p}'))}</option>"
            for p in RULESETS
        )
        name = Html(
            f'<span class="gin-static">{name}</span><select class="gin-edit gin-rules-select" '
            f'aria-label="{esc(cat.text("ui.rules"))}">{options}</select>'
        )
    text = " · ".join(rule_item(preset, n, cat) for n in numbers)
    sources = (
        (
            f' <span class="gin-source">({esc(cat.text("ui.source", source="; ".join(rules.sources), count=len(rules.sources)))})'
            f"</span>"
        )
        if rules.sources
        else ""
    )
    return Html(
        f'<p class="gin-rules"><span class="gin-rules-name">{esc(cat.text("ui.rules"))}: '
        f'{name}</span> — <span class="gin-rule-numbers">{esc(text)}</span>{sources}</p>'
    )


# --- errors --------------------------------------------------------------------------------------


def error_text(error: JsonObject, cat: Catalog) -> str:
    """A coded error (``{"code", "params"}``) as a sentence in the catalog's language. Cards
    are written as a reader writes them (K♠); what the reader typed is quoted, cut short."""
    params: dict[str, object] = {}
    for name, value in (error.get("params") or {}).items():
        if isinstance(value, list):
            value = listed([str(v) for v in value], cat.text("list.or"))
        elif name in ("card", "upcard", "meld", "token") and isinstance(value, str):
            try:  # noqa: SIM105 - contextlib is not imported for this
                value = card_text(value) if len(value.split()) == 1 else faces(value)
            except ValueError:
                pass  # not cards: what the reader typed, quoted as it is
        elif name == "rules" and isinstance(value, str) and cat.has(f"rules.{value}"):
            value = cat.text(f"rules.{value}")
        elif name in ("player", "turn") and isinstance(value, int) and cat.has(f"player.{value}"):
            value = player_name(value, cat)
        elif value is None:
            value = ""
        if not _number(value, name) and not hasattr(value, "forms"):
            value = CONTROL.sub(" ", str(value))  # one line, whatever was typed
            value = value if len(value) <= MAX_QUOTE else value[: MAX_QUOTE - 1] + "…"
        params[name] = value
    expected = (error.get("params") or {}).get("expected")
    if isinstance(expected, list) and expected and all(_number(n) for n in expected):
        params.setdefault("count", expected[-1])  # "{expected} cards": the form of its last number
    key = f"error.{error.get('code')}"
    return cat.text(key, **params) if cat.has(key) else cat.text("error.internal_error")


MAX_QUOTE = 40
"""The longest piece of a reader's input quoted back in an error."""
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def faces(cards: str) -> str:
    """Cards in notation (``"7H TS"``) as a reader writes them (``"7♥ 10♠"``)."""
    return " ".join(face(c) for c in cards.replace(",", " ").split())
