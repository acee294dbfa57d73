"""Lessons as data (tutorials/*.yaml): the schema, the engine replay, the pages in four languages.

- A broken lesson file stops the build with one line naming the file, the step and the problem.
- A stated answer the engine does not confirm stops the build with the file and the step.
- Every lesson renders in every language, with every placeholder filled from the engine or the
  preset, and every message it uses is translated (not fuzzy) in every catalog.
- The built site has every lesson page and the index in every language, generated in MkDocs'
  file collection (nothing written into docs/), and the nav lists the lessons in order.
"""

from __future__ import annotations

import html
import json
import re
import textwrap
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po
from ginrummy import api
from ginview import fields as F
from ginview import page as page_texts
from ginview import steps as S

from sitegen import catalogs, lessons
from sitegen.languages import languages

REPO = Path(__file__).resolve().parents[2]
LANGUAGES = languages()
LESSONS = lessons.load_lessons(REPO / "tutorials", catalogs.source_messages(), REPO)
EXPECTED_ORDER = [
    "cards",
    "melds",
    "deadwood",
    "first-turn",
    "knock",
    "gin",
    "lay-offs",
    "undercut",
    "game",
    "hollywood",
    "oklahoma",
]

GOOD_STEP = """\
  - id: count
    ask: deadwood
    hand: AS 2S 3S 7H 7D 7C 9C TC JC KD
    answer: 10
    text: lesson.deadwood.count.text
    hints: [lesson.deadwood.count.hint]
    explain: lesson.deadwood.count.explain
"""


def step_of(ask: str, fields: str) -> str:
    """A step ``s`` of kind ``ask`` with ``fields`` (YAML lines, indented) and the messages."""
    return (
        f"  - id: s\n    ask: {ask}\n    {fields}\n    text: lesson.deadwood.count.text\n"
        "    explain: lesson.deadwood.count.explain\n"
    )


def lesson_text(steps: str = GOOD_STEP, head: str = "") -> str:
    return (
        "id: sample\norder: 1\ntitle: lesson.deadwood.title\nintro: [lesson.deadwood.intro]\n"
        f"{head}steps:\n{steps}"
    )


def write_lesson(folder: Path, text: str, name: str = "01-sample.yaml") -> Path:
    (folder / "tutorials").mkdir(parents=True, exist_ok=True)
    path = folder / "tutorials" / name
    path.write_text(text, encoding="utf-8")
    return path


def render_all(root: Path) -> dict:
    """Every lesson page in every language, as the plugin makes them."""
    found = lessons.load_lessons(root / "tutorials", catalogs.source_messages(), root)
    return {lang: lessons.lesson_pages(found, catalogs.load(lang)) for lang in LANGUAGES}


def build_error(tmp_path: Path, text: str) -> str:
    """The one-line error the build step gives for a lesson file."""
    write_lesson(tmp_path, text)
    with pytest.raises(lessons.LessonError) as caught:
        render_all(tmp_path)
    message = str(caught.value)
    assert "\n" not in message, message
    assert re.match(r"tutorials/01-sample\.yaml:\d+: ", message), message
    return message


# --- the schema and the replay ----------------------------------------------------------------

BROKEN = {
    "missing answer": (
        GOOD_STEP.replace("    answer: 10\n", ""),
        "step 1 ('count'): the step needs 'answer'",
    ),
    "missing hand": (
        GOOD_STEP.replace("    hand: AS 2S 3S 7H 7D 7C 9C TC JC KD\n", ""),
        "step 1 ('count'): a deadwood step needs 'hand'",
    ),
    "unknown kind": (
        GOOD_STEP.replace("ask: deadwood", "ask: guess"),
        "step 1 ('count'): unknown kind ask: 'guess'; use one of discard, deadwood",
    ),
    "bad card": (
        GOOD_STEP.replace("KD", "XD"),
        "step 1 ('count'): hand: unknown rank 'X' in card 'XD'",
    ),
    "repeated card": (GOOD_STEP.replace("KD", "AS"), "step 1 ('count'): hand: AS appears twice"),
    "wrong count": (
        GOOD_STEP.replace(" KD", ""),
        "step 1 ('count'): hand: expected 10 or 11 cards, got 9",
    ),
    "a list where cards belong": (
        GOOD_STEP.replace("hand: AS 2S 3S 7H 7D 7C 9C TC JC KD", "hand: [[AS, 2S]]"),
        "step 1 ('count'): hand must be cards written like 7H 8H 9H, not [['AS', '2S']]",
    ),
    "wrong stated answer": (
        GOOD_STEP.replace("answer: 10", "answer: 11"),
        "step 1 ('count'): the stated answer 11 is not what the engine computes: 10",
    ),
    "unknown field": (
        GOOD_STEP + "    upcard: 5H\n",
        "step 1 ('count'): a deadwood step has no field 'upcard'",
    ),
    "unknown message": (
        GOOD_STEP.replace("lesson.deadwood.count.hint", "lesson.nope.hint"),
        "step 1 ('count'): hints: no message 'lesson.nope.hint' in locales/messages.pot",
    ),
    "answer of the wrong type": (
        GOOD_STEP.replace("answer: 10", "answer: ten"),
        "step 1 ('count'): answer must be a whole number, not 'ten'",
    ),
    "a list where a message belongs": (
        GOOD_STEP.replace("text: lesson.deadwood.count.text", "text: [lesson.deadwood.count.text]"),
        "step 1 ('count'): text must be a message id, not ['lesson.deadwood.count.text']",
    ),
    "discard not in the hand": (
        GOOD_STEP.replace("ask: deadwood", "ask: discard")
        .replace("JC KD", "JC KD 4H")
        .replace("answer: 10", "answer: 5C"),
        "step 1 ('count'): the stated answer '5C' is not what the engine computes: the answer "
        "5C is not in the hand",
    ),
    "wrong discard": (
        GOOD_STEP.replace("ask: deadwood", "ask: discard")
        .replace("JC KD", "JC KD 4H")
        .replace("answer: 10", "answer: 7H"),
        "step 1 ('count'): the stated answer '7H' is not what the engine computes: discarding "
        "7H leaves deadwood 28, the best discard (KD) leaves 4",
    ),
    "wrong knock verdict": (
        GOOD_STEP.replace("ask: deadwood", "ask: knock")
        .replace("JC KD", "JC KD 4H")
        .replace("answer: 10", "answer: gin"),
        "step 1 ('count'): the stated answer 'gin' is not what the engine computes: 'knock'",
    ),
    "wrong lay-offs": (
        textwrap.dedent("""\
            - id: lay
              ask: layoff
              knocker_melds: [7S 8S 9S, KH KD KC]
              defender: 6S 5S 2D 3C 4H QD JD TH 9H AC
              answer: 6S
              text: lesson.lay-offs.chain.text
              explain: lesson.lay-offs.chain.explain
        """),
        "step 1 ('lay'): the stated answer '6S' is not what the engine computes: the defender "
        "lays off 6S 5S",
    ),
    "illegal move": (
        textwrap.dedent("""\
            - id: first
              ask: move
              deal: {seed: 7}
              choices: [draw_stock, draw_discard]
              answer: draw_stock
              text: lesson.first-turn.offer.text
              explain: lesson.first-turn.offer.explain
        """),
        "step 1 ('first'): the stated answer 'draw_stock' is not what the engine computes: "
        "'draw_stock' is not a legal move now",
    ),
    "two right choices": (
        textwrap.dedent("""\
            - id: first
              ask: move
              deal: {seed: 7}
              choices: [take_upcard, pass]
              answer: take_upcard
              text: lesson.first-turn.offer.text
              explain: lesson.first-turn.offer.explain
        """),
        "step 1 ('first'): the choice 'pass' is legal too",
    ),
    "wrong melds": (
        textwrap.dedent("""\
            - id: arrange
              ask: melds
              hand: 3H 4H 5H 6H 5S 5D 8C 8D 8S KC
              answer: 3H 4H 6H KC
              text: lesson.deadwood.arrange.text
              explain: lesson.deadwood.arrange.explain
        """),
        "step 1 ('arrange'): the stated answer '3H 4H 6H KC' is not what the engine computes: "
        "the deadwood of the best arrangement is",
    ),
    "a placeholder the step cannot fill": (
        GOOD_STEP.replace("lesson.deadwood.count.explain", "lesson.game.total.explain"),
        "step 'count': message 'lesson.game.total.explain' (en) uses {value}, which this "
        "step does not provide",
    ),
    # every step kind's check of the stated answer against the engine
    "wrong score": (
        step_of(
            "score",
            "knocker: 2S 3S 4S 7H 7D 7C 9C TC JC 5D\n"
            "    defender: 8S 9S TS KH KD 4H 6C 6H 2C AD\n    answer: 35",
        ),
        "step 1 ('s'): the stated answer 35 is not what the engine computes: 34",
    ),
    "wrong sheet number": (
        step_of("sheet", "entries: [A 60, B 14, A 45]\n    find: totals.0\n    answer: 256"),
        "step 1 ('s'): the stated answer 256 is not what the engine computes: 255",
    ),
    "a sheet value that is no number": (
        step_of("sheet", "entries: [A 60, B 14, A 45]\n    find: finished\n    answer: 1"),
        "step 1 ('s'): find: 'finished' is not a number in the engine's score sheet",
    ),
    "the engine's verdict not among the choices": (
        step_of(
            "knock",
            "hand: 2S 3S 4S 7H 7D 7C 9C TC JC 5D 5H\n    choices: [gin, 'no']\n    answer: knock",
        ),
        "step 1 ('s'): the engine's answer 'knock' is not one of the choices",
    ),
    "an answer not among the choices": (
        step_of(
            "move", "deal: {seed: 7}\n    choices: [take_upcard, draw_stock]\n    answer: pass"
        ),
        "step 1 ('s'): answer must be one of take_upcard, draw_stock, not 'pass'",
    ),
    "duplicate step id": (
        GOOD_STEP + GOOD_STEP,
        "step 2 ('count'): a second step with the id 'count'",
    ),
    "a step that is not a mapping": (
        "  - count the deadwood\n",
        "step 1: a step is a mapping with id, ask, text",
    ),
    "missing text": (
        GOOD_STEP.replace("    text: lesson.deadwood.count.text\n", ""),
        "step 1 ('count'): the step needs 'text'",
    ),
    "bad step id": (
        GOOD_STEP.replace("id: count", "id: Count Them"),
        "step 1 ('Count Them'): the step id 'Count Them' must be up to 40 lowercase",
    ),
    "unknown text message": (
        GOOD_STEP.replace("text: lesson.deadwood.count.text", "text: lesson.deadwood.nope"),
        "step 1 ('count'): text: no message 'lesson.deadwood.nope'",
    ),
    "hints not a list": (
        GOOD_STEP.replace(
            "hints: [lesson.deadwood.count.hint]", "hints: lesson.deadwood.count.hint"
        ),
        "step 1 ('count'): 'hints' must be a list of message ids",
    ),
    "unknown hint": (
        GOOD_STEP.replace("hints: [lesson.deadwood.count.hint]", "hints: [lesson.deadwood.nope]"),
        "step 1 ('count'): hints: no message 'lesson.deadwood.nope'",
    ),
    "a message that is not an id": (
        GOOD_STEP.replace("explain: lesson.deadwood.count.explain", "explain: [a, b]"),
        "step 1 ('count'): explain must be a message id, not",
    ),
}


@pytest.mark.parametrize("case", BROKEN, ids=list(BROKEN))
def test_broken_lessons_stop_the_build_with_one_clear_line(tmp_path, case):
    steps, expected = BROKEN[case]
    message = build_error(tmp_path, lesson_text(steps))
    assert expected in message, message


LINES = {  # where each problem is named: the line of the field at fault, or of its step
    "a bad card": (GOOD_STEP.replace("KD", "XD"), 8),  # hand:
    "a wrong stated answer": (GOOD_STEP.replace("answer: 10", "answer: 11"), 9),  # answer:
    "an unknown field": (GOOD_STEP + "    upcard: 5H\n", 13),  # upcard:
    "a missing answer": (GOOD_STEP.replace("    answer: 10\n", ""), 6),  # the step
    "an unknown hint": (GOOD_STEP.replace("count.hint]", "nope]"), 11),  # hints:
    "a second step with its id": (GOOD_STEP + GOOD_STEP, 13),  # the second id:
    "a key twice": (GOOD_STEP.replace("    answer: 10\n", "    answer: 10\n    answer: 9\n"), 10),
    "an alias": (GOOD_STEP.replace("hand: AS", "hand: &h AS"), 8),
}


@pytest.mark.parametrize("case", LINES, ids=list(LINES))
def test_a_broken_lesson_names_its_line(tmp_path, case):
    steps, line = LINES[case]
    message = build_error(tmp_path, lesson_text(steps))
    assert message.startswith(f"tutorials/01-sample.yaml:{line}: "), message


@pytest.mark.parametrize(
    "answer, problem",
    [
        ("no", None),  # a text: "no" is no flag (YAML 1.1 would read False)
        ("yes", "answer must be one of"),
        ("off", "answer must be one of"),
    ],
)
def test_a_lesson_reads_yes_and_no_as_words(tmp_path, answer, problem):
    step = step_of(
        "knock",
        f"hand: 2S 3S 4S 7H 7D 7C 9C TC JC 5D KH\n    choices: [knock, no]\n    answer: {answer}",
    )
    if problem is None:
        write_lesson(tmp_path, lesson_text(step))
        with pytest.raises(lessons.LessonError, match="the stated answer 'no' is not what"):
            render_all(tmp_path)
    else:
        assert problem in build_error(tmp_path, lesson_text(step))


def test_ambiguous_arrangements_are_refused(tmp_path):
    # The king of spades ends the run J-Q-K of spades or joins the kings: either way 20 points
    # of pictures are left, so the engine's one arrangement is not the only right answer.
    hand = "JS QS KS KH KD 2C 3D 4H 6C 8D"
    best = api.call({"op": "melds", "cards": hand})["result"]
    steps = textwrap.dedent(f"""\
        - id: two-ways
          ask: melds
          hand: {hand}
          answer: {best["deadwood"]}
          text: lesson.deadwood.arrange.text
          explain: lesson.deadwood.arrange.explain
    """)
    message = build_error(tmp_path, lesson_text(steps))
    assert "step 1 ('two-ways'): the hand has more than one best arrangement" in message


@pytest.mark.parametrize(
    "head, text, expected",
    [
        (
            "",
            "id: sample\norder: 1\ntitle: lesson.deadwood.title\nintro: x\n",
            "the lesson needs 'steps'",
        ),
        (
            "",
            lesson_text().replace("order: 1", "order: first"),
            "the order must be a whole number from 1 to 99, not 'first'",
        ),
        (
            "",
            lesson_text().replace("order: 1", "order: 100000000000000000000"),
            "the order must be a whole number from 1 to 99, not 100000000000000000000",
        ),
        (
            "",
            lesson_text().replace("id: sample", "id: Sample Lesson"),
            "the id 'Sample Lesson' must be up to 40 lowercase letters, digits and '-'",
        ),
        ("", lesson_text(head="rules: house\n"), "unknown rules 'house'"),
        ("", lesson_text(head="rules: [standard]\n"), "unknown rules ['standard']"),
        (
            "",
            lesson_text().replace("title: lesson.deadwood.title", "title: lesson.missing.title"),
            "title: no message 'lesson.missing.title'",
        ),
        ("", "steps: [\n", "not valid YAML"),
        ("", lesson_text("  []\n"), "'steps' must be a non-empty list"),
        ("", "- id: sample\n", "a lesson is a mapping with id, order, title, intro, steps"),
        ("", lesson_text(head="colour: red\n"), "unknown lesson field 'colour'; the fields are"),
        (
            "",
            lesson_text().replace("title: lesson.deadwood.title", "title: 42"),
            "title must be a message id, not 42",
        ),
        (
            "",
            lesson_text().replace("intro: [lesson.deadwood.intro]", "intro: [lesson.nope]"),
            "intro: no message 'lesson.nope'",
        ),
        (
            "",
            lesson_text().replace(
                "intro: [lesson.deadwood.intro]", "intro: [lesson.game.total.explain]"
            ),
            "intro: message 'lesson.game.total.explain' (en) uses {value}, which this step "
            "does not provide",
        ),
    ],
)
def test_broken_lesson_headers(tmp_path, head, text, expected):
    message = build_error(tmp_path, text)
    assert expected in message, message


def test_a_binary_lesson_file_is_one_line(tmp_path):
    write_lesson(tmp_path, "")
    (tmp_path / "tutorials" / "01-sample.yaml").write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(lessons.LessonError) as caught:
        render_all(tmp_path)
    assert str(caught.value) == "tutorials/01-sample.yaml: not a text file (UTF-8)"
    elsewhere = tmp_path.parent / "elsewhere.yaml"  # outside the root, or with none: as given
    elsewhere.write_bytes(b"\xff")
    for root in (tmp_path, None):
        with pytest.raises(lessons.LessonError) as caught:
            lessons.read_lesson(elsewhere, catalogs.source_messages(), root)
        assert str(caught.value) == f"{elsewhere}: not a text file (UTF-8)"


def test_duplicate_ids_are_refused(tmp_path):
    write_lesson(tmp_path, lesson_text(), "01-a.yaml")
    write_lesson(tmp_path, lesson_text().replace("order: 1", "order: 2"), "02-b.yaml")
    with pytest.raises(
        lessons.LessonError,
        match=r"^tutorials/02-b.yaml:1: the id 'sample' is "
        r"used by tutorials/01-a.yaml too$",
    ):
        render_all(tmp_path)


@pytest.mark.parametrize("page", ["rules/nowhere.md", 7])
def test_a_lesson_names_a_page_of_the_site(tmp_path, page):
    path = write_lesson(tmp_path, lesson_text(head=f"page: {page}\n"))
    pages = {"rules/melds.md", "index.md"}
    with pytest.raises(lessons.LessonError) as caught:
        lessons.read_lesson(path, catalogs.source_messages(), tmp_path, pages)
    assert str(caught.value) == (
        f"tutorials/01-sample.yaml:5: the page {page!r} is not a page of the site "
        "(like rules/melds.md)"
    )
    good = write_lesson(tmp_path, lesson_text(head="page: rules/melds.md\n"))
    assert lessons.read_lesson(good, catalogs.source_messages(), tmp_path, pages).id == "sample"


def test_duplicate_orders_are_refused(tmp_path):
    write_lesson(tmp_path, lesson_text(), "01-a.yaml")
    write_lesson(tmp_path, lesson_text().replace("id: sample", "id: other"), "02-b.yaml")
    with pytest.raises(
        lessons.LessonError,
        match=r"tutorials/02-b.yaml:2: the order 1 is used "
        r"by tutorials/01-a.yaml too",
    ):
        render_all(tmp_path)


def test_a_good_lesson_renders_in_every_language(tmp_path):
    write_lesson(tmp_path, lesson_text())
    for lang, pages in render_all(tmp_path).items():
        assert sorted(pages) == ["lessons/01-sample.md", "lessons/index.md"]
        title = catalogs.load(lang).text("lesson.deadwood.title")
        assert pages["lessons/01-sample.md"].startswith(f"# {title}\n")


# --- the real lessons ------------------------------------------------------------------------


def test_the_eleven_lessons_in_order():
    assert [lesson.id for lesson in LESSONS] == EXPECTED_ORDER
    assert [lesson.data["order"] for lesson in LESSONS] == list(range(1, 12))
    for lesson in LESSONS:
        assert 2 <= len(lesson.steps) <= 4, lesson.id
        assert lesson.where == f"tutorials/{lesson.slug}.yaml"


def test_every_step_is_confirmed_by_the_engine():
    """Replayed again here, with the engine's own requests: the answer is the engine's."""
    for lesson in LESSONS:
        for step in lesson.steps:
            data, check = step.data, step.replay.check
            kind = data["ask"]
            extra = {k: data[k] for k in ("rules", "upcard") if k in data}
            if kind == "deadwood":
                assert (
                    api.call({"op": "deadwood", "cards": data["hand"]})["result"]["points"]
                    == data["answer"]
                    == check["points"]
                )
            elif kind == "discard":
                rest = " ".join(c for c in data["hand"].split() if c != data["answer"])
                after = api.call({"op": "deadwood", "cards": rest})["result"]["points"]
                best = api.call({"op": "knock", "cards": data["hand"], **extra})
                assert after == best["result"]["points"] == check["best"]
            elif kind == "knock":
                request = {"op": "knock", "cards": data["hand"], **extra}
                assert api.call(request)["result"]["verdict"] == data["answer"] == check["verdict"]
            elif kind == "score":
                request = {
                    "op": "score",
                    "knocker": data["knocker"],
                    "defender": data["defender"],
                    **extra,
                }
                assert api.call(request)["result"]["points"] == data["answer"] == check["points"]
            elif kind == "sheet":
                request = {
                    "op": "sheet",
                    "entries": data["entries"],
                    "format": data.get("format", "standard"),
                    **extra,
                }
                result = api.call(request)["result"]
                assert S.resolve(result, data["find"]) == data["answer"] == check["value"]
            elif kind == "layoff":
                request = {
                    "op": "layoffs",
                    "knocker_melds": data["knocker_melds"],
                    "defender": data["defender"],
                }
                laid = {l["card"] for l in api.call(request)["result"]["lay_offs"]}
                assert laid == set(data["answer"].split()) == set(check["cards"].split())
            elif kind == "melds":
                result = api.call({"op": "melds", "cards": data["hand"]})["result"]
                assert set(result["deadwood"].split()) == set(data["answer"].split())
            else:
                assert kind == "move" and check["legal"] == [data["answer"]]


def test_rule_numbers_come_from_the_presets():
    """No lesson message types a preset's number: they come in as placeholders."""
    source = catalogs.source_messages()
    for lesson in LESSONS:
        keys = [lesson.data["title"], *lesson.data["intro"]]
        for step in lesson.steps:
            keys += [step.messages["text"], step.messages["explain"], *step.messages["hints"]]
        for key in keys:
            text = source[key]
            for number in (25, 31, 100, 150):
                assert not re.search(rf"(?<![\d.]){number}(?![\d])", text), (key, number)
    gin = next(lesson for lesson in LESSONS if lesson.id == "gin")
    intro = lessons.render_lesson(gin, LESSONS, catalogs.load("en"))
    assert (
        f"a bonus of {api.call({'op': 'rules', 'name': 'standard'})['result']['gin_bonus']}"
        in intro
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_lesson_renders_in_every_language(lang):
    catalog = catalogs.load(lang)
    english = catalogs.load("en")
    for lesson in LESSONS:
        page = lessons.render_lesson(lesson, LESSONS, catalog)
        title = catalog.text(lesson.data["title"])
        assert page.startswith(f"# {title}\n"), lesson.id
        assert "lesson." not in re.sub(r'data-[\w-]+="[^"]*"', "", page), lesson.id
        text = html.unescape(re.sub(r"<[^>]+>", " ", page))
        assert not re.search(r"\{\w+\}", text), (lesson.id, re.findall(r"\{\w+\}", text))
        assert page.count('class="gin-lesson-step"') == len(lesson.steps)
        for step in lesson.steps:
            question = catalog.template(step.messages["text"])
            assert question.split("{")[0].strip() in text, (lesson.id, step.data["id"])
            if lang != "en":
                assert question != english.template(step.messages["text"])
        steps = json.loads(html.unescape(re.search(r'data-lesson-steps="([^"]*)"', page).group(1)))
        assert steps == [s.data["id"] for s in lesson.steps]
    index = lessons.render_index(LESSONS, catalog)
    assert index.startswith(f"# {catalog.text('tutorial.index_title')}\n")
    for lesson in LESSONS:
        assert f'href="{lesson.slug}/"' in index


def _used_message_ids() -> set[str]:
    keys = set()
    for lesson in LESSONS:
        keys |= {lesson.data["title"], *lesson.data["intro"]}
        for step in lesson.steps:
            keys |= {step.messages["text"], step.messages["explain"], *step.messages["hints"]}
    for module in (
        REPO / "presentation/ginview/steps.py",
        REPO / "sitegen/lessons.py",
        *(REPO / "sitegen/templates").glob("*.j2"),
    ):
        keys |= set(re.findall(r'"(tutorial\.[\w.]+)"', module.read_text(encoding="utf-8")))
    keys |= {key for key in page_texts.TEXTS.values() if key.startswith("tutorial.")}
    keys |= {f"tutorial.why.knock_{verdict}" for verdict in S.VERDICTS}
    keys |= {f"tutorial.ask.{kind}" for kind in S.STEPS}
    keys |= {f"tutorial.verdict.{v}" for v in S.VERDICTS}
    keys |= {f"tutorial.move.{m}" for m in F.MOVES}
    return keys


def test_every_lesson_message_is_translated_in_every_catalog():
    assert catalogs.problems() == []
    source = catalogs.source_messages()
    used = _used_message_ids()
    assert len(used) > 100
    assert used <= set(source), sorted(used - set(source))
    for lang in LANGUAGES[1:]:
        with (REPO / "locales" / f"{lang}.po").open("rb") as handle:
            entries = {m.context: m for m in read_po(handle) if m.context}
        for key in sorted(used):
            entry = entries.get(key)
            assert entry is not None, f"{lang}.po: {key}: not translated"
            assert not entry.fuzzy, f"{lang}.po: {key}: fuzzy"
            assert entry.string, f"{lang}.po: {key}: empty"
            assert catalogs.placeholders(entry.string) == catalogs.placeholders(source[key])


def test_lesson_keys_are_prefixed():
    """This feature's messages live under lesson.* (content) and tutorial.* (interface)."""
    for key in _used_message_ids():
        assert key.startswith(("lesson.", "tutorial.")), key


def test_the_plugin_lists_the_lessons_in_the_nav(built_site):
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8").replace("!!", "#"))
    section = next(item["Lessons"] for item in config["nav"] if "Lessons" in item)
    assert section == ["lessons/index.md"]  # the plugin adds the lessons after the index
    assert "assets/gin/lessons.css" in config["extra_css"]
    names = {
        lang["locale"]: lang.get("nav_translations", {}).get("Lessons")
        for lang in next(p["i18n"] for p in config["plugins"] if "i18n" in p)["languages"]
    }
    assert names == {"en": None, "ro": "Lecții", "hu": "Leckék", "it": "Lezioni"}
    for lang in LANGUAGES:
        home = (built_site / ("" if lang == "en" else lang) / "index.html").read_text("utf-8")
        links = re.findall(r'href="(?:\./)?(?:\.\./)*(lessons/(?:[\w-]+/)?)"', home)
        listed = [link for link in dict.fromkeys(links) if link != "lessons/"]
        assert "lessons/" in links, lang
        assert listed == [f"lessons/{l.slug}/" for l in LESSONS], (lang, listed)


def test_lesson_pages_are_not_written_into_docs(built_site):
    for lang in LANGUAGES:
        assert not (REPO / "docs" / lang / "lessons").exists(), lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_built_site_has_every_lesson(built_site, lang):
    prefix = built_site if lang == "en" else built_site / lang
    catalog = catalogs.load(lang)
    index = (prefix / "lessons" / "index.html").read_text(encoding="utf-8")
    assert "data-lesson-index" in index
    assert "assets/gin/lessons.css" in index
    for lesson in LESSONS:
        page = (prefix / "lessons" / lesson.slug / "index.html").read_text(encoding="utf-8")
        assert f'data-lesson="{lesson.id}"' in page
        assert html.escape(catalog.text(lesson.data["title"]), quote=False) in page
        assert page.count('class="gin-lesson-step"') == len(lesson.steps)
        assert 'class="gin-page" hidden data-gin-texts=' in page
        assert f'href="{lesson.slug}/"' in index
    assert (built_site / "assets" / "gin" / "lessons.js").is_file()
