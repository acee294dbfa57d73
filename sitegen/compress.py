"""Precompressed copies of every compressible file of the built site: ``<file>.br`` (Brotli,
highest quality) and ``<file>.gz`` (gzip -9), beside the file.

A host that serves precompressed files (and the local server, :mod:`sitegen.server`) sends the
``.br`` copy to a browser that accepts Brotli, else the ``.gz`` one, else the file. A copy is
written only when it is smaller than the file. The output is deterministic (no time or name in
the gzip header; Brotli has none), so two builds of the same sources give the same bytes.

Brotli at its highest quality is slow (about a minute for each of the runtime's big files, a
second for a page), so the copies come from a content-addressed cache (``.cache/compressed/``):
a rebuild compresses only the files that changed.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import brotli

from .runtime import prune_cache

# What a browser fetches and a compressor shrinks; source maps are not fetched by readers.
SUFFIXES = (
    ".html",
    ".css",
    ".js",
    ".mjs",
    ".json",
    ".xml",
    ".svg",
    ".txt",
    ".webmanifest",
    ".wasm",
    ".zip",
    ".snapshot",
    ".whl",
)
ENCODINGS = {"br": ".br", "gzip": ".gz"}  # Content-Encoding -> suffix of the copy
BROTLI_QUALITY = 11
BROTLI_WINDOW = 24  # 16 MiB: the snapshot's repeats lie far apart; every browser decodes it
CACHE_ENTRIES = 3000  # about 6 builds' worth of copies (each file has 2)


def compressible(path: Path) -> bool:
    return path.suffix in SUFFIXES and path.is_file()


def gzip_bytes(data: bytes) -> bytes:
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=9, mtime=0) as f:
        f.write(data)
    return out.getvalue()


def brotli_bytes(data: bytes, quality: int = BROTLI_QUALITY) -> bytes:
    compressed: bytes = brotli.compress(data, quality=quality, lgwin=BROTLI_WINDOW)  # no stubs
    return compressed


def _copies(data: bytes, quality: int, cache: Path | None) -> dict[str, bytes]:
    """{suffix: compressed bytes} for both encodings, from the cache when there."""
    out = {}
    key = hashlib.sha256(data).hexdigest() + (f"-q{quality}" if quality != BROTLI_QUALITY else "")
    for suffix, make in ((".gz", gzip_bytes), (".br", lambda d: brotli_bytes(d, quality))):
        cached = cache / (key + suffix) if cache else None
        if cached and cached.is_file():
            os.utime(cached)  # recently used: kept by prune_cache
            out[suffix] = cached.read_bytes()
            continue
        out[suffix] = make(data)
        if cached:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
            tmp.write_bytes(out[suffix])
            tmp.replace(cached)
    return out


def precompress_file(
    path: Path, cache_dir: Path | None = None, quality: int = BROTLI_QUALITY
) -> dict[str, int]:
    """Write path.br and path.gz (each only if smaller than the file; a stale one is removed).
    Returns {suffix: bytes} of the copies written."""
    data = path.read_bytes()
    cache = cache_dir / "compressed" if cache_dir else None
    written = {}
    for suffix, packed in _copies(data, quality, cache).items():
        copy = path.with_name(path.name + suffix)
        if len(packed) < len(data):
            copy.write_bytes(packed)
            written[suffix] = len(packed)
        else:
            copy.unlink(missing_ok=True)
    return written


def precompress_site(
    site_dir: Path, cache_dir: Path | None = None, quality: int = BROTLI_QUALITY
) -> int:
    """Precompressed copies of every compressible file of the site. Returns how many files."""
    files = sorted(
        (p for p in site_dir.rglob("*") if compressible(p)), key=lambda p: -p.stat().st_size
    )  # the big ones first: they take longest
    # Processes, not threads: the brotli module holds the GIL while it compresses.
    with ProcessPoolExecutor(
        max_workers=min(4, os.cpu_count() or 1), mp_context=multiprocessing.get_context("spawn")
    ) as pool:
        list(
            pool.map(
                partial(precompress_file, cache_dir=cache_dir, quality=quality), files, chunksize=1
            )
        )
    if cache_dir:
        prune_cache(cache_dir / "compressed", keep=CACHE_ENTRIES)
    return len(files)


def negotiate(path: Path, accept_encoding: str) -> tuple[Path, str | None]:
    """The copy of ``path`` to send for this Accept-Encoding header, and its Content-Encoding:
    the .br copy when Brotli is accepted, else the .gz one when gzip is, else the file itself."""
    accepted = set()
    for item in accept_encoding.split(","):
        name, _, params = item.strip().partition(";")
        q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            if float(q) > 0:
                accepted.add(name.strip().lower())
        except ValueError:
            continue
    for encoding, suffix in ENCODINGS.items():
        copy = path.with_name(path.name + suffix)
        if (encoding in accepted or "*" in accepted) and copy.is_file():
            return copy, encoding
    return path, None
