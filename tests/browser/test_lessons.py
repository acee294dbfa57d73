"""The lessons in real headless Chromium, on the built site (tests/browser/conftest.py).

In each language, a learner completes lesson 3 ("Deadwood and the best arrangement") with the
keyboard only: a number typed, a hint asked for, a wrong answer with its localized feedback
(right or wrong, and why), then the right answers, card checkboxes toggled with Space, a discard
chosen with the arrow keys, Enter to check. The engine in the worker checks the answers. The
lesson then shows as completed on the lessons index, whose reset clears it. Every answer is
judged by the worker, with the same Python that drew the step (ginview.steps). With the engine
unavailable, the learner is told so and the worked answers stay in the page. Progress that
cannot be read from storage is ignored, never fatal.
"""

from __future__ import annotations

import pytest

from sitegen import catalogs
from sitegen.languages import languages

LANGUAGES = list(languages())
BOOT_TIMEOUT_MS = 60000
LESSON = "03-deadwood"
LESSON_ID = "deadwood"
LESSON_COUNT = 11


def lesson_url(base: str, lang: str, page: str = f"{LESSON}/") -> str:
    return f"{base}{'' if lang == 'en' else lang + '/'}lessons/{page}"


def feedback(page, step: str, state: str) -> str:
    page.wait_for_selector(f'#step-{step}[data-feedback="{state}"]', timeout=BOOT_TIMEOUT_MS)
    return page.locator(f"#step-{step} .gin-lesson-feedback").inner_text()


def focused(page) -> dict:
    return page.evaluate("""() => {
        const el = document.activeElement;
        const step = el && el.closest(".gin-lesson-step");
        return {step: step && step.dataset.step, value: el && el.value, tag: el && el.tagName};
    }""")


def check_clean(log):
    assert log.page_errors == [], log.page_errors
    assert log.console_errors == [], log.console_errors


@pytest.mark.parametrize("lang", LANGUAGES)
def test_complete_a_lesson_by_keyboard(servers, new_page, lang):
    cat = catalogs.load(lang)
    base = servers["root"] if lang in ("en", "hu") else servers["subpath"]
    page, log = new_page()
    page.goto(lesson_url(base, lang))
    page.wait_for_selector(".gin-lesson[data-gin-lesson-ready]")
    progress = page.locator(".gin-lesson-progress")
    assert progress.inner_text() == cat.text("tutorial.progress", done=0, count=3)
    # The picker replaces the pre-rendered hand row; the form is shown.
    assert page.locator("#step-arrange .gin-lesson-form").is_visible()
    assert not page.locator("#step-arrange dd.gin-lesson-pickable").is_visible()

    # Step 1: the deadwood, typed. First a hint, asked for from the keyboard.
    page.focus("#step-count input.gin-number")
    page.keyboard.type("12")
    page.keyboard.press("Tab")  # Check
    page.keyboard.press("Tab")  # Hint
    page.keyboard.press("Enter")
    hint = page.locator("#step-count .gin-lesson-hint").first
    assert hint.is_visible()
    assert hint.inner_text().strip() == cat.text("lesson.deadwood.count.hint")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert focused(page)["step"] == "count" and focused(page)["value"] == "12"

    # The engine boots in the worker (the key presses were the first interaction).
    page.wait_for_selector(".gin-lesson[data-gin-engine]", timeout=BOOT_TIMEOUT_MS)
    assert page.locator(".gin-lesson").get_attribute("data-gin-engine") == "ready"

    # A wrong answer: at once, in the page's language, wrong and why.
    page.keyboard.press("Enter")
    text = feedback(page, "count", "wrong")
    assert cat.text("tutorial.wrong") in text
    assert cat.text("tutorial.why.deadwood_high", value=12) in text
    assert progress.inner_text() == cat.text("tutorial.progress", done=0, count=3)

    # The right answer.
    page.keyboard.press("Control+A")
    page.keyboard.type("10")
    page.keyboard.press("Enter")
    text = feedback(page, "count", "right")
    assert cat.text("tutorial.right") in text
    assert page.locator("#step-count details.gin-lesson-solution").get_attribute("open") is not None
    assert progress.inner_text() == cat.text("tutorial.progress", done=1, count=3)

    # Step 2: the deadwood cards, toggled with Space. Focus moved to the step's first card.
    assert focused(page) == {"step": "arrange", "value": "3H", "tag": "INPUT"}
    for card in ["5S", "5D", "KC"]:
        for _ in range(10):  # Tab from card to card (each card is its own tab stop)
            if focused(page)["value"] == card:
                break
            page.keyboard.press("Tab")
        assert focused(page) == {"step": "arrange", "value": card, "tag": "INPUT"}
        page.keyboard.press("Space")
    page.keyboard.press("Enter")
    assert cat.text("tutorial.right") in feedback(page, "arrange", "right")

    # Step 3: the discard, chosen with the arrow keys (a radio group of cards).
    assert focused(page) == {"step": "discard", "value": "4S", "tag": "INPUT"}
    page.keyboard.press("ArrowRight")
    assert focused(page)["value"] == "6S"
    page.keyboard.press("Enter")
    assert cat.text("tutorial.right") in feedback(page, "discard", "right")
    assert progress.inner_text() == cat.text("tutorial.lesson_done")

    # The index shows the progress; the reset clears it.
    page.goto(lesson_url(base, lang, ""))
    page.wait_for_selector(".gin-lesson-index[data-gin-lesson-ready]")
    item = page.locator(f'li[data-lesson="{LESSON_ID}"]')
    assert item.get_attribute("data-state") == "done"
    assert item.locator(".gin-lesson-badge").inner_text() == cat.text("tutorial.state.done")
    total = page.locator(".gin-lesson-total")
    assert total.inner_text() == cat.text("tutorial.total", done=1, count=LESSON_COUNT)
    assert page.locator('li[data-state="new"]').count() == LESSON_COUNT - 1
    page.focus(".gin-lesson-reset-all")
    page.keyboard.press("Enter")
    assert total.inner_text() == cat.text("tutorial.total", done=0, count=LESSON_COUNT)
    assert item.get_attribute("data-state") == "new"
    assert item.locator(".gin-lesson-badge").inner_text() == cat.text(
        "tutorial.steps_count", count=3
    )
    check_clean(log)


def test_progress_survives_a_reload_and_resets_per_lesson(servers, new_page):
    cat = catalogs.load("en")
    page, log = new_page()
    page.goto(lesson_url(servers["root"], "en", "01-cards/"))
    page.wait_for_selector(".gin-lesson[data-gin-lesson-ready]")
    page.focus("#step-count input.gin-number")
    page.keyboard.type("68")
    page.keyboard.press("Enter")
    feedback(page, "count", "right")
    page.reload()
    page.wait_for_selector(".gin-lesson[data-gin-lesson-ready]")
    progress = page.locator(".gin-lesson-progress")
    assert progress.inner_text() == cat.text("tutorial.progress", done=1, count=2)
    assert "gin-lesson-done" in page.locator("#step-count").get_attribute("class")
    page.goto(lesson_url(servers["root"], "en", ""))
    page.wait_for_selector(".gin-lesson-index[data-gin-lesson-ready]")
    badge = page.locator('li[data-lesson="cards"] .gin-lesson-badge')
    assert badge.inner_text() == cat.text("tutorial.state.started", done=1, count=2)
    page.go_back()
    page.wait_for_selector(".gin-lesson[data-gin-lesson-ready]")
    page.click(".gin-lesson-reset")
    assert progress.inner_text() == cat.text("tutorial.progress", done=0, count=2)
    assert page.evaluate("JSON.parse(localStorage.getItem('gin-lessons'))") == {}
    check_clean(log)


@pytest.mark.parametrize(
    "kind, step, wrong, right, why",
    [
        ("move", "offer", "draw_stock", "take_upcard", ("tutorial.why.move", {})),
        ("layoff", "chain", ["6S"], ["6S", "5S"], ("tutorial.why.layoff_missing", {})),
        ("knock", "not-yet", "knock", "no", ("tutorial.why.knock_no", {"points": 11, "limit": 10})),
        ("sheet", "total", "155", "255", ("tutorial.why.game_bonus", {"amount": 100})),
        ("sheet", "total", "154", "255", ("tutorial.why.number", {"value": 154})),
    ],
)
def test_every_kind_of_answer_is_checked_by_the_engine(
    servers, new_page, kind, step, wrong, right, why
):
    pages = {
        "move": "04-first-turn/",
        "layoff": "07-lay-offs/",
        "knock": "05-knock/",
        "sheet": "09-game/",
    }
    cat = catalogs.load("en")
    page, log = new_page()
    page.goto(lesson_url(servers["root"], "en", pages[kind]))
    page.wait_for_selector(".gin-lesson[data-gin-lesson-ready]")
    page.evaluate("window.ginEngine.request({op: 'engine', request: {op: 'version'}})")  # boot now
    page.wait_for_selector('.gin-lesson[data-gin-engine="ready"]', timeout=BOOT_TIMEOUT_MS)

    def answer(value):
        form = f"#step-{step} .gin-lesson-form"
        if isinstance(value, list):  # cards: the reader clicks the card itself
            for card in page.locator(f"{form} input:checked").all():
                page.click(f'{form} label:has(input[value="{card.get_attribute("value")}"])')
            for card in value:
                page.click(f'{form} label:has(input[value="{card}"])')
            assert sorted(
                i.get_attribute("value") for i in page.locator(f"{form} input:checked").all()
            ) == sorted(value)
        elif kind in ("sheet",):
            page.fill(f"{form} input.gin-number", value)
        else:
            page.click(f'{form} label:has(input[value="{value}"])')
        page.click(f"{form} .gin-lesson-check")

    answer(wrong)
    text = feedback(page, step, "wrong")
    key, params = why
    if "card" in params or "{card}" not in cat.template(key):
        expected = cat.text(key, **params)
    else:  # as drawn, the card is a chip: the text after it, filled
        expected = cat.text(key, card="{card}", **params).split("{card}")[-1]
    assert expected in text, text
    answer(right)
    assert cat.text("tutorial.right") in feedback(page, step, "right")
    check_clean(log)


def test_without_the_engine_the_learner_is_told_and_the_answers_stay(servers, new_page):
    """The worker cannot load: checking says so in the page's language; the worked answer is
    still there to open."""
    cat = catalogs.load("ro")
    page, log = new_page()
    page.route("**/assets/gin/worker.js", lambda route: route.abort())
    page.goto(lesson_url(servers["root"], "ro"))
    page.wait_for_selector(".gin-lesson[data-gin-lesson-ready]")
    page.focus("#step-count input.gin-number")
    page.keyboard.type("7")
    page.wait_for_selector('.gin-lesson[data-gin-engine="failed"]', timeout=BOOT_TIMEOUT_MS)
    page.keyboard.press("Enter")
    assert feedback(page, "count", "failed") == cat.text("ui.failed")
    solution = page.locator("#step-count details.gin-lesson-solution")
    solution.locator("summary").click()
    assert (
        cat.template("lesson.deadwood.count.explain").split("{")[0].strip() in solution.inner_text()
    )
    check_clean(log)


def test_unreadable_progress_in_storage_is_ignored(servers, new_page):
    cat = catalogs.load("en")
    page, log = new_page()
    page.goto(lesson_url(servers["root"], "en"))
    for stored in ('{"deadwood": 5}', "[1, 2]", "not json", '{"deadwood": ["count", 7, {}]}'):
        page.evaluate("(v) => localStorage.setItem('gin-lessons', v)", stored)
        page.reload()
        page.wait_for_selector(".gin-lesson[data-gin-lesson-ready]")
        done = 1 if "count" in stored else 0
        assert page.locator(".gin-lesson-progress").inner_text() == cat.text(
            "tutorial.progress", done=done, count=3
        ), stored
    # And the lesson still works: an answer is judged and recorded.
    page.focus("#step-count input.gin-number")
    page.keyboard.type("10")
    page.keyboard.press("Enter")
    assert cat.text("tutorial.right") in feedback(page, "count", "right")
    assert page.evaluate("JSON.parse(localStorage.getItem('gin-lessons'))") == {
        "deadwood": ["count"]
    }
    page.goto(lesson_url(servers["root"], "en", ""))
    page.wait_for_selector(".gin-lesson-index[data-gin-lesson-ready]")
    assert page.locator('li[data-lesson="deadwood"]').get_attribute("data-state") == "started"
    check_clean(log)
