"""The play page: a whole game against the computer, with a coach.

The reader is player 0 ("you"), the computer player 1. A **session** is everything the page
keeps (in the browser's storage, as JSON) and sends back with each move; this module checks it,
plays the move, lets the computer answer, and draws the page again:

``{"v": 1, "game": <ginrummy.match game>, "level": "strong", "coach": true, "log": [...],
"plan": [...], "selected": null, "advice": null}``

- ``log``: the reader's decisions the coach judged (``hand``, ``action``, ``best``, ``cost``),
  for the mistakes and the review at the end;
- ``plan``, ``selected``: the lay-offs the reader has made so far as defender, and the card
  they chose to lay off next;
- ``advice``: the coach's ranking of the decision at hand, once asked for (a hint), so that the
  move played next is judged by the same ranking.

Moves (``move`` in the ``play`` request of :mod:`ginview.api`), each a one-key object:

========== ===================================================================================
``new``    ``{"link": "seed=7&rules=standard&level=strong"}`` or ``{"seed", "rules", "level"}``
``show``   the session as it is (a reload)
``action`` an engine action of the reader's (``{"kind": "discard", "player": 0, "card": "7H"}``)
``hint``   the coach's ranked choices for the decision at hand
``coach``  true or false: the coach on or off
``select`` a card to lay off (the reader is the defender after a knock)
``lay_off`` the meld (its index) the selected card goes onto, checked at once
``undo_lay_offs`` / ``lay_offs_done``: start the lay-offs again / play them
``next``   the next hand
========== ===================================================================================

The answer (:func:`respond`) is the new ``session``, the ``html`` of the view, the
``announce`` sentences (the computer's moves, each once, for the live region), the ``refused``
reason of a move the rules do not allow, and the ``link`` that replays this game's deals.
Every rule is the engine's: the page only offers what :func:`ginrummy.hand.legal_actions`
allows, and a move it refuses comes back with its coded reason, in words.
"""

from __future__ import annotations

import json

from ginrummy import RULESETS
from ginrummy.advice import advise, check_lay_off_plan, lay_off_review
from ginrummy.bots import LEVELS, choose
from ginrummy.cards import parse_cards
from ginrummy.errors import GinRummyError
from ginrummy.hand import Action, legal_actions
from ginrummy.match import FORMATS, MAX_SEED, game_from_json, new_game, next_hand, play
from ginrummy.melds import best_melds
from ginrummy.public import view
from ginrummy.scoring import optimal_layouts

from .catalog import Catalog, Html, esc
from .examples import ExampleError, sheet_html
from .fields import bad as bad_field
from .markup import (
    card_html,
    card_name,
    card_text,
    cards_html,
    error_text,
    face,
    faces,
    melds_html,
    step_html,
    steps_html,
)

YOU, BOT = 0, 1
VERSION = 1
SAMPLES = 16
"""The worlds the coach plays out per ranking in the page. In the browser's worker on the test
machine (bench/play_worker.py) a ranking's p95 is about 110 ms with 8, 230 ms with 32 (the most
within the 300 ms goal): 16 leaves room for slower phones."""
COSTLY = 1.0
"""A move that loses at least this many expected points is pointed out as a mistake."""
START = {"seed": 1, "rules": "standard", "level": "strong", "format": "standard"}
"""The game the page shows before its script runs (and the defaults of a new game)."""
MOVE_KINDS = (
    "new",
    "show",
    "action",
    "hint",
    "coach",
    "select",
    "lay_off",
    "undo_lay_offs",
    "lay_offs_done",
    "next",
)


def bad(message: str, **params) -> ExampleError:
    return ExampleError("bad_session", message, **params)


# --- sessions ---------------------------------------------------------------------------------


def new_session(
    seed: int, rules: str, level: str, coach: bool = True, format: str = "standard"
) -> dict:
    """A new game against ``level`` with the deals of ``seed``, scored as one game or as
    Hollywood (``format``); the computer has not played yet: :func:`respond` lets it."""
    if not isinstance(rules, str) or rules not in RULESETS:
        raise ExampleError(
            "unknown_rules",
            f"no rules {str(rules)[:40]!r}",
            rules=str(rules)[:40],
            presets=list(RULESETS),
        )
    if not isinstance(level, str) or level not in LEVELS:
        raise ExampleError("unknown_level", f"no level {str(level)[:40]!r}", level=str(level)[:40])
    game = new_game(rules, format=format, seed=seed)
    session = {
        "v": VERSION,
        "game": game.to_json(),
        "level": level,
        "coach": bool(coach),
        "log": [],
        "plan": [],
        "selected": None,
        "advice": None,
    }
    return session


def read_link(text) -> dict:
    """``seed=7&rules=standard&level=strong`` (a page's URL fragment, ``&format=hollywood``
    for Hollywood scoring) as new-game settings."""
    if not isinstance(text, str) or len(text) > 200:
        raise ExampleError("bad_link", "not a game link", part=str(text)[:40])
    parts, given = dict(START), set()
    for part in text.lstrip("#").split("&") if text.lstrip("#") else []:
        name, sep, value = part.partition("=")
        if not sep or name not in START or name in given:  # a part twice: which one is meant?
            raise ExampleError(
                "bad_link", f"not a part of a game link: {part[:40]!r}", part=part[:40]
            )
        given.add(name)
        parts[name] = value
    seed = parts["seed"]
    if isinstance(seed, str) and not (seed.isdigit() and len(seed) <= 16 and int(seed) <= MAX_SEED):
        raise ExampleError("bad_link", f"not a seed: {seed[:40]!r}", part=f"seed={seed[:40]}")
    return {**parts, "seed": int(seed)}


def link(session: dict) -> str:
    """The game's link (without the default format: a link of a single game stays short)."""
    game = session["game"]
    scoring = "" if game["format"] == START["format"] else f"&format={game['format']}"
    return f"seed={game['seed']}&rules={game['rules']['name']}&level={session['level']}{scoring}"


MAX_LOG = 5000
"""The most decisions a stored game may have judged (a long game has a few hundred)."""


def read_session(data):
    """A stored session, checked field by field against its game (a spoiled one raises
    ``bad_session`` naming the field): the session and its game."""
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise bad("not a session of this version", field="v")
    expected = {"v", "game", "level", "coach", "log", "plan", "selected", "advice"}
    if set(data) != expected:
        raise bad("a session has other fields", field=sorted(set(data) ^ expected)[0])
    try:
        game = game_from_json(data["game"])
    except GinRummyError as error:
        raise bad(f"the game does not hold together: {error}", field="game") from None
    for name, check in (
        ("level", lambda v: v in LEVELS),
        ("coach", lambda v: isinstance(v, bool)),
        ("log", _log_ok),
        ("plan", lambda v: _plan_ok(v, game)),
        ("selected", lambda v: _selected_ok(v, game)),
        ("advice", _advice_ok),
    ):
        try:
            ok = check(data[name])
        except (GinRummyError, KeyError, TypeError, ValueError, AttributeError, IndexError):
            ok = False
        if not ok:
            raise bad(f"the session's {name} is spoiled", field=name)
    return dict(data), game


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _log_ok(log) -> bool:
    return (
        isinstance(log, list)
        and len(log) <= MAX_LOG
        and all(
            isinstance(e, dict)
            and set(e) == {"hand", "action", "best", "cost"}
            and isinstance(e["hand"], int)
            and _number(e["cost"])
            and Action.from_json(e["action"])
            and Action.from_json(e["best"])
            for e in log
        )
    )


def _plan_ok(plan, game) -> bool:
    if not isinstance(plan, list):
        return False
    if not plan:
        return True
    hand = game.hand
    check_lay_off_plan(hand, [(p["card"], p["meld"]) for p in plan])  # raises when wrong
    return hand.turn == YOU


def _selected_ok(card, game) -> bool:
    return card is None or (
        isinstance(card, str)
        and game.hand.phase == "lay_off"
        and card in str(game.hand.hands[YOU]).split()
    )


def _advice_ok(advice) -> bool:
    if advice is None:
        return True
    return (
        isinstance(advice, dict)
        and isinstance(advice["at"], list)
        and isinstance(advice["samples"], int)
        and isinstance(advice["choices"], list)
        and all(
            Action.from_json(c["action"])
            and _number(c["points"])
            and _number(c["reasons"][0]["win"])
            and _number(c["reasons"][0]["lose"])
            for c in advice["choices"]
        )
    )


def decision(game) -> list:
    """Where the game stands (hand number, moves so far): the decision advice belongs to."""
    return [game.number, len(game.hand.history), len(legal_actions(game.hand))]


# --- moves ----------------------------------------------------------------------------------


def respond(session, move, cat: Catalog) -> dict:
    """Play ``move`` in ``session`` (None: none yet) and draw the result."""
    if not isinstance(move, dict) or len(move) != 1 or next(iter(move)) not in MOVE_KINDS:
        raise bad_field("move", "one of " + ", ".join(MOVE_KINDS), move)
    kind, value = next(iter(move.items()))
    announce: list[str] = []
    refused = None
    if kind == "new":
        if not isinstance(value, dict) or set(value) - {"link", "coach", *START}:
            raise bad_field("new", "{link} or {seed, rules, level, format}, and coach", value)
        settings = read_link(value["link"]) if "link" in value else {**START, **value}
        session = new_session(
            settings["seed"],
            settings["rules"],
            settings["level"],
            _coach_flag(value.get("coach", True)),
            settings["format"],
        )
        game = game_from_json(session["game"])
        over = False
    else:
        session, game = read_session(session)
        over = game.hand.finished  # the end of a hand is said once, when it comes
        try:
            session, game = MOVES[kind](session, game, value, announce, cat)
        except GinRummyError as error:
            refused = error_text(error.to_json(), cat)
    session, game = computer_turns(session, game, announce, cat)
    if game.hand.finished and not over:
        announce.append(hand_end_text(game, cat))
    session["game"] = game.to_json()
    if refused:
        announce.append(refused)
    return {
        "session": session,
        "html": str(view_html(session, game, cat, refused=refused)),
        "announce": announce,
        "refused": refused,
        "link": link(session),
    }


def _coach_flag(value) -> bool:
    """The coach on (true) or off (false): nothing else, not "true" nor 1."""
    if not isinstance(value, bool):
        raise bad_field("coach", "true (on) or false (off)", value)
    return value


def _show(session, game, value, announce, cat):
    return session, game


def _coach(session, game, value, announce, cat):
    return {**session, "coach": _coach_flag(value)}, game


def _hint(session, game, value, announce, cat):
    return {**session, "advice": advice_for(session, game)}, game


def advice_for(session, game) -> dict:
    """The coach's ranking of the decision at hand (kept in the session once made)."""
    at = decision(game)
    if session["advice"] and session["advice"]["at"] == at:
        return session["advice"]
    return {"at": at, **advise(game.hand, SAMPLES, seed=game.seed).to_json()}


def _action(session, game, value, announce, cat):
    action = Action.from_json(value)
    if action.player != YOU:
        raise ExampleError(
            "not_your_turn", "the reader plays player 0", player=action.player, turn=game.hand.turn
        )
    judged = session["coach"] and len(legal_actions(game.hand)) > 1 and action.kind != "lay_off"
    advice = advice_for(session, game) if judged else None
    before, game = game, play(game, action)  # raises the rules' reason for an illegal move
    session = {**session, "advice": None}
    if action.kind == "draw_stock":
        announce.append(cat.text("play.you_drew", card=card_text(_drawn(before, game))))
    if advice:
        chosen = next((c for c in advice["choices"] if _same(c["action"], action)), None)
        if chosen is not None:
            best = advice["choices"][0]
            entry = {
                "hand": game.number,
                "action": action.to_json(),
                "best": best["action"],
                "cost": round(best["points"] - chosen["points"], 2),
            }
            session["log"] = session["log"] + [entry]
    return session, game


def _drawn(before, after) -> str:
    """The card the reader just drew from the stock."""
    new = set(str(after.hand.hands[YOU]).split()) - set(str(before.hand.hands[YOU]).split())
    return new.pop()


def _same(action_json: dict, action: Action) -> bool:
    """The same decision (a knock's layout aside: the coach ranks the knock itself)."""
    one, other = Action.from_json(action_json).to_json(), action.to_json()
    return {**one, "melds": None} == {**other, "melds": None}


def _lay_off_turn(game) -> None:
    if game.hand.phase != "lay_off" or game.hand.turn != YOU:
        raise ExampleError("wrong_phase", "no lay-offs now", kind="lay_off", phase=game.hand.phase)


def _select(session, game, value, announce, cat):
    _lay_off_turn(game)
    card = str(parse_cards(value, count=1)[0]) if isinstance(value, str) else None
    if card is None or card not in str(game.hand.hands[YOU]).split():
        raise ExampleError(
            "card_not_in_hand", "select one of your cards", card=str(value)[:40], player=YOU
        )
    return {**session, "selected": card}, game


def _lay_off(session, game, value, announce, cat):
    _lay_off_turn(game)
    if session["selected"] is None or not isinstance(value, int) or isinstance(value, bool):
        raise bad_field("lay_off", "a meld's number, once a card is chosen", value)
    plan = session["plan"] + [{"card": session["selected"], "meld": value}]
    check_lay_off_plan(game.hand, [(p["card"], p["meld"]) for p in plan])  # the rules' reason
    return {**session, "plan": plan, "selected": None}, game


def _undo_lay_offs(session, game, value, announce, cat):
    _lay_off_turn(game)
    return {**session, "plan": [], "selected": None}, game


def _lay_offs_done(session, game, value, announce, cat):
    _lay_off_turn(game)
    action = Action("lay_off", YOU, lay_offs=[(p["card"], p["meld"]) for p in session["plan"]])
    return {**session, "plan": [], "selected": None}, play(game, action)


def _next(session, game, value, announce, cat):
    return {**session, "advice": None}, next_hand(game)


MOVES = {
    "show": _show,
    "coach": _coach,
    "hint": _hint,
    "action": _action,
    "select": _select,
    "lay_off": _lay_off,
    "undo_lay_offs": _undo_lay_offs,
    "lay_offs_done": _lay_offs_done,
    "next": _next,
}


def computer_turns(session, game, announce: list, cat: Catalog):
    """The computer plays until it is the reader's turn or the hand is over; each move it makes
    is said once, as the reader saw it."""
    while not game.hand.finished and game.hand.turn == BOT:
        action = choose(game.hand, session["level"], seed=game.seed)
        game = play(game, action)
        announce.append(
            bot_move_text(game.hand.history[-1] if action.kind != "lay_off" else None, action, cat)
        )
    return session, game


def bot_move_text(event, action: Action, cat: Catalog) -> str:
    """A move of the computer's, as the reader saw it (a card drawn from the stock and a
    knock's discard stay hidden)."""
    card = event.card if event is not None else None
    return cat.text(f"play.bot.{action.kind}", **({"card": card_text(str(card))} if card else {}))


def hand_end_text(game, cat: Catalog) -> str:
    hand = game.hand
    if hand.result is None:
        return cat.text("hand.dead")
    result = hand.result.to_json()
    winner = hand.knocker if result["winner"] == "knocker" else 1 - hand.knocker
    return cat.text(f"play.hand_won.{winner}", points=result["points"])


# --- the view -------------------------------------------------------------------------------


def move_button(
    move: dict, label: str, cls: str = "", pressed: bool | None = None, disabled: bool = False
) -> str:
    data = esc(json.dumps(move, separators=(",", ":")))
    extra = f' aria-pressed="{"true" if pressed else "false"}"' if pressed is not None else ""
    return (
        f'<button type="button" class="gin-move{(" " + cls) if cls else ""}" '
        f'data-move="{data}"{extra}{" disabled" if disabled else ""}>{label}</button>'
    )


def card_move(
    card: str, move: dict, label_key: str, cat: Catalog, pressed=None, disabled=False
) -> str:
    """A card of the reader's hand as a button: its face for the eye, what it does for the ear."""
    label = Html(
        f'<span aria-hidden="true">{face(card)}</span><span class="gin-sr">'
        f"{esc(cat.text(label_key, card=card_name(card, cat)))}</span>"
    )
    suit = card[-1]
    return move_button(move, label, f"gin-card gin-suit-{suit}", pressed, disabled)


def action_label(action: dict, cat: Catalog) -> str:
    """What an action does, from the reader's side ("Discard 7♥"; a knock with the melds the
    reader chose: "Knock, discarding 7♥, with 2♠ 3♠ 4♠ · 9♣ 9♦ 9♥")."""
    params = {"card": card_text(action["card"])} if action.get("card") else {}
    if action.get("melds"):
        melds = " · ".join(faces(m) for m in action["melds"])
        return cat.text(f"play.move.{action['kind']}_melds", melds=melds, **params)
    return cat.text(f"play.move.{action['kind']}", **params)


def knock_choices(hand, action: Action) -> list[Action]:
    """A knock as the reader may play it: with each optimal layout of the cards kept when
    there are several (they may leave the other player different lay-offs), else as it is."""
    kept = [c for c in hand.hands[YOU] if c is not action.card]
    layouts = optimal_layouts(kept)
    if len(layouts) < 2:
        return [action]
    return [Action("knock", YOU, action.card, melds=layout) for layout in layouts]


def view_html(
    session: dict, game, cat: Catalog, refused: str | None = None, live: bool = True
) -> Html:
    """The whole play view: the table, the moves, the coach, the end of the hand, the sheet
    and, once the game is over, the review."""
    hand = game.hand
    parts = [table_html(game, cat, session, live), moves_html(session, game, cat, live, refused)]
    if session["coach"]:
        parts.append(coach_html(session, game, cat, live))
    if hand.finished:
        parts.append(end_html(session, game, cat))
    parts.append(sheet_section(game, cat))
    if game.finished:
        parts.append(review_html(session, cat))
    return Html("".join(parts))


def _section(title: str, body: str, cls: str) -> str:
    return f'<section class="{cls}"><h2 class="gin-play-heading">{esc(title)}</h2>{body}</section>'


def table_html(game, cat: Catalog, session: dict, live: bool) -> str:
    hand, t = game.hand, cat.text
    finished = hand.finished
    theirs = hand.hands[BOT]
    seen = view(hand, YOU)
    rows = [
        _row(
            t("play.computer_hand"),
            (
                cards_html(str(theirs), cat)
                if finished
                else Html(
                    esc(t("play.cards_count", count=seen.opponent_count))
                    + (
                        Html(" · " + esc(t("play.known")) + " ") + cards_html(str(seen.known), cat)
                        if len(seen.known)
                        else ""
                    )
                )
            ),
        ),
        _row(t("play.stock"), esc(t("play.cards_count", count=seen.stock_count))),
    ]
    pile = seen.discards
    top = card_html(str(pile[-1]), cat) if pile else esc(t("word.none"))
    rows.append(
        _row(
            t("play.discard_pile"),
            Html(
                top
                + (" " + esc(t("play.cards_below", count=len(pile) - 1)) if len(pile) > 1 else "")
            ),
        )
    )
    rows.append(_row(t("play.your_hand"), your_hand_html(session, game, cat, live)))
    dealer = t(f"play.dealer.{hand.dealer}")
    title = t("play.hand_title", number=game.number)
    return _section(
        title,
        f'<p class="gin-note">{esc(dealer)}</p>'
        f'<dl class="gin-summary gin-table">{"".join(rows)}</dl>',
        "gin-play-table",
    )


def your_hand_html(session: dict, game, cat: Catalog, live: bool) -> Html:
    """The reader's hand sorted, melds grouped and the deadwood shown; in the discard phase each
    card is a button (discard it), as defender after a knock each is a button (lay it off)."""
    hand = game.hand
    cards = hand.hands[YOU]
    arrangement = best_melds(cards)
    melds = [str(m) for m in arrangement.melds]
    loose = list(arrangement.deadwood) + ([arrangement.discard] if arrangement.discard else [])
    dead = "" if arrangement.big_gin else " ".join(str(c) for c in sorted(loose, key=_by_rank))
    discard_turn = hand.phase == "discard" and hand.turn == YOU
    lay_turn = hand.phase == "lay_off" and hand.turn == YOU
    planned = {p["card"] for p in session["plan"]}

    def card(c: str) -> str:
        if discard_turn:
            return card_move(
                c,
                {"action": {"kind": "discard", "player": YOU, "card": c}},
                "play.discard_card",
                cat,
                disabled=not live,
            )
        if lay_turn and c not in planned:
            return card_move(
                c,
                {"select": c},
                "play.select_card",
                cat,
                pressed=session["selected"] == c,
                disabled=not live,
            )
        return str(card_html(c, cat))

    def group(text: str, cls: str) -> str:
        return f'<span class="{cls}"><span class="gin-cards">{"".join(card(c) for c in text.split())}</span></span>'

    shown = [group(m, "gin-meld") for m in melds]
    if dead:
        shown.append(group(dead, "gin-deadwood"))
    points = 0 if arrangement.big_gin else arrangement.points
    label = cat.text("play.your_cards")
    summary = cat.text(
        "play.deadwood_after" if len(cards) == 11 else "play.your_deadwood", points=points
    )
    return Html(
        f'<span class="gin-hand" role="group" aria-label="{esc(label)}">{" ".join(shown)}</span>'
        + (f' <span class="gin-note">{esc(summary)}</span>' if summary else "")
    )


def _by_rank(card) -> tuple:
    return card.rank, "SHDC".index(card.suit)


def moves_html(session: dict, game, cat: Catalog, live: bool, refused: str | None) -> str:
    hand, t = game.hand, cat.text
    buttons: list[str] = []
    shown = ""
    if hand.finished:
        prompt = t("play.prompt.game_over" if game.finished else "play.prompt.hand_over")
        if not game.finished:
            buttons.append(move_button({"next": True}, esc(t("play.next_hand")), disabled=not live))
    elif hand.turn != YOU:
        prompt = t("play.prompt.waiting")
    elif hand.phase == "lay_off":
        prompt, shown, buttons = lay_off_moves(session, game, cat, live)
    else:
        legal = legal_actions(hand)
        only_stock = hand.phase == "draw" and all(a.kind == "draw_stock" for a in legal)
        prompt = t(
            "play.prompt.draw_stock" if only_stock else f"play.prompt.{hand.phase}",
            **({"card": card_text(str(hand.discards[-1]))} if hand.discards else {}),
        )
        for choice in legal:
            kind = choice.kind
            if kind == "discard":
                continue  # the cards of the hand are the discard buttons
            for action in knock_choices(hand, choice) if kind == "knock" else [choice]:
                buttons.append(
                    move_button(
                        {"action": action.to_json()},
                        esc(action_label(action.to_json(), cat)),
                        "gin-knock" if kind in ("knock", "gin", "big_gin") else "",
                        disabled=not live,
                    )
                )
    body = f'<p class="gin-prompt">{esc(prompt)}</p>{shown}'
    if refused:
        body += f'<p class="gin-refused">{esc(t("play.refused"))} {esc(refused)}</p>'
    if buttons:
        body += f'<div class="gin-play-moves" role="group" aria-label="{esc(t("play.your_move"))}">{"".join(buttons)}</div>'
    return _section(t("play.your_move"), body, "gin-play-turn")


def lay_off_moves(session: dict, game, cat: Catalog, live: bool) -> tuple[str, str, list[str]]:
    """The reader lays off by hand: a card of theirs (in the hand above), then a meld of the
    knocker's, each lay-off checked by the engine at once. Returns the prompt, what the
    knocker laid out (with the lay-offs so far) and the buttons."""
    hand, t = game.hand, cat.text
    plays = [(p["card"], p["meld"]) for p in session["plan"]]
    melds = check_lay_off_plan(hand, plays)["knocker_melds"]
    selected = session["selected"]
    buttons = (
        [
            move_button(
                {"lay_off": index}, esc(t("play.onto_meld", meld=faces(meld))), disabled=not live
            )
            for index, meld in enumerate(melds)
        ]
        if selected
        else []
    )
    if plays:
        buttons.append(
            move_button({"undo_lay_offs": True}, esc(t("play.undo_lay_offs")), disabled=not live)
        )
    buttons.append(
        move_button({"lay_offs_done": True}, esc(t("play.lay_offs_done")), disabled=not live)
    )
    prompt = (
        t("play.prompt.lay_off_meld", card=card_text(selected))
        if selected
        else t("play.prompt.lay_off")
    )
    laid = "".join(f"<li>{esc(t('play.laid_off', card=card_text(c)))}</li>" for c, _ in plays)
    shown = (
        f'<dl class="gin-summary">{_row(t("play.knocker_melds"), melds_html(melds, cat))}</dl>'
        + (f'<ul class="gin-laid-off">{laid}</ul>' if laid else "")
    )
    return prompt, shown, buttons


def coach_html(session: dict, game, cat: Catalog, live: bool = True) -> str:
    """The coach: the rule at hand, the last move's verdict, the hint (ranked choices)."""
    t = cat.text
    hand = game.hand
    tips = rule_tips(game, cat)
    body = "".join(f'<p class="gin-tip">{esc(tip)}</p>' for tip in tips)
    last = session["log"][-1] if session["log"] else None
    if last and last["hand"] == game.number and last.get("shown") is None:
        if last["cost"] >= COSTLY:
            body += f'<p class="gin-mistake">{esc(t("play.coach.mistake", better=action_label(last["best"], cat), chosen=action_label(last["action"], cat), points=decimal(last["cost"], cat)))}</p>'
        elif len(session["log"]) and not hand.finished:
            body += f'<p class="gin-good">{esc(t("play.coach.good", chosen=action_label(last["action"], cat)))}</p>'
    advice = session["advice"]
    if advice and advice["at"] == decision(game) and not hand.finished:
        items = "".join(
            f"<li>{esc(action_label(c['action'], cat))} – "
            f"{esc(t('play.coach.expected', points=signed(c['points'], cat), win=c['reasons'][0]['win'], lose=c['reasons'][0]['lose']))}"
            + "".join(f"; {esc(text)}" for text in reasons_text(c["reasons"][1:], cat))
            + "</li>"
            for c in advice["choices"]
        )
        body += (
            f"<p>{esc(t('play.coach.hint_intro', samples=advice['samples']))}</p>"
            f'<ol class="gin-hint">{items}</ol>'
        )
    elif not hand.finished and hand.turn == YOU and hand.phase != "lay_off":
        body += move_button(
            {"hint": True}, esc(t("play.coach.hint")), "gin-hint-button", disabled=not live
        )
    return _section(t("play.coach"), body, "gin-coach")


def reasons_text(reasons: list, cat: Catalog) -> list[str]:
    """The coach's reasons for a choice (codes with parameters, :mod:`ginrummy.advice`) in
    words; a risk of 0 % is no reason, and a code the catalogs do not know is left out."""
    out = []
    for reason in reasons:
        key = f"play.reason.{reason.get('code')}"
        if not cat.has(key) or reason.get("percent", 1) == 0:
            continue
        params = {}
        for name, value in reason.items():
            if name in ("card", "meld", "cards") and isinstance(value, str):
                value = card_text(value) if len(value.split()) == 1 else faces(value)
            elif isinstance(value, float):
                value = decimal(value, cat)
            params[name] = value
        out.append(cat.text(key, **{k: v for k, v in params.items() if k != "code"}))
    return out


def rule_tips(game, cat: Catalog) -> list[str]:
    """The rules that apply to the decision at hand, in words."""
    hand, t = game.hand, cat.text
    if hand.finished or hand.turn != YOU:
        return []
    if hand.phase == "offer":
        return [t("play.tip.offer")]
    if hand.phase == "draw":
        return [t("play.tip.draw")]
    if hand.phase == "lay_off":
        return [t("play.tip.lay_off")]
    tips = []
    if hand.taken is not None:
        tips.append(t("play.tip.taken", card=card_text(str(hand.taken))))
    kinds = {a.kind for a in legal_actions(hand)}
    if "gin" in kinds or "big_gin" in kinds:
        tips.append(t("play.tip.gin"))
    elif "knock" in kinds:
        tips.append(t("play.tip.knock"))
    else:
        tips.append(t("play.tip.no_knock"))
    return tips


def decimal(value: float, cat: Catalog) -> str:
    return f"{value:.1f}".replace(".", cat.text("play.decimal_point"))


def signed(value: float, cat: Catalog) -> str:
    return ("+" if value > 0 else "−" if value < 0 else "") + decimal(abs(value), cat)


def end_html(session: dict, game, cat: Catalog) -> str:
    """The end of the hand: both hands, the lay-offs, the score explained step by step (the
    examples' steps), the lay-offs the reader could have made."""
    hand, t = game.hand, cat.text
    if hand.result is None:
        return _section(
            t("play.hand_over"),
            f'<p class="gin-headline">{cat.html("hand.dead")}</p>',
            "gin-play-end",
        )
    result = hand.result.to_json()
    steps = result["steps"]
    body = (
        f'<p class="gin-headline">{step_html(steps[-1], cat)}</p>'
        f"<p>{esc(t(f'play.ended.{hand.knocker}'))}</p>"
    )
    lay = [
        {"code": "lay_off", "card": l["card"], "meld": l["meld"], "result": l["result"]}
        for l in result["lay_offs"]
    ]
    if lay:
        body += f"<h3>{esc(t('ui.lay_offs'))}</h3>{steps_html(lay, cat)}"
    body += f"<h3>{esc(t('play.score_explained'))}</h3>{steps_html(steps[:-1], cat)}"
    if hand.ending == "knock" and hand.knocker == BOT:
        review = lay_off_review(hand)
        if review.get("left", 0) > 0:
            best = [
                {"code": "lay_off", "card": l["card"], "meld": l["meld"], "result": l["result"]}
                for l in review["best"]["lay_offs"]
            ]
            body += (
                f'<p class="gin-mistake">{esc(t("play.lay_offs_left", points=review["left"]))}</p>'
                + steps_html(best, cat)
            )
        else:
            body += f'<p class="gin-good">{esc(t("play.lay_offs_best"))}</p>'
    return _section(t("play.hand_over"), body, "gin-play-end")


def sheet_section(game, cat: Catalog) -> str:
    sheet = game.sheet.to_json()
    t = cat.text
    if not sheet.get("rows") and not any(c["rows"] for c in sheet.get("columns", [])):
        return _section(t("play.sheet"), f"<p>{esc(t('play.sheet_empty'))}</p>", "gin-play-sheet")
    names = (t("play.player.0"), t("play.player.1"))
    return _section(t("play.sheet"), str(sheet_html(sheet, cat, names)), "gin-play-sheet")


def review_html(session: dict, cat: Catalog) -> str:
    """The game's review: each decision the coach judged beside the coach's choice, and the
    reader's accuracy (the share of decisions within :data:`COSTLY` of the best)."""
    t = cat.text
    log = session["log"]
    if not log:
        return _section(
            t("play.review"), f"<p>{esc(t('play.review_empty'))}</p>", "gin-play-review"
        )
    good = sum(1 for e in log if e["cost"] < COSTLY)
    rows = "".join(
        f"<tr><td>{e['hand']}</td><td>{esc(action_label(e['action'], cat))}</td>"
        f"<td>{esc(action_label(e['best'], cat))}</td><td>{esc(decimal(e['cost'], cat))}</td></tr>"
        for e in log
    )
    head = (
        f"<tr><th>{esc(t('play.review.hand'))}</th><th>{esc(t('play.review.yours'))}</th>"
        f"<th>{esc(t('play.review.coach'))}</th><th>{esc(t('play.review.cost'))}</th></tr>"
    )
    accuracy = round(100 * good / len(log))
    return _section(
        t("play.review"),
        f'<p class="gin-headline">{esc(t("play.accuracy", percent=accuracy, good=good, count=len(log)))}</p>'
        f'<table class="gin-sheet"><thead>{head}</thead><tbody>{rows}</tbody></table>',
        "gin-play-review",
    )


def _row(label: str, value) -> str:
    return f"<dt>{esc(label)}</dt><dd>{value}</dd>"


# --- the page ---------------------------------------------------------------------------------


def settings_html(session: dict, cat: Catalog) -> str:
    """The new-game form: rules preset, the computer's level, the coach switch (disabled until
    the page's script makes the game live), and the link to this game's deals (shown once there
    is a game)."""
    t = cat.text
    game = session["game"]
    presets = "".join(
        f'<option value="{p}"{" selected" if p == game["rules"]["name"] else ""}>'
        f"{esc(t(f'rules.{p}'))}</option>"
        for p in RULESETS
    )
    levels = "".join(
        f'<option value="{l}"{" selected" if l == session["level"] else ""}>'
        f"{esc(t(f'play.level.{l}'))}</option>"
        for l in LEVELS
    )
    formats = "".join(
        f'<option value="{f}"{" selected" if f == game["format"] else ""}>'
        f"{esc(t(f'play.format.{f}'))}</option>"
        for f in FORMATS
    )
    checked = " checked" if session["coach"] else ""
    return (
        f'<form class="gin-play-settings"><fieldset disabled>'
        f'<label>{esc(t("ui.rules"))} <select name="rules">{presets}</select></label> '
        f'<label>{esc(t("play.format"))} <select name="format">{formats}</select></label> '
        f'<label>{esc(t("play.level"))} <select name="level">{levels}</select></label> '
        f'<label><input type="checkbox" name="coach"{checked}> {esc(t("play.coach_on"))}</label> '
        f'<button type="submit" class="gin-new-game">{esc(t("play.new_game"))}</button>'
        f'</fieldset> <a class="gin-play-link" hidden>{esc(t("play.link"))}</a></form>'
    )


def page_html(cat: Catalog) -> Html:
    """The play widget as the build writes it: the start of a game (seed :data:`START`) drawn,
    its buttons disabled, and a note that playing needs JavaScript (removed by the script)."""
    session = new_session(**START)
    game = game_from_json(session["game"])
    _, game = computer_turns(session, game, [], cat)
    session["game"] = game.to_json()
    view = view_html(session, game, cat, live=False)
    return Html(
        f'<div class="gin-play" data-gin="play">'
        f'<p class="gin-play-note">{esc(cat.text("play.needs_js"))}</p>'
        f"{settings_html(session, cat)}"
        f'<div class="gin-play-view">{view}</div>'
        f'<p class="gin-status" role="status"></p></div>'
    )
