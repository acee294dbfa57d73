"""Bot strength against the EAAI challenge's SimpleGinRummyPlayer, and bot throughput.

    .venv/bin/python bench/strength.py                  # 2000 games per level
    .venv/bin/python bench/strength.py --games 200      # a quick look
    .venv/bin/python bench/strength.py --levels strong

The baseline is a port of ``SimpleGinRummyPlayer`` from the EAAI Undergraduate Research
Challenge (Neller, gin rummy, 2021):

- take the upcard, or the top of the discard pile, only if it makes a meld with cards in hand;
- discard a card leaving the least deadwood, ties broken at random, never the card just taken
  from the pile, and never a (drawn, discarded) pair it already played this hand;
- knock at the first chance (gin when the deadwood is 0).

Each level plays ``--games`` games to 100 (the ``standard`` preset: its rules and its
alternating deal) against it; the bot takes seat 0 in even games and seat 1 in odd ones, and
the first dealer alternates every two games, so seats and dealer are balanced. The bench
prints each level's win rate with its 95% Wilson interval, and the bot's throughput in hands
per second on this CPython (both players' moves, dealing and scoring included), beside the
baseline's own.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from ginrummy.bots import LEVELS, choose, joins_meld
from ginrummy.hand import Action
from ginrummy.match import new_game, next_hand, play
from ginrummy.melds import min_deadwood_mask
from ginrummy.public import view


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


def play_game(players, seed: int, dealer: int, counter: list) -> int:
    """Play one game to the end; return the winner (0 or 1). ``players[p](state)`` moves for
    player p; ``counter`` gets the hands played and the seconds each player spent."""
    game = new_game("standard", seed=seed, dealer=dealer)
    while True:
        while not game.hand.finished:
            player = game.hand.turn
            start = time.perf_counter()
            action = players[player](game.hand)
            counter[1 + player] += time.perf_counter() - start
            game = play(game, action)
        counter[0] += 1
        if game.finished:
            return game.sheet.winner
        game = next_hand(game)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    middle = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return middle - half, middle + half


def match(level: str, games: int, progress: int = 0) -> dict:
    wins = 0
    counter = [0, 0.0, 0.0]  # hands, seconds of seat 0, seconds of seat 1
    bot_seconds = base_seconds = 0.0
    start = time.perf_counter()
    for number in range(games):
        rng = random.Random(number)
        bot_seat = number % 2
        players = [None, None]
        players[bot_seat] = lambda state, n=number: choose(state, level, seed=n)
        players[1 - bot_seat] = lambda state, rng=rng: simple_player(state, rng)
        counter[1] = counter[2] = 0.0
        winner = play_game(players, seed=number, dealer=(number // 2) % 2, counter=counter)
        wins += winner == bot_seat
        bot_seconds += counter[1 + bot_seat]
        base_seconds += counter[2 - bot_seat]
        if progress and (number + 1) % progress == 0:
            low, high = wilson(wins, number + 1)
            print(
                f"  {level}: {wins}/{number + 1} games won ({low:.1%}-{high:.1%})",
                file=sys.stderr,
                flush=True,
            )
    elapsed = time.perf_counter() - start
    hands = counter[0]
    return {
        "level": level,
        "games": games,
        "wins": wins,
        "hands": hands,
        "elapsed": elapsed,
        "bot_hands_per_s": hands / bot_seconds if bot_seconds else float("inf"),
        "base_hands_per_s": hands / base_seconds if base_seconds else float("inf"),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--levels", nargs="*", default=list(LEVELS), choices=LEVELS)
    parser.add_argument(
        "--progress",
        type=int,
        default=0,
        metavar="N",
        help="print the running win rate every N games (on stderr)",
    )
    args = parser.parse_args(argv)
    print(
        f"Bots against SimpleGinRummyPlayer: {args.games} games to 100 per level, standard "
        f"rules; CPython {platform.python_version()} on {platform.machine()}"
    )
    print(
        f"{'level':<13} {'wins':>11} {'win rate':>9} {'95% Wilson':>15} "
        f"{'bot hands/s':>12} {'baseline':>9} {'hands':>7} {'time':>7}"
    )
    for level in args.levels:
        r = match(level, args.games, args.progress)
        low, high = wilson(r["wins"], r["games"])
        print(
            f"{level:<13} {r['wins']:>5}/{r['games']:<5} {r['wins'] / r['games']:>9.1%} "
            f"{low:>7.1%}-{high:<7.1%} {r['bot_hands_per_s']:>12.1f} "
            f"{r['base_hands_per_s']:>9.1f} {r['hands']:>7} {r['elapsed']:>6.0f}s"
        )
        sys.stdout.flush()
    print("Targets: strong wins at least 60% of games; beginner loses (wins under 50%).")


if __name__ == "__main__":
    main()
