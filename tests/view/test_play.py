"""The play page's presentation (ginview.play) through the worker's JSON boundary: games dealt
from links (refused with their own reason, never taken for another game), moves played and
refused, the computer's moves given one step each, the table (the hand in melds and deadwood,
the card drawn, the cards that knock, the lay-offs that fit), the coach's hints and verdicts in
words, whole games to their end in every language in "you" and "the computer" words with no
placeholder left, and stored games checked field by field. The computer's hidden cards never
reach the page."""

from __future__ import annotations

import dataclasses
import html
import json
import re

import pytest
from ginrummy import RULESETS
from ginrummy.advice import lay_off_review
from ginrummy.bots import choose
from ginrummy.cards import DECK, parse_cards
from ginrummy.hand import legal_actions
from ginrummy.layoffs import lay_offs
from ginrummy.match import game_from_json, new_game, next_hand, play
from ginrummy.playout import policy_action
from ginrummy.public import view
from ginrummy.scoring import optimal_layouts
from ginview import api
from ginview.markup import card_name, card_text, faces
from ginview.play import BOT, START, YOU, Session, action_label, page_html, read_link
from ginview.play.coach import hint_order, why_text
from ginview.play.views import choice_label, hand_end_text, rule_tips, turn_moves

from sitegen import catalogs
from sitegen.languages import languages

LANGUAGES = list(languages())
PLACEHOLDER = re.compile(r"\{\w+(?::\w+)?\}")


@pytest.fixture(autouse=True)
def installed():
    catalogs.install_all()


def call(session, move, lang="en", follow=True) -> dict:
    """The answer to a move; then, when the computer is to play and ``follow``, the answer to
    its turn (as the page asks for it)."""
    response = api.call({"op": "play", "lang": lang, "session": session, "move": move})
    assert response["ok"], response
    result = response["result"]
    for text in [result["html"], *(s["html"] for s in result["steps"]), *result["announce"]]:
        assert not PLACEHOLDER.search(text), PLACEHOLDER.search(text)
    if follow and result["waiting"]:
        assert "gin-pile gin-stock gin-can" not in result["html"]  # nothing to press meanwhile
        return call(result["session"], {"computer": True}, lang)
    return result


def refused(session, move, lang="en") -> dict:
    response = api.call({"op": "play", "lang": lang, "session": session, "move": move})
    assert not response["ok"], response
    return response["error"]


def new(link="seed=5&rules=standard&level=strong", coach=True, lang="en") -> dict:
    result = call(None, {"new": {"link": link}}, lang)
    if not coach:
        result = call(result["session"], {"coach": False}, lang)
    return result


def game_of(result):
    return game_from_json(result["session"]["game"])


def hidden_cards(result) -> set[str]:
    hand = game_of(result).hand
    if hand.finished or (hand.phase == "lay_off" and hand.knocker == BOT):
        return set()
    return set(str(hand.hands[BOT]).split()) - set(str(view(hand, YOU).known).split())


def shown_cards(text: str, lang: str) -> set[str]:
    """The cards a view names: drawn, in a move, or spoken (a name as a whole word: Italian's
    "re di fiori" is not in "tre di fiori")."""
    cat = catalogs.load(lang)
    return {
        str(card)
        for card in DECK
        if f'data-key="c{card}"' in text
        or f"&quot;card&quot;:&quot;{card}&quot;" in text
        or re.search(rf"(?<!\w){re.escape(card_name(card, cat))}(?!\w)", text)
    }


def moves_in(text: str) -> list[dict]:
    return [json.loads(html.unescape(m)) for m in re.findall(r'data-move="([^"]*)"', text)]


# --- links -------------------------------------------------------------------------------------


def test_a_link_deals_the_same_game():
    one, two = new(), new()
    assert one["session"] == two["session"] and one["html"] == two["html"]
    assert one["link"] == "seed=5&rules=standard&level=strong"
    assert read_link("seed=9") == {**START, "seed": 9}
    hollywood = new("seed=5&rules=oklahoma&level=beginner&format=hollywood")
    assert hollywood["link"] == "seed=5&rules=oklahoma&level=beginner&format=hollywood"
    assert hollywood["session"]["game"]["format"] == "hollywood"
    assert new(hollywood["link"])["session"] == hollywood["session"]


@pytest.mark.parametrize(
    "link, code",
    [
        ("seed=x", "bad_game_link"),
        ("seed=²", "bad_game_link"),  # a digit to str.isdigit, not to int()
        ("seed=%C2%B2", "bad_game_link"),
        ("seed=1&seed=2", "bad_game_link"),  # a setting given twice: not "the last wins"
        ("colour=red", "bad_game_link"),
        ("seed=" + "9" * 17, "bad_game_link"),
        ("seed=1&rules=nope", "unknown_rules"),
        ("seed=1&level=godlike", "unknown_level"),
        ("seed=1&format=columns", "bad_setting"),
        ("seed=1&gin_bonus=lots", "bad_rule"),
        ("seed=1&gin_bonus=20&rules=nope", "unknown_rules"),
        ("seed=1&seed=2", "bad_game_link"),
        ("rules=pagat&seed=1&rules=standard", "bad_game_link"),
    ],
)
def test_a_bad_link_is_refused_with_its_reason(link, code):
    error = refused(None, {"new": {"link": link}}, "ro")
    assert error["code"] == code
    assert error["message"] and catalogs.load("ro").text("error.internal_error") != error["message"]
    # a game link is never called an example
    assert "exemplu" not in error["message"] and "example" not in error["message"]


def test_a_game_with_other_rules_gets_a_link_its_reader_accepts():
    """A stored game whose rules are not a preset's: its link names the nearest preset and the
    rules that differ, and deals that very game again."""
    house = RULESETS["pagat"].replace(gin_bonus=30, big_gin_bonus=40, tie="knocker")
    game = new_game(house, seed=11)
    session = {**new()["session"], "game": Session(game).to_json()["game"]}
    shown = call(session, {"show": True})
    assert (
        shown["link"]
        == "seed=11&rules=pagat&level=strong&gin_bonus=30&big_gin_bonus=40&tie=knocker"
    )
    again = game_of(call(None, {"new": {"link": shown["link"]}}))
    assert again.rules.replace(name="custom") == house.replace(name="custom")
    assert (again.seed, again.hand.upcard, again.hand.dealer) == (
        11,
        game.hand.upcard,
        game.hand.dealer,
    )
    assert again.hand.hands[YOU] == game.hand.hands[YOU]


@pytest.mark.parametrize("coach", ["true", 1, None, "false"])
def test_a_new_game_takes_the_coach_only_as_true_or_false(coach):
    response = api.call(
        {
            "op": "play",
            "lang": "en",
            "session": None,
            "move": {"new": {"link": "seed=1", "coach": coach}},
        }
    )
    assert not response["ok"] and response["error"]["params"]["field"] == "coach"
    for flag in (True, False):
        on = api.call(
            {
                "op": "play",
                "lang": "en",
                "session": None,
                "move": {"new": {"link": "seed=1", "coach": flag}},
            }
        )
        assert on["result"]["session"]["coach"] is flag


# --- stored games ------------------------------------------------------------------------------


@pytest.mark.parametrize("spoiled", [None, 7, {"v": 1}, {"v": 3}, {"v": True}, "text"])
def test_a_spoiled_session_is_refused_as_such(spoiled):
    error = refused(spoiled, {"show": True}, "hu")
    assert error["code"] == "bad_session"
    assert error["message"] != catalogs.load("hu").text("error.internal_error")


def spoil(session, path, value):
    """The session with the value at ``path`` (keys and indexes) replaced."""
    data = json.loads(json.dumps(session))
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return data


def test_a_tampered_stored_game_is_refused_naming_its_field():
    """Every field checked, each by its own rule: a tampered reason of the coach's, a log
    entry, a plan outside the lay-offs, a card not in hand: ``bad_session``, never an internal
    error."""
    result = new(coach=True)
    session = call(result["session"], {"hint": True})["session"]
    assert session["advice"]["choices"][0]["reasons"]
    cases = [
        (("advice", "choices", 0, "reasons", 1), 1, "advice"),
        (("advice", "choices", 0, "points"), "many", "advice"),
        (("advice", "choices"), [], "advice"),
        (("advice", "at"), "now", "advice"),
        (("game",), 7, "game"),
        (("game", "hand", "turn"), 7, "game"),
        (("level",), "godlike", "level"),
        (("coach",), "true", "coach"),
        (("hint",), 1, "hint"),
        (("knock_card",), "KS", "knock_card"),
        (("order",), "7H 7H", "order"),
        (("order",), "ZZ", "order"),
        (("plan",), [{"card": "7H", "meld": 0}], "plan"),
        (("log",), [{"hand": 1}], "log"),
        (("log",), "none", "log"),
        (("first",), None, "first"),
    ]
    for path, value, field in cases:
        error = refused(spoil(session, path, value), {"show": True})
        assert (error["code"], error["params"]["field"]) == ("bad_session", field), path
    extra = {**session, "selected": None}
    assert refused(extra, {"show": True})["params"]["field"] == "selected"


def test_a_session_stored_by_the_page_before_the_table_is_read():
    """The first version's fields (``selected`` included): the game goes on."""
    session = new()["session"]
    old = {k: session[k] for k in ("game", "level", "coach", "log", "plan", "advice")}
    shown = call({"v": 1, **old, "selected": None}, {"show": True})
    assert shown["session"]["v"] == 2 and shown["session"]["game"] == session["game"]


def test_a_spoiled_entry_of_the_log_is_refused_whichever_field_it_spoils():
    session = new(coach=False)["session"]
    move = legal_actions(game_from_json(session["game"]).hand)[0].to_json()
    entry = {"hand": 1, "action": move, "best": move, "cost": 0}

    def shown(log):
        return api.call({"op": "play", "session": {**session, "log": log}, "move": {"show": True}})

    assert shown([entry])["ok"]
    for spoiled in [
        {**entry, "hand": "1"},
        {**entry, "cost": "0"},
        {**entry, "action": {}},
        {**entry, "best": {}},
        {**entry, "why": {"code": 5}},
        {**entry, "top": "ZZ"},
        {**entry, "seen": True},
        7,
    ]:
        error = shown([entry, spoiled])["error"]
        assert (error["code"], error["params"]["field"]) == ("bad_session", "log"), spoiled


# --- the table ---------------------------------------------------------------------------------


def test_the_build_draws_the_deal_a_first_visit_then_plays():
    """The page before the engine is live shows the first visit's game, at the beginner level,
    with the invitation to change it; the page's script deals that very game."""
    cat = catalogs.load("en")
    built = page_html(cat)
    start = html.unescape(re.search(r'data-gin-start="([^"]*)"', built).group(1))
    assert start == "seed=1&rules=standard&level=beginner"
    dealt = call(None, {"new": {"link": start, "first": True}})
    drawn = built.split('<div class="gin-play-view">')[1]
    assert re.sub(r" disabled", "", drawn).startswith(dealt["html"])
    assert cat.text("play.first_visit") in html.unescape(dealt["html"])
    # the invitation goes once the reader starts another game
    assert cat.text("play.first_visit") not in html.unescape(new()["html"])


def test_the_computers_moves_come_one_step_each_as_the_reader_saw_them():
    """The reader's discard is answered at once, the computer waiting; then its turn comes,
    each move a step (the table then, nothing pressable, and its sentence)."""
    cat = catalogs.load("en")
    result = new("seed=3&rules=standard&level=beginner", coach=False)
    for _ in range(40):
        hand = game_of(result).hand
        if hand.phase == "discard" and hand.turn == YOU:
            break
        legal = legal_actions(hand)
        result = call(
            result["session"],
            {"action": next(a for a in legal if a.kind in ("pass", "draw_stock")).to_json()},
        )
    before = game_of(result).hand
    card = before.hands[YOU][0]
    move = {"action": {"kind": "discard", "player": 0, "card": str(card)}}
    mine = call(result["session"], move, follow=False)
    assert mine["waiting"] and mine["steps"] == []
    assert mine["announce"] == [cat.text("play.last.you.discard", card=card_text(str(card)))]
    after = call(mine["session"], {"computer": True})
    hand = game_of(after).hand
    steps = after["steps"]
    computer = [e for e in hand.history[len(before.history) + 1 :]]
    assert len(steps) == len(computer) >= 2 and not after["waiting"]
    assert [s["say"] for s in steps] == after["announce"][: len(steps)]
    for step in steps:  # nothing can be pressed while a step is shown
        buttons = re.findall(r"<button[^>]*>", step["html"])
        assert 'class="gin-table"' in step["html"] and all(" disabled" in b for b in buttons)
    said = {e.kind for e in computer}
    assert said <= {"draw_stock", "draw_discard", "discard", "knock", "gin", "big_gin"}
    # the computer's last moves are marked on the table, and said beside the piles
    assert "gin-last" in after["html"]
    line = re.search(r'<p class="gin-last-line">(.*?)</p>', after["html"]).group(1)
    assert html.unescape(line).endswith(steps[-1]["say"])


def test_the_card_drawn_stays_marked_until_the_discard():
    result = new("seed=3&rules=standard&level=beginner", coach=False)
    for _ in range(40):
        hand = game_of(result).hand
        if (
            hand.phase == "draw"
            and hand.turn == YOU
            and any(a.kind == "draw_stock" for a in legal_actions(hand))
        ):
            break
        legal = legal_actions(hand)
        pick = next((a for a in legal if a.kind in ("pass", "draw_stock")), legal[0])
        result = call(result["session"], {"action": pick.to_json()})
    drawn = call(result["session"], {"action": {"kind": "draw_stock", "player": 0}})
    hand = game_of(drawn).hand
    card = hand.hands[YOU][-1]
    assert re.search(
        rf'class="gin-face gin-suit-{card.suit} gin-drawn[^"]*" data-key="c{card}" data-from="stock"',
        drawn["html"],
    )
    assert drawn["announce"] == [
        catalogs.load("en").text("play.last.you.draw_stock_card", card=card_text(str(card)))
    ]
    assert drawn["html"].count("gin-drawn") == 1


def test_the_hand_is_drawn_in_melds_and_deadwood_in_the_readers_order():
    result = new("seed=8&rules=standard&level=beginner", coach=False)
    hand = game_of(result).hand
    cards = [str(c) for c in hand.hands[YOU]]
    groups = re.findall(
        r'class="gin-group (gin-meld|gin-deadwood)"[^>]*>(.*?)</div>', result["html"]
    )
    shown = [c for _, inner in groups for c in re.findall(r'data-key="c(\w\w)"', inner)]
    assert sorted(shown) == sorted(cards)
    order = list(reversed(shown))
    moved = call(result["session"], {"order": order})
    again = re.findall(
        r'class="gin-group (?:gin-meld|gin-deadwood)"[^>]*>(.*?)</div>', moved["html"]
    )
    dead = [
        c
        for c in re.findall(r'data-key="c(\w\w)"', again[-1] if "deadwood" in moved["html"] else "")
    ]
    assert moved["session"]["order"] == " ".join(order)
    assert game_of(moved) == game_of(result)  # nothing played
    if len(dead) > 1:  # the deadwood in the reader's order
        assert dead == [c for c in order if c in dead]
    wrong = call(result["session"], {"order": order[:-1]})  # not each card once: refused
    assert wrong["refused"] and wrong["session"] == result["session"]


def test_the_computers_hidden_cards_never_reach_the_page():
    result = new("seed=12&rules=standard&level=strong", coach=False)
    for _ in range(60):
        hand = game_of(result).hand
        if hand.finished:
            break
        texts = [result["html"], *(s["html"] for s in result["steps"]), *result["announce"]]
        assert not hidden_cards(result) & shown_cards(" ".join(texts), "en")
        if hand.phase == "lay_off":
            result = call(result["session"], {"lay_offs_done": True})
            continue
        result = call(result["session"], {"action": choose(hand, "beginner", seed=3).to_json()})


# --- knocking and laying off ------------------------------------------------------------------


def find_state(seeds, want, level="intermediate", player="beginner"):
    """Play seeded games (the reader as a bot of ``player``) until ``want(hand)``."""
    for seed in seeds:
        result = new(f"seed={seed}&rules=standard&level={level}", coach=False)
        for _ in range(80):
            hand = game_of(result).hand
            if want(hand):
                return result
            if hand.finished or hand.turn != YOU:
                break
            action = choose(hand, player, seed=seed)
            if action.kind in ("knock", "gin", "big_gin"):
                break
            result = call(result["session"], {"action": action.to_json()})
    raise AssertionError("no seed reached the state wanted")


def knock_layouts(hand):
    return {
        a.card: len(optimal_layouts([c for c in hand.hands[YOU] if c is not a.card]))
        for a in legal_actions(hand)
        if a.kind == "knock"
    }


def test_knocking_is_one_control_then_the_discard_the_cards_that_knock_marked():
    cat = catalogs.load("en")
    result = find_state(
        range(1, 80), lambda h: h.turn == YOU and h.phase == "discard" and knock_layouts(h)
    )
    hand = game_of(result).hand
    knocks = {str(c) for c in knock_layouts(hand)}
    marked = set(re.findall(r'gin-can-(?:knock|gin)[^"]*" data-key="c(\w\w)"', result["html"]))
    assert marked == knocks
    assert {"knock": True} in moves_in(result["html"])
    knocking = call(result["session"], {"knock": True})
    buttons = [m for m in moves_in(knocking["html"]) if "action" in m or "knock" in m]
    assert {m.get("action", {}).get("card") or m.get("knock") for m in buttons} - {False} == knocks
    assert {"knock": False} in buttons  # and one to take it back
    assert cat.text("play.prompt.knocking") in html.unescape(knocking["html"])
    back = call(knocking["session"], {"knock": False})
    assert back["html"] == result["html"]
    other = next(c for c in map(str, hand.hands[YOU]) if c not in knocks)
    wrong = call(knocking["session"], {"knock": other})
    assert wrong["refused"] == cat.text("error.cannot_knock_with", card=card_text(other))


def test_the_knocker_chooses_among_the_layouts_shown_as_melds():
    result = find_state(
        range(1, 120),
        lambda h: (
            h.turn == YOU and h.phase == "discard" and any(n > 1 for n in knock_layouts(h).values())
        ),
    )
    hand = game_of(result).hand
    card = next(c for c, n in knock_layouts(hand).items() if n > 1)
    chosen = call(call(result["session"], {"knock": True})["session"], {"knock": str(card)})
    layouts = optimal_layouts([c for c in hand.hands[YOU] if c is not card])
    offered = [m["action"]["melds"] for m in moves_in(chosen["html"]) if "action" in m]
    assert offered == [[str(meld) for meld in layout] for layout in layouts]
    assert chosen["html"].count('class="gin-move gin-layout"') == len(layouts)
    played = call(chosen["session"], moves_in(chosen["html"])[-2])  # the last layout
    assert [str(m) for m in game_of(played).hand.layout] == offered[-1]


def test_in_the_lay_off_phase_only_the_cards_that_fit_are_offered_with_where():
    cat = catalogs.load("en")
    result = find_state(
        range(1, 80),
        lambda h: h.phase == "lay_off" and lay_off_review(h)["best"]["lay_offs"],
        player="beginner",
    )
    hand = game_of(result).hand
    offers = [m["lay_off"] for m in moves_in(result["html"]) if "lay_off" in m]
    assert offers
    from ginrummy.advice import check_lay_off_plan

    for offer in offers:  # each fits, by the engine's own check
        check_lay_off_plan(hand, ((offer["card"], offer["meld"]),))
    fitting = set()
    for card in hand.hands[YOU]:
        for index in range(len(hand.layout)):
            try:
                check_lay_off_plan(hand, ((card, index),))
                fitting.add((str(card), index))
            except ValueError:
                pass
    assert {(o["card"], o["meld"]) for o in offers} == fitting
    # the hint works here: the best lay-offs from where the reader stands
    hinted = call(result["session"], {"hint": True})
    best = lay_offs(hand.layout, hand.hands[YOU])
    first = best.lay_offs[0]
    text = html.unescape(hinted["html"])
    assert (
        cat.text("play.lay_off_onto", card=card_text(str(first.card)), meld=faces(str(first.onto)))
        in text
        or faces(str(first.onto)) in text
    )
    # lay one off, then Done: the lay-off is played as made
    laid = call(result["session"], {"lay_off": offers[0]})
    assert laid["session"]["plan"] == [offers[0]]
    done = call(laid["session"], {"lay_offs_done": True})
    assert [(str(x.card), x.meld_index) for x in game_of(done).hand.result.lay_offs][:1] == [
        (offers[0]["card"], offers[0]["meld"])
    ]
    assert done["announce"][-1] == hand_end_text(game_of(done), cat)


def test_a_card_that_does_not_fit_is_refused_with_its_reason():
    result = find_state(range(1, 80), lambda h: h.phase == "lay_off", player="beginner")
    hand = game_of(result).hand
    for card in hand.hands[YOU]:
        for index in range(len(hand.layout)):
            answer = call(result["session"], {"lay_off": {"card": str(card), "meld": index}})
            if answer["refused"]:
                assert answer["session"]["plan"] == []
                return
    raise AssertionError("every card fits")


# --- the coach ---------------------------------------------------------------------------------


def first_discard(lang: str) -> dict:
    """Seed 1: the reader passes the upcard and draws from the stock, then is to discard."""
    result = new("seed=1", lang=lang)
    for move in ({"kind": "pass", "player": 0}, {"kind": "draw_stock", "player": 0}):
        result = call(result["session"], {"action": move}, lang)
    return result


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hint_names_the_best_move_and_why_with_at_most_two_others(lang):
    cat = catalogs.load(lang)
    result = first_discard(lang)
    hinted = call(result["session"], {"hint": True}, lang)
    advice = hinted["session"]["advice"]
    text = html.unescape(hinted["html"])
    shown = hint_order(advice)  # the coach's best, or a move as good with higher numbers
    best = action_label(shown[0]["action"], cat)
    sentence = re.search(r'<p class="gin-hint-best">(.*?)</p>', text).group(1)
    assert best in sentence
    others = re.search(r'<p class="gin-hint-others">(.*?)</p>', text)
    named = [
        c
        for c in shown[1:]
        if action_label(c["action"], cat) in (others.group(1) if others else "")
    ]
    assert 1 <= len(named) <= 2
    # the numbers are behind "Details": every choice, with its expected points
    details = text.split('class="gin-hint"')[1].split('class="gin-details"')[1]
    assert details.count("<tr>") == len(advice["choices"]) + 1
    # the move then played is judged by the very ranking shown
    worst = advice["choices"][-1]
    played = call(hinted["session"], {"action": worst["action"]}, lang)
    entry = played["session"]["log"][-1]
    assert entry["cost"] == round(worst["cost_points"], 2)
    assert entry["mistake"] == worst["mistake"]


def test_the_coach_never_recommends_one_move_and_then_calls_another_better():
    """Where the hint's first move is not the engine's own best (the two within doubt of each
    other), a mistake names the move the hint recommended, and that move is never a mistake;
    the others in the hint say how often they win the game in the details' whole percents."""
    cat = catalogs.load("en")
    seen = 0
    for seed in range(1, 9):
        result = new(f"seed={seed}")
        while not game_of(result).hand.finished and seen < 3:
            hinted = call(result["session"], {"hint": True})
            advice = hinted["session"]["advice"]
            shown = hint_order(advice)
            text = html.unescape(hinted["html"])
            for other in shown[1:3]:
                chance = round(100 * other["win"])
                if chance < round(100 * shown[0]["win"]):
                    label = choice_label(other["action"], game_of(hinted), cat)
                    assert f"{label}” (game won: {chance}%" in text
            if shown[0]["action"] == advice["choices"][0]["action"]:
                result = call(hinted["session"], {"action": shown[0]["action"]})
                continue
            seen += 1
            for choice in advice["choices"]:
                played = call(hinted["session"], {"action": choice["action"]}, follow=False)
                entry = played["session"]["log"][-1]
                if choice["action"] == shown[0]["action"]:
                    assert not entry["mistake"]
                elif entry["mistake"]:
                    assert entry["best"] == shown[0]["action"], (seed, choice)
                    said = html.unescape(played["html"])
                    better = choice_label(shown[0]["action"], game_of(hinted), cat)
                    assert f"“{better}” was better" in said
            break
    assert seen >= 2  # the case is common: at least two such positions in these games


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_mistake_names_the_better_move_and_why(lang):
    cat = catalogs.load(lang)
    result = first_discard(lang)
    hand = game_of(result).hand
    from ginrummy.melds import best_melds

    meld = best_melds(hand.hands[YOU]).melds[0]
    broken = {"kind": "discard", "player": 0, "card": str(meld.cards[0])}
    session = result["session"]
    for _ in range(8):  # the reader thinks: the coach refines its ranking meanwhile
        session = call(session, {"ponder": True}, lang)["session"]
    played = call(session, {"action": broken}, lang)
    entry = played["session"]["log"][-1]
    assert entry["mistake"] and entry["why"] and entry["cost"] >= 1
    text = html.unescape(played["html"])
    mistake = re.search(r'<p class="gin-mistake">(.*?)</p>', text).group(1)
    assert action_label(broken, cat) in mistake
    # worded after the fact: what the better move would have done, not what it does
    assert why_text(entry["why"], cat, after=True) in mistake
    if lang == "en":
        assert "would have" in mistake and why_text(entry["why"], cat) not in mistake


def test_the_coach_names_the_rule_at_each_discard_of_the_reader():
    """Gin when it is legal, else a knock when it is, else not yet; first the card just taken
    from the pile, which may not be thrown."""
    cat, met = catalogs.load("en"), set()
    for seed in range(400):
        game = new_game(seed=seed)
        while not game.hand.finished:
            hand = game.hand
            if hand.turn == YOU and hand.phase == "discard":
                kinds = {action.kind for action in legal_actions(hand)}
                case = (
                    "gin"
                    if kinds & {"gin", "big_gin"}
                    else "knock"
                    if "knock" in kinds
                    else "no_knock"
                )
                limit = hand.rules.knock_limit_for(hand.upcard)
                tips = [cat.text(f"play.tip.{case}", limit=limit)]
                if hand.taken is not None:
                    tips.insert(0, cat.text("play.tip.taken", card=faces(str(hand.taken))))
                assert rule_tips(Session(game), cat) == tips, (seed, str(hand.hands[YOU]))
                met.add((case, hand.taken is not None))
            game = play(game, policy_action(hand))  # plays on for gin at times
        if len(met) == 6:
            break
    assert len(met) == 6, met


def test_pondering_works_out_the_ranking_without_showing_it():
    result = new("seed=1")
    pondered = call(result["session"], {"ponder": True})
    assert pondered["session"]["advice"] and not pondered["session"]["hint"]
    assert pondered["html"] == result["html"]
    hinted = call(pondered["session"], {"hint": True})
    assert hinted["session"]["advice"] == pondered["session"]["advice"]


# --- moves refused, whole games ------------------------------------------------------------------


def test_an_illegal_move_is_refused_and_nothing_is_played():
    result = new(coach=False)
    hand = game_of(result).hand
    legal = {a.kind for a in legal_actions(hand)}
    wrong = "discard" if "discard" not in legal else "draw_stock"
    move = {
        "kind": wrong,
        "player": 0,
        **({"card": str(hand.hands[0]).split()[0]} if wrong == "discard" else {}),
    }
    after = call(result["session"], {"action": move})
    assert after["refused"] and after["session"]["game"] == result["session"]["game"]
    assert html.escape(after["refused"], quote=False) in after["html"] and after["announce"] == [
        after["refused"]
    ]


FORBIDDEN_ROLES = {  # the reader is never a role or a letter; Romanian knocks with "a închide"
    "en": ["Player A", "Player B", "opponent", "defender", "knocker"],
    "ro": ["Jucătorul A", "Jucătorul B", "adversar", "cel care a închis", "a bătut", "bateți"],
    "hu": ["A játékos", "B játékos", "ellenfél", "kopogó"],
    "it": ["Giocatore A", "Giocatore B", "avversario", "chi ha bussato ha", "llenatore"],
}


@pytest.mark.parametrize(
    "lang, seed, scoring",
    list(
        zip(
            LANGUAGES, [1, 2, 3, 4], ["standard", "hollywood", "standard", "hollywood"], strict=True
        )
    ),
)
def test_whole_games_in_you_and_computer_words_to_their_end(lang, seed, scoring):
    """The reader plays simply against the beginner, the coach on for the first hand. Every
    view shows only what the reader may know, no placeholder and no role for the reader; the
    game ends in a moment of its own (who won, the totals, a new game), the sheet, the
    review."""
    cat = catalogs.load(lang)
    result = new(f"seed={seed}&rules=standard&level=beginner&format={scoring}", lang=lang)
    ended = None
    for _ in range(2000):
        game = game_of(result)
        ended = result["ended"] or ended
        if game.finished:
            break
        text = " ".join(
            [result["html"], *(s["html"] for s in result["steps"]), *result["announce"]]
        )
        assert not hidden_cards(result) & shown_cards(text, lang)
        for word in FORBIDDEN_ROLES[lang]:
            assert word not in html.unescape(text), word
        if game.number > 1 and result["session"]["coach"]:
            result = call(result["session"], {"coach": False}, lang)
        hand = game.hand
        if hand.finished:
            result = call(result["session"], {"next": True}, lang)
            continue
        if hand.phase == "lay_off":
            result = call(result["session"], {"lay_offs_done": True}, lang)
            continue
        legal = legal_actions(hand)
        ends = [a for a in legal if a.kind in ("big_gin", "gin", "knock")]
        action = (
            ends[0]
            if ends
            else next((a for a in legal if a.kind in ("pass", "draw_stock")), legal[-1])
        )
        result = call(result["session"], {"action": action.to_json()}, lang)
        assert result["refused"] is None
    game = game_of(result)
    assert game.finished and game.format == scoring
    text = html.unescape(result["html"])
    winner = game.sheet.winner
    headline = cat.text("play.game_tied") if winner is None else cat.text(f"play.game_won.{winner}")
    assert f'class="gin-game-headline">{headline}<' in text
    assert (
        cat.text("play.final_totals", you=game.sheet.totals[YOU], computer=game.sheet.totals[BOT])
        in text
    )
    assert "data-new-game" in result["html"] and 'class="gin-play-review"' in result["html"]
    assert ended == {"won": winner == YOU, "accuracy": ended["accuracy"]}
    log = result["session"]["log"]
    assert log and all(e["hand"] == 1 for e in log)
    good = sum(not e["mistake"] for e in log)
    assert ended["accuracy"] == round(100 * good / len(log))
    assert cat.text("play.accuracy", percent=ended["accuracy"], good=good, count=len(log)) in text
    # the review lists the mistakes only: a move called good during the game is never listed
    review = text.split('class="gin-play-review"', 1)[1]
    assert review.count("<tr><td>") == len(log) - good


def _void(game):
    """``game`` with its current hand played out to a void: nobody knocks."""
    while not game.hand.finished:
        legal = legal_actions(game.hand)
        game = play(game, next(a for a in legal if a.kind in ("pass", "draw_stock", "discard")))
    assert game.hand.result is None
    return game


@pytest.mark.parametrize("void_deal", ["same", "next"])
def test_a_void_hand_says_who_deals_next_as_the_rules_say(void_deal):
    """The stock down to two cards: the play page and a whole-hand example say the same dealer
    deals again, or the deal passes, as the rules' ``void_deal`` has it, in every language."""
    from ginview.examples import KINDS
    from ginview.play.views import end_html

    game = _void(new_game(RULESETS["standard"].replace(void_deal=void_deal), seed=4))
    texts = set()
    for lang in languages():
        cat = catalogs.load(lang)
        said = cat.text(f"hand.dead.{void_deal}")
        assert hand_end_text(game, cat) == said
        assert html.escape(said, quote=True) in end_html(Session(game), cat)
        end = {"outcome": "dead", "rules": {"void_deal": void_deal}}
        drawn = KINDS["hand"].output_html({}, {"moves": [], "end": end}, cat)
        assert html.escape(said, quote=False) in str(drawn)
        assert said != cat.text(f"hand.dead.{'next' if void_deal == 'same' else 'same'}")
        texts.add(said)
    assert len(texts) == len(languages())


@pytest.mark.parametrize("format", ["standard", "hollywood"])
def test_the_score_sheet_shows_a_void_hand_in_its_place(format):
    """A void hand keeps its number on the sheet (the table's count), so the play page's sheet
    shows it as a row where nobody scored, never a gap from hand 1 to hand 3, in every
    language."""
    from ginview.play.views import sheet_html

    game = _void(new_game("standard", seed=4, format=format))  # hand 1: void
    game = next_hand(game)
    while not game.hand.finished:  # hand 2: played out by the bots
        game = play(game, choose(game, "beginner", seed=0))
    assert game.hand.result is not None
    game = _void(next_hand(game))  # hand 3: void, the hand just over
    assert game.voids == (1, 3)
    for lang in languages():
        cat = catalogs.load(lang)
        drawn = sheet_html(game, cat)
        first = drawn.split("</table>", 1)[0]  # the sheet, or Hollywood's first column
        numbers = re.findall(r"<tr(?: class=\"gin-void\")?><td>(\d+)</td>", first)
        assert numbers == ["1", "2", "3"], (lang, numbers)
        void = html.escape(cat.text("ui.void_hand"), quote=False)
        assert first.count(f'<tr class="gin-void"><td>1</td><td>{void}</td><td>0</td>') == 1
        assert first.count(f'<tr class="gin-void"><td>3</td><td>{void}</td><td>0</td>') == 1
        assert not PLACEHOLDER.search(drawn)


def _after_the_computers_lay_offs(laid_off: bool):
    """A finished hand in which the reader knocked and the computer laid off (some cards, or
    none), both playing as the base policy (the computer's lay-offs its bot's own choice)."""
    for seed in range(200):
        game = new_game("standard", seed=seed)
        while not game.hand.finished:
            hand = game.hand
            if hand.phase == "lay_off" and hand.turn == BOT:
                game = play(game, choose(game, "intermediate", seed=seed))
                break
            game = play(game, policy_action(hand))
        hand = game.hand
        last = hand.history[-1]
        if last.kind == "lay_off" and last.player == BOT and bool(hand.result.lay_offs) == laid_off:
            return hand
    raise AssertionError("no such hand")


@pytest.mark.parametrize("laid_off", [True, False])
def test_the_line_beside_the_piles_says_what_the_computer_laid_off(laid_off):
    from ginview.play.table import last_line

    cat = catalogs.load("en")
    hand = _after_the_computers_lay_offs(laid_off)
    said = last_line(hand, cat)
    nothing = cat.text("play.last.bot.lay_off_none")
    assert (nothing in said) != laid_off, said


def test_a_reader_with_no_melds_to_lay_out_is_never_told_they_laid_them_out():
    """The computer knocks and the reader holds no meld: the line beside the piles says there
    was nothing to lay out (an Italian reader was told "you laid out your melds")."""
    from ginview.play.table import last_line

    cat = catalogs.load("en")
    said = set()
    for seed in range(300):
        game = new_game("standard", seed=seed)
        while not game.hand.finished:
            game = play(game, policy_action(game.hand))
        hand, last = game.hand, game.hand.history[-1]
        if last.kind == "lay_off" and last.player == YOU and not hand.result.defender_melds:
            line = last_line(hand, cat)
            assert "your melds and" not in line, line
            key = "play.last.you.lay_off" + ("" if hand.result.lay_offs else "_none")
            assert cat.text(key + "_no_melds") in line, line
            said.add(key)
    assert len(said) == 2  # both with and without lay-offs were met


@pytest.mark.parametrize("lang", ["en", "ro", "hu", "it"])
def test_a_next_best_move_says_how_often_it_wins_as_the_details_do_never_zero_less(lang):
    from ginview.play.views import other_text

    cat = catalogs.load(lang)
    game = new_game("standard", seed=1)
    action = {"kind": "draw_stock", "player": game.hand.turn}
    best = {"action": {**action, "kind": "take_upcard"}, "win": 0.534}
    even = other_text({"action": action, "win": 0.529}, best, game, cat)
    less = other_text({"action": action, "win": 0.511}, best, game, cat)
    assert even == cat.text("play.hint.other_even", move=cat.text("play.move.draw_stock"))
    percent = [cat.text("play.percent", percent=p) for p in (51, 53)]
    assert (
        percent[0] in less
        and percent[1] in less
        and less.index(percent[0]) < less.index(percent[1])
    )


def test_a_hint_never_recommends_a_move_its_own_details_rate_lower():
    """Within doubt the coach keeps its usual move (Q♠ here), though another (8♦) is a little
    ahead: the hint and its details show the moves as the numbers rank them (three round-4
    readers saw a hint recommend a move its own table rated lower on every column)."""
    from ginview.play.coach import best_choices

    def choice(card, win, points, cost_points):
        action = {"kind": "discard", "player": 0, "card": card}
        return {"action": action, "win": win, "points": points, "cost_points": cost_points}

    kept, ahead, worse = (
        choice("QS", 0.53, 4.6, 0.0),
        choice("8D", 0.54, 6.2, 0.0),
        choice("2C", 0.50, 1.0, 1.4),
    )
    assert best_choices({"choices": [kept, ahead, worse]}) == [ahead, kept, worse]
    assert best_choices({"choices": [kept, worse]}) == [kept, worse]


def holding(eleven: str):
    """A game at the reader's first discard, their hand made ``eleven``."""
    game = new_game(seed=1)
    while not (game.hand.turn == YOU and game.hand.phase == "discard"):
        game = play(game, policy_action(game.hand))
    cards = parse_cards(eleven)
    hands = tuple(cards if p == YOU else held for p, held in enumerate(game.hand.hands))
    return dataclasses.replace(game, hand=dataclasses.replace(game.hand, hands=hands))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_big_gin_button_has_a_label_of_its_own(lang):
    """The button (play.big_gin) is not the move's name that the coach quotes in a sentence
    (play.move.big_gin: a noun phrase in Hungarian, "a big gin bemondása")."""
    game = holding("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS")
    cat = catalogs.load(lang)
    assert "big_gin" in {a.kind for a in legal_actions(game.hand)}
    _, buttons = turn_moves(Session(game), cat, True)
    big = [b for b in buttons if "big_gin" in b]
    assert len(big) == 1 and big[0].endswith(f">{html.escape(cat.text('play.big_gin'))}</button>")
    if lang == "hu":
        assert cat.text("play.move.big_gin") not in big[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hand_that_may_knock_or_go_gin_says_both_on_its_button(lang):
    """Discarding A♦ goes gin, discarding 5♣ knocks with 1: the button says both (a Hungarian
    editor found "Knock" alone where a marked card went gin)."""
    cat, game = catalogs.load(lang), holding("2C 3C 4C 5C 5H 6H 7H 9S 9D 9H AD")
    _, buttons = turn_moves(Session(game), cat, True)
    knock = [b for b in buttons if "gin-knock" in b]
    assert len(knock) == 1 and knock[0].endswith(
        f">{html.escape(cat.text('play.knock_or_gin'))}</button>"
    )
