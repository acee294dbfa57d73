"""The rules pages as a reader sees them: the home page and a rule page in every language, on a
desktop and a phone. Screenshots land in build/screenshots/ for a person to look at; the test
checks what a machine can: the page fits the phone's width, the title and the example show.
And when material's script starts (sitegen/overrides/main.html): at once on a wide screen, at the
reader's first action on a phone, where the palette toggle and the examples work without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.languages import languages

LANGUAGES = list(languages())
PAGES = {"home": "", "lay-offs": "rules/lay-offs/", "lay-off-lesson": "lessons/07-lay-offs/"}
WIDTHS = {"desktop": 1280, "phone": 360}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# What material's script fetches when it starts.
MATERIAL_FILES = ("/assets/javascripts/bundle.", "/search/search_index.json", "/sitemap.xml")
MATERIAL_STARTED = (
    "() => 'component$' in window"  # material's script exports component$ (a function:
)
# a bare expression is evaluated with eval, which the site's CSP refuses when it must poll)
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", PAGES)
def test_page_fits_desktop_and_phone(browser, servers, lang, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = servers["root"] + ("" if lang == "en" else f"{lang}/") + PAGES[name]
    for device, width in WIDTHS.items():
        context = browser.new_context(viewport={"width": width, "height": 900})
        try:
            page = context.new_page()
            page.goto(url)
            assert page.locator("h1").first.is_visible()
            assert page.locator(".gin-example, .gin-lesson").first.is_visible()
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"{lang}/{name} is {overflow}px wider than a {width}px screen"
            page.screenshot(path=str(SHOTS / f"{lang}-{name}-{device}.png"), full_page=True)
        finally:
            context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_summary_prints_on_one_a4_page(browser, servers, lang):
    import re

    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(servers["root"] + ("" if lang == "en" else f"{lang}/") + "summary/")
        pdf = page.pdf(format="A4")
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / f"{lang}-summary.pdf").write_bytes(pdf)
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
        assert page.locator(".gin-summary-page h2").count() == 8
    finally:
        context.close()


def scheme(page) -> str:
    return page.evaluate("document.body.dataset.mdColorScheme")


def shown_palette_toggle(page) -> list[str]:
    return page.evaluate("""[...document.querySelectorAll("form.md-header__option label")]
                            .filter((label) => !label.hidden).map((label) => label.htmlFor)""")


def test_on_a_wide_screen_material_starts_at_once(browser, servers):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(servers["root"] + "rules/lay-offs/")
        page.wait_for_function(MATERIAL_STARTED)
        # Its table of contents follows the reading position.
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_selector(".md-sidebar--secondary .md-nav__link--active")
        # The examples are mounted once, though both the stand-in and material gave the document.
        page.wait_for_selector(".gin-example[data-gin-live] .gin-tools")
        assert page.locator(".gin-tools").count() == page.locator(".gin-example").count()
        assert not errors, errors
    finally:
        context.close()


def test_on_a_phone_material_starts_at_the_readers_first_action(browser, servers):
    context = browser.new_context(**PHONE)
    requests = []
    context.on("request", lambda req: requests.append(req.url))
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
        page.goto(servers["root"])
        page.wait_for_selector(
            ".gin-example[data-gin-live] .gin-tools"
        )  # the example is live without it
        page.wait_for_timeout(500)
        assert not page.evaluate(MATERIAL_STARTED)
        assert not [url for url in requests if any(name in url for name in MATERIAL_FILES)]

        # The light/dark toggle works without it (its radio button, which its label checks).
        assert scheme(page) == "default" and shown_palette_toggle(page) == ["__palette_1"]
        page.evaluate("document.getElementById('__palette_1').click()")
        assert scheme(page) == "slate" and shown_palette_toggle(page) == ["__palette_0"]
        assert page.evaluate("document.querySelector('meta[name=color-scheme]').content") == "dark"
        assert not page.evaluate(MATERIAL_STARTED)

        # A tap on the search button starts it: the cursor is in the search field, which finds pages.
        page.locator(".md-header__button[for=__search]").tap()
        page.wait_for_function(MATERIAL_STARTED)
        assert page.evaluate("document.activeElement.classList.contains('md-search__input')")
        page.keyboard.type("undercut")
        page.wait_for_selector(".md-search-result__item")
        assert [url for url in requests if "/search/search_index.json" in url]

        # The reader's choice of palette holds on the next page.
        page.goto(servers["root"] + "rules/lay-offs/")
        assert scheme(page) == "slate" and shown_palette_toggle(page) == ["__palette_0"]
        assert not errors, errors
    finally:
        context.close()


def test_the_palette_follows_the_system_until_the_reader_chooses(browser, servers):
    context = browser.new_context(**PHONE, color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(servers["root"])
        assert scheme(page) == "slate" and shown_palette_toggle(page) == ["__palette_0"]
        page.evaluate("document.getElementById('__palette_0').click()")
        page.reload()
        assert scheme(page) == "default" and shown_palette_toggle(page) == ["__palette_1"]
    finally:
        context.close()
