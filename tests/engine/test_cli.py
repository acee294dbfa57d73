"""`python -m ginrummy`: readable output, --json, batches from stdin, one-line errors."""

import json
import subprocess
import sys

import pytest


def run(*args, stdin=""):
    done = subprocess.run(
        [sys.executable, "-m", "ginrummy", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, done.stdout, done.stderr


def test_deadwood_from_arguments():
    assert run("deadwood", "AS 2S 3S 7H 7D 7C 9C TC JC KD") == (0, "10\n", "")


def test_melds_eleven_cards_names_the_discard():
    code, out, _ = run("melds", "4S", "6S", "KS", "KH", "4D", "5D", "6D", "4C", "5C", "6C", "KC")
    assert code == 0
    assert out.splitlines() == [
        "melds:    4D 5D 6D | 4C 5C 6C | KS KH KC",
        "deadwood: 4S (4)",
        "discard:  6S",
    ]


def test_batch_from_stdin_answers_every_line_and_reports_bad_ones():
    code, out, _err = run(
        "deadwood",
        "--json",
        stdin="AS 2S 3S 7H 7D 7C 9C TC JC KD\nAS 2S 7X\n3H 4H 5H 7C 7D 7S 9S 9C KD KH\n",
    )
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert lines[0] == {"points": 10} and lines[2] == {"points": 38}
    assert lines[1]["error"]["code"] == "unknown_suit"
    assert lines[1]["error"]["params"] == {"token": "7X", "position": 2}


def test_bad_input_is_one_line_never_a_traceback():
    for args in (
        ["deadwood", "AS AS"],
        ["melds", "ZZ"],
        ["score", "AS 2S"],
        ["layoffs", "7S 8S | AS"],
        ["sheet", "C 5"],
    ):
        code, out, err = run(*args)
        assert code == 2, args
        assert out == ""
        assert err.startswith("error: ") and err.count("\n") == 1, (args, err)


def test_score_knock_with_lay_offs():
    code, out, _ = run(
        "score", stdin="2S 3S 4S 7H 7D 7C 9C TC JC 5D | 8S 9S TS KH KD 4H 6C 6H 2C AD\n"
    )
    assert code == 0
    assert out.splitlines()[0] == "knock: knocker scores 34"


def test_score_oklahoma_upcard_sets_the_limit():
    hands = "2S 3S 4S 7H 7D 7C 9C TC JC 5D | 8S 9S TS KH KD 4H 6C 6H 2C AD"
    assert run("score", hands, "--rules", "oklahoma", "--upcard", "9S")[1].startswith(
        "knock: knocker scores 68"
    )
    code, _, err = run("score", hands, "--rules", "oklahoma", "--upcard", "4D")
    assert code == 2 and "limit" in err


def test_layoffs_chain():
    code, out, _ = run("layoffs", "8C 8D 8H / 9S TS JS | 8S 7S KH KD KC 2H 3H 4H 5C 6D")
    assert code == 0
    assert out.splitlines()[0] == "lay-offs: 8S on 9S TS JS, 7S on 8S 9S TS JS"


def test_sheet_standard():
    code, out, _ = run("sheet", "A 60", "B 14", "A 45")
    assert code == 0
    assert out.splitlines()[-1] == "total: A 255  B 39  A wins the game; A collects 216"


def test_sheet_json_matches_the_api():
    code, out, _ = run("sheet", "--hollywood", "--json", stdin="A 40\nA 40\nA 40\nB 30\n")
    sheet = json.loads(out)
    assert code == 0
    assert [c["finished"] for c in sheet["columns"]] == [True, False, False]


def test_options_may_come_after_the_command():
    code, out, _ = run("deadwood", "--json", "AS 2S 3S 7H 7D 7C 9C TC JC KD")
    assert code == 0 and json.loads(out) == {"points": 10}


def test_a_huge_bad_token_is_quoted_short():
    code, _, err = run("deadwood", "Z" * 100_000 + "S")
    assert code == 2 and len(err) < 200 and "Traceback" not in err


def test_a_huge_number_is_an_error_not_a_traceback():
    code, _, err = run("sheet", "A 99999999999999999999999")
    assert code == 2 and err.startswith("error: ") and "Traceback" not in err


def test_a_closed_output_stops_quietly():
    lines = "\n".join(["AS 2S 3S 7H 7D 7C 9C TC JC KD"] * 20000)
    proc = subprocess.Popen(
        [sys.executable, "-m", "ginrummy", "deadwood"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    proc.stdin.write(lines)
    proc.stdin.close()
    assert proc.stdout.readline() == "10\n"
    proc.stdout.close()  # like `| head -1`
    proc.wait(timeout=60)
    assert "Traceback" not in proc.stderr.read()


def test_a_sheet_entry_may_be_separated_by_a_tab_or_spaces():
    assert run("sheet", "A\t25", "B   14")[1].splitlines()[-1] == "total: A 25  B 14  (in progress)"


@pytest.mark.parametrize("entry", ["A ²", "A ٣", "² 25", "A", "A 25 B", "C 5", "A -5"])
def test_a_sheet_entry_not_written_winner_then_points_says_how_to_write_one(entry):
    code, out, err = run("sheet", entry)
    assert (code, out) == (2, "")
    assert err.startswith("error: ") and 'like "A 25"' in err and err.count("\n") == 1, err


@pytest.mark.parametrize("command", ["score", "layoffs"])
def test_a_knock_without_the_bar_says_where_the_defenders_cards_go(command):
    code, out, err = run(command, "2S 3S 4S 7H 7D 7C 9C TC JC 5D")
    assert (code, out) == (2, "")
    assert (
        err
        == "error: write the knocker's "
        + ("cards" if command == "score" else "melds")
        + ", then |, then the defender's cards\n"
    )


def test_a_bad_line_in_a_batch_is_answered_in_its_turn():
    hands = "2S 3S 4S 7H 7D 7C 9C TC JC 5D | 8S 9S TS KH KD 4H 6C 6H 2C AD"
    code, out, _ = run("score", "--json", stdin=f"{hands}\nAS 2S\n{hands}\n")
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [a.get("ok", True) for a in answers] == [True, False, True]
    assert answers[1]["error"]["code"] == "bad_input"


@pytest.mark.parametrize(
    "args, option",
    [
        (["deadwood", "--rules", "pagat", "AS 2S 3S 7H 7D 7C 9C TC JC KD"], "--rules"),
        (["melds", "--upcard", "9S", "AS 2S 3S 7H 7D 7C 9C TC JC KD"], "--upcard"),
        (["layoffs", "--upcard", "9S", "8C 8D 8H | 8S 7S KH KD KC 2H 3H 4H 5C 6D"], "--upcard"),
        (["sheet", "--upcard", "9S", "A 25"], "--upcard"),
        (["score", "--hollywood", "AS | 2S"], "--hollywood"),
    ],
)
def test_an_option_the_command_does_not_take_is_refused_not_ignored(args, option):
    code, out, err = run(*args)
    assert (code, out) == (2, "")
    assert f"{args[0]} takes no {option}" in err.splitlines()[-1]


def test_the_usage_names_every_command_and_requires_no_cards():
    code, _, err = run()
    assert code == 2 and "required" not in err
    assert err.splitlines()[-1].endswith(
        "no command: use one of deadwood, melds, score, layoffs, sheet"
    )
    assert all(f"python -m ginrummy {c}" in err for c in ("deadwood", "score", "sheet"))
    code, _, err = run("nope")
    assert code == 2 and "unknown command 'nope'" in err
