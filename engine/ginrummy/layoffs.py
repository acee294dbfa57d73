"""Optimal lay-offs: the defender's least deadwood against the knocker's melds.

After a knock (not gin) the defender lays out their own melds, then lays off deadwood onto the
knocker's melds: the fourth card of a 3-card set, or cards extending a run at either end, one
step at a time (a laid-off card may itself be extended: 6S then 5S onto 7S 8S 9S). The defender
may break one of their own melds when laying its cards off scores better. Ace is low only:
nothing extends a run below A or above K. The knocker never lays off.

:func:`lay_offs` tries every combination, so the order the melds are listed in never matters:

- for each knocker set of 3 cards: its fourth card, if the defender holds it, laid off or not;
- for each run end: the chain of defender cards that extends that end (the next rank, the one
  after, ...), of which any first part (0, 1, 2, ... cards) may be laid off;
- combinations using a card twice are skipped (a card that fits a set and a run, or two runs of
  one suit whose ends meet); the defender's other cards are arranged with
  :func:`ginrummy.melds.arrange`.

The result is the combination with the least deadwood points (own melds sorted by their cards'
bit masks, deadwood sorted by rank then suit). Ties go to the one laying off the
most cards, then to the first found (melds in the order given; for each meld the set's card,
else fewer low-end cards before more, then fewer high-end cards before more). So a chain of
three or more cards, which could also be the defender's own run, is shown laid off.

Neller's greedy lay-off fails here; both cards go, 8S onto the run and then 7S:

>>> result = lay_offs(["8C 8D 8H", "9S TS JS"], "8S 7S AH 2H 4D 5C 9H JD QC KH")
>>> [(str(lay.card), lay.meld_index, str(lay.result)) for lay in result.lay_offs]
[('8S', 1, '8S 9S TS JS'), ('7S', 1, '7S 8S 9S TS JS')]
>>> result.points, str(result.deadwood)
(51, 'AH 2H 4D 5C 9H JD QC KH')

A run takes a whole chain at one end (OpenSpiel offers only one card):

>>> [str(lay.card) for lay in lay_offs(["2C 3C 4C"], "5C 6C 7C 8D").lay_offs]
['5C', '6C', '7C']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from .cards import Card, CardsLike, Hand, cards_from_mask, parse_cards
from .errors import CardError, RuleError, listed, quote, shown, whole_number
from .melds import Meld, MeldLike, arrange, meld_kind, min_deadwood_mask


@dataclass(frozen=True)
class LayOff:
    """One card laid off onto the knocker's meld number ``meld_index`` (0-based).

    ``onto`` is that meld as it stands when the card is played (after earlier lay-offs).
    """

    card: Card
    meld_index: int
    onto: Hand

    @property
    def result(self) -> Hand:
        """The meld after this card is laid off."""
        return Hand(sorted(self.onto + (self.card,)))

    def to_json(self) -> dict[str, Any]:
        return {
            "card": str(self.card),
            "meld_index": self.meld_index,
            "meld": str(self.onto),
            "result": str(self.result),
        }


@dataclass(frozen=True)
class LayOffResult:
    """The defender's best play: lay-offs in a valid playing order, own melds, final deadwood.

    ``knocker_melds`` are the knocker's melds after the lay-offs, in the order given.
    """

    lay_offs: tuple[LayOff, ...]
    melds: tuple[Meld, ...]
    deadwood: Hand
    points: int
    knocker_melds: tuple[Meld, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "lay_offs": [lay.to_json() for lay in self.lay_offs],
            "melds": [str(m) for m in self.melds],
            "deadwood": str(self.deadwood),
            "points": self.points,
            "knocker_melds": [str(m) for m in self.knocker_melds],
        }


def as_meld(meld: MeldLike) -> Meld:
    """A checked :class:`Meld` from a Meld (returned as it is), a Hand or notation such as
    ``"7S 8S 9S"``.

    Raises :class:`RuleError` ``not_a_meld`` (param ``meld``) unless the cards are a set of 3 or 4
    cards of one rank or a run of 3 or more cards of one suit in sequence.

    >>> as_meld("9s 7s 8s")
    Meld('7S 8S 9S')
    >>> as_meld("7S 8S TS")
    Traceback (most recent call last):
    ...
    ginrummy.errors.RuleError: 7S 8S TS is not a meld
    """
    return meld if isinstance(meld, Meld) else Meld(parse_cards(meld))


def check_melds(melds: Iterable[MeldLike]) -> tuple[Meld, ...]:
    """Check a layout: each item a meld (see :func:`as_meld`), no card in two melds.

    Raises :class:`CardError` ``duplicate_card`` naming a card used twice, and
    :class:`RuleError` ``bad_melds`` for a value that is no list of melds.

    >>> check_melds("7S 8S 9S")
    Traceback (most recent call last):
    ...
    ginrummy.errors.RuleError: '7S 8S 9S' is not a list of melds
    """
    items = listed(melds) if not isinstance(melds, Meld) else None
    if items is None:
        raise RuleError("bad_melds", f"{shown(melds)} is not a list of melds", melds=quote(melds))
    checked = tuple(as_meld(m) for m in items)
    seen = 0
    for meld in checked:
        for card in meld.cards:
            if seen & card.bit:
                raise CardError("duplicate_card", f"{card} is in two melds", token=str(card))
            seen |= card.bit
    return checked


def _chain(start: int, step: int, suit: str, held: int) -> list[Card]:
    """Defender cards extending a run end: ranks start, start+step, ... while held."""
    chain = []
    rank = start
    while 1 <= rank <= 13 and Card(rank, suit).bit & held:
        chain.append(Card(rank, suit))
        rank += step
    return chain


Option = tuple[tuple[Card, ...], tuple[Card, ...]]
"""A way to lay off onto one meld: (cards added below, cards added above)."""


def _options(meld: Meld, held: int) -> list[Option]:
    """Every way to lay off onto one meld, as (cards added below, cards added above)."""
    nothing: list[Option] = [((), ())]
    if meld.kind == "set":
        if len(meld.cards) == 4:
            return nothing
        rank = meld.cards[0].rank
        missing = [Card(rank, s) for s in "SHDC" if Card(rank, s) not in meld.cards]
        return nothing + [((c,), ()) for c in missing if c.bit & held]
    suit = meld.cards[0].suit
    low = _chain(meld.cards[0].rank - 1, -1, suit, held)
    high = _chain(meld.cards[-1].rank + 1, +1, suit, held)
    return [
        (tuple(low[:i]), tuple(high[:j])) for i in range(len(low) + 1) for j in range(len(high) + 1)
    ]


def lay_offs(knocker_melds: Iterable[MeldLike], defender_cards: CardsLike) -> LayOffResult:
    """The defender's least deadwood over every combination of own melds and lay-offs.

    ``knocker_melds``: a sequence of melds (:class:`Meld`, Hand or notation); ``defender_cards``:
    the defender's cards (10 in a game; any number is accepted). Raises :class:`RuleError`
    ``not_a_meld`` and :class:`CardError` ``duplicate_card`` (a card in two melds, or in a meld
    and the defender's hand).

    Both ends of a run take chains; a set takes its fourth card:

    >>> result = lay_offs(["5H 6H 7H", "QC QD QS"], "3H 4H 8H 9H QH 2C 2D 6S 6D KD")
    >>> [str(lay.card) for lay in result.lay_offs]
    ['4H', '3H', '8H', '9H', 'QH']
    >>> result.points, str(result.deadwood), [str(m) for m in result.knocker_melds]
    (26, '2D 2C 6S 6D KD', ['3H 4H 5H 6H 7H 8H 9H', 'QS QH QD QC'])
    """
    melds = check_melds(knocker_melds)
    defender = parse_cards(defender_cards)
    taken = 0
    for meld in melds:
        taken |= meld.cards.mask
    for card in defender:
        if card.bit & taken:
            raise CardError(
                "duplicate_card",
                f"{card} is in a knocker's meld and the defender's hand",
                token=str(card),
            )
    return best_lay_offs(melds, defender.mask, {})


def _best_choice(
    options: list[list[Option]], held: int, deadwood: dict[int, int]
) -> tuple[int, tuple[int, ...], int]:
    """(points, choice, used) of the best combination of lay-offs: ``options`` lists each
    meld's options (see :func:`_options`), ``held`` is the defender's cards. ``points`` is the
    defender's least deadwood after it, ``choice`` the option index per meld, ``used`` the
    cards laid off.

    The best is the least deadwood, then the most cards laid off, then the first in the order
    of ``itertools.product`` over the options (combinations using a card twice left out).
    ``deadwood`` caches the least deadwood of the defender's cards left (a mask); calls with the
    same ``held`` may share it.
    """
    combos: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for meld_options in options:
        masks = [sum(card.bit for card in below + above) for below, above in meld_options]
        combos = [
            (used | mask, choice + (index,))
            for used, choice in combos
            for index, mask in enumerate(masks)
            if not used & mask
        ]

    def key(combo: tuple[int, tuple[int, ...]]) -> tuple[int, int]:
        rest = held & ~combo[0]
        if rest not in deadwood:
            deadwood[rest] = min_deadwood_mask(rest)
        return deadwood[rest], -combo[0].bit_count()

    used, choice = min(combos, key=key)  # the first of the least
    return deadwood[held & ~used], choice, used


def deadwood_after_lay_offs(melds: tuple[Meld, ...], held: int, deadwood: dict[int, int]) -> int:
    """The defender's least deadwood after laying off onto ``melds``: ``lay_offs(...).points``
    without building the result (``deadwood`` as for :func:`_best_choice`)."""
    return _best_choice([_options(meld, held) for meld in melds], held, deadwood)[0]


def best_lay_offs(melds: tuple[Meld, ...], held: int, deadwood: dict[int, int]) -> LayOffResult:
    """The defender's best play (see :func:`lay_offs`) with the cards of ``held`` against the
    knocker's ``melds`` (checked, no card in both); ``deadwood`` as for :func:`_best_choice`."""
    options = [_options(meld, held) for meld in melds]
    _, choice, used = _best_choice(options, held, deadwood)
    rest = arrange(cards_from_mask(held & ~used))
    plays = []
    final = []
    for index, (meld, meld_options, picked) in enumerate(zip(melds, options, choice)):
        below, above = meld_options[picked]
        cards = meld.cards
        for card in below + above:
            plays.append(LayOff(card, index, cards))
            cards = Hand(sorted(cards + (card,)))
        final.append(Meld(cards, meld.kind))
    return LayOffResult(tuple(plays), rest.melds, rest.deadwood, rest.points, tuple(final))


MAX_PRUNED = 8
"""The most lay-offs :func:`fewest_lay_offs` prunes (256 subsets at most)."""


def fewest_lay_offs(
    knocker_melds: Iterable[MeldLike], defender_cards: CardsLike, best: LayOffResult | None = None
) -> tuple[LayOff, ...]:
    """The fewest of the best lay-offs that leave the same least deadwood: ``best`` (by default
    :func:`lay_offs`) lays off every card that fits, the least deadwood first, then the most
    cards laid off; this leaves out those that save nothing, such as the cards of the
    defender's own run laid off only because they fit. The first of the fewest cards of
    ``best`` that, laid off in order, leave its deadwood (a list longer than
    :data:`MAX_PRUNED`, rare, is given as it is).

    >>> melds, cards = ["TC JC QC KC", "4S 4H 4D"], "7C 8C 9C TD JD QD AD 4C 6D 9S"
    >>> [str(lay.card) for lay in lay_offs(melds, cards).lay_offs]
    ['9C', '8C', '7C', '4C']
    >>> [str(lay.card) for lay in fewest_lay_offs(melds, cards)]  # the run saves nothing
    ['4C']
    """
    melds = check_melds(knocker_melds)
    held = parse_cards(defender_cards).mask
    if best is None:
        best = lay_offs(melds, cards_from_mask(held))
    chosen = [lay.card for lay in best.lay_offs]
    if len(chosen) > MAX_PRUNED:
        return best.lay_offs
    for size in range(len(chosen) + 1):
        for fewer in combinations(chosen, size):
            played = lay_offs(melds, fewer)
            kept = held & ~sum(card.bit for card in fewer)
            if len(played.lay_offs) == size and min_deadwood_mask(kept) == best.points:
                return played.lay_offs
    return best.lay_offs


def check_lay_offs(
    knocker_melds: Iterable[MeldLike], defender_cards: CardsLike, plays: Iterable[Any]
) -> LayOffResult:
    """The defender's own choice of lay-offs, checked one at a time, in order: ``plays`` is a
    sequence of ``(card, meld_index)`` (the card laid off onto the knocker's meld of that
    0-based index, as it stands after the earlier plays). The defender's other cards are
    arranged with :func:`~ginrummy.melds.arrange` (the least deadwood).

    Raises :class:`RuleError`: ``card_not_in_hand`` (``card``), ``no_such_meld`` (``index``,
    ``count``), ``cannot_lay_off`` (``card``, ``meld``: the card does not extend that meld).

    >>> result = check_lay_offs(["5H 6H 7H", "QC QD QS"], "3H 4H 8H 9H QH 2C 2D 6S 6D KD",
    ...                         [("8H", 0), ("QH", 1)])
    >>> result.points, [str(m) for m in result.knocker_melds]
    (42, ['5H 6H 7H 8H', 'QS QH QD QC'])
    >>> check_lay_offs(["5H 6H 7H"], "3H 4H 8H 9H QH 2C 2D 6S 6D KD", [("3H", 0)])
    Traceback (most recent call last):
    ...
    ginrummy.errors.RuleError: 3H cannot be laid off onto 5H 6H 7H
    """
    melds = list(check_melds(knocker_melds))
    held = parse_cards(defender_cards).mask
    done = []
    pairs = listed(plays)
    if pairs is None:
        raise RuleError(
            "bad_action",
            "lay-offs are a list of (card, meld number) pairs",
            field="lay_offs",
            value=quote(plays),
        )
    for play in pairs:
        if not isinstance(play, (tuple, list)) or len(play) != 2:
            raise RuleError(
                "bad_action",
                "a lay-off is a card and a meld number",
                field="lay_offs",
                value=quote(play),
            )
        card, index = Card.parse(play[0]), play[1]
        if not held & card.bit:
            raise RuleError(
                "card_not_in_hand", f"{card} is not in the defender's hand", card=str(card)
            )
        if not whole_number(index) or not 0 <= index < len(melds):
            raise RuleError(
                "no_such_meld",
                f"the knocker has no meld number {shown(index)}",
                index=quote(index),
                count=len(melds),
            )
        meld = melds[index]
        if meld_kind(meld.cards.mask | card.bit) != meld.kind:
            raise RuleError(
                "cannot_lay_off",
                f"{card} cannot be laid off onto {meld}",
                card=str(card),
                meld=str(meld),
            )
        done.append(LayOff(card, index, meld.cards))
        melds[index] = Meld(meld.cards + (card,), meld.kind)
        held ^= card.bit
    rest = arrange(cards_from_mask(held))
    return LayOffResult(tuple(done), rest.melds, rest.deadwood, rest.points, tuple(melds))
