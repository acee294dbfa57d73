"""The Python the site ships, run under Pyodide in Node, answers exactly as CPython does.

A fixed batch of requests goes through tests/pyodide/run_engine.mjs (``ginview.api.handle``,
as the browser's worker calls it), both ways the site can boot: restoring the site's memory
snapshot (what the browser does), and loading the site's wheels by name through its
pyodide-lock.json. The batch holds

- engine requests (seeded random 10- and 11-card hands, every op, bad input), passed through;
- every example of every page of the built site, in the page's language: the view the worker
  draws must be exactly the one the build wrote into the page;
- edits, share links and lesson answers in every language, good and bad.

Every response string must be identical to CPython's for the same request string.
"""

from __future__ import annotations

import html
import json
import random
import re
import subprocess
from pathlib import Path

import pytest
from ginrummy.api import API_VERSION, OPS, handle
from ginview import api as view_api
from ginview.examples import KINDS
from ginview.steps import STEPS

from sitegen import catalogs
from sitegen.languages import languages
from sitegen.snapshot import requests as warm_up

RUNNER = Path(__file__).with_name("run_engine.mjs")


def ask_runner(
    node: str, runtime: Path, requests: list[str], *boot: str, timeout: int = 600
) -> subprocess.CompletedProcess[str]:
    """run_engine.mjs on a runtime folder (booted as ``boot``: "snapshot", "wheel", or its
    default), given a batch of request texts; its answers are a JSON list on stdout."""
    return subprocess.run(
        [node, str(RUNNER), str(runtime), *boot],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


EXAMPLE = re.compile(
    r'<section class="gin-example(?: gin-static-example)?" data-gin-kind="(\w+)" '
    r'data-gin="([^"]*)"[^>]*><div class="gin-view">(.*?)</div>'
    r'(?:<div class="gin-tools|</section>)',
    re.S,
)


def page_examples(site: Path) -> list[tuple[str, dict, str]]:
    """(language, state, view) of every example in the built site's pages."""
    found = []
    for lang in languages():
        folder = site if lang == "en" else site / lang
        for page in sorted(folder.rglob("index.html")):
            if lang == "en" and page.relative_to(site).parts[0] in languages():
                continue
            for _kind, state, view in EXAMPLE.findall(page.read_text(encoding="utf-8")):
                found.append((lang, json.loads(html.unescape(state)), view))
    return found


DECK = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]


def request_batch() -> list[str]:
    rng = random.Random(20261130)
    requests = [json.dumps({"v": 1, "op": "version"})]
    for i in range(50):
        hand = " ".join(rng.sample(DECK, 10 if i % 2 == 0 else 11))
        requests.append(json.dumps({"v": 1, "op": "melds", "cards": hand}))
        if i % 5 == 0:
            requests.append(json.dumps({"v": 1, "op": "deadwood", "cards": hand}))
    # Meld-dense hands: cards from ranks 3 to 7 only.
    dense = [c for c in DECK if c[0] in "34567"]
    for _ in range(6):
        requests.append(
            json.dumps({"v": 1, "op": "melds", "cards": " ".join(rng.sample(dense, 11))})
        )
    for i in range(12):  # every other op, on random hands
        cards = rng.sample(DECK, 21)
        requests.append(
            json.dumps(
                {
                    "op": "knock",
                    "cards": " ".join(cards[:11]),
                    "rules": ["standard", "oklahoma"][i % 2],
                    "upcard": cards[11],
                }
            )
        )
        requests.append(
            json.dumps(
                {
                    "op": "score",
                    "knocker": " ".join(cards[:10]),
                    "defender": " ".join(cards[10:20]),
                    "rules": ["standard", "pagat", "pokerwiner"][i % 3],
                }
            )
        )
    requests += [
        json.dumps(r)
        for r in (
            {
                "op": "layoffs",
                "knocker_melds": [["4H", "5H", "6H"], ["9S", "9D", "9C"]],
                "defender": "7H 8H 3H 2H 2C 3C KD KS QD 9H",
            },
            {"op": "sheet", "entries": [[0, 25], [1, 40], [0, 90], [0, 20]], "rules": "pagat"},
            {
                "op": "sheet",
                "format": "hollywood",
                "entries": [[0, 25], [1, 40], [0, 110], [1, 30]],
            },
            {"op": "rules"},
            {"op": "parse", "cards": "A♠ 10h, jh qh kh"},
            {"op": "deal", "seed": 11},
            {"op": "play", "state": {}, "action": {"kind": "draw"}},
        )
    ]
    dealt = json.loads(handle(json.dumps({"op": "deal", "seed": 11})))["result"]
    requests.append(
        json.dumps({"op": "play", "state": dealt["state"], "action": dealt["legal"][0]})
    )
    requests += [json.dumps(r) for r in play_requests()]
    requests += [
        json.dumps({"op": "melds", "cards": "4S 6S KS KH 4D 5D 6D 4C 5C 6C KC"}),  # 11 cards, 4
        json.dumps({"op": "melds", "cards": "A♠ 2♠ 3♠ 10h jh qh kh 5d 5c 5s"}),  # other notation
        # Bad input: each must come back as the same coded error.
        json.dumps({"op": "melds", "cards": "AS AS 3S 4S 5S 6S 7S 8S 9S TS"}),  # duplicate
        json.dumps({"op": "melds", "cards": "ZS 2S 3S 4S 5S 6S 7S 8S 9S TS"}),  # impossible card
        json.dumps({"op": "melds", "cards": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"}),  # too many
        json.dumps({"op": "melds", "cards": "AS 2S 3S"}),  # too few
        json.dumps({"op": "melds"}),  # missing field
        json.dumps({"op": "melds", "cards": 42}),  # wrong type
        json.dumps({"op": "no_such_op"}),
        json.dumps(["not", "an", "object"]),
        "this is not JSON",
        "",
    ]
    return requests


def play_requests() -> list[dict]:
    """The play ops: a view, every bot level, the coach, a knock's lay-offs, a game's moves."""
    state = json.loads(handle(json.dumps({"op": "deal", "seed": 5})))["result"]["state"]
    while state["phase"] != "lay_off":  # strong bots until someone knocks
        move = json.loads(handle(json.dumps({"op": "bot", "state": state})))["result"]
        if "action" not in move:
            break
        answer = json.loads(handle(json.dumps({"op": "play", "state": state, **move})))
        state = answer["result"]["state"]
        if state["phase"] == "finished":
            state = json.loads(handle(json.dumps({"op": "deal", "seed": len(state["history"])})))[
                "result"
            ]["state"]
    dealt = json.loads(handle(json.dumps({"op": "deal", "seed": 9})))["result"]["state"]
    game = json.loads(handle(json.dumps({"op": "game_new", "seed": 3, "format": "hollywood"})))
    game = game["result"]["game"]
    requests = [{"op": "view", "state": state, "player": p} for p in (0, 1)]
    requests += [
        {"op": "bot", "state": dealt, "level": level, "seed": 2}
        for level in ("beginner", "intermediate", "strong", "master")
    ]
    requests += [
        {"op": "advice", "state": dealt, "samples": 3, "seed": 1},
        {"op": "lay_off_check", "state": state, "lay_offs": []},
        {"op": "lay_off_review", "state": state},
        {"op": "game_new", "seed": 3, "format": "hollywood"},
        {"op": "game_play", "game": game, "action": {"kind": "pass", "player": 1}},
        {"op": "game_next", "game": game},
    ]
    return requests


def site_batch(site: Path) -> list[str]:
    """Engine requests (wrapped), every page example, and the warm-up's edits and answers."""
    out = [
        json.dumps({"op": "engine", "request": json.loads(r)}) if r.startswith("{") else r
        for r in request_batch()
    ]
    for lang, state, _ in page_examples(site):
        out.append(json.dumps({"op": "render", "lang": lang, "state": state}))
    out += [json.dumps(r) for r in warm_up(languages())]
    return out


def cpython_responses(requests: list[str]) -> list[str]:
    catalogs.install_all()
    out = []
    for request in requests:
        try:
            out.append(view_api.handle(request))
        except Exception as exc:  # mirrors run_engine.mjs
            out.append(f"RAISED {type(exc).__name__}: {exc}")
    return out


@pytest.mark.parametrize("boot", ["snapshot", "wheel"])
def test_pyodide_answers_match_cpython(node, runtime_dir, site_dir, boot):
    requests = site_batch(site_dir)
    run = ask_runner(node, runtime_dir, requests, boot)
    assert run.returncode == 0, run.stderr
    from_pyodide = json.loads(run.stdout)
    expected = cpython_responses(requests)
    assert len(from_pyodide) == len(requests)
    for request, got, want in zip(requests, from_pyodide, expected):
        assert got == want, f"request {request!r}"
    # The batch really exercises the engine and the presentation layer: answers and errors.
    parsed = [json.loads(r) for r in expected]
    inner = [r["result"] if r["ok"] and set(r["result"]) >= {"v", "ok"} else r for r in parsed]
    assert sum(r["ok"] for r in inner) >= 150
    assert sum(not r["ok"] for r in inner) >= 40
    engine_ops = {
        json.loads(r)["request"].get("op")
        for r in requests
        if r.startswith('{"op": "engine"') and isinstance(json.loads(r)["request"], dict)
    }
    assert set(OPS) <= engine_ops, set(OPS) - engine_ops
    ops = {json.loads(r).get("op") for r in requests if r.startswith("{")}
    assert set(view_api.OPS) <= ops


def test_the_worker_draws_every_example_as_the_build_did(node, runtime_dir, site_dir):
    """Every example of the site, in its page's language: the view the worker's Python draws
    for the example's state is, byte for byte, the one in the built page."""
    examples = page_examples(site_dir)
    assert {state["kind"] for _, state, _ in examples} == set(KINDS)
    assert {lang for lang, _, _ in examples} == set(languages())
    requests = [
        json.dumps({"op": "render", "lang": lang, "state": state}) for lang, state, _ in examples
    ]
    run = ask_runner(node, runtime_dir, requests, "snapshot")
    assert run.returncode == 0, run.stderr
    for (lang, state, view), answer in zip(examples, json.loads(run.stdout)):
        result = json.loads(answer)["result"]
        assert result["state"] == state, "a page holds a state that is not canonical"
        assert result["view"] == view, (lang, state)


def test_the_warm_up_covers_every_kind_and_op():
    requests = warm_up(["en"])
    assert {r["state"]["kind"] for r in requests if r["op"] == "render" and "state" in r} >= set(
        KINDS
    )
    assert {r["step"]["ask"] for r in requests if r["op"] == "feedback"} == set(STEPS)
    assert {r["op"] for r in requests} >= set(view_api.OPS)


def test_runner_refuses_a_tampered_wheel(node, runtime_dir, tmp_path):
    """The runner checks the wheel against the lock's sha256 (the browser does so through fetch)."""
    lock = json.loads((runtime_dir / "pyodide-lock.json").read_text())
    for name in ("ginrummy", "ginview"):
        entry = lock["packages"][name]
        data = (runtime_dir / entry["file_name"]).read_bytes()
        (tmp_path / entry["file_name"]).write_bytes(data + (b"\0" if name == "ginview" else b""))
    (tmp_path / "pyodide-lock.json").write_text(json.dumps(lock))
    run = ask_runner(node, tmp_path, [json.dumps({"op": "version"})], timeout=300)
    assert run.returncode != 0
    assert "integrity" in run.stderr.lower() or "sha" in run.stderr.lower(), run.stderr


def test_the_snapshot_gives_the_recorded_api_answers(node, runtime_dir):
    """Every case of tests/data/api_answers.json (checked by hand, never regenerated), asked of
    the restored snapshot as the worker asks (ginview.api.handle, op "engine"): the whole
    answer recorded. The snapshot's code has no line tables (sitegen/snapshot.py
    line_tables, in_pyodide.mjs bareLines): nothing the engine answers may depend on them."""
    data = Path(__file__).resolve().parents[1] / "data" / "api_answers.json"
    cases = json.loads(data.read_text("utf-8"))["cases"]
    requests = [json.dumps({"op": "engine", "request": case["request"]}) for case in cases]
    run = ask_runner(node, runtime_dir, requests, "snapshot")
    assert run.returncode == 0, run.stderr
    answers = json.loads(run.stdout)
    assert len(answers) == len(cases) >= 20
    for case, answer in zip(cases, answers):
        outer = json.loads(answer)
        assert outer["ok"] is True, case["id"]
        assert outer["result"] == {"v": API_VERSION, "ok": True, "result": case["result"]}, case[
            "id"
        ]
