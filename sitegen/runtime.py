"""Steps 2 and 3: the Pyodide runtime the browser needs, with the engine wheel registered.

Layout in the built site (the versioned directory can be cached for a long time):

    assets/gin/runtime.js                   RUNTIME_DIR, ENGINE_PACKAGE, ENGINE_WHEEL, STDLIB_FILE
    assets/runtime/pyodide-<version>/       the 5 runtime files, the wheel, the precompiled
                                            standard library (STDLIB_FILE), .gz copies

The precompiled standard library is python_stdlib.zip with every module byte-compiled to .pyc
by the pinned Pyodide itself, in Node (compile_stdlib.mjs). The browser passes it to
loadPyodide as stdLibURL, so booting imports .pyc instead of compiling ~200 .py files: about
3x faster. It takes several seconds to make, so it is cached under .cache/stdlib-pyc/, keyed by
the Pyodide version (and the scripts and the source zip).
"""

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import BuildError

RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
STDLIB_PYC = "python_stdlib_pyc.zip"  # beside python_stdlib.zip; runtime.js's STDLIB_FILE
GZIPPED = ("pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
           STDLIB_PYC)
ENGINE_PACKAGE = "ginrummy"
HERE = Path(__file__).resolve().parent
COMPILE_STDLIB = HERE / "compile_stdlib.mjs"
PYC_SCRIPT = HERE / "pyc_wheel.py"


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


def _stdlib_key(pyodide_dir: Path, version: str) -> str:
    digest = hashlib.sha256(sha256_of(pyodide_dir / "python_stdlib.zip").encode())
    for script in (COMPILE_STDLIB, PYC_SCRIPT):
        digest.update(script.read_bytes())
    return f"{version}-{digest.hexdigest()[:12]}"


def precompiled_stdlib(pyodide_dir: Path, cache_dir: Path) -> Path:
    """The standard library zip with .pyc instead of .py, from the cache or made in Node.

    Beside it in the cache, stdlib.json records what made it: {"pyodide", "python", "modules",
    "source_sha256", "sha256"}.
    """
    version = json.loads((pyodide_dir / "package.json").read_text())["version"]
    cached = cache_dir / "stdlib-pyc" / _stdlib_key(pyodide_dir, version)
    if (cached / STDLIB_PYC).is_file() and (cached / "stdlib.json").is_file():
        os.utime(cached)  # recently used: kept by prune_cache
        return cached / STDLIB_PYC
    node = shutil.which("node")
    if node is None:
        raise BuildError("node not found: install Node.js 18 or newer (apt-get install nodejs npm)")
    cached.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gin-stdlib-", dir=cached.parent) as tmp:
        tmp = Path(tmp) / "out"
        tmp.mkdir()
        proc = subprocess.run([node, str(COMPILE_STDLIB), str(pyodide_dir), str(tmp / STDLIB_PYC)],
                              capture_output=True, text=True)
        lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
        if proc.returncode != 0 or not lines or not (tmp / STDLIB_PYC).is_file():
            err = [ln for ln in (proc.stderr or proc.stdout).splitlines() if ln.strip()]
            raise BuildError("compiling the standard library with Pyodide failed: "
                             f"{err[-1] if err else 'no output'}")
        modules, python = lines[-1].split()
        (tmp / "stdlib.json").write_text(json.dumps({
            "pyodide": version, "python": python, "modules": int(modules),
            "source_sha256": sha256_of(pyodide_dir / "python_stdlib.zip"),
            "sha256": sha256_of(tmp / STDLIB_PYC)}, indent=1) + "\n")
        try:
            os.rename(tmp, cached)
        except OSError:  # another build got there first
            if not (cached / STDLIB_PYC).is_file():
                raise
    prune_cache(cached.parent, keep=2)
    return cached / STDLIB_PYC


def stage_runtime(pyodide_dir: Path, wheel: Path, out_dir: Path, cache_dir: Path) -> dict:
    """Copy the runtime files, the precompiled standard library and the wheel to out_dir,
    register the wheel, write .gz copies."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copyfile(pyodide_dir / name, out_dir / name)
    shutil.copyfile(precompiled_stdlib(pyodide_dir, cache_dir), out_dir / STDLIB_PYC)
    shutil.copyfile(wheel, out_dir / wheel.name)
    entry = register_wheel(out_dir / "pyodide-lock.json", out_dir / wheel.name)
    for name in GZIPPED + (wheel.name,):
        _gzip_cached(out_dir / name, out_dir / (name + ".gz"), cache_dir)
    prune_cache(cache_dir / "gzip", keep=3 * len(GZIPPED) + 3)
    return entry


def runtime_module(version: str, wheel_name: str, stdlib_file: str | None = STDLIB_PYC) -> str:
    """The text of assets/gin/runtime.js (RUNTIME_DIR relative to runtime.js, the file names
    relative to RUNTIME_DIR). STDLIB_FILE: the precompiled standard library, for stdLibURL."""
    text = (f'export const RUNTIME_DIR = "../runtime/pyodide-{version}/";\n'
            f'export const ENGINE_PACKAGE = "{ENGINE_PACKAGE}";\n'
            f'export const ENGINE_WHEEL = "{wheel_name}";\n')
    if stdlib_file:
        text += f'export const STDLIB_FILE = "{stdlib_file}";\n'
    return text
