"""The precompiled standard library: built by Pyodide in Node, cached, served, wired into runtime.js.

None of these tests is timed: the boot speed it buys is measured by `make bench` (bench/browser.py).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
import subprocess
import textwrap
import zipfile
from pathlib import Path

import pytest

from sitegen import BuildError, runtime
from sitegen.runtime import STDLIB_PYC, pinned_version, precompiled_stdlib, runtime_module

REPO = Path(__file__).resolve().parents[2]
PYODIDE = REPO / "node_modules" / "pyodide"
VERSION = pinned_version(REPO / "package.json")
# The flags word of an unchecked hash-based .pyc (PEP 552): bit 0 set, bit 1 (check_source) clear.
UNCHECKED_HASH = (1).to_bytes(4, "little")


@pytest.fixture(scope="module")
def site_stdlib(site_runtime) -> Path:
    return site_runtime / STDLIB_PYC


@pytest.fixture(scope="module")
def python_version(site_runtime) -> str:
    return json.loads((site_runtime / "pyodide-lock.json").read_text())["info"]["python"]


def exported(runtime_js: str) -> dict:
    return {
        name: json.loads(value)
        for name, value in re.findall(r"^export const (\w+) = (.*);$", runtime_js, re.M)
    }


def test_runtime_js_exports_the_stdlib_file_beside_the_runtime(
    built_site, site_runtime, site_stdlib
):
    names = exported((built_site / "assets/gin/runtime.js").read_text())
    assert names["STDLIB_FILE"] == STDLIB_PYC
    # worker.js: new URL(STDLIB_FILE, new URL(RUNTIME_DIR, runtime.js)); the file is really there.
    runtime_dir = (built_site / "assets/gin" / names["RUNTIME_DIR"]).resolve()
    assert runtime_dir == site_runtime
    assert (runtime_dir / names["STDLIB_FILE"]).is_file()
    # Pyodide's own .py standard library stays too (and its gzip copy).
    assert (runtime_dir / "python_stdlib.zip").is_file()
    assert (runtime_dir / "python_stdlib.zip.gz").is_file()


def test_stdlib_zip_holds_pyc_for_every_module_and_no_py(site_stdlib):
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as src:
        source = src.namelist()
    with zipfile.ZipFile(site_stdlib) as out:
        names = out.namelist()
        abc = out.read("abc.pyc")
    modules = [n for n in source if n.endswith(".py")]
    assert len(modules) > 500
    assert not [n for n in names if n.endswith(".py")]
    assert names == [n + "c" if n.endswith(".py") else n for n in source]  # same order, data kept
    for name in (
        "abc.pyc",
        "json/__init__.pyc",
        "dataclasses.pyc",
        "_pyodide/__init__.pyc",
        "pyodide/__init__.pyc",
        "zipfile/__init__.pyc",
    ):
        assert name in names
    # Compiled as zipimport will find it: the zip's mount point is the code's file name.
    assert b"/lib/python314.zip/abc.py" in abc


def test_stdlib_pyc_comes_from_the_same_interpreter_as_the_engine_wheel(site_runtime, site_stdlib):
    lock = json.loads((site_runtime / "pyodide-lock.json").read_text())
    wheel = site_runtime / lock["packages"]["ginrummy"]["file_name"]
    with zipfile.ZipFile(wheel) as whl:
        engine_magic = whl.read("ginrummy/api.pyc")[:4]
    with zipfile.ZipFile(site_stdlib) as out:
        headers = {out.read(n)[:8] for n in out.namelist() if n.endswith(".pyc")}
    assert headers == {engine_magic + UNCHECKED_HASH}


def test_stdlib_gzip_copy_matches(site_stdlib):
    packed = Path(str(site_stdlib) + ".gz").read_bytes()
    assert gzip.decompress(packed) == site_stdlib.read_bytes()


def test_cache_records_the_versions_and_the_file(site_stdlib, python_version):
    cached = precompiled_stdlib(PYODIDE, REPO / ".cache")  # the build filled this cache
    record = json.loads((cached.parent / "stdlib.json").read_text())
    assert cached.parent.name.startswith(f"{VERSION}-")  # keyed by the Pyodide version
    assert record["pyodide"] == VERSION
    assert record["python"] == python_version
    assert record["sha256"] == hashlib.sha256(site_stdlib.read_bytes()).hexdigest()
    assert (
        record["source_sha256"]
        == hashlib.sha256((PYODIDE / "python_stdlib.zip").read_bytes()).hexdigest()
    )
    assert record["modules"] > 500


def test_a_cached_stdlib_is_not_compiled_again(monkeypatch):
    precompiled_stdlib(PYODIDE, REPO / ".cache")

    def no_node(*args, **kwargs):
        raise AssertionError("the cached standard library was compiled again")

    monkeypatch.setattr(runtime.subprocess, "run", no_node)
    assert precompiled_stdlib(PYODIDE, REPO / ".cache").is_file()


def test_a_cached_snapshot_is_not_made_again(site_runtime, monkeypatch):
    stdlib = precompiled_stdlib(PYODIDE, REPO / ".cache")
    lock = json.loads((site_runtime / "pyodide-lock.json").read_text())
    wheels = [
        site_runtime / lock["packages"][name]["file_name"] for name in ("ginrummy", "ginview")
    ]
    first = runtime.engine_snapshot(PYODIDE, stdlib, wheels, REPO / ".cache")

    def no_node(*args, **kwargs):
        raise AssertionError("the cached snapshot was made again")

    monkeypatch.setattr(runtime.subprocess, "run", no_node)
    assert runtime.engine_snapshot(PYODIDE, stdlib, wheels, REPO / ".cache") == first
    assert first.read_bytes() == (site_runtime / runtime.SNAPSHOT).read_bytes()
    stdlib = first.with_name(runtime.SNAPSHOT_STDLIB)
    assert stdlib.read_bytes() == (site_runtime / runtime.SNAPSHOT_STDLIB).read_bytes()


def test_the_snapshot_is_shipped_with_no_standard_library(site_runtime):
    """The snapshot holds every module the engine imports: its zip is empty (22 bytes)."""
    with zipfile.ZipFile(site_runtime / runtime.SNAPSHOT_STDLIB) as empty:
        assert empty.namelist() == []
    assert (site_runtime / runtime.SNAPSHOT_STDLIB).stat().st_size == 22


def test_code_is_compiled_without_docstrings(site_runtime, site_stdlib):
    """optimize=2: the docstrings of the wheels and the standard library are not in their code
    (so not in the engine's memory snapshot either)."""
    lock = json.loads((site_runtime / "pyodide-lock.json").read_text())
    with zipfile.ZipFile(site_runtime / lock["packages"]["ginrummy"]["file_name"]) as wheel:
        melds = wheel.read("ginrummy/melds.pyc")
    with zipfile.ZipFile(site_stdlib) as stdlib:
        dataclasses = stdlib.read("dataclasses.pyc")
    import dataclasses as source

    import ginrummy.melds

    assert ginrummy.melds.__doc__.split("\n")[0].encode() not in melds
    assert source.__doc__ is None or source.__doc__[:30].encode() not in dataclasses
    assert source.dataclass.__doc__[:40].encode() not in dataclasses
    assert b"best_melds" in melds


def test_missing_node_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setattr(runtime.shutil, "which", lambda name: None)
    with pytest.raises(BuildError) as info:
        precompiled_stdlib(PYODIDE, tmp_path / "empty-cache")
    assert "node not found" in str(info.value) and "\n" not in str(info.value)


def test_runtime_module_text():
    boot = {name: f"sha256-{i}=" for i, name in enumerate(runtime.BOOT_FILES)}
    text = runtime_module("pyodide-1.2.3-abc", ["ginrummy", "ginview"], boot=boot)
    assert exported(text) == {
        "RUNTIME_DIR": "../runtime/pyodide-1.2.3-abc/",
        "PACKAGES": ["ginrummy", "ginview"],
        "API_MODULE": "ginview.api",
        "DIRECT_HEADER": "x-gin-direct",
        "RUNTIME_CACHE": "gin-runtime-pyodide-1.2.3-abc",
        "STDLIB_FILE": STDLIB_PYC,
        "SNAPSHOT_FILE": "engine.snapshot",
        "SNAPSHOT_STDLIB_FILE": "engine_stdlib.zip",
        "BOOT_FILES": list(runtime.BOOT_FILES),
        "INTEGRITY": boot,
    }
    plain = exported(runtime_module("pyodide-1.2.3-abc", ["x"], stdlib_file=None))
    assert not {"STDLIB_FILE", "SNAPSHOT_FILE", "BOOT_FILES", "INTEGRITY"} & set(plain)


BOOT = textwrap.dedent("""
    import { loadPyodide } from %(pyodide)s;
    const py = await loadPyodide({ indexURL: %(index)s, stdLibURL: %(stdlib)s });
    console.log(py.runPython(`
    import json, sys, dataclasses, _pyodide
    json.dumps([sys.version.split()[0], json.__file__, dataclasses.__spec__.origin,
                _pyodide.__file__])`));
""")


@pytest.mark.skipif(shutil.which("node") is None, reason="node is needed to run Pyodide")
def test_pyodide_boots_from_the_precompiled_stdlib(site_stdlib, python_version, tmp_path):
    script = tmp_path / "boot.mjs"
    script.write_text(
        BOOT
        % {
            "pyodide": json.dumps((PYODIDE / "pyodide.mjs").as_uri()),
            "index": json.dumps(str(PYODIDE) + "/"),
            "stdlib": json.dumps(str(site_stdlib)),
        }
    )
    proc = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    version, *files = json.loads(proc.stdout.strip().splitlines()[-1])
    assert version == python_version
    assert files == [
        "/lib/python314.zip/json/__init__.pyc",
        "/lib/python314.zip/dataclasses.pyc",
        "/lib/python314.zip/_pyodide/__init__.pyc",
    ]


def test_the_lock_lists_only_the_sites_wheels(site_runtime):
    """The browser reads pyodide-lock.json on every boot: it lists the site's two wheels only
    (the site loads none of Pyodide's packages), with Pyodide's info (its ABI is checked)."""
    lock = json.loads((site_runtime / "pyodide-lock.json").read_text())
    npm = json.loads((PYODIDE / "pyodide-lock.json").read_text())
    assert set(lock["packages"]) == {"ginrummy", "ginview"}
    assert lock["info"] == npm["info"]
