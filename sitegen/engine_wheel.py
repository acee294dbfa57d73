"""Step 1: build the engine wheel and byte-compile it for Pyodide (in Node).

The result is cached under .cache/engine-wheel/, keyed by the engine's sources, the Pyodide
version and the compile scripts, so a rebuild without engine changes skips Node.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import BuildError
from .runtime import IN_PYODIDE, PYC_SCRIPT, last_line, prune_cache, run_in_pyodide

_SKIP = shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__", "*.pyc")


def _source_key(engine_dir: Path, pyodide_version: str) -> str:
    digest = hashlib.sha256(pyodide_version.encode())
    files = [p for p in sorted(engine_dir.rglob("*")) if p.is_file()
             and not any(part in {"build", "dist", "__pycache__"} or part.endswith(".egg-info")
                         for part in p.relative_to(engine_dir).parts)
             and p.suffix != ".pyc"]
    labelled = [(str(p.relative_to(engine_dir)), p) for p in files]
    labelled += [(p.name, p) for p in (IN_PYODIDE, PYC_SCRIPT)]
    for label, path in labelled:
        digest.update(label.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:20]


def build_wheel(engine_dir: Path, out_dir: Path) -> Path:
    """`python -m build --wheel` on a copy of engine/ (so parallel builds never share build/)."""
    with tempfile.TemporaryDirectory(prefix="gin-engine-") as tmp:
        src = Path(tmp) / "engine"
        shutil.copytree(engine_dir, src, ignore=_SKIP)
        proc = subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--outdir", str(out_dir), str(src)],
            capture_output=True, text=True)
    wheels = sorted(out_dir.glob("*.whl"))
    if proc.returncode != 0 or len(wheels) != 1:
        raise BuildError(f"engine wheel build failed: {last_line(proc.stdout + proc.stderr)} "
                         f"(run `python -m build --wheel engine/` to see the full log)")
    return wheels[0]


def compile_for_pyodide(wheel: Path, pyodide_dir: Path, out_dir: Path) -> Path:
    """in_pyodide.mjs wheel: Pyodide's own CPython writes the .pyc files."""
    name = run_in_pyodide(pyodide_dir, "wheel", wheel, out_dir, what="compiling the engine wheel")
    if not (out_dir / name).is_file():
        raise BuildError(f"compiling the engine wheel with Pyodide failed: no {name} written")
    return out_dir / name


def engine_wheel(engine_dir: Path, pyodide_dir: Path, pyodide_version: str, cache_dir: Path) -> Path:
    """The Pyodide-compiled engine wheel, from the cache or freshly built."""
    if not (engine_dir / "pyproject.toml").is_file():
        raise BuildError(f"no engine at {engine_dir}: expected {engine_dir}/pyproject.toml")
    cached = cache_dir / "engine-wheel" / _source_key(engine_dir, pyodide_version)
    found = sorted(cached.glob("*.whl")) if cached.is_dir() else []
    if len(found) == 1:
        os.utime(cached)  # recently used: kept by prune_cache
        return found[0]
    cached.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gin-wheel-", dir=cached.parent) as tmp:
        tmp = Path(tmp)
        (tmp / "plain").mkdir()
        (tmp / "compiled").mkdir()
        plain = build_wheel(engine_dir, tmp / "plain")
        compiled = compile_for_pyodide(plain, pyodide_dir, tmp / "compiled")
        try:
            os.rename(tmp / "compiled", cached)
        except OSError:  # another build got there first
            if not cached.is_dir():
                raise
    prune_cache(cached.parent, keep=6)
    return cached / compiled.name
