"""Keyboard focus is always visible, and every live change is announced once.

Focus: the Tab key is walked through every tab stop of the pages a reader works on (a page of
live examples, a lesson, the scoring page with its sheets, an example with its card picker
open), and each focused element must be on screen and marked by an outline or a shadow of its
own, or of the card it stands for (a lesson's radio and checkbox inputs are drawn as the card
beside them).

Announcements: the live regions (role="status", aria-live) are watched while the reader
changes a card, undoes, or answers a lesson step; each action must announce exactly one
non-empty text in exactly one live region, and that text is what the engine said. What a region
shows while it is marked aria-busy ("Calculating…") is not announced: the answer after it is.
"""

from __future__ import annotations

import pytest

from sitegen import catalogs
from sitegen.languages import languages
from tests.browser.test_examples import SETTLED, TIMEOUT_MS, point_at_an_example

LANGUAGES = list(languages())
MAX_TAB_STOPS = 400  # far more than any page has: the walk stops when focus comes round again

# What the focused element looks like: the element, or what stands for it (the card drawn after
# a visually hidden input, the label of one), must have a ring and be on screen.
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const ring = [el, el.nextElementSibling, el.closest("label")].filter(Boolean).find((n) => {
    const s = getComputedStyle(n);
    return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 1) || s.boxShadow !== "none";
  });
  const marked = ring !== undefined;
  const box = (ring || el).getBoundingClientRect();
  const shown = box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < innerHeight;
  const name = (el.getAttribute("aria-label") || el.textContent || el.value || "").trim();
  return {key: el.tagName + "|" + el.className + "|" + name.slice(0, 40) + "|" +
               [...document.querySelectorAll("*")].indexOf(el), marked, shown};
}"""

# Every non-empty text a live region announces from now on: window.__said = [[region, text]].
# A region marked aria-busy announces nothing until the mark goes: then its text, once.
LISTEN = """() => {
  window.__said = [];
  const regions = [...document.querySelectorAll('[role="status"], [role="alert"], [aria-live]')]
    .filter((r) => r.getAttribute("aria-live") !== "off");
  const last = new Map(regions.map((r) => [r, r.textContent.trim()]));
  new MutationObserver(() => {
    for (const r of regions) {
      const text = r.textContent.trim();
      if (r.getAttribute("aria-busy") !== "true" && text !== last.get(r)) {
        last.set(r, text);
        if (text) window.__said.push([r.className, text]);
      }
    }
  }).observe(document.body, {subtree: true, childList: true, characterData: true,
                             attributes: true, attributeFilter: ["aria-busy"]});
}"""


def walk_tab_stops(page) -> list[str]:
    """Tab through the page once round; the tab stops whose focus cannot be seen."""
    unseen, first = [], None
    for _ in range(MAX_TAB_STOPS):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None:
            continue
        if focused["key"] == first:
            return unseen
        first = first or focused["key"]
        if not (focused["marked"] and focused["shown"]):
            unseen.append(
                f"{focused['key']} (marked: {focused['marked']}, on screen: {focused['shown']})"
            )
    raise AssertionError(f"focus did not come round in {MAX_TAB_STOPS} tab stops")


def open_page(browser, url: str, ready: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    point_at_an_example(page) if ready == SETTLED else None
    page.wait_for_function(ready, timeout=TIMEOUT_MS)
    return context, page


LESSON_READY = "() => document.querySelector('.gin-lesson[data-gin-lesson-ready]') !== null"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_focus_is_visible_on_every_tab_stop(browser, servers, example_server, lang):
    prefix = "" if lang == "en" else f"{lang}/"
    for url, ready in [
        (example_server + prefix, SETTLED),
        (example_server + prefix + "scoring/", SETTLED),
        (servers["root"] + prefix + "lessons/03-deadwood/", LESSON_READY),
    ]:
        context, page = open_page(browser, url, ready)
        try:
            assert not (unseen := walk_tab_stops(page)), f"{url}: focus not visible on {unseen}"
        finally:
            context.close()


def test_focus_is_visible_in_the_card_picker(browser, example_server):
    context, page = open_page(browser, example_server, SETTLED)
    try:
        page.locator(".gin-example .gin-inputs button[data-card]").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".gin-picker:not([hidden])")
        for key in ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "End", "Home", "Tab"]:
            page.keyboard.press(key)
            focused = page.evaluate(FOCUSED)
            assert focused and focused["marked"] and focused["shown"], (key, focused)
    finally:
        context.close()


def said(page) -> list[list[str]]:
    return page.evaluate("window.__said")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_card_change_and_its_undo_are_each_announced_once(browser, example_server, lang):
    context, page = open_page(
        browser, example_server + ("" if lang == "en" else f"{lang}/"), SETTLED
    )
    try:
        example = page.locator(".gin-example").first
        status = example.locator(".gin-status")
        page.evaluate(LISTEN)
        example.locator(".gin-inputs button[data-card]").first.focus()
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        page.wait_for_selector(".gin-example .gin-changed:not([hidden])", timeout=TIMEOUT_MS)
        page.wait_for_timeout(300)  # anything said late would be said twice
        assert said(page) == [["gin-status", status.inner_text().strip()]], said(page)
        page.evaluate("window.__said = []")
        example.locator(".gin-undo").click()
        page.wait_for_timeout(300)
        assert said(page) == [["gin-status", status.inner_text().strip()]], said(page)
        assert status.inner_text().strip()
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_lesson_answer_is_announced_once(browser, servers, lang):
    cat = catalogs.load(lang)
    url = servers["root"] + ("" if lang == "en" else f"{lang}/") + "lessons/03-deadwood/"
    context, page = open_page(browser, url, LESSON_READY)
    try:
        page.evaluate(LISTEN)
        page.fill("#step-count input.gin-number", "12")
        page.press("#step-count input.gin-number", "Enter")
        page.wait_for_selector('#step-count[data-feedback="wrong"]', timeout=TIMEOUT_MS)
        page.wait_for_timeout(300)
        assert len(said(page)) == 1, said(page)
        region, text = said(page)[0]
        assert region == "gin-lesson-feedback"
        assert cat.text("tutorial.wrong") in text
        assert cat.text("tutorial.why.deadwood_high", value=12) in text
    finally:
        context.close()
