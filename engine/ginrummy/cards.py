"""Cards, hands and their notation.

A card is written rank then suit: ``AS``, ``7H``, ``TD`` or ``10D``, ``KC``; suits may also be
written ``♠ ♥ ♦ ♣``, and case does not matter. A hand is cards separated by spaces or commas.

>>> hand = parse_cards("A♠ 2s, 10h")
>>> str(hand)
'AS 2S TH'
>>> hand
Hand('AS 2S TH')
>>> Card.parse("qd").value
10

Each card has a bit: ``1 << card.index``, with a 13-bit lane per suit (spades, hearts,
diamonds, clubs; ace lowest). A hand's ``mask`` is the OR of its cards' bits.
"""

from __future__ import annotations

from typing import Iterable

from .errors import CardError

RANKS = "A23456789TJQK"
SUITS = "SHDC"  # spades, hearts, diamonds, clubs: also the suit order for choosing the dealer
SUIT_SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


class Card:
    """One of the 52 cards. ``rank`` is 1 (ace) to 13 (king); ``suit`` is one of ``SHDC``.

    Cards are interned: ``Card(7, "H") is Card.parse("7H")``.
    """

    __slots__ = ("rank", "suit", "index", "bit", "value")
    _all: dict[tuple[int, str], "Card"] = {}

    def __new__(cls, rank: int, suit: str):
        try:
            return cls._all[rank, suit]
        except KeyError:
            raise CardError("unknown_card", f"no such card: rank {rank!r}, suit {suit!r}",
                            token=f"{rank}{suit}") from None

    @classmethod
    def _make(cls, rank: int, suit: str) -> "Card":
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", SUITS.index(suit) * 13 + rank - 1)
        object.__setattr__(card, "bit", 1 << card.index)
        object.__setattr__(card, "value", min(rank, 10))
        return card

    def __setattr__(self, name, value):
        raise AttributeError("Card is immutable")

    def __reduce__(self):
        return (Card, (self.rank, self.suit))

    @classmethod
    def parse(cls, token: str, position: int | None = None) -> "Card":
        """Parse one card such as ``"TH"``, ``"10h"`` or ``"A♠"``."""
        text = token.strip()
        if len(text) < 2:
            raise CardError("bad_card", f"{token!r} is not a card: write rank then suit, like 7H",
                            token=token, position=position)
        rank_text, suit_text = text[:-1].upper(), text[-1]
        suit = SUIT_SYMBOLS.get(suit_text, suit_text.upper())
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANKS:
            raise CardError("unknown_rank", f"unknown rank {text[:-1]!r} in card {token!r}",
                            token=token, position=position)
        if suit not in SUITS:
            raise CardError("unknown_suit", f"unknown suit {suit_text!r} in card {token!r}",
                            token=token, position=position)
        return cls._all[RANKS.index(rank_text) + 1, suit]

    @classmethod
    def from_index(cls, index: int) -> "Card":
        return DECK[index]

    @property
    def name(self) -> str:
        """English name, e.g. ``"seven of hearts"`` (the site uses its own catalogs)."""
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[SUITS.index(self.suit)]}"

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: "Card") -> bool:
        return (self.rank, self.index) < (other.rank, other.index)


for _suit in SUITS:
    for _rank in range(1, 14):
        Card._all[_rank, _suit] = Card._make(_rank, _suit)

DECK: tuple[Card, ...] = tuple(sorted(Card._all.values(), key=lambda c: c.index))
"""The 52 cards in index order: AS..KS, AH..KH, AD..KD, AC..KC."""


class Hand(tuple):
    """A tuple of distinct cards whose ``str`` is the canonical notation.

    ``Hand("AS 2S TH")`` parses like :func:`parse_cards`; ``Hand(cards)`` takes cards.
    """

    def __new__(cls, cards: str | Iterable = ()):
        if isinstance(cards, str):
            return parse_cards(cards)
        cards = tuple(cards)
        if all(isinstance(c, Card) for c in cards):
            _check_distinct(cards)
            return super().__new__(cls, cards)
        return parse_cards(cards)

    @property
    def mask(self) -> int:
        mask = 0
        for card in self:
            mask |= card.bit
        return mask

    @property
    def points(self) -> int:
        return sum(card.value for card in self)

    def sorted(self) -> "Hand":
        """The same cards by rank, then suit (S, H, D, C)."""
        return Hand(sorted(self))

    def __str__(self) -> str:
        return " ".join(map(str, self))

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"

    def __add__(self, other):
        return Hand(tuple(self) + tuple(other))


def _check_distinct(cards: tuple) -> None:
    seen = set()
    for position, card in enumerate(cards):
        if card in seen:
            raise CardError("duplicate_card", f"{card} appears twice", token=str(card),
                            position=position)
        seen.add(card)


def _tokens(text: str) -> list[str]:
    return text.replace(",", " ").split()


def parse_cards(text: str | Iterable, count: int | Iterable[int] | None = None) -> Hand:
    """Parse cards written like ``"AS 2S TH"`` into a :class:`Hand`.

    ``count``, if given, is the number of cards required (or a collection of allowed numbers).
    Raises :class:`CardError` for an unknown rank or suit, a duplicate card or a wrong count.

    >>> parse_cards("7h 8h 9h", count=3)
    Hand('7H 8H 9H')
    >>> parse_cards("7H 7H")
    Traceback (most recent call last):
    ...
    ginrummy.errors.CardError: 7H appears twice
    """
    if isinstance(text, Hand) and count is None:
        return text
    if isinstance(text, str):
        items = _tokens(text)
    elif isinstance(text, Iterable) and not isinstance(text, dict):
        items = list(text)
    else:
        raise CardError("bad_card", f"{text!r} is not a list of cards", token=repr(text))
    cards = []
    for position, item in enumerate(items):
        if isinstance(item, Card):
            cards.append(item)
        elif isinstance(item, str):
            cards.append(Card.parse(item, position))
        else:
            raise CardError("bad_card", f"{item!r} is not a card", token=repr(item),
                            position=position)
    cards = tuple(cards)
    _check_distinct(cards)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(cards) not in allowed:
            wanted = " or ".join(map(str, allowed))
            raise CardError("wrong_count", f"expected {wanted} cards, got {len(cards)}",
                            expected=list(allowed), got=len(cards))
    return tuple.__new__(Hand, cards)


def cards_from_mask(mask: int) -> Hand:
    """The cards whose bits are set in ``mask``, in index order."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(DECK[low.bit_length() - 1])
        mask ^= low
    return tuple.__new__(Hand, cards)
