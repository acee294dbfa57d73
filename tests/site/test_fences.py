"""Examples written in pages (```gin fences) and rule-number macros: made canonical, drawn by
the presentation layer, and a bad one stops the build with its file and line.

The plugin is configured from mkdocs.yml alone: a plain `mkdocs build` of the repository builds
the whole site, lessons and runtime included, with no environment variable.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from ginview.catalog import esc
from ginview.examples import KINDS

from sitegen import BuildError, catalogs, fences, macros
from sitegen.pipeline import run_mkdocs

REPO = Path(__file__).resolve().parents[2]
EN = catalogs.load("en")


def where(offset: int = 0):
    return lambda position: f"docs/en/page.md:{offset + 1}"


def page(body: str) -> str:
    return f"# A page\n\nSome text.\n\n```gin\n{body}\n```\n"


def render(body: str) -> str:
    catalogs.install_all()
    markdown = page(body)
    text, count = fences.render_page(
        markdown, lambda p: f"docs/en/page.md:{markdown.count(chr(10), 0, p) + 1}", EN
    )
    assert count == 1
    return text


def test_a_fence_in_any_notation_is_drawn_canonical():
    html = render("kind: melds\nhand: 10c, jc qc 2h 2d 2♠ 5h 6h 7h 9d")
    assert (
        'data-gin="{&quot;kind&quot;:&quot;melds&quot;,&quot;hand&quot;:&quot;TC JC QC 2H 2D 2S 5H 6H 7H 9D&quot;}"'
        in html
    )
    assert '<span aria-hidden="true">10♣</span>' in html and "1♣" not in html
    assert 'data-gin-link="hand:TC-JC-QC-2H-2D-2S-5H-6H-7H-9D"' in html
    # A YAML list of cards is cards too.
    assert 'data-card="TC"' in render(
        "kind: melds\nhand: [10c, jc, qc, 2h, 2d, 2s, 5h, 6h, 7h, 9d]"
    )


def test_the_play_fence_is_the_play_page_in_the_pages_language():
    catalogs.install_all()
    ro = catalogs.load("ro")
    text, count = fences.render_page(page("kind: play"), where(), ro)
    assert count == 1 and 'data-gin="play"' in text and str(esc(ro.text("play.needs_js"))) in text


BAD_FENCES = {  # the fence opens on line 5 of the page: its body's lines are 6, 7, …
    "misspelt field": (
        "kind: score\nknockr: 2S 3S 4S 7H 7D 7C 9C TC JC 5D\n"
        "defender: 8S 9S TS KH KD 4H 6C 6H 2C AD",
        7,
        "a score example has no field 'knockr'; its fields are knocker, defender, rules, upcard",
    ),
    "missing field": (
        "kind: score\nknocker: 2S 3S 4S 7H 7D 7C 9C TC JC 5D",
        5,
        "a score example needs 'defender'",
    ),
    "unknown kind": ("kind: guess\nhand: AS", 5, "unknown example kind 'guess'; use one of melds"),
    "no kind": ("hand: AS", 5, "an example is a mapping with a 'kind' and its fields"),
    "bad card": (
        "kind: melds\nhand: ZS 2S 3S 7H 7D 7C 9C TC JC KD",
        7,
        "hand: unknown rank 'Z' in card 'ZS'",
    ),
    "wrong count": ("kind: melds\nhand: AS 2S 3S", 7, "hand: expected 10 or 11 cards, got 3"),
    "a list where cards belong": (
        "kind: melds\nhand: [[AS, 2S], 3S]",
        7,
        "hand must be cards written like 7H 8H 9H, not [['AS', '2S'], '3S']",
    ),
    "a mapping where cards belong": (
        "kind: melds\nhand: {a: 1}",
        7,
        "hand must be cards written like 7H 8H 9H, not {'a': 1}",
    ),
    "unknown rules": (
        "kind: knock\nhand: 2S 3S 4S 7H 7D 7C 9C TC JC 5D KH\nrules: house",
        5,
        "unknown rules 'house'; use one of standard, pagat",
    ),
    "bad entry": (
        "kind: sheet\nentries: [A 25, C 14]",
        7,
        'entries must be hands won written like "A 25"',
    ),
    "too many points": (
        "kind: sheet\nentries: [A 25, B 5000]",
        5,
        "points must be from 0 to 1000, not 5000",
    ),
    "illegal knock": (
        "kind: score\nknocker: AS 5S 9S 4H 8H QH 7C JC 3D KD\n"
        "defender: 8D 9D TD KH KC 4D 6C 6H 2C AD",
        5,
        "knock limit",
    ),
    "not YAML": ("kind: [melds", 7, "the example is not valid YAML"),
    "not YAML on its third line": (
        "kind: melds\nhand: AS\nrules: [x: y: z]",
        8,
        "the example is not valid YAML",
    ),
    "a key twice": (
        "kind: melds\nhand: AS 2S 3S 7H 7D 7C 9C TC JC KD\nhand: AS",
        8,
        "the example is 'hand' is given twice (line 2 and here)",
    ),
    "rules: yes": (
        "kind: knock\nhand: 2S 3S 4S 7H 7D 7C 9C TC JC 5D KH\nrules: yes",
        5,
        "unknown rules 'yes'",
    ),
    "an alias": (
        "kind: melds\nhand: &h AS 2S 3S 7H 7D 7C 9C TC JC KD\nupcard: *h",
        7,
        "the example is anchors and aliases (&, *) are not allowed",
    ),
    "a tag": ("kind: melds\nhand: !!binary QVM=", 7, "tags like !!binary are not allowed"),
    "a number of 5,000 digits": (
        "kind: sheet\nentries: [A 25]\nrules: " + "9" * 5000,
        8,
        "the example is 99999999999999999999… is too long to be a number",
    ),
    "play with a field": ("kind: play\nseed: 7", 7, "the play fence holds 'kind: play' alone"),
}


@pytest.mark.parametrize("case", BAD_FENCES, ids=list(BAD_FENCES))
def test_a_bad_fence_stops_the_build_with_file_line_and_problem(case):
    """Named by the line of the field at fault, or the fence's own line."""
    body, line, expected = BAD_FENCES[case]
    with pytest.raises(fences.ExampleError) as failure:
        render(body)
    message = str(failure.value)
    assert message.startswith(f"docs/en/page.md:{line}: "), message
    assert expected in message, message
    assert "\n" not in message


def first_example_of_each_kind() -> dict[str, dict]:
    """The first example of each kind written in the English pages."""
    found = {}
    for path in sorted((REPO / "docs/en").rglob("*.md")):
        for fence in fences.fences(path.read_text(encoding="utf-8")):
            if fence.gin:
                data = yaml.safe_load(fence.body)
                found.setdefault(data["kind"], data)
    return found


FIRST = first_example_of_each_kind()
FIELDS = [(kind, field) for kind in KINDS for field in KINDS[kind].fields]


def test_the_pages_have_an_example_of_every_kind():
    # and the play page's game, a fence of its own kind (ginview.play)
    assert set(FIRST) == set(KINDS) | {"play"}


def fence_error(data: dict, field: str | None = None) -> str:
    """The error of a fence holding ``data``, which names the line of ``field`` (else the
    fence's own line, 5)."""
    body = yaml.safe_dump(data, allow_unicode=True).strip()
    lines = body.splitlines()
    line = 5 if field is None else 6 + next(n for n, l in enumerate(lines) if l.startswith(field))
    with pytest.raises(fences.ExampleError) as failure:
        render(body)
    message = str(failure.value)
    assert message.startswith(f"docs/en/page.md:{line}: "), message
    assert "\n" not in message
    return message


@pytest.mark.parametrize("kind, field", FIELDS, ids=[f"{k}.{f.name}" for k, f in FIELDS])
def test_every_field_of_every_kind_refuses_bad_input_with_file_and_line(kind, field):
    good = FIRST[kind]
    name = field.name
    others = {k: v for k, v in good.items() if k != name}
    misspelt = fence_error({**others, name + "x": good.get(name, "AS")}, name + "x")
    assert (
        f"a {kind} example has no field '{name}x'; its fields are "
        f"{', '.join(f.name for f in KINDS[kind].fields)}" in misspelt
    )
    if field.required:
        assert f"a {kind} example needs '{name}'" in fence_error(others)
    wrong = fence_error({**good, name: {"nope": 1}}, None if name == "rules" else name)
    assert ("unknown rules" if name == "rules" else f"{name} must be ") in wrong, wrong
    assert "{'nope': 1}" in wrong


def test_macros_quote_only_numbers_of_the_rules():
    assert macros.expand("Gin: {{ standard.gin_bonus }}.", where(), EN) == "Gin: 25."
    assert macros.expand("{{ pagat.undercut_bonus }}", where(), EN) == "10"
    assert macros.expand("Tie: {{ standard.tie_short }}.", where(), EN) == (
        "Tie: counts as an undercut."
    )
    for bad, problem in (
        ("{{ standard.replace }}", "'replace' is not a number of the rules"),
        ("{{ standard.sources }}", "'sources' is not a number of the rules"),
        ("{{ standard.name }}", "'name' is not a number of the rules"),
        ("{{ house.gin_bonus }}", "no rule preset 'house'"),
    ):
        with pytest.raises(BuildError) as failure:
            macros.expand(f"text {bad}", where(6), EN)
        assert str(failure.value).startswith("docs/en/page.md:7: ") and problem in str(
            failure.value
        )


def small_site(tmp_path: Path, text: str) -> Path:
    """A docs tree where the English home page is ``text`` and every other page is a title."""
    from tests.site.test_content import PAGES

    docs = tmp_path / "docs"
    for lang in catalogs.languages():
        for name in PAGES:
            body = text if (lang, name) == ("en", "index.md") else f"# {name}\n"
            (docs / lang / name).parent.mkdir(parents=True, exist_ok=True)
            (docs / lang / name).write_text(body, encoding="utf-8")
    return docs


def test_a_bad_fence_after_front_matter_names_its_own_line(tmp_path):
    text = textwrap.dedent("""\
        ---
        title: Front matter
        description: three lines of it
        ---
        # Home

        ```gin
        kind: melds
        hand: ZS
        ```
        """)
    docs = small_site(tmp_path, text)
    with pytest.raises(BuildError) as failure:
        run_mkdocs(REPO / "mkdocs.yml", tmp_path / "out", {"runtime": False}, docs_dir=str(docs))
    message = str(failure.value)
    assert "docs/en/index.md:9: " in message, message  # the line of hand:, front matter counted
    assert "unknown rank 'Z'" in message


@pytest.mark.slow
@pytest.mark.timeout(900)  # a whole build, as long as its own limit below
def test_mkdocs_build_alone_builds_the_whole_site(tmp_path):
    """The plugin is an entry point configured in mkdocs.yml: a fresh clone's `mkdocs build`
    needs no environment variable and no wrapper."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIN_", "SITE_"))}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    site = tmp_path / "site"
    assert 'class="gin-example"' in (site / "index.html").read_text(encoding="utf-8")
    assert 'class="gin-lesson-step"' in (site / "ro/lessons/01-cards/index.html").read_text("utf-8")
    runtime = (site / "assets/gin/runtime.js").read_text()
    assert re.search(r'RUNTIME_DIR = "\.\./runtime/pyodide-[\d.]+-[0-9a-f]{10}/"', runtime)


FENCE_SHAPES = {  # a bad card in fences of every shape: each is an example, checked
    "tildes": "~~~gin\nkind: melds\nhand: ZS\n~~~\n",
    "four backticks": "````gin\nkind: melds\nhand: ZS\n````\n",
    "closed by a longer fence": "```gin\nkind: melds\nhand: ZS\n`````\n",
    "indented, in a list": "- item\n\n    ```gin\n    kind: melds\n    hand: ZS\n    ```\n",
    "a space before gin": "``` gin\nkind: melds\nhand: ZS\n```\n",
}


@pytest.mark.parametrize("shape", FENCE_SHAPES, ids=list(FENCE_SHAPES))
def test_a_gin_fence_of_any_shape_is_an_example(shape):
    markdown = "# Page\n\n" + FENCE_SHAPES[shape]
    line = markdown.count("\n", 0, markdown.index("hand:")) + 1
    with pytest.raises(fences.ExampleError) as failure:
        fences.render_page(markdown, lambda p: f"x.md:{markdown.count(chr(10), 0, p) + 1}", EN)
    assert str(failure.value) == f"x.md:{line}: hand: unknown rank 'Z' in card 'ZS'"


@pytest.mark.parametrize(
    "markdown, problem",
    [
        ('```gin title="x"\nkind: melds\n```\n', "an example's fence is ```gin alone, not"),
        ("```gin linenums\nkind: melds\n```\n", "an example's fence is ```gin alone, not"),
        ("```Gin\nkind: melds\n```\n", "an example's fence is ```gin alone, not '```Gin'"),
        ("```gin\nkind: melds\nhand: ZS\n", "the fence '```gin' is never closed"),
        (
            "~~~gin\nkind: melds\n```\n",
            "the fence '~~~gin' is never closed: end it with a line of ~~~",
        ),
        ("````gin\nkind: melds\n```\n", "the fence '````gin' is never closed"),
    ],
)
def test_a_fence_with_more_than_gin_or_left_open_stops_the_build(markdown, problem):
    """A fence left open would hide every example after it as code: the build stops on it."""
    markdown = "# Page\n\n" + markdown
    with pytest.raises(fences.ExampleError) as failure:
        fences.render_page(markdown, lambda p: f"x.md:{markdown.count(chr(10), 0, p) + 1}", EN)
    assert str(failure.value).startswith("x.md:3: ") and problem in str(failure.value)


def test_an_example_inside_a_fence_left_open_stops_the_build():
    markdown = "# Page\n\n```python\nx = 1\n\n```gin\nkind: melds\nhand: ZS\n```\n"
    with pytest.raises(fences.ExampleError) as failure:
        fences.render_page(markdown, lambda p: f"x.md:{markdown.count(chr(10), 0, p) + 1}", EN)
    assert str(failure.value) == (
        "x.md:6: this ```gin is inside the fence '```python' opened on line 3: close that "
        "fence first"
    )


def test_a_gin_fence_shown_inside_another_fence_is_text():
    markdown = (
        "# Page\n\n````markdown\n```gin\nkind: melds\nhand: ZS\n```\n````\n\n~~~\n```gin\n~~~\n"
    )
    assert fences.render_page(markdown, lambda p: "x.md:1", EN) == (markdown, 0)


def test_the_example_replaces_exactly_its_fence():
    catalogs.install_all()
    body = "kind: melds\nhand: 10c jc qc 2h 2d 2s 5h 6h 7h 9d"
    for fence in ("```", "~~~", "````"):
        markdown = f"Before.\n\n{fence}gin\n{body}\n{fence}\n\nAfter.\n"
        text, count = fences.render_page(markdown, lambda p: "x.md:1", EN)
        assert count == 1 and text.startswith('Before.\n\n<section class="gin-example"')
        assert text.endswith("</section>\n\nAfter.\n")


@pytest.mark.parametrize(
    "text, shown",
    [
        ("Gin: {{ standard.gin-bonus }}.", "{{ standard.gin-bonus }}"),
        ("Gin: {{ standard.gin_bonus }.", "{{ standard.gin_bonus }"),
        ("Gin: { standard.gin_bonus }}.", "{ standard.gin_bonus }}"),
        ("Gin: {{standard gin_bonus}}.", "{{standard gin_bonus}}"),
        ("Gin: {{ standard.gin_bonus", "{{ standard.gin_bonus"),
        ("Gin: {{ standard.gin_bonus }} and {{ pagat..x }}", "{{ pagat..x }}"),
    ],
)
def test_a_misspelt_macro_stops_the_build_with_its_line(text, shown):
    """Left as it is, it would be printed on the page: {{ standard.gin-bonus }}."""
    with pytest.raises(BuildError) as failure:
        macros.expand(f"# Page\n\n{text}\n", lambda p: f"docs/en/page.md:{p}", EN)
    position = f"# Page\n\n{text}\n".index(shown)
    assert str(failure.value) == (
        f"docs/en/page.md:{position}: {shown!r} is not a rule number: write one as "
        "{{ preset.field }}, like {{ standard.gin_bonus }}"
    )
    # a page the build generates (a lesson's, whose data may hold "}}") is not checked so
    assert "{" in macros.expand(text, where(), EN, written=False)
