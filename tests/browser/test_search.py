"""Search in the reader's language, in real Chromium: only that language's pages come back, and a
word typed without its accents finds the word with them. Also at a sub-path."""

from __future__ import annotations

import json
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
