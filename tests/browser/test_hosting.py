"""The site behind nginx configured as a host without precompression support: it compresses
on the fly (gzip) and never sends the build's .br/.gz copies. Under a sub-path, in real
Chromium: the engine boots and its examples are live, the site works offline after one visit,
the play page deals, a missing page gets its language's 404 page. (Every other browser test
runs behind nginx with the recommended configuration, precompressed copies included:
tests/browser/conftest.py.)"""

from __future__ import annotations

import pytest

from sitegen import catalogs
from tests.browser.conftest import SUBPATH, server
from tests.browser.test_engine_worker import home_url
from tests.browser.test_offline import (
    pages_with_examples,
    sw_facts,
    use_example,
    wait_until_kept,
)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_host_that_compresses_on_the_fly(site_dir, new_page, lang):
    facts = sw_facts(site_dir)
    page, log = new_page()
    with server(site_dir, SUBPATH, precompressed=False) as host:
        base = host.url
        page.goto(home_url(base, lang))
        use_example(page, lang)
        wait_until_kept(page, base, facts["SHELL"][lang] + facts["RUNTIME"])
        sent = {r.path: r.encoding for r in host.requests() if r.status == 200}
        page.context.set_offline(True)
        page.goto(base + pages_with_examples(site_dir, lang, facts)[0])
        use_example(page, lang)
        page.context.set_offline(False)
        page.goto(base + ("" if lang == "en" else f"{lang}/") + "play/#seed=3&level=beginner")
        page.wait_for_selector(".gin-play[data-gin-answers]", timeout=60_000)
        response = page.goto(base + ("" if lang == "en" else f"{lang}/") + "no/such/page/")
        assert response.status == 404
        title = catalogs.load(lang).text("ui.not_found_title")
        assert page.locator("h1").inner_text() == title
    wasm = next(p for p in facts["RUNTIME"] if p.endswith(".wasm"))
    assert sent[SUBPATH + wasm] == "gzip"  # compressed on the fly
    assert not [p for p in sent if p.endswith((".br", ".gz"))]
    assert not log.page_errors, log.page_errors
