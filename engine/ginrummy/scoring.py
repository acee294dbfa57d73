"""Scoring one hand: knock, gin, big gin, undercut, tie; Oklahoma's knock limit and spade doubling.

>>> result = score_hand("2S 3S 4S 7H 7D 7C 9C TC JC 5D", "8S 9S TS KH KD 4H 6C 6H 2C AD")
>>> result.outcome, result.winner, result.points
('knock', 'knocker', 34)
>>> result.knocker_points, result.defender_points
(5, 39)

How the hand is scored (``rules`` is a :class:`~ginrummy.rules.RuleSet`):

- **gin** (the knocker's 10 cards all melded): the knocker scores ``gin_bonus`` plus the
  defender's deadwood. The defender melds their own cards but may not lay off.
- **big gin** (11 cards all melded; only when ``big_gin_bonus`` is not None): ``big_gin_bonus``
  plus the defender's deadwood, no lay-offs.
- **knock**: the knocker's deadwood must be at most the knock limit (``knock_limit``; in
  Oklahoma the upcard's value, and with an ace upcard under ``ace_upcard="gin_only"`` only gin
  may end the hand). The defender lays off (see :mod:`ginrummy.layoffs`). If the defender's final
  deadwood is higher, the knocker scores the difference. If it is lower, the defender
  **undercuts**: ``undercut_bonus`` plus the difference. If equal (a **tie**): with
  ``tie="undercut"`` the defender scores ``undercut_bonus`` (difference 0); with
  ``tie="knocker"`` the knocker wins the hand for 0 points.
- **Oklahoma with a spade upcard** and ``spade_doubles``: the hand's points are doubled.

**The knocker's layout.** The knocker's deadwood is always their minimum deadwood. When several
arrangements reach it, the knocker lays out the one that is best for them: the one leaving the
defender the most deadwood after the defender's best lay-offs (this maximises the knocker's net
result whether the knocker wins or is undercut). Among equals the arrangement found by
:func:`~ginrummy.melds.best_melds` is kept. Pass ``knocker_melds=`` to score an explicit layout
instead (its deadwood is then whatever the layout leaves).

The upcard may be in either hand: the non-dealer (or the dealer) may take it at the first
upcard offer.

**Explanation steps.** :meth:`HandResult.explain` returns a list of steps, each a dict with a
``code`` and parameters only (cards and melds as notation strings, numbers as ints, no English),
so the site can render them in any language. The steps come in this order:

``knocker_melds``: ``melds`` (list of str), ``deadwood`` (str, may be ``""``), ``points``
(int), ``cards`` (10, or 11 for big gin), ``gin`` (bool: the hand ends in gin or big gin, so
there is no deadwood and nobody knocked). The knocker's layout.

Then exactly one of:

``gin``: ``bonus`` (int). The knocker went gin; no lay-offs are allowed.

``big_gin``: ``bonus`` (int). All 11 of the knocker's cards are melded; no lay-offs.

``knock``: ``deadwood`` (int), ``limit`` (int), ``upcard`` (str or None), ``oklahoma`` (bool).
The knocker knocked with this deadwood; ``limit`` is the knock limit (in Oklahoma set by the
upcard).

Then:

``defender_melds``: ``melds`` (list of str). The melds the defender lays out of their own cards.

``lay_off``: ``card`` (str), ``meld`` (str, the knocker's meld as it stands before this card),
``result`` (str, the meld after it), ``meld_index`` (int, 0-based position in the
``knocker_melds`` step's list). Zero or more of these, in playing order.

``defender_deadwood``: ``deadwood`` (str, may be ``""``), ``points`` (int), ``laid_off`` (int,
how many cards were laid off).

Then exactly one of:

``gin_score``: ``bonus``, ``defender_points``, ``total`` (ints): total = bonus + defender_points.

``big_gin_score``: ``bonus``, ``defender_points``, ``total`` (ints), as for gin.

``knock_win``: ``knocker_points``, ``defender_points``, ``difference``, ``total`` (ints):
the knocker scores the difference.

``undercut``: ``knocker_points``, ``defender_points`` (ints), ``tie`` (bool: equal deadwood,
which these rules count as an undercut), ``bonus``, ``difference``, ``total`` (ints):
total = bonus + difference, scored by the defender.

``tie_knocker``: ``knocker_points``, ``defender_points``, ``total`` (ints; total is 0). Equal
deadwood, which these rules give to the knocker for no points.

Then, only when the hand is doubled:

``spade_doubles``: ``upcard`` (str), ``multiplier`` (int, 2), ``before`` (int), ``total`` (int).
Oklahoma: a spade upcard doubles the hand's score.

Last:

``result``: ``winner`` (``"knocker"`` or ``"defender"``), ``outcome`` (``"knock"``, ``"gin"``,
``"big_gin"`` or ``"undercut"``), ``points`` (int), ``tie`` (bool).

Errors (``code`` and ``params``): :class:`CardError` ``wrong_count``, ``duplicate_card``
(``token``: a card in both hands), ``unknown_card`` etc. from notation; :class:`RuleError`
``knock_over_limit`` (``deadwood``, ``limit``), ``gin_required`` (``deadwood``, ``upcard``:
Oklahoma ace upcard), ``big_gin_not_played`` (``rules``), ``not_big_gin`` (``deadwood``),
``upcard_required`` (Oklahoma without an upcard), ``meld_not_in_hand`` (``card``),
``not_a_meld`` (``meld``), ``unknown_rules`` / ``bad_rule``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from .cards import DECK, LANE_BITS, Card, CardsLike, Hand, cards_from_mask, parse_cards
from .ending import check_ending
from .errors import CardError, RuleError
from .layoffs import (
    LayOff,
    LayOffResult,
    best_lay_offs,
    check_lay_offs,
    check_melds,
    deadwood_after_lay_offs,
)
from .melds import Meld, MeldLike, arrange, best_melds, min_deadwood_mask
from .rules import RuleSet, get_rules
from .vocab import OUTCOMES as OUTCOMES  # the outcomes of a HandResult
from .vocab import HandStepCode, Outcome

GIN_OUTCOMES: tuple[Outcome, ...] = ("gin", "big_gin")
"""The outcomes where all the knocker's cards meld (nobody knocked: the hand went gin)."""
POINTS_STEPS: tuple[HandStepCode, ...] = (
    "gin_score",
    "big_gin_score",
    "undercut",
    "tie_knocker",
    "knock_win",
)
"""The steps of :meth:`HandResult.explain` that work out the hand's points (before a spade
doubles them): every explanation has one."""


@dataclass(frozen=True)
class HandResult:
    """The score of one hand. ``points`` go to ``winner``, after any ``multiplier``."""

    outcome: Outcome
    winner: str
    points: int
    knocker_melds: tuple[Meld, ...]
    knocker_deadwood: Hand
    knocker_points: int
    defender_melds: tuple[Meld, ...]
    lay_offs: tuple[LayOff, ...]
    defender_deadwood: Hand
    defender_points: int
    rules: RuleSet
    upcard: Card | None = None
    tie: bool = False
    multiplier: int = 1
    knock_limit: int | None = None
    """The knock limit that applied (None for gin and big gin)."""

    def explain(self) -> list[dict[str, Any]]:
        """The scoring as structured steps (see the module docstring for every code).

        >>> steps = score_hand("7S 8S 9S 2H 3H 4H KC KD KH AD",
        ...                    "6S TS AC 2C 3D 5D 7D 9D QH QS").explain()
        >>> " ".join(step["code"] for step in steps)
        'knocker_melds knock defender_melds lay_off lay_off defender_deadwood knock_win result'
        >>> steps[3] == {"code": "lay_off", "card": "6S", "meld": "7S 8S 9S",
        ...              "result": "6S 7S 8S 9S", "meld_index": 0}
        True
        """
        rules = self.rules
        upcard = str(self.upcard) if self.upcard is not None else None
        knocker_cards = sum(len(m.cards) for m in self.knocker_melds) + len(self.knocker_deadwood)
        steps = [
            {
                "code": "knocker_melds",
                "melds": [str(m) for m in self.knocker_melds],
                "deadwood": str(self.knocker_deadwood),
                "points": self.knocker_points,
                "cards": knocker_cards,
                "gin": self.outcome in GIN_OUTCOMES,
            }
        ]
        if self.outcome == "gin":
            steps.append({"code": "gin", "bonus": rules.gin_bonus})
        elif self.outcome == "big_gin":
            steps.append({"code": "big_gin", "bonus": rules.big_gin_bonus})
        else:
            steps.append(
                {
                    "code": "knock",
                    "deadwood": self.knocker_points,
                    "limit": self.knock_limit,
                    "upcard": upcard,
                    "oklahoma": rules.oklahoma,
                }
            )
        steps.append({"code": "defender_melds", "melds": [str(m) for m in self.defender_melds]})
        for lay in self.lay_offs:
            steps.append(
                {
                    "code": "lay_off",
                    "card": str(lay.card),
                    "meld": str(lay.onto),
                    "result": str(lay.result),
                    "meld_index": lay.meld_index,
                }
            )
        steps.append(
            {
                "code": "defender_deadwood",
                "deadwood": str(self.defender_deadwood),
                "points": self.defender_points,
                "laid_off": len(self.lay_offs),
            }
        )
        before = self.points // self.multiplier
        if self.outcome in GIN_OUTCOMES:
            bonus = rules.gin_bonus if self.outcome == "gin" else rules.big_gin_bonus
            steps.append(
                {
                    "code": self.outcome + "_score",
                    "bonus": bonus,
                    "defender_points": self.defender_points,
                    "total": before,
                }
            )
        elif self.outcome == "undercut":
            steps.append(
                {
                    "code": "undercut",
                    "knocker_points": self.knocker_points,
                    "defender_points": self.defender_points,
                    "tie": self.tie,
                    "bonus": rules.undercut_bonus,
                    "difference": self.knocker_points - self.defender_points,
                    "total": before,
                }
            )
        elif self.tie:
            steps.append(
                {
                    "code": "tie_knocker",
                    "knocker_points": self.knocker_points,
                    "defender_points": self.defender_points,
                    "total": before,
                }
            )
        else:
            steps.append(
                {
                    "code": "knock_win",
                    "knocker_points": self.knocker_points,
                    "defender_points": self.defender_points,
                    "difference": self.defender_points - self.knocker_points,
                    "total": before,
                }
            )
        if self.multiplier != 1:
            steps.append(
                {
                    "code": "spade_doubles",
                    "upcard": upcard,
                    "multiplier": self.multiplier,
                    "before": before,
                    "total": self.points,
                }
            )
        steps.append(
            {
                "code": "result",
                "winner": self.winner,
                "outcome": self.outcome,
                "points": self.points,
                "tie": self.tie,
            }
        )
        return steps

    def to_json(self) -> dict[str, Any]:
        """Every field as JSON values (cards as notation), plus ``steps`` from :meth:`explain`."""
        return {
            "outcome": self.outcome,
            "winner": self.winner,
            "points": self.points,
            "tie": self.tie,
            "multiplier": self.multiplier,
            "knock_limit": self.knock_limit,
            "upcard": str(self.upcard) if self.upcard is not None else None,
            "knocker_melds": [str(m) for m in self.knocker_melds],
            "knocker_deadwood": str(self.knocker_deadwood),
            "knocker_points": self.knocker_points,
            "defender_melds": [str(m) for m in self.defender_melds],
            "lay_offs": [lay.to_json() for lay in self.lay_offs],
            "defender_deadwood": str(self.defender_deadwood),
            "defender_points": self.defender_points,
            "rules": self.rules.to_json(),
            "steps": self.explain(),
        }


def optimal_layouts(cards: CardsLike) -> list[tuple[Meld, ...]]:
    """Every arrangement of ``cards`` into melds that leaves the minimum deadwood.

    The arrangement :func:`~ginrummy.melds.arrange` returns comes first; each layout's melds are
    sorted by their cards' bit masks. The others follow in the order of a search that takes
    the lowest card (by index) as dead, then in each meld that holds it: sets of 3 (in the order
    the cards are given), the set of 4, runs from the shortest.

    >>> [[str(m) for m in layout] for layout in optimal_layouts("TS JS QS QH QD 2C")]
    [['TS JS QS'], ['QS QH QD']]
    """
    hand = parse_cards(cards)
    by_rank: dict[int, list[int]] = {}  # each rank's cards (bits) in the order given
    for card in hand:
        by_rank.setdefault(card.rank, []).append(card.bit)
    least: dict[int, int] = {}  # least deadwood by mask, for this search

    def deadwood(mask: int) -> int:
        if mask not in least:
            least[mask] = min_deadwood_mask(mask)
        return least[mask]

    def melds_with(low: Card, rest: int) -> Iterator[int]:
        """The melds in ``rest`` holding its lowest card ``low``, as masks, in search order."""
        same = [bit for bit in by_rank[low.rank] if bit & rest]
        for size in (3, 4):
            for combo in combinations(same, size):
                if low.bit in combo:
                    yield sum(combo)
        run, bit = low.bit, low.bit << 1
        for _ in range(low.rank, LANE_BITS):  # up to the king
            if not rest & bit:
                return
            run, bit = run | bit, bit << 1
            if run.bit_count() >= 3:
                yield run

    def search(rest: int, target: int) -> Iterator[tuple[int, ...]]:
        """Every list of melds (masks) of ``rest`` that leaves deadwood ``target``."""
        if not rest:
            yield ()
            return
        low = DECK[(rest & -rest).bit_length() - 1]
        if low.value <= target and deadwood(rest ^ low.bit) == target - low.value:
            yield from search(rest ^ low.bit, target - low.value)
        for meld in melds_with(low, rest):
            if deadwood(rest ^ meld) == target:
                for layout in search(rest ^ meld, target):
                    yield (meld,) + layout

    first = arrange(hand)
    layouts = [tuple(first.melds)]
    masks = frozenset(meld.cards.mask for meld in first.melds)
    for found in search(hand.mask, first.points):  # each layout once
        if frozenset(found) != masks:
            layouts.append(tuple(Meld(cards_from_mask(mask)) for mask in sorted(found)))
    return layouts


def best_deadwood_sets(cards: CardsLike) -> list[Hand]:
    """Every set of deadwood cards that an arrangement with the minimum deadwood leaves: one for
    a hand whose best arrangement is not in doubt (the hand a lesson asks to arrange), more
    when melds of the same points compete for cards. In the order of :func:`optimal_layouts`
    (the first is what :func:`~ginrummy.melds.arrange` leaves), each sorted by rank then suit.

    >>> [str(d) for d in best_deadwood_sets("TS JS QS QH QD 2C")]  # the QS in the run or the set
    ['2C QH QD', '2C TS JS']
    >>> [str(d) for d in best_deadwood_sets("7S 7H 7D 7C 8S 9S 2H 3H 4H KD")]  # the 7S either way
    ['KD']
    """
    hand = parse_cards(cards)
    found: dict[int, Hand] = {}
    for layout in optimal_layouts(hand):
        deadwood = _unmelded(hand, layout)
        found.setdefault(deadwood.mask, deadwood)
    return list(found.values())


def _unmelded(cards: Hand, melds: tuple[Meld, ...]) -> Hand:
    """The cards in no meld, sorted by rank then suit."""
    melded = 0
    for meld in melds:
        melded |= meld.cards.mask
    return cards_from_mask(cards.mask & ~melded).sorted()


def _best_layout(
    layouts: list[tuple[Meld, ...]], held: int, deadwood: dict[int, int]
) -> tuple[Meld, ...]:
    """The first of ``layouts`` leaving the defender (holding ``held``) the most deadwood after
    their best lay-offs. ``deadwood`` caches the defender's least deadwood by mask."""
    if len(layouts) == 1:
        return layouts[0]
    return max(
        layouts, key=lambda layout: deadwood_after_lay_offs(layout, held, deadwood)
    )  # the first


def knocker_layout(knocker: CardsLike, defender: CardsLike) -> tuple[Meld, ...]:
    """The melds :func:`score_hand` lays out for a knocker with these 10 cards: for gin the
    arrangement of :func:`~ginrummy.melds.best_melds`, else the optimal layout leaving the
    defender the most deadwood (see the module docstring)."""
    knocker, defender = parse_cards(knocker, count=10), parse_cards(defender)
    first = best_melds(knocker)
    if first.points == 0:
        return first.melds
    return _best_layout(optimal_layouts(knocker), defender.mask, {})


def check_melds_in_hand(layout: Iterable[Meld], hand: Hand) -> int:
    """The mask of the cards ``layout`` (checked melds) takes from the knocker's ``hand``; a
    meld card not in the hand raises ``RuleError("meld_not_in_hand")``."""
    melded = 0
    for meld in layout:
        for card in meld.cards:
            if not card.bit & hand.mask:
                raise RuleError(
                    "meld_not_in_hand",
                    f"{card} is in a meld but not in the knocker's hand",
                    card=str(card),
                )
        melded |= meld.cards.mask
    return melded


def score_hand(
    knocker: CardsLike,
    defender: CardsLike,
    rules: RuleSet | str | dict[str, Any] = "standard",
    upcard: Card | str | None = None,
    knocker_melds: Iterable[MeldLike] | None = None,
    defender_lay_offs: Iterable[Any] | None = None,
) -> HandResult:
    """Score one hand.

    ``knocker``: the knocker's 10 cards after the discard (11 cards claim big gin).
    ``defender``: the defender's 10 cards. ``rules``: a preset name, a RuleSet or a JSON object.
    ``upcard``: the hand's first upcard (needed in Oklahoma). ``knocker_melds``: an explicit
    layout for the knocker (default: the best one, see the module docstring).
    ``defender_lay_offs``: the defender's own lay-offs, ``(card, meld_index)`` in order,
    checked by :func:`~ginrummy.layoffs.check_lay_offs` (default: the best ones).

    >>> score_hand("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", "KS KH 5S 5C 2D 3D 9H JH QD QC").points
    99
    >>> result = score_hand("AS 2S 3S 4H 5H 6H 7C 8C 9C TD", "KS KH KD 2D 3D 4D 5S 5C 5D AC")
    >>> result.outcome, result.winner, result.points, result.knocker_points, result.defender_points
    ('undercut', 'defender', 34, 10, 1)
    >>> score_hand("AS 2S 3S 4H 5H 6H 7C 8C KD TD", "KS KH 5S 5C 2D 3D 9H JH QD QC")
    Traceback (most recent call last):
    ...
    ginrummy.errors.RuleError: deadwood 35 is over the knock limit 10
    """
    rules = get_rules(rules)
    knocker = parse_cards(knocker, count=(10, 11))
    defender = parse_cards(defender, count=10)
    upcard = None if upcard is None else Card.parse(upcard)
    for card in defender:
        if card.bit & knocker.mask:
            raise CardError("duplicate_card", f"{card} is in both hands", token=str(card))
    if rules.oklahoma and upcard is None:
        raise RuleError("upcard_required", "Oklahoma needs the upcard to score a hand")
    multiplier = rules.multiplier(upcard)

    if knocker_melds is None:
        first = arrange(knocker)  # all 11 cards for big gin
        layouts = None  # computed only for a knock
        k_melds = first.melds
        k_points = first.points
    else:
        k_melds = check_melds(knocker_melds)
        check_melds_in_hand(k_melds, knocker)
        layouts = [k_melds]
        k_points = _unmelded(knocker, k_melds).points

    ending = check_ending("big_gin" if len(knocker) == 11 else "knock", k_points, rules, upcard)
    assert ending.kind != "no"  # check_ending refuses a hand that may not end
    outcome: Outcome = ending.kind
    limit = ending.limit if outcome == "knock" else None

    if outcome == "knock":
        if layouts is None:
            layouts = optimal_layouts(knocker)
        deadwood: dict[int, int] = {}  # the defender's least deadwood by mask, for every layout
        k_melds = _best_layout(layouts, defender.mask, deadwood)
        if defender_lay_offs is None:
            defence = best_lay_offs(k_melds, defender.mask, deadwood)
        else:
            defence = check_lay_offs(k_melds, defender, defender_lay_offs)
    elif defender_lay_offs:
        raise RuleError(
            "wrong_phase", f"nobody lays off onto {outcome}", kind="lay_off", phase=outcome
        )
    else:
        own = arrange(defender)
        defence = LayOffResult((), own.melds, own.deadwood, own.points, k_melds)
    k_deadwood = _unmelded(knocker, k_melds)
    d_points = defence.points

    tie = False
    if outcome == "gin":
        winner, base = "knocker", rules.gin_bonus + d_points
    elif outcome == "big_gin":
        assert rules.big_gin_bonus is not None  # check_ending allows big gin only when it is played
        winner, base = "knocker", rules.big_gin_bonus + d_points
    elif d_points > k_points:
        winner, base = "knocker", d_points - k_points
    elif d_points < k_points or rules.tie == "undercut":
        tie = d_points == k_points
        outcome, winner, base = "undercut", "defender", rules.undercut_bonus + k_points - d_points
    else:
        tie, winner, base = True, "knocker", 0

    return HandResult(
        outcome=outcome,
        winner=winner,
        points=base * multiplier,
        knocker_melds=k_melds,
        knocker_deadwood=k_deadwood,
        knocker_points=k_points,
        defender_melds=defence.melds,
        lay_offs=defence.lay_offs,
        defender_deadwood=defence.deadwood,
        defender_points=d_points,
        rules=rules,
        upcard=upcard,
        tie=tie,
        multiplier=multiplier,
        knock_limit=limit,
    )
