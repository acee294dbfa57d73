"""The "page not found" page, in real Chromium: in the language of the missing address, styled
and with working links, at the root and under a sub-path, and at any depth."""

from __future__ import annotations

import pytest

from sitegen import catalogs
from sitegen.languages import languages

LANGUAGES = list(languages())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("where", ["root", "subpath"])
def test_a_missing_page_gets_its_languages_404_page(servers, new_page, where, lang):
    cat = catalogs.load(lang)
    page, log = new_page()
    base = servers[where]
    missing = base + ("" if lang == "en" else f"{lang}/") + "rules/no/such/page/"
    response = page.goto(missing)
    assert response.status == 404
    assert page.locator("h1").inner_text() == cat.text("ui.not_found_title")
    assert page.evaluate("document.documentElement.lang") == lang
    # Material's stylesheet applies (the header is laid out, not a bare list).
    assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") in (
        "sticky",
        "fixed",
    )
    # Its scripts ran from the site's root (the page found it and made it the base).
    assert page.evaluate("document.baseURI") == base
    page.locator("article a", has_text=cat.text("ui.not_found_lessons")).click()
    page.wait_for_selector(".gin-lesson-index")
    assert page.url == base + ("" if lang == "en" else f"{lang}/") + "lessons/"
    assert not log.page_errors, log.page_errors


def test_a_host_that_serves_one_404_page_sends_readers_to_theirs(site_dir, new_page):
    """A host that knows only the root 404.html (most do): a Romanian address ends on the
    Romanian page, under a sub-path too."""
    from tests.browser.conftest import serve

    page, log = new_page()
    with serve(site_dir, "/gin/", own_404=False) as base:
        page.goto(base + "ro/rules/no/such/page/")
        page.wait_for_url(base + "ro/404.html")
        assert page.locator("h1").inner_text() == catalogs.load("ro").text("ui.not_found_title")
        page.goto(base + "no/such/page/")  # an English address stays on the English page
        assert page.locator("h1").inner_text() == catalogs.load("en").text("ui.not_found_title")
    assert not log.page_errors, log.page_errors
