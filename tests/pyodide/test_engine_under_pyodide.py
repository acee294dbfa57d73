"""The engine the site ships, run under Pyodide in Node, answers exactly as CPython does.

A fixed batch of requests (seeded random 10- and 11-card hands, every op, and bad input) goes
through tests/pyodide/run_engine.mjs, both ways the site can boot the engine: restoring the
site's memory snapshot (what the browser does), and loading the site's engine wheel by name
through its pyodide-lock.json. Every response string must be identical to CPython's
``ginrummy.api.handle`` for the same request string.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from ginrummy.api import OPS, handle

RUNNER = Path(__file__).with_name("run_engine.mjs")
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
        requests.append(json.dumps({"v": 1, "op": "melds", "cards": " ".join(rng.sample(dense, 11))}))
    for i in range(12):  # every other op, on random hands
        cards = rng.sample(DECK, 21)
        requests.append(json.dumps({"op": "knock", "cards": " ".join(cards[:11]),
                                    "rules": ["standard", "oklahoma"][i % 2], "upcard": cards[11]}))
        requests.append(json.dumps({"op": "score", "knocker": " ".join(cards[:10]),
                                    "defender": " ".join(cards[10:20]),
                                    "rules": ["standard", "pagat", "pokerwiner"][i % 3]}))
    requests += [json.dumps(r) for r in (
        {"op": "layoffs", "knocker_melds": [["4H", "5H", "6H"], ["9S", "9D", "9C"]],
         "defender": "7H 8H 3H 2H 2C 3C KD KS QD 9H"},
        {"op": "sheet", "entries": [[0, 25], [1, 40], [0, 90], [0, 20]], "rules": "pagat"},
        {"op": "sheet", "format": "hollywood", "entries": [[0, 25], [1, 40], [0, 110], [1, 30]]},
        {"op": "rules"},
        {"op": "parse", "cards": "A♠ 10h, jh qh kh"},
        {"op": "deal", "seed": 11},
        {"op": "play", "state": {}, "action": {"kind": "draw"}},
    )]
    dealt = json.loads(handle(json.dumps({"op": "deal", "seed": 11})))["result"]
    requests.append(json.dumps({"op": "play", "state": dealt["state"], "action": dealt["legal"][0]}))
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


def cpython_responses(requests: list[str]) -> list[str]:
    out = []
    for request in requests:
        try:
            out.append(handle(request))
        except Exception as exc:  # mirrors run_engine.mjs
            out.append(f"RAISED {type(exc).__name__}: {exc}")
    return out


@pytest.mark.parametrize("boot", ["snapshot", "wheel"])
def test_pyodide_answers_match_cpython(node, runtime_dir, boot):
    requests = request_batch()
    run = subprocess.run(
        [node, str(RUNNER), str(runtime_dir), boot],
        input=json.dumps(requests), capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr
    from_pyodide = json.loads(run.stdout)
    expected = cpython_responses(requests)
    assert len(from_pyodide) == len(requests)
    for request, got, want in zip(requests, from_pyodide, expected):
        assert got == want, f"request {request!r}"
    # The batch really exercises the engine: answers and coded errors both.
    parsed = [json.loads(r) for r in expected]
    assert sum(r["ok"] for r in parsed) >= 50
    assert sum(not r["ok"] for r in parsed) >= 8
    ops = {json.loads(r).get("op") for r in requests if r.startswith("{")}
    assert set(OPS) <= ops, set(OPS) - ops


def test_runner_refuses_a_tampered_wheel(node, runtime_dir, tmp_path):
    """The runner checks the wheel against the lock's sha256 (the browser does so through fetch)."""
    lock = json.loads((runtime_dir / "pyodide-lock.json").read_text())
    entry = lock["packages"]["ginrummy"]
    (tmp_path / entry["file_name"]).write_bytes(
        (runtime_dir / entry["file_name"]).read_bytes() + b"\0")
    (tmp_path / "pyodide-lock.json").write_text(json.dumps(lock))
    run = subprocess.run(
        [node, str(RUNNER), str(tmp_path)],
        input=json.dumps([json.dumps({"op": "version"})]),
        capture_output=True, text=True, timeout=300,
    )
    assert run.returncode != 0
    assert "integrity" in run.stderr.lower() or "sha" in run.stderr.lower(), run.stderr
