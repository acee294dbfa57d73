"""Fixtures for the real-browser tests: the built site served on loopback, and headless Chromium.

The site is served twice, each by its own tiny static server in a thread:
- ``root``: the site at ``/``;
- ``subpath``: the site under ``/gin/`` only (everything else is a 404), so a URL that ignores
  the base path fails instead of being quietly served from the root.

The site directory is the ``built_site`` fixture (tests/conftest.py), or ``$GIN_SITE_DIR`` when
set (handy while working on the front end against an already built ``site/``).
"""

from __future__ import annotations

import contextlib
import http.server
import io
import os
import re
import shutil
import sys
import threading
from pathlib import Path
from urllib.parse import urljoin

import pytest

from sitegen.languages import languages

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SUBPATH = "/gin/"

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".gz": "application/gzip",
}


def _handler(directory: Path, prefix: str, own_404: bool = True):
    class SiteHandler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(directory), **kwargs)

        def translate_path(self, path):
            # Serve only under the prefix: anything else maps to a path that does not exist.
            if prefix != "/":
                if not path.startswith(prefix):
                    return str(directory / ".outside-the-base-path")  # no such file: a 404
                path = "/" + path[len(prefix) :]
            return super().translate_path(path)

        def send_head(self):
            if self.path.split("?")[0].endswith("/sitemap.xml"):
                return self._send_absolute_sitemap()
            if prefix != "/" and self.path.split("?")[0] == prefix.rstrip("/"):
                self.send_response(301)
                self.send_header("Location", prefix)
                self.end_headers()
                return None
            return super().send_head()

        def _send_absolute_sitemap(self):
            """sitemap.xml with its relative URLs made absolute, as if site_url were this server.

            material's instant navigation only intercepts links listed in sitemap.xml, and it
            parses each <loc> with ``new URL(loc)``: relative entries (the site is built without
            a site_url, to work at any base path) switch instant navigation off. A host that
            deploys with site_url set serves absolute entries like these.
            """
            local = Path(self.translate_path(self.path.split("?")[0]))
            if not local.is_file():
                return super().send_head()
            url_path = self.path.split("?")[0]
            base = f"http://{self.headers['Host']}{url_path[: -len('sitemap.xml')]}"
            text = re.sub(
                r"(<loc>|href=\")(?!https?:)([^<\"]*)",
                lambda m: m.group(1) + urljoin(base, m.group(2)),
                local.read_text(encoding="utf-8"),
            )
            body = text.encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

        def send_error(self, code, message=None, explain=None):
            """A missing page: the site's 404 page of its language, as a host serves it (the
            default language's at the root), under the prefix only."""
            from sitegen.server import not_found_page, send_not_found_page

            page = not_found_page(directory, self.path[len(prefix) :], own_404)
            if code != 404 or page is None or not self.path.startswith(prefix):
                return super().send_error(code, message, explain)
            send_not_found_page(self, page)

        def end_headers(self):
            self.send_header("Cache-Control", "no-cache")
            super().end_headers()

        def log_message(self, format, *args):  # keep the test output quiet
            pass

    return SiteHandler


class QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A page closed mid-download (the browser hung up): not a server error worth printing.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(directory: Path, prefix: str = "/", own_404: bool = True):
    """Serve ``directory`` at ``http://127.0.0.1:<port><prefix>``; yields that base URL.
    own_404: a missing page gets its language's 404 page (else the root one, as most hosts)."""
    server = QuietServer(("127.0.0.1", 0), _handler(directory, prefix, own_404))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_dir(request) -> Path:
    override = os.environ.get("GIN_SITE_DIR")
    path = Path(override) if override else Path(request.getfixturevalue("built_site"))
    assert (path / "index.html").is_file(), f"no built site at {path}"
    assert (path / "assets/gin/runtime.js").is_file(), f"{path} has no assets/gin/runtime.js"
    return path


@pytest.fixture(scope="session")
def servers(site_dir):
    """{"root": base URL, "subpath": base URL}: the same site at / and under /gin/."""
    with serve(site_dir) as root, serve(site_dir, SUBPATH) as subpath:
        yield {"root": root, "subpath": subpath}


@pytest.fixture(scope="session")
def browser():
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        found = shutil.which("chromium") or shutil.which("chromium-browser")
        pytest.fail(
            f"Chromium is needed at {CHROMIUM} for the browser tests (found: {found}). "
            "Install it with: sudo apt-get install -y chromium",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class PageLog:
    """Everything a page did that a test may want to check."""

    def __init__(self):
        self.requests: list[str] = []
        self.console_errors: list[str] = []
        self.console_warnings: list[str] = []
        self.page_errors: list[str] = []

    def off_origin(self, origin: str) -> list[str]:
        return [
            url
            for url in self.requests
            if not (url.startswith(origin + "/") or url.startswith(("data:", "blob:")))
        ]


@pytest.fixture
def new_page(browser):
    """new_page() -> (page, log): a fresh context (empty cache) with requests and errors logged."""
    contexts = []

    def make():
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        log = PageLog()
        context.on("request", lambda req: log.requests.append(req.url))

        def on_console(msg):
            if msg.type == "error":
                where = (msg.location or {}).get("url")
                log.console_errors.append(f"{msg.text} [{where}]" if where else msg.text)
            elif msg.type == "warning":
                log.console_warnings.append(msg.text)

        context.on("console", on_console)
        page = context.new_page()
        page.on("pageerror", lambda err: log.page_errors.append(str(err)))
        return page, log

    yield make
    for context in contexts:
        context.close()


# ---------------------------------------------------------------------------------------------
# A site of our own for the live-example tests: every kind of example in every language, on two
# pages per language, so the tests do not depend on the content pages being written.

EXAMPLE_LANGUAGES = languages()

# Page -> the examples on it, in order (the fence bodies). The first page holds the card kinds,
# the second the scoring kinds; instant navigation goes between the two.
EXAMPLE_PAGES = {
    "index.md": [
        "kind: melds\nhand: AS 2S 3S 7H 7D 7C 9C TC JC KD",
        "kind: knock\nhand: 2S 3S 4S 7H 7D 7C 9C TC JC 5D KH",
        "kind: layoffs\nknocker_melds: [7H 7D 7C, 9C TC JC]\ndefender: 8C QC 7S 2D 3D 4D KS KH 5H 6H",
        # an undercut: the undercut bonus shows which preset is in use
        "kind: score\nknocker: 2S 3S 4S 7H 7D 7C 9C TC JC 8D\n"
        "defender: 8S 9S TS KH KD KC 4H 5H 6H AD\nrules: standard",
    ],
    "scoring.md": [
        "kind: oklahoma\nknocker: 2S 3S 4S 7H 7D 7C 9C TC JC 5D\n"
        "defender: 8S 9S TS KH KD 4H 6C 6H 2C AD\nupcard: 6S",
        "kind: sheet\nentries: [A 25, B 14, A 40]",
        "kind: hollywood\nentries: [A 25, B 14, A 40]",
    ],
}


def _example_docs(docs: Path) -> None:
    from sitegen.translations import english_digest, stamped

    for lang in EXAMPLE_LANGUAGES:
        for page, bodies in EXAMPLE_PAGES.items():
            title = "Examples" if page == "index.md" else "Scoring"
            other = "scoring.md" if page == "index.md" else "index.md"
            fences = "\n\n".join(f"```gin\n{body}\n```" for body in bodies)
            text = f"# {title} ({lang})\n\nSee [the other page]({other}).\n\n{fences}\n\nThe end.\n"
            (docs / lang / page).parent.mkdir(parents=True, exist_ok=True)
            if lang != "en":  # translated from the English page as it is: no outdated notice
                text = stamped(text, english_digest(docs, page))
            (docs / lang / page).write_text(text, encoding="utf-8")


@pytest.fixture(scope="session")
def examples_site(tmp_path_factory) -> Path:
    """A four-language site whose pages hold one example of each kind, built in-process.

    Built by sitegen.pipeline.build from a root of its own: mkdocs.yml's configuration with its
    own docs and navigation, the real engine, presentation layer and runtime (the caches are
    shared).
    """
    import yaml

    from sitegen.pipeline import build

    repo = Path(__file__).resolve().parents[2]
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # shared by all xdist workers of this run
    root, site = base / "examples-root", base / "examples-site"
    with open(base / "examples-site.lock", "w") as lock:
        import fcntl

        fcntl.flock(lock, fcntl.LOCK_EX)
        if (site / "index.html").is_file():
            return site
        shutil.rmtree(root, ignore_errors=True)
        (root / "docs").mkdir(parents=True)
        for name in (
            "engine",
            "presentation",
            "sitegen",
            "locales",
            "package.json",
            "node_modules",
            ".cache",
        ):  # no tutorials: no lessons
            if (repo / name).exists():
                (root / name).symlink_to(repo / name)
        shutil.copytree(repo / "docs" / "assets", root / "docs" / "assets")
        _example_docs(root / "docs")
        config = yaml.safe_load((repo / "mkdocs.yml").read_text(encoding="utf-8"))
        config["nav"] = [{"Home": "index.md"}, {"Scoring": "scoring.md"}]
        (root / "mkdocs.yml").write_text(
            yaml.safe_dump(config, allow_unicode=True), encoding="utf-8"
        )
        build(root, site, strict_i18n=True, log=lambda *_: None)
    return site


@pytest.fixture(scope="session")
def example_server(examples_site):
    """The examples site served at the root; yields its base URL."""
    with serve(examples_site) as base:
        yield base
