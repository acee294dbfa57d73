"""The site offline and installable: a service worker, a web app manifest per language, icons.

Written into the built site after everything else (before the precompressed copies):

- ``sw.js`` at the site's root (so its scope is the whole site, under any base path): the
  service worker. Its logic is ``sitegen/sw.js``; the build puts in front of it what it must
  know of this build (:func:`service_worker`): ``BUILD``, a digest of every file of the site,
  which names its caches, so a new build never mixes with an old one; the files of each
  language's shell (``SHELL``: the language's pages, search index, sitemap and manifest;
  ``COMMON``: stylesheets, scripts, icons); ``RUNTIME``, the files the engine boots from
  (in the runtime folder named by its digest), and their ``INTEGRITY``: a kept copy that
  does not match is dropped and fetched again.
- ``manifest.webmanifest`` at each language's root: name and short name from the catalogs
  (``app.name``, ``app.short_name``), the description of mkdocs.yml, the language, start URL
  and scope (the language's root), the icons.
- ``assets/gin/icons/``: the icons, drawn here (:func:`icon_png`, :func:`icon_svg`): a white
  card with a red heart on the site's green.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from collections.abc import Mapping
from pathlib import Path

from ginview.catalog import Catalog

from . import runtime

SW_SOURCE = Path(__file__).resolve().parent / "sw.js"
INTEGRITY_SOURCE = Path(__file__).resolve().parent.parent / "docs/assets/gin/integrity.js"
"""The integrity check the engine worker imports: the service worker (a classic script) gets
its text, without ``export``."""
ICONS = "assets/gin/icons/"
GREEN = (0x1B, 0x5E, 0x20)  # the site's primary colour (docs/assets/gin/gin.css)
RED = (0xC6, 0x28, 0x28)
WHITE = (0xFF, 0xFF, 0xFF)
PNG_SIZES = (192, 512)


# --- the icons --------------------------------------------------------------------------------
# One drawing, in a 100 x 100 box: the background square (rounded unless maskable: a maskable
# icon fills its square, and keeps what matters in the middle 80 %), the card, the heart.

CARD = (30.0, 18.0, 70.0, 82.0, 6.0)  # left, top, right, bottom, corner radius
# The heart: two circles (centre x, centre y, radius) and the triangle below them (x, y each).
LOBES = ((43.0, 45.0, 8.0), (57.0, 45.0, 8.0))
POINT = ((35.4, 48.6), (64.6, 48.6), (50.0, 65.0))


def _in_rounded(x: float, y: float, box: tuple[float, float, float, float, float]) -> bool:
    left, top, right, bottom, r = box
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + r), right - r)
    cy = min(max(y, top + r), bottom - r)
    return bool((x - cx) ** 2 + (y - cy) ** 2 <= r * r)


def _in_heart(x: float, y: float) -> bool:
    if any((x - cx) ** 2 + (y - cy) ** 2 <= r * r for cx, cy, r in LOBES):
        return True
    (x1, y1), (x2, y2), (x3, y3) = POINT
    sides = [
        (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        for (ax, ay), (bx, by) in (((x1, y1), (x2, y2)), ((x2, y2), (x3, y3)), ((x3, y3), (x1, y1)))
    ]
    return all(s >= 0 for s in sides) or all(s <= 0 for s in sides)


def _colour(x: float, y: float, maskable: bool) -> tuple[int, int, int, int]:
    background = (0.0, 0.0, 100.0, 100.0, 0.0 if maskable else 18.0)
    if not _in_rounded(x, y, background):
        return (0, 0, 0, 0)
    if _in_rounded(x, y, CARD):
        return (*(RED if _in_heart(x, y) else WHITE), 255)
    return (*GREEN, 255)


def icon_png(size: int, maskable: bool = False) -> bytes:
    """The icon as a PNG of size x size pixels (RGBA, 4 samples a pixel for smooth edges)."""
    rows = []
    offsets = (0.25, 0.75)
    for j in range(size):
        row = bytearray(b"\0")  # filter: none
        for i in range(size):
            samples = [
                _colour((i + a) * 100 / size, (j + b) * 100 / size, maskable)
                for a in offsets
                for b in offsets
            ]
            alpha = sum(s[3] for s in samples)
            pixel = [
                round(sum(s[k] * s[3] for s in samples) / alpha) if alpha else 0 for k in range(3)
            ]
            row += bytes((*pixel, alpha // len(samples)))
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def icon_svg() -> str:
    """The icon as SVG: the same drawing."""
    left, top, right, bottom, r = CARD
    hex_colour = "#{:02x}{:02x}{:02x}".format
    red = hex_colour(*RED)
    lobes = "".join(
        f'<circle cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="{red}"/>' for x, y, radius in LOBES
    )
    point = " ".join(f"{x:g},{y:g}" for x, y in POINT)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" rx="18" fill="{hex_colour(*GREEN)}"/>'
        f'<rect x="{left:g}" y="{top:g}" width="{right - left:g}" height="{bottom - top:g}" '
        f'rx="{r:g}" fill="#fff"/>{lobes}<polygon points="{point}" fill="{red}"/></svg>\n'
    )


Icon = dict[str, str]
"""An icon as a web app manifest lists it: ``src``, ``sizes``, ``type``, ``purpose``."""


def write_icons(site_dir: Path, cache_dir: Path | None = None) -> list[Icon]:
    """Write the icons; returns their manifest entries (src relative to the site's root).
    Drawing the PNGs takes seconds: they come from cache_dir/icons/, keyed by this file."""
    folder = site_dir / ICONS
    folder.mkdir(parents=True, exist_ok=True)
    cache = cache_dir / "icons" / runtime.sha256_of(Path(__file__))[:16] if cache_dir else None
    entries: list[Icon] = []
    for size in PNG_SIZES:
        for maskable in (False, True):
            name = f"icon-{size}{'-maskable' if maskable else ''}.png"
            if cache and (cache / name).is_file():
                data = (cache / name).read_bytes()
            else:
                data = icon_png(size, maskable)
                if cache:
                    cache.mkdir(parents=True, exist_ok=True)
                    (cache / name).write_bytes(data)
            (folder / name).write_bytes(data)
            entries.append(
                {
                    "src": ICONS + name,
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": "maskable" if maskable else "any",
                }
            )
    (folder / "icon.svg").write_text(icon_svg(), encoding="utf-8")
    entries.append(
        {"src": ICONS + "icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}
    )
    return entries


# --- the manifests ----------------------------------------------------------------------------

MANIFEST = "manifest.webmanifest"


def language_root(lang: str, default: str) -> str:
    """A language's folder relative to the site's root: "" for the default one."""
    return "" if lang == default else f"{lang}/"


def manifest(
    lang: str, default: str, catalog: Catalog, description: str, icons: list[Icon]
) -> dict[str, object]:
    up = "../" if lang != default else ""
    return {
        "name": catalog.text("app.name"),
        "short_name": catalog.text("app.short_name"),
        "description": description,
        "lang": lang,
        "dir": "ltr",
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#{:02x}{:02x}{:02x}".format(*GREEN),
        "icons": [{**icon, "src": up + icon["src"]} for icon in icons],
    }


def write_manifests(
    site_dir: Path,
    languages: tuple[str, ...],
    catalogs: Mapping[str, Catalog],
    descriptions: dict[str, str],
    icons: list[Icon],
) -> None:
    for lang in languages:
        path = site_dir / language_root(lang, languages[0]) / MANIFEST
        path.write_text(
            json.dumps(
                manifest(lang, languages[0], catalogs[lang], descriptions[lang], icons),
                ensure_ascii=False,
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )


# --- the service worker -----------------------------------------------------------------------

SHELL_SUFFIXES = (".html", ".css", ".js", ".png", ".svg")


def build_id(site_dir: Path) -> str:
    """A digest of every file of the built site (but the worker itself and compressed copies)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
        relative = path.relative_to(site_dir).as_posix()
        if relative == "sw.js" or path.suffix in (".gz", ".br"):
            continue
        digest.update(relative.encode() + b"\0" + runtime.sha256_of(path).encode())
    return digest.hexdigest()[:16]


def page_url(relative: str) -> str:
    """The URL (relative to the site's root) a page is linked by: its folder for index.html."""
    if relative == "index.html":
        return "./"
    return relative[: -len("index.html")] if relative.endswith("/index.html") else relative


def shell(site_dir: Path, lang: str, languages: tuple[str, ...]) -> list[str]:
    """A language's own files: its pages, search index, sitemap and manifest."""
    root = site_dir / language_root(lang, languages[0])
    others = {site_dir / other for other in languages if other != languages[0]}
    others.add(site_dir / "assets")
    files = []
    for path in sorted(root.rglob("*")):
        if lang == languages[0] and any(path.is_relative_to(o) for o in others):
            continue
        name = path.relative_to(site_dir).as_posix()
        if path.suffix == ".html" or path.name in ("search_index.json", "sitemap.xml", MANIFEST):
            files.append(page_url(name))
    return files


def common(site_dir: Path, languages: tuple[str, ...]) -> list[str]:
    """What every language's pages load: stylesheets, scripts (the engine's front end,
    material's, its search worker and the stemmers of the site's languages), images."""
    lunr = {f"lunr.{name}.min.js" for name in ("stemmer.support", "multi", *languages)}
    out = []
    for path in sorted((site_dir / "assets").rglob("*")):
        name = path.relative_to(site_dir).as_posix()
        if (
            not path.is_file()
            or path.suffix not in SHELL_SUFFIXES
            or name.startswith("assets/runtime/")
        ):
            continue
        if "/lunr/" in name and path.name not in lunr:
            continue
        out.append(name)
    return out


def service_worker(site_dir: Path, languages: tuple[str, ...], runtime_dir: str | None) -> str:
    """The text of sw.js: this build's facts, the integrity check, then the logic
    (sitegen/sw.js)."""
    boot = (
        [f"assets/runtime/{runtime_dir}/{name}" for name in runtime.BOOT_FILES]
        if runtime_dir
        else []
    )
    facts = {
        "BUILD": build_id(site_dir),
        "COMMON": common(site_dir, languages),
        "SHELL": {lang: shell(site_dir, lang, languages) for lang in languages},
        "RUNTIME": boot,
        "INTEGRITY": {path: runtime.sri(site_dir / path) for path in boot},
        "RUNTIME_CACHE": runtime.runtime_cache(runtime_dir) if runtime_dir else None,
        "DIRECT_HEADER": runtime.DIRECT_HEADER,
    }
    head = "".join(
        f"const {name} = {json.dumps(value, separators=(',', ':'))};\n"
        for name, value in facts.items()
    )
    check = INTEGRITY_SOURCE.read_text(encoding="utf-8").replace("export async ", "async ")
    return (
        "// The site's service worker, written by the build (sitegen/offline.py): this build's"
        " facts, docs/assets/gin/integrity.js, then sitegen/sw.js.\n"
        + head
        + check
        + SW_SOURCE.read_text(encoding="utf-8")
    )


def write_offline(
    site_dir: Path,
    languages: tuple[str, ...],
    catalogs: Mapping[str, Catalog],
    descriptions: dict[str, str],
    runtime_dir: str | None,
    cache_dir: Path | None = None,
) -> None:
    """The icons, the manifests, then the service worker (whose build id covers them)."""
    icons = write_icons(site_dir, cache_dir)
    write_manifests(site_dir, languages, catalogs, descriptions, icons)
    (site_dir / "sw.js").write_text(
        service_worker(site_dir, languages, runtime_dir), encoding="utf-8"
    )
