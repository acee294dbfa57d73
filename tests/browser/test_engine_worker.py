"""The engine in a Web Worker, in real headless Chromium, on the built site.

For each language, at the site root and under a sub-path: the home page's live example boots
Pyodide in the worker, and the engine there answers like CPython; no
request leaves the origin; nothing is logged as a console error. With .wasm blocked, without
WebAssembly or Worker, or without the worker script, the example shows the localized failure
message and nothing is thrown. A snapshot that does not match its integrity is refused. Pages
without examples never download the runtime, nor do pages whose reader has not yet scrolled to,
pointed at, or typed into one. Instant navigation keeps the example working, mounted once.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from urllib.parse import urlsplit

import pytest
from ginrummy.api import handle
from ginview import api as view_api

from sitegen import catalogs
from sitegen.languages import languages
from tests.browser.conftest import serve
from tests.conftest import site_runtime_dir

LANGUAGES = list(languages())
BOOT_TIMEOUT_MS = 30000
EXAMPLE = ".gin-example"  # the home page's live example (a scored hand)


def catalog_text(lang: str, key: str) -> str:
    return catalogs.load(lang).text(key)


READY = {lang: catalog_text(lang, "ui.ready_cards") for lang in LANGUAGES}
FAILED = {lang: catalog_text(lang, "ui.failed") for lang in LANGUAGES}


def home_url(base: str, lang: str) -> str:
    return base if lang == "en" else f"{base}{lang}/"


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def gin_workers(page):
    return [w for w in page.workers if urlsplit(w.url).path.endswith("/assets/gin/worker.js")]


def wait_for_answer(page):
    """Point at the first example (which boots the engine) and wait until it is live or has
    given up; return (its status text, the example)."""
    # (Examples of a page left by instant navigation are marked stale: wait for the new page's.)
    page.wait_for_selector(f"{EXAMPLE}[data-gin-mounted]:not([data-stale])")
    example = page.locator(f"{EXAMPLE}:not([data-stale])").first
    example.hover()  # the reader points at it: that boots the engine
    page.wait_for_function(
        """([ready, failed]) => {
            const status = document.querySelector(".gin-example:not([data-stale]) .gin-status");
            return status && (status.textContent === ready || status.textContent === failed);
        }""",
        arg=[
            READY[page.evaluate("document.documentElement.lang")],
            FAILED[page.evaluate("document.documentElement.lang")],
        ],
        timeout=BOOT_TIMEOUT_MS,
    )
    return example.locator(".gin-status").inner_text(), example


def mark_stale(page):
    page.evaluate(
        "document.querySelectorAll('.gin-example').forEach((e) => { e.dataset.stale = ''; })"
    )


def check_answer(page, lang):
    """The example is live, and the worker in the page draws it exactly as CPython does."""
    status, example = wait_for_answer(page)
    assert status == READY[lang], f"example status: {status!r}"
    request = {"op": "render", "lang": lang, "state": json.loads(example.get_attribute("data-gin"))}
    from_page = page.evaluate("(req) => window.ginEngine.request(req)", request)
    catalogs.install_all()
    assert from_page == view_api.call(request)
    assert from_page["result"]["summary"] in example.locator(".gin-headline").inner_text()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("where", ["root", "subpath"])
def test_home_example_gets_the_engines_answer(servers, new_page, where, lang):
    page, log = new_page()
    url = home_url(servers[where], lang)
    page.goto(url)
    assert page.evaluate("document.documentElement.lang") == lang
    check_answer(page, lang)

    # Booted in a worker, exactly one for the page (material has a search worker of its own).
    assert len(gin_workers(page)) == 1, [w.url for w in page.workers]
    boot = page.evaluate("window.ginEngine.ready")
    assert boot["ms"] > 0

    # The runtime and the engine's snapshot came from the site itself, and nothing left the origin.
    origin = origin_of(url)
    assert not log.off_origin(origin), log.off_origin(origin)
    assert any(u.endswith("/pyodide.asm.wasm") for u in log.requests)
    assert any(u.endswith("/engine.snapshot") for u in log.requests)
    if where == "subpath":
        assert all(urlsplit(u).path.startswith("/gin/") for u in log.requests), log.requests
    assert not log.page_errors, log.page_errors
    assert not log.console_errors, log.console_errors


def test_a_page_without_examples_never_loads_the_runtime(servers, new_page):
    """The worker starts when the page is idle, but Pyodide boots only for examples."""
    page, log = new_page()
    with page.expect_worker(lambda w: urlsplit(w.url).path.endswith("/assets/gin/worker.js")):
        page.goto(servers["root"] + "history/")
    assert page.locator("[data-gin]").count() == 0
    page.keyboard.press("Tab")  # a first interaction: still nothing to boot for
    page.mouse.click(5, 300)
    page.wait_for_timeout(1000)  # give a wrong boot the time to show up in the requests
    assert not [u for u in log.requests if "/assets/runtime/" in u], log.requests
    assert not log.page_errors and not log.console_errors, (log.page_errors, log.console_errors)


RUNTIME_REQUESTS = "/assets/runtime/"


def test_reading_the_first_screen_downloads_no_runtime(servers, new_page):
    """An example in view stays as pre-rendered until the reader acts: pointing at it boots."""
    page, log = new_page()
    page.goto(servers["root"])  # the home page: an example within the first screen's reach
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1500)  # idle well past the load: a boot would have started by now
    assert not [u for u in log.requests if RUNTIME_REQUESTS in u], log.requests
    assert page.locator(".gin-example .gin-output .gin-card").count() > 0  # complete meanwhile
    status, _ = wait_for_answer(page)  # it hovers the example
    assert status == READY["en"]


@pytest.mark.parametrize("how", ["scroll", "key", "shared link"])
def test_what_boots_the_engine(servers, new_page, how):
    page, log = new_page()
    url = servers["root"] + "rules/cards-and-deal/"  # its only example is far below the fold
    page.goto(url)
    page.wait_for_load_state("networkidle")
    if how == "scroll":
        page.wait_for_timeout(500)
        assert not [u for u in log.requests if RUNTIME_REQUESTS in u]
        page.evaluate("document.querySelector('.gin-example').scrollIntoView()")
    elif how == "key":
        page.keyboard.press("Shift")
    else:
        state = json.loads(page.locator(".gin-example").first.get_attribute("data-gin"))
        page.goto(url + "#gin-1=" + json.dumps(state).replace(" ", ""))
    page.wait_for_function(
        "() => document.querySelector('.gin-example[data-gin-ready]')", timeout=BOOT_TIMEOUT_MS
    )
    assert [u for u in log.requests if u.endswith("/engine.snapshot")]


def test_engine_api_from_the_page(servers, new_page):
    """window.ginEngine.request() passes engine requests through, answered like CPython, for
    good and bad input."""
    page, log = new_page()
    page.goto(servers["root"])
    wait_for_answer(page)
    for engine_request in [
        {"op": "version"},
        {"op": "melds", "cards": "4S 6S KS KH 4D 5D 6D 4C 5C 6C KC"},
        {"op": "melds", "cards": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS"},
        {"op": "melds", "cards": "AS AS 3S"},
        {"op": "no_such_op"},
    ]:
        request = {"op": "engine", "request": engine_request}
        from_page = page.evaluate(
            """async (req) => {
                try { return {response: await window.ginEngine.request(req)}; }
                catch (e) { return {error: String(e.message || e)}; }
            }""",
            request,
        )
        try:
            expected = {
                "response": {
                    "v": 1,
                    "ok": True,
                    "result": json.loads(handle(json.dumps(engine_request))),
                }
            }
        except Exception as exc:  # the API raised: the page must get an error, not an answer
            assert "error" in from_page and type(exc).__name__ in from_page["error"], from_page
            continue
        assert from_page == expected, request
    assert not log.page_errors, log.page_errors


def test_wasm_served_under_another_type_still_boots(servers, new_page):
    """A static host that serves pyodide.asm.wasm as application/octet-stream (WebAssembly
    cannot be compiled as it streams then): the worker compiles it from its bytes."""
    page, log = new_page()

    def octet_stream(route):
        response = route.fetch()
        headers = {**response.headers, "content-type": "application/octet-stream"}
        route.fulfill(response=response, headers=headers)

    page.context.route(re.compile(r".*/pyodide\.asm\.wasm(\?.*)?$"), octet_stream)
    page.goto(home_url(servers["root"], "en"))
    status, _ = wait_for_answer(page)
    assert status == READY["en"]
    assert not log.page_errors and not log.console_errors, log.page_errors + log.console_errors


@pytest.mark.parametrize("lang", LANGUAGES)
def test_blocked_wasm_shows_the_failure_message(servers, new_page, lang):
    page, log = new_page()
    page.context.route(re.compile(r".*\.wasm(\?.*)?$"), lambda route: route.abort())
    content_before = None
    page.goto(home_url(servers["root"], lang))
    content_before = page.locator("h1").first.inner_text()
    status, example = wait_for_answer(page)
    assert status == FAILED[lang]
    assert example.get_attribute("data-gin-failed") is not None
    # The pre-rendered result is all still there.
    assert example.locator(".gin-headline").inner_text()
    assert example.locator(".gin-steps li").count() >= 4
    # The page is intact: its content is still there, and nothing was thrown.
    assert page.locator("h1").first.inner_text() == content_before
    assert not log.page_errors, log.page_errors
    # The only console errors allowed are the browser's own notes about the blocked download.
    ours = [e for e in log.console_errors if not e.startswith("Failed to load resource")]
    assert not ours, ours
    # request() rejects rather than hanging.
    outcome = page.evaluate(
        "window.ginEngine.request({op: 'engine', request: {op: 'version'}}).then(() => 'answered', e => 'rejected')"
    )
    assert outcome == "rejected"


@pytest.mark.parametrize("fault", ["no-webassembly", "no-worker", "worker-missing"])
def test_other_faults_show_the_failure_message(servers, new_page, fault):
    """No WebAssembly, no Worker, or the worker script missing: the message, and no error."""
    page, log = new_page()
    if fault == "no-webassembly":
        page.add_init_script("delete globalThis.WebAssembly")
    elif fault == "no-worker":
        page.add_init_script("delete globalThis.Worker")
    else:
        page.context.route(
            re.compile(r".*/assets/gin/worker\.js$"),
            lambda route: route.fulfill(status=404, body="not found"),
        )
    page.goto(home_url(servers["root"], "it"))
    status, _ = wait_for_answer(page)
    assert status == FAILED["it"]
    assert not log.page_errors, log.page_errors
    ours = [e for e in log.console_errors if not e.startswith("Failed to load resource")]
    assert not ours, ours
    if fault != "worker-missing":
        assert not any("/assets/runtime/" in u for u in log.requests), "the runtime was fetched"


def test_a_tampered_snapshot_is_refused(site_dir, new_page, tmp_path):
    """The worker fetches the engine's snapshot with runtime.js's SNAPSHOT_INTEGRITY.

    A copy of the site (hard links) whose snapshot has one byte changed, same length: only
    the digest can tell, and the example must show the failure message, not a wrong engine.
    """
    site = tmp_path / "site"
    shutil.copytree(site_dir, site, copy_function=os.link)
    snapshot = site_runtime_dir(site) / "engine.snapshot"
    data = bytearray(snapshot.read_bytes())
    data[len(data) // 2] ^= 0xFF
    for suffix in ("", ".gz", ".br"):  # its precompressed copies too: a host would send them
        # a hard link: never write through it into the real site
        snapshot.with_name(snapshot.name + suffix).unlink(missing_ok=True)
    snapshot.write_bytes(bytes(data))
    page, log = new_page()
    with serve(site) as base:
        page.goto(base)
        status, _ = wait_for_answer(page)
    assert status == FAILED["en"]
    assert any(
        "engine.snapshot (or it failed its integrity check)" in w for w in log.console_warnings
    ), log.console_warnings
    assert not log.page_errors, log.page_errors


def _click_nav_link(page, to_home: bool, home_path: str):
    """Click a link in material's tabs or navigation: to the home page, or to another page."""
    index = page.evaluate(
        """([toHome, homePath]) => {
            const links = [...document.querySelectorAll(".md-tabs__link, .md-nav__link[href]")];
            return links.findIndex((a) => {
                if (!a.href || a.offsetParent === null) return false;
                const to = new URL(a.href);
                if (to.origin !== location.origin || to.hash) return false;
                return toHome ? to.pathname === homePath
                              : to.pathname !== homePath && to.pathname !== location.pathname;
            });
        }""",
        [to_home, home_path],
    )
    assert index >= 0, "no such link in the navigation"
    page.locator(".md-tabs__link, .md-nav__link[href]").nth(index).click()


@pytest.mark.parametrize("where", ["root", "subpath"])
def test_instant_navigation_keeps_the_example_working(servers, new_page, where):
    page, log = new_page()
    home = servers[where]
    home_path = urlsplit(home).path
    page.goto(home)
    check_answer(page, "en")
    assert page.evaluate("typeof window.document$ === 'object'"), "material's document$ is missing"
    page.evaluate("window.__sameDocument = true")

    # To another page (the rules) and back, by clicking navigation links: no full reload.
    _click_nav_link(page, False, home_path)
    page.wait_for_url(lambda url: urlsplit(url).path != home_path)
    page.wait_for_selector("article h1")
    assert page.evaluate("window.__sameDocument") is True, "instant navigation is not on"
    # The language switcher follows: it offers this page, not the one first loaded (once the
    # new page is in: the old page's h1 may still be there when the address has changed).
    path = urlsplit(page.url).path
    page.wait_for_function(
        """(page) => [...document.querySelectorAll(".md-select__link[hreflang]")]
            .every((a) => new URL(a.href).pathname.endsWith(page))""",
        arg=path[len(home_path) :],
    )
    switcher = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        ".md-select__link[hreflang]")].map((a) => [a.getAttribute("hreflang"), new URL(a.href).pathname]))""")
    assert switcher == {
        lang: home_path + ("" if lang == "en" else f"{lang}/") + path[len(home_path) :]
        for lang in LANGUAGES
    }, switcher
    # Any example on that page is mounted once too.
    for example in page.locator(EXAMPLE).all():
        assert example.locator(".gin-tools").count() <= 1

    mark_stale(page)
    _click_nav_link(page, True, home_path)
    page.wait_for_url(lambda url: urlsplit(url).path == home_path)
    page.wait_for_selector(".gin-example[data-gin-mounted]")
    assert page.evaluate("window.__sameDocument") is True, "instant navigation is not on"
    check_answer(page, "en")
    # Mounted once: one set of controls, and still the single worker of this page.
    assert page.locator(".gin-example .gin-tools").count() == 1
    assert len(gin_workers(page)) == 1, [w.url for w in page.workers]

    # And back through the browser's history (popstate, also handled instantly).
    mark_stale(page)
    page.go_back()
    page.wait_for_url(lambda url: urlsplit(url).path != home_path)
    mark_stale(page)
    page.go_forward()
    page.wait_for_url(lambda url: urlsplit(url).path == home_path)
    check_answer(page, "en")
    assert page.evaluate("window.__sameDocument") is True
    assert page.locator(".gin-example .gin-tools").count() == 1
    assert len(gin_workers(page)) == 1

    origin = origin_of(home)
    assert not log.off_origin(origin), log.off_origin(origin)
    assert not log.page_errors, log.page_errors
    assert not log.console_errors, log.console_errors
