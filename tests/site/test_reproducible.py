"""The build is reproducible: a fresh copy of the project, built by itself, gives the same site
byte for byte, every file (the runtime folder's digest, the engine's snapshot, the precompressed
copies included), as the site the test run built in the project's folder.

Nothing is shared between the two builds that could hide a difference: the copy is in a folder
of its own, at another depth and with a name of another length (a path that leaks into the
snapshot moves every byte after it); it has its own build cache, made from scratch (the wheels,
the precompiled standard library, the snapshot), where the project's build used its warm cache
(so the cache cannot change what is built either), and its own node_modules; it builds in a
process of its own, from its own folder, with its own sitegen, engine and presentation packages,
and in another environment (time zone, locale, an extra variable). Only the Brotli copies' cache
is copied into it: it is addressed by the content it compresses (so it cannot hide a difference
in what is compressed), and making the Brotli copies again would cost minutes. (Three fresh
clones once gave three snapshots: they held the path of the clone's sitegen/in_pyodide.mjs and,
on other machines, the time zone.) One copy is enough: a second, built in yet another
environment, cost a whole cold build and compared the same things."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENVIRONMENT = {"TZ": "Asia/Tokyo", "LANG": "ro_RO.UTF-8", "GIN_UNRELATED": "x" * 37}
"""Not the test run's: another time zone and locale (the run's own TZ is checked to differ)."""


def project_files() -> list[str]:
    """What a clone holds: the tracked files and the new ones not ignored."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout
    return [name for name in listed.decode().split("\0") if name and (REPO / name).is_file()]


def fresh_copy(clone: Path) -> Path:
    """The project's files in clone/, with its own node_modules and an empty build cache (but
    the Brotli copies')."""
    for name in project_files():
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, clone / name)
    shutil.copytree(REPO / "node_modules", clone / "node_modules", symlinks=True)
    if (REPO / ".cache/compressed").is_dir():
        shutil.copytree(REPO / ".cache/compressed", clone / ".cache/compressed")
    return clone


def digests(site: Path) -> dict[str, str]:
    return {
        path.relative_to(site).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(site.rglob("*"))
        if path.is_file()
    }


def differences(first: dict[str, str], second: dict[str, str]) -> str:
    names = sorted(set(first) ^ set(second))
    if names:
        return f"files in one site only: {names[:10]}"
    differ = [name for name in first if first[name] != second[name]]
    return f"{len(differ)} files differ, e.g. {differ[:10]}" if differ else ""


@pytest.mark.timeout(1800)  # a whole build with an empty cache, on a busy machine
def test_a_fresh_copy_builds_the_same_site_byte_for_byte(built_site, tmp_path):
    assert os.environ.get("TZ") != ENVIRONMENT["TZ"]
    # The copy is no git checkout: give it the commit time the project's build took from git.
    stamp = subprocess.run(
        ["git", "log", "-1", "--format=%ct"], cwd=REPO, text=True, capture_output=True, check=True
    ).stdout.strip()
    clone = fresh_copy(tmp_path / "bb" / "c" / "gin-2")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "GIN_"))},
        **ENVIRONMENT,
        "SOURCE_DATE_EPOCH": stamp,
        # the copy's own packages first (the project's are installed in editable mode)
        "PYTHONPATH": os.pathsep.join(str(clone / p) for p in ("", "engine", "presentation")),
    }
    build = subprocess.run(
        [sys.executable, "-m", "sitegen", "build"],
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert build.returncode == 0, build.stdout
    assert f"site: {clone / 'site'}" in build.stdout, build.stdout  # the copy's own sitegen

    copy, ours = digests(clone / "site"), digests(built_site)
    assert not differences(copy, ours), differences(copy, ours)
    assert any(name.endswith("/engine.snapshot") for name in copy)
    assert any(name.endswith("/engine.snapshot.br") for name in copy)
