"""The local server behind `make serve`: serves site/, rebuilds when a source changes.

Sends each file with its type (sitegen.hosting's TYPES: text/javascript for .mjs, application/wasm
for .wasm, …), answers with the precompressed copy the browser accepts (.br, else .gz:
sitegen.compress) when there is one, and gzips other text responses on the fly.
"""

import functools
import gzip
import http.server
import io
import os
import threading
import time
from pathlib import Path
from typing import BinaryIO

from . import BuildError
from .compress import negotiate
from .hosting import TYPES, compressible_types, content_type
from .pipeline import ROOT, build

WATCHED = (
    "docs",
    "engine/ginrummy",
    "engine/pyproject.toml",
    "presentation/ginview",
    "presentation/pyproject.toml",
    "sitegen/templates",
    "locales",
    "tutorials",
    "mkdocs.yml",
)
COMPRESSIBLE = tuple(compressible_types())  # gzipped on the fly when there is no copy


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **{suffix: content_type(suffix) for suffix in TYPES},
    }

    def log_message(self, format: str, *args: object) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?", 1)[0].endswith("/"):
                return super().send_head()  # redirect to the slash form
            path = path / "index.html"
        if not path.is_file():
            return self.send_not_found()
        ctype = self.guess_type(str(path))
        accept = self.headers.get("Accept-Encoding", "")
        copy, encoding = negotiate(path, accept)
        body = copy.read_bytes()
        if (
            encoding is None
            and "gzip" in accept
            and ctype.startswith(COMPRESSIBLE)
            and len(body) > 512
        ):
            body, encoding = gzip.compress(body, compresslevel=6), "gzip"
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return None

    def send_not_found(self) -> io.BytesIO | BinaryIO | None:
        """The 404 page of the language the missing address is in, with the status 404."""
        page = not_found_page(Path(self.directory), self.path.lstrip("/"))
        if page is None:
            return super().send_head()
        send_not_found_page(self, page)
        return None


def send_not_found_page(handler: http.server.BaseHTTPRequestHandler, page: Path) -> None:
    """Answer a request with a 404 page: its status, its headers and (but for HEAD) the page."""
    body = page.read_bytes()
    handler.send_response(404)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    if handler.command != "HEAD":
        handler.wfile.write(body)


def not_found_page(site: Path, path: str, by_language: bool = True) -> Path | None:
    """The 404 page for a missing ``path`` (relative to the site's root): the one of the
    language folder it is in, else the root one (what most hosts serve everywhere)."""
    first = path.split("/", 1)[0]
    if by_language and first and (site / first / "404.html").is_file():
        return site / first / "404.html"
    return site / "404.html" if (site / "404.html").is_file() else None


def _snapshot(root: Path) -> dict[Path, int]:
    stamps = {}
    for name in WATCHED:
        top = root / name
        paths = [top] if top.is_file() else (top.rglob("*") if top.is_dir() else [])
        for path in paths:
            if path.is_file() and "__pycache__" not in path.parts:
                stamps[path] = path.stat().st_mtime_ns
    return stamps


def _rebuild_on_change(root: Path, site_dir: Path, strict_i18n: bool | None, site_url: str) -> None:
    seen = _snapshot(root)
    while True:
        time.sleep(1.0)
        now = _snapshot(root)
        if now == seen:
            continue
        seen = now
        print("change detected, rebuilding…", flush=True)
        try:
            build(root, site_dir, strict_i18n=strict_i18n, site_url=site_url)
        except BuildError as exc:
            print(f"error: {exc} (still serving the last good build)", flush=True)


def serve(port: int = 8000, strict_i18n: bool | None = None, root: Path = ROOT) -> None:
    site_dir = root / "site"

    handler = functools.partial(SiteHandler, directory=os.fspath(site_dir))

    # The port is taken first, so that one in use is said at once, not after a whole build.
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as error:
        raise BuildError(
            f"cannot serve on port {port}: {error.strerror or error}; choose another with --port"
        ) from None
    with server:
        # Built with its own address as site_url: the sitemap lists absolute URLs on this
        # server, which material's instant navigation needs (`make site` leaves it empty).
        site_url = f"http://127.0.0.1:{port}/"
        build(root, site_dir, strict_i18n=strict_i18n, site_url=site_url)
        watcher = threading.Thread(
            target=_rebuild_on_change, args=(root, site_dir, strict_i18n, site_url), daemon=True
        )
        watcher.start()
        print(f"serving http://127.0.0.1:{port}/ (Ctrl-C to stop)", flush=True)
        server.serve_forever()
