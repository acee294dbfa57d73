"""The gin MkDocs plugin: live examples, rule numbers, lessons and the browser's runtime.

Configured in ``mkdocs.yml`` like any plugin (after ``i18n``, which builds once per language)::

    plugins:
      - gin:
          tutorials: tutorials     # lesson files (sitegen.lessons)
          locales: locales         # catalogs (sitegen.catalogs)
          strict_i18n: false       # true: a page missing in a language fails the build
          runtime: true            # false: pages only, no Pyodide runtime (faster, for tests)

For every page, in the page's language:

- ``{{ preset.field }}`` becomes that rule number (:mod:`sitegen.macros`);
- each ```gin fence becomes a complete, pre-drawn live example (:mod:`sitegen.fences`);
- a page that falls back to English gets the catalogs' "not yet translated" notice.

The lessons (``tutorials/*.yaml``) become generated pages in MkDocs' own file collection, one
per language (:mod:`sitegen.lessons`), and are added to the "Lessons" section of the nav.
After the last language, the runtime the browser runs is written into the site: the Pyodide
files, the wheels of the engine and the presentation layer, the memory snapshot, and
``assets/gin/runtime.js``, which points at them (:mod:`sitegen.runtime`); then the service
worker, the manifests and the icons (:mod:`sitegen.offline`), and last the precompressed copies
of every file (:mod:`sitegen.compress`).

Besides: ``docs/assets/gin/`` is written once, at the site root (every language loads that
copy); the language switcher's links are made relative, so the site works under any base
path; a 404 page per language that works at any depth (:data:`FIND_ROOT`); no ``<link
rel="alternate" hreflang>`` in ``<head>`` (material fetches ``sitemap.xml`` relative to each of
them, expecting language roots: a 404 per language); each language's own search index and
sitemap (:mod:`sitegen.languages_split`).
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import tempfile
from pathlib import Path

from ginview.catalog import Html, esc
from ginview.page import page_html
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import File, Files

from . import BuildError, catalogs, fences, lessons, macros
from .compress import precompress_site
from .csp import add_policy
from .hosting import write_host_files
from .languages_split import language_base, split_search_index, split_sitemap
from .offline import ICONS, MANIFEST, language_root, write_offline
from .translations import english_digest, translates

log = logging.getLogger("mkdocs.plugins.gin")

SHARED_ASSETS = "assets/gin/"
LESSONS_SECTION = "lessons/index.md"
"""The nav entry under which the plugin lists the lessons."""


class GinConfig(base.Config):
    tutorials = c.Type(str, default="tutorials")
    locales = c.Type(str, default="locales")
    strict_i18n = c.Type(bool, default=False)
    runtime = c.Type(bool, default=True)
    node_modules = c.Type(str, default="node_modules")
    cache_dir = c.Type(str, default=".cache")
    brotli_quality = c.Type(int, default=11)  # of the .br copies; lower only to build faster


class _DropInstantWarning(logging.Filter):
    """The i18n plugin warns that its per-page switcher links and navigation.instant do not mix
    (instant navigation does not redraw the header). gin.js points the switcher at the current
    page after each navigation, so the warning must not abort the strict build."""

    def filter(self, record):
        return "navigation.instant" not in record.getMessage()


class GinPlugin(BasePlugin[GinConfig]):
    def __init__(self) -> None:
        super().__init__()
        self.lessons: list[lessons.Lesson] | None = None
        self.with_examples: set[str] = set()  # pages (src_uri) that need the page's texts
        self.default_404 = b""  # the default language's 404 page, kept while others build
        self.outdated: list[str] = []  # translations older than their English page

    # --- where things are --------------------------------------------------------------------

    def _path(self, config, name: str) -> Path:
        return (Path(config.config_file_path).parent / name).resolve()

    def _i18n(self, config):
        return config.plugins["i18n"]

    def _language(self, config) -> str:
        i18n = self._i18n(config)
        return i18n.current_language or i18n.default_language

    # --- events ------------------------------------------------------------------------------

    def on_config(self, config):
        logger = logging.getLogger("mkdocs.plugins.mkdocs_static_i18n.reconfigure")
        if not any(isinstance(f, _DropInstantWarning) for f in logger.filters):
            logger.addFilter(_DropInstantWarning())
        config.theme.static_templates.add("404.html")  # every language's: see on_post_build
        root = Path(config.config_file_path).parent
        try:
            catalogs.install_all(self._path(config, self.config.locales), root)
            if self.lessons is None:
                docs = Path(config.docs_dir) / self._i18n(config).default_language
                pages = {str(p.relative_to(docs)) for p in docs.rglob("*.md")}
                self.lessons = lessons.load_lessons(
                    self._path(config, self.config.tutorials),
                    catalogs.source_messages(self._path(config, self.config.locales)),
                    root,
                    pages,
                )
        except BuildError as error:
            raise PluginError(str(error)) from None
        self._list_lessons(config.nav or [])
        return config

    def _list_lessons(self, nav: list) -> None:
        """Fill the nav section holding ``lessons/index.md`` with every lesson, in order."""
        for item in nav:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(value, list):
                if LESSONS_SECTION in value:
                    value[:] = [LESSONS_SECTION] + [
                        f"{lessons.FOLDER}/{l.slug}.md" for l in self.lessons or []
                    ]
                else:
                    self._list_lessons(value)

    @event_priority(-200)  # after the i18n plugin (-100) has localized the file list
    def on_files(self, files: Files, config):
        i18n = self._i18n(config)
        language = self._language(config)
        if language != i18n.default_language:
            for file in [f for f in files if f.src_uri.startswith(SHARED_ASSETS)]:
                files.remove(file)  # the root build writes it; pages link to ../assets/gin/
        for uri, text in lessons.lesson_pages(self.lessons or [], catalogs.load(language)).items():
            page = self._generated(config, uri, text, language)
            old = files.src_uris.get(page.src_uri)
            if old is not None:
                files.remove(old)  # the lessons are generated: a file in docs/ does not count
            files.append(page)
        # The i18n plugin took this language's pages for the sitemap before the lessons came.
        self._i18n(config).i18n_files_per_language[language] = files.documentation_pages()
        if self.config.strict_i18n:
            missing = sorted(
                f.norm_src_uri  # type: ignore[attr-defined]  # an i18n file
                for f in files.documentation_pages()
                if getattr(f, "locale", language) != language
            )
            if missing:
                raise PluginError(
                    f"missing {language} translation: docs/{language}/{missing[0]} "
                    f"({len(missing)} page(s); add them, or build without "
                    f"strict_i18n)"
                )
        return files

    def _generated(self, config, uri: str, text: str, language: str) -> File:
        """A generated page of this language, shaped as the i18n plugin shapes the files it
        localizes (its alternates are the same page in the other languages)."""
        from mkdocs_static_i18n.folder import create_i18n_file

        i18n = self._i18n(config)

        def localized(lang: str, content: str) -> File:
            file = create_i18n_file(
                File.generated(config, f"{lang}/{uri}", content=content),
                lang,
                i18n.default_language,
                i18n.all_languages,
                config,
            )
            file.generated_by = "gin"
            file.content_string = content
            return file

        page = localized(language, text)
        # alternates: an attribute of the i18n plugin's files
        page.alternates = {lang: localized(lang, "") for lang in i18n.build_languages}  # type: ignore[attr-defined]
        page.alternates[language] = page  # type: ignore[attr-defined]
        return page

    def on_page_markdown(self, markdown, page, config, files):
        language = self._language(config)
        catalog = catalogs.load(language)
        # Lines of front matter MkDocs took off the top, so that a bad line is named as in the file.
        source = page.file.content_string if page.file.generated_by is None else markdown
        start = source.find(markdown[:200]) if markdown.strip() else -1
        offset = source.count("\n", 0, start) if start > 0 else 0
        name = page.file.src_uri if page.file.generated_by else (f"docs/{page.file.src_uri}")

        def where(position: int) -> str:
            return f"{name}:{markdown.count(chr(10), 0, position) + 1 + offset}"

        try:
            markdown = macros.expand(markdown, where, catalog, page.file.generated_by is None)
            markdown, count = fences.render_page(markdown, where, catalog)
        except BuildError as error:
            raise PluginError(str(error)) from None
        markdown += lessons.practise_note(self.lessons or [], page.file.norm_src_uri, catalog)
        if count or 'class="gin-lesson' in markdown:
            self.with_examples.add(page.file.src_uri)
        default = self._i18n(config).default_language
        if getattr(page.file, "locale", language) != language:
            title, text = catalog.text("ui.not_translated_title"), catalog.text("ui.not_translated")
            return f'!!! warning gin-untranslated "{title}"\n\n    {text}\n\n{markdown}'
        if language != default and page.file.generated_by is None:
            english = english_digest(Path(config.docs_dir), page.file.norm_src_uri)
            if english and translates(source) != english:
                self.outdated.append(f"{language}/{page.file.norm_src_uri}")
                return outdated_notice(catalog, page) + markdown
        return markdown

    def on_page_content(self, html, page, config, files):
        catalog = catalogs.load(self._language(config))
        # The toc extension titles every heading's anchor in English, whatever the language.
        html = html.replace(
            'class="headerlink" href=',
            'class="headerlink" title="{}" href='.format(esc(catalog.text("ui.permalink"))),
        )
        if page.file.src_uri in self.with_examples:
            return html + page_html(catalog)
        return html

    def _manifest(self, context, config):
        """The page's language's web app manifest (relative to the site's root; see offline)."""
        default = self._i18n(config).default_language
        context["gin_manifest"] = language_root(self._language(config), default) + MANIFEST
        context["gin_icon"] = ICONS + "icon-192.png"
        return context

    def on_template_context(self, context, template_name, config):
        self._manifest(context, config)
        if template_name == "404.html":
            i18n, language = self._i18n(config), self._language(config)
            context["gin_404"] = not_found(
                catalogs.load(language),
                language,
                i18n.default_language,
                tuple(i18n.build_languages),
            )
            context["gin_footer"] = footer(catalogs.load(language), language, i18n.default_language)
        return context

    def on_page_context(self, context, page, config, nav):
        language = self._language(config)
        context["gin_footer"] = footer(
            catalogs.load(language), language, self._i18n(config).default_language
        )
        self._manifest(context, config)
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

    def on_post_page(self, output, page, config):
        head, sep, body = output.partition("</head>")
        output = HEAD_ALTERNATE.sub("", head) + sep + body
        if self._language(config) != self._i18n(config).default_language:
            output = language_base(output)  # material finds the language's index and sitemap
        return output

    @event_priority(0)  # before the i18n plugin builds the other languages
    def _keep_default_404(self, config):
        if not self._i18n(config).building:
            self.default_404 = (Path(config.site_dir) / "404.html").read_bytes()

    @event_priority(-200)  # after the i18n plugin has built the other languages
    def _finish(self, config):
        site_dir = Path(config.site_dir)
        i18n = self._i18n(config)
        if i18n.building:  # a language built by the i18n plugin: its 404 page goes in its folder
            (site_dir / self._language(config)).mkdir(exist_ok=True)
            (site_dir / "404.html").replace(site_dir / self._language(config) / "404.html")
            return
        (site_dir / "404.html").write_bytes(self.default_404)
        if self.outdated:
            log.info(f"translations older than their English page: {', '.join(self.outdated)}")
        languages = catalogs.languages(Path(config.config_file_path).parent)
        for lang in languages:
            page = site_dir / ("" if lang == languages[0] else lang) / "404.html"
            page.write_text(root_relative(page.read_text(encoding="utf-8")), encoding="utf-8")
        split_search_index(site_dir, languages, Path(config.docs_dir))
        split_sitemap(site_dir, languages, config.site_url or "")
        add_policy(site_dir)
        write_host_files(site_dir)  # _headers (with the policy) and .nojekyll
        cache_dir = self._path(config, self.config.cache_dir)
        runtime_dir = None
        if self.config.runtime:
            try:
                runtime_dir = write_runtime(
                    Path(config.config_file_path).parent,
                    site_dir,
                    self._path(config, self.config.node_modules) / "pyodide",
                    cache_dir,
                    self._path(config, self.config.locales),
                )
            except BuildError as error:
                raise PluginError(str(error)) from None
        default_description = i18n.original_configs.get("site_description", config.site_description)
        descriptions = {
            lang: i18n.get_language_config(lang).site_description or default_description
            for lang in languages
        }
        write_offline(
            site_dir,
            languages,
            {lang: catalogs.load(lang) for lang in languages},
            descriptions,
            runtime_dir,
            cache_dir,
        )
        precompress_site(site_dir, cache_dir, self.config.brotli_quality)

    on_post_build = CombinedEvent(_keep_default_404, _finish)


def outdated_notice(cat, page) -> str:
    """The notice on a translation older than its English page, linking to that page."""
    english = page.file.alternates.get("en") if hasattr(page.file, "alternates") else None
    up = "../" * page.file.url.count("/")
    link = f' <a href="{up}{english.url}">{cat.text("ui.outdated_link")}</a>' if english else ""
    return (
        f'!!! warning gin-outdated "{cat.text("ui.outdated_title")}"\n\n'
        f"    {cat.text('ui.outdated_text')}{link}\n\n"
    )


FIND_ROOT = """(function () {
  var parts = location.pathname.split("/");
  for (var i = parts.length - 1; i > 0; i--) {
    var root = parts.slice(0, i).join("/") + "/", probe = new XMLHttpRequest();
    try { probe.open("HEAD", root + "assets/gin/gin.js", false); probe.send(); } catch (e) { continue; }
    if (probe.status !== 200) continue;
    document.write('<base href="' + root + '">');
    window.__ginRoot = root;
    var first = location.pathname.slice(root.length).split("/")[0];
    if (OTHERS.indexOf(first) >= 0) location.replace(root + first + "/404.html");
    return;
  }
})();"""
"""Finds the site's root from a missing page's URL (the folder holding assets/gin/gin.js) and
makes it the page's base. On a host that serves the default language's 404 page everywhere,
a missing page of another language is sent to that language's 404 page (OTHERS)."""


def not_found(cat, language: str, default: str, languages: tuple[str, ...]) -> dict:
    """What the 404 page of a language says and links to (relative to the site's root)."""
    home = "" if language == default else f"{language}/"
    others = [l for l in languages if l != default] if language == default else []
    return {
        "title": cat.text("ui.not_found_title"),
        "text": cat.text("ui.not_found_text"),
        "home": home or "./",
        "home_text": cat.text("ui.not_found_home"),
        "lessons": f"{home}{lessons.FOLDER}/",
        "lessons_text": cat.text("ui.not_found_lessons"),
        "find_root": FIND_ROOT.replace("OTHERS", json.dumps(others)),
    }


TEXT_LICENCE = ("CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/")
CODE_LICENCE = ("MIT", "https://opensource.org/license/mit")
GENERATOR = ("Material for MkDocs", "https://squidfunk.github.io/mkdocs-material/")


def footer(cat, language: str, default: str) -> dict:
    """The footer of a language's pages: the licences of the text and of the code, a link to
    the About page's licences and sources (relative to the site's root), what the site is made
    with (sitegen/overrides/partials/copyright.html)."""

    def link(name_url: tuple[str, str], rel: str = "") -> Html:
        name, url = name_url
        rel = f' rel="{rel}"' if rel else ""
        return Html(f'<a href="{esc(url)}"{rel}>{esc(name)}</a>')

    return {
        "licence": str(
            cat.html(
                "ui.licence",
                text_licence=link(TEXT_LICENCE, "license"),
                code_licence=link(CODE_LICENCE),
            )
        ),
        "about": ("" if language == default else f"{language}/") + "about/",
        "about_text": esc(cat.text("ui.licence_about")),
        "made_with": str(cat.html("ui.made_with", generator=link(GENERATOR))),
    }


ROOT_ABSOLUTE = re.compile(r'((?:href|src)=")/(?!/)')


def root_relative(html: str) -> str:
    """A 404 page's links, relative to the site's root (its <base>) instead of the host's."""
    return ROOT_ABSOLUTE.sub(r"\1", html).replace('"base": "/"', '"base": "."')


HEAD_ALTERNATE = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')


def write_runtime(
    root: Path, site_dir: Path, pyodide_dir: Path, cache_dir: Path, locales: Path
) -> str:
    """The browser's runtime in ``site_dir``: the wheels, the Pyodide files, the snapshot
    (``assets/runtime/<name>/``) and ``assets/gin/runtime.js``. Returns <name>."""
    from . import runtime, wheels

    version = runtime.check_npm_runtime(pyodide_dir, runtime.pinned_version(root / "package.json"))
    packages = wheels.site_packages(
        root, {lang: catalogs.catalog_json(lang, locales) for lang in catalogs.languages(root)}
    )
    built = [wheels.compiled_wheel(p, pyodide_dir, version, cache_dir) for p in packages]
    staging = Path(tempfile.mkdtemp(prefix="gin-runtime-", dir=site_dir.parent)) / "runtime"
    try:
        runtime.stage_runtime(pyodide_dir, built, staging, cache_dir)
        name = runtime.runtime_dir_name(version, staging)
        boot = runtime.boot_integrity(staging)
        target = site_dir / "assets" / "runtime" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staging), target)
        gin_dir = site_dir / "assets" / "gin"
        gin_dir.mkdir(parents=True, exist_ok=True)
        (gin_dir / "runtime.js").write_text(
            runtime.runtime_module(name, [w.name.split("-")[0] for w in built], boot=boot)
        )
    finally:
        shutil.rmtree(staging.parent, ignore_errors=True)
    return name
