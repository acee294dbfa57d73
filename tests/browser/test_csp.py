"""The strict Content-Security-Policy, in real Chromium: every kind of page, in every language,
with the engine booted, an example edited, a lesson answered, search used and instant
navigation followed, reports no violation."""

from __future__ import annotations

import pytest

from sitegen.languages import languages

LANGUAGES = list(languages())
WATCH = """window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) =>
    window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"""
TIMEOUT = 30000


def violations(page) -> list[str]:
    return page.evaluate("window.__cspViolations || []")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_breaks_the_policy(servers, new_page, lang):
    page, log = new_page()
    page.context.add_init_script(WATCH)
    base = servers["subpath"] + ("" if lang == "en" else f"{lang}/")

    # A rules page: the engine boots, an example is edited through the picker.
    page.goto(base + "rules/melds/")
    policy = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    example = page.locator(".gin-example:not(.gin-static-example)").first
    example.hover()
    page.wait_for_function(
        "() => document.querySelector('.gin-example[data-gin-ready]')", timeout=TIMEOUT
    )
    before = example.get_attribute("data-gin-answered")
    example.locator(".gin-inputs button[data-field]").first.click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(b) => document.querySelector('.gin-example').dataset.ginAnswered !== (b ?? undefined)"
        " || document.querySelector('.gin-example .gin-status.gin-error')",
        arg=before,
        timeout=TIMEOUT,
    )
    # Search.
    page.locator(".md-search__input").click()
    page.keyboard.type("gin", delay=20)
    page.wait_for_selector(".md-search-result__item", timeout=TIMEOUT)
    page.keyboard.press("Escape")
    assert violations(page) == []

    # A lesson: an answer judged by the worker; the lessons index.
    page.goto(base + "lessons/03-deadwood/")
    page.wait_for_selector(".gin-lesson[data-gin-lesson-ready]")
    page.fill("#step-count input.gin-number", "10")
    page.press("#step-count input.gin-number", "Enter")
    page.wait_for_selector('#step-count[data-feedback="right"]', timeout=TIMEOUT)
    page.goto(base + "lessons/")
    page.wait_for_selector(".gin-lesson-index[data-gin-lesson-ready]")
    assert violations(page) == []

    # The play page: a game dealt and a move played.
    page.goto(base + "play/#seed=3&rules=standard&level=beginner")
    page.wait_for_selector(".gin-play[data-gin-answers]", timeout=TIMEOUT)
    page.locator(".gin-play-view button[data-move]").first.click()
    page.wait_for_selector('.gin-play[data-gin-answers="2"]', timeout=TIMEOUT)
    assert violations(page) == []

    # A score sheet page, a whole hand, and a missing page.
    page.goto(base + "scoring/game/")
    page.wait_for_selector(".gin-example[data-gin-live]")
    page.goto(base + "rules/whole-hand/")
    page.goto(base + "no/such/page/")
    page.wait_for_selector("h1")
    assert violations(page) == []
    assert not [e for e in log.console_errors if "Content Security Policy" in e], log.console_errors
    assert not log.page_errors, log.page_errors


def test_instant_navigation_runs_under_the_first_pages_policy(browser, site_dir):
    """Instant navigation (a site built with its URL) runs each new page's inline scripts
    under the policy of the page first loaded: they are all allowed."""
    from tests.browser.conftest import serve

    context = browser.new_context()
    context.add_init_script(WATCH)
    try:
        page = context.new_page()
        with serve(site_dir) as base:  # conftest's server makes the sitemap absolute
            with page.expect_response(lambda r: r.url.endswith("/ro/sitemap.xml")):
                page.goto(base + "ro/")  # material reads the sitemap: instant navigation is on
            page.evaluate("window.__same = true")
            for target in ("rules/melds/", "scoring/hand/", "lessons/"):
                page.locator(f'.md-nav__link[href$="{target}"]').first.evaluate("(a) => a.click()")
                page.wait_for_url(f"**/ro/{target}")
                page.wait_for_function(  # the new page is in: its navigation marks it
                    "(t) => [...document.querySelectorAll('a.md-nav__link--active')]"
                    ".some((a) => a.href.endsWith(t))",
                    arg=target,
                )
            assert page.evaluate("window.__same") is True
            assert violations(page) == []
    finally:
        context.close()
