"""MkDocs hooks for the four-language site (loaded by mkdocs.yml; runs once per language build).

- Pages that fall back to English get a localized "not yet translated" notice.
- With GIN_I18N_STRICT=1 a missing translation fails the build instead.
- docs/assets/gin/ is written once, at the site root; every language loads that copy.
- Language switcher links are made relative, so the site works under any base path.
- One 404.html, the English one.
- No <link rel="alternate" hreflang> in <head>: material fetches sitemap.xml relative to each
  of them, expecting language roots; next to our per-page links that is a 404 per language.
  The switcher in the header keeps its per-page links.

- ```gin fences become pre-rendered live examples in the page's language (sitegen.examples),
  and {{ preset.field }} becomes that rule number (sitegen.macros).

MkDocs loads this module by file path; the repository root is put on sys.path so that it can
use the sitegen package.
"""

import logging
import os
import sys
from pathlib import Path
import re

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from sitegen import catalogs, examples, macros  # noqa: E402

STRICT_ENV = "GIN_I18N_STRICT"
SHARED_ASSETS = "assets/gin/"

NOTICES = {
    "ro": ("Pagină netradusă",
           "Această pagină nu a fost încă tradusă în limba română. Mai jos găsiți versiunea în engleză."),
    "hu": ("Még nincs lefordítva",
           "Ez az oldal még nem készült el magyarul. Alább az angol változatot olvashatod."),
    "it": ("Pagina non ancora tradotta",
           "Questa pagina non è ancora stata tradotta in italiano. Qui sotto trovi la versione inglese."),
}
DEFAULT_NOTICE = ("Not yet translated", "This page is not yet translated. The English version follows.")


class _DropInstantWarning(logging.Filter):
    """The i18n plugin warns that its per-page switcher links and navigation.instant do not mix
    (instant navigation does not redraw the header). With site_url empty the sitemap holds no
    absolute URLs, so material's instant navigation intercepts no links and every page loads in
    full: the switcher stays right. The warning must not abort the strict build."""

    def filter(self, record):
        return "navigation.instant" not in record.getMessage()


def _i18n(config):
    return config.plugins["i18n"]


def strict_i18n() -> bool:
    return os.environ.get(STRICT_ENV, "") not in ("", "0", "false", "no")


def on_config(config):
    logger = logging.getLogger("mkdocs.plugins.mkdocs_static_i18n.reconfigure")
    if not any(isinstance(f, _DropInstantWarning) for f in logger.filters):
        logger.addFilter(_DropInstantWarning())
    # One 404.html, in English: every language build would write the same file otherwise.
    # (It runs before the i18n plugin's on_config, which sets current_language on the first build.)
    i18n = _i18n(config)
    if (i18n.current_language or i18n.default_language) == i18n.default_language:
        config.theme.static_templates.add("404.html")
    else:
        config.theme.static_templates.discard("404.html")
    return config


@event_priority(-200)  # after the i18n plugin (-100) has localized the file list
def on_files(files, config):
    i18n = _i18n(config)
    language = i18n.current_language
    if language != i18n.default_language:
        for file in [f for f in files if f.src_uri.startswith(SHARED_ASSETS)]:
            files.remove(file)  # the root build writes it; pages link to ../assets/gin/
    if strict_i18n():
        missing = sorted(f.norm_src_uri for f in files.documentation_pages()
                         if getattr(f, "locale", language) != language)
        if missing:
            raise PluginError(f"missing {language} translation: docs/{language}/{missing[0]} "
                              f"({len(missing)} page(s); add them, or build without {STRICT_ENV})")
    return files


def on_page_markdown(markdown, page, config, files):
    language = _i18n(config).current_language
    locale = getattr(page.file, "locale", language)
    where = os.path.relpath(page.file.abs_src_path, Path(config.docs_dir).parent)
    catalog = catalogs.load(language)
    markdown = examples.render_page(macros.expand(markdown, where, catalog), where, catalog)
    if locale == language:
        return markdown
    title, text = NOTICES.get(language, DEFAULT_NOTICE)
    return f'!!! warning gin-untranslated "{title}"\n\n    {text}\n\n{markdown}'


def on_page_context(context, page, config, nav):
    # Runs after the i18n plugin (priority 50) set this page's alternates. Its links to a
    # language's home are absolute ("/ro/"); strip the slash so the `url` filter makes them
    # relative to the page. (It sets config.extra.alternate as an attribute, which templates
    # read before the dict item, so fix both.)
    for alternates in (getattr(config.extra, "alternate", None), config.extra.get("alternate")):
        for alternate in alternates or []:
            link = alternate.get("link", "")
            if link.startswith("/") and not link.startswith("//"):
                alternate["link"] = link.lstrip("/") or "./"
    return context


HEAD_ALTERNATE = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')


def on_post_page(output, page, config):
    head, sep, body = output.partition("</head>")
    return HEAD_ALTERNATE.sub("", head) + sep + body
