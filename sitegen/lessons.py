"""Lessons as data: ``tutorials/*.yaml`` read, replayed through the engine and drawn as pages.

A lesson file holds no language. Its words are message ids (``lesson.<id>.…``) in the
``locales/`` catalogs; its cards, its rules preset and the answers its author states are data.
The steps' kinds are the presentation layer's (:data:`ginview.steps.STEPS`). For every lesson
the build

1. reads the file (a malformed lesson stops the build with one line: the file and the line,
   the step and what is wrong); its YAML is plain data (:mod:`sitegen.strict_yaml`: no
   aliases, tags or keys given twice; ``no`` is a text);
2. replays every step through the engine: an answer the engine does not confirm stops the
   build with the file, the line and the step;
3. draws the lesson with Jinja2 (``sitegen/templates/``) into one Markdown page per language,
   ``lessons/<NN>-<id>.md``, plus the lessons index ``lessons/index.md``. The MkDocs plugin
   adds them to the site's files (:mod:`sitegen.plugin`); nothing is written into ``docs/``.

A lesson file::

    id: deadwood                # lowercase letters, digits and "-"
    order: 3                    # its place in the list of lessons (unique, 1 to 99)
    page: rules/deadwood.md     # optional: the rules page it teaches; each links to the other
    title: lesson.deadwood.title
    intro: [lesson.deadwood.intro]       # paragraphs, as message ids
    rules: standard             # optional: the preset of its steps that have rules
    steps:
      - id: count
        ask: deadwood           # what the learner does: one of ginview.steps.STEPS
        hand: AS 2S 3S 7H 7D 7C 9C TC JC KD
        answer: 10              # the right answer, as the author states it
        text: lesson.deadwood.count.text      # the question
        hints: [lesson.deadwood.count.hint]   # shown one at a time, on request
        explain: lesson.deadwood.count.explain  # shown once the step is answered

Messages may use ``{placeholders}``: the rule numbers of the step's preset (``knock_limit``,
``gin_bonus``, ``big_gin_bonus``, ``undercut_bonus``, ``game_target``, ``game_bonus``,
``box_bonus``) and what the engine found, so no message types a preset's number. A
placeholder the step cannot fill stops the build.
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

from ginrummy import RULESETS
from ginrummy.errors import GinRummyError
from ginview import steps as S
from ginview.catalog import Catalog
from ginview.shapes import StepState

from . import BuildError, strict_yaml

if TYPE_CHECKING:
    from jinja2 import Environment

Messages = Mapping[str, object]
"""The message ids of ``locales/messages.pot`` (with their English), which a lesson names."""

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Path(__file__).resolve().parent / "templates"
FOLDER = "lessons"
ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
MAX_ORDER = 99
LESSON_REQUIRED = ("id", "order", "title", "intro", "steps")
LESSON_OPTIONAL = ("rules", "page")
STEP_MESSAGES = ("text", "explain")


class LessonError(BuildError):
    """A lesson that is malformed, or whose stated answer the engine does not confirm."""


@dataclass
class Step:
    data: StepState  # the step's fields, canonical (ginview.steps.read_step)
    messages: S.StepMessages  # its message ids: text, hints, explain
    replay: S.Replay
    line: int = 1  # where it starts in the lesson's file


@dataclass
class Lesson:
    data: dict[str, Any]  # the lesson's fields as read_lesson checked them (YAML, with lines)
    where: str  # the file, as error messages name it
    steps: list[Step]

    @property
    def id(self) -> str:
        lesson_id: str = self.data["id"]
        return lesson_id

    @property
    def slug(self) -> str:
        return f"{self.data['order']:02d}-{self.data['id']}"


def _where(path: Path, root: Path | None) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve())) if root else str(path)
    except ValueError:
        return str(path)


def _load_yaml(path: Path, where: str) -> object:
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise LessonError(f"{where}: not a text file (UTF-8)") from None
    except OSError as error:
        raise LessonError(f"{where}: cannot read it: {error.strerror}") from None
    try:
        return strict_yaml.load(text)
    except strict_yaml.YamlError as error:
        raise LessonError(f"{where}:{error.line}: {error.problem}") from None


def _line(data: object, name: object = None) -> int:
    """The line of field ``name`` of a mapping read from a lesson (else of the mapping)."""
    lines: dict[object, int] = getattr(data, "lines", {})
    return int(lines[name]) if name in lines else int(getattr(data, "line", 1))


def read_lesson(
    path: Path, messages: Messages, root: Path | None = ROOT, pages: set[str] | None = None
) -> Lesson:
    """The lesson in ``path``, checked and replayed; a problem raises LessonError naming the
    file and the line. ``pages``: the site's pages, which a lesson's ``page`` must be one of."""
    where = _where(path, root)
    data = _load_yaml(path, where)

    def fail(problem: str, step: str | None = None, line: int = 1) -> NoReturn:
        raise LessonError(f"{where}:{line}: {step + ': ' if step else ''}{problem}")

    def bad(name: object, problem: str) -> NoReturn:
        fail(problem, line=_line(data, name))

    if not isinstance(data, dict):
        fail(f"a lesson is a mapping with {', '.join(LESSON_REQUIRED)}")
    for name in LESSON_REQUIRED:
        if name not in data:
            fail(f"the lesson needs {name!r}")
    unknown = sorted(str(k) for k in set(data) - set(LESSON_REQUIRED) - set(LESSON_OPTIONAL))
    if unknown:
        bad(
            next(k for k in data if str(k) == unknown[0]),
            f"unknown lesson field {unknown[0]!r}; the fields are "
            f"{', '.join(LESSON_REQUIRED + LESSON_OPTIONAL)}",
        )
    if not isinstance(data["id"], str) or not ID.match(data["id"]):
        bad("id", f"the id {data['id']!r} must be up to 40 lowercase letters, digits and '-'")
    order = data["order"]
    if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= MAX_ORDER:
        bad("order", f"the order must be a whole number from 1 to {MAX_ORDER}, not {order!r}")
    if "rules" in data and (not isinstance(data["rules"], str) or data["rules"] not in RULESETS):
        bad("rules", f"unknown rules {data['rules']!r}; use one of {', '.join(RULESETS)}")
    if "page" in data and (
        not isinstance(data["page"], str) or (pages is not None and data["page"] not in pages)
    ):
        bad("page", f"the page {data['page']!r} is not a page of the site (like rules/melds.md)")
    _message(data["title"], messages, lambda p: bad("title", p), "title")
    intro = data["intro"] if isinstance(data["intro"], list) else [data["intro"]]
    for key in intro:
        _message(key, messages, lambda p: bad("intro", p), "intro")
    data["intro"] = intro
    if not isinstance(data["steps"], list) or not data["steps"]:
        bad("steps", "'steps' must be a non-empty list")
    steps, seen = [], set()
    for number, raw in enumerate(data["steps"], 1):
        label = f"step {number}"
        if isinstance(raw, dict) and isinstance(raw.get("id"), str):
            label = f"step {number} ({raw['id']!r})"
        line = _line(raw) if isinstance(raw, dict) else _line(data, "steps")

        def step_fail(
            problem: str,
            field: object = None,
            label: str = label,
            raw: object = raw,
            line: int = line,
        ) -> NoReturn:
            fail(problem, label, _line(raw, field) if field is not None else line)

        step = _read_step(raw, data.get("rules"), messages, step_fail)
        step.line = line
        if step.data["id"] in seen:
            step_fail(f"a second step with the id {step.data['id']!r}", "id")
        seen.add(step.data["id"])
        steps.append(step)
    return Lesson(data, where, steps)


def _message(key: object, messages: Messages, fail: Callable[[str], NoReturn], what: str) -> None:
    if not isinstance(key, str):
        fail(f"{what} must be a message id, not {key!r}")
    if key not in messages:
        fail(f"{what}: no message {key!r} in locales/messages.pot")


class _Fail(Protocol):
    """Stops at a step's problem: the line of ``field``, else the step's own."""

    def __call__(self, problem: str, field: object = None) -> NoReturn: ...


def _read_step(raw: object, lesson_rules: str | None, messages: Messages, fail: _Fail) -> Step:
    """One step, checked and replayed; ``fail(problem, field)`` stops at the field's line."""
    if not isinstance(raw, dict):
        fail("a step is a mapping with " + ", ".join(S.COMMON))
    for name in S.COMMON:
        if name not in raw and name != "hints":
            fail(f"the step needs {name!r}")
    if not isinstance(raw["id"], str) or not ID.match(raw["id"]):
        fail(f"the step id {raw['id']!r} must be up to 40 lowercase letters, digits and '-'", "id")
    for name in STEP_MESSAGES:
        _message(raw[name], messages, functools.partial(fail, field=name), name)
    hints = raw.get("hints", [])
    if not isinstance(hints, list):
        fail("'hints' must be a list of message ids", "hints")
    for key in hints:
        _message(key, messages, lambda p: fail(p, "hints"), "hints")
    try:
        step = S.read_step(raw, lesson_rules)
        replayed = S.replay(step)
    except GinRummyError as error:
        field = error.params.get("field") or ("ask" if error.code == "unknown_kind" else None)
        fail(str(error), field if field in raw else None)
    problem = S.stated_problem(step, replayed)
    if problem:
        fail(problem, "answer" if "answer" in raw else None)
    return Step(step, {"text": raw["text"], "hints": hints, "explain": raw["explain"]}, replayed)


def load_lessons(
    folder: Path, messages: Messages, root: Path | None = ROOT, pages: set[str] | None = None
) -> list[Lesson]:
    """Every lesson in ``folder`` (``*.yaml``), checked and replayed, in order."""
    lessons: list[Lesson] = []
    ids: dict[str, str] = {}
    orders: dict[int, str] = {}
    for path in sorted(Path(folder).glob("*.yaml")):
        lesson = read_lesson(path, messages, root, pages)
        if lesson.id in ids:
            raise LessonError(
                f"{lesson.where}:{_line(lesson.data, 'id')}: the id {lesson.id!r} is used by "
                f"{ids[lesson.id]} too"
            )
        if lesson.data["order"] in orders:
            raise LessonError(
                f"{lesson.where}:{_line(lesson.data, 'order')}: the order "
                f"{lesson.data['order']} is used by {orders[lesson.data['order']]} too"
            )
        ids[lesson.id], orders[lesson.data["order"]] = lesson.where, lesson.where
        lessons.append(lesson)
    return sorted(lessons, key=lambda lesson: lesson.data["order"])


# --- pages ---------------------------------------------------------------------------------------


def _environment() -> Environment:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    return Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _attr(value: object) -> str:
    return html.escape(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def _counts(catalog: Catalog, key: str, count: int, **params: object) -> str:
    """A message for each number of steps done, 0 to ``count``, as a data attribute: the
    page's script picks one and never writes text itself."""
    return _attr([catalog.text(key, done=done, count=count, **params) for done in range(count + 1)])


def render_lesson(
    lesson: Lesson, lessons: list[Lesson], catalog: Catalog, env: Environment | None = None
) -> str:
    """One lesson page (Markdown) in the catalog's language."""
    env = env or _environment()
    index = lessons.index(lesson)
    t = catalog.text
    intro_params = S.rule_numbers(lesson.data.get("rules"))

    def step_html(step: Step) -> str:
        try:
            return S.step_html(step.data, step.messages, step.replay, catalog)
        except GinRummyError as error:
            raise LessonError(
                f"{lesson.where}:{step.line}: step {step.data['id']!r}: {error}"
            ) from None

    try:
        intro = [S.message_html(k, intro_params, catalog) for k in lesson.data["intro"]]
    except GinRummyError as error:
        raise LessonError(f"{lesson.where}:{_line(lesson.data, 'intro')}: intro: {error}") from None
    count = len(lesson.steps)
    progress = [t("tutorial.progress", done=d, count=count) for d in range(count)]
    return env.get_template("lesson.md.j2").render(
        lesson=lesson,
        t=t,
        e=html.escape,
        title=t(lesson.data["title"]),
        intro=intro,
        steps=[
            {"heading": t("tutorial.step", number=n, count=count), "html": step_html(s)}
            for n, s in enumerate(lesson.steps, 1)
        ],
        step_ids=_attr([s.data["id"] for s in lesson.steps]),
        progress=_attr(progress + [t("tutorial.lesson_done")]),
        page=lesson.data.get("page", "").removesuffix(".md") + "/"
        if lesson.data.get("page")
        else "",
        previous=lessons[index - 1] if index else None,
        next=lessons[index + 1] if index + 1 < len(lessons) else None,
        ltitle=lambda other: t(other.data["title"]),
    )


def render_index(lessons: list[Lesson], catalog: Catalog, env: Environment | None = None) -> str:
    """The lessons index page (Markdown): the list, with the learner's progress."""
    env = env or _environment()
    t = catalog.text

    def badges(count: int) -> str:
        return _attr(
            [t("tutorial.steps_count", count=count)]
            + [t("tutorial.state.started", done=d, count=count) for d in range(1, count)]
            + [t("tutorial.state.done")]
        )

    return env.get_template("index.md.j2").render(
        t=t,
        e=html.escape,
        totals=_counts(catalog, "tutorial.total", len(lessons)),
        lessons=[
            {
                "slug": l.slug,
                "id": l.id,
                "title": t(l.data["title"]),
                "steps": _attr([s.data["id"] for s in l.steps]),
                "count": len(l.steps),
                "badges": badges(len(l.steps)),
            }
            for l in lessons
        ],
    )


def practise_note(lessons: list[Lesson], page: str, catalog: Catalog) -> str:
    """The note at the end of a rules page that a lesson teaches: the lesson's title as a
    link, on a line of its own (a title may hold any punctuation), and a word on it."""
    for lesson in lessons:
        if lesson.data.get("page") == page:
            up = "../" * page.count("/")
            link = f"[{catalog.text(lesson.data['title'])}]({up}{FOLDER}/{lesson.slug}.md)"
            return (
                f'\n\n!!! tip gin-practise "{catalog.text("tutorial.practise_title")}"\n\n'
                f"    {link}\n\n    {catalog.text('tutorial.practise')}\n"
            )
    return ""


def lesson_pages(lessons: list[Lesson], catalog: Catalog) -> dict[str, str]:
    """Every lesson page and the index in one language: ``{"lessons/01-cards.md": markdown}``."""
    env = _environment()
    pages = {f"{FOLDER}/index.md": render_index(lessons, catalog, env)}
    for lesson in lessons:
        pages[f"{FOLDER}/{lesson.slug}.md"] = render_lesson(lesson, lessons, catalog, env)
    return pages
