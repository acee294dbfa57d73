"""Steps 2 and 3: the Pyodide runtime the browser needs, with the engine wheel registered.

Layout in the built site:

    assets/gin/runtime.js        RUNTIME_DIR, PACKAGES, API_MODULE, STDLIB_FILE,
                                 SNAPSHOT_FILE, SNAPSHOT_STDLIB_FILE, BOOT_FILES, INTEGRITY
    assets/runtime/pyodide-<version>-<digest>/
                                 the 5 runtime files, the wheels of the engine and of the
                                 presentation layer (registered in the lock file, which
                                 lists only them),
                                 the precompiled standard library (STDLIB_FILE), the engine's
                                 memory snapshot (SNAPSHOT_FILE) and the standard library to
                                 restore it on (SNAPSHOT_STDLIB_FILE: an empty zip), .br and
                                 .gz copies

The directory's name ends with a digest of its files, so it can be served as immutable: a
changed engine gets a new directory, never a stale cached copy.

The precompiled standard library is python_stdlib.zip with every module byte-compiled to .pyc
by the pinned Pyodide itself, in Node (in_pyodide.mjs stdlib). The browser passes it to
loadPyodide as stdLibURL, so booting imports .pyc instead of compiling ~200 .py files.

The snapshot is the memory of a Pyodide booted with the engine and the presentation layer
imported and warmed up
(in_pyodide.mjs snapshot, snapshot.py). The browser restores it instead of starting Python and
importing the engine: about twice as fast again. It is shipped without the pages the
WebAssembly module starts with (zero, or filled by pyodide.asm.wasm's data segments, which the
browser downloads anyway: docs/assets/gin/snapshot.js), a third of what Pyodide writes; the
pages kept that the data segments fill are shipped as their difference from them.
Since nothing is left to import (every module of the wheels is imported before it is taken),
no standard library is shipped with it: it is restored on an empty zip. Its code is compiled
without docstrings (pyc_wheel.py, optimize=2), and kept without line numbers (in_pyodide.mjs
bareLines: a line table for each code object, about an eighth of the snapshot with Brotli).
It is bound to the exact Pyodide build, and the wheels, shipped beside it.
Without a snapshot the worker uses STDLIB_FILE and the wheel.

Both take seconds to make, so they are cached under .cache/, keyed by what they are made from.
"""

import base64
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypedDict

from . import BuildError

RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
STDLIB_PYC = "python_stdlib_pyc.zip"  # beside python_stdlib.zip; runtime.js's STDLIB_FILE
SNAPSHOT = "engine.snapshot"  # runtime.js's SNAPSHOT_FILE
SNAPSHOT_STDLIB = "engine_stdlib.zip"  # runtime.js's SNAPSHOT_STDLIB_FILE, made with the snapshot
# What the worker fetches to boot from the snapshot (the service worker keeps them offline).
BOOT_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "pyodide-lock.json",
    SNAPSHOT,
    SNAPSHOT_STDLIB,
)
API_MODULE = "ginview.api"  # the worker calls its handle()
HERE = Path(__file__).resolve().parent
IN_PYODIDE = HERE / "in_pyodide.mjs"
RUNTIME_EPOCH = 315532800
"""The time the runtime's files are made at (1980-01-01, the first a zip can hold): the wheels'
file times and the clock the snapshot is made with. Not the commit's time (the sitemaps' date):
so the wheels and the snapshot depend on their sources only, their cache stays valid from one
commit to the next, and a build with a warm cache gives the bytes of one from scratch."""
PYC_SCRIPT = HERE / "pyc_wheel.py"
SNAPSHOT_SCRIPT = HERE / "snapshot.py"
SNAPSHOT_FORMAT = HERE.parent / "docs" / "assets" / "gin" / "snapshot.js"  # also read by worker.js


def pinned_version(package_json: Path) -> str:
    """The exact Pyodide version package.json pins."""
    try:
        version: str = json.loads(package_json.read_text())["dependencies"]["pyodide"]
        return version
    except (OSError, ValueError, KeyError) as exc:
        raise BuildError(f"cannot read the pyodide pin from {package_json}: {exc}") from None


def check_npm_runtime(pyodide_dir: Path, pinned: str) -> str:
    """Stop unless node_modules holds the pinned Pyodide with every runtime file."""
    try:
        installed: str = json.loads((pyodide_dir / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        raise BuildError(f"Pyodide runtime not found in {pyodide_dir}: run `npm ci`") from None
    if installed != pinned:
        raise BuildError(
            f"{pyodide_dir} has pyodide {installed} but package.json pins {pinned}: run `npm ci`"
        )
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


class LockEntry(TypedDict):
    """A package's entry in pyodide-lock.json, as the lock writes a pure-Python one."""

    name: str
    version: str
    file_name: str
    install_dir: str
    sha256: str
    package_type: str
    imports: list[str]
    depends: list[str]
    tool: dict[str, object]
    unvendored_tests: bool


def register_wheel(lock_path: Path, wheel: Path, depends: list[str]) -> LockEntry:
    """Add a wheel to pyodide-lock.json, shaped like the lock's pure-Python entries."""
    lock = json.loads(lock_path.read_text())
    name = wheel.name.split("-")[0]
    entry: LockEntry = {
        "name": name,
        "version": wheel_version(wheel.name),
        "file_name": wheel.name,
        "install_dir": "site",
        "sha256": sha256_of(wheel),
        "package_type": "package",
        "imports": [name],
        "depends": depends,
        "tool": {},
        "unvendored_tests": False,
    }
    lock["packages"][name] = entry
    lock_path.write_text(json.dumps(lock, separators=(",", ":")))
    return entry


def keep_only(lock_path: Path, names: list[str]) -> None:
    """Leave in pyodide-lock.json only the packages named (the site's wheels): the site loads
    none of Pyodide's own, and the browser reads the lock on every boot (its 359 packages
    were 21 KB of the first visit's download with Brotli)."""
    lock = json.loads(lock_path.read_text())
    lock["packages"] = {name: lock["packages"][name] for name in names}
    lock_path.write_text(json.dumps(lock, separators=(",", ":")))


def prune_cache(directory: Path, keep: int) -> None:
    """Keep only the `keep` most recently used entries of a cache directory."""
    try:
        entries = sorted(
            (p for p in directory.iterdir() if not p.name.startswith("gin-")),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )  # gin-*: in progress
        for old in entries[keep:]:
            if old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
            else:
                old.unlink(missing_ok=True)
    except OSError:
        pass  # a concurrent build moved something: prune next time


NODE_ENV = {
    "SOURCE_DATE_EPOCH": str(RUNTIME_EPOCH),
    "TZ": "UTC",
    "LC_ALL": "C.UTF-8",
    "LANG": "C.UTF-8",
    "PATH": "/usr/local/bin:/usr/bin:/bin",
}
"""The whole environment of the Node process that makes the runtime's files: nothing of the
machine's or the user's (the snapshot holds the memory of a Python started in it: its time zone,
its locale), so every machine makes the same bytes."""


def run_in_pyodide(pyodide_dir: Path, command: str, *args: object, what: str) -> str:
    """Run `node in_pyodide.mjs <command> <pyodide dir> <args>`; its last line of output.
    Failing, a one-line BuildError: "<what> with Pyodide failed: <last line of stderr>"."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("node not found: install Node.js 18 or newer (apt-get install nodejs npm)")
    proc = subprocess.run(
        [node, str(IN_PYODIDE), command, str(pyodide_dir), *map(str, args)],
        capture_output=True,
        text=True,
        env=NODE_ENV,
    )
    if proc.returncode != 0 or not proc.stdout.strip():
        raise BuildError(f"{what} with Pyodide failed: {last_line(proc.stderr or proc.stdout)}")
    return last_line(proc.stdout)


def last_line(text: str) -> str:
    """The last non-blank line of a tool's output, for a one-line error."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1] if lines else "no output"


def _cached_make(cache: Path, name: str, make: Callable[[Path], object]) -> Path:
    """cache/<name>, made by make(tmp_dir) (which writes tmp_dir/<name>) unless already there.
    The new entry appears whole (a rename), so parallel builds never see half a file."""
    if (cache / name).is_file():
        os.utime(cache)  # recently used: kept by prune_cache
        return cache / name
    cache.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gin-", dir=cache.parent) as tmp:
        out = Path(tmp) / "out"
        out.mkdir()
        make(out)
        try:
            os.rename(out, cache)
        except OSError:  # another build got there first
            if not (cache / name).is_file():
                raise
    prune_cache(cache.parent, keep=4)
    return cache / name


def _files_digest(paths: Iterable[Path]) -> str:
    """One digest of several files: their names and contents."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0" + sha256_of(path).encode())
    return digest.hexdigest()


def _key(version: str, *files: Path) -> str:
    return f"{version}-{_files_digest((IN_PYODIDE, *files))[:12]}"


def precompiled_stdlib(pyodide_dir: Path, cache_dir: Path) -> Path:
    """The standard library zip with .pyc instead of .py, from the cache or made in Node.

    Beside it in the cache, stdlib.json records what made it: {"pyodide", "python", "modules",
    "source_sha256", "sha256"}.
    """
    version = json.loads((pyodide_dir / "package.json").read_text())["version"]
    source = pyodide_dir / "python_stdlib.zip"

    def make(out: Path) -> None:
        line = run_in_pyodide(
            pyodide_dir, "stdlib", out / STDLIB_PYC, what="compiling the standard library"
        )
        modules, python = line.split()
        (out / "stdlib.json").write_text(
            json.dumps(
                {
                    "pyodide": version,
                    "python": python,
                    "modules": int(modules),
                    "source_sha256": sha256_of(source),
                    "sha256": sha256_of(out / STDLIB_PYC),
                },
                indent=1,
            )
            + "\n"
        )

    key = _key(version, source, PYC_SCRIPT)
    return _cached_make(cache_dir / "stdlib-pyc" / key, STDLIB_PYC, make)


def engine_snapshot(pyodide_dir: Path, stdlib: Path, wheels: list[Path], cache_dir: Path) -> Path:
    """The memory snapshot of Pyodide with the wheels installed and imported, from the cache or
    made in Node. Beside it: SNAPSHOT_STDLIB, the (empty) standard library to restore it on."""
    version = json.loads((pyodide_dir / "package.json").read_text())["version"]

    def make(out: Path) -> None:
        run_in_pyodide(
            pyodide_dir,
            "snapshot",
            stdlib,
            out,
            *wheels,
            what="making the engine's memory snapshot",
        )

    key = _key(
        version, pyodide_dir / "pyodide.asm.wasm", stdlib, *wheels, SNAPSHOT_SCRIPT, SNAPSHOT_FORMAT
    )
    return _cached_make(cache_dir / "snapshot" / key, SNAPSHOT, make)


def stage_runtime(
    pyodide_dir: Path, wheels: list[Path], out_dir: Path, cache_dir: Path
) -> list[LockEntry]:
    """Copy the runtime files, the precompiled standard library, the wheels and the snapshot
    to out_dir, register the wheels. Returns the lock entries. (Their .br and .gz copies are
    written with the rest of the site's, by sitegen.compress.)"""
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copyfile(pyodide_dir / name, out_dir / name)
    stdlib = precompiled_stdlib(pyodide_dir, cache_dir)
    shutil.copyfile(stdlib, out_dir / STDLIB_PYC)
    snapshot = engine_snapshot(pyodide_dir, stdlib, wheels, cache_dir)
    shutil.copyfile(snapshot, out_dir / SNAPSHOT)
    shutil.copyfile(snapshot.with_name(SNAPSHOT_STDLIB), out_dir / SNAPSHOT_STDLIB)
    entries: list[LockEntry] = []
    for wheel in wheels:  # each package depends on the ones before it (the engine, then ginview)
        shutil.copyfile(wheel, out_dir / wheel.name)
        entries.append(
            register_wheel(
                out_dir / "pyodide-lock.json", out_dir / wheel.name, [e["name"] for e in entries]
            )
        )
    keep_only(out_dir / "pyodide-lock.json", [e["name"] for e in entries])
    return entries


def runtime_dir_name(version: str, staged: Path) -> str:
    """pyodide-<version>-<digest of the staged files>: a new name whenever a file changes."""
    files = sorted(p for p in staged.iterdir() if p.suffix not in (".gz", ".br"))
    return f"pyodide-{version}-{_files_digest(files)[:10]}"


def sri(path: Path) -> str:
    """The Subresource Integrity value of a file ("sha256-<base64>"), for fetch's integrity."""
    return "sha256-" + base64.b64encode(bytes.fromhex(sha256_of(path))).decode()


def runtime_cache(dir_name: str) -> str:
    """The Cache Storage cache that keeps a runtime for offline use, named by its folder (and so
    by its digest): the service worker and the engine worker both put its files there, and a new
    build with the same runtime keeps it."""
    return f"gin-runtime-{dir_name}"


DIRECT_HEADER = "x-gin-direct"
"""The header the engine worker sets on its downloads of a runtime the service worker has not
kept yet: the service worker leaves those to the network (docs/assets/gin/worker.js, sw.js)."""


def boot_integrity(staged: Path) -> dict[str, str]:
    """{file name: Subresource Integrity} of the files a boot from the snapshot reads: the
    engine worker and the service worker check each copy they keep or read from the cache
    against it (a damaged one is dropped and fetched again), and the snapshot's download."""
    return {name: sri(staged / name) for name in BOOT_FILES}


def runtime_module(
    dir_name: str,
    packages: list[str],
    stdlib_file: str | None = STDLIB_PYC,
    boot: dict[str, str] | None = None,
) -> str:
    """The text of assets/gin/runtime.js (RUNTIME_DIR relative to runtime.js, the file names
    relative to RUNTIME_DIR). PACKAGES: the wheels' packages, loaded by name when there is no
    snapshot. STDLIB_FILE: the precompiled standard library, for stdLibURL. boot: the
    integrity of each of BOOT_FILES (:func:`boot_integrity`), if the browser is to restore the
    memory snapshot (SNAPSHOT_FILE, on SNAPSHOT_STDLIB_FILE) instead of booting Python and
    loading the wheels; then BOOT_FILES, what that boot reads (a page boots at idle when they
    are all kept for offline use), and INTEGRITY, {file: integrity}."""
    text = (
        f'export const RUNTIME_DIR = "../runtime/{dir_name}/";\n'
        f"export const PACKAGES = {json.dumps(packages)};\n"
        f'export const API_MODULE = "{API_MODULE}";\n'
        f'export const DIRECT_HEADER = "{DIRECT_HEADER}";\n'
        f'export const RUNTIME_CACHE = "{runtime_cache(dir_name)}";\n'
    )
    if stdlib_file:
        text += f'export const STDLIB_FILE = "{stdlib_file}";\n'
    if boot:
        text += (
            f'export const SNAPSHOT_FILE = "{SNAPSHOT}";\n'
            f'export const SNAPSHOT_STDLIB_FILE = "{SNAPSHOT_STDLIB}";\n'
            f"export const BOOT_FILES = {json.dumps(list(boot))};\n"
            f"export const INTEGRITY = {json.dumps(boot)};\n"
        )
    return text
