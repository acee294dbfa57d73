"""The Python build and test dependencies are locked: requirements.lock pins every package of
requirements.txt, and each of their dependencies, to one version with its hashes, and the
project's environment holds exactly those versions (`make deps` installs the lock)."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+) \\$")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked() -> dict[str, tuple[str, int]]:
    """{name: (version, number of hashes)} from requirements.lock."""
    pins, current = {}, None
    for line in (REPO / "requirements.lock").read_text().splitlines():
        if match := PIN.match(line):
            current = canonical(match[1])
            pins[current] = (match[2], 0)
        elif line.strip().startswith("--hash=sha256:") and current:
            version, hashes = pins[current]
            pins[current] = (version, hashes + 1)
        elif line and not line.startswith((" ", "#")):
            raise AssertionError(f"requirements.lock: not a pinned requirement: {line!r}")
    return pins


def test_every_requirement_is_pinned_with_hashes():
    pins = locked()
    wanted = [
        Requirement(line)
        for line in (REPO / "requirements.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    unmet = [
        str(r) for r in wanted if not r.specifier.contains(pins.get(canonical(r.name), ("0!0",))[0])
    ]
    assert wanted and not unmet, f"not in requirements.lock (run make lock): {unmet}"
    assert all(hashes for _, hashes in pins.values()), [
        name for name, (_, hashes) in pins.items() if not hashes
    ]


def test_the_environment_holds_the_locked_versions():
    installed = {canonical(d.metadata["Name"]): d.version for d in metadata.distributions()}
    wrong = {
        name: (version, installed.get(name))
        for name, (version, _) in locked().items()
        if installed.get(name) != version
    }
    assert not wrong, f"run make deps: (locked, installed) {wrong}"
