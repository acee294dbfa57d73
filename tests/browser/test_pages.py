"""The rules pages as a reader sees them: the home page and a rule page in every language, on a
desktop and a phone. Screenshots land in build/screenshots/ for a person to look at; the test
checks what a machine can: the page fits the phone's width, the title and the example show."""

from __future__ import annotations

from pathlib import Path

import pytest

LANGUAGES = ["en", "ro", "hu", "it"]
PAGES = {"home": "", "lay-offs": "rules/lay-offs/"}
WIDTHS = {"desktop": 1280, "phone": 390}
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
            assert page.locator(".gin-example").first.is_visible()
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
