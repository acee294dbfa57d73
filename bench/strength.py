"""Bot strength: games to 100 with Wilson 95% intervals, side by side in one run.

    .venv/bin/python bench/strength.py                      # every match, 1000 games each
    .venv/bin/python bench/strength.py --games 200          # a quicker look
    .venv/bin/python bench/strength.py --matches strong-simple strong-old
    .venv/bin/python bench/strength.py --workers 2 --progress 50

Matches (``--matches``):

- ``strong-simple``, ``intermediate-simple``, ``beginner-simple``: each level against a port
  of ``SimpleGinRummyPlayer`` from the EAAI Undergraduate Research Challenge (Neller, gin
  rummy, 2021): take the upcard, or the top of the discard pile, only if it makes a meld with
  cards in hand; discard a card leaving the least deadwood, ties broken at random, never the
  card just taken from the pile, and never a (drawn, discarded) pair it already played this
  hand; knock at the first chance (gin when the deadwood is 0). Issue 30's goal: strong wins
  at least 70%.
- ``strong-old``: the strong bot against the strong bot as it was before the coach became the
  strong player (``bench/frozen_bots.py``, kept frozen as the reference). Goal: at least 58%.
- ``coach-strong``: the coach followed as a player (each move the first hint's best, the
  page's budget) against the strong bot, over duplicate deals: every game's deals are played
  twice, the coach in each seat. Goal: not worse (50% or more, or within the interval).

Every game is to 100 under the ``standard`` preset (its rules and its alternating deal),
the bot under test in seat 0 in even games and seat 1 in odd ones, the first dealer
alternating every two games. Bots are given the game, so the strong bot weighs the score.
Each match prints wins, the win rate with its 95% Wilson interval, the mean hand points per
hand, and the CPU seconds per decision of each side (CPython, this machine).
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import frozen_bots
from ginrummy.advice import advise
from ginrummy.bots import choose, joins_meld
from ginrummy.hand import Action
from ginrummy.match import new_game, next_hand, play
from ginrummy.melds import min_deadwood_mask
from ginrummy.public import view

MATCHES = {
    "strong-simple": ("strong", "simple"),
    "intermediate-simple": ("intermediate", "simple"),
    "beginner-simple": ("beginner", "simple"),
    "strong-old": ("strong", "old-strong"),
    "coach-strong": ("coach", "strong"),
}


def simple_player(state, rng: random.Random) -> Action:
    """SimpleGinRummyPlayer's move for ``state.turn``, from that player's view."""
    seen = view(state, state.turn)
    me = seen.player
    actions = seen.legal_actions()
    kinds = {a.kind for a in actions}
    if seen.phase in ("offer", "draw"):
        take = bool(seen.discards) and joins_meld(seen.hand.mask, seen.discards[-1])
        if seen.phase == "offer":
            return Action("take_upcard" if take else "pass", me)
        return Action("draw_discard" if take and "draw_discard" in kinds else "draw_stock", me)
    if seen.phase == "lay_off":
        return actions[0]
    drawn = seen.taken if seen.taken is not None else seen.hand[-1]
    played = set()  # (drawn, discarded) pairs this hand, from the public history
    for before, after in zip(seen.history, seen.history[1:]):
        if before.player == me and before.card is not None and after.kind == "discard":
            played.add((before.card, after.card))
    best, candidates = None, []
    for card in seen.hand:
        if card is seen.taken or (drawn, card) in played:
            continue
        points = min_deadwood_mask(seen.hand.mask ^ card.bit)
        if best is None or points < best:
            best, candidates = points, [card]
        elif points == best:
            candidates.append(card)
    card = candidates[rng.randrange(len(candidates))]
    for kind in ("gin", "knock"):
        if Action(kind, me, card) in actions:
            return Action(kind, me, card)
    return Action("discard", me, card)


def player(name: str, number: int):
    """A function from a game to the move of ``name``'s player in game ``number``."""
    if name == "simple":
        rng = random.Random(number)
        return lambda game: simple_player(game.hand, rng)
    if name == "old-strong":
        return lambda game: frozen_bots.choose(game.hand, "strong", seed=number)
    if name == "coach":
        return lambda game: advise(game).best.action
    return lambda game, level=name: choose(game, level, seed=number)


def play_game(
    players, seed: int, dealer: int
) -> tuple[int, int, list[float], list[int], list[int]]:
    """One game to the end: the winner, the hands played, each player's CPU seconds,
    decisions and hand points won."""
    game = new_game("standard", seed=seed, dealer=dealer)
    seconds, decisions, points = [0.0, 0.0], [0, 0], [0, 0]
    hands = 0
    while True:
        while not game.hand.finished:
            turn = game.hand.turn
            started = time.process_time()
            action = players[turn](game)
            seconds[turn] += time.process_time() - started
            decisions[turn] += 1
            game = play(game, action)
        hands += 1
        entry = game.hand.entry()
        if entry is not None:
            points[entry.winner] += entry.points
        if game.finished:
            return game.sheet.winner, hands, seconds, decisions, points
        game = next_hand(game)


def one_game(args: tuple[str, int]) -> dict:
    """Game ``number`` of a match; for ``coach-strong`` the same deals twice, seats swapped."""
    name, number = args
    tested, other = MATCHES[name]
    seats = (number % 2,) if name != "coach-strong" else (0, 1)
    out = {"wins": 0, "games": 0, "hands": 0, "seconds": [0.0, 0.0], "decisions": [0, 0], "net": 0}
    for seat in seats:
        players = [None, None]
        players[seat] = player(tested, number)
        players[1 - seat] = player(other, number)
        dealer = (number // 2) % 2 if name != "coach-strong" else number % 2
        winner, hands, seconds, decisions, points = play_game(players, number, dealer)
        out["wins"] += winner == seat
        out["games"] += 1
        out["hands"] += hands
        out["net"] += points[seat] - points[1 - seat]
        out["seconds"][0] += seconds[seat]
        out["seconds"][1] += seconds[1 - seat]
        out["decisions"][0] += decisions[seat]
        out["decisions"][1] += decisions[1 - seat]
    return out


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    middle = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return middle - half, middle + half


def empty() -> dict:
    return {"wins": 0, "games": 0, "hands": 0, "seconds": [0.0, 0.0], "decisions": [0, 0], "net": 0}


def add(total: dict, result: dict) -> None:
    for key in ("wins", "games", "hands", "net"):
        total[key] += result[key]
    for key in ("seconds", "decisions"):
        total[key] = [a + b for a, b in zip(total[key], result[key])]


def row(name: str, r: dict, elapsed: float) -> str:
    low, high = wilson(r["wins"], r["games"])
    mine = r["seconds"][0] / max(1, r["decisions"][0])
    theirs = r["seconds"][1] / max(1, r["decisions"][1])
    return (
        f"{name:<20} {r['wins']:>5}/{r['games']:<5} {r['wins'] / max(1, r['games']):>9.1%} "
        f"{low:>7.1%}-{high:<7.1%} {r['net'] / max(1, r['hands']):>+9.2f} {mine:>11.3f} "
        f"{theirs:>7.3f} {r['hands']:>7} {elapsed:>6.0f}s"
    )


def run(names: list[str], games: int, workers: int, progress: int) -> dict[str, dict]:
    """Every match's games, interleaved (game n of each match in turn), so that a run stopped
    early has as many games of each."""
    totals = {name: empty() for name in names}
    tasks = [
        (name, n)
        for n in range(games)
        for name in names
        if name != "coach-strong" or n < games // 2  # two games (seats swapped) per deal
    ]
    started = time.time()
    with Pool(workers) as pool:
        for done, ((name, _), result) in enumerate(zip(tasks, pool.imap(one_game, tasks)), 1):
            add(totals[name], result)
            if progress and done % progress == 0:
                for shown, total in totals.items():
                    print(row(shown, total, time.time() - started), file=sys.stderr, flush=True)
                print(file=sys.stderr, flush=True)
    for total in totals.values():
        total["elapsed"] = time.time() - started
    return totals


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--matches", nargs="*", default=list(MATCHES), choices=MATCHES)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--progress", type=int, default=0, metavar="N")
    args = parser.parse_args(argv)
    print(
        f"Games to 100, standard rules; CPython {platform.python_version()} on "
        f"{platform.machine()}, {args.workers} worker processes"
    )
    print(
        f"{'match':<20} {'wins':>11} {'win rate':>9} {'95% Wilson':>15} {'pts/hand':>9} "
        f"{'CPU s/move':>11} {'other':>7} {'hands':>7} {'time':>7}"
    )
    for name, r in run(args.matches, args.games, args.workers, args.progress).items():
        print(row(name, r, r["elapsed"]), flush=True)
    print(
        "Goals (issue 30): strong-simple >= 70%; strong-old >= 58%; coach-strong not worse "
        "(50% or more, or 50% within the interval)."
    )


if __name__ == "__main__":
    main()
