"""Search in the reader's language, in real Chromium: only that language's pages come back, a
word typed without its accents finds the word with them (also at a sub-path), common spellings
of a term find its page, and results quote the page's own words and title."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

# (language, a query, a word it must find on the results' pages): the query is typed the way
# a reader without the right keyboard types it.
QUERIES = [
    ("en", "undercut", "undercut"),
    ("ro", "carti", "cărți"),
    ("hu", "alavagas", "alávágás"),
    ("it", "perche", "perché"),
]
LANGS = ("ro", "hu", "it")


def search(page, query: str) -> list[str]:
    """Type a query in material's search box; the result links."""
    page.locator(".md-search__input").click()  # a wide screen: the search box is in the header
    page.keyboard.type(query, delay=30)  # material searches on keyup
    page.wait_for_selector(".md-search-result__item", timeout=30000)
    return page.eval_on_selector_all(
        ".md-search-result__link", "(links) => links.map((a) => a.href)"
    )


@pytest.mark.parametrize("lang, query, word", QUERIES)
@pytest.mark.parametrize("where", ["root", "subpath"])
def test_search_finds_only_the_readers_language_and_ignores_accents(
    servers, new_page, where, lang, query, word
):
    page, log = new_page()
    base = servers[where]
    page.goto(base + ("" if lang == "en" else f"{lang}/") + "rules/melds/")
    links = search(page, query)
    assert links, f"no results for {query!r}"
    home = urlsplit(base).path + ("" if lang == "en" else f"{lang}/")
    for link in links:
        path = urlsplit(link).path
        assert path.startswith(home), link
        rest = path[len(home) :]
        assert rest.split("/", 1)[0] not in LANGS, f"a page in another language: {link}"
    # The first result really holds the word, with its accents.
    page.goto(links[0])
    assert word in page.locator("article").inner_text().lower()
    assert not log.page_errors, log.page_errors


def test_each_language_has_its_own_index(site_dir):
    for lang in ("en", *LANGS):
        index = json.loads(
            (site_dir / ("" if lang == "en" else lang) / "search/search_index.json").read_text(
                encoding="utf-8"
            )
        )
        assert index["config"]["lang"] == [lang]
        assert index["docs"] and not [
            d for d in index["docs"] if d["location"].split("/")[0] in LANGS
        ]


def _search_again(page, query: str) -> list[dict]:
    """Clear the search box, type ``query``; each result's link, title and text as shown."""
    box = page.locator(".md-search__input")
    box.click()
    box.fill("")
    page.keyboard.type(query, delay=30)
    page.wait_for_selector(".md-search-result__item", timeout=30000)
    page.wait_for_timeout(300)  # the results of the last keystroke, not of the one before
    return page.eval_on_selector_all(
        ".md-search-result__link",
        """(links) => links.map((a) => ({
            href: a.href,
            title: a.querySelector(".md-search-result__title")?.innerText ?? "",
            text: a.innerText,
        }))""",
    )


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_common_spellings_of_lay_off_find_the_lay_offs_page(servers, new_page, lang):
    """ "layoff", "lay off" and "lay-off" all bring the lay-offs page first, in every language
    (the page's front-matter keywords, searched but not shown)."""
    page, log = new_page()
    home = servers["root"] + ("" if lang == "en" else f"{lang}/")
    page.goto(home + "rules/melds/")
    for query in ("layoff", "lay off", "lay-off"):
        results = _search_again(page, query)
        assert results, (lang, query)
        assert urlsplit(results[0]["href"]).path.endswith("/rules/lay-offs/"), (lang, query)
    assert not log.page_errors, log.page_errors


# (language, a query whose results include pages with examples, a word typed without accents)
RESULT_QUERIES = [
    ("en", "knocker", "undercut"),
    ("ro", "undercut", "maini"),
    ("hu", "kopogo", "alavagas"),
    ("it", "undercut", "perche"),
]


@pytest.mark.parametrize("lang, query, unaccented_query", RESULT_QUERIES)
def test_results_quote_the_pages_words_without_screen_reader_text_or_unaccented_copies(
    servers, new_page, lang, query, unaccented_query
):
    """A result's text is the page's own words: no example's labels or screen-reader text
    ("Change this card: five of clubs"); its title is the heading as written, without the
    copy of its words without accents that the index searches."""
    from ginview.catalog import catalog

    from sitegen.languages_split import unaccented

    cat = catalog(lang)
    screen_reader = [cat.text("ui.edit_card", card="").strip(" :")]
    page, log = new_page()
    page.goto(servers["root"] + ("" if lang == "en" else f"{lang}/") + "rules/melds/")
    for text in (query, unaccented_query):
        results = _search_again(page, text)
        assert results, (lang, text)
        for result in results:
            for phrase in screen_reader:
                assert phrase not in result["text"], (lang, text, result)
            title = result["title"].lower()
            words = set(re.findall(r"\w+", title))
            assert not set(unaccented(title).split()) & words, (lang, text, result["title"])
    assert not log.page_errors, log.page_errors
