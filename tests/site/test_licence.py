"""The licences: MIT for the code (LICENSE, the wheels' metadata), CC BY-SA 4.0 for the text of
the pages and lessons, said in every language's footer and About page, with the attributions
the sources need."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from sitegen import catalogs
from sitegen.wheels import Package, build_wheel
from tests.site.test_content import built
from tests.site.test_site import Tags

REPO = Path(__file__).resolve().parents[2]
CC_BY_SA = "https://creativecommons.org/licenses/by-sa/4.0/"
WIKIPEDIA = ("https://en.wikipedia.org/wiki/Gin_rummy", "https://it.wikipedia.org/wiki/Gin_rummy")


def test_the_code_is_mit_and_each_package_ships_the_same_licence():
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "CC BY-SA 4.0" in text
    for package in ("engine", "presentation"):
        assert (REPO / package / "LICENSE").read_bytes() == text.encode("utf-8")


@pytest.mark.parametrize(
    "package, expression", [("engine", "MIT"), ("presentation", "MIT AND CC-BY-SA-4.0")]
)
def test_the_wheels_carry_the_licence(tmp_path, package, expression):
    wheel = zipfile.ZipFile(build_wheel(Package(REPO / package), tmp_path))
    info = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")).split("/")[0]
    metadata = wheel.read(f"{info}/METADATA").decode("utf-8").splitlines()
    assert f"License-Expression: {expression}" in metadata
    assert wheel.read(f"{info}/licenses/LICENSE") == (REPO / "LICENSE").read_bytes()


def footer(html: str) -> str:
    return html.split('<div class="md-copyright">', 1)[1].split("</div>\n</div>", 1)[0]


@pytest.mark.parametrize("lang", catalogs.languages())
def test_every_page_says_the_licences_in_its_language(built_site, lang):
    cat = catalogs.load(lang)
    prefix = "" if lang == "en" else f"{lang}/"
    for page, path in [
        ("rules/melds.md", built(built_site, lang, "rules/melds.md")),
        ("index.md", built(built_site, lang, "index.md")),
        ("404", built_site / prefix / "404.html"),
    ]:
        html = footer(path.read_text(encoding="utf-8"))
        text = re.sub(r"<[^>]+>", "", html)
        assert " ".join(text.split()).startswith(
            cat.text("ui.licence", text_licence="CC BY-SA 4.0", code_licence="MIT")
        ), (lang, page)
        links = {a["href"]: a for a in Tags(html).find("a")}
        assert links[CC_BY_SA]["rel"] == "license"
        about = [href for href in links if href.endswith("about/#licence")]
        assert len(about) == 1, (lang, page, list(links))
        if page == "404":  # relative to the site's root, which the page sets as its <base>
            assert about[0] == f"{prefix}about/#licence"
        else:  # relative to the page: the About page of the same language
            target = (path.parent / urlsplit(about[0]).path / "index.html").resolve()
            assert target == built(built_site, lang, "about.md").resolve(), (lang, page)
        assert cat.text("ui.licence_about") in text


@pytest.mark.parametrize("lang", catalogs.languages())
def test_the_about_page_states_the_licences_and_the_attributions(built_site, lang):
    html = built(built_site, lang, "about.md").read_text(encoding="utf-8")
    section = html.split('id="licence"', 1)[1].split("</article>", 1)[0]
    hrefs = [a["href"] for a in Tags(section).find("a")]
    assert any(href.startswith(CC_BY_SA) for href in hrefs), lang
    assert all(url in hrefs for url in WIKIPEDIA), lang
    text = " ".join(re.sub(r"<[^>]+>", "", section).split())
    for words in (
        "CC BY-SA 4.0",
        "MIT",
        "LICENSE",
        "Pyodide",
        "Mozilla Public License 2.0",
        "Python Software Foundation License",
        "Material for MkDocs",
        "lunr.js",
    ):
        assert words in text, (lang, words)
