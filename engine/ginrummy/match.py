"""A whole game: hands one after another to the target, with the score sheet of the rules.

A :class:`Game` holds the rules, the sheet ``format`` (``standard``: one game to
``rules.game_target``; ``hollywood``: ``rules.hollywood_columns`` games at once), the ``seed``
every deal comes from, the hands already played (:class:`Played`: who dealt, and the sheet
entry, or None for a dead hand) and the current hand (a :class:`~ginrummy.hand.HandState`).

- :func:`new_game` deals the first hand; :func:`play` plays one action in the current hand;
  when that hand is finished, :func:`next_hand` records it and deals the next one.
- Who deals next is ``rules.next_dealer`` (:data:`~ginrummy.rules.NEXT_DEALER_RULES`); after
  a dead hand, ``rules.void_deal`` (:data:`~ginrummy.rules.VOID_DEAL_RULES`): the same dealer
  again, or the other player.
- Deal number ``n`` (from 0, dead hands counted) shuffles the deck with
  ``random.Random(f"{seed}/{n}")``: the same seed replays the same deals.
- :attr:`Game.sheet` is :func:`~ginrummy.game.score_game` or
  :func:`~ginrummy.game.score_hollywood` of the entries, the current hand's included once it is
  finished; the game is over when the sheet is finished.

>>> game = new_game(seed=5)
>>> game.hand.dealer, game.number, game.finished
(0, 1, False)
>>> next_hand(game)
Traceback (most recent call last):
...
ginrummy.errors.RuleError: hand 1 is not finished yet

Errors (:class:`RuleError`): ``hand_not_over`` (``hand``): the next hand is asked for while
this one is played; ``game_over`` (``hand``, ``ended_on``): the game is over; ``bad_setting``
(``setting``, ``value``) for a bad format, seed or dealer; ``bad_game`` (``field``, ``value``)
for a game read from JSON that does not hold together.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .cards import DECK, Card
from .errors import RuleError, quote, shown, whole_number
from .game import MAX_ENTRIES, GameSheet, HandEntry, HollywoodSheet, score_game, score_hollywood
from .hand import END_OF_STOCK, Action, HandState, apply, deal, rules_from_json
from .rules import RuleSet, get_rules

FORMATS = ("standard", "hollywood")
JSON_VERSION = 1
MAX_SEED = 2**53 - 1
"""The largest seed (the largest whole number a browser's JSON keeps exact)."""
MAX_DEALS = 4 * MAX_ENTRIES
"""The most hands a game read from JSON may have played, dead hands included."""


@dataclass(frozen=True)
class Played:
    """A hand already played: who dealt it and its sheet entry (None: a dead hand)."""

    dealer: int
    entry: HandEntry | None

    def to_json(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "entry": None if self.entry is None else self.entry.to_json(),
        }


@dataclass(frozen=True)
class Game:
    """A game in progress or over; build it with :func:`new_game`."""

    rules: RuleSet
    format: str
    seed: int
    first_dealer: int
    end_of_stock: str
    played: tuple[Played, ...]
    hand: HandState

    @property
    def number(self) -> int:
        """The current hand's number, from 1 (dead hands counted)."""
        return len(self.played) + 1

    @property
    def entries(self) -> tuple[HandEntry, ...]:
        """The sheet's entries: the hands won so far, the current one once finished."""
        entries = tuple(p.entry for p in self.played if p.entry is not None)
        current = self.hand.entry()
        return entries + ((current,) if current is not None else ())

    @property
    def numbers(self) -> tuple[int, ...]:
        """The numbers of the hands in :attr:`entries`, as the table counts them (void hands
        counted), so the sheet's "hand 10" is the table's."""
        won = [n for n, p in enumerate(self.played, 1) if p.entry is not None]
        current = [self.number] if self.hand.entry() is not None else []
        return tuple(won + current)

    @property
    def voids(self) -> tuple[int, ...]:
        """The numbers of the void hands so far (the current one once it is over), which the
        sheet leaves out: nobody scored them."""
        void = [n for n, p in enumerate(self.played, 1) if p.entry is None]
        current = [self.number] if self.hand.finished and self.hand.entry() is None else []
        return tuple(void + current)

    @cached_property
    def sheet(self) -> GameSheet | HollywoodSheet:
        """The score sheet so far, worked out once per game value (a game never changes: a
        move makes a new one)."""
        return score_sheet(self.entries, self.rules, self.format, self.numbers)

    @property
    def column_voids(self) -> tuple[tuple[int, ...], ...]:
        """On a Hollywood sheet, the void hands each column records, a tuple per column (in the
        order of the sheet's ``columns``): column 1 is entered from the first hand, so it records
        the void hands until it closes; the other columns start later and record none. On a
        standard sheet, ``()``: it records every void hand (:attr:`voids`).

        >>> game = new_game(format="hollywood", seed=5)
        >>> game.column_voids
        ((), (), ())
        """
        sheet = self.sheet
        if not isinstance(sheet, HollywoodSheet):
            return ()
        first = sheet.columns[0]
        closed = first.rows[-1].hand if first.finished else None  # a closed column has rows
        own = tuple(n for n in self.voids if closed is None or n < closed)
        return (own,) + ((),) * (len(sheet.columns) - 1)

    @property
    def finished(self) -> bool:
        return self.hand.finished and self.sheet.finished

    def to_json(self) -> dict[str, Any]:
        """The game as JSON; :func:`game_from_json` reads it back. ``sheet`` and ``finished``
        are derived (not read back)."""
        return {
            "version": JSON_VERSION,
            "rules": self.rules.to_json(),
            "format": self.format,
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "end_of_stock": self.end_of_stock,
            "played": [p.to_json() for p in self.played],
            "hand": self.hand.to_json(),
            "number": self.number,
            "finished": self.finished,
            "sheet": self.sheet.to_json(),
        }


def score_sheet(
    entries: Iterable[Any],
    rules: RuleSet,
    format: str = "standard",
    numbers: Sequence[int] | None = None,
) -> GameSheet | HollywoodSheet:
    """The sheet of these entries in this format (hands numbered by ``numbers``, if given)."""
    return (score_hollywood if format == "hollywood" else score_game)(entries, rules, numbers)


def deck_for(seed: int, number: int) -> tuple[Card, ...]:
    """The deck of deal ``number`` (from 0) of a game with this seed, top card first."""
    order = list(DECK)
    random.Random(f"{seed}/{number}").shuffle(order)
    return tuple(order)


def new_game(
    rules: str | RuleSet | dict[str, Any] = "standard",
    format: str = "standard",
    seed: int = 0,
    dealer: int = 0,
    end_of_stock: str = "void",
) -> Game:
    """A new game with its first hand dealt by ``dealer``."""
    rules = get_rules(rules)
    if format not in FORMATS:
        raise RuleError(
            "bad_setting",
            f"format must be one of {', '.join(FORMATS)}, not {quote(format)!r}",
            setting="format",
            value=quote(format),
        )
    if not whole_number(seed) or not 0 <= seed <= MAX_SEED:
        raise RuleError(
            "bad_setting",
            f"seed must be a whole number from 0 to {MAX_SEED}, not {quote(seed)}",
            setting="seed",
            value=quote(seed),
        )
    hand = deal(deck=deck_for(seed, 0), dealer=dealer, rules=rules, end_of_stock=end_of_stock)
    return Game(rules, format, seed, dealer, end_of_stock, (), hand)


def play(game: Game, action: Action | dict[str, Any]) -> Game:
    """The game after ``action`` in the current hand (see :func:`ginrummy.hand.apply`)."""
    return dataclasses.replace(game, hand=apply(game.hand, action))


def next_dealer(rules: RuleSet, dealer: int, entry: HandEntry | None) -> int:
    """Who deals after a hand dealt by ``dealer`` with this entry (None: a dead hand, dealt
    again by the same dealer or by the other player, as ``rules.void_deal`` says).

    >>> from ginrummy.rules import RULESETS
    >>> next_dealer(RULESETS["standard"], 0, None), next_dealer(RULESETS["pagat"], 0, HandEntry(1, 9))
    (0, 1)
    >>> next_dealer(RULESETS["standard"].replace(void_deal="next"), 0, None)
    1
    """
    if entry is None:
        return dealer if rules.void_deal == "same" else 1 - dealer
    if rules.next_dealer == "winner":
        return entry.winner
    if rules.next_dealer == "loser":
        return 1 - entry.winner
    return 1 - dealer


def next_hand(game: Game) -> Game:
    """Record the finished hand and deal the next one."""
    if not game.hand.finished:
        raise RuleError(
            "hand_not_over", f"hand {game.number} is not finished yet", hand=game.number
        )
    if game.finished:
        raise RuleError(
            "game_over",
            f"the game ended on hand {game.number}; hand {game.number + 1} cannot be played",
            hand=game.number + 1,
            ended_on=game.number,
        )
    entry = game.hand.entry()
    dealer = next_dealer(game.rules, game.hand.dealer, entry)
    played = game.played + (Played(game.hand.dealer, entry),)
    hand = deal(
        deck=deck_for(game.seed, len(played)),
        dealer=dealer,
        rules=game.rules,
        end_of_stock=game.end_of_stock,
    )
    return dataclasses.replace(game, played=played, hand=hand)


# --- reading a game back from JSON -----------------------------------------------------------

_FIELDS = ("version", "rules", "format", "seed", "first_dealer", "end_of_stock", "played", "hand")


def _bad(name: str, message: str, value: object = None) -> RuleError:
    return RuleError("bad_game", message, field=name, value=quote(value))


def game_from_json(data: object) -> Game:
    """A game from :meth:`Game.to_json` output, checked: the dealers follow the rules, the
    entries make a sheet that is not over before the current hand, and the hand is valid and
    (until its stock is reshuffled) dealt from the game's seed."""
    if not isinstance(data, dict):
        raise _bad("game", "a game must be an object", type(data).__name__)
    missing = [name for name in _FIELDS if name not in data]
    if missing:
        raise _bad(missing[0], f"the game has no {missing[0]!r}")
    if type(data["version"]) is not int or data["version"] != JSON_VERSION:  # not 1.0, not true
        raise _bad("version", f"unknown game version {shown(data['version'])}", data["version"])
    if data["end_of_stock"] not in END_OF_STOCK:
        raise _bad("end_of_stock", "end_of_stock must be void or reshuffle", data["end_of_stock"])
    first = data["first_dealer"]
    if not whole_number(first) or first not in (0, 1):
        raise _bad("first_dealer", "first_dealer must be 0 or 1", first)
    played = data["played"]
    if not isinstance(played, list) or len(played) > MAX_DEALS:
        raise _bad(
            "played", f"played must be a list of at most {MAX_DEALS} hands", type(played).__name__
        )
    if not isinstance(data["hand"], dict):
        raise _bad("hand", "hand must be a hand state", type(data["hand"]).__name__)
    game = new_game(
        rules_from_json(data["rules"]), data["format"], data["seed"], first, data["end_of_stock"]
    )
    hands: list[Played] = []
    dealer = first
    for item in played:
        if not isinstance(item, dict) or set(item) != {"dealer", "entry"}:
            raise _bad("played", "each hand played is {dealer, entry}", item)
        entry = None if item["entry"] is None else HandEntry.from_json(item["entry"])
        if type(item["dealer"]) is not int or item["dealer"] != dealer:  # not 1.0, not true
            raise _bad("played", f"hand {len(hands) + 1} was dealt by {dealer}", item["dealer"])
        hands.append(Played(dealer, entry))
        dealer = next_dealer(game.rules, dealer, entry)
    hand = HandState.from_json(data["hand"])
    if hand.dealer != dealer:
        raise _bad("hand", f"hand {len(hands) + 1} is dealt by {dealer}", hand.dealer)
    if hand.rules != game.rules or hand.end_of_stock != game.end_of_stock:
        raise _bad("hand", "the hand is played with the game's rules", hand.rules.name)
    game = dataclasses.replace(game, played=tuple(hands), hand=hand)
    past = [p.entry for p in hands if p.entry is not None]
    if score_sheet(past, game.rules, game.format).finished:
        raise RuleError(
            "game_over",
            f"the game ended before hand {game.number}",
            hand=game.number,
            ended_on=game.number - 1,
        )
    _ = game.sheet  # raises game_over when the current hand's entry comes after the end
    dealt = deal(deck=deck_for(game.seed, len(hands)), dealer=dealer, rules=game.rules).stock
    # draws take the stock's top, so until a reshuffle what is left is a tail of it as dealt
    if not hand.reshuffles and dealt[len(dealt) - len(hand.stock) :] != hand.stock:
        raise _bad("seed", f"hand {game.number} was not dealt from seed {game.seed}", game.seed)
    return game
