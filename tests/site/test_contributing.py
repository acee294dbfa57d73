"""CONTRIBUTING.md cannot rot: every command in its ```sh blocks is in the table below, which
says how a test runs it, and every command of the table is in the guide."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "CONTRIBUTING.md"
BLOCK = re.compile(r"^[ \t]*```sh\n(.*?)^[ \t]*```", re.M | re.S)

RUN = "run here"  # run as it is, from the repository's root
IN_COPY = "run in a copy"  # it writes files: run in a copy of the project
COLLECT = "collected"  # a browser test against site/: pytest collects it (make test runs it)
DRY = "make -n"  # builds the whole site, or serves until stopped: make checks the target
END_TO_END = "run by tests/browser/test_new_language.py, in a copy of the project"

COMMANDS = {
    "make deps": DRY,
    "make serve": DRY,
    "make site": DRY,
    "make test": DRY,
    "make check": DRY,
    "make lint": DRY,
    "make fix": DRY,
    ".venv/bin/python -m pytest -q tests/engine/test_cards.py": RUN,
    ".venv/bin/python -m pytest -q tests/site/test_catalogs.py": RUN,
    "GIN_SITE_DIR=$PWD/site .venv/bin/python -m pytest -q tests/browser/test_search.py": COLLECT,
    '.venv/bin/python -m ginrummy score "2S 3S 4S 7H 7D 7C 9C TC JC 5D | '
    '8S 9S TS KH KD 4H 6C 6H 2C AD"': RUN,
    ".venv/bin/python -m pytest -q tests/engine/test_scoring.py": RUN,
    ".venv/bin/python -m sitegen mark-translated ro about.md": IN_COPY,
    ".venv/bin/python -m sitegen translation-status": RUN,
    ".venv/bin/python -m sitegen translation-status --details": RUN,
    ".venv/bin/python -m sitegen new-language de": END_TO_END,
    ".venv/bin/python -m sitegen build": END_TO_END,
}


def guide_commands(section: str | None = None) -> list[str]:
    """The commands of the guide's ```sh blocks, in order, without their comments; only those
    of the ``## section`` when one is named."""
    text = GUIDE.read_text(encoding="utf-8")
    if section is not None:
        text = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    return [
        line.split("  #", 1)[0].strip()
        for block in BLOCK.findall(text)
        for line in block.splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]


def run_command(command: str, cwd: Path, *extra: str) -> subprocess.CompletedProcess:
    """A guide's command, run by the shell as a contributor types it."""
    return subprocess.run(
        ["bash", "-c", " ".join([command, *extra])],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_every_command_of_the_guide_is_run_by_a_test():
    assert set(guide_commands()) == set(COMMANDS)


@pytest.mark.slow
@pytest.mark.parametrize("command", [c for c, how in COMMANDS.items() if how != END_TO_END])
def test_the_command_works(tmp_path, command):
    how = COMMANDS[command]
    if how == DRY:
        done = run_command(command.replace("make ", "make -n ", 1), REPO)
    elif how == COLLECT:
        done = run_command(command, REPO, "--collect-only")
        assert re.search(r"\d+ tests? collected", done.stdout), done.stdout[-500:]
    elif how == IN_COPY:
        for name in ("docs", "sitegen"):
            shutil.copytree(REPO / name, tmp_path / name)
        shutil.copy(REPO / "mkdocs.yml", tmp_path)
        (tmp_path / ".venv").symlink_to(REPO / ".venv")
        done = run_command(command, tmp_path)
    else:
        done = run_command(command, REPO)
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]


def test_the_new_language_of_the_guide_is_the_one_the_end_to_end_test_adds():
    from tests.browser.test_new_language import NEW

    assert guide_commands("Add a language")[0].endswith(f"new-language {NEW}")


@pytest.mark.parametrize("guide", ["README.md", "CONTRIBUTING.md"])
def test_the_example_kinds_the_guides_list_are_the_kinds(guide):
    """Each guide lists the kinds beside ``presentation/ginview/examples.py``: all of them."""
    from ginview.examples import KINDS

    text = re.sub(r"\s+", " ", (REPO / guide).read_text(encoding="utf-8"))
    place = text.index("ginview/examples.py")
    lists = [m for m in re.finditer(r"(?:`\w+`, )+`\w+`", text) if abs(m.start() - place) < 120]
    assert len(lists) == 1, guide
    assert re.findall(r"`(\w+)`", lists[0].group(0)) == list(KINDS)
