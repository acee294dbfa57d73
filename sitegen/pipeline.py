"""The whole build, in order: engine wheel, runtime, lock entry, (tutorials), MkDocs."""

import contextlib
import functools
import logging
import os
import shutil
import tempfile
import time
from pathlib import Path

from . import BuildError
from .catalogs import write_browser_catalogs
from .engine_wheel import engine_wheel
from .hooks import STRICT_ENV, strict_i18n as strict_from_env
from .runtime import (SNAPSHOT, check_npm_runtime, pinned_version, runtime_dir_name, runtime_module,
                      sri, stage_runtime)

ROOT = Path(__file__).resolve().parent.parent


class _FirstProblem(logging.Handler):
    """Remembers the first warning or error MkDocs logs, to report it as one line."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.message = None

    def emit(self, record):
        if self.message is None:
            self.message = " ".join(record.getMessage().split())


@contextlib.contextmanager
def _env(name, value):
    old = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = old


def run_mkdocs(config_file: Path, site_dir: Path, strict_i18n: bool | None = None,
               **overrides) -> None:
    """`mkdocs build --strict`, in-process. Any failure becomes a one-line BuildError.

    strict_i18n: fail on a missing translation (default: the GIN_I18N_STRICT variable).
    """
    if strict_i18n is None:
        strict_i18n = strict_from_env()
    from mkdocs import utils
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    problem = _FirstProblem()
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(problem)
    clean_directory = utils.clean_directory  # the i18n plugin patches it and may not restore it
    try:
        with _env(STRICT_ENV, "1" if strict_i18n else "0"):
            config = load_config(config_file=str(config_file), site_dir=str(site_dir), strict=True,
                                 **overrides)
            config.plugins.on_startup(command="build", dirty=False)
            try:
                build(config)
            finally:
                config.plugins.on_shutdown()
    except Exception as exc:  # noqa: BLE001 - every failure is reported as one line
        if isinstance(exc, Abort) and problem.message:
            detail = problem.message  # strict mode: the first warning or error is the cause
        else:
            detail = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
        raise BuildError(f"mkdocs build failed: {detail}") from None
    finally:
        utils.clean_directory = clean_directory
        mkdocs_log.removeHandler(problem)


def render_tutorials(root: Path, docs_dir: Path) -> None:
    """Step 4: check tutorials/*.yaml, replay every step through the engine and render each
    lesson (and the lessons index) into docs/<lang>/lessons/ with the locale catalogs.

    A malformed lesson, or a stated answer the engine does not confirm, stops the build with
    the file and the step (sitegen.tutorials.LessonError, a BuildError).
    """
    from .tutorials import render_all

    render_all(root, docs_dir)


def build(root: Path = ROOT, site_dir: Path | None = None, *, strict_i18n: bool | None = None,
          node_modules: Path | None = None, cache_dir: Path | None = None,
          site_url: str | None = None, log=functools.partial(print, flush=True)) -> Path:
    """Build the site into site_dir (default root/site). Returns site_dir.

    strict_i18n: fail on a missing translation instead of falling back to English with a
    notice (default: the GIN_I18N_STRICT environment variable).
    site_url: the address the site is served from (MkDocs' site_url), for hosts that know it:
    the sitemap then lists absolute URLs, which material's instant navigation needs. Default:
    none, so the site holds no absolute URL and works under any base path.
    """
    root = Path(root).resolve()
    site_dir = Path(site_dir or root / "site").resolve()
    pyodide_dir = Path(node_modules or root / "node_modules") / "pyodide"
    cache_dir = Path(cache_dir or root / ".cache")
    started = time.perf_counter()

    version = check_npm_runtime(pyodide_dir, pinned_version(root / "package.json"))

    # 1. engine wheel, byte-compiled by Pyodide in Node
    wheel = engine_wheel(root / "engine", pyodide_dir, version, cache_dir)
    log(f"engine wheel: {wheel.name}")

    # Build next to site_dir, then swap it in, so a server never sees a half-built site.
    new_dir = site_dir.with_name(f".{site_dir.name}.new")
    old_dir = site_dir.with_name(f".{site_dir.name}.old")
    for stale in (new_dir, old_dir):
        shutil.rmtree(stale, ignore_errors=True)
    staging = Path(tempfile.mkdtemp(prefix="gin-runtime-")) / "runtime"
    try:
        # 2. + 3. runtime files from node_modules/pyodide, wheel registered in the lock file
        stage_runtime(pyodide_dir, wheel, staging, cache_dir)
        runtime_dir = runtime_dir_name(version, staging)
        log(f"runtime: {runtime_dir}")

        # 4. tutorials and locale catalogs
        render_tutorials(root, root / "docs")

        # 5. mkdocs build --strict, all four languages
        overrides = {"site_url": site_url} if site_url else {}
        run_mkdocs(root / "mkdocs.yml", new_dir, strict_i18n=strict_i18n, **overrides)

        # Once, after the last language: the runtime and the module that points at it.
        snapshot = (SNAPSHOT, sri(staging / SNAPSHOT))
        shutil.move(str(staging), new_dir / "assets" / "runtime" / runtime_dir)
        gin_dir = new_dir / "assets" / "gin"
        gin_dir.mkdir(parents=True, exist_ok=True)
        (gin_dir / "runtime.js").write_text(runtime_module(runtime_dir, wheel.name,
                                                           snapshot=snapshot))
        write_browser_catalogs(gin_dir / "locales")
    except BaseException:
        shutil.rmtree(new_dir, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(staging.parent, ignore_errors=True)

    if site_dir.exists():
        site_dir.rename(old_dir)
    new_dir.rename(site_dir)
    shutil.rmtree(old_dir, ignore_errors=True)
    log(f"site: {site_dir} ({time.perf_counter() - started:.1f} s)")
    return site_dir
