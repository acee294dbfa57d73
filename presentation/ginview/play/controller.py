"""The play page's moves: a stored session and the reader's move in, a :class:`Response` out.

:func:`answer` reads the session (:class:`~.session.Session`), plays the move, lets the computer
answer, and draws the result. The computer's moves come back one :class:`Step` each (the table
as it stood after that move, and the sentence that says it), so the page shows them one after
another; the reader's own move, when the computer answers it, is the first step.

Moves (``move`` in the ``play`` request of :mod:`ginview.api`), each a one-key object:

================= ===========================================================================
``new``           ``{"link": "seed=7&rules=standard&level=beginner"}``, or
                  ``{"seed", "rules", "level", "format", "coach"}`` (``first``: a first visit)
``show``          the session as it is (a reload)
``action``        an engine action of the reader's (``{"kind": "discard", "player": 0, ...}``)
``computer``      the computer plays its turn (the answer to the reader's move says when:
                  ``waiting``; the reader's own move is answered without waiting for it)
``hint``          show the coach's best move for the decision at hand
``ponder``        refine the coach's ranking while the reader thinks (nothing shown)
``coach``         true or false: the coach on or off
``knock``         true: the next card pressed is the knock's discard; a card (``"7H"``): choose
                  the melds to lay out with it; false: no knock after all
``lay_off``       ``{"card", "meld"}``: a card of the reader's onto a meld of the knocker's
``undo_lay_offs`` start the lay-offs again; ``lay_offs_done``: play them
``order``         the reader's cards in the order they dragged them to
``next``          the next hand
================= ===========================================================================

Every rule is the engine's: the page offers only what :func:`ginrummy.hand.legal_actions`
allows, and a move the engine refuses comes back with its coded reason in words
(``refused``), with nothing played.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ginrummy import Card
from ginrummy.advice import check_lay_off_plan
from ginrummy.bots import choose
from ginrummy.errors import GinRummyError
from ginrummy.hand import KNOCK_KINDS, Action, legal_actions
from ginrummy.match import next_hand, play

from ..catalog import Catalog, Html
from ..examples import ExampleError
from ..fields import bad as bad_field
from ..markup import error_text
from . import coach
from .session import BOT, START, YOU, Session, link, new_session, read_link
from .table import drawn_card, event_text
from .views import game_over_info, hand_end_text, step_view, view_html


@dataclass(frozen=True)
class Step:
    """One move shown on its own: the table after it, and what happened, in words."""

    html: Html
    say: str

    def to_json(self) -> dict[str, str]:
        return {"html": str(self.html), "say": self.say}


@dataclass(frozen=True)
class Response:
    """The answer to a move: the new session, the whole view, the steps to show before it,
    the sentences a screen reader hears (``announce``), a refused move's reason, the game's
    link, ``ended`` once the game ended with this move (for the page's statistics), and
    ``over`` while the game is over."""

    session: Session
    html: Html
    steps: tuple[Step, ...] = ()
    announce: tuple[str, ...] = ()
    refused: str | None = None
    link: str = ""
    ended: dict[str, Any] | None = None

    @property
    def over(self) -> bool:
        return self.session.game.finished

    @property
    def waiting(self) -> bool:
        """The computer is to play: the page asks for its turn (``computer``)."""
        hand = self.session.game.hand
        return not hand.finished and hand.turn == BOT

    def to_json(self) -> dict[str, Any]:
        return {
            "session": self.session.to_json(),
            "html": str(self.html),
            "steps": [step.to_json() for step in self.steps],
            "announce": list(self.announce),
            "refused": self.refused,
            "link": self.link,
            "ended": self.ended,
            "over": self.over,
            "waiting": self.waiting,
            "settled": bool(self.session.advice and self.session.advice.get("settled")),
        }


NEW_FIELDS = {"link", "coach", "first", *START}


def start(value: object) -> Session:
    """A new game from a link or from settings."""
    if not isinstance(value, dict) or set(value) - NEW_FIELDS:
        raise bad_field("new", "{link} or {seed, rules, level, format}, and coach", value)
    if "link" in value:
        settings = read_link(value["link"])
    else:
        settings = {**START, **{k: v for k, v in value.items() if k in START}}
    coach_on, first = _flag(value, "coach", True), _flag(value, "first", False)
    return new_session(
        settings["seed"],
        settings["rules"],
        settings["level"],
        coach_on,
        settings["format"],
        first,
    )


def answer(data: object, move: object, cat: Catalog) -> Response:
    """Play ``move`` in the stored session ``data`` (none for ``new``) and draw the result."""
    if not isinstance(move, dict) or len(move) != 1 or next(iter(move)) not in MOVE_KINDS:
        raise bad_field("move", "one of " + ", ".join(MOVE_KINDS), move)
    kind, value = next(iter(move.items()))
    if kind == "new":
        session = start(value)
        before = None
    else:
        session = Session.from_json(data)
        before = session
    refused = None
    if kind not in ("new", "show"):
        try:
            session = MOVES[kind](session, value)
        except GinRummyError as error:
            refused = error_text(error.to_json(), cat)
    shown: list[tuple[Session, str]] = []
    if before is not None and session.game.hand.history != before.game.hand.history:
        shown += _said(before, session, cat)
    computer: list[tuple[Session, str]] = []
    if kind not in READER_MOVES:  # the reader's move is answered first, the computer's after
        session, computer = computer_turns(session, cat)
    steps: tuple[Step, ...] = ()
    if computer:
        steps = tuple(Step(step_view(s, cat), say) for s, say in shown + computer)
    announce = [say for _, say in shown + computer]
    game = session.game
    ended = None
    if game.hand.finished and (before is None or not before.game.hand.finished):
        announce.append(hand_end_text(game, cat))
        if game.finished:
            ended = game_over_info(session)
    if refused:
        announce.append(refused)
    return Response(
        session,
        view_html(session, cat, refused),
        steps,
        tuple(announce),
        refused,
        link(session),
        ended,
    )


def _said(before: Session, after: Session, cat: Catalog) -> list[tuple[Session, str]]:
    """The reader's own moves just played, in words (their draw names the card drawn)."""
    hand = after.game.hand
    new = hand.history[len(before.game.hand.history) :]
    drawn = drawn_card(hand)
    if new and after.game.number == before.game.number:
        return [(after, " ".join(event_text(e, hand, cat, drawn) for e in new))]
    return []


def computer_turns(session: Session, cat: Catalog) -> tuple[Session, list[tuple[Session, str]]]:
    """The computer plays until it is the reader's turn or the hand is over: the session
    after each of its moves, and the move in words."""
    shown = []
    while not session.game.hand.finished and session.game.hand.turn == BOT:
        game = session.game
        action = choose(game, session.level, seed=game.seed)
        session = session.moved(play(game, action))
        hand = session.game.hand
        shown.append((session, event_text(hand.history[-1], hand, cat)))
    return session, shown


# --- the moves -----------------------------------------------------------------------------


def _show(session: Session, value: object) -> Session:
    return session


def _flag(value: dict[str, Any], name: str, default: bool) -> bool:
    """A new game's ``coach`` or ``first``: true or false, nothing else (not "true" nor 1)."""
    flag = value.get(name, default)
    if not isinstance(flag, bool):
        raise bad_field(name, "true or false", flag)
    return flag


def _coach(session: Session, value: object) -> Session:
    if not isinstance(value, bool):
        raise bad_field("coach", "true (on) or false (off)", value)
    return session.replace(coach=value, hint=False)


def _your_turn(session: Session) -> None:
    hand = session.game.hand
    if hand.finished or hand.turn != YOU:
        raise ExampleError("not_your_turn", "the computer is to play", player=YOU, turn=hand.turn)


def _hint(session: Session, value: object) -> Session:
    _your_turn(session)
    if session.game.hand.phase == "lay_off":
        return session.replace(hint=True)
    return session.replace(advice=coach.ranking(session), hint=True)


def _ponder(session: Session, value: object) -> Session:
    """The coach's ranking of the reader's decision, refined by a few worlds (or begun)."""
    hand = session.game.hand
    if not session.coach or hand.finished or hand.turn != YOU or hand.phase == "lay_off":
        return session
    if len(legal_actions(hand)) < 2:
        return session
    return session.replace(advice=coach.ranking(session, coach.PONDER))


def _computer(session: Session, value: object) -> Session:
    return session  # the computer's turn is played by answer(), as after every other move


def _action(session: Session, value: object) -> Session:
    action = Action.from_json(value)
    if action.player != YOU:
        raise ExampleError(
            "not_your_turn", "the reader plays player 0", player=action.player, turn=YOU
        )
    game = session.game
    judged = None
    plain = Action(action.kind, action.player, action.card)  # a knock's layout aside
    if coach.judges(session, action) and plain in legal_actions(game.hand):
        judged, advice = coach.judge(session, action)
        session = session.replace(advice=advice)
    played = play(game, action)  # raises the rules' reason for an illegal move
    log = session.log + ((judged,) if judged is not None else ())
    return session.moved(played).replace(log=log, advice=None)


def _knock(session: Session, value: object) -> Session:
    """Knock mode: on (the next card pressed is the discard), a card (its layouts to choose
    from), or off."""
    _your_turn(session)
    hand = session.game.hand
    ends = {a.card for a in legal_actions(hand) if a.kind in KNOCK_KINDS}
    if value is False:
        return session.replace(knocking=False, knock_card=None)
    if not ends:
        raise ExampleError("wrong_phase", "no knock now", kind="knock", phase=hand.phase)
    if value is True:
        return session.replace(knocking=True, knock_card=None)
    if isinstance(value, str):
        card = Card.parse(value)
        if card not in ends:
            raise ExampleError("cannot_knock_with", f"{card} does not end the hand", card=str(card))
        return session.replace(knocking=True, knock_card=card)
    raise bad_field("knock", "true, false or a card", value)


def _lay_off_turn(session: Session) -> None:
    hand = session.game.hand
    if hand.phase != "lay_off" or hand.turn != YOU:
        raise ExampleError("wrong_phase", "no lay-offs now", kind="lay_off", phase=hand.phase)


def _lay_off(session: Session, value: object) -> Session:
    _lay_off_turn(session)
    if (
        not isinstance(value, dict)
        or set(value) != {"card", "meld"}
        or not isinstance(value["card"], str)
        or type(value["meld"]) is not int
    ):
        raise bad_field("lay_off", "a card and a meld's number", value)
    plan = (*session.plan, (Card.parse(value["card"]), value["meld"]))
    check_lay_off_plan(session.game.hand, plan)  # the rules' reason when it does not fit
    return session.replace(plan=plan, hint=False)


def _undo_lay_offs(session: Session, value: object) -> Session:
    _lay_off_turn(session)
    return session.replace(plan=(), hint=False)


def _lay_offs_done(session: Session, value: object) -> Session:
    _lay_off_turn(session)
    action = Action("lay_off", YOU, lay_offs=session.plan)
    return session.moved(play(session.game, action)).replace(plan=())


def _order(session: Session, value: object) -> Session:
    """The reader's cards in their own order: each of their cards once."""
    cards = session.game.hand.hands[YOU]
    if not isinstance(value, list) or len(value) != len(cards):
        raise bad_field("order", "the cards of your hand, each once", value)
    order = tuple(Card.parse(text) for text in value if isinstance(text, str))
    if len(order) != len(value) or set(order) != set(cards):
        raise bad_field("order", "the cards of your hand, each once", value)
    return session.replace(order=order)


def _next(session: Session, value: object) -> Session:
    return session.moved(next_hand(session.game)).replace(advice=None, order=(), plan=())


MOVES: dict[str, Callable[[Session, object], Session]] = {
    "show": _show,
    "computer": _computer,
    "action": _action,
    "hint": _hint,
    "ponder": _ponder,
    "coach": _coach,
    "knock": _knock,
    "lay_off": _lay_off,
    "undo_lay_offs": _undo_lay_offs,
    "lay_offs_done": _lay_offs_done,
    "order": _order,
    "next": _next,
}
MOVE_KINDS = ("new", *MOVES)
READER_MOVES = ("action", "lay_offs_done")
"""The reader's moves of the game: answered before the computer plays its turn."""


def respond(data: object, move: object, cat: Catalog) -> dict[str, Any]:
    """:func:`answer` as JSON (the ``play`` op of :mod:`ginview.api`)."""
    return answer(data, move, cat).to_json()
