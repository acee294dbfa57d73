"""The site offline and installable, in real headless Chromium, on the built site.

In each language: a reader visits the home page and the engine boots; the service worker keeps
the language's shell and the runtime; with the network off, two other pages of that language
open and their examples get the engine's answers. A second visit boots the engine without a
request for the runtime. A new build with a changed engine replaces the old runtime (and every
old cache) on the next visit. Each language's manifest is valid for Chromium. Nothing is fetched
from another origin.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from tests.browser.conftest import server
from tests.browser.test_engine_worker import (
    LANGUAGES,
    READY,
    home_url,
    wait_for_answer,
)
from tests.conftest import REPO

CACHED_JS = """async ([urls, root]) => {
  for (const url of urls) if (!(await caches.match(new URL(url, root).href))) return false;
  return true;
}"""


def sw_facts(site: Path) -> dict:
    """What the build wrote into sw.js: BUILD, COMMON, SHELL, RUNTIME, INTEGRITY,
    RUNTIME_CACHE."""
    text = (site / "sw.js").read_text(encoding="utf-8")
    return {
        name: json.loads(value)
        for name, value in re.findall(
            r"^const (BUILD|COMMON|SHELL|RUNTIME|INTEGRITY|RUNTIME_CACHE) = (.*);$", text, re.M
        )
    }


def pages_with_examples(site: Path, lang: str, facts: dict) -> list[str]:
    """The language's pages (site-relative URLs) holding a live example, the home page left out."""
    out = []
    for url in facts["SHELL"][lang]:
        if not url.endswith("/") or url in ("./", f"{lang}/"):
            continue
        if 'class="gin-example' in (site / url / "index.html").read_text(encoding="utf-8"):
            out.append(url)
    return out


def use_example(page, lang):
    """The page's first example is live, and the engine in the page draws it as CPython does."""
    from ginview import api as view_api

    from sitegen import catalogs

    status, example = wait_for_answer(page)
    assert status == READY[lang], f"example status: {status!r}"
    request = {"op": "render", "lang": lang, "state": json.loads(example.get_attribute("data-gin"))}
    catalogs.install_all()
    assert page.evaluate("(req) => window.ginEngine.request(req)", request) == view_api.call(
        request
    )


def wait_until(page, script, arg, timeout_s=180):  # a loaded machine caches slowly
    """Evaluate the (async) script until it is true. (wait_for_function does not await a
    promise: an async predicate would pass at once.)"""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(script, arg):
        assert time.monotonic() < deadline, f"still false after {timeout_s} s: {script}"
        page.wait_for_timeout(250)


def wait_until_kept(page, base, urls):
    """Wait until the service worker holds these URLs (relative to the site's root, base)."""
    wait_until(page, CACHED_JS, [urls, base])


def site_description(lang: str) -> str:
    """mkdocs.yml's description of the site in a language (the default's at its top level)."""
    import yaml

    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    own = next(l for l in i18n["languages"] if l["locale"] == lang).get("site_description")
    return own or config["site_description"]


@pytest.fixture(scope="module")
def facts(site_dir):
    return sw_facts(site_dir)


def test_every_language_has_a_shell_and_the_runtime_its_boot_files(site_dir, facts):
    assert re.fullmatch(r"[0-9a-f]{16}", facts["BUILD"])
    assert set(facts["SHELL"]) == set(LANGUAGES)
    runtime = re.search(
        r'RUNTIME_DIR = "\.\./runtime/([^/]+)/"', (site_dir / "assets/gin/runtime.js").read_text()
    ).group(1)
    assert facts["RUNTIME"] and all(
        p.startswith(f"assets/runtime/{runtime}/") for p in facts["RUNTIME"]
    )
    for path in facts["COMMON"] + facts["RUNTIME"]:
        assert (site_dir / path).is_file(), path
    for lang, urls in facts["SHELL"].items():
        root = "" if lang == "en" else f"{lang}/"
        assert root + "search/search_index.json" in urls and (root or "./") in urls
        assert root + "manifest.webmanifest" in urls
        others = [u for u in urls if lang == "en" and u.split("/")[0] in LANGUAGES]
        assert not others, others
        assert len(pages_with_examples(site_dir, lang, facts)) >= 2, lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_offline_after_the_first_visit(site_dir, facts, new_page, lang):
    page, log = new_page()
    with server(site_dir) as host:
        base = host.url
        page.goto(home_url(base, lang))
        use_example(page, lang)  # the engine boots and answers
        wait_until_kept(page, base, facts["COMMON"] + facts["SHELL"][lang] + facts["RUNTIME"])
        page.context.set_offline(True)
        host.clear()
        for url in pages_with_examples(site_dir, lang, facts)[:2]:
            page.goto(base + url)
            assert page.evaluate("document.documentElement.lang") == lang
            use_example(page, lang)
        page.context.set_offline(False)
        asked = host.paths()
    # Nothing reached the server: the pages and the engine came from the cache. (But the
    # browser's own update check of sw.js, which Chromium's offline emulation lets through.)
    assert [p for p in asked if p != "/sw.js"] == [], asked
    assert not log.off_origin(base.rstrip("/")), log.off_origin(base.rstrip("/"))
    assert not log.page_errors and not log.console_errors, log.page_errors + log.console_errors


BOOTED_JS = "() => performance.getEntriesByName('gin-boot').length > 0"


def idle_then(page, script):
    """The script's value once the page has been idle well past its load (a boot at idle
    would have started by then)."""
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1500)
    return page.evaluate(script)


def test_a_second_visit_boots_without_asking_for_the_runtime(site_dir, facts, new_page):
    """The first visit downloads each runtime file once; the second asks for none, and boots
    the engine by itself once the page is idle, before the reader acts; but not when the
    browser asks to save data, nor when a file of the runtime is missing from the cache."""
    page, log = new_page()
    with server(site_dir) as host:
        base = host.url
        page.goto(base)
        use_example(page, "en")
        wait_until_kept(page, base, facts["RUNTIME"])
        # the first visit asked once for each runtime file: the engine worker kept what it
        # downloaded past the service worker, and the service worker fetched only the rest
        runtime = [p for p in host.paths() if p.startswith("/assets/runtime/")]
        assert runtime and len(runtime) == len(set(runtime)), " ".join(
            sorted(p.rsplit("/", 1)[1] for p in runtime)
        )
        host.clear()
        second = page.context.new_page()
        second.goto(base + pages_with_examples(site_dir, "en", facts)[0])
        second.wait_for_function(  # no action: the mouse never moved, no key was pressed
            "() => performance.getEntriesByName('gin-ready').length > 0", timeout=60_000
        )
        use_example(second, "en")
        kept_again = [p for p in host.paths() if p.startswith("/assets/runtime/")]
        saving = page.context.new_page()  # a reader whose browser asks to save data
        saving.add_init_script(
            "Object.defineProperty(navigator.connection, 'saveData', { get: () => true })"
        )
        saving.goto(base + pages_with_examples(site_dir, "en", facts)[1])
        booted_saving = idle_then(saving, BOOTED_JS)
        stdlib = next(p for p in facts["RUNTIME"] if p.endswith("/engine_stdlib.zip"))
        page.evaluate(
            "async ([name, url]) => (await caches.open(name)).delete(url)",
            [facts["RUNTIME_CACHE"], base + stdlib],
        )
        third = page.context.new_page()
        third.goto(base + pages_with_examples(site_dir, "en", facts)[1])
        booted_alone = idle_then(third, BOOTED_JS)
        use_example(third, "en")  # pointing at it boots, the missing file from the network
        wait_until_kept(third, base, [stdlib])  # and kept again
        asked = host.paths()
    assert any(not p.startswith("/assets/runtime/") for p in asked)  # the page itself: online
    assert not kept_again, kept_again
    assert not booted_saving and not booted_alone
    # The missing file came from the network, or from the browser's HTTP cache, where the
    # server lets it keep the runtime's files (named by their digest) for a year.
    assert {p for p in asked if p.startswith("/assets/runtime/")} <= {"/" + stdlib}, asked
    assert not log.page_errors, log.page_errors


DAMAGE_JS = """async ([url, keep]) => {
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const kept = await cache.match(url);
    if (!kept) continue;
    const bytes = new Uint8Array(await kept.arrayBuffer());
    const damaged = keep < 0 ? bytes.slice(0, bytes.length >> 1) : bytes.slice(0, keep);
    await cache.put(url, new Response(damaged, { headers: kept.headers }));
  }
}"""
INTACT_JS = """async ([url, integrity]) => {
  const kept = await caches.match(url);
  if (!kept) return false;
  const digest = await crypto.subtle.digest("SHA-256", await kept.arrayBuffer());
  return "sha256-" + btoa(String.fromCharCode(...new Uint8Array(digest))) === integrity;
}"""


@pytest.mark.parametrize("damaged", ["pyodide.asm.mjs", "engine.snapshot", "pyodide.asm.wasm"])
def test_a_damaged_kept_runtime_file_is_dropped_and_fetched_again(
    site_dir, facts, new_page, damaged
):
    """A kept file of the runtime that no longer matches its integrity (truncated to half, or
    the snapshot cut to 7 bytes), whether the service worker serves it (the module scripts) or
    the engine worker reads it (the snapshot, the WebAssembly module): the engine still boots,
    online, and the intact file is kept in its place."""
    path = next(p for p in facts["RUNTIME"] if p.endswith("/" + damaged))
    page, log = new_page()
    with server(site_dir) as host:
        base = host.url
        page.goto(base)
        use_example(page, "en")
        wait_until_kept(page, base, facts["RUNTIME"])
        page.evaluate(DAMAGE_JS, [base + path, 7 if damaged == "engine.snapshot" else -1])
        assert not page.evaluate(INTACT_JS, [base + path, facts["INTEGRITY"][path]])
        second = page.context.new_page()
        second.goto(base + pages_with_examples(site_dir, "en", facts)[0])
        use_example(second, "en")  # live, as CPython draws it
        wait_until(second, INTACT_JS, [base + path, facts["INTEGRITY"][path]])
    assert not log.page_errors, log.page_errors


def test_search_results_open_offline(site_dir, facts, new_page):
    """Search links to `page/?h=word`: offline, the page kept without its query answers."""
    page, log = new_page()
    lang = "ro"
    with server(site_dir) as host:
        base = host.url
        page.goto(home_url(base, lang))
        use_example(page, lang)
        wait_until_kept(page, base, facts["SHELL"][lang])
        page.context.set_offline(True)
        target = pages_with_examples(site_dir, lang, facts)[0]
        title = page.title()
        for query in ("?h=carti", "?x=1&y=2"):
            response = page.goto(base + target + query)
            assert response.ok, query
            assert page.evaluate("document.documentElement.lang") == lang
            assert page.title() != title  # the page asked for, not the home page
            assert page.locator(".gin-example").count() > 0
        page.context.set_offline(False)
    assert not log.page_errors, log.page_errors


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_manifest_is_valid_for_chromium(site_dir, new_page, lang):
    page, _log = new_page()
    with server(site_dir) as host:
        base = host.url
        page.goto(home_url(base, lang))
        cdp = page.context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == home_url(base, lang) + "manifest.webmanifest"
    assert manifest["errors"] == [], manifest["errors"]
    data = json.loads(manifest["data"])
    assert data["lang"] == lang and data["start_url"] == "./" and data["scope"] == "./"
    from sitegen import catalogs

    assert data["name"] == catalogs.load(lang).text("app.name")
    assert data["short_name"] == catalogs.load(lang).text("app.short_name")
    assert data["description"] == site_description(lang)
    for icon in data["icons"]:  # every icon is there, of its size
        path = (site_dir / ("" if lang == "en" else f"{lang}/") / icon["src"]).resolve()
        head = path.read_bytes()[:24]
        if icon["type"] == "image/png":
            size = int.from_bytes(head[16:20], "big")
            assert head[:8] == b"\x89PNG\r\n\x1a\n" and icon["sizes"] == f"{size}x{size}"
        else:
            assert head.startswith(b"<svg")
    assert {"192x192", "512x512"} <= {i["sizes"] for i in data["icons"] if i["purpose"] == "any"}


# --- a new build -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def changed_engine_site(examples_site, tmp_path_factory):
    """The examples site built again with a changed engine (one more module-level name): a new
    wheel, so a new snapshot and a new runtime folder. (Brotli at a low quality: only the build
    time changes.)"""
    from sitegen.pipeline import build

    base = tmp_path_factory.mktemp("changed")
    root = base / "root"
    shutil.copytree(examples_site.parent / "examples-root", root, symlinks=True)
    (root / "engine").unlink()
    shutil.copytree(
        REPO / "engine",
        root / "engine",
        ignore=shutil.ignore_patterns("*.egg-info", "__pycache__", "build"),
    )
    init = root / "engine/ginrummy/__init__.py"
    init.write_text(init.read_text() + "\nCHANGED_FOR_A_TEST = True\n")
    site = base / "site"
    build(root, site, strict_i18n=True, brotli_quality=1, log=lambda *_: None)
    return site


def test_a_new_build_replaces_the_old_runtime_on_the_next_visit(
    examples_site, changed_engine_site, new_page
):
    old, new = sw_facts(examples_site), sw_facts(changed_engine_site)
    assert old["BUILD"] != new["BUILD"] and old["RUNTIME"] != new["RUNTIME"]
    page, log = new_page()
    with server(examples_site) as host:
        base = host.url
        page.goto(base)
        use_example(page, "en")
        wait_until_kept(page, base, old["RUNTIME"])
        host.serve(changed_engine_site)  # the host now serves the new build
        host.clear()
        page.goto(base)
        use_example(page, "en")
        wait_until_kept(page, base, new["RUNTIME"])
        wait_until(
            page,
            """async ([build, runtime]) => {
            const names = await caches.keys();
            return names.includes(`gin-${build}-shell-en`) && names.includes(runtime)
                && names.every((name) => name.startsWith(`gin-${build}-`) || name === runtime);
        }""",
            [new["BUILD"], new["RUNTIME_CACHE"]],
        )
        names = page.evaluate("caches.keys()")
        old_runtime = page.evaluate(
            CACHED_JS.replace("return true", "return 'all'").replace(
                "return false", "return 'missing'"
            ),
            [old["RUNTIME"][:1], base],
        )
        asked = host.paths()
    assert new["RUNTIME_CACHE"] in names and f"gin-{new['BUILD']}-shell-en" in names
    assert old["RUNTIME_CACHE"] not in names
    assert old_runtime == "missing"  # the old runtime is gone from every cache
    new_dir = new["RUNTIME"][0].rsplit("/", 1)[0]
    assert [p for p in asked if p.startswith("/" + new_dir)]  # the new engine was fetched
    assert not log.page_errors, log.page_errors
