"""No message reaches a reader with a placeholder left in it ("Take {card} from the discard
pile"), in any language.

The play page once showed "Take {card} from the discard pile" on every draw, and the golden
drawings recorded it as correct: a caller gave the message no card, and a catalog fills what it
is given and leaves the rest. Three checks now make that impossible:

- a strict catalog (the build's and the tests') raises on a placeholder it has no value for,
  so a drawing that would show one fails wherever it is drawn (:func:`test_a_strict_catalog…`);
- every message named in the code is filled here with the values its callers pass (found in
  the code: the keyword arguments of each call), in every language, and shows no placeholder
  (a key built from a value is checked by the family test of test_messages.py and filled by
  the whole-game tests);
- the golden drawings and the play page's whole games (tests/view/test_golden.py,
  test_play.py) assert that no drawing holds one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from ginview.catalog import Catalog, MissingValue
from ginview.markup import card_text, player_name

from sitegen import catalogs
from sitegen.languages import languages

REPO = Path(__file__).resolve().parents[2]
SOURCES = [
    *sorted((REPO / "presentation/ginview").rglob("*.py")),
    *sorted((REPO / "sitegen").glob("*.py")),
]
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
CALLS = ("text", "html", "t")
"""How the code asks a catalog for a message: ``cat.text(key, …)``, ``cat.html(…)``, ``t(…)``."""


def key_pattern(node: ast.expr) -> re.Pattern | None:
    """The key a call's first argument names, when it is a literal (a key built from a value,
    ``f"play.move.{kind}"``, is filled in the whole-game tests, with strict catalogs)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.compile(re.escape(node.value))
    return None


def passed(call: ast.Call) -> set[str] | None:
    """The names a call gives its message, or None when they are only known at run time (a
    ``**params`` built elsewhere: those messages are filled in the whole-game tests)."""
    names = set()
    for keyword in call.keywords:
        if keyword.arg is not None:
            names.add(keyword.arg)
            continue
        value = keyword.value
        if isinstance(value, ast.IfExp):  # **({"card": …} if … else {}): either
            value = value.body
        if isinstance(value, ast.Dict) and all(isinstance(k, ast.Constant) for k in value.keys):
            names |= {k.value for k in value.keys}  # type: ignore[union-attr]
        else:
            return None
    return names


def calls() -> list[tuple[str, int, re.Pattern, set[str]]]:
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            pattern = key_pattern(node.args[0])
            names = passed(node)
            if name in CALLS and pattern is not None and names is not None:
                found.append((f"{path.relative_to(REPO)}:{node.lineno}", 0, pattern, names))
    return found


CALLS_FOUND = calls()
MESSAGES = catalogs.source_messages()


def sample(name: str, form: str | None, cat: Catalog):
    """A value of the kind a caller passes for ``name``: a card (with its forms), a player,
    cards, a number (a message may write it with its unit), or words."""
    if name == "card" or name == "upcard":
        return card_text("7H")
    if name == "player" or name == "loser":
        return player_name(0, cat)
    if name in ("cards", "meld", "melds", "result", "deadwood") and form is None:
        return "7♥ 8♥ 9♥"
    return 3


def test_the_scan_finds_the_calls_of_every_part():
    """The scan sees the play page, the examples, the lessons and the build."""
    where = {place.split(":")[0] for place, *_ in CALLS_FOUND}
    assert len(CALLS_FOUND) > 100
    for part in ("play/views.py", "play/table.py", "examples.py", "steps.py", "lessons.py"):
        assert any(part in w for w in where), part


@pytest.mark.parametrize("lang", languages())
def test_every_message_filled_with_what_its_callers_pass_shows_no_placeholder(lang):
    cat = catalogs.load(lang)
    checked = 0
    for place, _, pattern, names in CALLS_FOUND:
        keys = [key for key in MESSAGES if pattern.fullmatch(key)]
        for key in keys:
            template = cat.template(key, 2)
            wanted = {m.group(1) for m in PLACEHOLDER.finditer(template)}
            for form in (1, 2, 25):  # every plural form the language uses
                text = cat.template(key, form)
                wanted |= {m.group(1) for m in PLACEHOLDER.finditer(text)}
            missing = wanted - names
            assert not missing, (
                f"{place}: {lang} {key} needs {sorted(missing)}, the call gives {sorted(names)}"
            )
            params = {n: sample(n, None, cat) for n in names}
            filled = cat.text(key, **params)
            assert not PLACEHOLDER.search(filled), (place, lang, key, filled)
            checked += 1
    assert checked > 100


def test_a_strict_catalog_refuses_to_leave_a_placeholder_unfilled():
    strict = Catalog("en", {"a": "Take {card} from the pile"}, strict=True)
    with pytest.raises(MissingValue, match="card"):
        strict.text("a")
    with pytest.raises(MissingValue):
        strict.html("a")
    assert strict.text("a", card="7♥") == "Take 7♥ from the pile"
    lenient = Catalog("en", {"a": "Take {card} from the pile"})  # the browser never fails
    assert lenient.text("a") == "Take {card} from the pile"


# --- keys built from a value: each one filled as its one caller fills it -----------------------


def reason_samples(code: str, params: tuple[str, ...]) -> list[dict]:
    """A reason of each shape the coach gives: cards, melds, a count of outs or the outs
    themselves, points whole or with a decimal, either player."""
    base: dict = {"code": code}
    for name in params:
        if name in ("card", "took", "threw", "passed"):
            base[name] = "7H"
        elif name in ("meld", "cards"):
            base[name] = "7H 8H 9H"
        elif name == "player":
            base[name] = 0
        else:
            base[name] = 3
    shapes = [base]
    if "outs" in params:
        shapes.append({**base, "outs": "6H TH"})  # the cards themselves, not a count
        shapes.append({**base, "outs": 1})
    if "points" in params or "other" in params:
        shapes.append({**base, **{n: 2.5 for n in ("points", "other") if n in params}})
    if "player" in params:
        shapes.append({**base, "player": 1})
    return shapes


@pytest.mark.parametrize("lang", languages())
def test_every_reason_and_every_move_of_the_coach_in_words_shows_no_placeholder(lang):
    """The coach's reasons (``play.reason.<code>``, filled by ``why_text``) and the moves'
    names (``play.move.<kind>``, by ``action_label``), each as its caller fills it, from every
    reason code the engine has and every action kind, in every language."""
    from ginrummy.hand import ACTION_KINDS
    from ginrummy.reasons import AGAINST_CODES, REASON_CODES
    from ginview.play.coach import why_text
    from ginview.play.views import action_label

    cat = catalogs.load(lang)  # strict: a placeholder without a value raises
    said = []
    for code, params in REASON_CODES.items():
        for reason in reason_samples(code, params):
            said.append(why_text(reason, cat))
            if code in AGAINST_CODES:
                said.append(why_text(reason, cat, after=True))
    for kind in ACTION_KINDS:
        action = {"kind": kind, "player": 0}
        if kind in ("discard", "knock", "gin", "take_upcard", "draw_discard"):
            said.append(action_label({**action, "card": "7H"}, cat))
        else:
            said.append(action_label(action, cat))
        if kind in ("knock", "gin"):
            melds = ["2S 3S 4S", "9C 9D 9H"]
            said.append(action_label({**action, "card": "7H", "melds": melds}, cat))
    for text in said:
        assert text and not PLACEHOLDER.search(text) and "{" not in text, (lang, text)
