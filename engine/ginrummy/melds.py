"""Melds, the best arrangement of a hand, and minimum deadwood: exact and fast.

>>> best_melds(parse_cards("3H 4H 5H 7C 7D 7S 9S 9C KD KH")).points
38
>>> a = best_melds("4S 6S KS KH 4D 5D 6D 4C 5C 6C KC")
>>> a.points, str(a.discard), [str(m) for m in a.melds]
(4, '6S', ['4D 5D 6D', '4C 5C 6C', 'KS KH KC'])
>>> min_deadwood_mask(parse_cards("AS 2S 3S 7H 7D 7C 9C TC JC KD").mask)
10

How it works. A hand is a 52-bit mask with a 13-bit lane per suit (see :mod:`ginrummy.cards`).
Runs live inside one lane, so a table built once (8192 entries) gives each lane's least
deadwood using runs only. Sets join lanes, but only ranks held in 3 or 4 suits can form one,
and bit operations on the four lanes find those ranks. With none, the answer is four table
lookups. Otherwise every choice of sets for those ranks is tried (no set, the set, each 3-subset
of a 4-set), its cards are taken out of the lanes and the lanes are looked up again; choices
that can never win are skipped (see :func:`_set_choices`). For 11 cards a second table gives
each lane's best gain from discarding one of its cards, so the best discard over the whole
hand is the best lane's gain: exact, with no search over discards. Hands with very many set
choices (large hands with many 4-of-a-kinds, never 10 or 11 cards) go to a plain memoised
search instead. The tests check all of this against a brute force.

Building the tables takes about 15 ms of CPU time at import.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .cards import DECK, LANE_BITS, Card, CardsLike, Hand, cards_from_mask, parse_cards, wrong_count
from .errors import CardError, RuleError

_LANE = (1 << LANE_BITS) - 1  # 8191: the 13 bits of one suit's lane, ace at bit 0, king at 12
_LANES = 1 << LANE_BITS  # 8192 different lanes: the length of each lane table
_HEARTS, _DIAMONDS, _CLUBS = LANE_BITS, 2 * LANE_BITS, 3 * LANE_BITS  # lane shifts (spades: 0)
_SHIFTS = (0, _HEARTS, _DIAMONDS, _CLUBS)
_RANK = sum(1 << shift for shift in _SHIFTS)  # 0x8004002001, bit 0 of each lane: times a
# rank's lane bit, it gives that rank's bit in every suit
_MIN_MELD = 3  # the fewest cards of a set or a run
_KEY_SHIFT = 6  # a search key packs points << 6 | dead cards (at most 52 dead cards < 64), so
# comparing keys compares points first, then the number of dead cards
_VALUES = tuple(min(rank, 10) for rank in range(1, LANE_BITS + 1))  # card value by lane bit
_NO_DISCARD = 10_000  # more than any deadwood: a lane with no card has nothing to discard
_MAX_CHOICES = 4096  # more set choices than this: use the memoised search


@dataclass(frozen=True)
class Meld:
    """A set (3 or 4 cards of one rank) or a run (3+ cards of one suit in sequence).

    ``Meld("7S 7H 7C")`` checks and sorts the cards and works out ``kind``; anything that is
    not a meld raises ``RuleError("not_a_meld")`` (bad card notation raises ``CardError``).

    >>> Meld("7C 7S 7H")
    Meld('7S 7H 7C')
    >>> Meld("QS KS AS")
    Traceback (most recent call last):
    ...
    ginrummy.errors.RuleError: AS QS KS is not a meld
    """

    cards: Hand  # sorted by rank, then suit (S, H, D, C)
    kind: str = ""  # "set" or "run"; worked out when not given

    def __post_init__(self) -> None:
        cards = parse_cards(self.cards).sorted()
        kind = meld_kind(cards.mask)
        if kind is None or self.kind not in ("", kind):
            raise RuleError(
                "not_a_meld", f"{cards} is not a {self.kind or 'meld'}", meld=str(cards)
            )
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "kind", kind)

    def __str__(self) -> str:
        return str(self.cards)

    def __repr__(self) -> str:
        return f"Meld({str(self)!r})"


def meld_kind(mask: int) -> str | None:
    """``"set"`` or ``"run"`` when the cards of ``mask`` form a meld, else None: the engine's one
    meld check. A set is 3 or 4 cards of one rank; a run is 3 or more cards of one suit in
    sequence, ace low only (K-A-2 is not a run).

    >>> [meld_kind(parse_cards(cards).mask) for cards in ("7S 7H 7C", "JS QS KS", "QS KS AS")]
    ['set', 'run', None]
    """
    count = mask.bit_count()
    if count < _MIN_MELD:
        return None
    low = mask & -mask
    index = low.bit_length() - 1
    rank = index % LANE_BITS  # the lowest card's bit in its lane
    if count <= 4 and not mask & ~(_RANK << rank):
        return "set"
    run = mask >> index
    if not run & (run + 1) and rank + count <= LANE_BITS:  # consecutive bits inside one lane
        return "run"
    return None


MeldLike = Meld | CardsLike
"""A meld as the public functions take it: a :class:`Meld`, or its cards (checked)."""


@dataclass(frozen=True)
class Arrangement:
    """Melds and deadwood of a hand.

    ``melds`` are sorted by their cards' bit masks, ``deadwood`` by rank then suit; ``points``
    is the deadwood's value. For 11 cards (:func:`best_melds`) these describe the 10 cards
    kept after ``discard``; ``big_gin`` is True when all 11 cards meld (then ``points`` is 0
    and ``discard`` is a card whose discard keeps gin).
    """

    melds: tuple[Meld, ...]
    deadwood: Hand
    points: int
    discard: Card | None = None
    big_gin: bool = False


# --- the lane tables --------------------------------------------------------------------------


_Tables = tuple[list[int], list[int], list[int], list[int], list[int]]


# Runs only at import: no mutant of it could be switched on (make mutate). Every test that
# melds checks the tables.
def _build_lane_tables() -> _Tables:  # pragma: no mutate block
    """Tables indexed by a 13-bit lane (one suit's cards, ace at bit 0), using runs only:

    - ``key``: least deadwood as ``points << _KEY_SHIFT | dead cards`` (points first, then
      fewer cards);
    - ``first_run``: the run its best arrangement takes at the lowest card (0: that card is dead);
    - ``points``: ``key >> _KEY_SHIFT``, the least deadwood points;
    - ``discard_gain``: least change of ``points`` from discarding one of the lane's cards
      (``_NO_DISCARD`` for an empty lane);
    - ``runnable``: the cards that are in some run of 3 within the lane.
    """
    key = [0] * _LANES
    first_run = [0] * _LANES
    for lane in range(1, _LANES):
        low = lane & -lane
        best = key[lane ^ low] + (_VALUES[low.bit_length() - 1] << _KEY_SHIFT) + 1  # low is dead
        best_run = 0
        run, bit, length = low, low << 1, 1
        while lane & bit:
            run, bit, length = run | bit, bit << 1, length + 1
            if length >= _MIN_MELD and key[lane ^ run] < best:
                best, best_run = key[lane ^ run], run
        key[lane], first_run[lane] = best, best_run
    points = [k >> _KEY_SHIFT for k in key]
    bits = [1 << i for i in range(LANE_BITS)]
    discard_gain = [_NO_DISCARD] + [  # least (points after discarding one card) - points
        min([points[lane ^ bit] for bit in bits if lane & bit]) - points[lane]
        for lane in range(1, _LANES)
    ]
    runnable = [0] * _LANES  # the cards that can be in some run of the lane
    for lane in range(_LANES):
        starts = lane & lane >> 1 & lane >> 2  # the lowest cards of runs of 3 (_MIN_MELD)
        runnable[lane] = (starts | starts << 1 | starts << 2) & _LANE
    return key, first_run, points, discard_gain, runnable


_KEY, _FIRST_RUN, _POINTS, _DISCARD_GAIN, _RUNNABLE = _build_lane_tables()


def _lane_runs(lane: int) -> list[int]:
    """The runs (as lane masks) of the lane's best runs-only arrangement."""
    runs = []
    while lane:
        run = _FIRST_RUN[lane]
        if run:
            runs.append(run)
            lane ^= run
        else:
            lane ^= lane & -lane
    return runs


# --- set choices ------------------------------------------------------------------------------


def _set_choices(mask: int, discard: bool = False) -> list[int] | None:
    """Every choice of sets worth trying, as masks of the cards taken into sets, or None when
    there are more than ``_MAX_CHOICES`` of them.

    Only ranks held in 3 or 4 suits can form a set. A card that can be in a run of its lane is
    "runnable"; one that is not stays deadwood unless it is in a set. Per such rank the options
    are no set, the whole set, and for 4 cards each 3-subset, except these, which never do
    better than another option:

    - with no discard: no set when at most one of 4 cards is runnable (leaving out that one is
      better); a 3-subset leaving out a card that is not runnable (the 4-set is better); so
      a rank with no runnable card always makes its set;
    - with a discard (``discard=True``, one card of the hand is dropped for free, so breaking
      a meld may be needed): no set when none of 4 cards is runnable; all but one of the
      3-subsets that leave out a card that is not runnable (they all score the same).

    Each choice is checked against a brute force in tests/engine/test_melds.py.

    >>> hand = parse_cards("7S 7H 7D KS KH KD QS JS")  # the sevens always meld; KS may run
    >>> [str(cards_from_mask(m).sorted()) for m in _set_choices(hand.mask)]
    ['7S 7H 7D', '7S 7H 7D KS KH KD']
    """
    r = _RUNNABLE
    a, b, c, d = mask & _LANE, mask >> _HEARTS & _LANE, mask >> _DIAMONDS & _LANE, mask >> _CLUBS
    ranks = (a & b & (c | d)) | (c & d & (a | b))  # ranks held in 3 or 4 suits
    runnable = r[a] | r[b] << _HEARTS | r[c] << _DIAMONDS | r[d] << _CLUBS
    choices = [0]
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        cards = low * _RANK & mask  # this rank's cards
        free, stuck = cards & runnable, cards & ~runnable
        if cards.bit_count() == 3:
            options = [0, cards] if free or discard else [cards]
        else:
            options = [cards]  # the 4-set
            rest = free
            while rest:  # 3-subsets leaving out a runnable card
                card = rest & -rest
                rest ^= card
                options.append(cards ^ card)
            if discard and stuck:  # one 3-subset leaving out a card that is not runnable
                options.append(cards ^ (stuck & -stuck))
            if free if discard else free & (free - 1):  # no set
                options.append(0)
        if len(options) > 1:
            choices = [choice | option for choice in choices for option in options]
            if len(choices) > _MAX_CHOICES:
                return None
        else:
            choices = [choice | cards for choice in choices]
    return choices


def _one_rank_choices(mask: int, rank_bit: int) -> list[int]:
    """All set choices when a single rank (``rank_bit`` in a lane) is held in 3 or 4 suits: no
    set, the set, and for 4 cards each 3-subset. Quicker than :func:`_set_choices` for the
    commonest case, and exact with or without a discard."""
    cards = rank_bit * _RANK & mask
    if cards.bit_count() == 3:
        return [0, cards]
    return [0, cards] + [cards ^ rank_bit << shift for shift in _SHIFTS]


# --- the mask functions -----------------------------------------------------------------------


def min_deadwood_mask(mask: int, _t: list[int] = _POINTS) -> int:
    """Least deadwood points of the cards in ``mask`` (any number of cards, no discard).

    >>> min_deadwood_mask(parse_cards("3H 4H 5H 7C 7D 7S 9S 9C KD KH").mask)
    38
    """
    a = mask & _LANE  # the four suit lanes
    b = mask >> _HEARTS & _LANE
    c = mask >> _DIAMONDS & _LANE
    d = mask >> _CLUBS
    ranks = (a & b & (c | d)) | (c & d & (a | b))  # ranks held in 3 or 4 suits
    if not ranks:
        return _t[a] + _t[b] + _t[c] + _t[d]
    if ranks & (ranks - 1):
        choices = _set_choices(mask)
        if choices is None:
            return _memo_search(mask, {})[0] >> _KEY_SHIFT
    else:
        choices = _one_rank_choices(mask, ranks)
    best = _NO_DISCARD
    for choice in choices:
        rest = mask ^ choice
        points = (
            _t[rest & _LANE]
            + _t[rest >> _HEARTS & _LANE]
            + _t[rest >> _DIAMONDS & _LANE]
            + _t[rest >> _CLUBS]
        )
        if points < best:
            best = points
    return best


def min_deadwood_after_discard_mask(
    mask: int, _t: list[int] = _POINTS, _g: list[int] = _DISCARD_GAIN
) -> int:
    """Least deadwood points after discarding one of the cards in ``mask`` (exact: as good as
    trying every discard). An empty mask raises ``CardError("wrong_count")``.

    >>> min_deadwood_after_discard_mask(parse_cards("4S 6S KS KH 4D 5D 6D 4C 5C 6C KC").mask)
    4
    """
    if not mask:
        raise CardError("wrong_count", "no card to discard", expected=[1], got=0)
    a = mask & _LANE
    b = mask >> _HEARTS & _LANE
    c = mask >> _DIAMONDS & _LANE
    d = mask >> _CLUBS
    ranks = (a & b & (c | d)) | (c & d & (a | b))
    if not ranks:
        return _t[a] + _t[b] + _t[c] + _t[d] + min(_g[a], _g[b], _g[c], _g[d])
    if ranks & (ranks - 1):
        choices = _set_choices(mask, discard=True)
        if choices is None:
            return min(
                _memo_search(mask ^ card.bit, {})[0] >> _KEY_SHIFT for card in cards_from_mask(mask)
            )
    else:
        choices = _one_rank_choices(mask, ranks)
    best = _NO_DISCARD
    for choice in choices:
        rest = mask ^ choice
        if not rest:
            continue  # nothing left to discard: another choice leaves the discard out of a set
        a, b, c, d = (
            rest & _LANE,
            rest >> _HEARTS & _LANE,
            rest >> _DIAMONDS & _LANE,
            rest >> _CLUBS,
        )
        points = _t[a] + _t[b] + _t[c] + _t[d] + min(_g[a], _g[b], _g[c], _g[d])
        if points < best:
            best = points
    return best


# --- arrangements -----------------------------------------------------------------------------


def _search(mask: int) -> tuple[int, list[int]]:
    """(search key, meld masks) of the best arrangement of ``mask``: the key is
    ``points << _KEY_SHIFT | dead cards``.

    Ties (same points and number of dead cards) go to the first found: set choices in the
    order of :func:`_set_choices`, runs as :func:`_build_lane_tables` finds them.
    """
    choices = _set_choices(mask)
    if choices is None:
        return _memo_search(mask, {})
    k = _KEY
    best: int | None = None
    best_removal = 0
    for removal in choices:
        rest = mask ^ removal
        key = (
            k[rest & _LANE]
            + k[rest >> _HEARTS & _LANE]
            + k[rest >> _DIAMONDS & _LANE]
            + k[rest >> _CLUBS]
        )
        if best is None or key < best:
            best, best_removal = key, removal
    melds = []
    rest = mask & ~best_removal
    for shift in _SHIFTS:
        melds += [run << shift for run in _lane_runs(rest >> shift & _LANE)]
    for rank in range(LANE_BITS):
        cards = best_removal & (_RANK << rank)
        if cards:
            melds.append(cards)
    assert best is not None  # there is always a choice: _set_choices starts from "no set"
    return best, melds


def _best_key(mask: int, _k: list[int] = _KEY) -> int:
    """The search key of the best arrangement of ``mask`` (as :func:`_search`)."""
    choices = _set_choices(mask)
    if choices is None:
        return _memo_search(mask, {})[0]
    return min(
        [
            _k[r & _LANE] + _k[r >> _HEARTS & _LANE] + _k[r >> _DIAMONDS & _LANE] + _k[r >> _CLUBS]
            for r in [mask ^ choice for choice in choices]
        ]
    )


def _memo_search(mask: int, memo: dict[int, tuple[int, list[int]]]) -> tuple[int, list[int]]:
    """(least key, meld masks) like :func:`_search`, by plain recursion on the lowest card (dead,
    in a set, or starting a run), memoised in ``memo``. Used for hands with very many set
    choices; equal-key ties may be broken differently from :func:`_search`."""
    if not mask:
        return 0, []
    if mask in memo:
        return memo[mask]
    low = min(cards_from_mask(mask))
    rest = mask ^ low.bit
    key, melds = _memo_search(rest, memo)
    best = (key + (low.value << _KEY_SHIFT) + 1, melds)  # low is dead
    same = [
        card.bit
        for card in (DECK[shift + low.rank - 1] for shift in _SHIFTS)
        if card is not low and mask & card.bit
    ]
    candidates = [
        low.bit | sum(combo)  # sets: low and 2 or 3 cards of its rank
        for size in (2, 3)
        for combo in combinations(same, size)
    ]
    run, bit = low.bit, low.bit << 1
    for _ in range(low.rank, LANE_BITS):
        if not mask & bit:
            break
        run, bit = run | bit, bit << 1
        if run.bit_count() >= _MIN_MELD:
            candidates.append(run)
    for meld in candidates:
        key, melds = _memo_search(mask & ~meld, memo)
        if key < best[0]:
            best = (key, [meld] + melds)
    memo[mask] = best
    return best


def _make_meld(mask: int) -> Meld:
    """The Meld of a mask known to be a meld, built without checking it again."""
    meld = object.__new__(Meld)
    object.__setattr__(meld, "cards", cards_from_mask(mask).sorted())
    object.__setattr__(meld, "kind", meld_kind(mask))
    return meld


def _arrangement(mask: int, discard: Card | None = None, big_gin: bool = False) -> Arrangement:
    key, meld_masks = _search(mask)
    used = 0
    for meld in meld_masks:
        used |= meld
    melds = tuple(_make_meld(m) for m in sorted(meld_masks))
    deadwood = cards_from_mask(mask & ~used).sorted()
    return Arrangement(melds, deadwood, key >> _KEY_SHIFT, discard, big_gin)


def arrange(cards: CardsLike) -> Arrangement:
    """The arrangement with the least deadwood for any number of cards (0 to 52), no discard.

    Ties go to the fewest deadwood cards, then to a fixed search order. Up to about 25 cards
    this takes microseconds to a millisecond; huge hands with many 4-of-a-kinds take the
    memoised search (the whole deck: about 0.6 s in CPython).

    >>> a = arrange("7S 7H 7D 7C 8S 9S")
    >>> [str(m) for m in a.melds], a.points
    (['7S 8S 9S', '7H 7D 7C'], 0)
    >>> arrange("KS AS 2S").points
    13
    """
    return _arrangement(parse_cards(cards).mask)


def _discard_order(card: Card) -> tuple[int, int, int]:
    return (-card.value, -card.rank, card.index)


def best_melds(cards: CardsLike) -> Arrangement:
    """The best arrangement of 10 cards, or of 11 cards with the best discard.

    For 11 cards every discard is tried. Ties are broken by, in order: least deadwood points,
    fewest deadwood cards, discarding the highest-value card, then the highest rank, then the
    first suit in the order S, H, D, C; then melds by a fixed search order. ``big_gin`` tells
    that all 11 cards meld. Any other number of cards raises ``CardError("wrong_count")``.

    >>> a = best_melds("3H 4H 5H 6H 7C 7D 7S 9S 9C 9D 9H")
    >>> a.points, str(a.discard), a.big_gin
    (0, '9S', True)
    """
    hand = parse_cards(cards, count=(10, 11))
    mask = hand.mask
    if len(hand) == 10:
        return _arrangement(mask)
    key, _, discard = min((_best_key(mask ^ card.bit), _discard_order(card), card) for card in hand)
    big_gin = key == 0 and min_deadwood_mask(mask) == 0
    return _arrangement(mask ^ discard.bit, discard, big_gin)


def min_deadwood(cards: CardsLike) -> int:
    """Minimum deadwood points of 10 cards, or of 11 cards after the best discard.

    >>> min_deadwood("4S 6S KS KH 4D 5D 6D 4C 5C 6C KC")
    4
    """
    hand = cards if type(cards) is Hand else parse_cards(cards)  # a Hand as it is: no call
    size = len(hand)
    if size == 10:
        return min_deadwood_mask(hand.mask)
    if size == 11:
        return min_deadwood_after_discard_mask(hand.mask)
    raise wrong_count((10, 11), size)
