"""Adding a language in one command, and the translation status of every language."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sitegen import BuildError, catalogs
from sitegen.languages import i18n_languages, languages, supported
from sitegen.languages_split import FIELDS, language_base, split_search_index, split_sitemap
from sitegen.new_language import add_language
from sitegen.translations import mark_translated, translation_status

REPO = Path(__file__).resolve().parents[2]


def project_copy(tmp_path: Path) -> Path:
    """What adding a language touches, copied: mkdocs.yml, the catalogs, the pages, lessons."""
    root = tmp_path / "project"
    for name in ("locales", "docs", "tutorials"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("assets"))
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    return root


def test_a_new_language_gets_its_catalog_folder_and_entry(tmp_path):
    root = project_copy(tmp_path)
    before = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    written = add_language("ru", root)
    assert [p.relative_to(root).as_posix() for p in written] == [
        "locales/ru.po",
        "docs/ru/.gitkeep",
        "mkdocs.yml",
    ]
    assert languages(root) == ("en", "ro", "hu", "it", "ru")
    assert i18n_languages(root / "mkdocs.yml")[-1] == {
        "locale": "ru",
        "name": "Русский",
        "build": True,
    }
    # The rest of mkdocs.yml is as it was, comments and all: the entry is added, nothing else.
    after = (root / "mkdocs.yml").read_text(encoding="utf-8")
    assert (
        after.replace("        - locale: ru\n          name: Русский\n          build: true\n", "")
        == before
    )
    # Every English message, none translated, with Russian's three plural forms.
    po = (root / "locales/ru.po").read_text(encoding="utf-8")
    assert '"Language: ru\\n"' in po and "nplurals=3;" in po and 'msgstr[2] ""' in po
    assert catalogs.message_states("ru", root / "locales") == {
        key: "missing" for key in catalogs.source_messages(root / "locales")
    }
    # Until a message is translated, the build and the browser use the English text.
    cat = catalogs.load("ru", root / "locales")
    english = catalogs.load("en", root / "locales")
    assert cat.messages == english.messages
    assert [cat.text("unit.points", count=n) for n in (1, 2, 5)] == [
        "1 point",
        "2 points",
        "5 points",
    ]


@pytest.mark.parametrize(
    "code, error",
    [
        ("ro", "'ro' is already a language of the site (mkdocs.yml)"),
        ("xx", "cannot add 'xx': Material for MkDocs and lunr.js both support only ar, da, de,"),
        ("el", "cannot add 'el': "),  # Material has Greek, lunr.js (as MkDocs ships it) does not
        ("../de", "cannot add '../de': "),
    ],
)
def test_a_language_the_site_cannot_have_is_refused(tmp_path, code, error):
    root = project_copy(tmp_path)
    with pytest.raises(BuildError) as caught:
        add_language(code, root)
    assert str(caught.value).startswith(error)
    assert languages(root) == ("en", "ro", "hu", "it")
    assert sorted(p.name for p in (root / "locales").iterdir()) == [
        "hu.po",
        "it.po",
        "messages.pot",
        "ro.po",
    ]


def test_a_leftover_catalog_is_not_overwritten(tmp_path):
    root = project_copy(tmp_path)
    (root / "locales/de.po").write_text("# my work\n", encoding="utf-8")
    with pytest.raises(BuildError, match=r"locales/de.po already exists"):
        add_language("de", root)
    assert (root / "locales/de.po").read_text(encoding="utf-8") == "# my work\n"
    assert languages(root) == ("en", "ro", "hu", "it")


def test_the_languages_material_and_lunr_both_support():
    assert {"en", "ro", "hu", "it", "de", "fr", "es"} <= set(supported())
    assert "el" not in supported() and "xx" not in supported()


@pytest.mark.slow
def test_the_command_line_adds_a_language_and_refuses_a_bad_one(tmp_path):
    root = project_copy(tmp_path)
    shutil.copytree(REPO / "sitegen", root / "sitegen")  # python -m sitegen in the copy

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "sitegen", *args], cwd=root, capture_output=True, text=True
        )

    done = run("new-language", "de")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["locales/de.po", "docs/de/.gitkeep", "mkdocs.yml"]
    again = run("new-language", "de")
    assert again.returncode == 1
    assert again.stderr == "error: 'de' is already a language of the site (mkdocs.yml)\n"
    status = run("translation-status")
    assert status.returncode == 0, status.stderr
    total = len(catalogs.source_messages())
    pages = len(list((REPO / "docs/en").rglob("*.md")))
    lessons = len(list((REPO / "tutorials").glob("*.yaml")))
    assert status.stdout.split("\n")[-5:] == [
        "de (Deutsch)",
        f"  catalog: 0 translated, 0 fuzzy, {total} missing (of {total})",
        f"  pages:   0 translated, 0 older than English, {pages} missing (of {pages})",
        f"  lessons: 0 translated, {lessons} not translated (of {lessons})",
        "",
    ]


def test_the_status_counts_messages_pages_and_lessons(tmp_path):
    root = project_copy(tmp_path)
    add_language("de", root)
    # One page translated as the English is now, one translated from an older English page.
    (root / "docs/de/about.md").write_text("# Über diese Seite\n", encoding="utf-8")
    mark_translated(root / "docs", "de", ["about.md"])
    (root / "docs/de/faq.md").write_text(
        "---\ntranslates: 0123456789ab\n---\n# Fragen\n", encoding="utf-8"
    )
    # A message translated, one fuzzy, every message of lesson "cards" translated.
    po = root / "locales/de.po"
    text = po.read_text(encoding="utf-8")
    for key in ["ui.not_found_title"] + [
        k for k in catalogs.source_messages() if k.startswith("lesson.cards.")
    ]:
        english = catalogs.source_messages()[key]
        assert isinstance(english, str)
        entry = f'msgctxt "{key}"\nmsgid {json.dumps(english, ensure_ascii=False)}\nmsgstr ""'
        assert entry in text, key
        text = text.replace(entry, entry[:-2] + json.dumps(f"[de] {english}", ensure_ascii=False))
    text = text.replace('msgctxt "ui.permalink"', '#, fuzzy\nmsgctxt "ui.permalink"')
    po.write_text(text, encoding="utf-8")
    status = {s.language: s for s in translation_status(root)}
    de = status["de"]
    assert de.pages["translated"] == ["about.md"] and de.pages["outdated"] == ["faq.md"]
    assert "index.md" in de.pages["missing"] and "about.md" not in de.pages["missing"]
    assert de.messages["fuzzy"] == ["ui.permalink"]
    assert "ui.not_found_title" in de.messages["translated"]
    assert de.lessons["translated"] == ["cards"] and "melds" in de.lessons["missing"]
    total = len(catalogs.source_messages())
    done = 1 + sum(key.startswith("lesson.cards.") for key in catalogs.source_messages())
    pages = len(list((REPO / "docs/en").rglob("*.md")))
    lessons = len(list((REPO / "tutorials").glob("*.yaml")))
    assert de.lines()[:4] == [
        "de (Deutsch)",
        f"  catalog: {done} translated, 1 fuzzy, {total - done - 1} missing (of {total})",
        f"  pages:   1 translated, 1 older than English, {pages - 2} missing (of {pages})",
        f"  lessons: 1 translated, {lessons - 1} not translated (of {lessons})",
    ]
    assert "    older than English: faq.md" in de.lines()
    assert any(line.startswith("    missing pages: ") for line in de.lines(details=True))
    ro = status["ro"]
    assert not ro.messages["missing"] and not ro.pages["missing"] and not ro.lessons["missing"]


def test_a_fallback_page_is_found_in_its_languages_search(tmp_path):
    """The i18n plugin drops a language's search entries that say what the English ones say
    (a page that falls back to English): each language's index gets them back."""
    site = tmp_path / "site"
    for page in ("", "de/", "rules/", "de/rules/"):
        (site / page).mkdir(parents=True, exist_ok=True)
        (site / page / "index.html").write_text("<html></html>", encoding="utf-8")

    def entry(location, text):
        return {"location": location, "title": text, "text": text}

    (site / "search").mkdir()
    (site / "search/search_index.json").write_text(
        json.dumps(
            {
                "config": {"lang": ["en"]},
                "docs": [
                    entry("", "Home"),
                    entry("rules/", "Rules"),
                    entry("rules/#melds", "Melds"),
                    entry("lessons/", "Lessons"),  # no de/lessons/ page: not a de entry
                    entry("de/rules/", "Nicht übersetzt Rules"),
                ],
            }
        ),
        encoding="utf-8",
    )
    assert split_search_index(site, ("en", "de")) == {"en": 4, "de": 3}
    de = json.loads((site / "de/search/search_index.json").read_text(encoding="utf-8"))
    assert de["config"] == {"lang": ["de"], "fields": FIELDS}  # stemmed in its own language
    # the title is shown as written; its word without accents is searched in a field of its own
    assert [(d["location"], d["title"], d.get("title_unaccented")) for d in de["docs"]] == [
        ("rules/", "Nicht übersetzt Rules", "ubersetzt"),
        ("", "Home", None),
        ("rules/#melds", "Melds", None),
    ]


def test_a_pages_keywords_and_unaccented_words_are_searched_not_shown(tmp_path):
    """A page's front-matter keywords (how readers also spell its terms) go into its page
    entry, with their unaccented forms; a translation without its own page uses the English
    page's; the title and text stay as written."""
    site, docs = tmp_path / "site", tmp_path / "docs"
    for page in ("", "hu/", "lay-offs/", "hu/lay-offs/"):
        (site / page).mkdir(parents=True, exist_ok=True)
        (site / page / "index.html").write_text("<html></html>", encoding="utf-8")
    (docs / "en").mkdir(parents=True)
    (docs / "hu").mkdir()
    (docs / "en/lay-offs.md").write_text("---\nkeywords: layoff lay off\n---\n# Lay-offs\n")
    (docs / "hu/lay-offs.md").write_text("---\ntranslates: abc\nkeywords: layoff szúrni\n---\n")
    (docs / "en/index.md").write_text("# Gin rummy\n")
    (site / "search").mkdir()
    entries = [
        ("", "Gin rummy", "Play"),
        ("lay-offs/", "Lay-offs", "Laying off"),
        ("lay-offs/#chains", "Chains", "Runs grow"),
        ("hu/", "Gin rummy", "Játék"),
        ("hu/lay-offs/", "Szúrás", "Kártyák <code>7♥</code>"),
    ]
    (site / "search/search_index.json").write_text(
        json.dumps(
            {
                "config": {"lang": ["en"], "fields": {"title": {"boost": 1000.0}}},
                "docs": [{"location": loc, "title": t, "text": x} for loc, t, x in entries],
            }
        ),
        encoding="utf-8",
    )
    split_search_index(site, ("en", "hu"), docs)
    index = {
        lang: json.loads((site / path / "search/search_index.json").read_text(encoding="utf-8"))
        for lang, path in (("en", ""), ("hu", "hu"))
    }
    assert index["hu"]["config"]["fields"] == {"title": {"boost": 1000.0}, **FIELDS}
    hu = {d["location"]: d for d in index["hu"]["docs"]}
    assert hu["lay-offs/"] == {
        "location": "lay-offs/",
        "title": "Szúrás",
        "text": "Kártyák <code>7♥</code>",
        "title_unaccented": "szuras",
        "text_unaccented": "kartyak",
        "keywords": "layoff szúrni szurni",
    }
    assert hu[""] == {
        "location": "",
        "title": "Gin rummy",
        "text": "Játék",
        "text_unaccented": "jatek",
    }
    en = {d["location"]: d for d in index["en"]["docs"]}
    assert en["lay-offs/"]["keywords"] == "layoff lay off"
    assert "keywords" not in en["lay-offs/#chains"] and "keywords" not in en[""]


SITEMAP_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
    'xmlns:xhtml="http://www.w3.org/1999/xhtml">'
)


def sitemap_url(loc: str, alternates: dict[str, str]) -> str:
    links = "".join(
        f'\n        <xhtml:link rel="alternate" hreflang="{lang}" href="{href}"/>'
        for lang, href in alternates.items()
    )
    return f"\n    <url>\n        <loc>{loc}</loc>{links}\n    </url>"


@pytest.mark.parametrize("site_url", ["", "https://example.org/gin/"])
def test_each_language_has_a_sitemap_of_its_own_pages(tmp_path, site_url):
    """A language's sitemap lists its pages only, each with all its alternates. Without a
    site_url, the locations are relative, and become relative to the language's root; with
    one, they stay as they are."""
    pages = [("", "de/"), ("rules/", "de/rules/")]  # each page in English and German
    (tmp_path / "de").mkdir()
    (tmp_path / "sitemap.xml").write_text(
        SITEMAP_HEAD
        + "".join(
            sitemap_url(site_url + loc, {"en": site_url + en, "de": site_url + de})
            for en, de in pages
            for loc in (en, de)
        )
        + "\n</urlset>\n",
        encoding="utf-8",
    )
    split_sitemap(tmp_path, ("en", "de"), site_url)
    written = {
        lang: (tmp_path / folder / "sitemap.xml").read_text(encoding="utf-8")
        for lang, folder in (("en", ""), ("de", "de"))
    }
    for lang, text in written.items():
        assert text.startswith(SITEMAP_HEAD) and text.endswith("\n</urlset>\n"), lang
    locs = {lang: re.findall(r"<loc>(.*?)</loc>", text) for lang, text in written.items()}
    hrefs = {lang: re.findall(r'href="(.*?)"', text) for lang, text in written.items()}
    if site_url:
        assert locs == {
            "en": [site_url, site_url + "rules/"],
            "de": [site_url + "de/", site_url + "de/rules/"],
        }
        assert (
            hrefs["en"]
            == hrefs["de"]
            == [
                site_url,
                site_url + "de/",
                site_url + "rules/",
                site_url + "de/rules/",
            ]
        )
    else:
        assert locs == {"en": ["", "rules/"], "de": ["./", "rules/"]}
        assert hrefs == {
            "en": ["", "de/", "rules/", "de/rules/"],
            "de": ["../", "../de/", "../rules/", "../de/rules/"],
        }


def test_a_page_of_another_language_names_its_languages_root_as_base():
    """material's ``base`` (where it finds the search index and the sitemap) one level up less,
    and only the config's: the same text further down the page is left alone."""
    config = '<script id="__config">{"base": "../../..", "features": []}</script>'
    quoted = '<code>"base": "../.."</code>'
    assert language_base(config + quoted) == config.replace("../../..", "../..") + quoted
    assert language_base('{"base": ".."}') == '{"base": "."}'


def test_a_config_laid_out_otherwise_is_left_as_it_was(tmp_path):
    from sitegen.languages import register

    config = tmp_path / "mkdocs.yml"
    text = "plugins:\n  - i18n:\n      languages:\n      - locale: en\n        default: true\n"
    config.write_text(text, encoding="utf-8")
    with pytest.raises(BuildError, match=r"cannot add 'de' to the i18n plugin's languages"):
        register(config, "de", "Deutsch")
    assert config.read_text(encoding="utf-8") == text
    # Adding the language then leaves no catalog or folder behind.
    root = project_copy(tmp_path)
    (root / "mkdocs.yml").write_text(text, encoding="utf-8")
    with pytest.raises(BuildError, match=r"cannot add 'de'"):
        add_language("de", root)
    assert not (root / "locales/de.po").exists() and not (root / "docs/de").exists()


def test_a_new_catalog_has_the_header_a_translator_needs(tmp_path):
    """A region's code (pt-BR) is read; the header names the project, the language and its team,
    and is dated, not left fuzzy; a language with no catalog yet has every message missing."""
    shutil.copy(REPO / "locales/messages.pot", tmp_path / "messages.pot")
    assert catalogs.message_states("pt-BR", tmp_path) == {
        key: "missing" for key in catalogs.source_messages(tmp_path)
    }
    po = catalogs.new_catalog("pt-BR", tmp_path).read_text(encoding="utf-8")
    header = po.split("\n\n", 1)[0]
    for line in [
        "# Portuguese (Brazil) translation of the gin rummy rules site.",
        '"Project-Id-Version: gin-rummy-site 1.0\\n"',
        '"Last-Translator: Gin rummy site translators\\n"',
        '"Language: pt_BR\\n"',
        '"Language-Team: Portuguese (Brazil)\\n"',
    ]:
        assert line in header.splitlines()
    assert "fuzzy" not in header and re.search(r'"PO-Revision-Date: \d{4}-\d\d-\d\d ', header)
    # translated there, the catalog the wheel ships has it
    po = po.replace(
        'msgctxt "card.rank.1"\nmsgid "ace"\nmsgstr ""',
        'msgctxt "card.rank.1"\nmsgid "ace"\nmsgstr "ás"',
    )
    (tmp_path / "pt-BR.po").write_text(po, encoding="utf-8")
    assert catalogs.catalog_json("pt-BR", tmp_path)["messages"]["card.rank.1"] == "ás"


@pytest.mark.parametrize(
    "language, page, problem",
    [
        ("ro", "../../README.md", "../../README.md: not a page of docs/ro/"),
        ("ro", "{root}/README.md", "/README.md: not a page of docs/ro/"),
        ("ro", "../en/about.md", "../en/about.md: not a page of docs/ro/"),
        ("ro", "nope.md", "nope.md: not a page of docs/ro/"),
        ("ro", "", ": not a page of docs/ro/"),
        ("en", "about.md", "'en' is not a translated language of the site"),
        ("..", "README.md", "'..' is not a translated language of the site"),
        ("xx", "about.md", "'xx' is not a translated language of the site"),
    ],
)
def test_only_pages_of_the_site_are_marked_translated(tmp_path, language, page, problem):
    """Whatever path is named, nothing outside the language's own pages is written."""
    root = project_copy(tmp_path)
    (root / "README.md").write_text("# Project\n", encoding="utf-8")
    page = page.format(root=root)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    with pytest.raises(BuildError) as info:
        mark_translated(root / "docs", language, ["about.md", page])
    assert problem in str(info.value)
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


def test_a_translated_page_without_an_english_page_is_not_marked(tmp_path):
    root = project_copy(tmp_path)
    (root / "docs/ro/extra.md").write_text("# În plus\n", encoding="utf-8")
    with pytest.raises(BuildError, match=r"^docs/ro/extra.md: no English page docs/en/extra.md$"):
        mark_translated(root / "docs", "ro", ["extra.md"])
    assert mark_translated(root / "docs", "ro", ["./rules//melds.md"]) == ["rules/melds.md"]


@pytest.mark.parametrize(
    "entry, problem",
    [
        ("        - locale: xx\n          name: X\n", "the site cannot have the language 'xx'"),
        ("        - locale: ro\n          name: Again\n", "the language 'ro' is listed twice"),
        ("        - locale: de\n          name: Deutsch\n", "de.po: no catalog for 'de'"),
    ],
)
def test_a_language_the_site_cannot_have_is_named_with_its_line(tmp_path, entry, problem):
    root = project_copy(tmp_path)
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    at = text.index("        - locale: it\n")
    config.write_text(text[:at] + entry + text[at:], encoding="utf-8")
    line = text[:at].count("\n") + 1
    languages.cache_clear()
    with pytest.raises(BuildError) as failure:
        catalogs.install_all(root / "locales", root)
    message = str(failure.value)
    assert problem in message and "\n" not in message
    if "de.po" not in problem:
        assert message.startswith(f"{config}:{line}: ")
    languages.cache_clear()
