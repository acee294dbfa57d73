"""Adding a language to the site: its catalog from the template, its pages' folder and its
entry in ``mkdocs.yml`` (``python -m sitegen new-language <code>``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from . import BuildError
from .catalogs import new_catalog
from .languages import ROOT, language_name, languages, register, supported


def add_language(code: str, root: Path = ROOT) -> list[Path]:
    """Make ``code`` a language of the site: its catalog from the template
    (``locales/<code>.po``, every message untranslated), its pages' folder (``docs/<code>/``,
    empty: every page falls back to English) and its entry in ``mkdocs.yml``. Returns the
    files written."""
    root = Path(root)
    if code in languages(root):
        raise BuildError(f"{code!r} is already a language of the site (mkdocs.yml)")
    if code not in supported():
        raise BuildError(
            f"cannot add {code!r}: Material for MkDocs and lunr.js both support "
            f"only {', '.join(supported())}"
        )
    catalog, folder = root / "locales" / f"{code}.po", root / "docs" / code
    for path in (catalog, folder):
        if path.exists():
            raise BuildError(f"{path} already exists: remove it, or register the language by hand")
    new_catalog(code, root / "locales")
    folder.mkdir(parents=True)
    (folder / ".gitkeep").write_text("", encoding="utf-8")
    try:
        register(root / "mkdocs.yml", code, language_name(code))
    except BuildError:
        catalog.unlink()
        shutil.rmtree(folder)
        raise
    return [catalog, folder / ".gitkeep", root / "mkdocs.yml"]
