"""Step 1: the wheels the browser runs, byte-compiled for Pyodide (in Node).

Two pure-Python packages run in the reader's browser: the engine (``engine/``, ``ginrummy``)
and the presentation layer (``presentation/``, ``ginview``), which carries the catalogs of
every language as JSON (``ginview/locales/<lang>.json``, made here from ``locales/``). Each
wheel is built from a copy of its folder and compiled to .pyc by the pinned Pyodide's own
CPython, as ``pyodide py-compile`` would.

The results are cached under .cache/wheels/, keyed by everything they are made from, so a
rebuild without changes skips Node.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from . import BuildError
from .runtime import (
    IN_PYODIDE,
    PYC_SCRIPT,
    RUNTIME_EPOCH,
    last_line,
    prune_cache,
    run_in_pyodide,
)

_SKIP = shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__", "*.pyc")


@dataclass(frozen=True)
class Package:
    """A folder with a ``pyproject.toml`` to ship as a wheel; ``extra`` holds generated
    files to add to it (path inside the folder -> text)."""

    folder: Path
    extra: dict[str, str] = field(default_factory=dict)


def _source_files(folder: Path) -> list[Path]:
    return [
        p
        for p in sorted(folder.rglob("*"))
        if p.is_file()
        and p.suffix != ".pyc"
        and not any(
            part in {"build", "dist", "__pycache__"} or part.endswith(".egg-info")
            for part in p.relative_to(folder).parts
        )
    ]


def _source_key(package: Package, pyodide_version: str) -> str:
    digest = hashlib.sha256(pyodide_version.encode())
    labelled = [
        (str(p.relative_to(package.folder)), p.read_bytes()) for p in _source_files(package.folder)
    ]
    labelled += [(p.name, p.read_bytes()) for p in (IN_PYODIDE, PYC_SCRIPT)]
    labelled += [(name, text.encode()) for name, text in sorted(package.extra.items())]
    for label, data in labelled:
        digest.update(label.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()[:20]


def build_wheel(package: Package, out_dir: Path) -> Path:
    """`python -m build --wheel` on a copy of the folder, with its extra files added (so
    parallel builds never share build/ and the source tree gets no generated files)."""
    with tempfile.TemporaryDirectory(prefix="gin-package-") as tmp:
        src = Path(tmp) / package.folder.name
        shutil.copytree(package.folder, src, ignore=_SKIP)
        for name, text in package.extra.items():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_text(text, encoding="utf-8")
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "build",
                "--wheel",
                "--no-isolation",
                "--outdir",
                str(out_dir),
                str(src),
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "SOURCE_DATE_EPOCH": str(RUNTIME_EPOCH)},
        )
    wheels = sorted(out_dir.glob("*.whl"))
    if proc.returncode != 0 or len(wheels) != 1:
        raise BuildError(
            f"wheel build of {package.folder.name}/ failed: "
            f"{last_line(proc.stdout + proc.stderr)} (run `python -m build --wheel "
            f"{package.folder.name}/` to see the full log)"
        )
    return wheels[0]


def compiled_wheel(
    package: Package, pyodide_dir: Path, pyodide_version: str, cache_dir: Path
) -> Path:
    """The package's Pyodide-compiled wheel, from the cache or freshly built."""
    if not (package.folder / "pyproject.toml").is_file():
        raise BuildError(
            f"no package at {package.folder}: expected {package.folder}/pyproject.toml"
        )
    cached = cache_dir / "wheels" / _source_key(package, pyodide_version)
    found = sorted(cached.glob("*.whl")) if cached.is_dir() else []
    if len(found) == 1:
        os.utime(cached)  # recently used: kept by prune_cache
        return found[0]
    cached.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gin-wheel-", dir=cached.parent) as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "plain").mkdir()
        (tmp / "compiled").mkdir()
        plain = build_wheel(package, tmp / "plain")
        name = run_in_pyodide(
            pyodide_dir,
            "wheel",
            plain,
            tmp / "compiled",
            what=f"compiling the {package.folder.name} wheel",
        )
        if not (tmp / "compiled" / name).is_file():
            raise BuildError(
                f"compiling the {package.folder.name} wheel with Pyodide failed: no {name} written"
            )
        try:
            os.rename(tmp / "compiled", cached)
        except OSError:  # another build got there first
            if not cached.is_dir():
                raise
    prune_cache(cached.parent, keep=8)
    return cached / name


def site_packages(root: Path, catalogs: Mapping[str, object]) -> list[Package]:
    """The packages the browser runs: the engine, then the presentation layer with the
    catalogs (``{lang: catalog JSON}``)."""
    locales = {
        f"ginview/locales/{lang}.json": json.dumps(data, ensure_ascii=False, sort_keys=True)
        for lang, data in catalogs.items()
    }
    return [Package(root / "engine"), Package(root / "presentation", locales)]
