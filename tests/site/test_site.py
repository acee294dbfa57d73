"""The built site: pages and languages, switcher, search, runtime layout, self-hosting."""

from __future__ import annotations

import base64
import hashlib
import json
import posixpath
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sitegen import BuildError
from sitegen.languages import languages
from sitegen.pipeline import FILES, build, check_site_dir, record_files, run_mkdocs
from sitegen.runtime import RUNTIME_FILES, check_npm_runtime, pinned_version, runtime_dir_name
from sitegen.wheels import Package, build_wheel

REPO = Path(__file__).resolve().parents[2]
LANGUAGES = languages()
PAGES = ("", "rules/lay-offs/", "glossary/")
VERSION = pinned_version(REPO / "package.json")
NOTICE_TITLES = {
    "ro": "Pagină netradusă",
    "hu": "Még nincs lefordítva",
    "it": "Pagina non ancora tradotta",
}


def prefix(lang: str) -> str:
    return "" if lang == "en" else f"{lang}/"


def page_file(site: Path, lang: str, page: str) -> Path:
    return site / prefix(lang) / page / "index.html"


class Tags(HTMLParser):
    """Collects (tag, attrs) of every start tag."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def find(self, tag: str, **want) -> list[dict]:
        return [
            a
            for t, a in self.tags
            if t == tag
            and all(
                want_v in a.get(k.rstrip("_"), "").split() or a.get(k.rstrip("_")) == want_v
                for k, want_v in want.items()
            )
        ]


def resolve(page_rel: str, href: str) -> str:
    """Site-relative path that `href` on the page at `page_rel` (e.g. "ro/rules/") points to."""
    target = posixpath.normpath(posixpath.join(page_rel, href))
    return "" if target == "." else target.rstrip("/") + "/"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_exists_with_its_language(built_site, lang):
    for page in PAGES:
        path = page_file(built_site, lang, page)
        assert path.is_file(), f"missing {path.relative_to(built_site)}"
        html = path.read_text()
        assert re.search(rf'<html lang="{lang}"', html), f"{path}: wrong <html lang>"


def test_a_404_page_per_language_with_root_relative_links(built_site):
    from sitegen import catalogs

    for lang in LANGUAGES:
        html = (built_site / prefix(lang) / "404.html").read_text()
        assert f'<html lang="{lang}"' in html
        assert f"<h1>{catalogs.load(lang).text('ui.not_found_title')}</h1>" in html
        assert not re.search(r'(?:href|src)="/(?!/)', html), "a host-absolute link"


def test_nav_titles_are_translated(built_site):
    titles = {"en": "Rules", "ro": "Reguli", "hu": "Szabályok", "it": "Regole"}
    for lang, title in titles.items():
        html = page_file(built_site, lang, "").read_text()
        assert re.search(rf">\s*{title}\s*<", html), f"{lang}: nav title {title!r} missing"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_materials_labels_are_in_the_pages_language(built_site, lang):
    """The labels screen readers announce (the tabs, the contents, the footer) are never left in
    English: material leaves some untranslated (Italian "Tabs"), sitegen/overrides fixes them."""
    html = page_file(built_site, lang, "").read_text()
    english = {"Tabs", "Navigation", "Footer", "Header", "Table of contents", "Search"}
    labels = set(re.findall(r'aria-label="([^"]+)"', html))
    assert labels and not labels & english, f"{lang}: {sorted(labels & english)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_its_own_search_index(built_site, lang):
    index = json.loads((built_site / prefix(lang) / "search/search_index.json").read_text())
    assert index["config"]["lang"] == [lang]
    locations = {d["location"].split("#")[0] for d in index["docs"]}
    assert "rules/lay-offs/" in locations
    assert not [loc for loc in locations if loc.split("/")[0] in LANGUAGES]
    assert lunr_language_file(built_site, lang), f"no lunr stemmer for {lang}"


def lunr_language_file(site: Path, lang: str) -> bool:
    return lang == "en" or (site / f"assets/javascripts/lunr/min/lunr.{lang}.min.js").is_file()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_language_switcher_links_to_the_same_page(built_site, lang):
    for page in PAGES:
        html = page_file(built_site, lang, page).read_text()
        links = {a["hreflang"]: a["href"] for a in Tags(html).find("a", class_="md-select__link")}
        assert set(links) == set(LANGUAGES), f"{lang}/{page}: switcher has {sorted(links)}"
        for other, href in links.items():
            assert not href.startswith(("/", "http")), f"absolute switcher link {href}"
            assert resolve(prefix(lang) + page, href) == prefix(other) + page, (lang, page, other)


def test_head_has_no_hreflang_links(built_site):
    # material fetches <alternate>/sitemap.xml for each of them: a 404 per language otherwise
    for lang in LANGUAGES:
        head = page_file(built_site, lang, "rules/lay-offs/").read_text().split("</head>")[0]
        assert "hreflang" not in head, lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_load_the_one_root_copy_of_the_front_end(built_site, lang):
    assert not (built_site / prefix(lang) / "assets/gin").exists() or lang == "en"
    for page in PAGES:
        html = page_file(built_site, lang, page).read_text()
        scripts = [a["src"] for a in Tags(html).find("script", type="module")]
        targets = {resolve(prefix(lang) + page, src).rstrip("/") for src in scripts}
        assert "assets/gin/gin.js" in targets, f"{lang}/{page}: gin.js not loaded ({scripts})"
    if (REPO / "docs/assets/gin/gin.js").is_file():
        assert (built_site / "assets/gin/gin.js").is_file()
        assert (built_site / "assets/gin/worker.js").is_file()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_start_materials_script_themselves(built_site, lang):
    """sitegen/overrides/main.html starts material's script (at once on wide screens, else at the
    reader's first action) instead of a <script> tag: the script it names is material's own."""
    for page in PAGES:
        html = page_file(built_site, lang, page).read_text()
        assert not [a for a in Tags(html).find("script") if "/bundle." in a.get("src", "")]
        src = re.search(r'script\.src = "([^"]+)"', html).group(1)
        target = posixpath.normpath(posixpath.join(prefix(lang) + page, src))
        assert re.fullmatch(r"assets/javascripts/bundle\.\w+\.min\.js", target), target
        assert (built_site / target).is_file(), f"{lang}/{page}: {target} is not in the site"


def test_home_pages_have_a_live_example(built_site):
    for lang in LANGUAGES:
        html = page_file(built_site, lang, "").read_text()
        assert re.search(r'<section class="gin-example" data-gin-kind="score"', html), lang


@pytest.fixture(scope="module")
def lock_entries(site_runtime):
    lock = json.loads((site_runtime / "pyodide-lock.json").read_text())
    return {name: lock["packages"][name] for name in ("ginrummy", "ginview")}


def test_runtime_files_and_wheels_are_present(site_runtime, lock_entries):
    for name in RUNTIME_FILES:
        assert (site_runtime / name).is_file(), name
    for name, entry in lock_entries.items():
        wheel = site_runtime / entry["file_name"]
        assert re.fullmatch(rf"{name}-[^-]+-cp314-none-any\.whl", wheel.name)
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"]
        assert entry["imports"] == [name]
        assert entry["package_type"] == "package" and entry["install_dir"] == "site"
    assert lock_entries["ginrummy"]["depends"] == []
    assert lock_entries["ginview"]["depends"] == ["ginrummy"]


def test_wheels_hold_bytecode_only(site_runtime, lock_entries):
    import zipfile

    for name, entry in lock_entries.items():
        with zipfile.ZipFile(site_runtime / entry["file_name"]) as wheel:
            names = wheel.namelist()
            record = wheel.read(next(n for n in names if n.endswith(".dist-info/RECORD"))).decode()
        assert f"{name}/api.pyc" in names
        assert not [n for n in names if n.endswith(".py")]
        assert f"{name}/api.pyc,sha256=" in record and ".py," not in record


def test_presentation_wheel_carries_every_catalog(site_runtime, lock_entries):
    import zipfile

    from sitegen import catalogs

    with zipfile.ZipFile(site_runtime / lock_entries["ginview"]["file_name"]) as wheel:
        for lang in LANGUAGES:
            shipped = json.loads(wheel.read(f"ginview/locales/{lang}.json"))
            assert shipped == catalogs.catalog_json(lang), lang


def test_runtime_module_names_the_runtime(built_site, site_runtime):
    text = (built_site / "assets/gin/runtime.js").read_text()
    boot = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"]
    boot += ["engine.snapshot", "engine_stdlib.zip"]
    integrity = {
        name: "sha256-"
        + base64.b64encode(hashlib.sha256((site_runtime / name).read_bytes()).digest()).decode()
        for name in boot
    }
    assert text == (
        f'export const RUNTIME_DIR = "../runtime/{site_runtime.name}/";\n'
        'export const PACKAGES = ["ginrummy", "ginview"];\n'
        'export const API_MODULE = "ginview.api";\n'
        'export const DIRECT_HEADER = "x-gin-direct";\n'
        f'export const RUNTIME_CACHE = "gin-runtime-{site_runtime.name}";\n'
        'export const STDLIB_FILE = "python_stdlib_pyc.zip";\n'
        'export const SNAPSHOT_FILE = "engine.snapshot";\n'
        'export const SNAPSHOT_STDLIB_FILE = "engine_stdlib.zip";\n'
        f"export const BOOT_FILES = {json.dumps(boot)};\n"
        f"export const INTEGRITY = {json.dumps(integrity)};\n"
    )
    assert (site_runtime / "pyodide.mjs").is_file()


def test_runtime_directory_is_named_by_its_content(site_runtime):
    """Served as immutable, so any change to a file (a new engine) must give a new name."""
    assert re.fullmatch(rf"pyodide-{re.escape(VERSION)}-[0-9a-f]{{10}}", site_runtime.name)
    assert site_runtime.name == runtime_dir_name(VERSION, site_runtime)


def test_the_runtime_name_changes_with_every_file_and_only_with_them(tmp_path):
    """The digest, recomputed here: sha256 over each file's name and sha256, in name order, .gz
    and .br copies left out (they follow their file)."""
    folder = tmp_path / "runtime"
    folder.mkdir()
    for name, data in (("pyodide.mjs", b"boot"), ("engine.whl", b"engine 1"), ("a.json", b"{}")):
        (folder / name).write_bytes(data)

    def expected() -> str:
        digest = hashlib.sha256()
        for path in sorted(p for p in folder.iterdir() if not p.name.endswith((".gz", ".br"))):
            digest.update(
                path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).hexdigest().encode()
            )
        return f"pyodide-1.2.3-{digest.hexdigest()[:10]}"

    names = [runtime_dir_name("1.2.3", folder)]
    assert names[0] == expected()
    (folder / "engine.whl.gz").write_bytes(b"compressed")
    assert runtime_dir_name("1.2.3", folder) == names[0], "a .gz copy does not count"
    (folder / "engine.whl.br").write_bytes(b"compressed more")
    assert runtime_dir_name("1.2.3", folder) == names[0], "a .br copy does not count"
    (folder / "engine.whl").write_bytes(b"engine 2")  # a new engine
    names.append(runtime_dir_name("1.2.3", folder))
    (folder / "engine.whl").rename(folder / "engine2.whl")  # same bytes, another name
    names.append(runtime_dir_name("1.2.3", folder))
    (folder / "b.txt").write_bytes(b"")  # one more file
    names.append(runtime_dir_name("1.2.3", folder))
    assert names[-1] == expected()
    assert len(set(names)) == len(names), names
    assert runtime_dir_name("1.2.4", folder).startswith("pyodide-1.2.4-")


# --- nothing loads from another host -------------------------------------------------------

OFF_SITE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.I)
LOADING_TAGS = {
    "script": "src",
    "img": "src",
    "iframe": "src",
    "source": "src",
    "audio": "src",
    "video": "src",
    "embed": "src",
    "link": "href",
    "object": "data",
}
CSS_URL = re.compile(r"""(?:url\(\s*|@import\s+)["']?([^"')\s]+)""")
JS_LOADS = re.compile(
    r"""(?:\bimport\s*\(\s*|\bfrom\s*|\bimport\s+|\bfetch\s*\(\s*|"""
    r"""\bimportScripts\s*\(\s*|\bnew\s+(?:Shared)?Worker\s*\(\s*)"""
    r"""["'`]((?:https?:)?//[^"'`]+)"""
)


def test_nothing_loads_from_another_host(built_site):
    problems = []
    for path in built_site.rglob("*"):
        rel = path.relative_to(built_site)
        if path.suffix == ".html":
            for tag, attrs in Tags(path.read_text()).tags:
                url = attrs.get(LOADING_TAGS.get(tag, ""), "")
                if url and OFF_SITE.match(url):
                    problems.append(f"{rel}: <{tag}> {url}")
                style = attrs.get("style", "")
                problems += [
                    f"{rel}: style {u}" for u in CSS_URL.findall(style) if OFF_SITE.match(u)
                ]
        elif path.suffix == ".css":
            problems += [
                f"{rel}: {u}" for u in CSS_URL.findall(path.read_text()) if OFF_SITE.match(u)
            ]
        elif path.suffix in (".js", ".mjs") and path.stat().st_size < 5_000_000:
            problems += [f"{rel}: {u}" for u in JS_LOADS.findall(path.read_text(errors="replace"))]
    assert not problems, "\n".join(problems)


# --- fallback and strict mode --------------------------------------------------------------


def test_english_pages_have_no_notice(built_site):
    for page in PAGES:
        assert "gin-untranslated" not in page_file(built_site, "en", page).read_text()


@pytest.fixture
def small_docs(tmp_path):
    """A docs tree with every page in English, and Romanian, Hungarian, Italian missing one."""
    from tests.site.test_content import PAGES

    docs = tmp_path / "docs"
    for lang in LANGUAGES:
        pages = [p for p in PAGES if lang == "en" or p != "about.md"]
        for page in pages:
            (docs / lang / page).parent.mkdir(parents=True, exist_ok=True)
            (docs / lang / page).write_text(f"# {lang} {page}\n")
    return docs


@pytest.mark.slow
def test_strict_mode_fails_on_a_missing_translation(small_docs, tmp_path):
    with pytest.raises(BuildError) as failure:
        run_mkdocs(
            REPO / "mkdocs.yml",
            tmp_path / "out",
            {"strict_i18n": True, "runtime": False},
            docs_dir=str(small_docs),
        )
    message = str(failure.value)
    assert "missing ro translation" in message and "about.md" in message
    assert "\n" not in message


@pytest.mark.slow
def test_normal_mode_falls_back_with_a_localized_notice(small_docs, tmp_path):
    run_mkdocs(
        REPO / "mkdocs.yml",
        tmp_path / "out",
        {"strict_i18n": False, "runtime": False},
        docs_dir=str(small_docs),
    )
    for lang, title in NOTICE_TITLES.items():
        html = (tmp_path / "out" / lang / "about/index.html").read_text()
        assert "gin-untranslated" in html and title in html
        assert (
            "gin-untranslated" not in (tmp_path / "out" / lang / "glossary/index.html").read_text()
        )
    assert "gin-untranslated" not in (tmp_path / "out/about/index.html").read_text()


# --- build errors are one clear line -------------------------------------------------------


def test_missing_npm_runtime_is_one_line(tmp_path):
    with pytest.raises(BuildError) as failure:
        check_npm_runtime(tmp_path / "node_modules/pyodide", VERSION)
    assert "npm ci" in str(failure.value) and "\n" not in str(failure.value)


def test_wrong_npm_runtime_version_is_one_line(tmp_path):
    fake = tmp_path / "node_modules/pyodide"
    fake.mkdir(parents=True)
    (fake / "package.json").write_text('{"version": "0.1.0"}')
    with pytest.raises(BuildError) as failure:
        check_npm_runtime(fake, VERSION)
    message = str(failure.value)
    assert "0.1.0" in message and VERSION in message and "npm ci" in message


@pytest.mark.slow
def test_cli_reports_a_missing_runtime_in_one_line(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "sitegen",
            "build",
            "--site-dir",
            str(tmp_path / "site"),
            "--node-modules",
            str(tmp_path / "nothing-here"),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "npm ci" in lines[0]
    assert "Traceback" not in proc.stderr + proc.stdout
    assert not (tmp_path / "site").exists()


def test_failed_wheel_build_is_one_line(tmp_path):
    engine = tmp_path / "engine"
    engine.mkdir()
    (engine / "pyproject.toml").write_text("[project\nname = broken\n")
    out = tmp_path / "dist"
    out.mkdir()
    with pytest.raises(BuildError) as failure:
        build_wheel(Package(engine), out)
    message = str(failure.value)
    assert message.startswith("wheel build of engine/ failed") and "\n" not in message


def test_every_page_carries_a_strict_policy_allowing_its_inline_scripts(built_site):
    from sitegen.csp import _hash, _inline_scripts

    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 100
    for page in pages:
        html = page.read_text(encoding="utf-8")
        found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)
        assert found, page
        policy = found.group(1)
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
        assert "'wasm-unsafe-eval'" in policy and "worker-src 'self'" in policy
        for script in _inline_scripts(html):
            assert _hash(script) in policy, page
        assert html.index("Content-Security-Policy") < html.index("<script")


@pytest.mark.slow
@pytest.mark.parametrize("when", [".site.new", "gin-runtime-"])
def test_a_build_stopped_by_sigterm_leaves_nothing_half_made(tmp_path, when):
    """Stopped while MkDocs writes the pages, or while the runtime is being staged."""
    import signal
    import time

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("the last good site")
    record_files(site)  # a site the build wrote
    proc = subprocess.Popen(
        [sys.executable, "-m", "sitegen", "build", "--site-dir", str(site)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 180
    while not [p for p in tmp_path.iterdir() if p.name.startswith(when)]:
        assert time.monotonic() < deadline and proc.poll() is None, f"no {when} came"
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 130
    assert "Traceback" not in proc.stderr.read()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no .site.new, no gin-runtime-*
    assert (site / "index.html").read_text() == "the last good site"


class Shown(HTMLParser):
    """What a reader meets on a page: its text, and the words of aria-label, title, alt and
    placeholder (not scripts, styles or data attributes)."""

    SEEN = ("aria-label", "title", "alt", "placeholder")

    def __init__(self, text: str):
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        self.parts += [v for k, v in attrs if k in self.SEEN and v]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def test_no_page_shows_a_raw_catalog_key(built_site):
    """A message missing from a catalog shows its key: none does, on any page of the site."""
    from sitegen import catalogs

    keys = sorted(catalogs.source_messages(), key=len, reverse=True)
    raw = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, keys)) + r")(?!\w|\.\w)")
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 100
    found = [
        (str(path.relative_to(built_site)), match)
        for path in pages
        for match in raw.findall(" ".join(Shown(path.read_text(encoding="utf-8")).parts))
    ]
    assert found == []


# --- the output folder ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "where, problem",
    [
        (".", "it holds the project itself"),
        ("..", "it holds the project itself"),
        ("/", "it holds the project itself"),
        ("tutorials", "it is in the source folder tutorials/"),
        ("docs", "it is in the source folder docs/"),
        ("docs/en/new", "it is in the source folder docs/"),
        ("engine/ginrummy", "it is in the source folder engine/"),
        (".git", "it is in the source folder .git/"),
        ("mkdocs.yml", "it is a file"),
        ("{tmp}/notes", "it holds files the build did not write (more/ideas.md and 1 more)"),
    ],
)
def test_the_build_never_writes_over_the_project_a_source_or_others_files(tmp_path, where, problem):
    """Refused before anything is built, with the folder named: --site-dir replaces the whole
    folder it is given."""
    where = where.format(tmp=tmp_path)
    (tmp_path / "notes/more").mkdir(parents=True)
    (tmp_path / "notes/todo.txt").write_text("mine")
    (tmp_path / "notes/more/ideas.md").write_text("mine too")
    with pytest.raises(BuildError) as info:
        build(REPO, REPO / where, log=lambda *_: None)
    assert problem in str(info.value) and str(info.value).startswith("--site-dir ")
    done = subprocess.run(
        [sys.executable, "-m", "sitegen", "build", "--site-dir", where],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (1, f"error: {info.value}\n")
    assert (tmp_path / "notes/todo.txt").read_text() == "mine"


def test_a_folder_the_build_wrote_an_empty_one_or_a_new_one_is_the_builds(tmp_path):
    check_site_dir(REPO, tmp_path / "new" / "site")  # not there yet
    (tmp_path / "empty").mkdir()
    check_site_dir(REPO, tmp_path / "empty")
    built = tmp_path / "built"
    (built / "assets").mkdir(parents=True)
    (built / "assets/a.js").write_text("x")
    record_files(built)
    assert (built / FILES).read_text() == f"{FILES}\nassets/a.js\n"
    check_site_dir(REPO, built)
    (built / "assets/a.js").unlink()  # a file gone is no problem, a file added is
    check_site_dir(REPO, built)
    (built / "mine.txt").write_text("x")
    with pytest.raises(BuildError, match=r"holds files the build did not write \(mine.txt\)"):
        check_site_dir(REPO, built)


def test_a_site_built_before_the_list_of_its_files_is_still_the_builds(tmp_path):
    old = tmp_path / "site"
    (old / "assets/gin").mkdir(parents=True)
    (old / "assets/gin/runtime.js").write_text("x")
    (old / "404.html").write_text("x")
    (old / "index.html").write_text("x")
    check_site_dir(REPO, old)


def test_the_built_site_lists_its_files(built_site):
    listed = (built_site / FILES).read_text(encoding="utf-8").splitlines()
    assert listed == sorted(
        p.relative_to(built_site).as_posix() for p in built_site.rglob("*") if p.is_file()
    )


def _serve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sitegen", "serve", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,  # a build would take minutes: these answer before any
    )


@pytest.mark.parametrize("port", ["99999", "0", "-1", "²", "80x", ""])
def test_serve_refuses_a_port_that_is_none_before_building(port):
    done = _serve("--port", port)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].endswith("is not a port: use a number from 1 to 65535")


def test_serve_says_at_once_that_its_port_is_in_use():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _serve("--port", str(port))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error: cannot serve on port {port}: Address already in use; choose another with --port\n"
    )
