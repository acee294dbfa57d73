"""The build is reproducible: a second build, from a copy of the project in another folder, with
an empty cache (so the wheels, the precompiled standard library and the engine's memory
snapshot are all made again), gives the same site byte for byte, the runtime folder's digest
included. Only the compressed copies' cache is kept: it is addressed by the content it
compresses (so it cannot hide a difference in what is compressed), and making the Brotli copies
again would cost minutes."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from sitegen.pipeline import build

REPO = Path(__file__).resolve().parents[2]


def project_files() -> list[str]:
    """What a clone holds: the tracked files and the new ones not ignored."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout
    return [name for name in listed.decode().split("\0") if name and (REPO / name).is_file()]


def digests(site: Path) -> dict[str, str]:
    return {
        path.relative_to(site).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(site.rglob("*"))
        if path.is_file()
    }


@pytest.mark.timeout(1800)  # a whole build with an empty cache, on a busy machine
def test_a_second_build_elsewhere_with_an_empty_cache_is_byte_identical(
    built_site, tmp_path, monkeypatch
):
    clone = tmp_path / "clone"
    for name in project_files():
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, clone / name)
    # The copy is no git checkout: give it the commit time the first build took from git.
    stamp = subprocess.run(
        ["git", "log", "-1", "--format=%ct"], cwd=REPO, text=True, capture_output=True, check=True
    ).stdout.strip()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", stamp)
    if (REPO / ".cache/compressed").is_dir():
        shutil.copytree(REPO / ".cache/compressed", clone / ".cache/compressed")
    again = build(
        clone,
        clone / "site",
        cache_dir=clone / ".cache",
        node_modules=REPO / "node_modules",
        log=lambda *_: None,
    )

    first, second = digests(built_site), digests(again)
    assert sorted(first) == sorted(second), (sorted(set(first) ^ set(second)))[:10]
    differ = [name for name in first if first[name] != second[name]]
    assert not differ, f"{len(differ)} files differ, e.g. {differ[:10]}"
    assert any(name.endswith("/engine.snapshot") for name in first)
