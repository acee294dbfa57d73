"""The coach on the play page: the ranking of the decision at hand, the verdict on a move, and
the one place that reads the engine's reasons (:mod:`ginrummy.advice`) and says why in words.

A ranking comes from :func:`ginrummy.advice.advise` and is kept in the session as JSON (with
``at``, the decision it belongs to). The site picks nothing by its own judgement of the game:
the best move is the engine's first choice, and each sentence says a reason the engine gave
(a code with parameters) or a difference between two of its numbers.

The reasons the page words (``play.why.<code>``; :func:`why_text`):

- ``gin`` ``bonus``, ``big_gin`` ``bonus``: the move goes gin, or is big gin;
- ``knock`` ``deadwood``, ``limit``, ``percent``: the move knocks (``percent``: the deals the
  coach played in which the knock was undercut);
- ``undercut_risk`` ``percent``: the knock the reader chose was undercut that often;
- ``joins_meld`` ``card``: the card taken makes a meld with the reader's cards;
- ``no_meld`` ``card``: the card on the pile makes no meld, and taking it would show it;
- ``breaks_meld`` ``card``, ``meld``: the card thrown breaks up a meld of the reader's;
- ``least_deadwood`` ``points``: the move leaves less deadwood than the others;
- ``safer`` ``percent``, ``other``: the card thrown gives the computer a meld in fewer of the
  coach's deals than the other card;
- ``opponent_passed`` ``card``: the computer passed up or threw a card of that rank;
- ``two_way_run`` ``cards``: two cards in sequence kept with both ends unseen;
- ``feeds`` ``card``: the card thrown fits cards the computer is known to hold;
- ``expected`` ``points``: worth that many points more on average (when nothing else tells).
"""

from __future__ import annotations

from typing import Any

from ginrummy.advice import advise
from ginrummy.hand import PHASES, Action, legal_actions
from ginrummy.match import Game

from ..catalog import Catalog
from ..markup import card_text, faces
from .session import Judged, Session

SAMPLES = 16
"""The worlds the coach plays out per ranking in the page. In the browser's worker on the test
machine (bench/play_worker.py) a ranking's p95 is about 110 ms with 8, 230 ms with 32: 16
leaves room for slower phones. The page asks for it while the reader thinks (``ponder``)."""
COSTLY = 1.0
"""A move that loses at least this many expected points is pointed out as a mistake."""
ALTERNATIVES = 2
"""The most other choices a hint names besides the best."""
CLEARLY = 10
"""Percentage points by which one card must be safer than another to be called safer."""


def decision(game: Game) -> list[int]:
    """Where the game stands: the decision a ranking belongs to (hand, moves so far, phase)."""
    return [game.number, len(game.hand.history), PHASES.index(game.hand.phase)]


def ranking(session: Session) -> dict[str, Any]:
    """The coach's ranking of the decision at hand (the session's own, when it has it)."""
    at = decision(session.game)
    if session.advice is not None and session.advice["at"] == at:
        return session.advice
    hand = session.game.hand
    return {"at": at, **advise(hand, SAMPLES, seed=session.game.seed).to_json()}


def judges(session: Session, action: Action) -> bool:
    """Whether the coach judges this move of the reader's: when it is on, and there is a
    choice (lay-offs are reviewed at the end of the hand instead)."""
    hand = session.game.hand
    return session.coach and action.kind != "lay_off" and len(legal_actions(hand)) > 1


def judge(advice: dict[str, Any], action: Action, game: Game) -> Judged | None:
    """The verdict on ``action`` (in ``game``, before it is played) by this ranking (None:
    not one of its choices)."""
    chosen = next((c for c in advice["choices"] if _same(c["action"], action)), None)
    if chosen is None:
        return None
    best = advice["choices"][0]
    cost = round(best["points"] - chosen["points"], 2)
    why = why_better(best, chosen) if cost >= COSTLY else None
    top = game.hand.discards[-1] if game.hand.discards else None
    return Judged(game.number, action, Action.from_json(best["action"]), cost, why, top)


def _same(action_json: dict[str, Any], action: Action) -> bool:
    """The same decision (a knock's layout aside: the coach ranks the knock itself)."""
    one, other = Action.from_json(action_json).to_json(), action.to_json()
    return {**one, "melds": None} == {**other, "melds": None}


def best_choices(advice: dict[str, Any]) -> list[dict[str, Any]]:
    """The best choice and at most :data:`ALTERNATIVES` others, knocks with another layout of
    the same discard left out."""
    shown: list[dict[str, Any]] = []
    for choice in advice["choices"]:
        if not any(_same(c["action"], Action.from_json(choice["action"])) for c in shown):
            shown.append(choice)
        if len(shown) > ALTERNATIVES:
            break
    return shown


# --- why, from the engine's reasons --------------------------------------------------------


def _reasons(choice: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["code"]: r for r in choice["reasons"]}


def _deadwood(choice: dict[str, Any]) -> float | None:
    found = _reasons(choice).get("deadwood")
    return None if found is None else found.get("points")


def _gives(choice: dict[str, Any]) -> int | None:
    found = _reasons(choice).get("gives_meld")
    return None if found is None else found.get("percent")


def _ending(choice: dict[str, Any]) -> dict[str, Any] | None:
    """The reason a move that ends the hand gives: gin, big gin, or a knock with its risk."""
    reasons = _reasons(choice)
    for code in ("big_gin", "gin"):
        if code in reasons:
            return {"code": code, "bonus": reasons[code]["bonus"]}
    if "knock" in reasons:
        risk = reasons.get("undercut_risk", {}).get("percent", 0)
        return {
            "code": "knock",
            "deadwood": reasons["knock"]["deadwood"],
            "limit": reasons["knock"]["limit"],
            "percent": risk,
        }
    return None


def _card_of(choice: dict[str, Any]) -> str | None:
    return choice["action"].get("card")


def why_best(choice: dict[str, Any], others: list[dict[str, Any]]) -> dict[str, Any]:
    """The reason ``choice`` beats the ``others`` (the next choices of the same ranking)."""
    ending = _ending(choice)
    if ending is not None:
        return ending
    kind = choice["action"]["kind"]
    reasons = _reasons(choice)
    if kind in ("take_upcard", "draw_discard") and "joins_meld" in reasons:
        return {"code": "joins_meld", "card": reasons["joins_meld"]["card"]}
    if kind in ("pass", "draw_stock"):
        taking = next(
            (o for o in others if o["action"]["kind"] in ("take_upcard", "draw_discard")), None
        )
        if (
            taking is not None
            and "joins_meld" not in _reasons(taking)
            and "reveals" in _reasons(taking)
        ):
            return {"code": "no_meld", "card": _reasons(taking)["reveals"]["card"]}
    if kind == "discard" and others:
        return _why_discard(choice, others)
    return _expected(choice, others[0] if others else None)


def _why_discard(choice: dict[str, Any], others: list[dict[str, Any]]) -> dict[str, Any]:
    """Why throwing this card beats throwing the next card (``others``' first discard): a
    reason one has and the other has not, or a difference between their numbers."""
    reasons = _reasons(choice)
    partner = next((o for o in others if o["action"]["kind"] == "discard"), others[0])
    theirs = _reasons(partner)
    if "breaks_meld" in theirs and "breaks_meld" not in reasons:
        broken = theirs["breaks_meld"]
        return {"code": "breaks_meld", "card": broken["card"], "meld": broken["meld"]}
    mine, their_points = _deadwood(choice), _deadwood(partner)
    if mine is not None and their_points is not None and mine < their_points:
        return {"code": "least_deadwood", "points": mine}
    if "opponent_passed" in reasons and "opponent_passed" not in theirs:
        return {"code": "opponent_passed", "card": reasons["opponent_passed"]["card"]}
    gives, other_gives = _gives(choice), _gives(partner)
    if gives is not None and other_gives is not None and other_gives - gives >= CLEARLY:
        return {"code": "safer", "percent": gives, "other": other_gives, "card": _card_of(partner)}
    runs = reasons.get("two_way_run")
    if runs is not None and theirs.get("two_way_run", {}).get("cards") != runs["cards"]:
        return {"code": "two_way_run", "cards": runs["cards"]}
    return _expected(choice, partner)


def _expected(choice: dict[str, Any], other: dict[str, Any] | None) -> dict[str, Any]:
    difference = choice["points"] - other["points"] if other is not None else 0.0
    return {"code": "expected", "points": round(difference, 1)}


def why_better(best: dict[str, Any], chosen: dict[str, Any]) -> dict[str, Any]:
    """The reason ``best`` was better than the move the reader chose."""
    chosen_reasons = _reasons(chosen)
    if _ending(best) is not None and _ending(chosen) is None:
        return _ending(best)  # type: ignore[return-value]
    if "knock" in chosen_reasons and _ending(best) is None:
        risk = chosen_reasons.get("undercut_risk", {}).get("percent", 0)
        if risk:
            return {"code": "undercut_risk", "percent": risk}
    if "breaks_meld" in chosen_reasons and "breaks_meld" not in _reasons(best):
        broken = chosen_reasons["breaks_meld"]
        return {"code": "breaks_meld", "card": broken["card"], "meld": broken["meld"]}
    if "known_to_opponent" in chosen_reasons:
        return {"code": "feeds", "card": chosen_reasons["known_to_opponent"]["card"]}
    return why_best(best, [chosen])


# --- in words --------------------------------------------------------------------------------

CARD_PARAMS = ("card",)
CARDS_PARAMS = ("meld", "cards")


def why_text(reason: dict[str, Any], cat: Catalog) -> str:
    """A reason as a clause in the catalog's language (``play.why.<code>``)."""
    params: dict[str, Any] = {}
    for name, value in reason.items():
        if name == "code":
            continue
        if name in CARD_PARAMS and isinstance(value, str):
            params[name] = card_text(value)
        elif name in CARDS_PARAMS and isinstance(value, str):
            params[name] = faces(value)
        elif isinstance(value, float):
            params[name] = decimal(value, cat)
        else:
            params[name] = value
    return cat.text(f"play.why.{reason['code']}", **params)


def decimal(value: float, cat: Catalog) -> str:
    return f"{value:.1f}".replace(".", cat.text("play.decimal_point"))


def signed(value: float, cat: Catalog) -> str:
    return ("+" if value > 0 else "−" if value < 0 else "") + decimal(abs(value), cat)
