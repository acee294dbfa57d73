"""The play page in real headless Chromium, on the built site (tests/browser/conftest.py).

In each language: a whole hand played with the keyboard alone to its score; a move the rules
refuse (the card just taken from the discard pile, discarded at once) refused with its reason in
the page's language; a hint (the coach's ranked choices); the coach pointing out a planted
mistake (a meld broken up); a reload that resumes the game, and a spoiled stored game replaced by
a new one without an error; a whole game to its review, by mouse with the coach on, against
each level in some language. The games come from fixed links (seed, rules, level), so the deals
are known; every outcome is checked against the engine's own answer for the same game.
"""

from __future__ import annotations

import json
import re

import pytest
from ginrummy.bots import LEVELS
from ginrummy.match import game_from_json
from ginview.markup import error_text, step_text
from ginview.play import COSTLY, action_label
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sitegen import catalogs
from sitegen.languages import languages
from tests.browser.test_lessons import check_clean

LANGUAGES = list(languages())
TIMEOUT = 60000
MAX_PRESSES = 40
MAX_GAME_MOVES = 1500
GAME_LINK = re.compile(r"seed=\d+&rules=standard&level=strong$")


def play_url(base: str, lang: str, link: str) -> str:
    return f"{base}{'' if lang == 'en' else lang + '/'}play/#{link}"


def answers(page) -> int:
    return int(page.locator(".gin-play").get_attribute("data-gin-answers") or 0)


TABLE_STATE_JS = """() => {
  const node = document.querySelector('.gin-play');
  return {answers: node.dataset.ginAnswers, busy: node.getAttribute('aria-busy'),
          status: node.querySelector('.gin-status').textContent, live: 'ginLive' in node.dataset};
}"""


def wait_answer(page, before: int) -> None:
    """Wait for the worker's answer after ``before`` answers; on a timeout, say what the table
    was doing (still busy: a slow worker; idle with no new answer: a lost move)."""
    try:
        page.wait_for_function(
            "(n) => Number(document.querySelector('.gin-play').dataset.ginAnswers || 0) > n"
            " && !document.querySelector('.gin-play').hasAttribute('aria-busy')",
            arg=before,
            timeout=TIMEOUT,
        )
    except PlaywrightTimeout:
        raise AssertionError(f"no answer after {before}: {page.evaluate(TABLE_STATE_JS)}") from None


def start(page, url: str) -> None:
    page.goto(url)
    wait_answer(page, 0)


def session(page) -> dict:
    return json.loads(page.evaluate("() => localStorage.getItem('gin-play')"))


def game(page):
    return game_from_json(session(page)["game"])


def focused_move(page):
    data = page.evaluate("() => document.activeElement && document.activeElement.dataset.move")
    return json.loads(data) if data else None


def press_move(page, wanted) -> None:
    """Tab to the first button whose move satisfies ``wanted``, then press Enter: the keyboard
    alone."""
    for _ in range(MAX_PRESSES):
        move = focused_move(page)
        if move is not None and wanted(move):
            before = answers(page)
            page.keyboard.press("Enter")
            wait_answer(page, before)
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"no button for the move wanted; last focused: {focused_move(page)}")


def click_move(page, wanted) -> None:
    """Click the first move button whose move satisfies ``wanted``: the mouse."""
    buttons = page.locator("button[data-move]:not([disabled])")
    for index in range(buttons.count()):
        button = buttons.nth(index)
        if wanted(json.loads(button.get_attribute("data-move"))):
            before = answers(page)
            button.click()
            wait_answer(page, before)
            return
    raise AssertionError("no button for the move wanted")


def kind(name):
    return lambda move: move.get("action", {}).get("kind") == name


def simple_move(page, hand):
    """What a simple player does, as a test of the move buttons: pass the upcard, draw from
    the stock, lay nothing off, knock or go gin at the first chance, else throw the hand's
    last card (the highest of the deadwood)."""
    if hand.phase == "offer":
        return kind("pass")
    if hand.phase == "draw":
        return kind("draw_stock")
    if hand.phase == "lay_off":
        return lambda move: "lay_offs_done" in move
    ends = {"gin", "big_gin", "knock"} & {a.kind for a in _legal(hand)}
    if ends:
        return lambda move: move.get("action", {}).get("kind") in ends
    last = json.loads(page.locator(".gin-hand button[data-move]").last.get_attribute("data-move"))
    return lambda move: move == last


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_hand_by_keyboard(servers, new_page, lang):
    cat = catalogs.load(lang)
    base = servers["root"] if lang in ("en", "hu") else servers["subpath"]
    page, log = new_page()
    start(page, play_url(base, lang, "seed=4&rules=standard&level=beginner"))
    # The coach off (a checkbox, from the keyboard), so every answer comes at once.
    page.focus(".gin-play-settings input[name=coach]")
    before = answers(page)
    page.keyboard.press("Space")
    wait_answer(page, before)
    assert session(page)["coach"] is False
    page.focus(".gin-play-settings a.gin-play-link")
    for _ in range(60):
        hand = game(page).hand
        if hand.finished:
            break
        press_move(page, simple_move(page, hand))
    hand = game(page).hand
    assert hand.finished
    end = page.locator(".gin-play-end .gin-headline").inner_text()
    if hand.result is None:
        assert end.strip() == cat.text("hand.dead")
    else:
        assert end.strip() == step_text(hand.result.to_json()["steps"][-1], cat)
        rows = page.locator(".gin-play-sheet table tbody tr")
        assert rows.count() == 1
    check_clean(log)


def _legal(hand):
    from ginrummy.hand import legal_actions

    return legal_actions(hand)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_illegal_move_is_refused_with_its_reason(servers, new_page, lang):
    cat = catalogs.load(lang)
    page, log = new_page()
    start(page, play_url(servers["root"], lang, "seed=2&rules=standard&level=strong"))
    # Play on until the reader takes a card from the discard pile (the upcard or a discard).
    for _ in range(30):
        hand = game(page).hand
        if hand.taken is not None:
            break
        kinds = {a.kind for a in _legal(hand)}
        take = kinds & {"take_upcard", "draw_discard"}
        button = (
            page.locator(f".gin-play-moves button[data-move*={take.pop()}]")
            if take
            else page.locator(".gin-play-moves button[data-move*=draw_stock]")
            if hand.phase == "draw"
            else page.locator(".gin-hand button[data-move]").last
        )
        before = answers(page)
        button.click()
        wait_answer(page, before)
    taken = str(game(page).hand.taken)
    # Discard the card just taken: refused, with the reason in the page's language.
    before = answers(page)
    page.locator(f'.gin-hand button[data-move*=\'"card":"{taken}"\']').click()
    wait_answer(page, before)
    reason = error_text({"code": "cannot_discard_taken_card", "params": {"card": taken}}, cat)
    assert reason in page.locator(".gin-refused").inner_text()
    assert reason in page.locator(".gin-play .gin-status").inner_text()
    assert game(page).hand.taken is not None  # nothing was played
    check_clean(log)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hint_and_a_planted_mistake(servers, new_page, lang):
    cat = catalogs.load(lang)
    page, log = new_page()
    start(page, play_url(servers["subpath"], lang, "seed=1&rules=standard&level=strong"))
    # Seed 1: the computer passes the upcard; so does the reader, then draws from the stock.
    assert game(page).hand.phase == "offer"
    before = answers(page)
    page.locator(".gin-play-moves button[data-move*=pass]").click()
    wait_answer(page, before)
    before = answers(page)
    page.locator(".gin-play-moves button[data-move*=draw_stock]").click()
    wait_answer(page, before)
    # A hint: every legal choice, ranked, best first.
    before = answers(page)
    page.locator(".gin-hint-button").click()
    wait_answer(page, before)
    advice = session(page)["advice"]
    items = page.locator(".gin-hint li")
    assert items.count() == len(_legal(game(page).hand)) == len(advice["choices"])
    assert items.first.inner_text().startswith(action_label(advice["choices"][0]["action"], cat))
    # The planted mistake: a meld broken up (its first card discarded).
    first = page.locator(".gin-hand .gin-meld button[data-move]").first
    move = json.loads(first.get_attribute("data-move"))
    before = answers(page)
    first.click()
    wait_answer(page, before)
    entry = session(page)["log"][-1]
    assert entry["action"] == move["action"] and entry["cost"] >= 1
    mistake = page.locator(".gin-coach .gin-mistake").inner_text()
    assert action_label(entry["best"], cat) in mistake
    assert action_label(move["action"], cat) in mistake
    check_clean(log)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_reload_resumes_and_a_spoiled_store_starts_anew(servers, new_page, lang):
    page, log = new_page()
    url = play_url(servers["root"], lang, "seed=6&rules=pagat&level=intermediate")
    start(page, url)
    before = answers(page)
    page.locator(".gin-play-moves button[data-move]").first.click()
    wait_answer(page, before)
    kept = session(page)
    table = page.locator(".gin-play-table").inner_text()
    page.reload()
    wait_answer(page, 0)
    assert session(page) == kept
    assert page.locator(".gin-play-table").inner_text() == table
    assert page.url.endswith("#seed=6&rules=pagat&level=intermediate")
    # The form shows the game's settings; from it, a new game with Hollywood scoring.
    form = page.locator(".gin-play-settings")
    shown = {
        n: form.locator(f"select[name={n}]").input_value() for n in ("rules", "level", "format")
    }
    assert shown == {"rules": "pagat", "level": "intermediate", "format": "standard"}
    form.locator("select[name=format]").select_option("hollywood")
    before = answers(page)
    form.locator("button.gin-new-game").click()
    wait_answer(page, before)
    assert session(page)["game"]["format"] == "hollywood"
    assert re.search(r"#seed=\d+&rules=pagat&level=intermediate&format=hollywood$", page.url)
    # A link pasted into the address bar while the worker answers a move: that game is dealt
    # once the move is answered. Twice: the first time, instant navigation fetches the page
    # again and redraws it (mkdocs-material does so on the first fragment change after a load),
    # so the table that deals the game is a new one; the second time the table stays. The old
    # table is marked, so the wait is for the table that stays, never for one about to go.
    for seed, redrawn in ((9, True), (10, False)):
        link = f"seed={seed}&rules=standard&level=beginner"
        page.evaluate(
            """(link) => { const table = document.querySelector('.gin-play');
                           table.dataset.testBefore = '';
                           table.querySelector('.gin-play-view button[data-move]').click();
                           location.hash = '#' + link; }""",
            link,
        )
        page.wait_for_function(
            """([seed, redrawn]) => {
                 const table = document.querySelector('.gin-play');
                 return JSON.parse(localStorage.getItem('gin-play')).game.seed === seed
                   && !table.hasAttribute('aria-busy')
                   && ('testBefore' in table.dataset) !== redrawn; }""",
            arg=[seed, redrawn],
            timeout=TIMEOUT,
        )
        # one move more (the worker answers in order: nothing older is on its way)
        before = answers(page)
        page.locator(".gin-play-view button[data-move]").first.click()
        wait_answer(page, before)
        assert session(page)["game"]["seed"] == seed and page.url.endswith(f"#{link}")
    # A stored game spoiled by hand: the reason said, a new game, no error in the page.
    page.evaluate("(s) => localStorage.setItem('gin-play', s)", json.dumps({**kept, "game": 7}))
    page.goto(play_url(servers["root"], lang, "").rstrip("#"))
    wait_answer(page, 0)
    assert session(page)["game"]["seed"] != 6 and session(page)["log"] == []
    spoiled = error_text({"code": "bad_session", "params": {"field": "game"}}, catalogs.load(lang))
    assert page.locator(".gin-play .gin-status").inner_text().startswith(spoiled)
    # A damaged link: said, and a new game.
    damaged = error_text({"code": "bad_link", "params": {"part": "seed=x"}}, catalogs.load(lang))
    page.goto(play_url(servers["subpath"], lang, "seed=x"))
    page.wait_for_function(
        "(text) => document.querySelector('.gin-play .gin-status').textContent.startsWith(text)",
        arg=damaged,
        timeout=TIMEOUT,
    )
    assert GAME_LINK.match(page.url.split("#")[1]) and page.locator(".gin-hand").count() == 1
    check_clean(log)


FITS_JS = """() => {
  const width = window.innerWidth;
  const buttons = [...document.querySelectorAll('.gin-play button')].filter((b) => b.offsetParent);
  const bad = buttons.map((b) => [b.textContent.trim().slice(0, 30), b.getBoundingClientRect()])
    .filter(([, r]) => r.width < 24 || r.height < 24 || r.left < 0 || r.right > width + 0.5)
    .map(([text, r]) => `${text}: ${Math.round(r.left)}-${Math.round(r.right)} x ${Math.round(r.height)}`);
  return {overflow: document.documentElement.scrollWidth - width, bad, count: buttons.length};
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_on_a_phone_the_table_fits_and_plays_by_touch(servers, browser, lang):
    """A 360-pixel-wide phone screen, by touch: the page does not scroll sideways, and every
    button of the game is on screen and at least 24 pixels each way (WCAG 2.2 target size)."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    page, errors = context.new_page(), []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        start(page, play_url(servers["root"], lang, "seed=4&rules=standard&level=beginner"))
        for _ in range(8):  # moves by touch: the first move offered, or the first card to throw
            fits = page.evaluate(FITS_JS)
            assert fits["overflow"] <= 0 and not fits["bad"] and fits["count"], fits
            button = page.locator(
                ".gin-play-moves button[data-move]:not([disabled]), "
                ".gin-hand button[data-move]:not([disabled])"
            ).first
            before = answers(page)
            button.tap()
            wait_answer(page, before)
        assert game(page).hand.history or game(page).number > 1  # the game went on
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_game_to_its_review(servers, new_page, lang):
    """A game to 100 with the coach on, by mouse: every hand played to its score, the next
    dealt from the page, until the game is over; then the sheet is the engine's and the review
    lists every decision the coach judged, with the reader's accuracy. Each level plays in at
    least one language."""
    index = LANGUAGES.index(lang)
    level = LEVELS[index % len(LEVELS)]
    cat = catalogs.load(lang)
    base = servers["subpath"] if index % 2 else servers["root"]
    page, log = new_page()
    start(page, play_url(base, lang, f"seed={20 + index}&rules=standard&level={level}"))
    assert session(page)["coach"] is True
    hands = 0
    for _ in range(MAX_GAME_MOVES):
        played = game(page)
        hand = played.hand
        if played.finished:
            break
        if hand.finished:
            hands += 1
            click_move(page, lambda move: move.get("next") is True)
        else:
            click_move(page, simple_move(page, hand))
    played = game(page)
    assert played.finished and played.sheet.winner is not None
    assert len(played.played) == hands >= 1
    # the sheet is the engine's: its rows, hand by hand, then how the game was settled
    rows = page.locator(".gin-play-sheet table tbody tr")
    assert rows.count() == len(played.sheet.rows)
    last = played.sheet.rows[-1].to_json()
    assert rows.last.locator("td").all_inner_texts()[2:] == [
        str(last["points"]),
        *map(str, last["totals"]),
    ]
    settled = page.locator(".gin-play-sheet").inner_text()
    assert step_text(played.sheet.explain()[-1], cat) in " ".join(settled.split())
    judged = session(page)["log"]
    assert judged, "the coach judged no decision"
    good = sum(1 for entry in judged if entry["cost"] < COSTLY)
    review = page.locator(".gin-play-review")
    assert review.locator(".gin-headline").inner_text().strip() == cat.text(
        "play.accuracy", percent=round(100 * good / len(judged)), good=good, count=len(judged)
    )
    assert review.locator("tbody tr").count() == len(judged)
    check_clean(log)
