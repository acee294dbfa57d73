"""The JSON boundary: well-formed answers, coded errors, and never an exception."""

import json
import re
from pathlib import Path

import pytest
from ginrummy import api, best_melds, parse_cards, score_hand
from ginrummy.cards import DECK
from ginrummy.errors import GinRummyError
from ginrummy.game import HandEntry, score_game, score_hollywood
from ginrummy.hand import deal
from ginrummy.match import game_from_json
from hypothesis import example, given, settings
from hypothesis import strategies as st


def ask(request):
    return json.loads(api.handle(json.dumps(request)))


def test_version():
    response = ask({"v": 1, "op": "version"})
    assert response == {"v": 1, "ok": True, "result": {"engine": "0.1.0", "api": 1}}


def test_melds_matches_engine():
    cards = "4S 6S KS KH 4D 5D 6D 4C 5C 6C KC"
    result = ask({"v": 1, "op": "melds", "cards": cards})["result"]
    arrangement = best_melds(parse_cards(cards))
    assert result["points"] == arrangement.points == 4
    assert result["discard"] == str(arrangement.discard)
    assert result["melds"] == [str(m) for m in arrangement.melds]


def test_parse_canonical():
    assert ask({"op": "parse", "cards": "a♠, 10h"})["result"] == {"cards": "AS TH", "count": 2}


def test_rules_presets():
    result = ask({"op": "rules"})["result"]
    assert set(result) >= {"standard", "pagat", "pokerwiner", "oklahoma"}
    assert result["standard"]["undercut_bonus"] == 25
    assert ask({"op": "rules", "name": "nope"})["error"]["code"] == "unknown_rules"


def test_card_error_is_coded_with_token_and_position():
    error = ask({"op": "melds", "cards": "AS 2S 3S 4S 5S 6S 7S 8S 9S 1S"})["error"]
    assert error["code"] == "unknown_rank"
    assert error["params"] == {"token": "1S", "position": 9}


def test_duplicate_and_count_errors():
    assert ask({"op": "deadwood", "cards": "AS AS"})["error"]["code"] == "duplicate_card"
    error = ask({"op": "deadwood", "cards": "AS 2S"})["error"]
    assert error["code"] == "wrong_count"
    assert error["params"]["got"] == 2


def test_request_errors():
    assert json.loads(api.handle("{nope"))["error"]["code"] == "bad_json"
    assert ask([1, 2])["error"]["code"] == "bad_request"
    assert ask({"v": 2, "op": "version"})["error"]["code"] == "unsupported_version"
    assert ask({"op": "fly"})["error"]["code"] == "unknown_op"
    assert ask({"op": "melds"})["error"] == {
        "code": "missing_field",
        "message": "the request needs a 'cards' field",
        "params": {"field": "cards"},
    }
    assert ask({"op": "melds", "cards": 7})["error"]["code"] == "bad_field"


def test_score_matches_engine_and_explains():
    knocker, defender = "2S 3S 4S 7H 7D 7C 9C TC JC 5D", "8S 9S TS KH KD 4H 6C 6H 2C AD"
    result = ask({"op": "score", "knocker": knocker, "defender": defender})["result"]
    assert result == score_hand(knocker, defender).to_json()
    assert (result["outcome"], result["winner"], result["points"]) == ("knock", "knocker", 34)
    assert result["steps"][-1]["code"] == "result"


def test_score_rules_and_upcard():
    request = {
        "op": "score",
        "knocker": "2S 3S 4S 7H 7D 7C 9C TC JC 5D",
        "defender": "8S 9S TS KH KD 4H 6C 6H 2C AD",
        "rules": "oklahoma",
    }
    assert ask(request)["error"]["code"] == "upcard_required"
    assert ask({**request, "upcard": "4S"})["error"]["code"] == "knock_over_limit"
    assert ask({**request, "upcard": "9S"})["result"]["points"] == 68  # spade upcard doubles
    assert ask({**request, "rules": {"name": "standard", "knock_limit": 4}})["error"] == {
        "code": "knock_over_limit",
        "message": ask({**request, "upcard": "4S"})["error"]["message"],
        "params": {"deadwood": 5, "limit": 4},
    }


def test_layoffs_chain():
    result = ask(
        {
            "op": "layoffs",
            "knocker_melds": ["8C 8D 8H", "9S TS JS"],
            "defender": "8S 7S KH KD KC 2H 3H 4H 5C 6D",
        }
    )["result"]
    assert [(l["card"], l["meld"]) for l in result["lay_offs"]] == [
        ("8S", "9S TS JS"),
        ("7S", "8S 9S TS JS"),
    ]
    assert result["points"] == 11


def test_sheet_standard_and_hollywood():
    entries = [
        {"winner": 0, "points": 60},
        {"winner": 1, "points": 14},
        {"winner": 0, "points": 45},
    ]
    sheet = ask({"op": "sheet", "entries": entries})["result"]
    assert sheet == score_game([HandEntry(0, 60), HandEntry(1, 14), HandEntry(0, 45)]).to_json()
    hollywood = ask({"op": "sheet", "entries": entries, "format": "hollywood"})["result"]
    assert hollywood == score_hollywood([HandEntry.from_json(e) for e in entries]).to_json()
    assert ask({"op": "sheet", "entries": entries, "format": "x"})["error"]["code"] == "bad_field"
    assert (
        ask({"op": "sheet", "entries": [{"winner": 3, "points": 1}]})["error"]["code"]
        == "bad_entry"
    )


def test_deal_and_play_round_trip():
    dealt = ask({"op": "deal", "seed": 7})["result"]
    assert dealt["state"] == deal(seed=7).to_json()
    assert dealt["legal"] == [{"kind": "take_upcard", "player": 1}, {"kind": "pass", "player": 1}]
    played = ask({"op": "play", "state": dealt["state"], "action": dealt["legal"][1]})["result"]
    assert played["state"]["turn"] == 0
    wrong = ask({"op": "play", "state": dealt["state"], "action": {"kind": "pass", "player": 0}})
    assert wrong["error"]["code"] == "not_your_turn"


RAISED = {
    code
    for path in Path(api.__file__).parent.glob("*.py")
    for code in re.findall(r'Error\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8"))
}
"""Every error code the engine's code raises."""

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    op=st.sampled_from(sorted(api.OPS)),
    fields=st.dictionaries(
        st.sampled_from(
            [
                "cards",
                "knocker",
                "defender",
                "knocker_melds",
                "rules",
                "upcard",
                "entries",
                "format",
                "name",
                "seed",
                "deck",
                "dealer",
                "end_of_stock",
                "state",
                "action",
                "game",
                "player",
                "level",
                "samples",
            ]
        ),
        json_values,
        max_size=5,
    ),
)
def test_junk_gets_a_coded_error_never_a_crash(op, fields):
    response = ask({"v": 1, "op": op, **fields})
    assert response["v"] == 1 and set(response) == {
        "v",
        "ok",
        "result" if response["ok"] else "error",
    }
    if response["ok"]:
        assert isinstance(response["result"], dict)
    else:
        error = response["error"]
        assert error["code"] in RAISED, response  # a code the engine raises: never internal_error
        assert error["message"] and "\n" not in error["message"]
        assert isinstance(error["params"], dict)


def test_knock_verdicts():
    def verdict(cards, **extra):
        return ask({"op": "knock", "cards": cards, **extra})["result"]

    assert verdict("3H 4H 5H 6H 7C 7D 7S 9S 9C 9D 9H")["verdict"] == "big_gin"
    assert verdict("3H 4H 5H 6H 7C 7D 7S 9S 9C 9D 9H", rules="pagat")["verdict"] == "gin"
    knock = verdict("2S 3S 4S 7H 7D 7C 9C TC JC 5D KS")
    assert (knock["verdict"], knock["discard"], knock["points"], knock["limit"]) == (
        "knock",
        "KS",
        5,
        10,
    )
    low = verdict("2S 3S 4S 7H 7D 7C 9C TC JC 5D KS", rules="oklahoma", upcard="3D")
    assert (low["verdict"], low["limit"]) == ("no", 3)
    assert ask({"op": "knock", "cards": "AS 2S"})["error"]["code"] == "wrong_count"


def test_view_bot_and_advice():
    state = ask({"op": "deal", "seed": 7})["result"]["state"]
    seen = ask({"op": "view", "state": state, "player": 0})["result"]
    assert seen["stock_count"] == 31 and seen["known"] == "" and len(seen["unseen"].split()) == 41
    assert seen["legal"] == [] and ask({"op": "view", "state": state, "player": 1})["result"][
        "legal"
    ] == [{"kind": "take_upcard", "player": 1}, {"kind": "pass", "player": 1}]
    move = ask({"op": "bot", "state": state, "level": "beginner", "seed": 3})["result"]["action"]
    assert move["player"] == 1
    assert (
        ask({"op": "bot", "state": state, "level": "beginner", "seed": 3})["result"]["action"]
        == move
    )
    advice = ask({"op": "advice", "state": state, "samples": 3, "seed": 2})["result"]
    assert advice["samples"] == 4 and len(advice["choices"]) == 2  # worlds come in fours
    # the best is the base policy's move unless another beats it beyond doubt (4 worlds: not)
    best, other = advice["choices"]
    assert other["win"] <= best["win"] or (other["cost"] == 0 and not other["mistake"])
    game = ask({"op": "game_new", "seed": 7})["result"]["game"]
    on_game = ask({"op": "advice", "game": game, "samples": 4})["result"]
    refined = ask({"op": "advice", "game": game, "samples": 4, "previous": on_game})["result"]
    assert refined["samples"] == 8 and on_game["needs"] == [100, 100]
    both = ask({"op": "advice", "game": game, "state": state})["error"]
    assert both["code"] == "missing_field"
    assert ask({"op": "bot", "state": state, "level": "x"})["error"]["code"] == "unknown_level"
    assert ask({"op": "view", "state": state, "player": 2})["error"]["code"] == "bad_setting"
    assert ask({"op": "advice", "state": state, "samples": 0})["error"]["code"] == "bad_setting"
    assert ask({"op": "bot", "state": {"phase": 1}})["error"]["code"] == "bad_state"


def test_a_game_through_the_api():
    answer = ask(
        {"op": "game_new", "seed": 4, "rules": "pagat", "format": "hollywood", "dealer": 1}
    )["result"]
    game = answer["game"]
    assert game["number"] == 1 and game["hand"]["dealer"] == 1 and not game["finished"]
    assert ask({"op": "game_next", "game": game})["error"]["code"] == "hand_not_over"
    hands = 0
    while not game["finished"]:
        while game["hand"]["phase"] != "finished":
            move = ask({"op": "bot", "state": game["hand"], "level": "intermediate"})["result"]
            answer = ask({"op": "game_play", "game": game, "action": move["action"]})["result"]
            game = answer["game"]
        hands += 1
        if not game["finished"]:
            game = ask({"op": "game_next", "game": game})["result"]["game"]
    assert game["sheet"]["finished"] and answer["legal"] == []
    assert ask({"op": "game_next", "game": game})["error"]["code"] == "game_over"
    spoiled = dict(game, played=game["played"][:-1])
    assert ask({"op": "game_play", "game": spoiled, "action": {"kind": "pass", "player": 0}})[
        "error"
    ]["code"] in ("bad_game", "game_over")
    assert ask({"op": "game_new", "format": "x"})["error"]["code"] == "bad_setting"
    assert ask({"op": "game_new", "seed": -1})["error"]["code"] == "bad_setting"


GAME = ask({"op": "game_new", "seed": 2})["result"]["game"]


SPOILED_CODES = {
    "bad_game",
    "bad_state",
    "bad_setting",
    "bad_action",
    "bad_card",
    "bad_field",
    "unknown_rule",
    "unknown_rules",
    "hand_not_over",
    "game_over",
}
"""What a spoiled game or hand may be refused with: each code names the part at fault."""
NOT_READ_BACK = {"sheet", "finished", "number", "extra"}
"""Fields a game's JSON may hold that are not read back: derived (Game.to_json), or unknown."""


@settings(max_examples=150, deadline=None)
@given(
    field=st.sampled_from(sorted(GAME) + ["extra"]),
    inner=st.sampled_from(sorted(GAME["hand"]) + [None]),
    value=json_values,
)
@example(field="hand", inner="discards", value="")  # once answered with a card's error
@example(field="hand", inner="hands", value=["AS", "ZZ"])
@example(field="hand", inner="layout", value=["AS 2S 4S"])
@example(field="hand", inner="laid_off", value=[{"card": "ZZ", "meld": 0}])
def test_a_spoiled_game_or_hand_gets_a_coded_error(field, inner, value):
    if inner is None or field != "hand":
        game = {**GAME, field: value}
    else:
        game = {**GAME, "hand": {**GAME["hand"], inner: value}}
    for request in (
        {"op": "game_play", "game": game, "action": {"kind": "pass", "player": 1}},
        {"op": "game_next", "game": game},
        {"op": "advice", "state": game.get("hand"), "samples": 1},
        {"op": "view", "state": game.get("hand"), "player": 0},
    ):
        response = ask(request)
        if not response["ok"]:
            assert response["error"]["code"] in SPOILED_CODES, response
    if ask({"op": "game_next", "game": game}).get("error", {}).get("code") == "hand_not_over":
        # accepted: the field is one a game does not read back, or its value means the same
        assert field in NOT_READ_BACK or game_from_json(game) == game_from_json(GAME), field


REFUSED = json.loads((Path(__file__).parent.parent / "data" / "api_errors.json").read_text("utf-8"))


@pytest.mark.parametrize("case", REFUSED["cases"], ids=[c["id"] for c in REFUSED["cases"]])
def test_a_refused_request_gets_its_error_in_full(case):
    """tests/data/api_errors.json: a request for each kind of refusal, from the engine's
    every module, and the error it must get: its code and params (what the site words) and
    the English message (what the command line prints)."""
    assert ask(case["request"]) == {"v": 1, "ok": False, "error": case["error"]}


def test_a_field_an_op_does_not_take_is_refused():
    cards = "AS 2S 3S 7H 7D 7C 9C TC JC KD"
    assert ask({"op": "deadwood", "cards": cards})["ok"]
    assert ask({"op": "deadwood", "cards": cards, "upcrad": "9S"})["error"] == {
        "code": "unknown_field",
        "message": "op 'deadwood' has no field 'upcrad'",
        "params": {"field": "upcrad", "op": "deadwood"},
    }
    # fields read only in some cases still count as the op's
    assert ask({"op": "deal", "deck": " ".join(str(c) for c in DECK), "dealer": 1})["ok"]


def test_every_op_takes_all_its_fields():
    """Each op with every field it documents, the optional ones too: none is refused as a
    field the op does not take (the refusal counts the fields an op reads)."""
    cards = "AS 2S 3S 7H 7D 7C 9C TC JC KD"
    state = ask({"op": "deal", "seed": 3})["result"]["state"]
    rules = {"name": "oklahoma", "gin_bonus": 20}
    requests = [
        {"op": "version"},
        {"op": "rules", "name": "pagat"},
        {"op": "parse", "cards": cards},
        {"op": "deadwood", "cards": cards},
        {"op": "melds", "cards": cards},
        {"op": "knock", "cards": cards + " 5D", "rules": rules, "upcard": "9S"},
        {
            "op": "layoffs",
            "knocker_melds": ["5H 6H 7H"],
            "defender": "8H 9H 2C 3C 4C KD QD JD TD 6S",
        },
        {
            "op": "score",
            "knocker": "2S 3S 4S 7H 7D 7C 9C TC JC 5D",
            "defender": "8S 9S TS KH KD 4H 6C 6H 2C AD",
            "rules": rules,
            "upcard": "9S",
        },
        {
            "op": "sheet",
            "entries": [{"winner": 0, "points": 20}],
            "rules": rules,
            "format": "hollywood",
        },
        {"op": "deal", "seed": 3, "dealer": 1, "rules": rules, "end_of_stock": "reshuffle"},
        {"op": "deal", "deck": " ".join(str(c) for c in DECK)},
        {"op": "play", "state": state, "action": {"kind": "pass", "player": 1}},
        {"op": "view", "state": state, "player": 0},
        {"op": "bot", "state": state, "level": "beginner", "seed": 4},
        {"op": "advice", "state": state, "samples": 2, "seed": 4},
        {
            "op": "game_new",
            "rules": rules,
            "format": "hollywood",
            "seed": 5,
            "dealer": 1,
            "end_of_stock": "reshuffle",
        },
    ]
    assert {r["op"] for r in requests} | {
        "lay_off_check",
        "lay_off_review",
        "game_play",
        "game_next",
    } == set(api.OPS)
    for request in requests:
        answer = ask({"v": 1, **request})
        assert answer["ok"], (request["op"], answer)


def nested(kind, levels):
    """A value ``levels`` deep: lists, objects or both in turn, the innermost one empty."""
    value = [] if kind == "list" else {}
    for level in range(levels - 1):
        value = [value] if kind == "list" or (kind == "mixed" and level % 2) else {"a": value}
    return value


TOO_DEEP = {
    "code": "too_deep",
    "message": f"the request is nested more than {api.MAX_DEPTH} deep",
    "params": {"limit": api.MAX_DEPTH},
}
NOT_TEXT = {
    "code": "bad_field",
    "message": "field 'cards' has the wrong type",
    "params": {"field": "cards"},
}


@pytest.mark.parametrize("kind", ["list", "dict", "mixed"])
@pytest.mark.parametrize(
    ("depth", "error"), [(api.MAX_DEPTH, NOT_TEXT), (api.MAX_DEPTH + 1, TOO_DEEP)]
)
def test_a_request_may_be_nested_up_to_the_limit(kind, depth, error):
    """The request object is depth 1 and each list or object inside it one more, through
    lists and objects' values alike: nested to MAX_DEPTH the request gets as far as its op
    (here, refusing a nest for cards); one level deeper it is refused as too deep."""
    request = {"op": "deadwood", "cards": nested(kind, depth - 1)}
    assert ask(request) == {"v": 1, "ok": False, "error": error}
    assert api.call(request) == {"v": 1, "ok": False, "error": error}


def test_call_refuses_a_request_too_deep_for_json_text():
    """call, given a request already decoded, checks its depth too, before anything recurses
    into it: even thousands of levels get the too_deep error."""
    request = {"op": "deadwood", "cards": nested("mixed", 5000)}
    assert api.call(request) == {"v": 1, "ok": False, "error": TOO_DEEP}


def test_a_bug_in_an_op_still_gets_an_answer(monkeypatch):
    """An exception that is not the engine's own error (a bug) is answered as internal_error,
    its type and text the message, so the page keeps working."""

    def boom(request):
        raise ValueError("boom")

    monkeypatch.setitem(api.OPS, "version", boom)
    expected = {
        "v": api.API_VERSION,
        "ok": False,
        "error": {"code": "internal_error", "message": "ValueError: boom", "params": {}},
    }
    assert api.call({"op": "version"}) == expected
    assert ask({"op": "version"}) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{nope", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
        ("", "Expecting value: line 1 column 1 (char 0)"),
        (None, "the JSON object must be str, bytes or bytearray, not NoneType"),
    ],
)
def test_text_that_is_not_json_gets_its_error_in_full(text, reason):
    """handle answers text it cannot decode (or no text at all) with bad_json, quoting the
    decoder's reason, in the same envelope as any other refusal."""
    assert json.loads(api.handle(text)) == {
        "v": 1,
        "ok": False,
        "error": {
            "code": "bad_json",
            "message": f"the request is not JSON: {reason}",
            "params": {},
        },
    }


def test_the_answer_keeps_non_ascii_characters_as_they_are():
    """The JSON text handle returns writes characters outside ASCII as themselves, not as
    \\u escapes: an unreadable card quoted back reads as the reader typed it."""
    text = api.handle(json.dumps({"op": "parse", "cards": "7♥ X♥"}))
    assert "X♥" in text and "\\u2665" not in text
    assert json.loads(text)["error"] == {
        "code": "unknown_rank",
        "message": "unknown rank 'X' in card 'X♥'",
        "params": {"token": "X♥", "position": 1},
    }


def test_any_field_the_op_does_not_read_is_refused_whatever_its_name():
    """The fields an op reads are counted by their names: a field named "None", or (from a
    caller of call that did not decode JSON) a key that is not text at all, is not one."""
    cards = "AS 2S 3S 7H 7D 7C 9C TC JC KD"
    for key in ("None", None):
        assert api.call({"op": "deadwood", "cards": cards, key: 1}) == {
            "v": 1,
            "ok": False,
            "error": {
                "code": "unknown_field",
                "message": "op 'deadwood' has no field 'None'",
                "params": {"field": "None", "op": "deadwood"},
            },
        }


def test_json_text_too_deep_for_the_reader_is_refused_as_too_deep():
    """Text nested past what Python's JSON reader can recurse into gets the too_deep error,
    not a RecursionError out of the boundary that never raises."""
    for text in ("[" * 100_000, '{"op": ' + "[" * 100_000):
        assert json.loads(api.handle(text)) == {"v": 1, "ok": False, "error": TOO_DEEP}


READS = {  # how an op looks at field "a" (and at "z", missing): what it gets
    "get": (lambda fields: fields.get("a", 7) + fields.get("z", 7), 8),
    "in": (lambda fields: "a" in fields and "z" not in fields, True),
    "[]": (lambda fields: fields["a"], 1),
}


@pytest.mark.parametrize("read", READS)
def test_a_field_read_any_way_counts_as_read(read):
    """run_op (shared with the site's boundary, whose ops read their fields each way) counts
    a field the op looked at with .get, `in` or [], and refuses the fields it did not."""
    look, answer = READS[read]
    got = api.run_op("x", look, {"op": "x", "a": 1, "lang": "en"}, ["lang"])
    assert (got, type(got)) == (answer, type(answer))
    with pytest.raises(GinRummyError) as refused:
        api.run_op("x", look, {"op": "x", "a": 1, "b": 2})
    assert (refused.value.code, refused.value.params) == (
        "unknown_field",
        {"field": "b", "op": "x"},
    )


@pytest.mark.parametrize("version", [True, 1.0, "1", [1], None])
def test_the_version_is_the_number_1_itself(version):
    assert ask({"v": version, "op": "version"})["error"]["code"] == "unsupported_version"
    assert ask({"op": "version"})["ok"] and ask({"v": 1, "op": "version"})["ok"]


@pytest.mark.parametrize(
    "text",
    [
        '{"op": "parse", "cards": NaN}',
        '{"op": "deal", "seed": Infinity}',
        '{"op": "sheet", "entries": [{"winner": 0, "points": -Infinity}]}',
    ],
)
def test_a_number_json_has_not_is_refused_and_never_answered(text):
    answer = api.handle(text)
    json.loads(answer, parse_constant=lambda name: pytest.fail(f"{name} in {answer}"))
    assert json.loads(answer)["error"]["code"] == "bad_json"
    # from a caller of call() that did not decode JSON: refused all the same
    assert api.call({"op": "deal", "seed": float("nan")})["error"]["code"] == "bad_json"


@pytest.mark.parametrize("where", ["cards", "op", "key"])
def test_a_lone_surrogate_is_refused_and_every_answer_is_utf8(where):
    request = {"op": "parse", "cards": "7H"}
    if where == "key":
        request["\ud800"] = 1
    else:
        request[where] = "7\ud800"
    answer = api.handle(json.dumps(request))
    answer.encode("utf-8")  # no lone surrogate in what goes back
    assert json.loads(answer)["error"]["code"] == "bad_json"


@pytest.mark.parametrize(
    "request_", [{"op": "view", "player": True}, {"op": "bot", "seed": False, "level": "strong"}]
)
def test_true_is_no_number_in_a_request(request_):
    state = deal(seed=1).to_json()
    answer = ask({**request_, "state": state})
    assert answer["error"]["code"] == "bad_field", answer


@pytest.mark.parametrize("op", ["x" * 100_000, ["x"] * 100_000, {"a": "x" * 100_000}])
def test_an_unknown_op_is_quoted_short_whatever_its_size(op):
    answer = api.handle(json.dumps({"op": op}))
    assert len(answer) < 400 and json.loads(answer)["error"]["code"] == "unknown_op"
