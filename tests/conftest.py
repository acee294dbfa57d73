"""Shared fixtures. `built_site`: the whole site, built in-process once per test run.

Under pytest-xdist every worker asks for the site; the first one builds it (under a file lock)
into the run's shared temp directory and the others reuse it.
"""

from __future__ import annotations

import fcntl
import os
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """Path of a freshly built site (the same layout as `make site`'s site/): ``$GIN_SITE_DIR``
    when set (`make test` sets it to the site it has just built, so the run builds it once), or
    built here, once per run."""
    from sitegen.pipeline import build

    override = os.environ.get("GIN_SITE_DIR")
    if override:
        site = Path(override).resolve()
        assert (site / "index.html").is_file(), f"GIN_SITE_DIR: no built site at {site}"
        assert (site / "assets/gin/runtime.js").is_file(), f"{site} has no assets/gin/runtime.js"
        return site
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # shared by all xdist workers of this run
    site = base / "built-site"
    with open(base / "built-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (site / "index.html").is_file():
            build(REPO, site, log=lambda *_: None)
    return site


def site_runtime_dir(site: Path) -> Path:
    """A built site's Pyodide runtime directory, found as the browser finds it: runtime.js."""
    runtime_js = site / "assets/gin/runtime.js"
    match = re.search(r'RUNTIME_DIR\s*=\s*"([^"]+)"', runtime_js.read_text())
    assert match, f"no RUNTIME_DIR in {runtime_js}"
    path = (runtime_js.parent / match.group(1)).resolve()
    assert (path / "pyodide-lock.json").is_file(), f"no pyodide-lock.json in {path}"
    return path


@pytest.fixture(scope="session")
def site_runtime(built_site) -> Path:
    """The built site's runtime directory (assets/runtime/pyodide-<version>-<digest>)."""
    return site_runtime_dir(built_site)


SITE_FIXTURES = {"built_site", "site_runtime", "site_dir"}
SLOW_FOLDERS = ("browser", "pyodide")
BROWSER_TIMEOUT = 600
"""Seconds for one test in tests/browser or tests/pyodide (pytest.ini sets the others')."""


def pytest_configure(config):
    if os.environ.get("GIN_MUTATE"):  # tests/mutation/mutate.py: repeatable and quick
        from hypothesis import HealthCheck, Phase, settings

        settings.register_profile(
            "mutate",
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            # a failure kills the mutant: shrinking it to the smallest example only costs time
            phases=(Phase.explicit, Phase.generate),
        )
        settings.load_profile("mutate")
    else:  # every property test: no deadline (a shared machine's load is no failure), repeatable
        from hypothesis import settings

        settings.register_profile("gin", deadline=None, derandomize=True, database=None)
        settings.load_profile("gin")


def pytest_collection_modifyitems(items):
    for item in items:
        if SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.needs_site)
        if (
            item.path.parent.name in SLOW_FOLDERS
            and item.path.parent.parent == REPO / "tests"
            and not item.get_closest_marker("timeout")
        ):  # a test that builds sets its own
            item.add_marker(pytest.mark.timeout(BROWSER_TIMEOUT))
