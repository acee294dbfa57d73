"""Command line: ``python -m ginrummy COMMAND``.

Commands (hands from the arguments, or from stdin, one per line, for batches)::

    deadwood CARDS               minimum deadwood of 10 or 11 cards
    melds CARDS                  the best melds, deadwood and (11 cards) discard
    score KNOCKER | DEFENDER     score a knock: the knocker's 10 cards (11: big gin), the defender's 10
    layoffs MELDS | DEFENDER     the defender's best lay-offs onto the knocker's melds ("/" between melds)
    sheet ENTRY...               a score sheet; each entry is "WINNER POINTS", e.g. "A 25" (A or B)

Options: ``--rules NAME`` (score, sheet), ``--upcard CARD`` (score: Oklahoma), ``--hollywood``
(sheet), ``--json`` (print JSON, one object per input line); an option a command does not take
is refused, never ignored. Bad input gives a one-line error and exit status 2; the other lines
of a batch are still answered.

Examples::

    $ python -m ginrummy deadwood "AS 2S 3S 7H 7D 7C 9C TC JC KD"
    10
    $ echo "3H 4H 5H 7C 7D 7S 9S 9C KD KH | 3S 4S 5S 6S 9H TH JH 2C 2D 8C" | python -m ginrummy score
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable
from typing import Any

from .api import call

USAGE_ERROR = 2
COMMANDS = ("deadwood", "melds", "score", "layoffs", "sheet")
OPTIONS = {
    "rules": ("score", "sheet"),
    "upcard": ("score",),
    "hollywood": ("sheet",),
}
"""The options that change an answer, and the commands that take each (``--json`` is for
all): any other use of one is refused, so that it is never silently ignored."""
USAGE = """python -m ginrummy deadwood CARDS
       python -m ginrummy melds CARDS
       python -m ginrummy score KNOCKER "|" DEFENDER [--rules NAME] [--upcard CARD]
       python -m ginrummy layoffs MELDS "|" DEFENDER       (melds with "/" between them)
       python -m ginrummy sheet ENTRY... [--rules NAME] [--hollywood]    (an entry: "A 25")
       Each takes --json; with no cards or entries, it reads them from stdin, one per line."""


class InputError(Exception):
    """One input line that is not written as its command needs: its message says how."""


def _request(command: str, text: str, args: argparse.Namespace) -> dict[str, Any]:
    """The API request for one input line of a command."""
    if command in ("deadwood", "melds"):
        return {"op": command, "cards": text}
    left, sep, right = text.partition("|")
    if not sep:
        first = "the knocker's cards" if command == "score" else "the knocker's melds"
        raise InputError(f"write {first}, then |, then the defender's cards")
    if command == "score":
        request: dict[str, Any] = {
            "op": "score",
            "knocker": left.strip(),
            "defender": right.strip(),
            "rules": args.rules or "standard",
        }
        if args.upcard:
            request["upcard"] = args.upcard
        return request
    melds = [m.strip() for m in left.split("/") if m.strip()]
    return {"op": "layoffs", "knocker_melds": melds, "defender": right.strip()}


PLAYER_NAMES = "AB"
ENTRY = re.compile(r"\s*([ABab01])\s+([0-9]+)\s*", re.ASCII)
"""A score sheet entry: the winner (A or B, or 0 or 1), then the points."""


def _sheet_request(lines: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """Entries written "A 25" (or "0 25", or with a tab): the winner, then the points."""
    entries: list[dict[str, Any]] = []
    for line in lines:
        match = ENTRY.fullmatch(line)
        if not match:
            raise InputError(
                f"{line.strip()[:40]!r} is not an entry: write the winner (A or B), then the "
                'points, like "A 25"'
            )
        winner, points = match.groups()
        entries.append(
            {
                "winner": int(winner) if winner.isdigit() else PLAYER_NAMES.index(winner.upper()),
                "points": int(points),
            }
        )
    return {
        "op": "sheet",
        "entries": entries,
        "rules": args.rules or "standard",
        "format": "hollywood" if args.hollywood else "standard",
    }


def _show(command: str, result: dict[str, Any]) -> str:
    """Readable text for one answer."""
    if command == "deadwood":
        return str(result["points"])
    if command == "melds":
        lines = [
            f"melds:    {' | '.join(result['melds']) or '-'}",
            f"deadwood: {result['deadwood'] or '-'} ({result['points']})",
        ]
        if result.get("discard"):
            lines.append(f"discard:  {result['discard']}")
        return "\n".join(lines)
    if command == "score":
        r = result
        lines = [
            f"{r['outcome']}: {r['winner']} scores {r['points']}",
            f"knocker:  {' | '.join(r['knocker_melds']) or '-'}  deadwood "
            f"{r['knocker_deadwood'] or '-'} ({r['knocker_points']})",
            f"defender: {' | '.join(r['defender_melds']) or '-'}  deadwood "
            f"{r['defender_deadwood'] or '-'} ({r['defender_points']})",
        ]
        if r.get("lay_offs"):
            lines.append(
                "lay-offs: " + ", ".join(f"{l['card']} on {l['meld']}" for l in r["lay_offs"])
            )
        return "\n".join(lines)
    if command == "layoffs":
        lay = ", ".join(f"{l['card']} on {l['meld']}" for l in result["lay_offs"]) or "none"
        return (
            f"lay-offs: {lay}\nmelds:    {' | '.join(result['melds']) or '-'}\n"
            f"deadwood: {result['deadwood'] or '-'} ({result['points']})"
        )
    if "columns" in result:
        return (
            "\n\n".join(f"column {c['column']}\n{_show_game(c)}" for c in result["columns"])
            + "\n\ngrand total: "
            + _pair(result["totals"])
            + _winner_line(result)
        )
    return _show_game(result)


def _pair(values: Iterable[object]) -> str:
    return "  ".join(f"{name} {value}" for name, value in zip(PLAYER_NAMES, values))


def _winner_line(sheet: dict[str, Any]) -> str:
    if not sheet["finished"]:
        return "  (in progress)"
    if "collector" not in sheet:  # Hollywood: the larger grand total wins
        return (
            ""
            if sheet["winner"] is None
            else f"  {PLAYER_NAMES[sheet['winner']]} wins by {sheet['difference']}"
        )
    won = f"  {PLAYER_NAMES[sheet['winner']]} wins the game;"
    if sheet["collector"] is None:
        return f"{won} equal totals, nobody collects"
    return f"{won} {PLAYER_NAMES[sheet['collector']]} collects {sheet['difference']}"


def _show_game(sheet: dict[str, Any]) -> str:
    lines = [f"hand  winner  points  {'A':>5} {'B':>5}"]
    for row in sheet["rows"]:
        lines.append(
            f"{row['hand']:>4}  {PLAYER_NAMES[row['winner']]:>6}  {row['points']:>6}  "
            f"{row['totals'][0]:>5} {row['totals'][1]:>5}"
        )
    if sheet["finished"]:
        lines.append(
            f"game bonus {sheet['game_bonus']}, box bonus {_pair(sheet['box_bonus'])}"
            + (f", shutout {sheet['shutout_bonus']}" if sheet["shutout"] else "")
        )
    lines.append("total: " + _pair(sheet["totals"]) + _winner_line(sheet))
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m ginrummy",
        usage=USAGE,
        description="Exact gin rummy: melds, deadwood, lay-offs, scores.",
    )
    # Both optional to argparse, which would otherwise call the cards required; a missing
    # command is reported by main.
    parser.add_argument("command", nargs="?", help=", ".join(COMMANDS))
    parser.add_argument("input", nargs="*", help="cards or entries; none: lines from stdin")
    parser.add_argument("--rules", help="score, sheet: the rule preset (default: standard)")
    parser.add_argument("--upcard", help="score: the upcard, for Oklahoma")
    parser.add_argument("--hollywood", action="store_true", help="sheet: Hollywood scoring")
    parser.add_argument("--json", action="store_true", help="print JSON")
    return parser


def _check_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.command not in COMMANDS:
        shown = "no command" if args.command is None else f"unknown command {args.command!r}"
        parser.error(f"{shown[:60]}: use one of {', '.join(COMMANDS)}")
    for option, commands in OPTIONS.items():
        if getattr(args, option) not in (None, False) and args.command not in commands:
            takers = " and ".join(commands) + (" take" if len(commands) > 1 else " takes")
            parser.error(f"{args.command} takes no --{option} (only {takers} it)")


def _error(message: str) -> dict[str, Any]:
    """A refused input line, answered as the API answers a refused request."""
    return {"v": 1, "ok": False, "error": {"code": "bad_input", "message": message, "params": {}}}


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_intermixed_args(argv)  # options may come after the command
    _check_options(parser, args)

    if args.command == "sheet":
        lines = [args.input] if args.input else [_stdin_lines()]
    else:
        lines = [[" ".join(args.input)]] if args.input else [[l] for l in _stdin_lines()]

    status = 0
    try:
        for line in lines:
            try:
                request = (
                    _sheet_request(line, args)
                    if args.command == "sheet"
                    else _request(args.command, line[0], args)
                )
            except InputError as error:
                response = _error(str(error))
            else:
                response = call(request)
            if args.json:
                print(
                    json.dumps(
                        response["result"] if response["ok"] else response, ensure_ascii=False
                    )
                )
            elif response["ok"]:
                print(_show(args.command, response["result"]))
            if not response["ok"]:
                status = USAGE_ERROR
                if not args.json:
                    print(f"error: {response['error']['message']}", file=sys.stderr)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader of our output went away (| head): stop quietly
        sys.stdout = None
        return status
    return status


def _stdin_lines() -> list[str]:
    return [line for line in sys.stdin.read().splitlines() if line.strip()]


if __name__ == "__main__":
    sys.exit(main())
