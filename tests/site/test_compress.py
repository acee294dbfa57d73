"""Precompressed copies (sitegen.compress): .br and .gz beside every compressible file of the
built site, the same bytes on every build, served by the local server as the browser accepts."""

from __future__ import annotations

import gzip
import http.client
import os
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import brotli
import pytest

from sitegen.compress import SUFFIXES, negotiate, precompress_file
from sitegen.server import SiteHandler


def test_every_compressible_file_has_both_copies_with_its_exact_bytes(built_site):
    checked = 0
    for path in built_site.rglob("*"):
        if path.suffix not in SUFFIXES or not path.is_file() or path.suffix == ".whl":
            continue
        data = path.read_bytes()
        if len(data) < 200:
            continue  # too small to shrink: no copy is the right answer
        br, gz = path.with_name(path.name + ".br"), path.with_name(path.name + ".gz")
        assert br.is_file() and gz.is_file(), path
        assert brotli.decompress(br.read_bytes()) == data, br
        assert gzip.decompress(gz.read_bytes()) == data, gz
        assert br.stat().st_size < len(data) and gz.stat().st_size < len(data)
        checked += 1
    kinds = {Path(p.stem).suffix for p in built_site.rglob("*.br")}
    assert {
        ".html",
        ".css",
        ".js",
        ".json",
        ".wasm",
        ".snapshot",
        ".zip",
        ".mjs",
        ".xml",
        ".webmanifest",
        ".svg",
    } <= kinds, kinds
    assert checked > 150


def test_copies_are_deterministic_and_only_when_smaller(tmp_path):
    text = tmp_path / "page.html"
    text.write_text("<p>gin rummy</p>\n" * 200)
    first = precompress_file(text)
    once = {s: text.with_name(text.name + s).read_bytes() for s in (".br", ".gz")}
    os.utime(text, (0, 0))
    assert precompress_file(text) == first
    assert {s: text.with_name(text.name + s).read_bytes() for s in (".br", ".gz")} == once
    assert once[".gz"][4:8] == b"\0\0\0\0"  # no time in the gzip header
    tiny = tmp_path / "tiny.js"
    tiny.write_text("x")
    assert precompress_file(tiny) == {}
    assert not tiny.with_name("tiny.js.br").exists() and not tiny.with_name("tiny.js.gz").exists()


def test_copies_come_from_the_cache_which_keeps_those_used(tmp_path):
    page, cache = tmp_path / "page.html", tmp_path / "cache"
    page.write_text("<p>gin rummy</p>\n" * 200)
    first = precompress_file(page, cache)
    kept = sorted((cache / "compressed").iterdir())
    assert [p.suffix for p in kept] == [".br", ".gz"]
    for path in kept:  # the cache's copies, made long ago, and now changed: they are read
        path.write_bytes(path.read_bytes())
        os.utime(path, (0, 0))
    assert precompress_file(page, cache) == first
    assert all(path.stat().st_mtime > 0 for path in kept)  # used again: kept by prune_cache
    assert page.with_name("page.html.gz").read_bytes() == kept[1].read_bytes()


@pytest.mark.parametrize(
    "accept, expected",
    [
        ("gzip, deflate, br, zstd", "br"),
        ("br;q=1.0, gzip;q=0.8", "br"),
        ("gzip, deflate", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("identity", None),
        ("", None),
        ("*", "br"),
    ],
)
def test_negotiate_prefers_brotli_when_accepted(tmp_path, accept, expected):
    page = tmp_path / "index.html"
    page.write_text("<p>x</p>" * 100)
    precompress_file(page)
    copy, encoding = negotiate(page, accept)
    assert encoding == expected
    assert (
        copy.name == {"br": "index.html.br", "gzip": "index.html.gz", None: "index.html"}[expected]
    )


def test_negotiate_without_copies_sends_the_file(tmp_path):
    page = tmp_path / "a.css"
    page.write_text("a{}")
    assert negotiate(page, "br, gzip") == (page, None)


@pytest.fixture
def local_server(built_site):
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), lambda *a, **k: SiteHandler(*a, directory=str(built_site), **k)
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(
    "accept, encoding", [("gzip, deflate, br", "br"), ("gzip", "gzip"), ("identity", None)]
)
def test_local_server_sends_the_copy_the_browser_accepts(
    built_site, local_server, accept, encoding
):
    for path, file in (("/", "index.html"), ("/assets/gin/gin.js", "assets/gin/gin.js")):
        conn = http.client.HTTPConnection("127.0.0.1", local_server)
        conn.request("GET", path, headers={"Accept-Encoding": accept})
        response = conn.getresponse()
        body = response.read()
        conn.close()
        assert response.status == 200
        assert response.getheader("Content-Encoding") == encoding
        assert response.getheader("Vary") == "Accept-Encoding"
        assert int(response.getheader("Content-Length")) == len(body)
        decoded = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[encoding](body)
        assert decoded == (built_site / file).read_bytes()
