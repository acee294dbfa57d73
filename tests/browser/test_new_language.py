"""A fifth language, end to end: in a copy of the project, the commands CONTRIBUTING.md gives
(``python -m sitegen new-language de``, a build) give a German site where every page falls
back to English with its notice; in real Chromium its pages, examples, lessons, search,
switcher, footer and 404 page work. Then one page and one message are translated, the site is
built again and both show.

One test, in order: it builds the site twice (the wheels and snapshot change with the
catalogs), so it is the slowest test of the suite, a few minutes.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

from ginview.examples import render

from sitegen import catalogs
from sitegen.languages import languages
from sitegen.translations import english_digest
from tests.browser.conftest import serve
from tests.browser.test_examples import NORMALISE
from tests.browser.test_lessons import feedback
from tests.browser.test_search import search
from tests.site.test_contributing import guide_commands, run_command

REPO = Path(__file__).resolve().parents[2]
NEW = "de"
TIMEOUT_MS = 60000
COPIED = ("sitegen", "docs", "locales", "tutorials", "mkdocs.yml")
SHARED = ("engine", "presentation", "package.json", "node_modules", ".cache", ".venv")
"""Read only by the build: linked, not copied (the caches are keyed by their contents)."""


GIN_PLUGIN = "  - gin:\n"
FAST_BROTLI = "      brotli_quality: 1\n"
"""The copy's mkdocs.yml gives the gin plugin a low Brotli quality (the setting is there to
build faster): each build makes a new snapshot (14 MB), which Brotli's highest quality takes
about a minute to compress; the precompressed copies are still made and served, only smaller by
less."""


def project_copy(root: Path) -> Path:
    root.mkdir(parents=True)
    for name in COPIED:
        copy = shutil.copytree if (REPO / name).is_dir() else shutil.copy
        copy(REPO / name, root / name)
    for name in SHARED:
        if (REPO / name).exists():
            (root / name).symlink_to(REPO / name)
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    assert config.count(GIN_PLUGIN) == 1, "mkdocs.yml: no gin plugin entry to configure"
    (root / "mkdocs.yml").write_text(
        config.replace(GIN_PLUGIN, GIN_PLUGIN + FAST_BROTLI), encoding="utf-8"
    )
    return root


def sitegen(root: Path, *args: str) -> str:
    """``python -m sitegen …`` run in the copy, as a contributor runs it; its output."""
    done = subprocess.run(
        [sys.executable, "-m", "sitegen", *args], cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, f"python -m sitegen {' '.join(args)}: {done.stderr}"
    return done.stdout


def translate_message(po: Path, key: str, text: str) -> None:
    entry = re.compile(rf'(msgctxt "{re.escape(key)}"\nmsgid "(?:[^"\\]|\\.)*"\n)msgstr ""')
    source = po.read_text(encoding="utf-8")
    assert entry.search(source), key
    po.write_text(
        entry.sub(lambda m: m.group(1) + f"msgstr {json.dumps(text, ensure_ascii=False)}", source),
        encoding="utf-8",
    )


def heading(page) -> str:
    return page.locator("article h1").inner_text().rstrip("¶").strip()


def check_fallback_site(page, base: str, root: Path) -> None:
    english = catalogs.load("en")
    # A page: German in its <html>, the English text with the English "not translated" notice.
    page.goto(f"{base}{NEW}/rules/melds/")
    assert page.locator("html").get_attribute("lang") == NEW
    assert heading(page) == "Melds"
    notice = page.locator(".gin-untranslated")
    assert notice.locator(".admonition-title").inner_text() == english.text(
        "ui.not_translated_title"
    )
    # The switcher offers this page in all five languages; the English page offers German.
    switcher = page.eval_on_selector_all(
        ".md-select__link[hreflang]",
        """(links) =>
        Object.fromEntries(links.map((a) => [a.getAttribute("hreflang"),
                                            [new URL(a.href).pathname, a.textContent.trim()]]))""",
    )
    home = urlsplit(base).path
    assert switcher[NEW] == [f"{home}{NEW}/rules/melds/", "Deutsch"], switcher
    assert set(switcher) == {*languages(), NEW}
    # The footer's licences, in English until translated, link to German's About page.
    licence = page.locator(".md-copyright__highlight")
    assert "CC BY-SA 4.0" in licence.inner_text()
    assert licence.locator("a").last.inner_text() == english.text("ui.licence_about")
    assert (
        urlsplit(licence.locator("a").last.evaluate("(a) => a.href")).path == f"{home}{NEW}/about/"
    )
    page.goto(f"{base}rules/melds/")
    link = page.locator(f'.md-select__link[hreflang="{NEW}"]')
    assert link.get_attribute("href").endswith(f"{NEW}/rules/melds/")

    # An example: the engine redraws it in the worker as CPython draws it, in German's catalog.
    page.goto(f"{base}{NEW}/rules/melds/")
    example = page.locator(".gin-example").first
    example.hover()  # the reader points at it: the engine boots
    page.wait_for_function(
        "() => 'ginReady' in document.querySelector('.gin-example').dataset", timeout=TIMEOUT_MS
    )
    example.locator("details.gin-type").evaluate("(d) => d.open = true")
    field = example.locator('.gin-text[data-field="hand"]')
    field.fill("AS 2S 3S 7H 7D 7C 9C TC JC KD")
    field.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.gin-example').dataset.ginAnswered", timeout=TIMEOUT_MS
    )
    state = json.loads(example.get_attribute("data-gin"))
    assert state["hand"] == "AS 2S 3S 7H 7D 7C 9C TC JC KD"
    expected = render(state, catalogs.load(NEW, root / "locales")).view
    view = example.locator(".gin-view").inner_html()
    assert page.evaluate(NORMALISE, view) == page.evaluate(NORMALISE, expected)

    # A lesson: the engine judges an answer, and says so in the catalog's (English) words.
    page.goto(f"{base}{NEW}/lessons/03-deadwood/")
    page.wait_for_selector(".gin-lesson[data-gin-lesson-ready]")
    page.fill("#step-count input.gin-number", "10")
    page.press("#step-count input.gin-number", "Enter")
    assert english.text("tutorial.right") in feedback(page, "count", "right")

    # Search: German's own index, which holds the pages that fall back to English.
    page.goto(f"{base}{NEW}/rules/melds/")
    links = search(page, "undercut")
    assert links and all(f"/{NEW}/" in link for link in links), links

    # The 404 page of the language, at any depth.
    page.goto(f"{base}{NEW}/no/such/page/")
    assert page.locator("html").get_attribute("lang") == NEW
    assert heading(page) == english.text("ui.not_found_title")


def test_a_fifth_language_in_one_command(tmp_path, new_page):
    root = project_copy(tmp_path / "project")
    # The commands CONTRIBUTING.md gives: new-language, build, translation-status.
    output = []
    for command in guide_commands("Add a language"):
        done = run_command(command, root)
        assert done.returncode == 0, f"{command}: {done.stderr}"
        output.append(done.stdout)
    assert output[0].split() == [f"locales/{NEW}.po", f"docs/{NEW}/.gitkeep", "mkdocs.yml"]
    assert f"{NEW} (Deutsch)\n  catalog: 0 translated, 0 fuzzy, " in output[2]
    page, log = new_page()
    with serve(root / "site") as base:
        check_fallback_site(page, base, root)
    assert not log.page_errors, log.page_errors

    # One page and one message translated; the page says which English page it translates.
    (root / "docs" / NEW / "about.md").write_text(
        "# Über diese Seite\n\nDiese Seite erklärt die Regeln von Gin Rummy.\n", encoding="utf-8"
    )
    assert sitegen(root, "mark-translated", NEW, "about.md").split() == [f"docs/{NEW}/about.md"]
    translate_message(
        root / "locales" / f"{NEW}.po", "ui.not_translated_title", "Noch nicht übersetzt"
    )
    status = sitegen(root, "translation-status")
    assert f"{NEW} (Deutsch)\n  catalog: 1 translated, " in status
    pages = len(list((REPO / "docs/en").rglob("*.md")))
    assert f"  pages:   1 translated, 0 older than English, {pages - 1} missing" in status
    sitegen(root, "build")
    page, log = new_page()
    with serve(root / "site") as base:
        page.goto(f"{base}{NEW}/about/")
        assert heading(page) == "Über diese Seite"
        assert page.locator(".gin-untranslated, .gin-outdated").count() == 0
        page.goto(f"{base}{NEW}/rules/melds/")
        assert (
            page.locator(".gin-untranslated .admonition-title").inner_text()
            == "Noch nicht übersetzt"
        )
        # The English about page is untouched.
        page.goto(f"{base}about/")
        assert heading(page) == "About this site"
    assert not log.page_errors, log.page_errors
    assert english_digest(root / "docs", "about.md") == english_digest(REPO / "docs", "about.md")
