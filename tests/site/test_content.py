"""The rules reference: every page in every language, the same anchors, no English left in a
translation, working links, the right terms, numbers from the presets, and live examples."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml
from ginrummy import RULESETS

from sitegen.languages import languages
from tests.site.terms import FORBIDDEN, SUIT_NAMES

REPO = Path(__file__).resolve().parents[2]
LANGUAGES = languages()
TRANSLATIONS = LANGUAGES[1:]


def nav_pages() -> list[str]:
    """Every page file in mkdocs.yml's navigation, e.g. "rules/melds.md"."""
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    pages = []

    def walk(items):
        for item in items:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            walk(value) if isinstance(value, list) else pages.append(value)

    walk(config["nav"])
    return pages


GENERATED = "lessons/"  # rendered from tutorials/ by the build: see test_tutorials.py
ALL_PAGES = nav_pages()
PAGES = [p for p in ALL_PAGES if not p.startswith(GENERATED)]
RULE_PAGES = [
    p for p in PAGES if p.startswith(("rules/", "scoring/")) or p == "variants/oklahoma.md"
]
HEADING = re.compile(r"^(#{2,6})\s+(.*?)\s*$", re.MULTILINE)
ANCHOR = re.compile(r"\{#([\w-]+)\}\s*$")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def source(lang: str, page: str) -> str:
    return (REPO / "docs" / lang / page).read_text(encoding="utf-8")


def anchors(text: str) -> list[str]:
    text = FENCE.sub("", text)
    return [
        (ANCHOR.search(title).group(1) if ANCHOR.search(title) else f"(none: {title})")
        for _, title in HEADING.findall(text)
    ]


def built(site: Path, lang: str, page: str) -> Path:
    slug = "" if page == "index.md" else page.removesuffix("index.md").removesuffix(".md")
    slug = slug if not slug or slug.endswith("/") else slug + "/"
    return site / ("" if lang == "en" else lang) / slug / "index.html"


def test_the_navigation_lists_the_whole_reference():
    """Every page written is in the navigation, once, and every page there is written."""
    written = sorted(
        p.relative_to(REPO / "docs/en").as_posix() for p in (REPO / "docs/en").rglob("*.md")
    )
    assert sorted(PAGES) == written
    assert len(set(PAGES)) == len(PAGES)
    assert "glossary.md" in PAGES and "variants/compared.md" in PAGES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_exists_in_every_language(lang, built_site):
    missing = [p for p in PAGES if not (REPO / "docs" / lang / p).is_file()]
    assert missing == []
    for page in PAGES:
        html = built(built_site, lang, page).read_text(encoding="utf-8")
        assert f'<html lang="{lang}"' in html
        assert "gin-untranslated" not in html, f"{lang}/{page} fell back to English"


@pytest.mark.parametrize("page", PAGES)
def test_headings_have_the_same_explicit_anchors_in_every_language(page):
    english = anchors(source("en", page))
    assert all(not a.startswith("(none") for a in english), english
    for lang in TRANSLATIONS:
        assert anchors(source(lang, page)) == english, lang


ENGLISH_WORDS = {
    "the",
    "and",
    "of",
    "to",
    "is",
    "you",
    "your",
    "with",
    "that",
    "it",
    "on",
    "are",
    "when",
    "card",
    "cards",
    "hand",
    "which",
    "their",
    "this",
}


def paragraphs(text: str) -> list[str]:
    text = FENCE.sub("", text)
    text = re.sub(r"\{\{.*?\}\}|\[([^\]]*)\]\([^)]*\)|<[^>]+>|`[^`]*`", r" \1 ", text)
    return [p for p in re.split(r"\n\s*\n", text) if not p.lstrip().startswith("|")]


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_no_untranslated_english_paragraphs(lang):
    problems = []
    for page in PAGES:
        for paragraph in paragraphs(source(lang, page)):
            words = re.findall(r"[a-zA-Z]+", paragraph.lower())
            if len(words) >= 8 and sum(w in ENGLISH_WORDS for w in words) / len(words) > 0.2:
                problems.append(f"{page}: {' '.join(paragraph.split())[:80]}")
    assert problems == []


class Links(HTMLParser):
    """The links of a page, and the ids it defines."""

    def __init__(self, text: str):
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.hrefs.append(attrs["href"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_internal_link_and_anchor_resolves(lang, built_site):
    problems = []
    parsed: dict[Path, Links] = {}

    def links(path: Path) -> Links:
        if path not in parsed:
            parsed[path] = Links(path.read_text(encoding="utf-8"))
        return parsed[path]

    for page in ALL_PAGES:
        path = built(built_site, lang, page)
        for href in links(path).hrefs:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                problems.append(f"{page}: {href} (no such page)")
            elif (
                parts.fragment
                and target.suffix == ".html"
                and unquote(parts.fragment) not in links(target).ids
            ):
                problems.append(f"{page}: {href} (no such anchor)")
    assert problems == []


def own_words(lang: str, page: str) -> str:
    """A page's text, without the glossary's English column (its terms are English on purpose)."""
    text = source(lang, page)
    if page == "glossary.md":
        text = re.sub(r"^\|[^|\n]*\|", "|", text, flags=re.MULTILINE)
    return text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_terminology(lang):
    text = " ".join(own_words(lang, p) for p in PAGES).lower()
    for word in FORBIDDEN.get(lang, ()):
        assert not re.search(rf"\b{re.escape(word)}\b", text), word
    cards_page = source(lang, "rules/cards-and-deal.md").lower()
    assert all(name in cards_page for name in SUIT_NAMES[lang])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_variants_table_takes_every_number_from_the_presets(lang):
    text = source(lang, "variants/compared.md")
    fields = (
        "knock_limit",
        "gin_bonus",
        "big_gin_bonus",
        "undercut_bonus",
        "tie",
        "game_target",
        "game_bonus",
        "box_bonus",
        "shutout",
    )
    missing = [
        f"{p}.{f}"
        for p in RULESETS
        for f in fields
        if not re.search(rf"\{{\{{\s*{p}\.{f}(?:_short)?\s*\}}\}}", text)
    ]  # a choice may be quoted in its short form (the words after the row's label)
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_page_has_a_live_example(lang, built_site):
    bare = [
        p
        for p in RULE_PAGES
        if 'class="gin-example' not in built(built_site, lang, p).read_text(encoding="utf-8")
    ]
    assert bare == []
