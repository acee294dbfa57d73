"""The footer of every page (sitegen.plugin.footer), without a built site: the licences of the
text and of the code, linked, the About page of the page's language, what the site is made
with. (On the built site, in every language: tests/site/test_licence.py.)"""

from __future__ import annotations

from sitegen import plugin
from sitegen.catalogs import load


def test_the_footer_links_the_licences_and_the_about_page_of_its_language():
    ro = plugin.footer(load("ro"), "ro", "en")
    assert ro["about"] == "ro/about/" and plugin.footer(load("en"), "en", "en")["about"] == "about/"
    name, url = plugin.TEXT_LICENCE
    assert f'<a href="{url}" rel="license">{name}</a>' in ro["licence"]
    name, url = plugin.CODE_LICENCE
    assert f'<a href="{url}">{name}</a>' in ro["licence"]
    name, url = plugin.GENERATOR
    assert f'<a href="{url}">{name}</a>' in ro["made_with"]
    assert ro["about_text"] == load("ro").text("ui.licence_about")
