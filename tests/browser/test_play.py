"""The play page in real headless Chromium, on the built site (tests/browser/conftest.py).

What a reader meets, read from the page: a first visit plays the deal the page showed before
the engine was live; a whole game in each language, by mouse, whose text never shows a
placeholder, a raw key, or the reader as a role; a whole hand by keyboard; the computer's moves
shown one at a time (moving, unless the reader prefers reduced motion; at once at the speed
"instant"); the coach's hint and a planted mistake; the hand reordered by keyboard and by
dragging; reloads, links, back and forward, two tabs and a tampered stored game, none of which
loses a game; the replay link and its copy button; the statistics. On a phone and a desktop in
each language, screenshots after the deal, after a computer turn, during lay-offs and at the end
of a game, with what must be on the first screen checked. The games come from fixed links, so
the deals are known, and the reader's moves are chosen by the engine's beginner bot, so every
outcome is checked against the engine's own answer.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from ginrummy.bots import LEVELS, choose
from ginrummy.match import game_from_json, play
from ginview.play import action_label
from ginview.play.coach import hint_order
from ginview.play.views import hand_end_text
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sitegen import catalogs
from sitegen.languages import languages
from tests.browser.test_lessons import check_clean

LANGUAGES = list(languages())
TIMEOUT = 60000
MAX_PRESSES = 60
MAX_GAME_MOVES = 1500
PLACEHOLDER = re.compile(r"\{\w+(?::\w+)?\}")
RAW_KEY = re.compile(r"\b(?:play|error|step|ui|card|unit|player|rule|hand)\.[a-z_]+\.?[a-z_0-9]*\b")
ROLES = {  # the reader is "you" on the play page, never a letter, a role or "the opponent"
    "en": ["Player A", "Player B", "opponent", "defender", "knocker"],
    "ro": ["Jucătorul A", "Jucătorul B", "adversar"],
    "hu": ["A játékos", "B játékos", "ellenfél", "kopogó"],
    "it": ["Giocatore A", "Giocatore B", "avversario"],
}
SHOTS = Path(os.environ.get("GIN_PLAY_SHOTS", "")) if os.environ.get("GIN_PLAY_SHOTS") else None
"""Where the screenshots go when set (``GIN_PLAY_SHOTS=/some/dir``); else a temporary folder."""
INSTANT = "localStorage.setItem('gin-play-speed', 'instant')"


def play_url(base: str, lang: str, link: str = "") -> str:
    return f"{base}{'' if lang == 'en' else lang + '/'}play/" + (f"#{link}" if link else "")


def answers(page) -> int:
    return int(page.locator(".gin-play").get_attribute("data-gin-answers") or 0)


TABLE_STATE_JS = """() => {
  const node = document.querySelector('.gin-play');
  return {answers: node.dataset.ginAnswers, busy: node.getAttribute('aria-busy'),
          log: node.querySelector('.gin-status').textContent, live: 'ginLive' in node.dataset};
}"""


def wait_answer(page, before: int) -> None:
    """Wait for the answer after ``before`` answers, shown in full (the computer's moves
    included); on a timeout, say what the table was doing."""
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


def record(page) -> dict:
    """The game on the table, as the page keeps it."""
    return page.evaluate(
        """() => JSON.parse(localStorage.getItem('gin-play-game-' +
                   localStorage.getItem('gin-play-current')))"""
    )


def session(page) -> dict:
    return record(page)["session"]


def game(page):
    return game_from_json(session(page)["game"])


def page_text(page) -> str:
    return page.locator(".gin-play").inner_text()


def check_words(page, lang: str) -> None:
    """The page as read: no placeholder, no raw message key, the reader never a role."""
    text = page_text(page)
    assert not PLACEHOLDER.search(text), PLACEHOLDER.search(text).group(0)
    assert not RAW_KEY.search(text), RAW_KEY.search(text).group(0)
    for word in ROLES[lang]:
        assert word not in text, word
    for junk in ("undefined", "NaN", "[object"):
        assert junk not in text, junk


def press(page, selector: str) -> None:
    """Click a control of the table and wait for the answer."""
    before = answers(page)
    page.locator(selector).first.click()
    wait_answer(page, before)


def play_action(page, action) -> None:
    """Play an engine action through the page's own controls, as a reader does: a pile, a card
    of the hand, Knock then the card (then a layout when there is a choice), Pass, Big gin."""
    kind = action.kind
    if kind == "pass":
        press(page, ".gin-turn button[data-move*='\"pass\"']")
    elif kind in ("take_upcard", "draw_discard"):
        press(page, "button.gin-pile.gin-discard")
    elif kind == "draw_stock":
        press(page, "button.gin-pile.gin-stock")
    elif kind == "discard":
        press(page, f".gin-hand button[data-key='c{action.card}']")
    elif kind in ("knock", "gin"):
        press(page, ".gin-turn button.gin-knock[data-move*=knock]")
        press(page, f".gin-hand button[data-key='c{action.card}']")
        if page.locator(".gin-turn button.gin-layout").count():
            press(page, ".gin-turn button.gin-layout")
    elif kind == "big_gin":
        press(page, ".gin-turn button[data-move*=big_gin]")
    else:
        raise AssertionError(f"no control for {action}")


def reader_move(hand, seed: int):
    """The reader's move: the engine's beginner bot, so the test knows what comes."""
    return choose(hand, "beginner", seed=seed)


def play_on(page, until, seed: int = 0, lang: str = "en", limit: int = MAX_GAME_MOVES) -> None:
    """Play the game on the page until ``until(game)``: lay-offs done as offered, the next
    hand dealt from the page; the page's words checked after each answer."""
    for _ in range(limit):
        played = game(page)
        if until(played):
            return
        hand = played.hand
        check_words(page, lang)
        if played.finished:
            raise AssertionError("the game ended first")
        if hand.finished:
            press(page, ".gin-turn button[data-move*=next]")
        elif hand.phase == "lay_off":
            press(page, ".gin-turn button[data-move*=lay_offs_done]")
        else:
            play_action(page, reader_move(hand, seed))
    raise AssertionError("not reached")


# --- a first visit, a whole game, a hand by keyboard --------------------------------------


def test_a_first_visit_plays_the_deal_the_page_showed(servers, new_page):
    """No game kept, no link: the deal drawn by the build is the deal played, at the beginner
    level, with one line inviting the reader to choose another."""
    page, log = new_page()
    page.route("**/assets/gin/worker.js", lambda route: route.abort())  # the engine never comes
    page.goto(play_url(servers["root"], "en"))
    drawn = page.locator(".gin-table").inner_text()
    page.unroute("**/assets/gin/worker.js")
    page.close()
    page, log = new_page()
    page.goto(play_url(servers["root"], "en"))
    wait_answer(page, 0)
    assert page.locator(".gin-table").inner_text() == drawn
    assert page.url.split("#")[1] == "seed=1&rules=standard&level=beginner"
    invite = catalogs.load("en").text("play.first_visit")
    assert page.locator(".gin-invite").inner_text() == invite
    assert session(page)["level"] == "beginner"
    check_clean(log)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_game_read_as_a_reader_reads_it(servers, new_page, lang):
    """A game to its end with the coach on, by mouse, against each level in some language:
    after every answer the page reads right; the end is a moment (who won, the totals, a new
    game), the sheet is the engine's, the review lists every judged decision, and the
    statistics count the game once."""
    index = LANGUAGES.index(lang)
    level = LEVELS[index % len(LEVELS)]
    cat = catalogs.load(lang)
    base = servers["subpath"] if index % 2 else servers["root"]
    page, log = new_page()
    page.add_init_script(INSTANT)
    start(page, play_url(base, lang, f"seed={20 + index}&rules=standard&level={level}"))
    assert session(page)["coach"] is True
    play_on(page, lambda g: g.finished, seed=index, lang=lang)
    check_words(page, lang)
    played = game(page)
    sheet = played.sheet
    headline = page.locator(".gin-game-headline").inner_text()
    assert headline == cat.text(f"play.game_won.{sheet.winner}")
    final = cat.text("play.final_totals", you=sheet.totals[0], computer=sheet.totals[1])
    assert final in page_text(page)
    assert page.locator(".gin-game-end button[data-new-game]").is_visible()
    rows = page.locator(".gin-play-sheet table tbody tr")
    assert rows.count() == len(sheet.rows)
    judged = session(page)["log"]
    good = sum(1 for entry in judged if not entry["mistake"])
    accuracy = round(100 * good / len(judged))
    assert cat.text("play.accuracy", percent=accuracy, good=good, count=len(judged)) in page_text(
        page
    )
    # the review lists the mistakes only (a move called good during the game is not listed)
    assert page.locator(".gin-play-review tbody tr").count() == len(judged) - good
    stats = page.locator(".gin-play-stats")
    assert stats.is_visible() and stats.locator("[data-stat=played]").text_content() == "1"
    page.reload()
    wait_answer(page, 0)
    assert page.locator("[data-stat=played]").text_content() == "1"  # counted once
    # a new game from the moment's button: the same settings, another deal
    press(page, ".gin-game-end button[data-new-game]")
    assert session(page)["level"] == level and game(page).seed != 20 + index
    check_clean(log)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_hand_by_keyboard(servers, new_page, lang):
    """Tab reaches the piles, the hand (one stop: the arrow keys move inside it) and the
    buttons; Enter plays. The coach off from its switch, by the keyboard too."""
    cat = catalogs.load(lang)
    base = servers["root"] if lang in ("en", "hu") else servers["subpath"]
    page, log = new_page()
    page.add_init_script(INSTANT)
    start(page, play_url(base, lang, "seed=4&rules=standard&level=beginner"))
    page.focus(".gin-play-bar input[name=coach]")
    before = answers(page)
    page.keyboard.press("Space")
    wait_answer(page, before)
    assert session(page)["coach"] is False
    for _ in range(80):
        hand = game(page).hand
        if hand.finished:
            break
        move = reader_move(hand, 4)
        if hand.phase == "lay_off":
            keyboard_press(page, lambda el: el.get("move", "").find("lay_offs_done") >= 0)
        elif move.kind in ("knock", "gin"):
            keyboard_press(page, lambda el: el.get("move") == '{"knock":true}')
            keyboard_to_card(page, str(move.card))
            if page.locator(".gin-turn button.gin-layout").count():
                keyboard_press(page, lambda el: "gin-layout" in el.get("cls", ""))
        elif move.kind == "discard":
            keyboard_to_card(page, str(move.card))
        elif move.kind == "draw_stock":
            keyboard_press(page, lambda el: "gin-stock" in el.get("cls", ""))
        elif move.kind in ("take_upcard", "draw_discard"):
            keyboard_press(page, lambda el: "gin-discard" in el.get("cls", ""))
        elif move.kind == "pass":
            keyboard_press(page, lambda el: el.get("move", "").find('"pass"') >= 0)
        else:
            keyboard_press(page, lambda el, kind=move.kind: el.get("move", "").find(kind) >= 0)
    hand = game(page).hand
    assert hand.finished
    assert page.locator(".gin-prompt").inner_text().strip() == hand_end_text(game(page), cat)
    check_words(page, lang)
    check_clean(log)


FOCUSED_JS = """() => { const el = document.activeElement;
  return el ? {move: el.dataset.move || "", cls: el.className || "", key: el.dataset.key || ""} : {}; }"""


def keyboard_to(page, wanted, key: str = "Tab", limit: int = MAX_PRESSES) -> None:
    """Press ``key`` until the focused control is one ``wanted`` accepts, then Enter."""
    for _ in range(limit):
        if wanted(page.evaluate(FOCUSED_JS)):
            before = answers(page)
            page.keyboard.press("Enter")
            wait_answer(page, before)
            return
        page.keyboard.press(key)
    raise AssertionError(f"no control found by {key}; last: {page.evaluate(FOCUSED_JS)}")


def keyboard_press(page, wanted) -> None:
    """Tab to the first control that ``wanted`` accepts, then press Enter."""
    keyboard_to(page, wanted)


def keyboard_to_card(page, card: str) -> None:
    """Tab into the hand, then the arrow keys to ``card``, then Enter."""
    for _ in range(MAX_PRESSES):
        if page.evaluate("() => !!document.activeElement.closest('.gin-hand')"):
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Home")
    keyboard_to(page, lambda el: el.get("key") == f"c{card}", "ArrowRight", 12)


# --- every move seen ---------------------------------------------------------------------------

WATCH_JS = """() => {
  const node = document.querySelector('.gin-play');
  const seen = (window.__seen = {inert: false, moving: 0, lines: []});
  const log = node.querySelector('.gin-status');
  new MutationObserver(() => {
    seen.lines.push(log.lastElementChild ? log.lastElementChild.textContent : '');
    seen.inert = seen.inert || node.querySelector('.gin-play-view').inert;
    seen.moving = Math.max(seen.moving, document.getAnimations().length);
  }).observe(log, {childList: true});
}"""
"""Watch the log a screen reader hears: each line as it comes, whether the table was inert
meanwhile, and the most cards moving at once."""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_each_move_of_the_computers_is_shown_and_said_one_at_a_time(servers, browser, motion):
    """At the normal speed the reader's discard, then the computer's draw and discard, each
    take their turn on the table (inert meanwhile) and in the log a screen reader hears; the
    cards move, unless the reader prefers reduced motion."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion=motion)
    page = context.new_page()
    try:
        start(page, play_url(servers["root"], "en", "seed=3&rules=standard&level=beginner"))
        play_on(page, lambda g: g.hand.phase == "discard" and g.hand.turn == 0, seed=3)
        hand = game(page).hand
        card = reader_move(hand, 3).card or hand.hands[0][0]
        before = answers(page)
        page.evaluate(WATCH_JS)
        page.locator(f".gin-hand button[data-key='c{card}']").click()
        wait_answer(page, before)
        seen = page.evaluate("() => window.__seen")
        after = game(page).hand
        computer = [e for e in after.history[len(hand.history) + 1 :]]
        assert len(seen["lines"]) >= 1 + len(computer) >= 3, seen
        assert seen["inert"]
        assert (seen["moving"] > 0) == (motion == "no-preference"), seen
        line = page.locator(".gin-last-line").inner_text()
        assert line.endswith(seen["lines"][len(computer)])  # the last move, beside the piles
    finally:
        context.close()


def test_the_card_drawn_stays_marked_and_the_computers_moves_marked(servers, new_page):
    page, log = new_page()
    page.add_init_script(INSTANT)
    start(page, play_url(servers["root"], "en", "seed=3&rules=standard&level=beginner"))
    play_on(page, lambda g: g.hand.phase == "draw" and g.hand.turn == 0 and len(g.hand.history) > 2)
    assert page.locator(".gin-last").count() >= 1  # the computer's draw and discard
    press(page, "button.gin-pile.gin-stock")
    drawn = game(page).hand.hands[0][-1]
    assert (
        page.locator(f".gin-hand [data-key='c{drawn}']").get_attribute("class").count("gin-drawn")
    )
    assert page.locator(".gin-table .gin-last").count() == 0  # the reader moved since
    check_clean(log)


# --- refused moves, the coach -----------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_move_the_rules_refuse_says_why_and_plays_nothing(servers, new_page, lang):
    """A move from a table that no longer stands (a control kept from before): the reason in
    the page's language, and nothing played."""
    cat = catalogs.load(lang)
    page, log = new_page()
    page.add_init_script(INSTANT)
    start(page, play_url(servers["root"], lang, "seed=2&rules=standard&level=strong"))
    play_on(page, lambda g: g.hand.phase == "draw" and g.hand.turn == 0)
    card = str(game(page).hand.hands[0][0])
    kept = session(page)["game"]
    page.evaluate(
        """(card) => { const b = document.createElement('button');
             b.dataset.move = JSON.stringify({action: {kind: 'discard', player: 0, card}});
             b.className = 'gin-stale'; b.textContent = 'x';
             document.querySelector('.gin-turn').append(b); }""",
        card,
    )
    press(page, "button.gin-stale")
    refused = page.locator(".gin-refused").inner_text()
    assert refused.startswith(cat.text("play.refused")) and session(page)["game"] == kept
    reason = refused.removeprefix(cat.text("play.refused")).strip()
    assert reason and reason in page.locator(".gin-status").inner_text()  # heard too
    check_words(page, lang)
    check_clean(log)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hint_in_one_sentence_and_a_planted_mistake(servers, new_page, lang):
    cat = catalogs.load(lang)
    page, log = new_page()
    page.add_init_script(INSTANT)
    start(page, play_url(servers["subpath"], lang, "seed=1&rules=standard&level=strong"))
    from ginrummy.melds import best_melds

    def with_a_meld(played) -> bool:  # the reader to discard, a meld in hand
        hand = played.hand
        return hand.turn == 0 and hand.phase == "discard" and bool(best_melds(hand.hands[0]).melds)

    play_on(page, with_a_meld, seed=1, lang=lang)
    press(page, ".gin-hint-button")
    advice = session(page)["advice"]
    best = page.locator(".gin-hint-best").inner_text()
    assert action_label(hint_order(advice)[0]["action"], cat) in best
    details = page.locator(".gin-hint details")
    assert not details.locator("table").is_visible()  # the numbers behind "Details"
    details.locator("summary").click()
    assert details.locator("tbody tr").count() == len(advice["choices"])
    # The planted mistake: a meld broken up (its first card discarded), once the reader has
    # thought it over (the coach refines its ranking meanwhile, until it is settled).
    page.wait_for_function(
        "() => { const n = document.querySelector('.gin-play');"
        " return n.dataset.ginPondered === n.dataset.ginAnswers; }",
        timeout=TIMEOUT,
    )
    first = page.locator(".gin-hand .gin-meld button[data-move]").first
    move = json.loads(first.get_attribute("data-move"))
    before = answers(page)
    first.click()
    wait_answer(page, before)
    entry = session(page)["log"][-1]
    assert entry["action"] == move["action"] and entry["mistake"] and entry["why"]
    mistake = page.locator(".gin-coach .gin-mistake").inner_text()
    assert action_label(move["action"], cat) in mistake
    check_words(page, lang)
    check_clean(log)


def test_the_coach_switched_off_during_the_computers_move_is_not_dropped(servers, new_page):
    page, log = new_page()
    start(page, play_url(servers["root"], "en", "seed=3&rules=standard&level=beginner"))
    play_on(page, lambda g: g.hand.phase == "discard" and g.hand.turn == 0, seed=3)
    card = reader_move(game(page).hand, 3).card
    before = answers(page)
    page.locator(f".gin-hand button[data-key='c{card}']").click()
    page.wait_for_function("() => document.querySelector('.gin-play-view').inert")
    page.locator(".gin-play-bar input[name=coach]").uncheck()  # while the computer plays
    wait_answer(page, before + 1)
    assert session(page)["coach"] is False
    assert page.locator(".gin-play-bar input[name=coach]").is_checked() is False
    assert page.locator(".gin-coach").count() == 0
    check_clean(log)


# --- the hand reordered ----------------------------------------------------------------------


def deadwood_order(page) -> list[str]:
    return page.eval_on_selector_all(
        ".gin-hand .gin-deadwood .gin-face", "(cards) => cards.map((c) => c.dataset.key.slice(1))"
    )


def test_the_hand_is_reordered_by_keyboard_and_by_dragging(servers, new_page):
    page, log = new_page()
    page.add_init_script(INSTANT)
    start(page, play_url(servers["root"], "en", "seed=8&rules=standard&level=beginner"))
    play_on(page, lambda g: g.hand.phase == "discard" and g.hand.turn == 0, seed=8)
    dead = deadwood_order(page)
    assert len(dead) >= 3
    # Shift+ArrowRight moves the focused card one place, and says so.
    page.locator(f".gin-hand [data-key='c{dead[0]}']").focus()
    before = answers(page)
    page.keyboard.press("Shift+ArrowRight")
    wait_answer(page, before)
    moved = [dead[1], dead[0], *dead[2:]]
    assert deadwood_order(page) == moved
    assert session(page)["order"].split()[-len(dead) :] == moved or all(
        c in session(page)["order"] for c in moved
    )
    assert page.evaluate("() => document.activeElement.dataset.key") == f"c{dead[0]}"
    # Dragging the last card to the first place.
    last = page.locator(f".gin-hand [data-key='c{moved[-1]}']").bounding_box()
    first = page.locator(f".gin-hand [data-key='c{moved[0]}']").bounding_box()
    before = answers(page)
    page.mouse.move(last["x"] + last["width"] - 5, last["y"] + 20)
    page.mouse.down()
    for step in range(1, 11):
        x = (
            last["x"]
            + last["width"]
            - 5
            + (first["x"] + 5 - last["x"] - last["width"] + 5) * step / 10
        )
        page.mouse.move(x, last["y"] + 20)
    page.mouse.up()
    wait_answer(page, before)
    assert deadwood_order(page)[0] == moved[-1]
    assert game(page).hand.phase == "discard"  # a drag is not a discard
    check_clean(log)


# --- links, reloads, other tabs: a game is never lost --------------------------------------------


ON_TABLE_JS = """(id) => {
  const node = document.querySelector('.gin-play');
  return localStorage.getItem('gin-play-current') === id && node.dataset.ginAnswers
    && !node.hasAttribute('aria-busy');
}"""


def wait_table(page, id_: str | None = None, seed: int | None = None) -> None:
    """Wait for the game ``id_`` (or a game of ``seed``) on the table, shown in full. (After a
    change of the fragment, instant navigation may draw the page again: the table to wait for
    is then a new one, so the wait is on the game, not on a count of answers.)"""
    if id_ is None:
        page.wait_for_function(
            """(seed) => { const id = localStorage.getItem('gin-play-current');
                 const r = JSON.parse(localStorage.getItem('gin-play-game-' + id) || 'null');
                 const node = document.querySelector('.gin-play');
                 return r && r.session.game.seed === seed && node.dataset.ginAnswers
                   && !node.hasAttribute('aria-busy'); }""",
            arg=seed,
            timeout=TIMEOUT,
        )
    else:
        page.wait_for_function(ON_TABLE_JS, arg=id_, timeout=TIMEOUT)


def test_reload_links_back_and_forward_never_lose_a_game(servers, new_page):
    cat = catalogs.load("en")
    page, log = new_page()
    page.add_init_script(INSTANT)
    first = "seed=6&rules=pagat&level=intermediate"
    start(page, play_url(servers["root"], "en", first))
    play_on(page, lambda g: len(g.hand.history) >= 4, seed=6)
    kept, url, first_id = session(page), page.url, record(page)["id"]
    assert url.endswith("#seed=6&rules=pagat&level=intermediate")
    # a reload goes on where it was
    page.reload()
    wait_answer(page, 0)
    assert session(page) == kept and page.url == url
    # another game's link deals it from its first move; the game in progress is kept
    page.evaluate("() => { location.hash = '#seed=9&rules=standard&level=beginner'; }")
    wait_table(page, seed=9)
    assert len(game(page).hand.history) <= 2
    assert cat.text("play.js.resume") in page.locator(".gin-notice").inner_text()
    second, second_id = session(page), record(page)["id"]
    # back: the first game as it was, not dealt again; forward: the second as it was
    page.go_back()
    wait_table(page, first_id)
    assert session(page) == kept
    page.go_forward()
    wait_table(page, second_id)
    assert session(page) == second
    # a link the worker refuses leaves the game on the table, and says why (not "example")
    page.evaluate("() => { location.hash = '#seed=%C2%B2'; }")
    page.wait_for_function(
        "() => !document.querySelector('.gin-notice').hidden"
        " && !document.querySelector('.gin-play').hasAttribute('aria-busy')",
        timeout=TIMEOUT,
    )
    wait_table(page, second_id)
    notice = page.locator(".gin-notice").inner_text()
    assert notice.endswith(cat.text("play.js.game_goes_on")) and "example" not in notice
    assert session(page) == second
    # the replay link deals this game again from its first move, and keeps it to resume
    play_on(page, lambda g: len(g.hand.history) >= 4, seed=9)
    played = session(page)
    page.locator(".gin-play-link").click()
    page.wait_for_function(
        "(id) => localStorage.getItem('gin-play-current') !== id", arg=second_id, timeout=TIMEOUT
    )
    wait_table(page, seed=9)
    assert len(game(page).hand.history) <= 2
    page.locator(".gin-notice button.gin-resume").click()
    wait_table(page, second_id)
    assert session(page) == played
    check_clean(log)


def test_two_tabs_on_one_game_never_overwrite_each_other(servers, browser):
    cat = catalogs.load("en")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(INSTANT)
    try:
        one = context.new_page()
        start(one, play_url(servers["root"], "en", "seed=5&rules=standard&level=beginner"))
        two = context.new_page()
        start(two, one.url)
        assert session(two) == session(one)
        before = answers(two)
        play_action(one, reader_move(game(one).hand, 5))
        # the other tab shows the game as it stands now, and says so
        wait_answer(two, before)
        assert cat.text("play.js.other_tab") in two.locator(".gin-notice").inner_text()
        assert session(two) == session(one)
        # a move in it goes on from there; the first tab follows in turn
        before = answers(one)
        play_action(two, reader_move(game(two).hand, 5))
        wait_answer(one, before)
        assert record(one)["rev"] == record(two)["rev"] and session(one) == session(two)
    finally:
        context.close()


def test_a_tampered_stored_game_is_said_and_kept(servers, new_page):
    cat = catalogs.load("en")
    page, log = new_page()
    page.add_init_script(INSTANT)
    start(page, play_url(servers["root"], "en", "seed=6&rules=standard&level=beginner"))
    press(page, ".gin-hint-button")
    stored = record(page)
    spoiled = json.loads(json.dumps(stored))
    spoiled["session"]["advice"]["choices"][0]["reasons"][1] = 1
    page.evaluate(
        "(r) => localStorage.setItem('gin-play-game-' + r.id, JSON.stringify(r))", spoiled
    )
    page.goto(play_url(servers["root"], "en"))
    wait_answer(page, 0)
    reason = cat.text("error.bad_session", field="advice")
    notice = page.locator(".gin-notice").inner_text()
    assert notice.startswith(reason) and cat.text("play.js.kept_copy") in notice
    assert json.loads(page.evaluate("() => localStorage.getItem('gin-play-damaged')")) == spoiled
    assert session(page)["log"] == [] and "gin-hand" in page.locator(".gin-play-view").inner_html()
    check_clean(log)


def test_the_copy_button_copies_the_replay_link(servers, browser):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    try:
        start(page, play_url(servers["root"], "en", "seed=7&rules=standard&level=beginner"))
        page.locator(".gin-copy").click()
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied == servers["root"] + "play/#seed=7&rules=standard&level=beginner"
        text = catalogs.load("en").text("play.copied")
        assert page.locator(".gin-notice").inner_text() == text
    finally:
        context.close()


# --- what the first screen holds, on a phone and a desktop; screenshots ------------------------

FIRST_SCREEN_JS = """() => {
  const h = window.innerHeight, w = window.innerWidth;
  // the first screen of the page, wherever it is scrolled to (in the page's coordinates)
  const inside = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
                           const [top, left] = [r.top + window.scrollY, r.left + window.scrollX];
                           return top >= 0 && top + r.height <= h && left >= 0
                             && left + r.width <= w + 0.5; };
  const cards = [...document.querySelectorAll('.gin-hand .gin-face')];
  const moves = [...document.querySelectorAll('.gin-turn button, .gin-pile.gin-can')];
  const small = [...document.querySelectorAll('.gin-play button')].filter((b) => b.offsetParent)
    .map((b) => b.getBoundingClientRect()).filter((r) => r.width < 24 || r.height < 24).length;
  const table = document.querySelector('.gin-table').getBoundingClientRect();
  return {overflow: document.documentElement.scrollWidth - w, scrolled: window.scrollY,
          table: [Math.round(table.top), Math.round(table.bottom)], height: h,
          hand: cards.length > 0 && cards.every(inside), moves: moves.every(inside),
          prompt: inside(document.querySelector('.gin-prompt')),
          line: inside(document.querySelector('.gin-last-line')), small,
          styled: document.styleSheets.length === document.querySelectorAll('link[rel=stylesheet]').length};
}"""


def reach(page, moment: str, seed: int) -> None:
    """Play on to a moment: after the deal (as it is), after a computer turn, during the
    lay-offs (a game found in which the computer knocks), at the end of a game."""
    if moment == "computer-turn":
        play_on(page, lambda g: g.hand.turn == 0 and len(g.hand.history) >= 4, seed=seed)
    elif moment == "lay-offs":
        play_on(page, lambda g: g.hand.phase == "lay_off", seed=seed)
    elif moment == "game-end":
        play_on(page, lambda g: g.finished, seed=seed)


MOMENTS = ("deal", "computer-turn", "lay-offs", "game-end")


def lay_off_seed() -> int:
    """A deal in which the computer knocks in the first hand and the reader has cards to lay
    off, the reader playing as :func:`reader_move` does (found by the engine, so a change to
    the computer's play finds another)."""
    from ginrummy.advice import lay_off_review
    from ginrummy.match import new_game

    for seed in range(1, 80):
        played = new_game("standard", seed=seed)
        while not played.hand.finished and played.hand.phase != "lay_off":
            hand = played.hand
            move = (
                choose(played, "strong", seed=seed) if hand.turn == 1 else reader_move(hand, seed)
            )
            played = play(played, move)
        hand = played.hand
        if hand.phase == "lay_off" and hand.turn == 0 and lay_off_review(hand)["best"]["lay_offs"]:
            return seed
    raise AssertionError("no deal with lay-offs")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", [(1280, 800), (360, 740)])
def test_the_first_screen_holds_the_hand_and_the_moves(servers, browser, tmp_path, lang, size):
    """At each moment, in each language, on a desktop and a phone: the whole hand, the moves
    and the line that says the computer's last move are inside the first screen, nothing
    scrolls sideways, every button is at least 24 pixels each way; a screenshot of each."""
    width, height = size
    phone = width < 500
    folder = SHOTS or tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    for moment in MOMENTS:
        context = browser.new_context(
            viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
        )
        context.add_init_script(INSTANT)
        page = context.new_page()
        try:
            seed = lay_off_seed() if moment == "lay-offs" else 11
            level = "strong" if moment == "lay-offs" else "beginner"
            start(
                page, play_url(servers["root"], lang, f"seed={seed}&rules=standard&level={level}")
            )
            reach(page, moment, seed)
            page.evaluate("() => window.scrollTo({top: 0, behavior: 'instant'})")
            seen = page.evaluate(FIRST_SCREEN_JS)
            page.screenshot(path=str(folder / f"play-{lang}-{width}x{height}-{moment}.png"))
            assert seen["styled"], (moment, seen)  # every stylesheet in force (never reloaded)
            assert seen["overflow"] <= 0 and seen["small"] == 0, (moment, seen)
            if moment != "game-end":
                assert seen["hand"] and seen["moves"] and seen["prompt"], (moment, seen)
                assert seen["line"], (moment, seen)
            else:  # the end of the game is what the first screen shows
                box = page.locator(".gin-game-end").bounding_box()
                assert box["y"] < height, (moment, box)
            check_words(page, lang)
        finally:
            context.close()


def test_on_a_phone_the_first_touch_never_reloads_the_stylesheets(servers, browser):
    """Material starts at the first touch on a phone and gives every relative href its absolute
    value: a stylesheet so touched reloads, and the table shows unstyled meanwhile (seen by a
    reader mid-game). The page makes them absolute before its first paint."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    context.add_init_script(INSTANT)
    page = context.new_page()
    try:
        sheets = []
        page.on(
            "request", lambda r: sheets.append(r.url) if r.resource_type == "stylesheet" else None
        )
        start(page, play_url(servers["root"], "hu", "seed=11&rules=standard&level=beginner"))
        loaded = len(sheets)
        before = answers(page)
        page.locator(".gin-turn button, .gin-pile.gin-can").first.tap()
        wait_answer(page, before)
        page.wait_for_function(
            "() => window.document$ && 'pipe' in window.document$", timeout=TIMEOUT
        )
        assert loaded >= 4 and sheets[loaded:] == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["hu", "ro"])
def test_on_a_phone_the_coachs_numbers_fit_the_screen(servers, browser, lang):
    """The hint's Details table (five columns, the longest headings in Hungarian and
    Romanian) fits a 360 px screen: no column cut off, nothing to scroll sideways."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    context.add_init_script(INSTANT)
    page = context.new_page()
    try:
        start(page, play_url(servers["root"], lang, "seed=1&rules=standard&level=strong"))
        play_on(page, lambda g: g.hand.turn == 0 and g.hand.phase == "discard", seed=1, lang=lang)
        press(page, ".gin-hint-button")
        details = page.locator(".gin-hint details")
        details.locator("summary").click()
        table = details.locator("table")
        assert table.locator("tbody tr").count() > 3
        box, coach = table.bounding_box(), page.locator(".gin-coach").bounding_box()
        assert (
            box["x"] >= 0 and box["x"] + box["width"] <= min(360, coach["x"] + coach["width"]) + 1
        )
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
