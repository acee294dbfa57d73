"""The plugin's hooks (sitegen.plugin.GinPlugin) without a whole build: on a small MkDocs config
whose i18n plugin is a stand-in, building one language of two. (The whole site, built:
tests/site/test_site.py.)"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest
from mkdocs.config.defaults import MkDocsConfig

from sitegen.catalogs import load
from sitegen.plugin import GinPlugin, outdated_notice

REPO = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "ro")


def config_for(tmp_path: Path, language: str) -> MkDocsConfig:
    """A config building ``language``, with the i18n plugin's facts the hooks read."""
    (tmp_path / "docs").mkdir(exist_ok=True)
    config = MkDocsConfig()
    config.load_dict(
        {"site_name": "Gin", "docs_dir": str(tmp_path / "docs"), "site_dir": str(tmp_path / "site")}
    )
    assert config.validate() == ([], [])
    config.plugins._current_plugin = "gin"  # what MkDocs sets while a plugin's hook runs
    config.plugins["i18n"] = SimpleNamespace(  # type: ignore[assignment]
        default_language="en",
        current_language=language,
        all_languages=list(LANGUAGES),
        build_languages=list(LANGUAGES),
    )
    return config


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_generated_page_lands_where_the_i18n_plugin_puts_a_written_one(tmp_path, language):
    """A lesson page the build writes: the default language's at the site's root, another's in
    its folder, each with the same page in every language as its alternates."""
    page = GinPlugin()._generated(
        config_for(tmp_path, language), "lessons/melds.md", "# Melds", language
    )
    folder = "" if language == "en" else f"{language}/"
    assert (page.dest_path, page.url) == (
        f"{folder}lessons/melds/index.html",
        f"{folder}lessons/melds/",
    )
    assert (page.content_string, page.generated_by) == ("# Melds", "gin")
    assert {lang: file.url for lang, file in page.alternates.items()} == {
        "en": "lessons/melds/",
        "ro": "ro/lessons/melds/",
    }
    assert page.alternates[language] is page


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_built_page_loses_the_heads_alternate_links_and_names_its_languages_root(
    tmp_path, language
):
    """The i18n plugin's alternate links in the head go (the sitemaps name the alternates);
    the same markup in the page's body stays. A page of another language than the default
    names its language's root as material's base."""
    link = '<link rel="alternate" href="../ro/" hreflang="ro">'
    page = (
        f'<head>\n  <meta charset="utf-8">\n  {link}\n</head>\n'
        f'<body>{link}<script id="__config">{{"base": "../.."}}</script></body>'
    )
    output = GinPlugin().on_post_page(page, None, config_for(tmp_path, language))
    base = '"base": "../.."' if language == "en" else '"base": ".."'
    assert output == (
        '<head>\n  <meta charset="utf-8">\n</head>\n'
        f'<body>{link}<script id="__config">{{{base}}}</script></body>'
    )


NOT_FOUND = (REPO / "sitegen/overrides/404.html").read_text(encoding="utf-8")
MAIN = "{% block site_meta %}{% endblock %}{% block config %}{% endblock %}{% block content %}{% endblock %}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_404_page_speaks_its_language_and_links_home_and_to_the_lessons(tmp_path, language):
    """The "page not found" page, drawn from the theme's template with what the plugin gives
    it: its title and text, and links to its language's home and lessons, in its words."""
    context = GinPlugin().on_template_context({}, "404.html", config_for(tmp_path, language))
    templates = jinja2.DictLoader({"404.html": NOT_FOUND, "main.html": MAIN})
    html = jinja2.Environment(loader=templates).get_template("404.html").render(context)
    cat, folder = load(language), "" if language == "en" else f"{language}/"
    assert f"<h1>{cat.text('ui.not_found_title')}</h1>" in html
    assert f"<p>{cat.text('ui.not_found_text')}</p>" in html
    assert f'<a href="{folder or "./"}">{cat.text("ui.not_found_home")}</a>' in html
    assert f'<a href="{folder}lessons/">{cat.text("ui.not_found_lessons")}</a>' in html
    # a missing page of another language is sent to its own 404 page from the default one's
    assert ("var first = location" in html) and ('["ro"]' in html) == (language == "en")
    assert context["gin_footer"]["about"] == f"{folder}about/"


def test_an_outdated_translation_says_so_and_links_to_its_english_page():
    cat = load("ro")
    english = SimpleNamespace(url="rules/knock/")
    page = SimpleNamespace(file=SimpleNamespace(url="ro/rules/knock/", alternates={"en": english}))
    notice = outdated_notice(cat, page)
    assert notice == (
        f'!!! warning gin-outdated "{cat.text("ui.outdated_title")}"\n\n'
        f"    {cat.text('ui.outdated_text')} "
        f'<a href="../../../rules/knock/">{cat.text("ui.outdated_link")}</a>\n\n'
    )
    page.file = SimpleNamespace(url="ro/rules/knock/")  # no alternates known: no link
    bare = outdated_notice(cat, page)
    assert "<a " not in bare and cat.text("ui.outdated_text") in bare
