"""Golden drawings: what the presentation layer draws, exactly, in every language, compared
with its reviewed copy, one file a drawing (``tests/data/golden/<lang>/<drawing>.html``, one
test each): every kind of example as a page holds it (with its link, status line and the worked
answer a lesson shows), a step of every kind of lesson with its table and its feedback, the
lessons (every one in English, the first in each language) and their index, and the play page
as built, then the first answers of a game with the coach. Any change to a drawing, a message or
a form shows here, as a diff of the drawing it changed; a file is cut between tags, a piece a
line, so that its diff shows what changed.

The files are written, when drawings change on purpose, by

    GIN_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/view/test_golden.py

(which also removes the files of drawings that are gone), and their diff read
(``git diff tests/data/golden``) before it is committed.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import re
from pathlib import Path

import pytest
from ginrummy.hand import legal_actions
from ginrummy.match import game_from_json
from ginview import api
from ginview.examples import KINDS, example_html, render
from ginview.play import page_html
from ginview.steps import STEPS, feedback, read_step

from sitegen import catalogs, lessons
from sitegen.languages import languages
from tests.view.test_view import EXAMPLES, STEP_CASES

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests/data/golden"
"""A folder per language, a file per drawing."""
PLAY = ("hint", "move", "move", "hint", "move", "move", "move")
"""The play page's first answers drawn, and what the reader asks after each: the coach's hint
or a move."""


MORE_EXAMPLES = [  # what EXAMPLES leaves out: Oklahoma's knock limit, a game won
    {
        "kind": "knock",
        "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D KH",
        "rules": "oklahoma",
        "upcard": "3S",
    },
    {"kind": "sheet", "entries": ["A 60", "B 10", "A 45"]},
]
MORE_STEPS = [  # a discard under Oklahoma's limit, a Hollywood sheet, a knock when only gin may end
    (
        "discard",
        (
            {
                "ask": "discard",
                "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D KH",
                "rules": "oklahoma",
                "upcard": "3S",
            },
            "KH",
            "5D",
        ),
    ),
    (
        "sheet",
        (
            {
                "ask": "sheet",
                "entries": ["A 25", "B 14"],
                "format": "hollywood",
                "find": "totals.0",
            },
            "25",
            "75",  # A's 25 counted in every column
        ),
    ),
    (
        "knock",
        (
            {
                "ask": "knock",
                "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D KH",
                "rules": "oklahoma",
                "upcard": "AS",
            },
            "no",
            "knock",
        ),
    ),
]


@functools.cache
def drawings(lang: str) -> dict[str, str]:
    """Every drawing of a language, by name (drawn once per test process)."""
    catalogs.install_all()
    cat = catalogs.load(lang)
    out = {}
    for n, state in enumerate(EXAMPLES + MORE_EXAMPLES):
        drawn = render(state, cat)
        kind = KINDS[drawn.state["kind"]]
        out[f"example {n} {state['kind']}"] = "\n".join(
            (
                example_html(drawn, cat),  # as a page holds it: the view, controls, notices
                drawn.link,
                drawn.summary,
                kind.worked_html(drawn.state, drawn.result, cat),  # a lesson's worked answer
            )
        )
    for n, (kind, (step, right, wrong)) in enumerate([*STEP_CASES.items(), *MORE_STEPS]):
        step = read_step(step)
        replay = STEPS[kind].replay(step)
        out[f"step {n} {kind}"] = "\n".join(
            (
                STEPS[kind].table_html(step, replay, cat),
                json.dumps(replay.example, sort_keys=True),  # the example of its worked answer
                feedback(step, right, cat)["html"],
                feedback(step, wrong, cat)["html"],
            )
        )
    found = lessons.load_lessons(REPO / "tutorials", catalogs.source_messages(), REPO)
    for lesson in found if lang == "en" else found[:1]:  # every lesson once, in English
        out[f"lesson {lesson.data['id']}"] = lessons.render_lesson(lesson, found, cat)
    out["lessons index"] = lessons.render_index(found, cat)
    move: dict = {"new": {"link": "seed=3"}}
    session = None
    for n, ask in enumerate(PLAY):
        answer = api.call({"op": "play", "lang": lang, "session": session, "move": move})
        result = answer["result"]
        out[f"play {n}"] = "\n".join([result["html"], *(step["html"] for step in result["steps"])])
        if n == 0:  # as the build draws the page, before its script makes it live
            out["play page"] = page_html(cat)
        session = answer["result"]["session"]
        if ask == "hint":
            move = {"hint": True}
        else:  # the reader's last legal move (the stock, a high card, an end)
            move = {"action": legal_actions(game_from_json(session["game"]).hand)[-1].to_json()}
    return out


TAG = re.compile(r"(?<=>)(?=<)")


def pieces(html: str) -> list[str]:
    """A drawing cut between its tags, a piece a line in its file (so that its diff shows
    what changed); joined again, the drawing."""
    return TAG.split(html)


def golden_file(lang: str, name: str) -> Path:
    """Where a drawing's reviewed copy is kept: "example 3 knock" in hu is hu/example-3-knock.html."""
    return GOLDEN / lang / (re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") + ".html")


@functools.cache
def drawn_files(lang: str) -> dict[Path, str]:
    """Every drawing of a language by the file its reviewed copy is kept in."""
    files = {golden_file(lang, name): html for name, html in drawings(lang).items()}
    assert len(files) == len(drawings(lang)), "two drawings share a file name"
    return files


def written(html: str) -> str:
    return "\n".join(pieces(html)) + "\n"


PLACEHOLDER = re.compile(r"\{\w+(?::\w+)?\}")
"""A message's placeholder ("{card}", "{card:acc}") left in a drawing: a caller gave the message
less than it needs. The catalogs the tests install are strict (a placeholder without a value
raises), and a drawing that holds one anyway is never written as golden."""


def test_every_drawing_has_its_reviewed_file_and_every_file_its_drawing():
    """The files are the drawings: a new drawing needs its file, a file whose drawing is gone
    goes (``GIN_UPDATE_GOLDEN=1`` writes them all, and removes those)."""
    update = os.environ.get("GIN_UPDATE_GOLDEN") == "1"
    for lang in languages():
        files = drawn_files(lang)
        for path, html in files.items():  # what a stored copy cannot see: a raw placeholder
            found = PLACEHOLDER.search(html)
            assert not found, f"{path.relative_to(REPO)} shows {found.group(0)}"
        kept = set((GOLDEN / lang).glob("*.html"))
        if update:
            (GOLDEN / lang).mkdir(parents=True, exist_ok=True)
            for path, html in files.items():
                if not path.is_file() or path.read_text(encoding="utf-8") != written(html):
                    path.write_text(written(html), encoding="utf-8")
            for path in kept - set(files):
                path.unlink()
            kept = set(files)
        new = sorted(str(p.relative_to(REPO)) for p in set(files) - kept)
        gone = sorted(str(p.relative_to(REPO)) for p in kept - set(files))
        assert not new, f"drawings without a reviewed file (GIN_UPDATE_GOLDEN=1 writes them): {new}"
        assert not gone, (
            f"files of drawings that are gone (GIN_UPDATE_GOLDEN=1 removes them): {gone}"
        )


@pytest.mark.parametrize(
    "path",
    sorted(GOLDEN.glob("*/*.html")),
    ids=lambda path: f"{path.parent.name}/{path.stem}",
)
def test_the_drawing_is_as_reviewed(path):
    lang = path.parent.name
    by_file = drawn_files(lang)
    if path not in by_file:
        pytest.fail(f"{path.relative_to(REPO)}: no such drawing any more (see the test above)")
    was = path.read_text(encoding="utf-8").splitlines()
    now = written(by_file[path]).splitlines()
    if was != now:
        diff = difflib.unified_diff(was, now, "reviewed", "now", lineterm="", n=2)
        pytest.fail(f"{path.relative_to(REPO)} changed:\n" + "\n".join(list(diff)[:60]))


def test_a_drawing_cut_into_pieces_joins_again():
    html = '<p class="a">x &gt; y</p><ul><li>1</li>\n<li>2</li></ul>'
    assert pieces(html) == ['<p class="a">x &gt; y</p>', "<ul>", "<li>1</li>\n<li>2</li>", "</ul>"]
    assert "".join(pieces(html)) == html


@pytest.mark.parametrize("lang", languages())
def test_a_lay_off_lesson_calls_the_readers_cards_their_hand(lang):
    """In a lay-off lesson the reader is the defender: the row of their cards (shown without
    JavaScript) is "Your hand", never the defender's name (an Italian reader saw the reader's own
    cards labelled "Carte dell'avversario")."""
    cat = catalogs.load(lang)
    step = read_step(STEP_CASES["layoff"][0])
    table = STEPS["layoff"].table_html(step, STEPS["layoff"].replay(step), cat)
    assert f'<dt class="gin-lesson-pickable">{cat.html("tutorial.your_hand")}</dt>' in table
    assert cat.html("ui.defender_hand") not in table
