"""A strict Content-Security-Policy in every page, as a ``<meta>`` tag (static hosts differ in
the headers they let a site set), and the same policy as an HTTP header for the hosts that can
send one (:func:`header_policy`, which :mod:`sitegen.hosting` writes into their configuration).

Scripts come from the site itself, and inline scripts only by the hash of their text, computed
here after the build; WebAssembly may compile (``wasm-unsafe-eval``, for Pyodide); workers,
fetches, styles, images and fonts come from the site's own origin only; no ``unsafe-inline``,
no ``unsafe-eval``, no plugins, no base or form target elsewhere. Material's instant
navigation runs the next page's inline scripts under the first page's policy, so every page
allows the inline scripts of every page (a few dozen hashes in all).
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

INLINE = re.compile(r"<script(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</script>", re.S)
DATA_TYPE = re.compile(r'\stype="(?!module"|text/javascript")[^"]*"')
CSP_META = re.compile(r'\n?\s*<meta http-equiv="Content-Security-Policy"[^>]*>')
CHARSET = re.compile(r'<meta charset="utf-8">', re.I)


def _inline_scripts(html: str) -> list[str]:
    """The text of every inline script a browser runs (not JSON data, not ``src`` scripts)."""
    return [
        m.group("body")
        for m in INLINE.finditer(html)
        if " src=" not in m.group("attrs") and not DATA_TYPE.search(m.group("attrs"))
    ]


def _hash(script: str) -> str:
    return (
        "'sha256-"
        + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
        + "'"
    )


def policy(hashes: set[str]) -> str:
    """The policy, with these inline script hashes allowed."""
    return "; ".join(
        (
            "default-src 'self'",
            f"script-src 'self' 'wasm-unsafe-eval' {' '.join(sorted(hashes))}",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'self'",
            "connect-src 'self'",
            "worker-src 'self'",
            "manifest-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
        )
    )


HEADER_ONLY = ("frame-ancestors 'self'",)
"""Directives a browser takes from an HTTP header only (in a ``<meta>`` tag it ignores them,
with a console error): no other site may frame the pages."""


def _pages(site_dir: Path) -> dict[Path, str]:
    """Every page of a built site, without its policy."""
    return {
        page: CSP_META.sub("", page.read_text(encoding="utf-8"))
        for page in sorted(site_dir.rglob("*.html"))
    }


def _site_hashes(texts: Iterable[str]) -> set[str]:
    return {_hash(s) for text in texts for s in _inline_scripts(text)}


def header_policy(site_dir: Path) -> str:
    """The policy of a built site's pages, as an HTTP header sends it (with HEADER_ONLY)."""
    return "; ".join((policy(_site_hashes(_pages(site_dir).values())), *HEADER_ONLY))


def add_policy(site_dir: Path) -> int:
    """Put the policy in every page of a built site; returns how many inline scripts it allows."""
    texts = _pages(site_dir)
    hashes = _site_hashes(texts.values())
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy(hashes)}">'
    for page, text in texts.items():
        # after the charset (which must come in the first 1024 bytes), before any script
        charset = CHARSET.search(text)
        if charset:
            at = charset.end()
            page.write_text(f"{text[:at]}\n      {meta}{text[at:]}", encoding="utf-8")
    return len(hashes)
