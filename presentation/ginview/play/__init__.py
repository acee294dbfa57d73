"""The play page: a whole game against the computer, on a card table, with a coach.

The reader is player 0 ("you"), the computer player 1. The browser keeps the game (a
:class:`~.session.Session`, as JSON) and sends it back with each move; the worker answers with
:func:`~.controller.respond`: the new session, the table drawn again, and the computer's moves
one by one, so the page can show each.

- :mod:`.session`: the session and its checked JSON, the game links;
- :mod:`.controller`: the moves, the computer's turns, the response;
- :mod:`.coach`: the coach's ranking, its verdicts, and why, in words;
- :mod:`.table`: the table (cards, piles, hands); :mod:`.views`: the moves, the coach, the end
  of a hand and of a game, the sheet, the review, the settings.
"""

from __future__ import annotations

from ..catalog import Catalog, Html, esc
from .controller import MOVE_KINDS, Response, answer, computer_turns, respond
from .session import BOT, START, YOU, Session, link, new_session, read_link
from .views import (
    action_label,
    hand_end_text,
    hand_help,
    settings_html,
    stats_html,
    texts_json,
    view_html,
)

__all__ = [
    "BOT",
    "MOVE_KINDS",
    "START",
    "YOU",
    "Response",
    "Session",
    "action_label",
    "answer",
    "hand_end_text",
    "link",
    "page_html",
    "read_link",
    "respond",
]


def page_html(cat: Catalog) -> Html:
    """The play page as the build writes it: the first visit's game (:data:`START`, the deal
    the page then plays) drawn with its controls disabled, and a note that playing needs
    JavaScript (the page's script removes it)."""
    session = new_session(**START, first=True)
    session, _ = computer_turns(session, cat)
    return Html(
        f'<div class="gin-play" data-gin="play" data-gin-start="{esc(link(session))}" '
        f'data-gin-texts="{esc(texts_json(cat))}">'
        f'<p class="gin-play-note">{esc(cat.text("play.needs_js"))}</p>'
        f"{settings_html(session, cat)}"
        f'<p class="gin-notice" hidden></p>'
        f'<div class="gin-play-view">{view_html(session, cat, live=False)}</div>'
        f"{hand_help(cat)}"
        f'<div class="gin-status gin-sr" role="log" aria-live="polite"></div>'
        f"{stats_html(cat)}</div>"
    )
