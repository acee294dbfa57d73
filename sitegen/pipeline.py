"""`python -m sitegen build`: `mkdocs build` (with the gin plugin, configured in mkdocs.yml),
made atomic and reported in one line.

The build is reproducible: the same files give the same site, byte for byte, in any folder and
on any day. Its one date (the sitemaps' lastmod) is SOURCE_DATE_EPOCH, by default the time of
the checkout's last commit; the wheels and the engine's snapshot are made without clock or
randomness (wheels.py, in_pyodide.mjs).

The site is built next to its folder and swapped in whole, so a server never sees half a site
and a failed build keeps the last good one. Any failure is one line: the first warning or error
MkDocs logged (the build is strict), or the plugin's own message with the file and the line.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from . import BuildError

print_flushed = functools.partial(print, flush=True)

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (
    "docs",
    "tutorials",
    "locales",
    "engine",
    "presentation",
    "sitegen",
    "tests",
    "bench",
    ".git",
    ".venv",
    "node_modules",
    ".cache",
)
"""The project's folders the build reads (or keeps its tools and cache in): never its output."""
FILES = ".gin-site-files"
"""The list of the files a build wrote, kept in the site: only a folder whose every file is on
it (or an empty one, or a new one) is replaced by the next build."""


class _FirstProblem(logging.Handler):
    """Remembers the first warning or error MkDocs logs, to report it as one line."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.message: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        text = " ".join(record.getMessage().split())
        if self.message is None:
            self.message = text
        elif self.message.endswith(":"):  # "Error reading page 'x.md':", then the cause
            self.message = f"{self.message} {text}"


@contextlib.contextmanager
def source_date_epoch(root: Path) -> Iterator[None]:
    """Within: SOURCE_DATE_EPOCH is set, to the environment's value, else to the time of the
    last commit of root's checkout (left unset outside a git checkout)."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        yield
        return
    try:
        stamp = subprocess.run(
            ["git", "log", "-1", "--format=%ct"],
            cwd=root,
            text=True,
            capture_output=True,
            timeout=30,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        stamp = ""
    if not stamp.isdigit():
        yield
        return
    os.environ["SOURCE_DATE_EPOCH"] = stamp
    try:
        yield
    finally:
        os.environ.pop("SOURCE_DATE_EPOCH", None)


def run_mkdocs(
    config_file: Path,
    site_dir: Path,
    gin: Mapping[str, object] | None = None,
    **overrides: str,
) -> None:
    """`mkdocs build --strict`, in-process. Any failure becomes a one-line BuildError.

    gin: settings of the gin plugin to use instead of mkdocs.yml's (``strict_i18n``,
    ``runtime``, ``node_modules``, ``cache_dir``); overrides: MkDocs' own settings (texts:
    ``site_url``, ``docs_dir``).
    """
    from mkdocs import utils
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    problem = _FirstProblem()
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(problem)
    clean_directory = utils.clean_directory  # the i18n plugin patches it and may not restore it
    try:
        config = load_config(
            config_file=str(config_file), site_dir=str(site_dir), strict=True, **overrides
        )
        for name, value in (gin or {}).items():
            if value is not None:
                setattr(
                    config.plugins["gin"].config,
                    name,
                    str(Path(value).resolve()) if isinstance(value, Path) else value,
                )
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()
    except Exception as exc:
        if isinstance(exc, Abort) and problem.message:
            detail = problem.message  # strict mode: the first warning or error is the cause
        else:
            detail = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
        raise BuildError(f"mkdocs build failed: {detail}") from None
    finally:
        utils.clean_directory = clean_directory
        mkdocs_log.removeHandler(problem)


def build(
    root: Path = ROOT,
    site_dir: Path | None = None,
    *,
    site_url: str | None = None,
    log: Callable[[str], object] = print_flushed,
    **gin: object,
) -> Path:
    """Build the site into site_dir (default root/site). Returns site_dir.

    gin: the gin plugin's settings to use instead of mkdocs.yml's: ``strict_i18n`` (fail on a
    missing translation instead of falling back to English with a notice), ``runtime``,
    ``node_modules``, ``cache_dir`` (paths as Path).
    site_url: the address the site is served from (MkDocs' site_url), for hosts that know it:
    the sitemap then lists absolute URLs, which material's instant navigation needs. Default:
    none, so the site holds no absolute URL and works under any base path.
    """
    root = Path(root).resolve()
    site_dir = Path(site_dir or root / "site").resolve()
    check_site_dir(root, site_dir)
    started = time.perf_counter()
    new_dir = site_dir.with_name(f".{site_dir.name}.new")
    old_dir = site_dir.with_name(f".{site_dir.name}.old")
    for stale in (new_dir, old_dir):
        shutil.rmtree(stale, ignore_errors=True)
    try:
        overrides = {"site_url": site_url} if site_url else {}
        with source_date_epoch(root):
            run_mkdocs(root / "mkdocs.yml", new_dir, gin, **overrides)
        record_files(new_dir)
    except BaseException:
        shutil.rmtree(new_dir, ignore_errors=True)
        raise
    if site_dir.exists():
        site_dir.rename(old_dir)
    new_dir.rename(site_dir)
    shutil.rmtree(old_dir, ignore_errors=True)
    log(f"site: {site_dir} ({time.perf_counter() - started:.1f} s)")
    return site_dir


def check_site_dir(root: Path, site_dir: Path) -> None:
    """Refuse an output folder the build must not replace: the project's root or a folder
    holding it, a source folder or one inside it, a file, or a folder holding a file the build
    did not write (see :data:`FILES`). Both paths are resolved."""
    shown = _shown(root, site_dir)
    if site_dir == root or site_dir in root.parents:
        raise BuildError(f"--site-dir {shown}: it holds the project itself: choose a new folder")
    for name in SOURCES:
        source = root / name
        if site_dir == source or source in site_dir.parents:
            raise BuildError(
                f"--site-dir {shown}: it is in the source folder {name}/: choose another folder"
            )
    if site_dir.exists() and not site_dir.is_dir():
        raise BuildError(f"--site-dir {shown}: it is a file: choose a folder")
    foreign = sorted(set(_files(site_dir)) - set(_recorded(site_dir))) if site_dir.is_dir() else []
    if foreign:
        raise BuildError(
            f"--site-dir {shown}: it holds files the build did not write ({foreign[0]}"
            f"{f' and {len(foreign) - 1} more' if len(foreign) > 1 else ''}): the build "
            "replaces the whole folder, so choose an empty or a new one"
        )


def record_files(site_dir: Path) -> None:
    """Write the list of the site's files (:data:`FILES`) into it."""
    listed = sorted([*_files(site_dir), FILES])
    (site_dir / FILES).write_text("".join(f"{name}\n" for name in listed), encoding="utf-8")


def _files(folder: Path) -> list[str]:
    return [p.relative_to(folder).as_posix() for p in folder.rglob("*") if not p.is_dir()]


def _recorded(site_dir: Path) -> list[str]:
    """The files a build recorded in ``site_dir``. A site built before the build recorded them
    holds its runtime module: all its files are the build's."""
    listed = site_dir / FILES
    if listed.is_file():
        return listed.read_text(encoding="utf-8").splitlines()
    if (site_dir / "assets/gin/runtime.js").is_file() and (site_dir / "404.html").is_file():
        return _files(site_dir)
    return []


def _shown(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
