"""Live examples in real headless Chromium, in all four languages, on a site built for the tests.

The site (``examples_site`` in conftest.py) has two pages per language: the card kinds (melds,
knock, layoffs, score) on the home page and the scoring kinds (oklahoma, sheet, hollywood) on
``scoring/``. Everything an example shows is drawn by the presentation layer: the build drew
the page, the worker draws each edit. So each check compares the page with CPython's
``ginview`` for the same state, in the same language.

Pages are loaded once per language and shared by the tests of this module, which run in order;
each test leaves its examples as it found them (back to the original).
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest
from ginview import api as view_api
from ginview.examples import link, read_state, render
from ginview.markup import face

from sitegen import catalogs
from sitegen.languages import languages

LANGUAGES = list(languages())
TIMEOUT_MS = 30000
PAGES = {"index": "", "scoring": "scoring/"}
# kind -> (page, position of its example on the page): the pages of conftest.EXAMPLE_PAGES.
KINDS = {
    "melds": ("index", 0),
    "knock": ("index", 1),
    "layoffs": ("index", 2),
    "score": ("index", 3),
    "oklahoma": ("scoring", 0),
    "sheet": ("scoring", 1),
    "hollywood": ("scoring", 2),
}
COUNTS = {"index": 4, "scoring": 3}

# The markup as the browser serialises it, without what only the live page adds: the roving
# tab stops, material's focus-visible class, an opened disclosure.
NORMALISE = """(html) => { const t = document.createElement("template"); t.innerHTML = html;
    for (const e of t.content.querySelectorAll("*")) {
        e.removeAttribute("tabindex"); e.classList.remove("focus-visible");
        e.removeAttribute("data-focus-visible-added"); e.removeAttribute("data-sent");
        if (e.getAttribute("class") === "") e.removeAttribute("class");
        if (e.tagName === "DETAILS") e.removeAttribute("open"); }
    return t.innerHTML; }"""
SETTLED = """() => [...document.querySelectorAll(".gin-example")].every(
                 (n) => "ginReady" in n.dataset || "ginFailed" in n.dataset)"""


def page_url(base: str, lang: str, page: str) -> str:
    return base + ("" if lang == "en" else f"{lang}/") + PAGES[page]


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def drawn(state: dict, lang: str):
    """What CPython's presentation layer draws for a state: (state, view, link, summary)."""
    catalogs.install_all()
    return render(state, catalogs.load(lang))


def error_message(state: dict, lang: str) -> str:
    """The localized error the worker gives for a state the engine refuses."""
    catalogs.install_all()
    response = view_api.call({"op": "render", "lang": lang, "state": state})
    assert not response["ok"], state
    return response["error"]["message"]


def wait_answer(page, index: int, before: str | None):
    """Wait for the example's next answer (data-gin-answered counts them)."""
    page.wait_for_function(
        """([i, before]) => {
            const n = document.querySelectorAll(".gin-example")[i];
            return n.dataset.ginAnswered !== undefined && n.dataset.ginAnswered !== (before ?? undefined);
        }""",
        arg=[index, before],
        timeout=TIMEOUT_MS,
    )


def point_at_an_example(page):
    """The reader points at the first example: that boots the engine (gin.js)."""
    page.locator(".gin-example").first.hover()


class Log:
    """What a shared page did: its requests, console errors and uncaught errors."""

    def __init__(self):
        self.requests, self.console_errors, self.page_errors = [], [], []

    def off_origin(self, origin: str) -> list[str]:
        return [
            url
            for url in self.requests
            if not (url.startswith(origin + "/") or url.startswith(("data:", "blob:")))
        ]


class Live:
    """One loaded page and what it logged."""

    def __init__(self, page, log, url, lang):
        self.page, self.log, self.url, self.lang = page, log, url, lang
        self.page.goto(url)
        # The pre-drawn views, read before the engine can change anything.
        self.prerendered = page.eval_on_selector_all(
            ".gin-example .gin-view", "(nodes) => nodes.map((n) => n.innerHTML)"
        )
        point_at_an_example(page)
        self.settle()

    def settle(self):
        self.page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)

    def example(self, index: int):
        return self.page.locator(".gin-example").nth(index)

    def state(self, index: int) -> dict:
        return json.loads(self.example(index).get_attribute("data-gin"))

    def normalise(self, html: str) -> str:
        return self.page.evaluate(NORMALISE, html)

    def view(self, index: int) -> str:
        return self.normalise(self.example(index).locator(".gin-view").inner_html())

    def expected_view(self, state: dict) -> str:
        return self.normalise(drawn(state, self.lang).view)

    def answered(self, index: int) -> str | None:
        return self.example(index).get_attribute("data-gin-answered")

    def wait_answer(self, index: int, before: str | None):
        wait_answer(self.page, index, before)

    def wait_status(self, index: int, text: str, error: bool = False):
        self.page.wait_for_function(
            """([i, text, error]) => { const s = document.querySelectorAll(".gin-example")[i]
                 .querySelector(".gin-status");
                 return s.textContent === text && s.classList.contains("gin-error") === error; }""",
            arg=[index, text, error],
            timeout=TIMEOUT_MS,
        )

    def shown_cards(self, index: int) -> dict:
        """field -> cards shown on the example's buttons (melds: a list)."""
        return self.example(index).evaluate(
            """(node) => {
                const out = {};
                for (const b of node.querySelectorAll(".gin-inputs button[data-field]")) {
                    const f = b.dataset.field;
                    if (b.dataset.meld !== undefined) {
                        out[f] = out[f] || [];
                        const m = Number(b.dataset.meld);
                        out[f][m] = out[f][m] ? out[f][m] + " " + b.dataset.card : b.dataset.card;
                    } else out[f] = out[f] ? out[f] + " " + b.dataset.card : b.dataset.card;
                }
                return out;
            }"""
        )

    def status(self, index: int) -> str:
        return self.example(index).locator(".gin-status").inner_text()

    def fragment(self) -> str:
        return urlsplit(self.page.url).fragment

    def back_to_original(self, index: int):
        """The "back to the original" button, by keyboard: no engine needed."""
        node = self.example(index)
        if node.locator(".gin-changed").is_hidden():
            return
        node.locator(".gin-reset").focus()
        self.page.keyboard.press("Enter")
        assert node.locator(".gin-changed").is_hidden()
        assert self.view(index) == self.normalise(self.prerendered[index])


@pytest.fixture(scope="module")
def live(browser, example_server):
    """live(lang, page) -> Live: the page loaded once, with the engine ready, shared."""
    loaded = {}

    def get(lang: str, page: str) -> Live:
        if (lang, page) not in loaded:
            context = browser.new_context(viewport={"width": 1100, "height": 900})
            log = Log()
            context.on("request", lambda req: log.requests.append(req.url))
            context.on(
                "console",
                lambda msg: (
                    msg.type == "error"
                    and log.console_errors.append(f"{msg.text} [{(msg.location or {}).get('url')}]")
                ),
            )
            tab = context.new_page()
            tab.on("pageerror", lambda err: log.page_errors.append(str(err)))
            loaded[(lang, page)] = Live(tab, log, page_url(example_server, lang, page), lang)
        return loaded[(lang, page)]

    yield get
    for item in loaded.values():
        item.page.context.close()


# --- the pre-drawn page is the presentation layer's -------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", list(PAGES))
def test_the_page_holds_cpythons_drawing_and_goes_live(live, lang, page):
    site = live(lang, page)
    count = site.page.locator(".gin-example").count()
    assert count == COUNTS[page]
    for i in range(count):
        state = site.state(i)
        expected = drawn(state, lang)
        assert state == expected.state  # the page holds the canonical state
        assert site.normalise(site.prerendered[i]) == site.normalise(expected.view)
        assert site.view(i) == site.normalise(expected.view)  # mounting changed nothing drawn
        node = site.example(i)
        assert site.status(i) == node.get_attribute("data-gin-ready-text")
        assert node.get_attribute("data-gin-link") == expected.link
        assert node.locator(".gin-undo").is_disabled()
        assert node.locator(".gin-changed").is_hidden()
        assert node.locator(".gin-tools").is_visible()
    # Each kind says what the reader can do with it.
    texts = {site.example(i).get_attribute("data-gin-ready-text") for i in range(count)}
    cat = catalogs.load(lang)
    assert texts == (
        {cat.text("ui.ready_cards")}
        if page == "index"
        else {cat.text("ui.ready_cards"), cat.text("ui.ready_sheet")}
    )


# --- each card kind, edited with the keyboard alone, through the picker ------------------------


def one_card_change(site: Live, index: int):
    """A card of the example and the arrow key that gives a valid, different example
    (checked with CPython): (button selector, arrow, the new state)."""
    state = site.state(index)
    before = drawn(state, site.lang)
    for field, value in site.shown_cards(index).items():
        melds = value if isinstance(value, list) else [value]
        for m, meld in enumerate(melds):
            for position, card in enumerate(meld.split()):
                for arrow, step in {"ArrowRight": 1, "ArrowLeft": -1}.items():
                    # The picker's cells run AS..KS, AH..KH, AD..KD, AC..KC, and wrap around.
                    at = ("SHDC".index(card[1]) * 13 + "A23456789TJQK".index(card[0]) + step) % 52
                    new = "A23456789TJQK"[at % 13] + "SHDC"[at // 13]
                    if new in " ".join(
                        c
                        for v in site.shown_cards(index).values()
                        for c in (v if isinstance(v, list) else [v])
                    ):
                        continue  # a swap: tested on its own
                    changed = json.loads(json.dumps(state))
                    cards = meld.split()
                    cards[position] = new
                    if isinstance(value, list):
                        changed[field][m] = " ".join(cards)
                    else:
                        changed[field] = " ".join(cards)
                    catalogs.install_all()
                    response = view_api.call({"op": "render", "lang": site.lang, "state": changed})
                    if response["ok"] and response["result"]["view"] != before.view:
                        meld_attr = f'[data-meld="{m}"]' if isinstance(value, list) else ""
                        selector = (
                            f'.gin-inputs button[data-field="{field}"]{meld_attr}'
                            f'[data-index="{position}"]'
                        )
                        return selector, arrow, changed
    raise AssertionError(f"no valid one-card change of {state}")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", ["melds", "knock", "layoffs", "score", "oklahoma"])
def test_a_card_changed_by_keyboard_is_drawn_as_cpython_draws_it(live, lang, kind):
    page_name, index = KINDS[kind]
    site = live(lang, page_name)
    page, node = site.page, site.example(index)
    selector, arrow, changed = one_card_change(site, index)
    button = node.locator(selector)
    caption = button.get_attribute("data-caption")
    button.focus()
    before = site.answered(index)
    page.keyboard.press("Enter")
    picker = node.locator(".gin-picker")
    assert picker.is_visible()
    assert node.locator(".gin-picker-caption").inner_text() == caption
    assert face(button.get_attribute("data-card")) in caption
    # The picker starts on the card being replaced, and marks the example's other cards.
    assert page.evaluate("document.activeElement.dataset.pick") == button.get_attribute("data-card")
    taken = node.locator(".gin-picker .gin-taken").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.pick)"
    )
    shown = site.shown_cards(index)
    assert sorted(taken) == sorted(
        " ".join(" ".join(v) if isinstance(v, list) else v for v in shown.values()).split()
    )
    page.keyboard.press(arrow)
    page.keyboard.press("Enter")
    site.wait_answer(index, before)

    expected = drawn(changed, lang)
    assert node.locator(".gin-picker").count() == 0
    assert site.view(index) == site.normalise(expected.view)
    assert site.state(index) == expected.state
    assert site.status(index) == expected.summary
    # The focus is back on the card that was changed, and it holds its hand's tab stop.
    assert page.evaluate("document.activeElement.dataset.index") == button.get_attribute(
        "data-index"
    )
    assert page.evaluate("document.activeElement.tabIndex") == 0
    # The state is in the URL fragment, short and readable.
    assert site.fragment() == f"gin-{index + 1}={expected.link}"
    assert node.locator(".gin-changed").is_visible()
    assert not node.locator(".gin-undo").is_disabled()
    node.locator(".gin-undo").click()  # undo needs no engine: the view comes back at once
    assert site.view(index) == site.normalise(site.prerendered[index])
    assert node.locator(".gin-undo").is_disabled()
    assert node.locator(".gin-changed").is_hidden()
    assert site.fragment() == ""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_picking_a_card_already_in_the_example_swaps_the_two(live, lang):
    page_name, index = KINDS["score"]
    site = live(lang, page_name)
    node = site.example(index)
    state = site.state(index)
    knocker, defender = state["knocker"].split(), state["defender"].split()
    i, j = next((i, j) for i in range(10) for j in range(10) if _swap_is_legal(state, i, j, lang))
    node.locator(f'.gin-inputs button[data-field="knocker"][data-index="{i}"]').click()
    before = site.answered(index)
    node.locator(f'.gin-picker [data-pick="{defender[j]}"]').click()
    site.wait_answer(index, before)
    knocker[i], defender[j] = defender[j], knocker[i]
    swapped = {**state, "knocker": " ".join(knocker), "defender": " ".join(defender)}
    assert site.state(index) == drawn(swapped, lang).state
    assert site.view(index) == site.normalise(drawn(swapped, lang).view)
    assert node.locator(".gin-status").get_attribute("class") == "gin-status"  # no error
    site.back_to_original(index)
    assert site.state(index) == state


def _swap_is_legal(state: dict, i: int, j: int, lang: str) -> bool:
    knocker, defender = state["knocker"].split(), state["defender"].split()
    knocker[i], defender[j] = defender[j], knocker[i]
    changed = {**state, "knocker": " ".join(knocker), "defender": " ".join(defender)}
    return view_api.call({"op": "render", "lang": lang, "state": changed})["ok"]


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_picker_closes_on_escape_tab_and_a_click_outside(live, lang):
    site = live(lang, "index")
    page, node = site.page, site.example(KINDS["melds"][1])
    card = node.locator('.gin-inputs button[data-field="hand"][data-index="2"]')
    for close in ("Escape", "Tab", "click"):
        card.focus()
        page.keyboard.press("Enter")
        assert node.locator(".gin-picker").is_visible(), close
        if close == "click":
            page.locator("article h1").click()
            assert node.locator(".gin-picker").count() == 0
        else:
            page.keyboard.press(close)
            assert node.locator(".gin-picker").count() == 0, close
            # Back on the card it was opened from.
            assert page.evaluate("document.activeElement.dataset.index") == "2", close
    assert site.view(KINDS["melds"][1]) == site.normalise(site.prerendered[KINDS["melds"][1]])


def test_one_tab_stop_per_hand_and_arrows_inside_it(live):
    site = live("en", "index")
    page, node = site.page, site.example(KINDS["score"][1])
    first = node.locator('.gin-inputs button[data-field="knocker"][data-index="0"]')
    first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.index") == "2"
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.dataset.index") == "9"
    page.keyboard.press("Tab")  # the next hand, not the next card
    assert page.evaluate(
        "[document.activeElement.dataset.field, document.activeElement.dataset.index]"
    ) == ["defender", "0"]
    page.keyboard.press("Shift+Tab")  # back to the knocker's hand, on the card last focused
    assert page.evaluate(
        "[document.activeElement.dataset.field, document.activeElement.dataset.index]"
    ) == ["knocker", "9"]
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # past the two hands: the rules select
    assert page.evaluate("document.activeElement.classList.contains('gin-rules-select')")
    stops = node.evaluate(
        "(n) => [...n.querySelectorAll('.gin-inputs button')].filter((b) => b.tabIndex === 0).length"
    )
    assert stops == 2


# --- score sheets: add, change and remove hands ----------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", ["sheet", "hollywood"])
def test_a_sheet_is_edited_by_keyboard(live, lang, kind):
    page_name, index = KINDS[kind]
    site = live(lang, page_name)
    page, node = site.page, site.example(index)
    state = site.state(index)

    def step(action, expected_entries):
        before = site.answered(index)
        action()
        site.wait_answer(index, before)
        expected = drawn({**state, "entries": expected_entries}, lang)
        assert site.view(index) == site.normalise(expected.view)
        assert site.status(index) == expected.summary
        assert site.fragment() == f"gin-{index + 1}={expected.link}"

    def add():  # a hand won by B, 31 points: winner, points, "Add hand", by keyboard
        node.locator(".gin-add-winner").focus()
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Tab")
        page.keyboard.press("Control+A")
        page.keyboard.type("31")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.classList.contains('gin-add-hand')")
        page.keyboard.press("Enter")

    entries = state["entries"]
    step(add, [*entries, {"winner": 1, "points": 31}])

    def change_points():  # hand 2 scores 20 instead
        field = node.locator('.gin-entries input[data-entry="1"]')
        field.focus()
        page.keyboard.press("Control+A")
        page.keyboard.type("20")
        page.keyboard.press("Tab")

    step(
        change_points,
        [entries[0], {**entries[1], "points": 20}, *entries[2:], {"winner": 1, "points": 31}],
    )

    def remove_first():
        node.locator('.gin-remove[data-entry="0"]').focus()
        page.keyboard.press("Enter")

    step(remove_first, [{**entries[1], "points": 20}, *entries[2:], {"winner": 1, "points": 31}])
    site.back_to_original(index)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_finished_game_cannot_take_another_hand_until_one_is_changed(live, lang):
    page_name, index = KINDS["sheet"]
    site = live(lang, page_name)
    node = site.example(index)
    state = site.state(index)
    points = node.locator('.gin-entries input[data-entry="2"]')
    before = site.answered(index)
    points.fill("90")
    points.press("Tab")
    site.wait_answer(index, before)
    cat = catalogs.load(lang)
    assert node.locator(".gin-add-hand").is_disabled()
    assert node.locator(".gin-note").inner_text() == cat.text("ui.game_over_edit")
    # Editing a hand back makes room again.
    before = site.answered(index)
    points.fill("40")
    points.press("Tab")
    site.wait_answer(index, before)
    assert not node.locator(".gin-add-hand").is_disabled()
    assert site.state(index) == state
    site.back_to_original(index)


# --- canonical input -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_typed_cards_in_any_notation_are_made_canonical(live, lang):
    page_name, index = KINDS["melds"]
    site = live(lang, page_name)
    node = site.example(index)
    node.locator("details.gin-type").evaluate("(d) => d.open = true")
    field = node.locator('.gin-text[data-field="hand"]')
    before = site.answered(index)
    field.fill("10h, a♠ 2♠ 3s 7H 7d 7C 9c tc JC")
    field.press("Enter")
    site.wait_answer(index, before)
    canonical = "TH AS 2S 3S 7H 7D 7C 9C TC JC"
    assert site.state(index)["hand"] == canonical
    assert site.shown_cards(index)["hand"] == canonical
    faces = node.locator(".gin-inputs button[data-field] [aria-hidden]").evaluate_all(
        "(ss) => ss.map((s) => s.textContent)"
    )
    assert faces[:3] == ["10♥", "A♠", "2♠"]
    assert field.input_value() == canonical  # the field shows the canonical text too
    assert site.view(index) == site.normalise(
        drawn({"kind": "melds", "hand": canonical}, lang).view
    )
    site.back_to_original(index)


# --- rules presets -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_select_switches_the_preset(live, lang):
    """The undercut bonus is 25 in the standard rules and 10 under pagat."""
    page_name, index = KINDS["score"]
    site = live(lang, page_name)
    node = site.example(index)
    state = site.state(index)
    cat = catalogs.load(lang)
    assert re.search(
        rf"{re.escape(cat.text('rule.undercut_bonus'))}: 25",
        node.locator(".gin-rules").inner_text(),
    )
    before = site.answered(index)
    node.locator(".gin-rules-select").select_option("pagat")
    site.wait_answer(index, before)
    pagat = drawn({**state, "rules": "pagat"}, lang)
    assert pagat.result["rules"]["undercut_bonus"] == 10
    assert site.view(index) == site.normalise(pagat.view)
    line = node.locator(".gin-rules").inner_text()
    assert re.search(rf"{re.escape(cat.text('rule.undercut_bonus'))}: 10", line)
    assert "pagat.com" in line  # the source of the numbers
    assert node.locator(".gin-rules-select").input_value() == "pagat"
    site.back_to_original(index)
    assert node.locator(".gin-rules-select").input_value() == "standard"


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
    state = site.state(index)
    cards_before, view_before = site.shown_cards(index), site.view(index)
    if node.locator("details.gin-type").get_attribute("open") is None:
        node.locator("details.gin-type summary").focus()
        page.keyboard.press("Enter")  # open the disclosure, by keyboard
    field = node.locator('.gin-text[data-field="hand"]')
    assert field.is_visible()
    for problem, hand in BAD_HANDS.items():
        message = error_message({**state, "hand": hand}, lang)
        field.fill(hand)
        field.press("Enter")
        site.wait_status(index, message, error=True)
        # The previous state is kept: the same cards and the same result.
        assert site.shown_cards(index) == cards_before, problem
        assert site.view(index) == view_before, problem
        assert field.input_value() == hand, "the reader's text is kept, to correct it"
    # Cards are named as a reader writes them.
    assert "A♠" in error_message({**state, "hand": BAD_HANDS["duplicate"]}, lang)
    # A good hand typed afterwards clears the error.
    before = site.answered(index)
    good = "AS 2S 3S 7H 7D 7C 9C TC JC QD"
    field.fill(good)
    field.press("Enter")
    site.wait_answer(index, before)
    assert "gin-error" not in (node.locator(".gin-status").get_attribute("class") or "")
    assert site.view(index) == site.normalise(drawn({**state, "hand": good}, lang).view)
    site.back_to_original(index)
    assert field.input_value() == state["hand"]


# --- undo, back to the original, the shared link, the language switcher ------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_undo_twice_the_original_and_the_shared_link(live, browser, lang):
    page_name, index = KINDS["knock"]
    site = live(lang, page_name)
    page, node = site.page, site.example(index)
    state = site.state(index)
    node.locator("details.gin-type").evaluate("(d) => d.open = true")
    field = node.locator('.gin-text[data-field="hand"]')
    hands = [state["hand"], "2S 3S 4S 7H 7D 7C 9C TC JC 5D QH", "2S 3S 4S 7H 7D 7C 9C TC JC 5D 6D"]
    views = [site.view(index)]
    for hand in hands[1:]:
        before = site.answered(index)
        field.fill(hand)
        field.press("Enter")
        site.wait_answer(index, before)
        views.append(site.view(index))
        assert views[-1] == site.normalise(drawn({**state, "hand": hand}, lang).view)
    # A second example changed too: the link shares both, in page order.
    melds_index = KINDS["melds"][1]
    melds = site.example(melds_index)
    melds.locator("details.gin-type").evaluate("(d) => d.open = true")
    before = site.answered(melds_index)
    melds.locator('.gin-text[data-field="hand"]').fill("AS 2S 3S 7H 7D 7C 9C TC JC QD")
    melds.locator('.gin-text[data-field="hand"]').press("Enter")
    site.wait_answer(melds_index, before)
    melds_view = site.view(melds_index)
    shared_url = page.url
    parts = site.fragment().split("&")
    assert [p.split("=", 1)[0] for p in parts] == [f"gin-{melds_index + 1}", f"gin-{index + 1}"]
    assert "%" not in site.fragment(), "a share link is readable, not encoded JSON"

    # The language switcher carries the fragment: the same examples in another language.
    other_lang = "it" if lang != "it" else "en"
    link = page.locator(f'.md-select__link[hreflang="{other_lang}"]').get_attribute("href")
    assert urlsplit(link).fragment == site.fragment()

    node.locator(".gin-undo").click()
    assert site.view(index) == views[1]
    node.locator(".gin-undo").click()  # undo twice: back to the original, nothing recorded
    assert site.view(index) == views[0] == site.normalise(site.prerendered[index])
    assert node.locator(".gin-undo").is_disabled()
    assert site.shown_cards(index)["hand"] == state["hand"]
    assert site.fragment().startswith(f"gin-{melds_index + 1}=")
    assert f"gin-{index + 1}=" not in site.fragment(), "the original needs no fragment"
    site.back_to_original(melds_index)
    assert not site.fragment()

    # The shared link, opened in a fresh browser context, shows the shared states.
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        other = context.new_page()
        other.goto(shared_url)
        for i, view in ((index, views[2]), (melds_index, melds_view)):
            other.wait_for_function(
                """(i) => document.querySelectorAll(".gin-example")[i].dataset.ginAnswered""",
                arg=i,
                timeout=TIMEOUT_MS,
            )
            shown = other.locator(".gin-example").nth(i).locator(".gin-view").inner_html()
            assert other.evaluate(NORMALISE, shown) == view
            assert other.locator(".gin-example").nth(i).locator(".gin-changed").is_visible()
    finally:
        context.close()


def test_history_from_a_shared_link_undo_reset_and_the_fragment(browser, example_server):
    """A shared link's state is where the history starts: an edit is undone back to it, not to
    the page's original; undo records nothing and stops when the history is empty; going back
    to the original forgets the history; the fragment is always the shown state's link."""
    page_name, index = KINDS["knock"]
    key = f"gin-{index + 1}="
    shared = read_state({"kind": "knock", "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D QH"})
    edited = read_state({**shared, "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D 6D"})
    again = read_state({**shared, "hand": "2S 3S 4S 7H 7D 7C 9C TC JC 5D 8D"})
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        page.goto(page_url(example_server, "en", page_name) + "#" + key + link(shared))
        point_at_an_example(page)
        page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
        node = page.locator(".gin-example").nth(index)
        undo, changed = node.locator(".gin-undo"), node.locator(".gin-changed")
        wait_answer(page, index, None)

        def shown() -> dict:
            view = page.evaluate(NORMALISE, node.locator(".gin-view").inner_html())
            return {
                "state": json.loads(node.get_attribute("data-gin")),
                "view": view,
                "fragment": urlsplit(page.url).fragment,
            }

        def expected(state: dict, fragment: str) -> dict:
            return {
                "state": state,
                "view": page.evaluate(NORMALISE, drawn(state, "en").view),
                "fragment": fragment,
            }

        assert shown() == expected(shared, key + link(shared))
        assert undo.is_disabled() and changed.is_visible()  # opening a link records nothing

        def type_hand(state: dict):
            node.locator("details.gin-type").evaluate("(d) => d.open = true")
            before = node.get_attribute("data-gin-answered")
            field = node.locator('.gin-text[data-field="hand"]')
            field.fill(state["hand"])
            field.press("Enter")
            wait_answer(page, index, before)
            assert shown() == expected(state, key + link(state))
            assert undo.is_enabled()

        type_hand(edited)
        type_hand(again)
        undo.click()
        assert shown() == expected(edited, key + link(edited)) and undo.is_enabled()
        undo.click()
        assert shown() == expected(shared, key + link(shared))
        assert undo.is_disabled()
        undo.click(force=True)  # disabled: nothing happens
        assert shown() == expected(shared, key + link(shared))

        type_hand(edited)
        node.locator(".gin-reset").click()  # back to the page's original: no history, no link
        original = json.loads(node.get_attribute("data-gin"))
        assert original["hand"] not in (shared["hand"], edited["hand"], again["hand"])
        assert shown() == expected(original, "")
        assert undo.is_disabled() and changed.is_hidden()
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ro"])
def test_a_broken_share_link_shows_the_original_and_says_why(browser, example_server, lang):
    context = browser.new_context()
    try:
        page = context.new_page()
        index = KINDS["score"][1]
        page.goto(
            page_url(example_server, lang, "index") + f"#gin-{index + 1}=knocker:2S-3S;rules:house"
        )
        node = page.locator(".gin-example").nth(index)
        page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
        status = node.locator(".gin-status")
        assert "gin-error" in status.get_attribute("class")
        assert status.inner_text().startswith(catalogs.load(lang).text("ui.bad_link"))
        assert node.locator(".gin-changed").is_hidden()
        state = json.loads(node.get_attribute("data-gin"))
        assert page.evaluate(NORMALISE, node.locator(".gin-view").inner_html()) == page.evaluate(
            NORMALISE, drawn(state, lang).view
        )
    finally:
        context.close()


# --- print ------------------------------------------------------------------------------------


def test_print_hides_the_controls_and_keeps_the_values(live):
    site = live("en", "scoring")
    page, node = site.page, site.example(KINDS["sheet"][1])
    page.emulate_media(media="print")
    try:
        assert node.locator(".gin-tools").is_hidden()
        assert node.locator(".gin-status").is_hidden()
        assert node.locator(".gin-add").is_hidden()
        assert node.locator(".gin-entries select").first.is_hidden()
        assert node.locator(".gin-entries .gin-static").first.is_visible()
    finally:
        page.emulate_media(media="screen")


# --- nothing leaves the origin, nothing is logged as an error ---------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_request_leaves_the_origin_and_no_console_errors(live, lang, example_server):
    for page_name in PAGES:
        site = live(lang, page_name)
        origin = origin_of(site.url)
        assert site.log.requests, "no requests were recorded"
        assert any(u.endswith("/engine.snapshot") for u in site.log.requests)
        assert not any("/locales/" in u for u in site.log.requests), "the script loads no text"
        assert not site.log.off_origin(origin), site.log.off_origin(origin)
        assert not site.log.page_errors, site.log.page_errors
        assert not site.log.console_errors, site.log.console_errors


# --- instant navigation ----------------------------------------------------------------------


def wait_for_page(page, first_kind: str):
    """After an instant navigation: the new page's examples are there and settled."""
    page.wait_for_function(
        """(kind) => document.querySelector(".gin-example")?.dataset.ginKind === kind
                     && [...document.querySelectorAll(".gin-example")].every(
                            (n) => "ginReady" in n.dataset || "ginFailed" in n.dataset)""",
        arg=first_kind,
        timeout=TIMEOUT_MS,
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_instant_navigation_keeps_examples_working(new_page, example_server, lang):
    page, log = new_page()
    home = page_url(example_server, lang, "index")
    page.goto(home)
    point_at_an_example(page)
    page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    page.evaluate("window.__sameDocument = true")

    # To the scoring page by the link in the text, then add a hand to a sheet there.
    page.locator("article p a").first.click()
    page.wait_for_url(lambda url: urlsplit(url).path.endswith("/scoring/"))
    wait_for_page(page, "oklahoma")
    assert page.evaluate("window.__sameDocument") is True, "instant navigation is not on"
    index = KINDS["sheet"][1]
    node = page.locator(".gin-example").nth(index)
    state = json.loads(node.get_attribute("data-gin"))
    before = node.get_attribute("data-gin-answered")
    node.locator(".gin-add-points").fill("12")
    node.locator(".gin-add-hand").click()
    wait_answer(page, index, before)
    changed = {**state, "entries": [*state["entries"], {"winner": 0, "points": 12}]}
    assert page.evaluate(NORMALISE, node.locator(".gin-view").inner_html()) == page.evaluate(
        NORMALISE, drawn(changed, lang).view
    )

    # Back to the home page by its link, and through the history: mounted once, still live.
    page.locator("article p a").first.click()
    page.wait_for_url(lambda url: urlsplit(url).path == urlsplit(home).path)
    wait_for_page(page, "melds")
    page.go_back()
    page.wait_for_url(lambda url: urlsplit(url).path.endswith("/scoring/"))
    wait_for_page(page, "oklahoma")
    page.go_forward()
    page.wait_for_url(lambda url: urlsplit(url).path == urlsplit(home).path)
    wait_for_page(page, "melds")
    assert page.evaluate("window.__sameDocument") is True
    for node in page.locator(".gin-example").all():
        assert node.locator(".gin-tools").count() == 1
        assert node.locator(".gin-status").count() == 1
    # The language switcher follows: this page, in Italian (or English).
    other = "it" if lang != "it" else "en"
    link = page.locator(f'.md-select__link[hreflang="{other}"]').get_attribute("href")
    assert urlsplit(link).path == urlsplit(page_url(example_server, other, "index")).path
    index = KINDS["melds"][1]
    node = page.locator(".gin-example").nth(index)
    before = node.get_attribute("data-gin-answered")
    node.locator('.gin-inputs button[data-field="hand"][data-index="9"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowLeft")  # KD -> QD
    page.keyboard.press("Enter")
    wait_answer(page, index, before)
    state = {**json.loads(node.get_attribute("data-gin"))}
    assert state["hand"].endswith("QD")
    assert page.evaluate(NORMALISE, node.locator(".gin-view").inner_html()) == page.evaluate(
        NORMALISE, drawn(state, lang).view
    )
    assert len([w for w in page.workers if w.url.endswith("/assets/gin/worker.js")]) == 1

    origin = origin_of(home)
    assert not log.off_origin(origin), log.off_origin(origin)
    assert not log.page_errors, log.page_errors
    assert not log.console_errors, log.console_errors


# --- without WebAssembly ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_blocked_wasm_keeps_the_predrawn_result(new_page, example_server, lang):
    page, log = new_page()
    page.context.route(re.compile(r".*\.wasm(\?.*)?$"), lambda route: route.abort())
    page.goto(page_url(example_server, lang, "index"))
    point_at_an_example(page)
    page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    failed = catalogs.load(lang).text("ui.failed")
    nodes = page.locator(".gin-example").all()
    assert len(nodes) == COUNTS["index"]
    for node in nodes:
        assert node.get_attribute("data-gin-failed") is not None
        assert node.locator(".gin-status").inner_text() == failed
        state = json.loads(node.get_attribute("data-gin"))
        enabled = re.compile(r' disabled(="")?')  # the failure disables every control
        assert enabled.sub(
            "", page.evaluate(NORMALISE, node.locator(".gin-view").inner_html())
        ) == enabled.sub("", page.evaluate(NORMALISE, drawn(state, lang).view))
        # Nothing to press that cannot work.
        for control in node.locator("button, select, input").all():
            assert control.is_disabled()
    assert not log.page_errors, log.page_errors
    ours = [e for e in log.console_errors if not e.startswith("Failed to load resource")]
    assert not ours, ours
