"""The play page's presentation (ginview.play) through the worker's JSON boundary: games dealt
from links, moves played and refused with their reason, the computer's moves said as the reader
saw them, the coach's hints and verdicts, lay-offs by hand, whole games to their review, and
stored sessions checked. The opponent's hidden cards never reach the page."""

from __future__ import annotations

import html
import json
import re

import pytest
from ginrummy.bots import choose
from ginrummy.cards import DECK
from ginrummy.hand import legal_actions
from ginrummy.match import game_from_json, new_game, play
from ginrummy.playout import policy_action
from ginrummy.scoring import optimal_layouts
from ginview import api
from ginview.catalog import esc
from ginview.markup import card_name, faces
from ginview.play import (
    BOT,
    COSTLY,
    YOU,
    action_label,
    hand_end_text,
    read_link,
    reasons_text,
    rule_tips,
)

from sitegen import catalogs
from sitegen.languages import languages

LANGUAGES = list(languages())


@pytest.fixture(autouse=True)
def installed():
    catalogs.install_all()


def call(session, move, lang="en") -> dict:
    response = api.call({"op": "play", "lang": lang, "session": session, "move": move})
    assert response["ok"], response
    return response["result"]


def new(link="seed=5&rules=standard&level=strong", coach=True, lang="en") -> dict:
    result = call(None, {"new": {"link": link}}, lang)
    if not coach:
        result = call(result["session"], {"coach": False}, lang)
    return result


def hidden_cards(result) -> set[str]:
    hand = game_from_json(result["session"]["game"]).hand
    if hand.finished:
        return set()
    from ginrummy.public import view

    seen = view(hand, YOU)
    return set(str(hand.hands[BOT]).split()) - set(str(seen.known).split())


def shown_cards(html: str, lang: str) -> set[str]:
    """The cards a view names: drawn, in a move, or spoken (a name as a whole word: Italian's
    "re di fiori" is not in "tre di fiori")."""
    cat = catalogs.load(lang)
    return {
        str(card)
        for card in DECK
        if f'data-card="{card}"' in html
        or f"&quot;card&quot;:&quot;{card}&quot;" in html
        or re.search(rf"(?<!\w){re.escape(card_name(card, cat))}(?!\w)", html)
    }


def test_a_link_deals_the_same_game():
    one, two = new(), new()
    assert one["session"] == two["session"] and one["html"] == two["html"]
    assert one["link"] == "seed=5&rules=standard&level=strong"
    assert read_link("seed=9") == {
        "seed": 9,
        "rules": "standard",
        "level": "strong",
        "format": "standard",
    }
    hollywood = new("seed=5&rules=oklahoma&level=beginner&format=hollywood")
    assert hollywood["link"] == "seed=5&rules=oklahoma&level=beginner&format=hollywood"
    assert hollywood["session"]["game"]["format"] == "hollywood"
    assert new(hollywood["link"])["session"] == hollywood["session"]


@pytest.mark.parametrize(
    "link, code",
    [
        ("seed=x", "bad_link"),
        ("colour=red", "bad_link"),
        ("seed=1&rules=nope", "unknown_rules"),
        ("seed=1&level=godlike", "unknown_level"),
        ("seed=1&format=columns", "bad_setting"),
        ("seed=1&seed=2", "bad_link"),
        ("rules=pagat&seed=1&rules=standard", "bad_link"),
    ],
)
def test_a_bad_link_is_refused_with_its_reason(link, code):
    response = api.call(
        {"op": "play", "lang": "ro", "session": None, "move": {"new": {"link": link}}}
    )
    assert not response["ok"] and response["error"]["code"] == code
    assert response["error"]["message"]


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


def test_a_card_is_selected_only_from_the_readers_hand_while_laying_off():
    session = new(coach=False)["session"]
    hand = game_from_json(session["game"]).hand
    assert hand.phase != "lay_off"
    mine = str(hand.hands[YOU]).split()[0]
    for selected in (mine, 7):
        response = api.call(
            {"op": "play", "session": {**session, "selected": selected}, "move": {"show": True}}
        )
        assert response["error"]["code"] == "bad_session", selected
    assert api.call({"op": "play", "session": session, "move": {"show": True}})["ok"]


@pytest.mark.parametrize(
    "spoiled",
    [
        None,
        7,
        {"v": 1},
        {"v": 2},
        "text",
        {
            "v": 1,
            "game": {},
            "level": "strong",
            "coach": True,
            "log": [],
            "plan": [],
            "selected": None,
            "advice": None,
        },
    ],
)
def test_a_spoiled_session_is_refused_as_such(spoiled):
    response = api.call({"op": "play", "lang": "hu", "session": spoiled, "move": {"show": True}})
    assert not response["ok"] and response["error"]["code"] == "bad_session"
    assert response["error"]["message"] != catalogs.load("hu").text("error.internal_error")


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
        {**entry, "seen": True},
        7,
    ]:
        error = shown([entry, spoiled])["error"]
        assert (error["code"], error["params"]["field"]) == ("bad_session", "log"), spoiled


def test_the_coach_names_the_rule_at_each_discard_of_the_reader():
    """Gin when it is legal, else a knock when it is, else not yet; first the card just taken
    from the pile, which may not be thrown. Bots play seeded games until each case is met."""
    cat, met = catalogs.load("en"), set()
    for seed in range(400):
        game = new_game(seed=seed)
        while not game.hand.finished:
            hand = game.hand
            if hand.turn == YOU and hand.phase == "discard":
                kinds = {action.kind for action in legal_actions(hand)}
                if kinds & {"gin", "big_gin"}:
                    case = "gin"
                elif "knock" in kinds:
                    case = "knock"
                else:
                    case = "no_knock"
                tips = [cat.text(f"play.tip.{case}")]
                if hand.taken is not None:
                    tips.insert(0, cat.text("play.tip.taken", card=faces(str(hand.taken))))
                assert rule_tips(game, cat) == tips, (seed, str(hand.hands[YOU]))
                met.add((case, hand.taken is not None))
            game = play(game, policy_action(hand))  # plays on for gin at times
        if len(met) == 6:
            break
    assert len(met) == 6, met


def test_an_illegal_move_is_refused_and_nothing_is_played():
    result = new(coach=False)
    hand = game_from_json(result["session"]["game"]).hand
    legal = {a.kind for a in legal_actions(hand)}
    wrong = "discard" if "discard" not in legal else "draw_stock"
    move = {
        "kind": wrong,
        "player": 0,
        **({"card": str(hand.hands[0]).split()[0]} if wrong == "discard" else {}),
    }
    after = call(result["session"], {"action": move})
    assert after["refused"] and after["session"]["game"] == result["session"]["game"]
    assert after["refused"] in after["html"] and after["announce"] == [after["refused"]]


@pytest.mark.parametrize(
    "lang, seed, scoring",
    list(
        zip(
            LANGUAGES, [1, 2, 3, 4], ["standard", "hollywood", "standard", "hollywood"], strict=True
        )
    ),
)
def test_whole_games_never_show_hidden_cards_and_end_with_a_review(lang, seed, scoring):
    """The reader plays simply (the stock, the highest deadwood card, knocks at once) against
    the beginner; the coach judges the first hand. Every view shows only what the reader may
    know; the game (one game, or Hollywood's games at once) ends with the sheet and the
    review."""
    result = new(f"seed={seed}&rules=standard&level=beginner&format={scoring}", lang=lang)
    for _ in range(2000):
        game = game_from_json(result["session"]["game"])
        if game.finished:
            break
        shown = shown_cards(result["html"], lang)
        assert shown and not hidden_cards(result) & shown
        if game.number > 1 and result["session"]["coach"]:
            result = call(result["session"], {"coach": False}, lang)
        hand = game.hand
        if hand.finished:
            result = call(result["session"], {"next": True}, lang)
            continue
        legal = legal_actions(hand)
        kinds = {a.kind for a in legal}
        if hand.phase == "lay_off":
            result = call(result["session"], {"lay_offs_done": True}, lang)
            continue
        ends = [a for a in legal if a.kind in ("big_gin", "gin", "knock")]
        if ends:
            action = ends[0]
        elif "pass" in kinds:
            action = next(a for a in legal if a.kind == "pass")
        elif "draw_stock" in kinds:
            action = next(a for a in legal if a.kind == "draw_stock")
        else:
            action = legal[-1]
        result = call(result["session"], {"action": action.to_json()}, lang)
        assert result["refused"] is None
    game = game_from_json(result["session"]["game"])
    assert game.finished and game.format == scoring
    assert 'class="gin-play-review"' in result["html"]
    sheet = game.sheet.to_json()
    tables = [*sheet["columns"]] if scoring == "hollywood" else [sheet]
    assert result["html"].count('class="gin-sheet"') == len(tables) + 1  # and the review's
    assert all(t["finished"] for t in tables) and len(tables) == (
        game.rules.hollywood_columns if scoring == "hollywood" else 1
    )
    log = result["session"]["log"]
    assert log and all(e["hand"] == 1 for e in log)
    good = sum(e["cost"] < COSTLY for e in log)
    cat = catalogs.load(lang)
    assert cat.text(
        "play.accuracy", percent=round(100 * good / len(log)), good=good, count=len(log)
    ) in re.sub("&#x27;", "'", result["html"])


def test_the_defender_lays_off_by_hand_and_is_told_what_was_left():
    """Find a hand where the computer knocks and the reader can lay off; lay off nothing, and
    the end of the hand shows the best lay-offs and the points left."""
    for seed in range(1, 60):
        result = new(f"seed={seed}&rules=standard&level=strong", coach=False)
        for _ in range(80):
            hand = game_from_json(result["session"]["game"]).hand
            if hand.finished or hand.phase == "lay_off":
                break
            legal = legal_actions(hand)
            action = next((a for a in legal if a.kind in ("pass", "draw_stock")), legal[-1])
            result = call(result["session"], {"action": action.to_json()})
        if hand.phase != "lay_off":
            continue
        from ginrummy.advice import lay_off_review

        best = lay_off_review(hand)["best"]["lay_offs"]
        if not best:
            continue
        first = best[0]
        chosen = call(result["session"], {"select": first["card"]})
        assert chosen["session"]["selected"] == first["card"]
        wrong = (first["meld_index"] + 1) % len(hand.layout) if len(hand.layout) > 1 else None
        if wrong is not None:
            refused = call(chosen["session"], {"lay_off": wrong})
            assert refused["refused"] and refused["session"]["plan"] == []
        laid = call(chosen["session"], {"lay_off": first["meld_index"]})
        assert laid["session"]["plan"] == [{"card": first["card"], "meld": first["meld_index"]}]
        kept = game_from_json(call(laid["session"], {"lay_offs_done": True})["session"]["game"])
        assert [(str(x.card), x.meld_index) for x in kept.hand.result.lay_offs] == [
            (first["card"], first["meld_index"])
        ]
        undone = call(laid["session"], {"undo_lay_offs": True})
        done = call(undone["session"], {"lay_offs_done": True})
        end = game_from_json(done["session"]["game"]).hand
        assert end.finished and end.result.lay_offs == ()
        assert 'class="gin-mistake"' in done["html"]
        ended = game_from_json(done["session"]["game"])
        assert done["announce"][-1] == hand_end_text(ended, catalogs.load("en"))  # said once
        assert call(done["session"], {"show": True})["announce"] == []
        return
    pytest.fail("no seed gave the reader lay-offs to make")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hint_ranks_every_choice_with_its_reasons_in_words(lang):
    cat = catalogs.load(lang)
    result = new("seed=1", lang=lang)
    for move in ({"kind": "pass", "player": 0}, {"kind": "draw_stock", "player": 0}):
        result = call(result["session"], {"action": move}, lang)
    hinted = call(result["session"], {"hint": True}, lang)
    advice = hinted["session"]["advice"]
    items = re.findall(
        r"<li>(.*?)</li>", hinted["html"].split('class="gin-hint"')[1].split("</ol>")[0]
    )
    assert len(items) == len(advice["choices"]) == 11
    for item, choice in zip(items, advice["choices"]):
        assert item.startswith(str(esc(action_label(choice["action"], cat))))
        for text in reasons_text(choice["reasons"][1:], cat):
            assert str(esc(text)) in item
    assert reasons_text(advice["choices"][0]["reasons"], cat)  # the best choice has reasons
    # The move then played is judged by the very ranking shown.
    played = call(hinted["session"], {"action": advice["choices"][-1]["action"]}, lang)
    entry = played["session"]["log"][-1]
    assert entry["cost"] == round(
        advice["choices"][0]["points"] - advice["choices"][-1]["points"], 2
    )


def test_the_knocker_chooses_among_the_layouts_that_leave_the_least_deadwood():
    """When the cards kept after a knock meld in several ways with the same deadwood, the
    reader gets a knock button per layout, naming its melds; the layout pressed is the one
    laid out (the engine's default is the best for the knocker, but the choice is theirs)."""
    for seed in range(1, 80):
        result = new(f"seed={seed}&rules=standard&level=strong", coach=False)
        for _ in range(80):
            hand = game_from_json(result["session"]["game"]).hand
            if hand.finished or hand.turn != YOU:
                break
            card = next(
                (
                    a.card
                    for a in legal_actions(hand)
                    if a.kind == "knock"
                    and len(optimal_layouts([c for c in hand.hands[YOU] if c is not a.card])) > 1
                ),
                None,
            )
            if card is not None:
                break
            action = choose(hand, "beginner", seed=seed)
            if action.kind in ("knock", "gin", "big_gin"):
                break
            result = call(result["session"], {"action": action.to_json()})
        else:
            continue
        if card is not None:
            break
    else:
        raise AssertionError("no hand lets the reader knock with two layouts")
    layouts = optimal_layouts([c for c in hand.hands[YOU] if c is not card])
    moves = [
        json.loads(html.unescape(m))["action"]
        for m in re.findall(r'data-move="([^"]*)"', result["html"])
        if "knock" in html.unescape(m)
    ]
    for_card = [m for m in moves if m["card"] == str(card)]
    assert [m["melds"] for m in for_card] == [[str(meld) for meld in l] for l in layouts]
    cat = catalogs.load("en")
    for move in for_card:
        assert esc(action_label(move, cat)) in result["html"]
        assert all(
            face in action_label(move, cat)
            for meld in move["melds"]
            for face in faces(meld).split()
        )
    played = call(result["session"], {"action": for_card[-1]})
    assert played["refused"] is None
    laid = game_from_json(played["session"]["game"]).hand.layout
    assert [str(meld) for meld in laid] == for_card[-1]["melds"]
