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
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

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
    head = (
        FIELD.sub(f"translates: {digest}", head)
        if FIELD.search(head)
        else f"{head}translates: {digest}\n"
    )
    return f"---\n{head}---\n{source[front.end() :]}"


def mark_translated(docs: Path, language: str, pages: list[str]) -> list[str]:
    """Stamp pages of a language (all of them when ``pages`` is empty) as translating their
    English page as it is now. Returns the pages stamped.

    Only pages of the site are stamped: a translated language's own pages (``docs/<lang>/…``,
    named as in that folder, like ``rules/melds.md``) that have an English page. Every name is
    checked before any page is written, so a bad one changes nothing."""
    from .languages import languages

    codes = languages(docs.parent)
    if language not in codes[1:]:
        raise BuildError(
            f"{language!r} is not a translated language of the site: use one of "
            f"{', '.join(codes[1:])}"
            + (" (the English pages are the originals)" if language == codes[0] else "")
        )
    folder, english = docs / language, docs / codes[0]
    own = _pages(folder)
    names = [PurePosixPath(name).as_posix() for name in pages] if pages else sorted(own)
    for name, given in zip(names, pages or names, strict=True):
        if name not in own:
            raise BuildError(
                f"{given}: not a page of docs/{language}/ (name one as in that folder, like "
                "rules/melds.md)"
            )
        if name not in _pages(english):
            raise BuildError(f"docs/{language}/{name}: no English page docs/{codes[0]}/{name}")
    for name in names:
        path = folder / name
        path.write_text(
            stamped(path.read_text(encoding="utf-8"), english_digest(docs, name)), encoding="utf-8"
        )
    return names


def _pages(folder: Path) -> set[str]:
    """The pages in a language's folder, named from it (``rules/melds.md``)."""
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*.md") if p.is_file()}


@dataclass
class Status:
    """How far one language's translation is: each list names what is in that state."""

    language: str
    name: str
    messages: dict[str, list[str]]  # translated, fuzzy, missing: message keys
    pages: dict[str, list[str]]  # translated, outdated (older than English), missing
    lessons: dict[str, list[str]]  # translated, missing (some message not translated)

    def lines(self, details: bool = False) -> list[str]:
        def counts(states: dict[str, list[str]], words: dict[str, str]) -> str:
            total = sum(len(v) for v in states.values())
            return ", ".join(f"{len(states[k])} {w}" for k, w in words.items()) + f" (of {total})"

        out = [
            f"{self.language} ({self.name})",
            "  catalog: "
            + counts(
                self.messages, {"translated": "translated", "fuzzy": "fuzzy", "missing": "missing"}
            ),
            "  pages:   "
            + counts(
                self.pages,
                {
                    "translated": "translated",
                    "outdated": "older than English",
                    "missing": "missing",
                },
            ),
            "  lessons: "
            + counts(self.lessons, {"translated": "translated", "missing": "not translated"}),
        ]
        shown = [("older than English", self.pages["outdated"])]
        if details:
            shown += [
                ("missing pages", self.pages["missing"]),
                ("lessons not translated", self.lessons["missing"]),
                ("fuzzy messages", self.messages["fuzzy"]),
                ("missing messages", self.messages["missing"]),
            ]
        out += [f"    {what}: {', '.join(names)}" for what, names in shown if names]
        return out


def translation_status(root: Path) -> list[Status]:
    """Every language's :class:`Status` but the default one's (English, the source)."""
    from .catalogs import message_states
    from .languages import i18n_languages, languages

    root, docs = Path(root), Path(root) / "docs"
    codes = languages(root)
    names = {e["locale"]: e.get("name", e["locale"]) for e in i18n_languages(root / "mkdocs.yml")}
    english = sorted(str(p.relative_to(docs / codes[0])) for p in (docs / codes[0]).rglob("*.md"))
    # A lesson's file is <NN>-<id>.yaml; its messages are lesson.<id>.…
    lessons = [p.stem.partition("-")[2] for p in sorted((root / "tutorials").glob("*.yaml"))]
    found = []
    for code in codes[1:]:
        states = message_states(code, root / "locales")
        messages = {
            s: [k for k, v in states.items() if v == s] for s in ("translated", "fuzzy", "missing")
        }
        pages: dict[str, list[str]] = {"translated": [], "outdated": [], "missing": []}
        for page in english:
            path = docs / code / page
            state = (
                "missing"
                if not path.is_file()
                else "translated"
                if translates(path.read_text(encoding="utf-8")) == english_digest(docs, page)
                else "outdated"
            )
            pages[state].append(page)
        done: dict[str, list[str]] = {"translated": [], "missing": []}
        for lesson in lessons:
            keys = [k for k in states if k.startswith(f"lesson.{lesson}.")]
            done[
                "translated" if all(states[k] == "translated" for k in keys) else "missing"
            ].append(lesson)
        found.append(Status(code, names.get(code, code), messages, pages, done))
    return found
