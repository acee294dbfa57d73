"""The JSON API's answers in full: tests/data/api_answers.json holds a request for every op,
in the shapes a reader meets (a hand that can and cannot knock, gin and big gin, an undercut, a
lay-off chain, what each player sees mid-hand, while laying off and at the end of a hand, a
lay-off made by hand and its review, sheets won by either player, a game's next hand), each
with the whole result it must get. The scores in it were checked by hand; a changed answer is
a change of what the site shows, to be reviewed, not regenerated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ginrummy.api import API_VERSION, OPS, call, handle

ANSWERS = json.loads(
    (Path(__file__).parent.parent / "data" / "api_answers.json").read_text("utf-8")
)


@pytest.mark.parametrize("case", ANSWERS["cases"], ids=[c["id"] for c in ANSWERS["cases"]])
def test_an_op_answers_in_full(case):
    assert call(case["request"]) == {"v": API_VERSION, "ok": True, "result": case["result"]}


def test_every_op_has_an_answer():
    assert {case["request"]["op"] for case in ANSWERS["cases"]} == set(OPS)


def test_the_text_boundary_answers_the_same():
    case = next(c for c in ANSWERS["cases"] if c["id"] == "view-end-laid-off")
    answer = json.loads(handle(json.dumps(case["request"])))
    assert answer == {"v": API_VERSION, "ok": True, "result": case["result"]}
