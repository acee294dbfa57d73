"""An accessibility audit with axe-core (pinned in package.json) in headless Chromium.

Every page of the built site, in every language, is audited against WCAG 2.2 A and AA, as the
reader first meets it (light scheme), and the English pages and each home page again in the dark
scheme. Then the states a reader brings about: a live example with its card picker open and a
card changed, a lesson with feedback on a wrong answer, a search with results, the 404 page.
No violation of impact "serious" or "critical" is allowed; the failure lists each one with the
elements it found, so the fix starts from the message.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitegen.languages import languages
from tests.browser.test_examples import point_at_an_example
from tests.browser.test_search import search

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules/axe-core/axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
BLOCKING = ("serious", "critical")
LANGUAGES = list(languages())
TIMEOUT_MS = 60000

RUN = """async (tags) => (await axe.run(document, {runOnly: {type: "tag", values: tags}}))
    .violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " :: " +
            ((n.any[0] || n.all[0] || n.none[0] || {}).message || ""))}))"""


def site_pages(site_dir: Path) -> list[str]:
    """Every page of the site as a path under the base URL ("" for the home page)."""
    pages = []
    for index in sorted(site_dir.rglob("index.html")):
        rel = index.parent.relative_to(site_dir).as_posix()
        if not rel.startswith("assets") and "/assets/" not in f"/{rel}/":
            pages.append("" if rel == "." else rel + "/")
    return pages


@pytest.fixture(scope="module")
def axe_source() -> str:
    assert AXE.is_file(), f"axe-core is missing at {AXE}: run npm ci (make test does)"
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def audit(browser, axe_source):
    """audit(page) -> blocking violations on the page as it is now."""

    def run(page) -> list[dict]:
        if not page.evaluate("() => typeof axe !== 'undefined'"):
            page.add_script_tag(content=axe_source)
        found = page.evaluate(RUN, TAGS)
        return [v for v in found if v["impact"] in BLOCKING]

    return run


def tab(browser, scheme: str = "light"):
    # The audit's script is added to the page: the page's own Content-Security-Policy (tested in
    # test_csp.py) would refuse it.
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, bypass_csp=True, color_scheme=scheme
    )
    return context, context.new_page()


def report(where: str, violations: list[dict]) -> str:
    return f"{where}:\n" + "\n".join(
        json.dumps(v, ensure_ascii=False, indent=1) for v in violations
    )


def audit_pages(browser, audit, base: str, pages: list[str], scheme: str):
    context, page = tab(browser, scheme)
    failures = []
    try:
        for path in pages:
            page.goto(base + path)
            page.wait_for_load_state("load")
            found = audit(page)
            if found:
                failures.append(report(f"/{path} ({scheme})", found))
    finally:
        context.close()
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_in_the_light_scheme(browser, servers, site_dir, audit, lang):
    pages = [
        p
        for p in site_pages(site_dir)
        if (p.split("/")[0] == lang) == (lang != "en")
        and (lang != "en" or p.split("/")[0] not in LANGUAGES)
    ]
    assert len(pages) > 20, pages
    audit_pages(browser, audit, servers["root"], pages, "light")


def test_english_pages_and_every_home_page_in_the_dark_scheme(browser, servers, site_dir, audit):
    pages = [p for p in site_pages(site_dir) if p.split("/")[0] not in LANGUAGES]
    audit_pages(
        browser, audit, servers["root"], pages + [f"{lang}/" for lang in LANGUAGES[1:]], "dark"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_live_example_with_its_picker_open(browser, example_server, audit, lang, scheme):
    context, page = tab(browser, scheme)
    try:
        page.goto(example_server + ("" if lang == "en" else f"{lang}/"))
        point_at_an_example(page)
        page.wait_for_selector(".gin-example[data-gin-ready]", timeout=TIMEOUT_MS)
        example = page.locator(".gin-example").first
        # A card changed: the "changed" notice, undo and the new result are on show.
        example.locator(".gin-inputs button[data-card]").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".gin-picker:not([hidden])")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        page.wait_for_selector(".gin-example .gin-changed:not([hidden])", timeout=TIMEOUT_MS)
        assert not (found := audit(page)), report("a changed example", found)
        # And the picker open over it.
        example.locator(".gin-inputs button[data-card]").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".gin-picker:not([hidden])")
        assert not (found := audit(page)), report("the card picker", found)
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_lesson_with_feedback_on_a_wrong_answer(browser, servers, audit, lang):
    context, page = tab(browser)
    try:
        page.goto(servers["root"] + ("" if lang == "en" else f"{lang}/") + "lessons/03-deadwood/")
        page.wait_for_selector(".gin-lesson[data-gin-lesson-ready]")
        page.fill("#step-count input.gin-number", "12")
        page.press("#step-count input.gin-number", "Enter")
        page.wait_for_selector('#step-count[data-feedback="wrong"]', timeout=TIMEOUT_MS)
        assert not (found := audit(page)), report("a lesson with feedback", found)
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_game_being_played_with_a_hint(browser, servers, audit, lang, scheme):
    """The play page live: the upcard passed, a card drawn (marked), the coach's hint with its
    details open, Knock pressed where it can be; then a game's end."""
    context, page = tab(browser, scheme)
    context.add_init_script("localStorage.setItem('gin-play-speed', 'instant')")
    try:
        page.goto(
            servers["root"]
            + ("" if lang == "en" else f"{lang}/")
            + "play/#seed=1&rules=standard&level=strong"
        )
        answered = 0  # answers seen: one move may be answered in more than one step

        def wait_for_an_answer() -> None:
            nonlocal answered
            page.wait_for_function(
                """(n) => { const play = document.querySelector(".gin-play");
                  return play && +play.dataset.ginAnswers > n && !play.hasAttribute("aria-busy"); }""",
                arg=answered,
                timeout=TIMEOUT_MS,
            )
            answered = int(page.locator(".gin-play").get_attribute("data-gin-answers") or 0)

        # the upcard is offered to the reader unless the computer, choosing first, took it
        steps = [
            ".gin-turn button[data-move*=pass]",
            "button.gin-pile.gin-stock",
            ".gin-hint-button",
        ]
        wait_for_an_answer()
        for selector in steps:
            button = page.locator(f".gin-play-view {selector}")
            if selector == steps[0] and not button.count():
                continue
            button.click()
            wait_for_an_answer()
        page.locator(".gin-hint details summary").click()
        page.locator(".gin-play-settings-box summary").click()
        assert page.locator(".gin-hint-best").is_visible()
        assert not (found := audit(page)), report("a game with a hint", found)
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_results_and_the_404_page(browser, servers, audit, lang):
    context, page = tab(browser)
    prefix = "" if lang == "en" else f"{lang}/"
    try:
        page.goto(servers["root"] + prefix)
        search(page, "gin")
        assert not (found := audit(page)), report("search results", found)
        page.goto(servers["root"] + prefix + "no-such-page/")
        assert not (found := audit(page)), report("the 404 page", found)
    finally:
        context.close()
