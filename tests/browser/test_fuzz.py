"""The browser's boundaries fuzzed: crafted share-link fragments on the example pages, and
crafted lesson progress in storage (part of the fuzz suite, tests/fuzz/).

Inputs are generated from a fixed seed, so a run is repeatable and its length bounded. Each
page load carries a damaged link for every example on it. Every example must come to rest:
either showing the linked state, canonical, or its original with a localized "bad link" notice;
never stuck, never an uncaught error.
"""

from __future__ import annotations

import json
import random
from urllib.parse import quote

import pytest
from ginview.examples import link

from sitegen import catalogs
from sitegen.languages import languages
from tests.browser.conftest import EXAMPLE_PAGES
from tests.browser.test_examples import NORMALISE, SETTLED, TIMEOUT_MS, drawn, page_url
from tests.browser.test_lessons import lesson_url
from tests.fuzz.strategies import nested

LOADS_PER_PAGE = 6
PIECES = [
    "",
    ";",
    ":",
    "-",
    "%",
    "%E0%A4%A",
    "%00",
    "%0A",
    "#",
    "&",
    "=",
    "gin-1=",
    "rules:",
    "rules:house",
    "knocker:",
    "entries:",
    "AS",
    "10h",
    "ZZ",
    "A" * 300,
    "{}",
    "[]",
    "\u2028",
    "<img src=x onerror=alert(1)>",
    "javascript:",
    "9" * 40,
    "-1",
    "null",
]


def damaged(text: str, rng: random.Random) -> str:
    """A share link's text, damaged: pieces cut, doubled or replaced, or percent-escaped badly."""
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(text))
        how = rng.choice(["insert", "cut", "replace", "double"])
        piece = rng.choice(PIECES)
        if how == "insert":
            text = text[:at] + piece + text[at:]
        elif how == "cut":
            text = text[:at] + text[at + rng.randint(1, 12) :]
        elif how == "replace":
            text = text[:at] + piece + text[at + len(piece) :]
        else:
            text = text + ";" + text[at:]
    return text


def fragment(links: list[str], rng: random.Random) -> str:
    """#gin-1=…&gin-2=…: each link percent-encoded, or (sometimes) left raw as a hand-edited
    address would be."""
    parts = []
    for number, text in enumerate(links, 1):
        value = text if rng.random() < 0.3 else quote(text, safe=":;-")
        parts.append(f"gin-{number}={value}")
    return "#" + "&".join(parts)


def originals(lang: str, page: str) -> list[dict]:
    from ginview.examples import read_state

    from sitegen.fences import read_fence

    return [read_state(read_fence(body, page)) for body in EXAMPLE_PAGES[page]]


@pytest.mark.parametrize("page_name", ["index", "scoring"])
def test_crafted_fragments_leave_every_example_working(browser, example_server, page_name):
    rng = random.Random(f"fragments-{page_name}")
    source = {"index": "index.md", "scoring": "scoring.md"}[page_name]
    states = originals("en", source)
    context = browser.new_context()
    errors: list[str] = []
    context.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    try:
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        tried = 0
        for load in range(LOADS_PER_PAGE):
            lang = languages()[load % len(languages())]
            cat = catalogs.load(lang)
            links = [damaged(link(state), rng) for state in states]
            address = page_url(example_server, lang, page_name) + fragment(links, rng)
            page.goto("about:blank")
            page.goto(address)
            page.locator(".gin-example").first.hover()  # boots the engine
            page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
            for index in range(len(states)):
                node = page.locator(".gin-example").nth(index)
                assert node.get_attribute("data-gin-ready") is not None, (address, index)
                status = node.locator(".gin-status")
                state = json.loads(node.get_attribute("data-gin"))
                view = page.evaluate(NORMALISE, node.locator(".gin-view").inner_html())
                if "gin-error" in (status.get_attribute("class") or ""):
                    assert status.inner_text().startswith(cat.text("ui.bad_link")), address
                    assert state == states[index], address  # the original is kept
                # Whatever it shows is what CPython draws for its state, in its language.
                assert view == page.evaluate(NORMALISE, drawn(state, lang).view), address
                tried += 1
        assert tried == LOADS_PER_PAGE * len(states)
        assert errors == [], errors
    finally:
        context.close()


STORED = [
    '{"deadwood": 5}',
    "[1, 2]",
    "not json",
    "null",
    "0",
    '""',
    '{"__proto__": ["count"]}',
    '{"deadwood": {"count": 1}}',
    '{"deadwood": ["count", "count", "no-such-step"]}',
    '{"constructor": ["x"]}',
    json.dumps({"deadwood": ["x" * 10000]}),
    json.dumps(nested(500)),
    '{"deadwood": ["count"]' * 3,
    "\ud800",
    "{" * 5000,
]


def test_crafted_progress_in_storage_leaves_lessons_working(servers, new_page):
    cat = catalogs.load("hu")
    page, log = new_page()
    page.goto(lesson_url(servers["root"], "hu"))
    for stored in STORED:
        page.evaluate("(v) => localStorage.setItem('gin-lessons', v)", stored)
        for url in (lesson_url(servers["root"], "hu"), lesson_url(servers["root"], "hu", "")):
            page.goto(url)
            page.wait_for_selector("[data-gin-lesson-ready]")
        page.goto(lesson_url(servers["root"], "hu"))
        page.wait_for_selector(".gin-lesson[data-gin-lesson-ready]")
        done = page.locator(".gin-lesson-progress").inner_text()
        assert done in {cat.text("tutorial.progress", done=n, count=3) for n in (0, 1)}, stored
    assert log.page_errors == [] and log.console_errors == []


def test_lessons_work_when_storage_is_refused(servers, new_page):
    page, log = new_page()
    page.add_init_script(
        "Object.defineProperty(window, 'localStorage', "
        "{get() { throw new DOMException('denied', 'SecurityError'); }});"
    )
    cat = catalogs.load("it")
    page.goto(lesson_url(servers["root"], "it"))
    page.wait_for_selector(".gin-lesson[data-gin-lesson-ready]")
    page.fill("#step-count input.gin-number", "10")
    page.press("#step-count input.gin-number", "Enter")
    page.wait_for_selector('#step-count[data-feedback="right"]', timeout=TIMEOUT_MS)
    assert (
        cat.text("tutorial.right") in page.locator("#step-count .gin-lesson-feedback").inner_text()
    )
    assert log.page_errors == []
