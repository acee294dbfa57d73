"""Fuzzing what authors and translators write: page fences, lesson files and catalogs, each
damaged in the ways a hurried edit damages a file. The build must either take the file or stop
with one line that names it (and the line, where the file has lines that matter); what it takes
must be right (a catalog it accepts formats every message)."""

from __future__ import annotations

import re
import shutil

import yaml
from ginview.catalog import Catalog
from hypothesis import given
from hypothesis import strategies as st

from sitegen import BuildError, catalogs, fences, lessons
from sitegen.languages import languages
from tests.fuzz.strategies import FUZZ, REPO, SPECIAL_TEXT, json_values

FENCE = re.compile(r"```gin\n(.*?)```", re.S)
FENCES = [
    body
    for path in sorted((REPO / "docs/en").rglob("*.md"))
    for body in FENCE.findall(path.read_text(encoding="utf-8"))
]
LESSONS = sorted((REPO / "tutorials").glob("*.yaml"))
GARBAGE = [
    "",
    "}",
    "{",
    "- [",
    "kind",
    ":",
    "\t",
    "msgstr",
    'msgstr "',
    '"',
    "#,",
    "\\",
    "%s",
    "{{ x }}",
    "\x00",
    "ÿ",
    "---",
    "<<: *x",
    "!!python/object:os.system x",
]


def lines_damaged(text: str, data) -> str:
    """``text`` with one to three lines deleted, doubled, replaced or cut short."""
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, max(len(lines) - 1, 0)))
        how = data.draw(st.sampled_from(["delete", "double", "replace", "cut", "insert"]))
        if how == "delete" and lines:
            del lines[i]
        elif how == "double" and lines:
            lines.insert(i, lines[i])
        elif how == "cut" and lines:
            lines[i] = lines[i][: data.draw(st.integers(0, max(len(lines[i]) - 1, 0)))]
        else:
            junk = data.draw(st.sampled_from(GARBAGE) | st.text(max_size=20))
            if how == "replace" and lines:
                lines[i] = junk
            else:
                lines.insert(i, junk)
    return "\n".join(lines)


def value_damaged(data_in, data):
    """A YAML document with one value, somewhere in it, replaced by any value."""
    if isinstance(data_in, dict) and data_in:
        key = data.draw(st.sampled_from(sorted(data_in, key=str)))
        if data.draw(st.booleans()):
            return {**data_in, key: value_damaged(data_in[key], data)}
        return {**data_in, key: data.draw(json_values | st.sampled_from(SPECIAL_TEXT))}
    if isinstance(data_in, list) and data_in:
        i = data.draw(st.integers(0, len(data_in) - 1))
        return [*data_in[:i], value_damaged(data_in[i], data), *data_in[i + 1 :]]
    return data.draw(json_values)


def assert_one_line_naming(error: BuildError, where: str, lines: range | None = None):
    """A build error: one short line that starts with the file, and then with a line of
    ``lines`` when they are given (or, for a file that has lines, any line)."""
    text = str(error)
    assert text.startswith(where), (where, text)
    assert "\n" not in text and len(text) <= 400, (len(text), text[:400])
    line = re.match(r":(\d+): ", text[len(where) :])
    if lines is not None:
        assert line and int(line.group(1)) in lines, (lines, text)


# --- page fences ------------------------------------------------------------------------------


@FUZZ
@given(body=st.sampled_from(FENCES), data=st.data())
def test_a_damaged_fence_is_drawn_or_named_by_file_and_line(body, data):
    catalogs.install_all()
    if data.draw(st.booleans()):
        damaged = lines_damaged(body, data)
    else:
        damaged = yaml.safe_dump(value_damaged(yaml.safe_load(body), data), allow_unicode=True)
    markdown = f"---\ntitle: x\n---\n# Page\n\nText.\n\n```gin\n{damaged}\n```\n"
    first = markdown[: markdown.index("```gin")].count("\n") + 1
    try:
        fences.render_page(
            markdown,
            lambda pos: f"docs/en/page.md:{markdown.count(chr(10), 0, pos) + 1}",
            catalogs.load("en"),
        )
    except BuildError as error:  # the fence's line, one of its body's, or a fence after it
        assert_one_line_naming(error, "docs/en/page.md", range(first, markdown.count("\n") + 1))


# --- lesson files -----------------------------------------------------------------------------

MESSAGES = catalogs.source_messages()


@FUZZ
@given(path=st.sampled_from(LESSONS), data=st.data())
def test_a_damaged_lesson_is_taken_or_named_by_file(tmp_path_factory, path, data):
    folder = tmp_path_factory.mktemp("lessons")
    text = path.read_text(encoding="utf-8")
    how = data.draw(st.sampled_from(["lines", "value", "binary"]))
    target = folder / path.name
    if how == "lines":
        target.write_text(lines_damaged(text, data), encoding="utf-8")
    elif how == "value":
        target.write_text(
            yaml.safe_dump(value_damaged(yaml.safe_load(text), data), allow_unicode=True),
            encoding="utf-8",
        )
    else:
        target.write_bytes(data.draw(st.binary(min_size=1, max_size=200)) + b"\xff\xfe")
    try:
        lesson = lessons.read_lesson(target, MESSAGES, root=folder)
    except BuildError as error:  # with its line, but for a file that is not text
        written = target.read_text(encoding="utf-8") if how != "binary" else ""
        lines = None if how == "binary" else range(1, written.count("\n") + 2)
        assert_one_line_naming(error, path.name, lines)
    else:  # taken: then it is a lesson the site can draw in every language
        for lang in languages():
            lessons.render_lesson(lesson, [lesson], catalogs.load(lang))


# --- catalogs -----------------------------------------------------------------------------------

LOCALES = REPO / "locales"
ENGLISH = catalogs.source_messages()
PLACEHOLDER_SPOILERS = [
    ("{", "{{"),
    ("}", ""),
    ("{", ""),
    ("{c", "{x"),
    ("}", "}}"),
    (":", "::"),
    ("{", "{0"),
]


@FUZZ
@given(lang=st.sampled_from(["ro", "hu", "it"]), data=st.data())
def test_a_damaged_catalog_is_taken_right_or_named_by_file(tmp_path_factory, lang, data):
    folder = tmp_path_factory.mktemp("locales")
    for path in LOCALES.glob("*.po*"):
        shutil.copy(path, folder)
    path = folder / f"{lang}.po"
    text = path.read_text(encoding="utf-8")
    if data.draw(st.booleans()):
        text = lines_damaged(text, data)
    else:  # a placeholder spoilt in one translation
        lines = text.split("\n")
        candidates = [
            i for i, line in enumerate(lines) if line.startswith("msgstr") and "{" in line
        ]
        i = data.draw(st.sampled_from(candidates))
        old, new = data.draw(st.sampled_from(PLACEHOLDER_SPOILERS))
        lines[i] = lines[i].replace(old, new, 1)
        text = "\n".join(lines)
    path.write_text(text, encoding="utf-8")
    try:
        catalog = catalogs.load(lang, folder)
    except BuildError as error:
        assert_one_line_naming(error, f"{path}")
        return
    every_message_formats(catalog)


def sample(name: str, form: str):
    return 3 if form or name in ("count", "points", "hand", "limit") else "x"


def every_message_formats(catalog: Catalog):
    """Every message of an accepted catalog formats, with the placeholders English has."""
    for key, english in ENGLISH.items():
        params = {}
        for text in (english,) if isinstance(english, str) else english:
            for _, name, form, _ in __import__("string").Formatter().parse(text):
                if name:
                    params[name] = sample(name, form)
        try:
            out = catalog.text(key, **params)
        except Exception as error:
            raise AssertionError(f"{key}: {error!r}") from None
        assert "{" not in out.replace("{{", "") or "{" in str(english), (key, out)


# --- YAML features and fences of every shape ---------------------------------------------------

YAML_FEATURES = [
    "anchor: &a 1",
    "alias: *a",
    "<<: *a",
    "<<: {rules: pagat}",
    "merged: !!merge x",
    "tagged: !!str 25",
    "binary: !!binary QVM=",
    "set: !!set {a, b}",
    "odd: !!omap [{a: 1}]",
    "python: !!python/object:os.system x",
    "local: !mine x",
    "rules: yes",
    "rules: off",
    "rules: ~",
    "rules: 2024-01-01",
    "rules: 1:30",
    "rules: 0x1F",
    "rules: 010",
    "rules: .inf",
    "rules: .nan",
    "rules: 1e3",
    "rules: '\\ud800'",
    'rules: "\\ud800"',
    'rules: "\\x00"',
    "? [a, b]\n: c",
    "? {a: 1}\n: c",
    "---",
    "...",
    "%YAML 1.1",
    "%TAG ! tag:x,2000:",
    "rules: >\n  folded\n  text",
    "rules: |\n  kept",
    "\trules: tab",
    "rules: " + "[" * 60,
    "rules: " + "x" * 5000,
    "rules: " + "9" * 5000,
]


@st.composite
def with_a_feature(draw, text: str) -> str:
    """YAML text with one to three features added: a line before, after or in place of one of
    its lines, or a key of it given twice."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines)))
        how = draw(st.sampled_from(["insert", "replace", "twice"]))
        if how == "twice" and lines:
            lines.insert(at, lines[min(at, len(lines) - 1)])
        elif how == "replace" and at < len(lines):
            key = lines[at].split(":", 1)[0]
            lines[at] = draw(
                st.sampled_from(YAML_FEATURES).map(lambda f, k=key: f.replace("rules", k, 1))
            )
        else:
            lines.insert(at, draw(st.sampled_from(YAML_FEATURES)))
    return "\n".join(lines)


@FUZZ
@given(body=st.sampled_from(FENCES), data=st.data())
def test_a_fence_with_any_yaml_feature_is_drawn_or_named_by_its_line(body, data):
    catalogs.install_all()
    markdown = f"# Page\n\n```gin\n{data.draw(with_a_feature(body.rstrip()))}\n```\n"
    try:
        fences.render_page(
            markdown,
            lambda pos: f"docs/en/page.md:{markdown.count(chr(10), 0, pos) + 1}",
            catalogs.load("en"),
        )
    except BuildError as error:
        assert_one_line_naming(error, "docs/en/page.md", range(3, markdown.count("\n") + 1))


@FUZZ
@given(path=st.sampled_from(LESSONS), data=st.data())
def test_a_lesson_with_any_yaml_feature_is_taken_or_named_by_its_line(tmp_path_factory, path, data):
    target = tmp_path_factory.mktemp("lessons") / path.name
    text = data.draw(with_a_feature(path.read_text(encoding="utf-8")))
    target.write_text(text, encoding="utf-8")
    try:
        lessons.read_lesson(target, MESSAGES, root=target.parent)
    except BuildError as error:
        assert_one_line_naming(error, path.name, range(1, text.count("\n") + 2))


FENCE_CHARS = st.sampled_from(["```", "````", "`````", "~~~", "~~~~"])
INFOS = ["gin", " gin", "gin ", "Gin", "GIN", "gin title=x", "gin{.x}", "gin-x", "python", ""]


@st.composite
def fenced(draw, body: str) -> str:
    """A page holding ``body`` in a fence of any shape: its opening and closing fences, its
    info string and indent, closed or not, alone or inside another fence, with other text."""
    indent = draw(st.sampled_from(["", " ", "   ", "    ", "\t"]))
    opener = draw(FENCE_CHARS)
    closer = draw(st.sampled_from([opener, opener + opener[0], opener[:-1], "```", "~~~", ""]))
    info = draw(st.sampled_from(INFOS))
    lines = [f"{indent}{line}" if line else line for line in body.rstrip().splitlines()]
    block = (
        f"{indent}{opener}{info}\n"
        + "\n".join(lines)
        + (f"\n{indent}{closer}\n" if closer else "\n")
    )
    around = draw(st.sampled_from(["", "outer", "before", "after"]))
    if around == "outer":
        outer = draw(FENCE_CHARS)
        block = f"{outer}markdown\n{block}{outer}\n"
    elif around == "before":
        block = f"```python\nx = 1\n{draw(st.sampled_from(['```', '']))}\n" + block
    elif around == "after":
        block += draw(st.sampled_from(["```gin\nkind: melds\nhand: ZS\n```\n", "Text.\n", "~~~\n"]))
    return f"# Page\n\nText.\n\n{block}"


@FUZZ
@given(body=st.sampled_from(FENCES), data=st.data())
def test_a_fence_of_any_shape_is_an_example_plain_code_or_named_by_its_line(body, data):
    """Never an example left unchecked: what the build takes holds no gin fence it did not
    draw, and what it refuses is named by a line of the page."""
    catalogs.install_all()
    markdown = data.draw(fenced(body))
    try:
        text, count = fences.render_page(
            markdown,
            lambda pos: f"docs/en/page.md:{markdown.count(chr(10), 0, pos) + 1}",
            catalogs.load("en"),
        )
    except BuildError as error:
        assert_one_line_naming(error, "docs/en/page.md", range(1, markdown.count("\n") + 2))
        return
    assert not any(f.gin for f in fences.fences(text)), text  # every example drawn
    assert count == text.count('class="gin-example') + text.count('data-gin="play"')
