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
diamonds, clubs; ace lowest). A hand's ``mask`` is the OR of its cards' bits, worked out once
when the hand is made. Every public function takes a :class:`Hand` (or a :class:`Card`) as it
is, without parsing it again:

>>> parse_cards(hand) is hand, Card.parse(Card.parse("7H")) is Card.parse("7H")
(True, True)
>>> hand.mask == (1 << 0) | (1 << 1) | (1 << 22)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .errors import MAX_SHOWN, CardError, RuleError, listed, shown, whole_number

RANKS = "A23456789TJQK"
SUITS = "SHDC"  # spades, hearts, diamonds, clubs: also the suit order for choosing the dealer
LANE_BITS = len(RANKS)
"""Bits per suit in a mask: card ``index`` is ``suit number * LANE_BITS + rank - 1``."""
SUIT_SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
RANK_NAMES = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


RANK_LETTERS = {
    **{letter: rank for rank, letter in enumerate(RANKS, 1)},
    **{letter.lower(): rank for rank, letter in enumerate(RANKS, 1)},
    "10": 10,
}
"""A card's rank as written: the letters of :data:`RANKS` in either case, or 10. Only these:
a letter that merely upper-cases to one (``ı``, ``ſ``) is no rank or suit."""
SUIT_LETTERS = {**{s: s for s in SUITS}, **{s.lower(): s for s in SUITS}, **SUIT_SYMBOLS}
"""A card's suit as written: ``S H D C`` in either case, or a suit symbol."""
MASK_LIMIT = 1 << 52
"""Every mask of cards is below this (52 bits, one per card)."""


def _short(text: str) -> str:
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


class Card:
    """One of the 52 cards. ``rank`` is 1 (ace) to 13 (king); ``suit`` is one of ``SHDC``.

    Cards are interned: ``Card(7, "H") is Card.parse("7H")``.
    """

    __slots__ = ("bit", "index", "rank", "suit", "value")
    rank: int
    suit: str
    index: int
    """0 to 51: ``suit number * LANE_BITS + rank - 1`` (see :data:`DECK`)."""
    bit: int
    """``1 << index``: the card in a mask."""
    value: int
    """Its deadwood points: ace 1, 2 to 10 face value, pictures 10."""
    _all: dict[tuple[int, str], Card] = {}

    def __new__(cls, rank: int, suit: str) -> Card:
        try:
            return cls._all[rank, suit]
        except KeyError:
            raise CardError(
                "unknown_card", f"no such card: rank {rank!r}, suit {suit!r}", token=f"{rank}{suit}"
            ) from None

    # Runs only at import, for the 52 cards: no mutant of it could be switched on (make mutate).
    @classmethod
    def _make(cls, rank: int, suit: str) -> Card:  # pragma: no mutate block
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", SUITS.index(suit) * LANE_BITS + rank - 1)
        object.__setattr__(card, "bit", 1 << card.index)
        object.__setattr__(card, "value", min(rank, 10))
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Card, (self.rank, self.suit))

    @classmethod
    def parse(cls, token: str | Card, position: int | None = None) -> Card:
        """Parse one card such as ``"TH"``, ``"10h"`` or ``"A♠"``; a Card is returned as it is."""
        if type(token) is Card:
            return token
        if not isinstance(token, str):
            raise CardError(
                "bad_card", f"{shown(token)} is not a card", token=shown(token), position=position
            )
        card = _BY_NOTATION.get(token)  # the canonical notation, the commonest case
        if card is not None:
            return card
        text = token.strip()
        quoted = _short(token)
        if len(text) < 2:
            raise CardError(
                "bad_card",
                f"{quoted!r} is not a card: write rank then suit, like 7H",
                token=quoted,
                position=position,
            )
        rank, suit = RANK_LETTERS.get(text[:-1]), SUIT_LETTERS.get(text[-1])
        if rank is None:
            raise CardError(
                "unknown_rank",
                f"unknown rank {_short(text[:-1])!r} in card {quoted!r}",
                token=quoted,
                position=position,
            )
        if suit is None:
            raise CardError(
                "unknown_suit",
                f"unknown suit {text[-1]!r} in card {quoted!r}",
                token=quoted,
                position=position,
            )
        return cls._all[rank, suit]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card of ``index`` (0 to 51, see :data:`DECK`).

        >>> Card.from_index(0), Card.from_index(51)
        (Card.parse('AS'), Card.parse('KC'))
        """
        if not whole_number(index) or not 0 <= index < len(DECK):
            raise CardError(
                "bad_card", f"{shown(index)} is not a card's index (0 to 51)", token=shown(index)
            )
        return DECK[index]

    @property
    def name(self) -> str:
        """English name, e.g. ``"seven of hearts"`` (the site uses its own catalogs)."""
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[SUITS.index(self.suit)]}"

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return (self.rank, self.index) < (other.rank, other.index)


for _suit in SUITS:
    for _rank in range(1, len(RANKS) + 1):
        Card._all[_rank, _suit] = Card._make(_rank, _suit)

DECK: tuple[Card, ...] = tuple(sorted(Card._all.values(), key=lambda c: c.index))
"""The 52 cards in index order: AS..KS, AH..KH, AD..KD, AC..KC."""

_BY_NOTATION = {str(card): card for card in DECK}


class Hand(tuple[Card, ...]):
    """A tuple of distinct cards whose ``str`` is the canonical notation.

    ``Hand("AS 2S TH")`` parses like :func:`parse_cards`; ``Hand(cards)`` takes cards (or
    notation for each). ``mask`` (the OR of the cards' bits) is worked out once, when the hand
    is made; a hand is immutable.
    """

    mask: int

    def __new__(cls, cards: CardsLike = ()) -> Hand:
        return parse_cards(cards)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Hand is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Hand is immutable")

    @property
    def points(self) -> int:
        return sum(card.value for card in self)

    def sorted(self) -> Hand:
        """The same cards by rank, then suit (S, H, D, C)."""
        return unchecked_hand(tuple(sorted(self)), self.mask)

    def __str__(self) -> str:
        return " ".join(map(str, self))

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"

    def __add__(self, other: Iterable[Card | str]) -> Hand:  # type: ignore[override]  # parses and checks the cards
        return parse_cards(tuple(self) + tuple(other))


CardsLike = Hand | str | Iterable[Card | str]
"""What the public functions take as cards: a Hand (used as it is, never parsed again),
notation such as ``"AS 2S TH"``, or an iterable of cards and card notation."""


def unchecked_hand(cards: tuple[Card, ...], mask: int) -> Hand:
    """The Hand of ``cards`` (distinct Card objects) whose bits make ``mask``: no checks."""
    hand = tuple.__new__(Hand, cards)
    hand.__dict__["mask"] = mask
    return hand


def _checked_hand(cards: tuple[Card, ...]) -> Hand:
    """The Hand of ``cards`` (Card objects); a card given twice raises ``duplicate_card``."""
    mask = 0
    for position, card in enumerate(cards):
        if mask & card.bit:
            raise CardError(
                "duplicate_card", f"{card} appears twice", token=str(card), position=position
            )
        mask |= card.bit
    return unchecked_hand(cards, mask)


def _tokens(text: str) -> list[str]:
    return text.replace(",", " ").split()


def _parse(text: CardsLike) -> Hand:
    """A Hand from notation or from an iterable of cards and card notation."""
    items: Sequence[object] | None = _tokens(text) if isinstance(text, str) else listed(text)
    if items is None:
        raise CardError("bad_card", f"{shown(text)} is not a list of cards", token=shown(text))
    return _checked_hand(tuple(Card.parse(item, n) for n, item in enumerate(items)))  # type: ignore[arg-type]  # Card.parse refuses what is not a card


def parse_cards(text: CardsLike, count: int | Iterable[int] | None = None) -> Hand:
    """Parse cards written like ``"AS 2S TH"`` into a :class:`Hand`; a Hand is returned as it
    is (no parsing), a list of cards or card notation is checked.

    ``count``, if given, is the number of cards required (or a collection of allowed numbers).
    Raises :class:`CardError` for an unknown rank or suit, a duplicate card or a wrong count.

    >>> parse_cards("7h 8h 9h", count=3)
    Hand('7H 8H 9H')
    >>> parse_cards("7H 7H")
    Traceback (most recent call last):
    ...
    ginrummy.errors.CardError: 7H appears twice
    """
    hand = text if type(text) is Hand else _parse(text)
    if count is not None:
        allowed = _counts(count)
        if len(hand) not in allowed:
            raise wrong_count(allowed, len(hand))
    return hand


def _counts(count: object) -> tuple[int, ...]:
    """``parse_cards``'s ``count``: a number of cards, or a collection of allowed numbers."""
    if type(count) is tuple and all(type(n) is int for n in count):
        return count  # the commonest case, (10, 11): at once
    items = [count] if whole_number(count) else listed(count)
    if not items or not all(whole_number(n) for n in items):
        raise RuleError(
            "bad_setting",
            f"count must be a number of cards or a list of them, not {shown(count)}",
            setting="count",
            value=shown(count),
        )
    return tuple(items)


def wrong_count(allowed: tuple[int, ...], got: int) -> CardError:
    """The error for ``got`` cards where one of the numbers ``allowed`` is needed."""
    wanted = " or ".join(map(str, allowed)) + (" card" if allowed == (1,) else " cards")
    return CardError(
        "wrong_count", f"expected {wanted}, got {got}", expected=list(allowed), got=got
    )


def notation(cards: Card | Iterable[object] | None) -> str | None:
    """A card, or cards, in notation (cards with a space between); None stays None.

    >>> notation(Card.parse("7h")), notation(parse_cards("7H 8H")), notation(None)
    ('7H', '7H 8H', None)
    """
    if cards is None:
        return None
    if isinstance(cards, Card):
        return str(cards)
    return " ".join(map(str, cards))


def cards_from_mask(mask: int) -> Hand:
    """The cards whose bits are set in ``mask`` (below ``1 << 52``), in index order.

    >>> cards_from_mask(0b101)
    Hand('AS 3S')
    """
    if type(mask) is not int or not 0 <= mask < MASK_LIMIT:  # an int, not a bool
        raise CardError(
            "bad_card", f"{shown(mask)} is not a mask of cards (0 to 2**52 - 1)", token=shown(mask)
        )
    whole = mask
    cards = []
    while mask:
        low = mask & -mask
        cards.append(DECK[low.bit_length() - 1])
        mask ^= low
    return unchecked_hand(tuple(cards), whole)
