"""Byte-compile a pure-Python wheel for Pyodide, as `pyodide py-compile` does.

This file runs inside Pyodide (its CPython, under Node), so the .pyc files match the browser's
interpreter. Only the standard library is used. Each .py becomes a .pyc at the same path, compiled
without docstrings and asserts (``optimize=2``, as ``python -OO``: smaller code in the engine's
memory snapshot, and nothing in the engine or the presentation layer reads a docstring), and the
.py is dropped; RECORD is rewritten with the new hashes; the tag py3-none-any becomes
cpXY-none-any (XY = the running Python), in the file name and in WHEEL.
"""

import base64
import hashlib
import py_compile
import sys
import tempfile
import zipfile
from pathlib import Path


def compiled_wheel_name(wheel_name: str) -> str:
    """The file name of the compiled wheel: the interpreter tag becomes cpXY.

    >>> import sys
    >>> tag = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    >>> compiled_wheel_name("ginrummy-0.1.0-py3-none-any.whl") == f"ginrummy-0.1.0-{tag}-none-any.whl"
    True
    """
    parts = wheel_name[: -len(".whl")].split("-")
    if not wheel_name.endswith(".whl") or len(parts) != 5:
        raise ValueError(f"not a plain wheel name (no build tag expected): {wheel_name}")
    dist, version, python_tags, abi, platform = parts
    interpreter = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    accepted = {f"py{sys.version_info[0]}", interpreter}
    if not accepted & set(python_tags.split(".")):
        raise ValueError(f"{wheel_name} is not for Python {sys.version_info[0]}")
    if "." in abi or "." in platform:
        raise ValueError(f"compressed abi/platform tags are not supported: {wheel_name}")
    return f"{dist}-{version}-{interpreter}-{abi}-{platform}.whl"


def _record_row(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def compile_wheel(src: str | Path, out_dir: str | Path) -> str:
    """Write the compiled copy of wheel `src` into `out_dir` and return its path as a string."""
    src = Path(src)
    out_name = compiled_wheel_name(src.name)
    new_tag = out_name[: -len(".whl")].split("-", 2)[2]
    members = []  # (ZipInfo, bytes), in the original order, RECORD left out
    record_name = None
    with zipfile.ZipFile(src) as wheel, tempfile.TemporaryDirectory() as tmp:
        source_file = Path(tmp) / "module.py"
        compiled_file = Path(tmp) / "module.pyc"
        for info in wheel.infolist():
            name = info.filename
            if info.is_dir() or name.endswith(".pyc"):
                continue
            if name.endswith(".dist-info/RECORD"):
                record_name = name
                continue
            data = wheel.read(name)
            if name.endswith(".py"):
                source_file.write_bytes(data)
                py_compile.compile(
                    str(source_file),
                    cfile=str(compiled_file),
                    dfile=name,
                    doraise=True,
                    optimize=2,
                    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
                )
                name, data = name + "c", compiled_file.read_bytes()
            elif name.endswith(".dist-info/WHEEL"):
                lines = data.decode().splitlines()
                lines = [f"Tag: {new_tag}" if ln.startswith("Tag:") else ln for ln in lines]
                data = ("\n".join(lines) + "\n").encode()
            members.append((zipfile.ZipInfo(name, date_time=info.date_time), data))
    if record_name is None:
        raise ValueError(f"{src.name} has no RECORD")
    rows = [_record_row(info.filename, data) for info, data in members]
    rows.append(f"{record_name},,")
    members.append(
        (
            zipfile.ZipInfo(record_name, date_time=members[0][0].date_time),
            ("\n".join(rows) + "\n").encode(),
        )
    )
    out = Path(out_dir) / out_name
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as wheel:
        for info, data in members:
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            wheel.writestr(info, data)
    return str(out)


def compile_stdlib(
    src: str | Path, dest: str | Path, mount: str = "/lib/python314.zip", stored: bool = True
) -> int:
    """Write `dest`: the standard library zip `src` with every .py byte-compiled to .pyc.

    Pyodide mounts the zip at `mount` and imports from it with zipimport, which takes a .pyc
    member in place of the .py one; the .py is dropped (the .pyc records `mount/<name>` as its
    file, for tracebacks). Compiled as the wheels are, without docstrings and asserts. Unchecked-hash .pyc files: zipimport never looks for a source. Other
    members (directories, data files) are kept, in their order. `stored` leaves the members
    uncompressed: zipimport then skips inflating them, and the site's gzip copy compresses the
    whole file better than per-member deflate does. Returns the number of modules compiled.
    """
    import importlib.util

    # CPython's own helper for a hash-based .pyc, private and so not in typeshed
    from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]

    compression = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    compiled = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w", compression=compression) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            name = info.filename
            if name.endswith(".py") and not info.is_dir():
                code = compile(data, f"{mount}/{name}", "exec", dont_inherit=True, optimize=2)
                data = bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), False))
                name += "c"
                compiled += 1
            out = zipfile.ZipInfo(name, date_time=info.date_time)
            out.external_attr = info.external_attr
            out.compress_type = compression
            zout.writestr(out, data)
    return compiled
