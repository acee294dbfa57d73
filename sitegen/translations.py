"""Which version of its English page each translated page translates.

A translated page says so in its front matter: ``translates: <digest>``, the first 12 hex
digits of the sha256 of the English page's file. When the English page changes, its digest
changes, and the translation is older than its English page: the build puts a notice on it in
its own language and lists it, and ``python -m sitegen translation-status`` reports it. Once
the translation is brought up to date, ``python -m sitegen mark-translated <lang> <page>…``
writes the new digest.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from . import BuildError

FRONT = re.compile(r"\A---\n(.*?\n)---\n", re.S)
FIELD = re.compile(r"^translates:[ \t]*([0-9a-f]+)[ \t]*$", re.M)


def english_digest(docs: Path, page: str) -> str:
    """The digest of ``docs/<default language>/<page>`` as it is now."""
    path = docs / "en" / page
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12] if path.is_file() else ""


def translates(source: str) -> str | None:
    """The digest a page's front matter names, if any."""
    front = FRONT.match(source)
    found = front and FIELD.search(front.group(1))
    return found.group(1) if found else None


def stamped(source: str, digest: str) -> str:
    """The page with ``translates: digest`` in its front matter (added or replaced)."""
    front = FRONT.match(source)
    if not front:
        return f"---\ntranslates: {digest}\n---\n{source}"
    head = front.group(1)
    head = FIELD.sub(f"translates: {digest}", head) if FIELD.search(head) else \
        f"{head}translates: {digest}\n"
    return f"---\n{head}---\n{source[front.end():]}"


def mark_translated(docs: Path, language: str, pages: list[str]) -> list[str]:
    """Stamp pages of a language (all of them when ``pages`` is empty) as translating their
    English page as it is now. Returns the pages stamped."""
    folder = docs / language
    if not folder.is_dir():
        raise BuildError(f"no pages in {folder}")
    names = pages or sorted(str(p.relative_to(folder)) for p in folder.rglob("*.md"))
    done = []
    for name in names:
        path, digest = folder / name, english_digest(docs, name)
        if not path.is_file() or not digest:
            raise BuildError(f"{path}: no such translated page, or no English page to translate")
        path.write_text(stamped(path.read_text(encoding="utf-8"), digest), encoding="utf-8")
        done.append(name)
    return done
