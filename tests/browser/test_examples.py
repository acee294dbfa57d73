"""Live examples in real headless Chromium, in all four languages, on a site built for the tests.

The site (``examples_site`` in conftest.py) has two pages per language: the card kinds (melds,
knock, layoffs, score) on the home page and the scoring kinds (oklahoma, sheet, hollywood) on
``scoring/``. Each check compares the page with CPython: the engine's answer
(``ginrummy.api.call``) and the pre-rendered HTML (``sitegen.examples.result_html``) for the
same state, in the same language.

Pyodide boots in 3-4 s, so the pages are loaded once per language and shared by the tests of
this module, which run in order; each test leaves its examples as it found them (reset).
"""

from __future__ import annotations

import copy
import json
import re
from urllib.parse import unquote, urlsplit

import pytest

from ginrummy import api
from sitegen import catalogs, examples

LANGUAGES = ["en", "ro", "hu", "it"]
TIMEOUT_MS = 30000
SUITS, RANKS = "SHDC", "A23456789TJQK"
ARROWS = {"ArrowRight": 1, "ArrowLeft": -1, "ArrowDown": 13, "ArrowUp": -13}
PAGES = {"index": "", "scoring": "scoring/"}
# kind -> (page, position of its example on the page): the pages of conftest.EXAMPLE_PAGES.
KINDS = {"melds": ("index", 0), "knock": ("index", 1), "layoffs": ("index", 2),
         "score": ("index", 3), "oklahoma": ("scoring", 0), "sheet": ("scoring", 1),
         "hollywood": ("scoring", 2)}
COUNTS = {"index": 4, "scoring": 3}

# A template's innerHTML serialises both sides the same way (attribute quoting, entities).
NORMALISE = """(html) => { const t = document.createElement("template"); t.innerHTML = html;
                           return t.innerHTML; }"""
SETTLED = """() => [...document.querySelectorAll(".gin-example")].every(
                 (n) => "ginReady" in n.dataset || "ginFailed" in n.dataset)"""


def page_url(base: str, lang: str, page: str) -> str:
    return base + ("" if lang == "en" else f"{lang}/") + PAGES[page]


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def catalog(lang):
    return catalogs.load(lang)


def cpython(example: dict) -> dict:
    return api.call(examples.request(example))


def error_text(error: dict, lang: str) -> str:
    """The catalog's sentence for an engine error, filled as render.js fills it."""
    cat = catalog(lang)
    params = {}
    for name, value in (error.get("params") or {}).items():
        if isinstance(value, list):
            params[name] = cat.text("list.or").join(str(v) for v in value)
        else:
            params[name] = "" if value is None else value
    return cat.text(f"error.{error['code']}", **params)


def wait_answer(page, index: int, before: str | None):
    """Wait for the example's next answer (data-gin-answered counts them)."""
    page.wait_for_function(
        """([i, before]) => {
            const n = document.querySelectorAll(".gin-example")[i];
            return n.dataset.ginAnswered !== undefined && n.dataset.ginAnswered !== (before ?? undefined);
        }""", arg=[index, before], timeout=TIMEOUT_MS)


def point_at_an_example(page):
    """The reader points at the first example: that boots the engine (gin.js)."""
    page.locator(".gin-example").first.hover()


def wait_for_page(page, first_kind: str):
    """After an instant navigation: the new page's examples are there and settled."""
    page.wait_for_function(
        """(kind) => document.querySelector(".gin-example")?.dataset.ginKind === kind
                     && [...document.querySelectorAll(".gin-example")].every(
                            (n) => "ginReady" in n.dataset || "ginFailed" in n.dataset)""",
        arg=first_kind, timeout=TIMEOUT_MS)


class Log:
    """What a shared page did: its requests, console errors and uncaught errors."""

    def __init__(self):
        self.requests, self.console_errors, self.page_errors = [], [], []

    def off_origin(self, origin: str) -> list[str]:
        return [url for url in self.requests
                if not (url.startswith(origin + "/") or url.startswith(("data:", "blob:")))]


class Live:
    """One loaded page and what it logged."""

    def __init__(self, page, log, url):
        self.page, self.log, self.url = page, log, url
        self.page.goto(url)
        # The pre-rendered results, read before the engine can change anything.
        self.prerendered = page.eval_on_selector_all(
            ".gin-example .gin-output", "(nodes) => nodes.map((n) => n.innerHTML)")
        point_at_an_example(page)
        self.settle()

    def settle(self):
        self.page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)

    def example(self, index: int):
        return self.page.locator(".gin-example").nth(index)

    def original(self, index: int) -> dict:
        return json.loads(self.example(index).get_attribute("data-gin"))

    def normalise(self, html: str) -> str:
        return self.page.evaluate(NORMALISE, html)

    def output(self, index: int) -> str:
        return self.normalise(self.example(index).locator(".gin-output").inner_html())

    def answered(self, index: int) -> str | None:
        return self.example(index).get_attribute("data-gin-answered")

    def wait_answer(self, index: int, before: str | None):
        wait_answer(self.page, index, before)

    def wait_error(self, index: int, text: str):
        """Wait until the example shows this error (each error of a test differs from the last)."""
        self.page.wait_for_function(
            """([i, text]) => document.querySelectorAll(".gin-example")[i]
                 .querySelector(".gin-status.gin-error")?.textContent === text""",
            arg=[index, text], timeout=TIMEOUT_MS)

    def shown_cards(self, index: int) -> dict:
        """field -> cards shown on the example's buttons (melds: a list)."""
        return self.example(index).evaluate(
            """(node) => {
                const out = {};
                for (const b of node.querySelectorAll(".gin-inputs button[data-field]")) {
                    const f = b.dataset.field;
                    if (f === "knocker_melds") {
                        out[f] = out[f] || [];
                        const m = Number(b.dataset.meld);
                        out[f][m] = out[f][m] ? out[f][m] + " " + b.dataset.card : b.dataset.card;
                    } else out[f] = out[f] ? out[f] + " " + b.dataset.card : b.dataset.card;
                }
                return out;
            }""")

    def status(self, index: int) -> str:
        return self.example(index).locator(".gin-status").inner_text()

    def reset(self, index: int):
        """Back to the worked example (the reset button, by keyboard)."""
        before = self.answered(index)
        self.example(index).locator(".gin-reset").focus()
        self.page.keyboard.press("Enter")
        self.wait_answer(index, before)


@pytest.fixture(scope="module")
def live(browser, example_server):
    """live(lang, page) -> Live: the page loaded once, with the engine ready, shared."""
    loaded = {}

    def get(lang: str, page: str) -> Live:
        if (lang, page) not in loaded:
            context = browser.new_context(viewport={"width": 1100, "height": 900})
            log = Log()
            context.on("request", lambda req: log.requests.append(req.url))
            context.on("console", lambda msg: msg.type == "error" and log.console_errors.append(
                f"{msg.text} [{(msg.location or {}).get('url')}]"))
            tab = context.new_page()
            tab.on("pageerror", lambda err: log.page_errors.append(str(err)))
            loaded[(lang, page)] = Live(tab, log, page_url(example_server, lang, page))
        return loaded[(lang, page)]

    yield get
    for item in loaded.values():
        item.page.context.close()


def expected_html(example: dict, result: dict, lang: str) -> str:
    return examples.result_html(example, result, catalog(lang))


def card_edit(example: dict, shown: dict) -> tuple:
    """A card to change and the arrow key that gives a valid, different example:
    (field, meld, position, arrow, new example, engine result)."""
    before = cpython(example)["result"]
    for field, value in shown.items():
        melds = value if isinstance(value, list) else [value]
        for m, meld in enumerate(melds):
            for position, card in enumerate(meld.split()):
                for arrow, step in ARROWS.items():
                    at = SUITS.index(card[1]) * 13 + RANKS.index(card[0])
                    new = RANKS[((at + step) % 52) % 13] + SUITS[((at + step) % 52) // 13]
                    cards = meld.split()
                    cards[position] = new
                    changed = copy.deepcopy(example)
                    if field == "knocker_melds":
                        changed[field][m] = " ".join(cards)
                    else:
                        changed[field] = " ".join(cards)
                    response = cpython(changed)
                    if response["ok"] and response["result"] != before:
                        return (field, m if field == "knocker_melds" else -1, position, arrow,
                                changed, response["result"])
    raise AssertionError(f"no valid one-card edit of {example}")


# --- the two renderers agree -----------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", list(PAGES))
def test_js_renderer_reproduces_the_prerendered_output(live, lang, page):
    """Before any edit: the engine in the worker + render.js give exactly the pre-rendered HTML,
    which is CPython's result_html for the page's example."""
    site = live(lang, page)
    count = site.page.locator(".gin-example").count()
    assert count == COUNTS[page]
    assert [site.original(i)["kind"] for i in range(count)] == [
        kind for kind, (name, _) in sorted(KINDS.items(), key=lambda k: k[1]) if name == page]
    for i in range(count):
        example = site.original(i)
        assert site.status(i) == catalog(lang).text("ui.ready")
        from_js = site.page.evaluate(
            """async (i) => {
                const node = document.querySelectorAll(".gin-example")[i];
                const base = document.querySelector('script[src*="assets/gin/gin.js"]').src;
                const render = await import(new URL("render.js", base));
                const { requestFor } = await import(new URL("examples.js", base));
                const example = JSON.parse(node.dataset.gin);
                const response = await window.ginEngine.request(requestFor(example));
                return render.resultHtml(example, response.result, await render.loadCatalog());
            }""", i)
        prerendered = site.normalise(site.prerendered[i])
        assert site.normalise(from_js) == prerendered, example["kind"]
        assert prerendered == site.normalise(expected_html(example, cpython(example)["result"], lang))
        assert site.output(i) == prerendered  # nothing changed it on mount
        # The rules line, re-rendered from the engine's presets, says what the build said, with
        # the preset's name now a select.
        if example["kind"] in examples.RULE_NUMBERS:
            node = site.example(i)
            assert node.locator(".gin-rules-select").input_value() == example.get("rules", "standard")
            live_line = node.locator(".gin-rules").evaluate(
                """(p) => { const copy = p.cloneNode(true);
                            copy.querySelector(".gin-rules-name").remove(); return copy.innerHTML; }""")
            built = re.sub(r'^<p class="gin-rules"><span class="gin-rules-name">.*?</span>(.*)</p>$',
                           r"\1", examples.rules_html(example, catalog(lang)))
            assert site.normalise(live_line) == site.normalise(built), example["kind"]


# --- each kind, edited with the keyboard alone -----------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", list(KINDS))
def test_keyboard_edit_gets_the_cpython_result(live, lang, kind):
    page_name, index = KINDS[kind]
    site = live(lang, page_name)
    page = site.page
    example = site.original(index)
    assert example["kind"] == kind
    node = site.example(index)
    before = site.answered(index)

    if kind in ("sheet", "hollywood"):
        # A new hand for B, 31 points: winner select, points field, "Add hand", all by keyboard.
        node.locator(".gin-entry-winner").focus()
        page.keyboard.press("ArrowDown")
        assert node.locator(".gin-entry-winner").input_value() == "1"
        page.keyboard.press("Tab")
        page.keyboard.press("Control+A")
        page.keyboard.type("31")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.classList.contains('gin-add')")
        page.keyboard.press("Enter")
        changed = {**example, "entries": [*example["entries"], {"winner": 1, "points": 31}]}
        response = cpython(changed)
        assert response["ok"], response
        result = response["result"]
    else:
        field, meld, position, arrow, changed, result = card_edit(example, site.shown_cards(index))
        button = node.locator(f'.gin-inputs button[data-field="{field}"][data-meld="{meld}"]'
                              f'[data-position="{position}"]')
        button.focus()
        page.keyboard.press("Enter")
        picker = node.locator(".gin-picker")
        assert picker.is_visible()
        assert page.evaluate("document.activeElement.dataset.pick") == button.get_attribute(
            "data-card")
        page.keyboard.press(arrow)
        page.keyboard.press("Enter")

    site.wait_answer(index, before)
    assert site.status(index) == catalog(lang).text("ui.ready")
    if kind not in ("sheet", "hollywood"):
        assert node.locator(".gin-picker").count() == 0
        shown = site.shown_cards(index)
        for name in shown:
            assert shown[name] == changed[name], name
        # The focus is back on the card that was changed.
        assert page.evaluate("document.activeElement.dataset.position") == str(position)
    # The numbers and the verdict shown are CPython's...
    text = node.locator(".gin-output").inner_text()
    for number in _numbers(kind, result):
        assert re.search(rf"(?<!\d){number}(?!\d)", text), (number, text)
    # ...and so is the whole rendering, in this language.
    assert site.output(index) == site.normalise(expected_html(changed, result, lang))
    # The state is in the URL fragment.
    fragment = unquote(urlsplit(page.url).fragment)
    assert fragment.startswith(f"gin-{index + 1}="), page.url
    shared = json.loads(fragment.split("=", 1)[1])
    assert {"kind": kind, **shared} == changed
    site.reset(index)
    assert site.output(index) == site.normalise(site.prerendered[index])


def _numbers(kind: str, result: dict) -> list:
    if kind in ("melds", "knock", "layoffs"):
        return [result["points"]]
    if kind in ("score", "oklahoma"):
        return [result["points"], result["knocker_points"], result["defender_points"]]
    if "columns" in result:
        return [t for column in result["columns"] for t in column["totals"]]
    return result["totals"]


# --- rules presets ---------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_select_switches_the_preset(live, lang):
    """The undercut bonus is 25 in the standard rules and 10 under pagat."""
    page_name, index = KINDS["score"]
    site = live(lang, page_name)
    node = site.example(index)
    example = site.original(index)
    standard = cpython(example)["result"]
    assert standard["outcome"] == "undercut" and standard["rules"]["undercut_bonus"] == 25
    rules_line = node.locator(".gin-rules").inner_text()
    assert re.search(rf"{re.escape(catalog(lang).text('rule.undercut_bonus'))}: 25", rules_line)

    before = site.answered(index)
    node.locator(".gin-rules-select").select_option("pagat")
    site.wait_answer(index, before)
    changed = {**example, "rules": "pagat"}
    pagat = cpython(changed)["result"]
    assert pagat["rules"]["undercut_bonus"] == 10 and pagat["points"] == standard["points"] - 15
    assert site.output(index) == site.normalise(expected_html(changed, pagat, lang))
    assert str(pagat["points"]) in node.locator(".gin-headline").inner_text()
    rules_line = node.locator(".gin-rules").inner_text()
    assert re.search(rf"{re.escape(catalog(lang).text('rule.undercut_bonus'))}: 10", rules_line)
    assert "pagat.com" in rules_line  # the source of the numbers
    site.reset(index)
    assert node.locator(".gin-rules-select").input_value() == "standard"
    assert site.output(index) == site.normalise(site.prerendered[index])


# --- bad input -------------------------------------------------------------------------------

BAD_HANDS = {
    "impossible card": "7X 2S 3S 7H 7D 7C 9C TC JC KD",
    "duplicate": "AS AS 3S 7H 7D 7C 9C TC JC KD",
    "too many cards": "AS 2S 3S 7H 7D 7C 9C TC JC KD 5H 6H",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bad_input_gets_a_localized_inline_error(live, lang):
    page_name, index = KINDS["melds"]
    site = live(lang, page_name)
    page, node = site.page, site.example(index)
    example = site.original(index)
    cards_before, output_before = site.shown_cards(index), site.output(index)
    summary = node.locator("details.gin-type summary")
    summary.focus()
    page.keyboard.press("Enter")  # open the disclosure, by keyboard
    field = node.locator('.gin-text[data-field="hand"]')
    assert field.is_visible()
    for problem, hand in BAD_HANDS.items():
        response = cpython({**example, "hand": hand})
        assert not response["ok"], problem
        field.fill(hand)
        field.press("Enter")
        site.wait_error(index, error_text(response["error"], lang))
        # The previous state is kept: the same cards and the same result.
        assert site.shown_cards(index) == cards_before, problem
        assert site.output(index) == output_before, problem
        assert field.input_value() == hand, "the reader's text is kept, to correct it"
    # A picked duplicate gets the error too.
    button = node.locator('.gin-inputs button[data-field="hand"][data-position="1"]')
    button.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowLeft")  # 2S -> AS, already in the hand
    page.keyboard.press("Enter")
    site.wait_error(index, error_text({"code": "duplicate_card", "params": {"token": "AS"}}, lang))
    assert site.shown_cards(index) == cards_before
    assert site.output(index) == output_before
    # And a good hand typed afterwards clears the error.
    before = site.answered(index)
    good = "AS 2S 3S 7H 7D 7C 9C TC JC QD"
    field.fill(good)
    field.press("Enter")
    site.wait_answer(index, before)
    assert "gin-error" not in (node.locator(".gin-status").get_attribute("class") or "")
    changed = {**example, "hand": good}
    assert site.output(index) == site.normalise(expected_html(changed, cpython(changed)["result"], lang))
    site.reset(index)
    assert field.input_value() == example["hand"]


# --- undo, reset and the shared link ---------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_undo_reset_and_the_shared_link(live, browser, lang):
    page_name, index = KINDS["knock"]
    site = live(lang, page_name)
    page, node = site.page, site.example(index)
    example = site.original(index)
    field = node.locator('.gin-text[data-field="hand"]')
    node.locator("details.gin-type").evaluate("(d) => d.open = true")
    states = [example, {**example, "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D QH"},
              {**example, "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D 6D"}]
    outputs = [site.output(index)]
    for state in states[1:]:
        before = site.answered(index)
        field.fill(state["hand"])
        field.press("Enter")
        site.wait_answer(index, before)
        outputs.append(site.output(index))
        assert outputs[-1] == site.normalise(
            expected_html(state, cpython(state)["result"], lang))
    # A second example changed too: the link shares both.
    melds_index = KINDS["melds"][1]
    melds = site.example(melds_index)
    melds.locator("details.gin-type").evaluate("(d) => d.open = true")
    melds_state = {**site.original(melds_index), "hand": "AS 2S 3S 7H 7D 7C 9C TC JC QD"}
    before = site.answered(melds_index)
    melds.locator('.gin-text[data-field="hand"]').fill(melds_state["hand"])
    melds.locator('.gin-text[data-field="hand"]').press("Enter")
    site.wait_answer(melds_index, before)
    melds_output = site.output(melds_index)
    shared_url = page.url
    parts = unquote(urlsplit(shared_url).fragment).split("&")
    assert [p.split("=", 1)[0] for p in parts] == [f"gin-{melds_index + 1}", f"gin-{index + 1}"]

    before = site.answered(index)
    node.locator(".gin-undo").click()
    site.wait_answer(index, before)
    assert site.output(index) == outputs[1]
    assert site.shown_cards(index)["hand"] == states[1]["hand"]

    site.reset(index)
    assert site.output(index) == outputs[0] == site.normalise(site.prerendered[index])
    assert site.shown_cards(index)["hand"] == example["hand"]
    assert unquote(urlsplit(page.url).fragment).startswith(f"gin-{melds_index + 1}=")
    assert f"gin-{index + 1}=" not in unquote(page.url), "the worked example needs no fragment"
    site.reset(melds_index)
    assert not urlsplit(page.url).fragment

    # The shared link, opened in a fresh browser context, shows the shared state.
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        other = context.new_page()
        other.goto(shared_url)
        other.wait_for_function(
            """(i) => document.querySelectorAll(".gin-example")[i].dataset.ginAnswered""", arg=index,
            timeout=TIMEOUT_MS)
        assert other.evaluate(
            NORMALISE, other.locator(".gin-example").nth(index).locator(".gin-output").inner_html()
        ) == outputs[2]
        other.wait_for_function(
            """(i) => document.querySelectorAll(".gin-example")[i].dataset.ginAnswered""",
            arg=melds_index, timeout=TIMEOUT_MS)
        assert other.evaluate(NORMALISE, other.locator(".gin-example").nth(melds_index).locator(
            ".gin-output").inner_html()) == melds_output
        hand = other.locator(".gin-example").nth(index).locator(
            ".gin-inputs button[data-field]").evaluate_all("(bs) => bs.map((b) => b.dataset.card)")
        assert " ".join(hand) == states[2]["hand"]
    finally:
        context.close()


# --- nothing leaves the origin, nothing is logged as an error ---------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_request_leaves_the_origin_and_no_console_errors(live, lang, example_server):
    for page_name in PAGES:
        site = live(lang, page_name)
        origin = origin_of(site.url)
        assert site.log.requests, "no requests were recorded"
        assert any(u.endswith("/engine.snapshot") for u in site.log.requests)
        assert not site.log.off_origin(origin), site.log.off_origin(origin)
        assert not site.log.page_errors, site.log.page_errors
        assert not site.log.console_errors, site.log.console_errors


# --- instant navigation ----------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_instant_navigation_keeps_examples_working(new_page, example_server, lang):
    page, log = new_page()
    home = page_url(example_server, lang, "index")
    page.goto(home)
    point_at_an_example(page)
    page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    page.evaluate("window.__sameDocument = true")

    # To the scoring page by the link in the text, then edit a sheet there.
    page.locator("article p a").first.click()
    page.wait_for_url(lambda url: urlsplit(url).path.endswith("/scoring/"))
    wait_for_page(page, "oklahoma")
    assert page.evaluate("window.__sameDocument") is True, "instant navigation is not on"
    _add_hand_and_check(page, lang, KINDS["sheet"][1])

    # Back to the home page by its link, and through the history: mounted once, still live.
    page.locator("article p a").first.click()
    page.wait_for_url(lambda url: urlsplit(url).path == urlsplit(home).path)
    wait_for_page(page, "melds")
    assert page.evaluate("window.__sameDocument") is True
    page.go_back()
    page.wait_for_url(lambda url: urlsplit(url).path.endswith("/scoring/"))
    wait_for_page(page, "oklahoma")
    page.go_forward()
    page.wait_for_url(lambda url: urlsplit(url).path == urlsplit(home).path)
    wait_for_page(page, "melds")
    assert page.evaluate("window.__sameDocument") is True
    for node in page.locator(".gin-example").all():
        assert node.locator(".gin-controls").count() == 1
        assert node.locator(".gin-status").count() == 1
        assert node.locator("details.gin-type").count() == 1
    index = KINDS["melds"][1]
    node = page.locator(".gin-example").nth(index)
    before = node.get_attribute("data-gin-answered")
    node.locator('.gin-inputs button[data-field="hand"][data-position="9"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowLeft")  # KD -> QD
    page.keyboard.press("Enter")
    wait_answer(page, index, before)
    example = {**json.loads(node.get_attribute("data-gin")), "hand": "AS 2S 3S 7H 7D 7C 9C TC JC QD"}
    assert page.evaluate(NORMALISE, node.locator(".gin-output").inner_html()) == page.evaluate(
        NORMALISE, expected_html(example, cpython(example)["result"], lang))
    assert page.evaluate("window.__sameDocument") is True
    assert len([w for w in page.workers if w.url.endswith("/assets/gin/worker.js")]) == 1

    origin = origin_of(home)
    assert not log.off_origin(origin), log.off_origin(origin)
    assert not log.page_errors, log.page_errors
    assert not log.console_errors, log.console_errors


def _add_hand_and_check(page, lang, index):
    node = page.locator(".gin-example").nth(index)
    example = json.loads(node.get_attribute("data-gin"))
    before = node.get_attribute("data-gin-answered")
    node.locator(".gin-entry-points").focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("12")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    wait_answer(page, index, before)
    changed = {**example, "entries": [*example["entries"], {"winner": 0, "points": 12}]}
    assert page.evaluate(NORMALISE, node.locator(".gin-output").inner_html()) == page.evaluate(
        NORMALISE, expected_html(changed, cpython(changed)["result"], lang))


# --- without WebAssembly ---------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_blocked_wasm_keeps_the_prerendered_result(new_page, example_server, lang):
    page, log = new_page()
    page.context.route(re.compile(r".*\.wasm(\?.*)?$"), lambda route: route.abort())
    page.goto(page_url(example_server, lang, "index"))
    point_at_an_example(page)
    page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    failed = catalog(lang).text("ui.failed")
    nodes = page.locator(".gin-example").all()
    assert len(nodes) == COUNTS["index"]
    for node in nodes:
        assert node.get_attribute("data-gin-failed") is not None
        assert node.locator(".gin-status").inner_text() == failed
        example = json.loads(node.get_attribute("data-gin"))
        # The full worked result, as CPython rendered it, and the given cards.
        assert page.evaluate(NORMALISE, node.locator(".gin-output").inner_html()) == page.evaluate(
            NORMALISE, expected_html(example, cpython(example)["result"], lang))
        assert node.locator(".gin-inputs [data-card]").count() > 0
        # Nothing to press that cannot work.
        for control in node.locator(".gin-controls button, .gin-controls select").all():
            assert control.is_disabled()
    assert not log.page_errors, log.page_errors
    ours = [e for e in log.console_errors if not e.startswith("Failed to load resource")]
    assert not ours, ours
