"""Why one move: the coach's reasons, as codes with parameters (never English).

:func:`facts` works out what is true of each choice from the player's view (and, for a few
numbers, from the worlds the coach played); :func:`why` picks the one reason that tells a
choice from another (the *primary* reason, one sentence), and :func:`reasons` lists every
reason true of a choice, for the details. Cards and melds are given as the engine writes them
(``"7D 8D 9D"``), numbers as numbers. The codes (each with its parameters) are
:data:`REASON_CODES`; the coach's docstring (:mod:`ginrummy.advice`) says what each means.

Definitions the reasons keep to:

- an **out** is an unseen card that would make or extend a meld with the cards kept (a card
  of a rank held twice, or a card next to two of its suit in a run);
- a **meld** is 3 or more cards; two cards one card short of a meld are a *partial* meld,
  never a run or a set;
- a card's **rank** is its rank (a 9), its **value** its points (a king counts 10).

>>> from ginrummy.hand import deal
>>> from ginrummy.public import view
>>> seen = view(deal(seed=7), 1)
>>> [f.action.kind for f in facts(seen, seen.legal_actions(), {})]
['take_upcard', 'pass']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import DECK, LANE_BITS, Card, Hand, cards_from_mask
from .ending import verdict
from .hand import KNOCK_KINDS, TAKE_KINDS, Action
from .melds import Meld, arrange, meld_kind
from .policy import gin_outs, least_deadwood, meld_outs, near_cards
from .public import PlayerView
from .vocab import ReasonCode

REASON_CODES: dict[ReasonCode, tuple[str, ...]] = {
    "big_gin": ("bonus",),
    "gin": ("bonus",),
    "knock": ("deadwood", "limit"),
    "undercut_risk": ("percent",),
    "avoids_undercut": ("percent",),
    "gin_outs": ("outs",),
    "game_first": ("player", "needs"),
    "keeps_meld": ("meld",),
    "breaks_meld": ("card", "meld"),
    "avoids_feeding": ("card", "took"),
    "known_to_opponent": ("card", "cards"),
    "opponent_took": ("card", "took"),
    "opponent_threw": ("card", "threw"),
    "opponent_threw_it": ("card",),
    "opponent_passed": ("card", "passed"),
    "gives_meld": ("percent",),
    "lower_deadwood": ("points", "other"),
    "deadwood": ("points",),
    "keeps_partial": ("cards", "outs"),
    "keeps_run_open": ("meld", "outs"),
    "outs": ("outs",),
    "more_outs": ("outs", "other"),
    "high_card": ("card", "points"),
    "makes_meld": ("card", "meld"),
    "extends_meld": ("card", "meld"),
    "knock_after": ("card", "deadwood"),
    "lowers_deadwood": ("card", "before", "after"),
    "reveals": ("card",),
    "no_meld": ("card",),
    "stock_outs": ("outs",),
    "plays_better": ("points",),
    "wins_more": ("percent",),
    "close_call": (),
    "only_choice": (),
}
"""Every reason code (:data:`~ginrummy.vocab.ReasonCode`, in its order) and its parameters, in
the order :func:`reasons` lists them."""

AGAINST_CODES: tuple[ReasonCode, ...] = (
    "game_first", "big_gin", "gin", "knock", "gin_outs", "avoids_undercut", "keeps_meld",
    "lower_deadwood", "avoids_feeding", "opponent_threw", "opponent_threw_it", "opponent_passed",
    "keeps_partial",
    "keeps_run_open", "more_outs", "high_card", "knock_after", "makes_meld", "extends_meld",
    "lowers_deadwood", "no_meld", "reveals", "plays_better", "wins_more", "close_call",
)  # fmt: skip
"""The reasons one choice beats another (:func:`why`, and the coach's ``wins_more`` and
``close_call`` when the playouts alone tell them apart): what a mistake is explained by."""

Reason = dict[str, Any]


@dataclass(frozen=True)
class Facts:
    """What is true of one choice (see the module docstring). Throws: ``card`` thrown,
    ``left`` the deadwood kept, ``ends`` ``gin``/``big_gin``/``knock`` or None; takes:
    ``card`` taken, ``left`` the deadwood after it and the best throw, ``made`` the meld it
    makes; passes and stock draws: ``card`` the card passed over (None: no pile)."""

    action: Action
    card: Card | None = None
    left: int = 0
    ends: str | None = None
    limit: int = 0
    breaks: Meld | None = None
    outs: int = 0
    partials: tuple[tuple[str, str], ...] = ()
    open_runs: tuple[tuple[str, str], ...] = ()
    feeds_meld: str | None = None
    feeds_near: str | None = None
    threw: Card | None = None
    passed: Card | None = None
    gin_outs: int = 0
    undercut: int | None = None
    gives: int | None = None
    before: int = 0
    made: Meld | None = None
    extends: bool = False
    useful: bool = False
    melds: bool = False


def facts(
    seen: PlayerView, actions: list[Action], shares: Mapping[Action, tuple[int, int]]
) -> list[Facts]:
    """The facts of each of ``actions`` (legal for ``seen``). ``shares[action]`` holds the
    percent of worlds where a knock was undercut and where a thrown card made a meld with
    the other hand (from the coach's playouts)."""
    mask, unseen = seen.hand.mask, seen.unseen.mask
    limit = seen.rules.knock_limit_for(seen.upcard)
    if seen.phase in ("offer", "draw"):
        return [_draw_facts(seen, action, mask, unseen, limit) for action in actions]
    if seen.phase != "discard":
        return [Facts(action) for action in actions]
    arranged = arrange(seen.hand)
    can_end = any(a.kind in KNOCK_KINDS for a in actions)
    let_go = _let_go(seen)
    out = []
    for action in actions:
        card = action.card
        if card is None:  # big gin
            out.append(Facts(action, ends="big_gin"))
            continue
        rest = mask ^ card.bit
        left = least_deadwood(rest)
        ends = None
        if action.kind == "gin" or (action.kind == "knock" and left == 0):
            ends = "gin"
        elif action.kind == "knock":
            ends = "knock"
        breaks = next(
            (
                m
                for m in arranged.melds
                if card in m.cards and meld_kind(m.cards.mask ^ card.bit) is None
            ),
            None,
        )
        kept = arrange(cards_from_mask(rest))
        undercut, gives = shares.get(action, (0, 0))
        threw, passed = let_go.get(card.rank, (None, None))
        known = seen.known.mask
        feeds_meld = feeds_near = None
        if known and meld_outs(known) & card.bit:
            feeds_meld = str(cards_from_mask(near_cards(card.bit) & known).sorted())
        elif known and near_cards(card.bit) & known:
            feeds_near = str(cards_from_mask(near_cards(card.bit) & known).sorted())
        out.append(
            Facts(
                action,
                card=card,
                left=left,
                ends=ends,
                limit=limit,
                breaks=breaks,
                outs=(meld_outs(rest) & unseen).bit_count(),
                partials=_partials(kept.deadwood, unseen),
                open_runs=_open_runs(kept.melds, unseen),
                feeds_meld=feeds_meld,
                feeds_near=feeds_near,
                threw=threw,
                passed=passed,
                gin_outs=gin_outs(rest, unseen) if can_end and ends is None and left else 0,
                undercut=undercut if ends == "knock" else None,
                gives=gives if action.kind == "discard" else None,
            )
        )
    return out


def _draw_facts(seen: PlayerView, action: Action, mask: int, unseen: int, limit: int) -> Facts:
    top = seen.discards[-1] if seen.discards else None
    before = least_deadwood(mask)
    if top is None:
        return Facts(action, before=before, outs=(meld_outs(mask) & unseen).bit_count())
    with_top = mask | top.bit
    left, thrown = min((least_deadwood(with_top ^ c.bit), c.index) for c in seen.hand)
    useful = left < before
    made = extends = None
    if useful:
        kept = arrange(cards_from_mask(with_top ^ DECK[thrown].bit))
        made = next((m for m in kept.melds if top in m.cards), None)
        extends = made is not None and meld_kind(made.cards.mask ^ top.bit) is not None
    return Facts(
        action,
        card=top,
        left=left,
        limit=limit,
        before=before,
        made=made,
        extends=bool(extends),
        useful=useful,
        outs=(meld_outs(mask) & unseen).bit_count(),
        ends=_can_end(left, seen) if useful else None,
        melds=bool(meld_outs(mask) & top.bit),
    )


def _can_end(left: int, seen: PlayerView) -> str | None:
    kind = verdict(left, seen.rules, seen.upcard).kind
    return kind if kind in ("gin", "knock") else None


_RANK = sum(1 << (suit * LANE_BITS) for suit in range(4))


def _let_go(seen: PlayerView) -> dict[int, tuple[Card | None, Card | None]]:
    """By rank: a card of it the other player threw, and one they passed over (declined the
    upcard, or drew from the stock while it topped the pile)."""
    other = seen.opponent
    found: dict[int, tuple[Card | None, Card | None]] = {}
    pile = [seen.upcard]
    for index, event in enumerate(seen.history):
        top = pile[-1] if pile else None
        if event.kind in TAKE_KINDS:
            if pile:
                pile.pop()
        elif event.kind == "discard":
            assert event.card is not None  # a discard shows its card
            pile.append(event.card)
            if event.player == other:
                threw, passed = found.get(event.card.rank, (None, None))
                found[event.card.rank] = (threw or event.card, passed)
        elif event.player == other and top is not None:
            forced = (
                event.kind == "draw_stock"
                and index == 2
                and all(e.kind == "pass" for e in seen.history[:2])
            )
            if not forced:
                threw, passed = found.get(top.rank, (None, None))
                found[top.rank] = (threw, passed or top)
    return found


def _partials(deadwood: Hand, unseen: int) -> tuple[tuple[str, str], ...]:
    """Two unmatched cards one card short of a meld, and the unseen cards that complete them."""
    found = []
    cards = sorted(deadwood)
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            if a.rank == b.rank:
                need = (_RANK << (a.rank - 1)) & ~a.bit & ~b.bit
            elif a.suit == b.suit and b.rank - a.rank in (1, 2):
                low, high = min(a.rank, b.rank), max(a.rank, b.rank)
                ranks = [low + 1] if high - low == 2 else [low - 1, high + 1]
                need = sum(DECK[a.index - a.rank + r].bit for r in ranks if 1 <= r <= LANE_BITS)
            else:
                continue
            if need & unseen:
                found.append((f"{a} {b}", str(cards_from_mask(need & unseen).sorted())))
    return tuple(found)


def _open_runs(melds: tuple[Meld, ...], unseen: int) -> tuple[tuple[str, str], ...]:
    """Runs kept and the unseen cards that would extend them."""
    found = []
    for meld in melds:
        if meld.kind != "run":
            continue
        low, high = meld.cards[0], meld.cards[-1]
        ends = 0
        if low.rank > 1:
            ends |= DECK[low.index - 1].bit
        if high.rank < LANE_BITS:
            ends |= DECK[high.index + 1].bit
        if ends & unseen:
            found.append((str(meld), str(cards_from_mask(ends & unseen).sorted())))
    return tuple(found)


# --- the reasons -----------------------------------------------------------------------------


def why(one: Facts, other: Facts, points: float = 0.0, game: Reason | None = None) -> Reason:
    """The primary reason to play ``one`` rather than ``other``: the first of these that
    holds (module docstring for the terms). ``points``: how many more hand points ``one``
    scored in the coach's playouts (the last resort); ``game``: the ``game_first`` reason
    when the chance of winning the game prefers ``one`` and hand points ``other``."""
    if one.action.kind in ("lay_off",) or one.action == other.action:
        return {"code": "only_choice"}
    if game is not None:
        return game
    if one.action.kind in ("take_upcard", "pass", "draw_stock", "draw_discard"):
        return _why_draw(one, other, points)
    if one.ends == "big_gin" and other.ends != "big_gin":
        return {"code": "big_gin", "bonus": None}
    if one.ends == "gin" and other.ends not in ("gin", "big_gin"):
        return {"code": "gin", "bonus": None}
    if one.ends == "knock" and other.ends is None:
        return {"code": "knock", "deadwood": one.left, "limit": one.limit}
    if one.ends is None and other.ends == "knock":
        if one.gin_outs:
            return {"code": "gin_outs", "outs": one.gin_outs}
        return {"code": "avoids_undercut", "percent": other.undercut or 0}
    if other.breaks is not None and one.breaks is None:
        return {"code": "keeps_meld", "meld": str(other.breaks)}
    if one.ends is not None and other.ends is not None:
        # two ways to end the hand: the discard goes face down and nothing is drawn again, so
        # only what is left counts (not what the other player might take, nor the outs)
        if one.left < other.left:
            return {"code": "lower_deadwood", "points": one.left, "other": other.left}
        return {"code": "plays_better", "points": round(points, 1)}
    feeds = other.feeds_meld or other.feeds_near
    if feeds and not (one.feeds_meld or one.feeds_near) and other.card is not None:
        return {"code": "avoids_feeding", "card": str(other.card), "took": feeds}
    if one.card is not None and (one.threw or one.passed) and not (other.threw or other.passed):
        if one.threw:
            return _threw(one.card, one.threw)
        return {"code": "opponent_passed", "card": str(one.card), "passed": str(one.passed)}
    if one.left < other.left:
        return {"code": "lower_deadwood", "points": one.left, "other": other.left}
    lost = [p for p in one.partials if p not in other.partials]
    if lost:
        return {"code": "keeps_partial", "cards": lost[0][0], "outs": lost[0][1]}
    runs = [r for r in one.open_runs if r not in other.open_runs]
    if runs:
        return {"code": "keeps_run_open", "meld": runs[0][0], "outs": runs[0][1]}
    if one.outs > other.outs:
        return {"code": "more_outs", "outs": one.outs, "other": other.outs}
    if one.card is not None and other.card is not None and one.card.value > other.card.value:
        return {"code": "high_card", "card": str(one.card), "points": one.card.value}
    return {"code": "plays_better", "points": round(points, 1)}


def _threw(card: Card, threw: Card) -> Reason:
    """The other player threw a card of ``card``'s rank: ``card`` itself (taken back from the
    pile since), or another."""
    if threw == card:
        return {"code": "opponent_threw_it", "card": str(card)}
    return {"code": "opponent_threw", "card": str(card), "threw": str(threw)}


def _why_draw(one: Facts, other: Facts, points: float) -> Reason:
    if one.action.kind in TAKE_KINDS:
        assert one.card is not None  # a take names the top of the pile
        if one.ends is not None:
            return {"code": "knock_after", "card": str(one.card), "deadwood": one.left}
        if one.made is not None:
            code = "extends_meld" if one.extends else "makes_meld"
            return {"code": code, "card": str(one.card), "meld": str(one.made)}
        if one.useful:
            return {
                "code": "lowers_deadwood",
                "card": str(one.card),
                "before": one.before,
                "after": one.left,
            }
        return {"code": "plays_better", "points": round(points, 1)}
    if other.card is not None and not other.melds:
        return {"code": "no_meld", "card": str(other.card)}
    if other.card is not None and other.made is not None:
        return {"code": "reveals", "card": str(other.card)}
    return {"code": "plays_better", "points": round(points, 1)}


def reasons(fact: Facts, rules_bonus: Mapping[str, int | None]) -> list[Reason]:
    """Every reason true of one choice by itself (its primary reason aside)."""
    out: list[Reason] = []
    card = str(fact.card) if fact.card is not None else None
    kind = fact.action.kind
    if kind in TAKE_KINDS:
        if fact.made is not None:
            code = "extends_meld" if fact.extends else "makes_meld"
            out.append({"code": code, "card": card, "meld": str(fact.made)})
        if fact.ends is not None:
            out.append({"code": "knock_after", "card": card, "deadwood": fact.left})
        if fact.useful:
            out.append(
                {"code": "lowers_deadwood", "card": card, "before": fact.before, "after": fact.left}
            )
        out.append({"code": "reveals", "card": card})
        return out
    if kind in ("pass", "draw_stock"):
        if fact.card is not None and not fact.melds:
            out.append({"code": "no_meld", "card": card})
        out.append({"code": "stock_outs", "outs": fact.outs})
        return out
    if fact.ends == "big_gin":
        return [{"code": "big_gin", "bonus": rules_bonus["big_gin"]}]
    if kind == "lay_off":
        return out
    out.append({"code": "deadwood", "points": fact.left})
    if fact.ends == "gin":
        out.append({"code": "gin", "bonus": rules_bonus["gin"]})
    elif fact.ends == "knock":
        out.append({"code": "knock", "deadwood": fact.left, "limit": fact.limit})
        out.append({"code": "undercut_risk", "percent": fact.undercut or 0})
    if fact.breaks is not None:
        out.append({"code": "breaks_meld", "card": card, "meld": str(fact.breaks)})
    if kind == "discard":
        out.append({"code": "outs", "outs": fact.outs})
        out += [{"code": "keeps_partial", "cards": c, "outs": o} for c, o in fact.partials]
        out += [{"code": "keeps_run_open", "meld": m, "outs": o} for m, o in fact.open_runs]
        if fact.gin_outs:
            out.append({"code": "gin_outs", "outs": fact.gin_outs})
        if fact.feeds_meld:
            out.append({"code": "known_to_opponent", "card": card, "cards": fact.feeds_meld})
        elif fact.feeds_near:
            out.append({"code": "opponent_took", "card": card, "took": fact.feeds_near})
        if fact.threw is not None and fact.card is not None:
            out.append(_threw(fact.card, fact.threw))
        elif fact.passed is not None:
            out.append({"code": "opponent_passed", "card": card, "passed": str(fact.passed)})
        out.append({"code": "gives_meld", "percent": fact.gives or 0})
    return out


def plainest(fact: Facts, rules_bonus: Mapping[str, int | None]) -> Reason:
    """The plainest fact of a choice, when nothing tells it from another: what a take or a
    pass does with the card, the outs of a draw, the deadwood a throw leaves."""
    kind = fact.action.kind
    card = str(fact.card) if fact.card is not None else None
    if kind in TAKE_KINDS:
        if fact.made is not None:
            code = "extends_meld" if fact.extends else "makes_meld"
            return {"code": code, "card": card, "meld": str(fact.made)}
        return {"code": "no_meld", "card": card}
    if kind in ("pass", "draw_stock"):
        return {"code": "stock_outs", "outs": fact.outs}
    return next(iter(reasons(fact, rules_bonus)), {"code": "only_choice"})


def fill(reason: Reason, rules_bonus: Mapping[str, int | None]) -> Reason:
    """A reason with its bonus filled in from the rules (``gin``, ``big_gin``)."""
    if reason["code"] in ("gin", "big_gin") and reason.get("bonus") is None:
        return {**reason, "bonus": rules_bonus[reason["code"]]}
    return reason
