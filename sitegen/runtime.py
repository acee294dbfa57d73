"""Steps 2 and 3: the Pyodide runtime the browser needs, with the engine wheel registered.

Layout in the built site (the versioned directory can be cached for a long time):

    assets/gin/runtime.js                   RUNTIME_DIR, ENGINE_PACKAGE, ENGINE_WHEEL
    assets/runtime/pyodide-<version>/       the 5 runtime files, the wheel, .gz copies
"""

import gzip
import hashlib
import json
import os
import shutil
from pathlib import Path

from . import BuildError

RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
GZIPPED = ("pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
ENGINE_PACKAGE = "ginrummy"


def pinned_version(package_json: Path) -> str:
    """The exact Pyodide version package.json pins."""
    try:
        return json.loads(package_json.read_text())["dependencies"]["pyodide"]
    except (OSError, ValueError, KeyError) as exc:
        raise BuildError(f"cannot read the pyodide pin from {package_json}: {exc}") from None


def check_npm_runtime(pyodide_dir: Path, pinned: str) -> str:
    """Stop unless node_modules holds the pinned Pyodide with every runtime file."""
    try:
        installed = json.loads((pyodide_dir / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        raise BuildError(f"Pyodide runtime not found in {pyodide_dir}: run `npm ci`") from None
    if installed != pinned:
        raise BuildError(f"{pyodide_dir} has pyodide {installed} but package.json pins {pinned}: "
                         "run `npm ci`")
    missing = [name for name in RUNTIME_FILES if not (pyodide_dir / name).is_file()]
    if missing:
        raise BuildError(f"{pyodide_dir} lacks {', '.join(missing)}: run `npm ci`")
    return installed


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def wheel_version(wheel_name: str) -> str:
    return wheel_name.split("-")[1]


def register_wheel(lock_path: Path, wheel: Path) -> dict:
    """Add the engine to pyodide-lock.json, shaped like the lock's pure-Python entries."""
    lock = json.loads(lock_path.read_text())
    entry = {
        "name": ENGINE_PACKAGE,
        "version": wheel_version(wheel.name),
        "file_name": wheel.name,
        "install_dir": "site",
        "sha256": sha256_of(wheel),
        "package_type": "package",
        "imports": [ENGINE_PACKAGE],
        "depends": [],
        "tool": {},
        "unvendored_tests": False,
    }
    lock["packages"][ENGINE_PACKAGE] = entry
    lock_path.write_text(json.dumps(lock, separators=(",", ":")))
    return entry


def _gzip_cached(src: Path, dest: Path, cache_dir: Path) -> None:
    """Write dest = gzip(src); big, unchanging files come from a content-addressed cache."""
    cached = cache_dir / "gzip" / (sha256_of(src) + ".gz")
    if cached.is_file():
        cached.touch()  # recently used: kept by prune_cache
    else:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
        with open(src, "rb") as f_in, open(tmp, "wb") as raw:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as f_out:
                shutil.copyfileobj(f_in, f_out)
        tmp.replace(cached)
    shutil.copyfile(cached, dest)


def prune_cache(directory: Path, keep: int) -> None:
    """Keep only the `keep` most recently used entries of a cache directory."""
    try:
        entries = sorted((p for p in directory.iterdir() if not p.name.startswith("gin-")),
                         key=lambda p: p.stat().st_mtime, reverse=True)  # gin-*: in progress
        for old in entries[keep:]:
            if old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
            else:
                old.unlink(missing_ok=True)
    except OSError:
        pass  # a concurrent build moved something: prune next time


def stage_runtime(pyodide_dir: Path, wheel: Path, out_dir: Path, cache_dir: Path) -> dict:
    """Copy the runtime files and the wheel to out_dir, register the wheel, write .gz copies."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copyfile(pyodide_dir / name, out_dir / name)
    shutil.copyfile(wheel, out_dir / wheel.name)
    entry = register_wheel(out_dir / "pyodide-lock.json", out_dir / wheel.name)
    for name in GZIPPED + (wheel.name,):
        _gzip_cached(out_dir / name, out_dir / (name + ".gz"), cache_dir)
    prune_cache(cache_dir / "gzip", keep=3 * len(GZIPPED) + 3)
    return entry


def runtime_module(version: str, wheel_name: str) -> str:
    """The text of assets/gin/runtime.js (paths relative to runtime.js)."""
    return (f'export const RUNTIME_DIR = "../runtime/pyodide-{version}/";\n'
            f'export const ENGINE_PACKAGE = "{ENGINE_PACKAGE}";\n'
            f'export const ENGINE_WHEEL = "{wheel_name}";\n')
