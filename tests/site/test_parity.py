"""Parity: every translated page has the shape of its English page, section by section: the
same paragraphs, list items, table rows, notes and live examples (the same states), so no
passage is silently missing. And every translated page says which version of its English
page it translates: an older one shows a notice in its language."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sitegen import catalogs
from sitegen.translations import english_digest, translates
from tests.site.test_content import PAGES, built

REPO = Path(__file__).resolve().parents[2]
TRANSLATIONS = catalogs.languages()[1:]
OWN = {("glossary.md", "notes")}
"""Sections that are each language's own: the glossary's notes on the doubtful terms of that
language (the English notes say what the marks mean)."""


class Shape(HTMLParser):
    """A page's article as sections: heading id -> counts of its blocks, and its examples."""

    BLOCKS = {"p": "paragraphs", "li": "list items", "tr": "table rows"}

    def __init__(self, html: str):
        super().__init__()
        self.sections: dict[str, dict] = {}
        self.current = self._section("(top)")
        self.depth = 0  # inside an example or a note: its own paragraphs are not the page's
        self.stack: list[str] = []
        article = html.split('<article class="md-content__inner md-typeset">', 1)[-1]
        self.feed(article.split("</article>", 1)[0])

    def _section(self, name: str) -> dict:
        self.sections[name] = {
            "paragraphs": 0,
            "list items": 0,
            "table rows": 0,
            "notes": 0,
            "examples": [],
        }
        return self.sections[name]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag in ("h2", "h3") and attrs.get("id"):
            self.current = self._section(attrs["id"])
        if "gin-example" in classes:
            self.current["examples"].append(attrs.get("data-gin"))
        if "admonition" in classes:
            self.current["notes"] += 1
        if tag == "div" and ("gin-example" in classes or "admonition" in classes or self.depth):
            self.depth += 1
            self.stack.append(tag)
        elif tag == "div" and self.depth == 0:
            self.stack.append("")
        if self.depth == 0 and tag in self.BLOCKS:
            self.current[self.BLOCKS[tag]] += 1

    def handle_endtag(self, tag):
        if tag == "div" and self.stack and self.stack.pop():
            self.depth -= 1


@pytest.mark.parametrize("page", PAGES)
def test_every_translation_has_the_shape_of_its_english_page(built_site, page):
    english = Shape(built(built_site, "en", page).read_text(encoding="utf-8")).sections
    assert english, page
    for lang in TRANSLATIONS:
        html = built(built_site, lang, page).read_text(encoding="utf-8")
        html = re.sub(
            r'<div class="admonition warning gin-outdated">.*?</div>', "", html, flags=re.S
        )
        shape = Shape(html).sections
        assert list(shape) == list(english), (lang, page, "sections")
        for section, counts in english.items():
            if (page, section) not in OWN:
                assert shape[section] == counts, (lang, page, section)


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_translation_names_the_english_version_it_translates(lang):
    for page in PAGES:
        source = (REPO / "docs" / lang / page).read_text(encoding="utf-8")
        assert translates(source) == english_digest(REPO / "docs", page), (
            f"docs/{lang}/{page} translates an older English page: update it, then run "
            f"python -m sitegen mark-translated {lang} {page}"
        )


@pytest.mark.slow
def test_an_outdated_translation_shows_a_notice_in_its_language(tmp_path):
    from sitegen.pipeline import run_mkdocs
    from tests.site.test_fences import small_site

    docs = small_site(tmp_path, "# Home\n\nThe English page, changed.\n")
    for lang in TRANSLATIONS:  # each translated home page says it translates another version
        (docs / lang / "index.md").write_text(
            "---\ntranslates: 0123456789ab\n---\n# Acasă\n", encoding="utf-8"
        )
    (docs / "ro" / "about.md").write_text(
        f"---\ntranslates: {english_digest(docs, 'about.md')}\n---\n# Despre\n", encoding="utf-8"
    )
    run_mkdocs(REPO / "mkdocs.yml", tmp_path / "out", {"runtime": False}, docs_dir=str(docs))
    for lang in TRANSLATIONS:
        html = (tmp_path / "out" / lang / "index.html").read_text(encoding="utf-8")
        assert "gin-outdated" in html, lang
        assert catalogs.load(lang).text("ui.outdated_title") in html
    assert "gin-outdated" not in (tmp_path / "out" / "ro/about/index.html").read_text("utf-8")
    assert "gin-outdated" not in (tmp_path / "out/index.html").read_text(encoding="utf-8")


def test_stamping_a_translation_keeps_its_front_matter():
    from sitegen.translations import stamped

    assert stamped("# Title\n", "abc123") == "---\ntranslates: abc123\n---\n# Title\n"
    assert (
        stamped("---\ntitle: T\n---\n# T\n", "abc123")
        == "---\ntitle: T\ntranslates: abc123\n---\n# T\n"
    )
    once = stamped("---\ntranslates: 000000\ntitle: T\n---\n# T\n", "abc123")
    assert once == "---\ntranslates: abc123\ntitle: T\n---\n# T\n"
    assert stamped(once, "abc123") == once and translates(once) == "abc123"
