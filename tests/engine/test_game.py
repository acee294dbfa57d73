"""Score sheets: the cases in tests/data/sheets.json, plus properties of the sheets."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from ginrummy import RULESETS, RuleError, get_rules
from ginrummy.cards import Card
from ginrummy.game import (
    MAX_BOXES,
    MAX_ENTRIES,
    MAX_HAND_POINTS,
    HandEntry,
    hollywood_columns,
    score_game,
    score_hollywood,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.test_by_hand import endless

SHEETS = Path(__file__).parent.parent / "data" / "sheets.json"
CASES = json.loads(SHEETS.read_text("utf-8"))["cases"]


def matches(expected, actual, path="$"):
    """Partial match: every key in ``expected`` equals ``actual``'s; lists element by element."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} missing"
            matches(value, actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), (
            f"{path}: expected {len(expected)} items, got {actual!r}"
        )
        for i, (e, a) in enumerate(zip(expected, actual)):
            matches(e, a, f"{path}[{i}]")
    else:
        assert expected == actual, f"{path}: expected {expected!r}, got {actual!r}"


def run(case):
    score = score_game if case["kind"] == "game" else score_hollywood
    return score(case["entries"], rules=case["rules"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_sheet_case(case):
    assert case["why"]
    if "error" in case:
        with pytest.raises(RuleError) as info:
            run(case)
        assert info.value.code == case["error"]
    else:
        sheet = run(case)
        data = sheet.to_json()
        json.dumps(data)
        matches(case["expect"], data)
        for game in [sheet] if case["kind"] == "game" else sheet.columns:  # every sheet's sign
            if game.finished:
                assert game.difference == abs(game.totals[0] - game.totals[1])
                if game.collector is not None:
                    assert game.totals[game.collector] > game.totals[1 - game.collector]


def test_cases_cover_every_preset_and_shutout_rule():
    game_rules = {json.dumps(c["rules"], sort_keys=True) for c in CASES if c["kind"] == "game"}
    for name in RULESETS:
        assert json.dumps(name) in game_rules
    shutouts = {
        get_rules(c["rules"]).shutout
        for c in CASES
        if "expect" in c and c["expect"].get("shutout") is True
    }
    assert shutouts == {"double_points", "double_game_bonus", "double_difference", "none"}


def test_hand_entry_json_round_trip_and_errors():
    entry = HandEntry(1, 31, 2)
    assert HandEntry.from_json(json.loads(json.dumps(entry.to_json()))) == entry
    assert HandEntry.from_json([0, 5]) == HandEntry(0, 5, 1)
    for bad, field in [
        ({"points": 3}, "winner"),
        ({"winner": 0}, "points"),
        ({"winner": 0, "points": 3, "extra": 1}, "extra"),
        ({"winner": True, "points": 3}, "winner"),
        ({"winner": 0, "points": "3"}, "points"),
        ({"winner": 0, "points": 3, "boxes": -1}, "boxes"),
        ("0 3", "entry"),
    ]:
        with pytest.raises(RuleError) as info:
            HandEntry.from_json(bad)
        assert info.value.code == "bad_entry" and info.value.params["field"] == field


def test_entries_must_be_a_list():
    with pytest.raises(RuleError) as info:
        score_game({"winner": 0, "points": 3})
    assert info.value.code == "bad_entry"


def test_hand_entry_from_result():
    knocker_won = SimpleNamespace(winner="knocker", points=17, outcome="knock")
    defender_won = SimpleNamespace(winner="defender", points=30, outcome="knock")
    assert HandEntry.from_result(knocker_won, knocker=1) == HandEntry(1, 17, 1)
    assert HandEntry.from_result(defender_won, knocker=1) == HandEntry(0, 30, 1)
    spade, heart = Card.parse("7S"), Card.parse("7H")
    boxed = {"name": "oklahoma", "spade_doubles_box": True}
    assert HandEntry.from_result(knocker_won, 0, boxed, upcard=spade).boxes == 2
    assert HandEntry.from_result(knocker_won, 0, boxed, upcard=heart).boxes == 1
    assert HandEntry.from_result(knocker_won, 0, "oklahoma", upcard=spade).boxes == 1
    with pytest.raises(RuleError):
        HandEntry.from_result(knocker_won, knocker=2)


def test_the_larger_total_collects_the_difference_even_from_the_game_winner():
    """B wins eight hands of 12, then A one of 100: A reaches the target and wins the game, but
    after the boxes B has the larger total (296 against 225) and collects the difference, 71."""
    sheet = score_game([(1, 12)] * 8 + [(0, 100)])
    assert (sheet.winner, sheet.totals, sheet.collector, sheet.difference) == (0, (225, 296), 1, 71)
    assert sheet.explain()[-1] == {
        "code": "difference",
        "player": 1,
        "loser": 0,
        "amount": 71,
        "winner": 0,
    }
    assert sheet.to_json()["collector"] == 1 and sheet.to_json()["difference"] == 71
    even = score_game(
        [(1, 0)] * 5 + [(0, 100)], {"name": "standard", "game_bonus": 0, "shutout": "none"}
    )
    assert (even.totals, even.collector, even.difference) == ((125, 125), None, 0)
    assert even.explain()[-1] == {"code": "settled_even", "total": 125}
    assert score_game([(0, 10)]).collector is None


def test_gin_and_undercut_count_the_boxes_the_rules_say():
    pagat_like = {"name": "pagat", "gin_boxes": 2, "undercut_boxes": 2}
    for outcome, boxes in (("gin", 2), ("big_gin", 2), ("undercut", 2), ("knock", 1)):
        result = SimpleNamespace(winner="knocker", points=30, outcome=outcome)
        assert HandEntry.from_result(result, 0, pagat_like).boxes == boxes
        assert HandEntry.from_result(result, 0, "standard").boxes == 1
    for name, rules in RULESETS.items():
        assert rules.gin_boxes >= 1 and rules.undercut_boxes >= 1, name


def test_explain_steps_are_codes_and_json():
    sheet = score_game([(0, 60), (1, 14), (0, 45)])
    steps = sheet.explain()
    assert [s["code"] for s in steps] == ["hand_won"] * 3 + [
        "game_won",
        "game_bonus",
        "box_bonus",
        "box_bonus",
        "total",
        "total",
        "difference",
    ]
    assert steps[3] == {"code": "game_won", "hand": 3, "player": 0, "points": 105, "target": 100}
    assert steps[-1] == {
        "code": "difference",
        "player": 0,
        "loser": 1,
        "amount": 216,
        "winner": 0,
    }
    assert json.loads(json.dumps(steps)) == steps
    shut = score_game([(1, 100)], "pagat").explain()
    assert {
        "code": "shutout",
        "player": 1,
        "loser": 0,
        "rule": "double_game_bonus",
        "amount": 100,
    } in shut
    assert score_game([(1, 10)]).explain()[-1] == {
        "code": "game_in_progress",
        "target": 100,
        "points": [0, 10],
    }


def test_hollywood_explain():
    sheet = score_hollywood([(0, 10), (0, 10), (0, 100)])
    steps = sheet.explain()
    codes = [s["code"] for s in steps]
    assert codes.count("column_closed") == 3 and codes.count("game_won") == 3
    assert steps[-1] == {"code": "hollywood_won", "player": 0, "amount": sheet.difference}
    assert all("column" in s for s in steps if s["code"] in ("game_won", "total"))
    assert score_hollywood([(1, 5)]).explain()[-1] == {
        "code": "hollywood_in_progress",
        "open": [1, 2, 3],
    }
    json.dumps(sheet.to_json())


def test_hollywood_needs_a_column():
    with pytest.raises(RuleError) as info:
        score_hollywood([], {"name": "standard", "hollywood_columns": 0})
    assert info.value.code == "bad_rule"


def test_empty_sheets():
    assert score_game([]).totals == (0, 0)
    sheet = score_hollywood([])
    assert not sheet.finished and len(sheet.columns) == 3


def test_unknown_rules():
    with pytest.raises(RuleError) as info:
        score_game([], "nope")
    assert info.value.code == "unknown_rules"


entry_lists = st.lists(
    st.tuples(st.integers(0, 1), st.integers(0, 80), st.integers(1, 2)), max_size=40
)


def _until_over(score, entries, rules):
    """The longest prefix the sheet accepts (a full game raises game_over on the next entry)."""
    for n in range(len(entries), -1, -1):
        try:
            return score(entries[:n], rules), n
        except RuleError as error:
            assert error.code == "game_over"
    raise AssertionError


@settings(max_examples=200, deadline=None)
@given(entry_lists, st.sampled_from(sorted(RULESETS)))
def test_game_properties(entries, name):
    rules = get_rules(name)
    sheet, n = _until_over(score_game, entries, rules)
    assert len(sheet.rows) == n
    assert sheet.points == tuple(sum(p for w, p, _ in entries[:n] if w == q) for q in (0, 1))
    if sheet.finished:
        w, loser = sheet.winner, 1 - sheet.winner
        assert sheet.points[w] >= rules.game_target > max(sheet.rows[-2].totals) if n > 1 else True
        # the larger total collects: not always the winner (a loser with many boxes can
        # out-total them), and never a negative amount
        assert sheet.difference == abs(sheet.totals[w] - sheet.totals[loser]) >= 0
        if sheet.totals[0] == sheet.totals[1]:
            assert sheet.collector is None and sheet.explain()[-1]["code"] == "settled_even"
        else:
            assert sheet.totals[sheet.collector] == max(sheet.totals)
            assert sheet.explain()[-1]["player"] == sheet.collector
        assert sheet.totals[w] >= sheet.points[w] + rules.game_bonus
        assert sum(sheet.boxes) == sum(b for _, _, b in entries[:n])
    else:
        assert sheet.totals == sheet.points and sheet.difference is None
    json.dumps(sheet.to_json())


@settings(max_examples=200, deadline=None)
@given(entry_lists, st.sampled_from(sorted(RULESETS)))
def test_hollywood_properties(entries, name):
    rules = get_rules(name)
    sheet, _n = _until_over(score_hollywood, entries, rules)
    started = [set(), set()]
    running = [(0, 0)] * rules.hollywood_columns
    for row in sheet.rows:
        open_columns = [
            c for c in range(1, len(running) + 1) if max(running[c - 1]) < rules.game_target
        ]
        assert row.columns, "every hand won is entered somewhere"
        assert set(row.columns) <= set(open_columns)
        assert row.columns == hollywood_columns(started[row.winner], open_columns)
        started[row.winner].update(row.columns)
        running = row.totals
    for column in sheet.columns:
        # each column is exactly the standard game of the hands entered in it
        again = score_game([(r.winner, r.points, r.boxes) for r in column.rows], rules)
        assert again.totals == column.totals and again.finished == column.finished
    if sheet.finished:
        assert sheet.totals == tuple(sum(c.totals[p] for c in sheet.columns) for p in (0, 1))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 9)), max_size=12))
def test_hollywood_kth_win_rule_while_columns_open(entries):
    """Small hands never close a column here, so the k-th win goes in columns 1..min(k, 3)."""
    sheet = score_hollywood(entries)
    wins = [0, 0]
    for row in sheet.rows:
        wins[row.winner] += 1
        assert row.columns == tuple(range(1, min(wins[row.winner], 3) + 1))


def test_a_hollywood_sheet_explained_and_as_json_in_full():
    """Four wins of 50 for player 0, three columns to 100 (the module's example): every step
    and every field, worked out by hand."""
    sheet = score_hollywood([(0, 50)] * 4)
    rows = [
        ((1,), (), [[50, 0], [0, 0], [0, 0]]),
        ((1, 2), (1,), [[100, 0], [50, 0], [0, 0]]),
        ((2, 3), (2,), [[100, 0], [100, 0], [50, 0]]),
        ((3,), (3,), [[100, 0]] * 3),
    ]
    steps = []
    for hand, (columns, closed, totals) in enumerate(rows, 1):
        steps.append(
            {
                "code": "hand_won",
                "hand": hand,
                "player": 0,
                "points": 50,
                "boxes": 1,
                "totals": totals,
                "columns": list(columns),
            }
        )
        steps += [{"code": "column_closed", "column": c, "hand": hand, "player": 0} for c in closed]
    for column, last in ((1, 2), (2, 3), (3, 4)):  # each: 100 + 2 boxes + game + shutout
        steps += [
            dict(step, column=column)
            for step in (
                {"code": "game_won", "hand": last, "player": 0, "points": 100, "target": 100},
                {"code": "game_bonus", "player": 0, "amount": 100},
                {"code": "box_bonus", "player": 0, "boxes": 2, "each": 25, "amount": 50},
                {
                    "code": "shutout",
                    "player": 0,
                    "loser": 1,
                    "rule": "double_points",
                    "amount": 100,
                },
                {
                    "code": "total",
                    "player": 0,
                    "points": 100,
                    "box_bonus": 50,
                    "game_bonus": 100,
                    "shutout_bonus": 100,
                    "total": 350,
                },
                {
                    "code": "total",
                    "player": 1,
                    "points": 0,
                    "box_bonus": 0,
                    "game_bonus": 0,
                    "shutout_bonus": 0,
                    "total": 0,
                },
                {"code": "difference", "player": 0, "loser": 1, "amount": 350, "winner": 0},
            )
        ]
    steps += [
        {"code": "grand_total", "player": 0, "total": 1050},
        {"code": "grand_total", "player": 1, "total": 0},
        {"code": "hollywood_won", "player": 0, "amount": 1050},
    ]
    assert sheet.explain() == steps
    data = sheet.to_json()
    assert data == {
        "rules": "standard",
        "target": 100,
        "finished": True,
        "totals": [1050, 0],
        "winner": 0,
        "difference": 1050,
        "steps": steps,
        "rows": [
            {
                "hand": hand,
                "winner": 0,
                "points": 50,
                "boxes": 1,
                "columns": list(columns),
                "closed": list(closed),
                "totals": totals,
            }
            for hand, (columns, closed, totals) in enumerate(rows, 1)
        ],
        "columns": [
            {
                "rules": "standard",
                "target": 100,
                "column": column,
                "finished": True,
                "winner": 0,
                "points": [100, 0],
                "hands_won": [2, 0],
                "boxes": [2, 0],
                "game_bonus": 100,
                "box_bonus": [50, 0],
                "shutout": True,
                "shutout_bonus": 100,
                "totals": [350, 0],
                "difference": 350,
                "collector": 0,
                "rows": [
                    {"hand": h, "winner": 0, "points": 50, "boxes": 1, "totals": [50 * (i + 1), 0]}
                    for i, h in enumerate(hands)
                ],
            }
            for column, hands in ((1, (1, 2)), (2, (2, 3)), (3, (3, 4)))
        ],
    }
    tied = score_hollywood([(0, 100), (1, 100)], {"name": "standard", "hollywood_columns": 2})
    assert tied.explain()[-3:] == [
        {"code": "grand_total", "player": 0, "total": 325},
        {"code": "grand_total", "player": 1, "total": 325},
        {"code": "hollywood_tied", "total": 325},
    ]
    assert (tied.finished, tied.winner, tied.difference) == (True, None, 0)


def test_a_game_and_an_open_hollywood_sheet_explained_in_full():
    steps = score_game([(0, 60), (1, 14), (0, 45)]).explain()
    assert steps == [
        {"code": "hand_won", "hand": 1, "player": 0, "points": 60, "boxes": 1, "totals": [60, 0]},
        {"code": "hand_won", "hand": 2, "player": 1, "points": 14, "boxes": 1, "totals": [60, 14]},
        {"code": "hand_won", "hand": 3, "player": 0, "points": 45, "boxes": 1, "totals": [105, 14]},
        {"code": "game_won", "hand": 3, "player": 0, "points": 105, "target": 100},
        {"code": "game_bonus", "player": 0, "amount": 100},
        {"code": "box_bonus", "player": 0, "boxes": 2, "each": 25, "amount": 50},
        {"code": "box_bonus", "player": 1, "boxes": 1, "each": 25, "amount": 25},
        {
            "code": "total",
            "player": 0,
            "points": 105,
            "box_bonus": 50,
            "game_bonus": 100,
            "shutout_bonus": 0,
            "total": 255,
        },
        {
            "code": "total",
            "player": 1,
            "points": 14,
            "box_bonus": 25,
            "game_bonus": 0,
            "shutout_bonus": 0,
            "total": 39,
        },
        {"code": "difference", "player": 0, "loser": 1, "amount": 216, "winner": 0},
    ]
    # Hollywood, nothing closed: each column says it is in progress, under its number
    assert score_hollywood([(1, 5)]).explain() == [
        {
            "code": "hand_won",
            "hand": 1,
            "player": 1,
            "points": 5,
            "boxes": 1,
            "totals": [[0, 5], [0, 0], [0, 0]],
            "columns": [1],
        },
        {"code": "game_in_progress", "target": 100, "points": [0, 5], "column": 1},
        {"code": "game_in_progress", "target": 100, "points": [0, 0], "column": 2},
        {"code": "game_in_progress", "target": 100, "points": [0, 0], "column": 3},
        {"code": "grand_total", "player": 0, "total": 0},
        {"code": "grand_total", "player": 1, "total": 5},
        {"code": "hollywood_in_progress", "open": [1, 2, 3]},
    ]


def _entry_error(field, value, message, code="bad_entry", **more):
    return {"code": code, "message": message, "params": {"field": field, "value": value, **more}}


LONG = "9" * 50
REFUSED_ENTRIES = {  # name: (what is scored, the error in full)
    "entries as text": (
        lambda: score_game("0 25" + LONG),
        _entry_error("entries", ("0 25" + LONG)[:40], "hand entries must be a list"),
    ),
    "entries as a number": (
        lambda: score_hollywood(7),
        _entry_error("entries", "7", "hand entries must be a list"),
    ),
    "entries without end": (
        lambda: score_game(endless((0, 0), MAX_ENTRIES + 1)),
        {
            "code": "too_many",
            "message": f"entries: more than {MAX_ENTRIES} hands",
            "params": {"field": "entries", "limit": MAX_ENTRIES},
        },
    ),
    "an entry as text": (
        lambda: score_game(["0 25" + LONG]),
        _entry_error(
            "entry",
            ("0 25" + LONG)[:40],
            f"a hand entry must be an object, not {('0 25' + LONG)[:40]}",
        ),
    ),
    "an unknown field": (
        lambda: score_game([{"winner": 0, "points": 5, "pionts": LONG}]),
        _entry_error("pionts", LONG[:40], "unknown field 'pionts' in a hand entry"),
    ),
    "an unknown field with a long name": (
        lambda: score_game([{"winner": 0, "points": 5, LONG: 1}]),
        _entry_error(LONG[:40], "1", f"unknown field {LONG[:40]!r} in a hand entry"),
    ),
    "no winner": (
        lambda: score_game([{"points": 5}]),
        _entry_error("winner", None, "a hand entry needs 'winner'"),
    ),
    "no points": (
        lambda: score_game([{"winner": 1}]),
        _entry_error("points", None, "a hand entry needs 'points'"),
    ),
    "points over the most": (
        lambda: score_game([(0, MAX_HAND_POINTS + 1)]),
        _entry_error(
            "points",
            str(MAX_HAND_POINTS + 1),
            f"points must be a whole number from 0 to {MAX_HAND_POINTS}, not {MAX_HAND_POINTS + 1}",
            low=0,
            high=MAX_HAND_POINTS,
        ),
    ),
    "points too long to quote": (
        lambda: score_game([(0, LONG)]),
        _entry_error(
            "points",
            LONG[:40],
            f"points must be a whole number from 0 to {MAX_HAND_POINTS}, not {LONG[:40]}",
            low=0,
            high=MAX_HAND_POINTS,
        ),
    ),
}


@pytest.mark.parametrize("name", REFUSED_ENTRIES)
def test_a_bad_entry_is_refused_in_full(name):
    """Entries that are not a list (or never end), an entry that is not one, and numbers out
    of range get their error in full, what they quote cut to 40 characters."""
    score, expected = REFUSED_ENTRIES[name]
    with pytest.raises(RuleError) as info:
        score()
    assert info.value.to_json() == expected


def test_the_largest_entry_is_scored():
    """MAX_HAND_POINTS points and MAX_BOXES boxes are an entry (one more of either is not)."""
    sheet = score_game([HandEntry(1, MAX_HAND_POINTS, MAX_BOXES)], "standard")
    assert (sheet.rows[0].points, sheet.rows[0].boxes) == (MAX_HAND_POINTS, MAX_BOXES)


def test_a_sheet_may_have_max_entries_hands():
    """MAX_ENTRIES hands are not too many for a sheet (one more is: REFUSED_ENTRIES)."""
    assert len(score_game([(0, 0)] * MAX_ENTRIES, "standard").rows) == MAX_ENTRIES
