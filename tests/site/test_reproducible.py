"""The build is reproducible: two fresh copies of the project, built each by itself, give the
same site byte for byte, every file (the runtime folder's digest, the engine's snapshot, the
precompressed copies included), and the same as the site the test run built.

Nothing is shared between the two builds that could hide a difference: each copy is in a folder
of its own, at another depth and with a name of another length (a path that leaks into the
snapshot moves every byte after it); each has its own build cache, made from scratch (the
wheels, the precompiled standard library, the snapshot), and its own node_modules; each build
runs in a process of its own, from its own folder, with its own sitegen, engine and
presentation packages, and in another environment (time zone, locale, an extra variable).
Only the Brotli copies' cache is copied into each: it is addressed by the content it
compresses (so it cannot hide a difference in what is compressed), and making the Brotli copies
again would cost minutes. (Three fresh clones once gave three snapshots: they held the path of
the clone's sitegen/in_pyodide.mjs and, on other machines, the time zone.)"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENVIRONMENTS = (
    {"TZ": "UTC", "LANG": "C.UTF-8"},
    {"TZ": "Asia/Tokyo", "LANG": "ro_RO.UTF-8", "GIN_UNRELATED": "x" * 37},
)


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


@pytest.mark.timeout(1800)  # two whole builds with empty caches, on a busy machine
def test_two_fresh_copies_build_the_same_site_byte_for_byte(built_site, tmp_path):
    # The copies are no git checkouts: give them the commit time the first build took from git.
    stamp = subprocess.run(
        ["git", "log", "-1", "--format=%ct"], cwd=REPO, text=True, capture_output=True, check=True
    ).stdout.strip()
    clones = [fresh_copy(tmp_path / "a" / "gin"), fresh_copy(tmp_path / "bb" / "c" / "gin-2")]
    builds = []
    for clone, extra in zip(clones, ENVIRONMENTS, strict=True):
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "GIN_"))},
            **extra,
            "SOURCE_DATE_EPOCH": stamp,
            # the copy's own packages first (the project's are installed in editable mode)
            "PYTHONPATH": os.pathsep.join(str(clone / p) for p in ("", "engine", "presentation")),
        }
        builds.append(
            subprocess.Popen(
                [sys.executable, "-m", "sitegen", "build"],
                cwd=clone,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    for clone, build in zip(clones, builds, strict=True):
        output, _ = build.communicate()
        assert build.returncode == 0, output
        assert f"site: {clone / 'site'}" in output, output  # the copy's own sitegen built it

    first, second = digests(clones[0] / "site"), digests(clones[1] / "site")
    assert not differences(first, second), differences(first, second)
    assert not differences(first, digests(built_site)), differences(first, digests(built_site))
    assert any(name.endswith("/engine.snapshot") for name in first)
    assert any(name.endswith("/engine.snapshot.br") for name in first)
