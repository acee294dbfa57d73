"""What the build writes for the site offline and installable (sitegen/offline.py), on a small
site of its own, without a browser: the icons are valid PNGs of the drawing, each language's
shell holds its own pages, the service worker's facts, the manifests. (In Chromium, on the
built site: tests/browser/test_offline.py.)"""

from __future__ import annotations

import json
import re
import struct
import zlib

import pytest

from sitegen import offline, runtime
from sitegen.catalogs import load

LANGUAGES = ("en", "ro")
FILES = [
    "index.html",
    "about/index.html",
    "search/search_index.json",
    "sitemap.xml",
    "ro/index.html",
    "ro/rules/index.html",
    "ro/search/search_index.json",
    "ro/sitemap.xml",
    "assets/gin/gin.js",
    "assets/stylesheets/main.css",
    "assets/photo.jpg",  # not part of a shell
    "assets/javascripts/lunr/min/lunr.ro.min.js",
    "assets/javascripts/lunr/min/lunr.de.min.js",  # another language's stemmer
    "assets/javascripts/lunr/min/lunr.stemmer.support.min.js",
    # the runtime: RUNTIME, not COMMON
    *(f"assets/runtime/pyodide-1-abc/{name}" for name in runtime.BOOT_FILES),
]


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """The build cache, shared: the PNGs take seconds to draw."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def site(tmp_path, cache):
    for name in FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name)
    catalogs = {lang: load(lang) for lang in LANGUAGES}
    offline.write_offline(
        tmp_path, LANGUAGES, catalogs, {"en": "A site", "ro": "Un site"}, "pyodide-1-abc", cache
    )
    return tmp_path


def png(data: bytes) -> tuple[tuple, list[bytes]]:
    """A PNG's IHDR fields and its rows of RGBA pixels, every chunk's CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = {}, 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF, kind
        chunks[kind] = body
        at += 12 + length
    assert list(chunks) == [b"IHDR", b"IDAT", b"IEND"] and chunks[b"IEND"] == b""
    header = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    width = header[0]
    raw = zlib.decompress(chunks[b"IDAT"])
    rows = [raw[i : i + 1 + 4 * width] for i in range(0, len(raw), 1 + 4 * width)]
    assert all(row[0] == 0 for row in rows)  # filter: none
    return header, [row[1:] for row in rows]


@pytest.mark.parametrize("maskable", [False, True])
def test_an_icon_is_a_png_of_the_card_and_heart_on_green(maskable):
    header, rows = png(offline.icon_png(50, maskable))
    assert header == (50, 50, 8, 6, 0, 0, 0)  # 8-bit RGBA, deflate, no interlace
    assert len(rows) == 50 and all(len(row) == 200 for row in rows)

    def pixel(x, y):  # in the drawing's 100 x 100 box
        return tuple(rows[y // 2][4 * (x // 2) : 4 * (x // 2) + 4])

    assert pixel(50, 50) == (*offline.RED, 255)  # the heart: its point,
    assert pixel(44, 44) == pixel(50, 60) == (*offline.RED, 255)  # a lobe, near the tip
    assert pixel(40, 58) == pixel(60, 58) == (*offline.WHITE, 255)  # beside the tip: the card
    assert pixel(50, 24) == (*offline.WHITE, 255)  # the card
    assert pixel(10, 50) == (*offline.GREEN, 255)  # the background
    # the corner: rounded off (transparent), unless maskable (the square is filled)
    assert pixel(0, 0) == ((*offline.GREEN, 255) if maskable else (0, 0, 0, 0))


def test_the_icons_and_manifests_are_written_for_each_language(site):
    names = sorted(p.name for p in (site / offline.ICONS).iterdir())
    assert names == [
        "icon-192-maskable.png",
        "icon-192.png",
        "icon-512-maskable.png",
        "icon-512.png",
        "icon.svg",
    ]
    assert png((site / offline.ICONS / "icon-192.png").read_bytes())[0][:2] == (192, 192)
    en = json.loads((site / "manifest.webmanifest").read_text("utf-8"))
    ro = json.loads((site / "ro/manifest.webmanifest").read_text("utf-8"))
    assert (en["lang"], en["description"], en["name"]) == (
        "en",
        "A site",
        load("en").text("app.name"),
    )
    assert {name: value for name, value in ro.items() if name != "icons"} == {
        "name": load("ro").text("app.name"),
        "short_name": load("ro").text("app.short_name"),
        "description": "Un site",
        "lang": "ro",
        "dir": "ltr",
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1b5e20",  # the site's green
    }
    assert en["icons"][0]["src"] == "assets/gin/icons/icon-192.png"
    assert ro["icons"][0]["src"] == "../assets/gin/icons/icon-192.png"  # from ro/
    assert en["icons"] == [
        {"src": f"assets/gin/icons/{name}", "sizes": sizes, "type": kind, "purpose": purpose}
        for name, sizes, kind, purpose in [
            ("icon-192.png", "192x192", "image/png", "any"),
            ("icon-192-maskable.png", "192x192", "image/png", "maskable"),
            ("icon-512.png", "512x512", "image/png", "any"),
            ("icon-512-maskable.png", "512x512", "image/png", "maskable"),
            ("icon.svg", "any", "image/svg+xml", "any"),
        ]
    ]
    for maskable, name in [(False, "icon-192.png"), (True, "icon-192-maskable.png")]:
        assert (site / offline.ICONS / name).read_bytes() == offline.icon_png(192, maskable)


def sw_facts(site) -> dict:
    text = (site / "sw.js").read_text("utf-8")
    assert text.endswith(offline.SW_SOURCE.read_text("utf-8"))  # the facts, then the logic
    return {name: json.loads(v) for name, v in re.findall(r"^const (\w+) = (.*);$", text, re.M)[:7]}


def test_each_language_keeps_its_own_shell_and_every_page_the_common_files(site):
    facts = sw_facts(site)
    assert facts["SHELL"] == {
        "en": ["about/", "./", "manifest.webmanifest", "search/search_index.json", "sitemap.xml"],
        "ro": [
            "ro/",
            "ro/manifest.webmanifest",
            "ro/rules/",
            "ro/search/search_index.json",
            "ro/sitemap.xml",
        ],
    }
    assert facts["COMMON"] == [
        "assets/gin/gin.js",
        "assets/gin/icons/icon-192-maskable.png",
        "assets/gin/icons/icon-192.png",
        "assets/gin/icons/icon-512-maskable.png",
        "assets/gin/icons/icon-512.png",
        "assets/gin/icons/icon.svg",
        "assets/javascripts/lunr/min/lunr.ro.min.js",
        "assets/javascripts/lunr/min/lunr.stemmer.support.min.js",
        "assets/stylesheets/main.css",
    ]
    assert facts["RUNTIME"] == [f"assets/runtime/pyodide-1-abc/{n}" for n in runtime.BOOT_FILES]
    assert facts["INTEGRITY"] == {path: runtime.sri(site / path) for path in facts["RUNTIME"]}
    assert facts["RUNTIME_CACHE"] == "gin-runtime-pyodide-1-abc"
    assert facts["DIRECT_HEADER"] == runtime.DIRECT_HEADER
    assert facts["BUILD"] == offline.build_id(site)


def test_the_build_id_changes_with_any_file_but_the_worker_and_the_compressed_copies(site):
    before = offline.build_id(site)
    (site / "sw.js").write_text("// another worker")
    (site / "index.html.gz").write_bytes(b"\0")
    assert offline.build_id(site) == before
    (site / "ro/rules/index.html").write_text("changed")
    assert offline.build_id(site) != before
    assert re.fullmatch(r"[0-9a-f]{16}", before)


def test_a_page_is_kept_by_the_url_it_is_linked_by():
    assert offline.page_url("index.html") == "./"
    assert offline.page_url("ro/rules/index.html") == "ro/rules/"
    assert offline.page_url("search/search_index.json") == "search/search_index.json"


def test_a_site_without_a_runtime_keeps_none(tmp_path):
    (tmp_path / "index.html").write_text("x")
    facts = dict(
        re.findall(r"^const (\w+) = (.*);$", offline.service_worker(tmp_path, ("en",), None), re.M)
    )
    assert (facts["RUNTIME"], facts["RUNTIME_CACHE"]) == ("[]", "null")
