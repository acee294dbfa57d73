"""Fixtures for the engine-under-Pyodide tests: the built site's runtime directory, and node."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import site_runtime_dir

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def site_dir(built_site) -> Path:
    """The built site: ``built_site`` (tests/conftest.py)."""
    return built_site


@pytest.fixture(scope="session")
def runtime_dir(site_dir) -> Path:
    """The site's Pyodide runtime directory, found the way the browser finds it: runtime.js."""
    return site_runtime_dir(site_dir)


@pytest.fixture(scope="session")
def node() -> str:
    found = shutil.which("node")
    if not found:
        pytest.fail(
            "node (v18 or later) is needed to run Pyodide: sudo apt-get install -y nodejs",
            pytrace=False,
        )
    if not (REPO / "node_modules/pyodide/pyodide.mjs").is_file():
        pytest.fail(
            "node_modules/pyodide is missing: run `npm ci` in the repository root", pytrace=False
        )
    return found
