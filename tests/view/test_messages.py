"""Every message the site can show has a text in every catalog, and none shows its raw key.

- every explanation step the engine produces (on the worked hands and sheets of tests/data,
  which must reach every step the engine documents), under each of its catalog keys;
- every error code the engine and the presentation layer raise;
- every interface key the presentation layer and the build name in their code.

Each language's shipped catalog (the browser's, which never fails on a missing message but
shows the key instead) must word them all: a key missing there would reach a reader.
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path

import ginrummy.game as game
import ginrummy.scoring as scoring
import pytest
from ginrummy import RuleError, score_hand
from ginview.catalog import from_json
from ginview.markup import error_text, step_html, step_key, step_text

from sitegen import catalogs
from sitegen.languages import languages

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests/data"
SOURCES = [
    *(REPO / "engine/ginrummy").glob("*.py"),
    *(REPO / "presentation/ginview").rglob("*.py"),
    *(REPO / "sitegen").glob("*.py"),
]


def engine_steps() -> list[dict]:
    """The explanation steps of every worked hand and sheet."""
    steps = []
    for case in json.loads((DATA / "hands.json").read_text("utf-8"))["hands"]:
        if "error" not in case["expect"]:
            steps += score_hand(
                case["knocker"],
                case["defender"],
                case.get("rules", "standard"),
                case.get("upcard"),
                case.get("knocker_melds"),
            ).explain()
    for case in json.loads((DATA / "sheets.json").read_text("utf-8"))["cases"]:
        score = game.score_game if case["kind"] == "game" else game.score_hollywood
        with contextlib.suppress(RuleError):
            steps += score(case["entries"], case["rules"]).explain()
    return steps


STEPS = engine_steps()
SHIPPED = {lang: from_json(catalogs.catalog_json(lang)) for lang in languages()}
MESSAGES = catalogs.source_messages()


def documented_step_codes() -> set[str]:
    """The step codes the engine's docstrings list (scoring and game)."""
    return (
        set(re.findall(r"^``(\w+)``:", scoring.__doc__, re.M))
        | set(re.findall(r"^- ``(\w+)``(?: \(Hollywood\))?:", game.__doc__, re.M))
        | set(re.findall(r"^  ``(\w+)``:", game.__doc__, re.M))
    )


def test_the_worked_cases_reach_every_documented_step():
    documented = documented_step_codes()
    assert len(documented) >= 25
    assert documented <= {step["code"] for step in STEPS}
    keys = {step_key(step) for step in STEPS}
    for variant in (
        "knock_oklahoma",
        "undercut_tie",
        "hand_won_columns",
        "defender_no_melds",
        "result_gin",
        "shutout_none",
    ):
        assert f"step.{variant}" in keys


def unique_steps() -> list[dict]:
    """One step per catalog key and set of parameters."""
    seen, found = set(), []
    for step in STEPS:
        mark = (step_key(step), tuple(sorted(step)))
        if mark not in seen:
            seen.add(mark)
            found.append(step)
    return found


@pytest.mark.parametrize("lang", languages())
def test_every_step_is_worded_in_every_language(lang):
    cat = SHIPPED[lang]
    for step in unique_steps():
        key = step_key(step)
        assert key in MESSAGES and cat.has(key), (lang, key)
        html = step_html(step, cat)
        assert key not in html and "{" not in html, (lang, key, html)


BUILD_ONLY = {"missing_param"}
"""Codes only the build raises, stopping it with an English line: never shown to a reader."""


def code_lines(path: Path) -> str:
    """A source file without its doctest examples."""
    return "\n".join(
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith((">>>", "..."))
    )


def raised_codes(paths) -> set[str]:
    return {
        code for path in paths for code in re.findall(r'Error\(\s*"([a-z_]+)"', code_lines(path))
    } - BUILD_ONLY


@pytest.mark.parametrize("lang", languages())
def test_every_error_code_is_worded_in_every_language(lang):
    codes = raised_codes(SOURCES)
    assert len(codes) > 40
    assert {"knock_over_limit", "unknown_field", "bad_field"} <= codes
    cat = SHIPPED[lang]
    for code in sorted(codes):
        assert cat.has(f"error.{code}"), (lang, code)
        text = error_text({"code": code, "params": {}}, cat)
        assert (
            f"error.{code}" not in text and text != cat.text("error.internal_error")
        ) or code == "internal_error", (lang, code, text)


WRONG_COUNT = {  # a discard missing (1), a hand (10 or 11), a deck (52)
    "en": [
        "This needs 1 card, not 0.",
        "This needs 10 or 11 cards, not 9.",
        "This needs 52 cards, not 51.",
    ],
    "ro": [
        "Aici trebuie 1 carte, nu 0.",
        "Aici trebuie 10 sau 11 cărți, nu 9.",
        "Aici trebuie 52 de cărți, nu 51.",
    ],
    "hu": ["Ide 1 lap kell, nem 0.", "Ide 10 vagy 11 lap kell, nem 9.", "Ide 52 lap kell, nem 51."],
    "it": [
        "Qui serve 1 carta, non 0.",
        "Qui servono 10 o 11 carte, non 9.",
        "Qui servono 52 carte, non 51.",
    ],
}


@pytest.mark.parametrize("lang", languages())
def test_the_number_of_cards_needed_takes_its_grammar_from_the_number(lang):
    """The plural of "{expected} cards" is chosen by its last number: "1 card", "52 de cărți"."""
    texts = [
        error_text(
            {"code": "wrong_count", "params": {"expected": expected, "got": got}}, SHIPPED[lang]
        )
        for expected, got in (([1], 0), ([10, 11], 9), ([52], 51))
    ]
    assert texts == WRONG_COUNT[lang]


KEY = re.compile(r'\b(?:text|html|t)\(\s*"([a-z_]+\.[a-z0-9_.-]+)"')


def test_every_key_named_in_the_code_has_a_message():
    named = {key for path in SOURCES for key in KEY.findall(code_lines(path))}
    assert len(named) > 40 and "ui.undo" in named
    assert sorted(named - set(MESSAGES)) == []
    for lang, cat in SHIPPED.items():
        assert [key for key in sorted(named) if not cat.has(key)] == [], lang


def play_families() -> dict[str, tuple[str, ...]]:
    """The play page's keys built from a value (``f"play.move.{kind}"``): each family, and every
    value the engine and the play page can give it."""
    from ginrummy import RULESETS
    from ginrummy.bots import LEVELS
    from ginrummy.hand import ACTION_KINDS
    from ginrummy.match import FORMATS
    from ginrummy.reasons import AGAINST_CODES, REASON_CODES
    from ginrummy.rules import VOID_DEAL_RULES
    from ginview.play.views import DEFENDER_STEPS, KNOCKER_STEPS, SPEEDS

    # every reason the coach gives (game_first worded for whichever player it is about)
    reasons = [c for c in REASON_CODES if c != "game_first"]
    reasons += ["game_first_you", "game_first_computer"]
    missed = [c for c in AGAINST_CODES if c != "game_first"]
    missed += ["game_first_you", "game_first_computer"]
    players = ("0", "1")
    sheet_steps = (
        "game_won",
        "game_bonus",
        "box_bonus",
        "shutout",
        "shutout_none",
        "total",
        "total_points",
        "difference",
        "grand_total",
        "hollywood_won",
    )
    steps = (*KNOCKER_STEPS, *DEFENDER_STEPS, "result", "result_gin", *sheet_steps)
    return {
        "play.last.bot": (*ACTION_KINDS, "lay_off_none"),
        "play.last.you": (
            *ACTION_KINDS,
            "draw_stock_card",
            "lay_off_none",
            "lay_off_no_melds",
            "lay_off_none_no_melds",
        ),
        "play.dealer": ("you", "computer"),
        "play.last.dealt": players,
        "play.mark": ("knock", "gin"),
        "play": (
            "knock_with",
            "gin_with",
            *(f"step.{step}.{who}" for step in steps for who in ("you", "computer")),
        ),
        "play.move": (
            *ACTION_KINDS,
            "knock_melds",
            "gin_melds",
            "take_upcard_top",
            "draw_discard_top",
        ),
        "play.level": LEVELS,
        "play.format": FORMATS,
        "play.speed": SPEEDS,
        "play.stats": ("played", "won", "accuracy", "streak"),
        "play.tip": ("draw", "lay_off"),
        "play.game_won": players,
        "play.hand_won": players,
        "play.reason": tuple(reasons),
        "play.missed": tuple(missed),
        "rules": tuple(RULESETS),
        "hand.dead": VOID_DEAL_RULES,
    }


def test_every_key_the_play_page_builds_has_a_message():
    """A missing key would show the reader its id: every value of every family the play page
    builds keys from is worded, in every language."""
    source = "\n".join(code_lines(p) for p in (REPO / "presentation/ginview/play").glob("*.py"))
    built = set(re.findall(r"""f["']([a-z_.]+)\.\{""", source))
    families = play_families()
    assert built == set(families), "a family of keys the test does not know"
    assert len(families["play.reason"]) >= 30
    keys = [f"{family}.{value}" for family, values in families.items() for value in values]
    assert sorted(set(keys) - set(MESSAGES)) == []
    for lang, cat in SHIPPED.items():
        assert [key for key in keys if not cat.has(key)] == [], lang


@pytest.mark.parametrize("lang", languages())
def test_a_shutout_that_pays_nothing_gives_no_amount(lang):
    """Under the shutout rule "none", the step says so, never "gets 0 more"."""
    cat = SHIPPED[lang]
    step = {"code": "shutout", "player": 0, "loser": 1, "rule": "none", "amount": 0}
    text = step_text(step, cat)
    assert cat.text("shutout.none") in text and "0" not in text
    if lang == "en":
        assert text == "Shutout: Player B scored nothing. No extra for a shutout."


@pytest.mark.parametrize("lang", languages())
def test_a_total_names_only_the_terms_it_adds(lang):
    """A player's total writes the hand points and each bonus that is not 0 (a round-4 reader
    saw "+ 0 (game bonus) + 0 (shutout)" on every loser's line); with no bonus at all, only
    the points: never "hand points 0 = 0"."""
    cat = SHIPPED[lang]
    steps = game.score_game([(0, 60), (1, 14), (0, 45)]).explain()
    totals = {s["player"]: step_text(s, cat) for s in steps if s["code"] == "total"}
    assert totals[0].count(" + ") == 2 and "255" in totals[0]  # points, boxes, game bonus
    assert totals[1].count(" + ") == 1 and "39" in totals[1]  # points and boxes only
    shutout = game.score_game([(0, 60), (0, 45)]).explain()
    loser = next(s for s in shutout if s["code"] == "total" and s["player"] == 1)
    assert step_key(loser) == "step.total_points" and " + " not in step_text(loser, cat)


def test_an_elided_article_never_breaks_from_its_card():
    """Italian elides an article before a card ("l'8♣"): the line may not break after the
    apostrophe (a round-6 reader saw "l'" end a line before a drawn card)."""
    from ginview.catalog import Catalog, Html, named

    for mark in ("'", "\u2019"):
        cat = Catalog("it", {"m": "Attacca {card:the}", "card.the.8": f"l{mark}{{card}}"})
        assert cat.text("m", card=named("8♣", "card.{}.8", "card")) == f"Attacca l{mark}\u20608♣"
        chip = named(Html('<span class="gin-card">8♣</span>'), "card.{}.8", "card")
        assert cat.html("m", card=chip) == f'Attacca l{mark}\u2060<span class="gin-card">8♣</span>'


def test_an_ending_joined_to_a_card_by_a_hyphen_never_breaks_from_it():
    """Hungarian joins a case ending to a card with a hyphen ("a 6♥-ot"): the line may not
    break there (a round-4 reader saw "a 6♥-" end a line), in text and in drawn cards alike."""
    from ginview.catalog import Catalog, Html, named

    cat = Catalog("hu", {"m": "Eldobom {card:acc}", "card.acc.6": "a {card}-ot"})
    assert cat.text("m", card=named("6♥", "card.{}.6", "card")) == "Eldobom a 6♥\u2011ot"
    chip = named(Html('<span class="gin-card">6♥</span>'), "card.{}.6", "card")
    assert cat.html("m", card=chip) == 'Eldobom a <span class="gin-card">6♥</span>\u2011ot'


def test_a_full_stop_after_cards_never_starts_a_line_alone():
    """A row of cards drawn as chips keeps the punctuation after it on its line, with any
    ending joined to the last card (a round-7 reader saw a comma begin a line after a row of
    cards); the text before the chips may still wrap."""
    from ginview.catalog import Catalog, named
    from ginview.markup import card_html, cards_html

    en = Catalog("en", {"m": "You hold {cards}, then {more}."})
    cat = SHIPPED["en"]
    html = en.html("m", cards=cards_html("5C 6C 7C", cat), more=card_html("9H", cat))
    assert html.count('class="gin-keep"') == 2  # one after 7♣, one after 9♥
    assert re.search(r'data-card="7C">.*?</span></span>,</span>', html)  # the comma after 7♣
    assert html.endswith("</span></span>.</span>")  # the full stop inside the unit
    assert html.count('class="gin-card ') == 4  # every card drawn once
    hu = Catalog("hu", {"m": "Eldobom {card:acc}.", "card.acc.6": "a {card}-ot"})
    chip = card_html("6H", cat)
    hu_html = hu.html("m", card=named(chip, "card.{}.6", "card"))
    assert hu_html.startswith('Eldobom a <span class="gin-keep"><span class="gin-card ')
    assert hu_html.endswith("</span></span>\u2011ot.</span>")
    assert Catalog("en", {"m": "No cards: {x}."}).html("m", x="none") == "No cards: none."


def test_a_decimal_number_of_points_takes_the_plural_its_figure_takes():
    """The coach's points are decimals: "about 1 point", "1,5 punti", never "1 punti" (an
    Italian reader) nor "1.0"; whole numbers keep each language's own forms."""
    from ginview.catalog import Catalog
    from ginview.play.coach import why_text

    it = Catalog(
        "it",
        {
            "m": "circa {p:points}",
            "unit.decimal_point": ",",
            "unit.points": ("{count} punto", "{count} punti"),
        },
    )
    said = [it.text("m", p=p) for p in (1.0, 0.96, 1.46, 22.0, 0.0)]
    assert said == [
        "circa 1 punto",
        "circa 1 punto",
        "circa 1,5 punti",
        "circa 22 punti",
        "circa 0 punti",
    ]
    for lang, cat in SHIPPED.items():
        for points in (1.0, 1.5, 20.0):
            text = why_text({"code": "plays_better", "points": points}, cat)
            figure = cat.number(points)
            assert figure in text and f"{figure}.0" not in text and f"{figure},0" not in text
        assert (
            cat.text("unit.points", count=20)
            in why_text({"code": "plays_better", "points": 20.0}, cat)
            or lang == "hu"
        )
