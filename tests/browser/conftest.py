"""Fixtures for the real-browser tests: the built site served on loopback by nginx, with the
configuration the README recommends (sitegen/hosting.py), and headless Chromium.

Every server of these tests is started by :func:`server` (or :func:`serve`, its address only):
nginx, serving a site at a base path: the precompressed copies, the types, the cache rules, the
Content-Security-Policy header and the 404 page of each language, as a host serves it; or
(precompressed=False) compressing on the fly, as a host without precompression support does.
The ``servers`` fixture serves the site twice:
- ``root``: the site at ``/``;
- ``subpath``: the site under ``/gin/`` only (everything else is a 404), so a URL that ignores
  the base path fails instead of being quietly served from the root.

The site directory is the ``built_site`` fixture (tests/conftest.py: ``$GIN_SITE_DIR`` when set,
handy while working on the front end against an already built ``site/``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

import pytest

from sitegen.hosting import Nginx
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

# Each sitemap.xml with its relative URLs made absolute (nginx's sub_filter), as if the site
# had been built with this server's address as its site_url: material's instant navigation only
# intercepts links listed in sitemap.xml, and it parses each <loc> with `new URL(loc)`, so the
# relative entries of a site built for any base path switch it off. A host that deploys with
# site_url set serves absolute entries like these; the tests use instant navigation throughout.
ABSOLUTE_SITEMAP = r"""
        location ~ ^{prefix}(?<gin_dir>(?:[^/]+/)*)sitemap\.xml$ {
            alias {site}/${gin_dir}sitemap.xml;
            types { application/xml xml; }
            add_header Cache-Control "no-cache";
            sub_filter_types application/xml;
            sub_filter_once off;
            sub_filter "<loc>" "<loc>http://$http_host{prefix}$gin_dir";
            sub_filter 'href="' 'href="http://$http_host{prefix}$gin_dir';
        }"""


@contextlib.contextmanager
def server(directory: Path, prefix: str = "/", own_404: bool = True, precompressed: bool = True):
    """nginx serving ``directory`` at ``http://127.0.0.1:<port><prefix>``; yields the
    :class:`sitegen.hosting.Nginx` (``.url``, ``.requests()``, ``.serve(another_site)``).
    own_404: a missing page gets its language's 404 page (else the root one, as most hosts)."""
    extra = ABSOLUTE_SITEMAP.replace("{prefix}", prefix)
    with Nginx(directory, prefix, extra, own_404=own_404, precompressed=precompressed) as running:
        yield running


@contextlib.contextmanager
def serve(directory: Path, prefix: str = "/", own_404: bool = True, precompressed: bool = True):
    """:func:`server`, yielding the site's base URL."""
    with server(directory, prefix, own_404, precompressed) as running:
        yield running.url


@pytest.fixture(scope="session")
def site_dir(built_site) -> Path:
    return built_site


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
