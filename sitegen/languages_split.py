"""Each language as a site of its own for search and navigation.

The i18n plugin builds one search index and one sitemap for all the languages together, so a
Romanian reader searching "undercut" gets English and Hungarian pages too, and material's
instant navigation follows links into another language (keeping the wrong language's header).
After the build, each language gets its own:

- ``<lang>/search/search_index.json``: that language's pages only (a page that falls back to
  English with its English text), stemmed in that language. Every word that has accents is
  also indexed without them ("alávágás" is found by "alavagas", "cărți" by "carti"), and a
  page's ``keywords`` (its front matter: the other ways readers spell its terms, such as
  "layoff" for lay-offs) find it too. Both go in fields of their own (:data:`FIELDS`), which
  lunr searches and material never shows: a result quotes the page's title and words as
  written;
- ``<lang>/sitemap.xml`` (and ``.gz``): that language's pages only, each with its alternates.

The default language's copies are the ones at the site root. A page's material config
(``__config.base``) then points at its language's root (:func:`language_base`), where material
looks for both files.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Collection
from pathlib import Path
from typing import Any

SearchDoc = dict[str, Any]
"""An entry of material's search index (``search/search_index.json``), as its JSON gives it:
``location``, ``title``, ``text``, and what else material writes."""

WORD = re.compile(r"\w+", re.UNICODE)
BASE = re.compile(r'("base":\s*")((?:\.\./)*\.\.)(")')
URL = re.compile(r"\s*<url>.*?</url>", re.S)


def fold(text: str) -> str:
    """``text`` without accents: "alávágás" -> "alavagas", "cărți" -> "carti"."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def unaccented(text: str) -> str:
    """Each word of the text that has accents, written without them (in order, once each):
    "Alávágás és döntetlen" -> "alavagas dontetlen es"."""
    return " ".join(sorted({fold(w) for w in WORD.findall(text.lower()) if fold(w) != w}))


FIELDS = {
    "title_unaccented": {"boost": 1e3},
    "text_unaccented": {"boost": 1e0},
    "keywords": {"boost": 1e3},
}
"""The search fields added to material's (title, text, tags), with their boosts: they are
searched like the title or the text, and never shown."""

FRONT = re.compile(r"\A---\n(.*?)\n---\n", re.S)
KEYWORDS = re.compile(r"^keywords:[ \t]*(.+?)[ \t]*$", re.M)


def page_keywords(docs_dir: Path, lang: str, location: str) -> str:
    """The ``keywords:`` of the page a search entry points at (its own language's page, else
    the English one it falls back to), with their unaccented forms; "" when it has none."""
    path = location.split("#", 1)[0].strip("/")
    names = (f"{path}.md", f"{path}/index.md") if path else ("index.md",)
    for folder in (lang, "en"):
        for name in names:
            source = docs_dir / folder / name
            if source.is_file():
                front = FRONT.match(source.read_text(encoding="utf-8"))
                found = front and KEYWORDS.search(front.group(1))
                words = found.group(1) if found else ""
                return f"{words} {unaccented(words)}".strip()
    return ""


def _with_search_fields(doc: SearchDoc, keywords: str) -> SearchDoc:
    extra = {
        "title_unaccented": unaccented(doc["title"]),
        "text_unaccented": unaccented(doc["text"]),
        "keywords": keywords,
    }
    return {**doc, **{name: value for name, value in extra.items() if value}}


def _prefix(lang: str, default: str) -> str:
    return "" if lang == default else f"{lang}/"


def _belongs(location: str, lang: str, default: str, languages: Collection[str]) -> bool:
    first = location.split("/", 1)[0] if "/" in location else ""
    if lang == default:
        return first not in languages
    return first == lang


def _page_of(root: Path, doc: SearchDoc) -> Path:
    """The built page a search entry points into, under a language's root."""
    location: str = doc["location"]
    return root / location.split("#", 1)[0] / "index.html"


def split_search_index(
    site_dir: Path, languages: tuple[str, ...], docs_dir: Path | None = None
) -> dict[str, int]:
    """Write each language's search index; returns how many entries each holds. ``docs_dir``
    holds the pages whose ``keywords`` go into their page's entry."""
    default = languages[0]
    combined = json.loads((site_dir / "search/search_index.json").read_text(encoding="utf-8"))
    counts = {}
    for lang in languages:
        prefix = _prefix(lang, default)
        docs = [
            {**doc, "location": doc["location"][len(prefix) :]}
            for doc in combined["docs"]
            if _belongs(doc["location"], lang, default, languages)
        ]
        if prefix:  # the i18n plugin dropped the entries a fallback page shares with English
            have = {doc["location"] for doc in docs}
            docs += [
                doc
                for doc in combined["docs"]
                if _belongs(doc["location"], default, default, languages)
                and doc["location"] not in have
                and _page_of(site_dir / prefix, doc).is_file()
            ]
        docs = [
            _with_search_fields(
                doc,
                page_keywords(docs_dir, lang, doc["location"])
                if docs_dir and "#" not in doc["location"]
                else "",
            )
            for doc in docs
        ]
        config = {**combined["config"], "lang": [lang]}
        config["fields"] = {**config.get("fields", {}), **FIELDS}
        index = {**combined, "config": config, "docs": docs}
        out = site_dir / prefix / "search/search_index.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(
            json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
        )
        counts[lang] = len(docs)
    return counts


def split_sitemap(site_dir: Path, languages: tuple[str, ...], site_url: str) -> None:
    """Write each language's sitemap: its pages, each with all its alternates. Locations stay
    absolute when the site has a ``site_url`` ("" when it has none); relative ones become
    relative to the language's root."""
    default = languages[0]
    text = (site_dir / "sitemap.xml").read_text(encoding="utf-8")
    head = text.partition("<url>")[0].rstrip()
    entries = URL.findall(text)
    for lang in languages:
        prefix = _prefix(lang, default)
        mine = []
        for entry in entries:
            loc = re.search(r"<loc>(.*?)</loc>", entry).group(1)  # type: ignore[union-attr]  # every <url> has a <loc>
            absolute = bool(site_url) and loc.startswith(site_url)
            if not _belongs(loc[len(site_url) :] if absolute else loc, lang, default, languages):
                continue
            if not absolute and prefix:
                entry = entry.replace(
                    f"<loc>{loc}</loc>", f"<loc>{loc[len(prefix) :] or './'}</loc>"
                )
                entry = re.sub(r'href="(?![a-z]+:)', 'href="../', entry)
            mine.append(entry)
        body = f"{head}{''.join(mine)}\n</urlset>\n"
        out = site_dir / prefix / "sitemap.xml"
        out.write_text(body, encoding="utf-8")  # its .gz: sitegen.compress


def language_base(html: str) -> str:
    """A page of a language other than the default: material's ``base`` one level up less,
    so that it names the language's root ("../.." instead of "../../..")."""

    def up_one_less(match: re.Match[str]) -> str:
        start, path, end = match.group(1, 2, 3)
        return f"{start}{'/'.join(path.split('/')[:-1]) or '.'}{end}"

    return BASE.sub(up_one_less, html, count=1)
