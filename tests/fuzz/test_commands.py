"""Fuzzing the command lines: ``python -m ginrummy`` with any arguments and any input, and
what ``python -m sitegen`` reads from its arguments before it writes anything (a port, the
pages to mark translated, the folder to build into). Every one answers or refuses in one line,
never with a traceback, and never writes outside what it was asked to. See strategies.py for
the budget."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import sys

import pytest
from ginrummy.__main__ import COMMANDS
from ginrummy.__main__ import main as ginrummy_main
from hypothesis import given
from hypothesis import strategies as st

from sitegen import BuildError
from sitegen.__main__ import _port
from sitegen.pipeline import SOURCES, check_site_dir
from sitegen.translations import mark_translated
from tests.fuzz.strategies import FUZZ, REPO, SPECIAL_TEXT

HANDS = [
    "AS 2S 3S 7H 7D 7C 9C TC JC KD",
    "2S 3S 4S 7H 7D 7C 9C TC JC 5D | 8S 9S TS KH KD 4H 6C 6H 2C AD",
    "8C 8D 8H / 9S TS JS | 8S 7S KH KD KC 2H 3H 4H 5C 6D",
    "A 25",
    "B\t14",
    "A ²",
    "1 ٣",
    "|",
    "/ |",
]
words = st.sampled_from(
    [
        *COMMANDS,
        "--rules",
        "--upcard",
        "--hollywood",
        "--json",
        "--help",
        "-h",
        "--nope",
        "pagat",
        "oklahoma",
        "9S",
        "--",
        "-",
        *HANDS,
        *SPECIAL_TEXT,
    ]
) | st.text(alphabet="AS23456789TJQKHDC ♠|/-x10\t²", max_size=30)


def run_ginrummy(argv: list[str], stdin: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = ginrummy_main(argv)
            except SystemExit as stop:  # argparse: --help (0) or a usage error (2)
                status = stop.code if isinstance(stop.code, int) else 2
    finally:
        sys.stdin = old
    return status, out.getvalue(), err.getvalue()


@FUZZ
@given(
    argv=st.lists(words, max_size=6),
    stdin=st.lists(st.sampled_from(HANDS) | st.text(max_size=30), max_size=3).map("\n".join),
)
def test_ginrummy_answers_any_arguments_or_refuses_them_in_a_line(argv, stdin):
    status, out, err = run_ginrummy(argv, stdin)
    assert status in (0, 2), (status, err)
    assert "Traceback" not in err
    last = err.splitlines()[-1] if err else ""
    assert not err or last.startswith(("error: ", "python -m ginrummy: error: ")), err
    if ("--json" in argv and status != 2) or (status == 2 and "--json" in argv and not last):
        for line in out.splitlines():
            json.loads(line)  # one JSON object per answer


# --- python -m sitegen ---------------------------------------------------------------------------


@FUZZ
@given(text=st.text(max_size=12) | st.sampled_from(["0", "1", "65535", "65536", "8000", "٣"]))
def test_a_port_is_1_to_65535_or_refused(text):
    try:
        port = _port(text)
    except argparse.ArgumentTypeError as error:
        assert "is not a port" in str(error)
    else:
        assert 1 <= port <= 65535 and str(port) == text.lstrip("0")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    for name in ("docs", "locales"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("assets"))
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    (root / "README.md").write_text("# not a page\n", encoding="utf-8")
    return root


path_parts = st.sampled_from(
    ["..", ".", "", "docs", "en", "ro", "about.md", "rules", "melds.md", "README.md", "x.md"]
)


@FUZZ
@given(
    language=st.sampled_from(["ro", "hu", "en", "..", "", "docs", "xx"]),
    pages=st.lists(st.lists(path_parts, min_size=1, max_size=4).map("/".join), max_size=3),
    absolute=st.booleans(),
)
def test_mark_translated_writes_only_the_languages_own_pages(project, language, pages, absolute):
    if absolute:
        pages = [str(project / page) for page in pages]
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    try:
        done = mark_translated(project / "docs", language, pages)
    except BuildError as error:
        assert "\n" not in str(error)
        changed = []
    else:
        changed = [p for p, data in before.items() if p.read_bytes() != data]
        assert all(p.is_relative_to(project / "docs" / language) for p in changed), changed
        assert {p.relative_to(project / "docs" / language).as_posix() for p in changed} <= set(done)
    for path, data in before.items():  # back as it was, for the next example
        path.write_bytes(data)
    if not changed:
        assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before


@FUZZ
@given(parts=st.lists(st.sampled_from(["..", ".", "site", "out", *SOURCES]), max_size=4))
def test_the_build_folder_is_never_the_project_a_source_or_above_them(parts):
    target = REPO.joinpath(*parts).resolve()
    try:
        check_site_dir(REPO, target)
    except BuildError as error:
        assert str(error).startswith("--site-dir ") and "\n" not in str(error)
    else:
        assert target != REPO and target not in REPO.parents
        assert not any(target.is_relative_to(REPO / name) for name in SOURCES)
