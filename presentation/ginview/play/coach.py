"""The coach on the play page: the ranking of the decision at hand, its verdict on a move, and
the one place that puts the engine's reasons into words.

Every judgement is the engine's (:mod:`ginrummy.advice`): the ranking (by the chance of winning
the game, with the score weighed), the one reason that tells a choice apart (``reason``), why
the best beats another (``against``), and the mistake rule (a move is a mistake only beyond a
margin its uncertainty supports). The page keeps the ranking in the session as its JSON, with
``at`` (the decision it belongs to), refines it while the reader thinks (``ponder``, a few
worlds a request, until it is ``settled``), and judges the reader's move by it.

Each reason is worded by :func:`why_text` as a clause: before the move (``play.reason.<code>``,
the codes of :data:`ginrummy.reasons.REASON_CODES`), "the coach would play X: <clause>"; after
it (``play.missed.<code>``, :data:`ginrummy.reasons.AGAINST_CODES`), "X was better than Y:
<clause>", as what the better move would have done.
"""

from __future__ import annotations

from typing import Any

from ginrummy.advice import advise
from ginrummy.errors import GinRummyError
from ginrummy.hand import Action, legal_actions
from ginrummy.match import Game
from ginrummy.vocab import PHASES

from ..catalog import Catalog
from ..markup import card_text, faces, listed
from .session import YOU, Judged, Session

PONDER = 16
"""The worlds one ``ponder`` request adds to the ranking: about 100 ms of the worker's time on
the test machine (bench/play_page.py), so a move the reader makes meanwhile waits little."""
ALTERNATIVES = 2
"""The most other choices a hint names besides the best."""


def decision(game: Game) -> list[int]:
    """Where the game stands: the decision a ranking belongs to (hand, moves so far, phase)."""
    return [game.number, len(game.hand.history), PHASES.index(game.hand.phase)]


def current(session: Session) -> dict[str, Any] | None:
    """The session's ranking, if it is of the decision at hand."""
    advice = session.advice
    return advice if advice is not None and advice["at"] == decision(session.game) else None


def ranking(session: Session, more: int | None = None) -> dict[str, Any]:
    """The coach's ranking of the decision at hand: the session's own as it is, or refined by
    ``more`` worlds; a first one (a hint's budget) when the session has none."""
    kept = current(session)
    if kept is not None and (more is None or kept.get("settled")):
        return kept
    game = session.game
    if kept is not None:
        try:
            advice = advise(game, samples=more, previous=kept)
        except GinRummyError:  # a ranking the engine cannot refine: worked out anew
            advice = advise(game)
    else:
        advice = advise(game, samples=more)
    return {"at": decision(game), **advice.to_json()}


def judges(session: Session, action: Action) -> bool:
    """Whether the coach judges this move of the reader's: when it is on, and there is a
    choice (lay-offs are reviewed at the end of the hand instead)."""
    hand = session.game.hand
    return session.coach and action.kind != "lay_off" and len(legal_actions(hand)) > 1


def judge(session: Session, action: Action) -> tuple[Judged, dict[str, Any]]:
    """The verdict on ``action`` (before it is played) by the session's ranking (one worked
    out now if it has none), and that ranking.

    The better move a mistake names is the one a hint recommends (:func:`hint_order`), so the
    coach never recommends one move and then says another was better. Where that is not the
    engine's best (the two are within doubt of each other), the move it recommends is never a
    mistake, and a mistake is explained by how much more often the recommended move won."""
    kept = ranking(session)
    game = session.game
    advice = advise(game, samples=0, previous=kept)
    assessment = advice.assess(action)
    chosen = advice.choice(action)
    shown = advice.choice(hint_order(kept)[0]["action"])
    best, cost, why = assessment.best, assessment.cost_points, assessment.reason
    mistake = assessment.mistake and chosen.action != shown.action
    if mistake and shown.action != advice.best.action:
        best = shown.action
        cost = advice.cost_against(chosen.action, shown.action)
        why = {"code": "wins_more", "percent": round(100 * (shown.win - chosen.win), 1)}
    top = game.hand.discards[-1] if game.hand.discards else None
    judged = Judged(
        game.number, action, best, round(cost, 2), why if mistake else None, top, mistake
    )
    return judged, kept


def hint_order(advice: dict[str, Any]) -> list[dict[str, Any]]:
    """The choices as a hint and its details show them: by the chance of winning the game as
    the table prints it (whole percents), then by hand points, so that a hint never
    recommends a move its own details rate lower. The coach keeps its usual move unless
    another beats it beyond doubt, and plays and judges by that (:mod:`ginrummy.advice`): a
    move above it here is ahead within doubt, never a mistake to play or to skip."""
    return sorted(advice["choices"], key=lambda c: (-round(100 * c["win"]), -c["points"]))


def best_choices(advice: dict[str, Any]) -> list[dict[str, Any]]:
    """The move a hint recommends and at most :data:`ALTERNATIVES` others (a knock with
    another layout of the same discard is the same choice)."""
    return hint_order(advice)[: ALTERNATIVES + 1]


# --- in words ----------------------------------------------------------------------------------

CARD = ("card", "took", "threw", "passed")
CARDS = ("meld", "cards")


def why_text(reason: dict[str, Any], cat: Catalog, after: bool = False) -> str:
    """A reason of the coach's as a clause in the catalog's language: ``play.reason.<code>``,
    or ``play.missed.<code>`` ``after`` the reader's move (what the better move would have
    done); cards as a reader writes them, a count of cards (``outs``) with its plural form,
    points with a decimal comma where the language has one."""
    code = reason["code"]
    params: dict[str, Any] = {}
    for name, value in reason.items():
        if name == "code":
            continue
        if isinstance(value, str) and name == "outs":  # the cards that would complete a meld
            params[name] = listed(faces(value).split(), cat.text("list.or"))
        elif isinstance(value, str) and (name in CARD or name in CARDS):
            one = len(value.split()) == 1 and name in CARD
            params[name] = card_text(value) if one else faces(value)
        else:
            params[name] = value  # a decimal is written by the catalog (Catalog.number)
    if isinstance(reason.get("outs"), int):
        params["count"] = reason["outs"]
    if code == "game_first":
        code = "game_first_you" if reason.get("player") == YOU else "game_first_computer"
    key = f"play.missed.{code}" if after else f"play.reason.{code}"
    return cat.text(key, **params)


def signed(value: float, cat: Catalog) -> str:
    """A difference of points with its sign ("+1,5", "−2"; "0" unsigned)."""
    number = cat.number(abs(value))
    return number if number == "0" else ("+" if value > 0 else "−") + number
