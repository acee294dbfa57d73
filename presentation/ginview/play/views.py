"""The play page drawn: the table (:mod:`.table`), the reader's moves, the coach, the end of a
hand and of a game, the score sheet, the review, and the page as the build writes it.

Everywhere the reader is "you" and the other player "the computer", in each language's own
words: the steps of a hand's score and of a game's settlement are worded by who did what
(``play.step.<step>.you`` or ``.computer``), never "Player A" or "the defender".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ginrummy import RULESETS, Card
from ginrummy.advice import check_lay_off_plan, lay_off_review
from ginrummy.bots import LEVELS
from ginrummy.game import ROW_STEPS
from ginrummy.hand import TAKE_KINDS, Action, legal_actions
from ginrummy.layoffs import fewest_lay_offs, lay_offs
from ginrummy.match import FORMATS, Game
from ginrummy.scoring import optimal_layouts
from ginrummy.vocab import ActionKind

from ..catalog import Catalog, Html, esc
from ..examples import sheet_table
from ..markup import card_text, faces, step_html, step_key, step_params
from ..shapes import JsonObject
from . import coach
from .session import BOT, YOU, Session
from .table import button, knock_cards, lay_off_targets, mini_cards, table_html

SPEEDS = ("slow", "normal", "fast", "instant")
"""How fast the page shows the computer's moves (the reader's choice, kept by the browser)."""


def who(player: int) -> str:
    return "you" if player == YOU else "computer"


def section(cls: str, title: str, body: str, level: int = 2) -> str:
    return (
        f'<section class="{cls}"><h{level} class="gin-play-heading">{esc(title)}</h{level}>'
        f"{body}</section>"
    )


# --- a move in words ---------------------------------------------------------------------------


def action_label(action: dict[str, Any], cat: Catalog) -> str:
    """What a move of the reader's does, in words ("Discard 7♥"; a knock with the melds laid
    out: "Knock, discarding 7♥, laying out 2♠ 3♠ 4♠ · 9♣ 9♦ 9♥"). Every card it names is
    given: the card taken from the pile is the pile's top (``card`` of a take)."""
    kind = action["kind"]
    if kind in TAKE_KINDS and not action.get("card"):  # a game stored before the card was kept
        return cat.text(f"play.move.{kind}_top")
    params = {"card": card_text(action["card"])} if action.get("card") else {}
    if action.get("melds"):
        melds = " · ".join(faces(m) for m in action["melds"])
        return cat.text(f"play.move.{kind}_melds", melds=melds, **params)
    return cat.text(f"play.move.{kind}", **params)


def choice_label(action: dict[str, Any], game: Game, cat: Catalog) -> str:
    """A move as the coach names it: a take from the pile names the card taken."""
    if action["kind"] in TAKE_KINDS and game.hand.discards:
        action = {**action, "card": str(game.hand.discards[-1])}
    return action_label(action, cat)


def judged_label(action: dict[str, Any], top: Card | None, cat: Catalog) -> str:
    """A judged move in words: a take names the card that topped the pile (``top``)."""
    if action["kind"] in TAKE_KINDS and top is not None:
        action = {**action, "card": str(top)}
    return action_label(action, cat)


# --- the reader's moves ---------------------------------------------------------------------


def moves_html(session: Session, cat: Catalog, live: bool, refused: str | None) -> str:
    """What the reader is asked to do now, and the moves that are not a card or a pile."""
    game, t = session.game, cat.text
    hand = game.hand
    buttons: list[str] = []
    extra = ""
    if hand.finished:
        prompt = t("play.prompt.game_over") if game.finished else hand_end_text(game, cat)
        if game.finished:
            buttons.append(
                f'<button type="button" class="gin-move gin-primary" data-new-game'
                f"{'' if live else ' disabled'}>{esc(t('play.new_game'))}</button>"
            )
        else:
            buttons.append(button({"next": True}, esc(t("play.next_hand")), "gin-primary", live))
    elif hand.turn != YOU:
        prompt = t("play.prompt.waiting")
    elif hand.phase == "lay_off":
        prompt, extra, buttons = lay_off_moves(session, cat, live)
    else:
        prompt, buttons = turn_moves(session, cat, live)
    body = f'<p class="gin-prompt">{esc(prompt)}</p>{extra}'
    if refused:
        body += f'<p class="gin-refused" role="alert">{esc(t("play.refused"))} {esc(refused)}</p>'
    if buttons:
        body += (
            f'<div class="gin-play-moves" role="group" aria-label="{esc(t("play.your_move"))}">'
            f"{''.join(buttons)}</div>"
        )
    return f'<section class="gin-turn" aria-label="{esc(t("play.your_move"))}">{body}</section>'


KNOCK_WORDS = {  # what the cards that end the hand allow: the button's label and the prompt
    frozenset({"knock"}): ("play.knock", "play.prompt.discard_knock"),
    frozenset({"gin"}): ("play.go_gin", "play.prompt.discard_go_gin"),
    frozenset({"knock", "gin"}): ("play.knock_or_gin", "play.prompt.discard_knock_or_gin"),
}


def turn_moves(session: Session, cat: Catalog, live: bool) -> tuple[str, list[str]]:
    """The offer, the draw and the discard: the prompt, and the buttons (Pass; Knock or Go
    gin, Big gin; once a knock's card is chosen, the ways its melds can be laid out)."""
    game, t = session.game, cat.text
    hand = game.hand
    legal = legal_actions(hand)
    kinds = {a.kind for a in legal}
    top = card_text(str(hand.discards[-1])) if hand.discards else None
    if hand.phase == "offer":
        return (
            t("play.prompt.offer", card=top),
            [button({"action": _of(legal, "pass")}, esc(t("play.pass")), "", live)],
        )
    if hand.phase == "draw":
        if kinds == {"draw_stock"}:
            return t("play.prompt.draw_stock"), []
        return t("play.prompt.draw", card=top), []
    # the discard
    knocks = knock_cards(hand)
    buttons: list[str] = []
    if session.knock_card is not None:
        card = session.knock_card
        kind = knocks.get(card, "knock")
        kept = [c for c in hand.hands[YOU] if c is not card]
        for layout in optimal_layouts(kept):
            melds = [str(m) for m in layout]
            label = Html(
                " ".join(mini_cards(m, cat) for m in melds)
                + f'<span class="gin-sr">{esc(t("play.lay_out", melds=", ".join(faces(m) for m in melds)))}</span>'
            )
            move = {"action": {"kind": kind, "player": YOU, "card": str(card), "melds": melds}}
            buttons.append(button(move, label, "gin-layout", live))
        buttons.append(button({"knock": False}, esc(t("play.cancel")), "", live))
        return t("play.prompt.layouts", card=card_text(str(card))), buttons
    if session.knocking:
        buttons.append(button({"knock": False}, esc(t("play.cancel")), "", live))
        gin = all(kind == "gin" for kind in knocks.values())
        return t("play.prompt.knocking_gin" if gin else "play.prompt.knocking"), buttons
    if "big_gin" in kinds:
        buttons.append(
            button({"action": _of(legal, "big_gin")}, esc(t("play.big_gin")), "gin-knock", live)
        )
    if knocks:  # one button, named by what the marked cards allow
        words, prompt_key = KNOCK_WORDS[frozenset(knocks.values())]
        buttons.append(button({"knock": True}, esc(t(words)), "gin-knock", live))
        prompt = t(prompt_key)
    elif hand.taken is not None:
        prompt = t("play.prompt.discard_taken", card=card_text(str(hand.taken)))
    else:
        prompt = t("play.prompt.discard")
    return prompt, buttons


def _of(legal: Iterable[Action], kind: ActionKind) -> dict[str, Any]:
    return next(a for a in legal if a.kind == kind).to_json()


def lay_off_moves(session: Session, cat: Catalog, live: bool) -> tuple[str, str, list[str]]:
    """The reader lays off after the computer's knock: every card of theirs that fits, with
    the meld it fits onto, one button each (the engine checks each); then Done."""
    game, t = session.game, cat.text
    hand = game.hand
    melds = check_lay_off_plan(hand, session.plan)["knocker_melds"]
    targets = lay_off_targets(session)
    buttons = []
    for card, indexes in targets.items():
        for index in indexes:
            label = Html(
                mini_cards(str(card), cat)
                + '<span class="gin-arrow" aria-hidden="true">→</span>'
                + mini_cards(melds[index], cat)
                + f'<span class="gin-sr">{esc(t("play.lay_off_onto", card=card_text(str(card)), meld=faces(melds[index])))}</span>'
            )
            buttons.append(
                button({"lay_off": {"card": str(card), "meld": index}}, label, "gin-layout", live)
            )
    if session.plan:
        buttons.append(button({"undo_lay_offs": True}, esc(t("play.undo_lay_offs")), "", live))
    buttons.append(
        button({"lay_offs_done": True}, esc(t("play.lay_offs_done")), "gin-primary", live)
    )
    if targets:
        prompt = t("play.prompt.lay_off")
    elif session.plan:
        prompt = t("play.prompt.lay_off_more")
    else:
        prompt = t("play.prompt.lay_off_none")
    laid = ""
    if session.plan:
        cards = " ".join(str(c) for c, _ in session.plan)
        laid = f'<p class="gin-note">{esc(t("play.laid_off", cards=faces(cards)))}</p>'
    return prompt, laid, buttons


# --- the coach ---------------------------------------------------------------------------------


def coach_html(session: Session, cat: Catalog, live: bool = True) -> str:
    """The coach: the rule at hand, the verdict on the reader's last move, and the hint."""
    game, t = session.game, cat.text
    hand = game.hand
    body = "".join(f'<p class="gin-tip">{esc(tip)}</p>' for tip in rule_tips(session, cat))
    body += verdict_html(session, cat)
    if session.hint and not hand.finished and hand.turn == YOU:
        body += lay_off_hint(session, cat) if hand.phase == "lay_off" else hint_html(session, cat)
    elif not hand.finished and hand.turn == YOU:
        body += button({"hint": True}, esc(t("play.coach.hint")), "gin-hint-button", live)
    return f'<aside class="gin-coach" aria-label="{esc(t("play.coach"))}"><h2 class="gin-play-heading">{esc(t("play.coach"))}</h2>{body}</aside>'


def verdict_html(session: Session, cat: Catalog) -> str:
    """The coach's word on the reader's last judged move of this hand: good, or (a mistake by
    the coach's rule) the better move and why, the cost behind "Details"."""
    game, t = session.game, cat.text
    last = session.log[-1] if session.log else None
    if last is None or last.hand != game.number:
        return ""
    chosen = judged_label(last.action.to_json(), last.top, cat)
    if not last.mistake:
        return f'<p class="gin-good">{esc(t("play.coach.good", chosen=chosen))}</p>'
    better = judged_label(last.best.to_json(), last.top, cat)
    reason = last.why or {"code": "plays_better", "points": float(last.cost)}
    why = coach.why_text(reason, cat, after=True)
    return (
        f'<p class="gin-mistake">{esc(t("play.coach.mistake", better=better, chosen=chosen, why=why))}</p>'
        f'<details class="gin-details"><summary>{esc(t("play.details"))}</summary>'
        f"<p>{esc(t('play.coach.cost', points=float(last.cost)))}</p></details>"
    )


def other_text(choice: JsonObject, best: JsonObject, game: Game, cat: Catalog) -> str:
    """One of the next moves of a hint, with how often it wins the game against the best, in
    the whole percents the details table shows (or, when they are the same, as about as good:
    never "0 less")."""
    move = choice_label(choice["action"], game, cat)
    chance, against = round(100 * choice["win"]), round(100 * best["win"])
    if chance >= against:
        return cat.text("play.hint.other_even", move=move)
    t = cat.text
    return t(
        "play.hint.other",
        move=move,
        chance=t("play.percent", percent=chance),
        best=t("play.percent", percent=against),
    )


def hint_html(session: Session, cat: Catalog) -> str:
    """The coach's best move and why, in one sentence; at most two other moves, each with
    what speaks for it and what it costs; the numbers behind "Details"."""
    game, t = session.game, cat.text
    advice = coach.ranking(session)
    shown = coach.best_choices(advice)
    best, others = shown[0], shown[1:]
    text = t(
        "play.hint.best",
        move=choice_label(best["action"], game, cat),
        why=coach.why_text(best["reason"] or {"code": "only_choice"}, cat),
    )
    body = f'<p class="gin-hint-best">{esc(text)}</p>'
    if others:
        items = [other_text(o, best, game, cat) for o in others]
        body += (
            f'<p class="gin-hint-others">{esc(t("play.hint.others", moves="; ".join(items)))}</p>'
        )
    rows = "".join(
        f"<tr><td>{esc(choice_label(c['action'], game, cat))}</td>"
        f"<td>{esc(t('play.percent', percent=round(100 * c['win'])))}</td>"
        f"<td>{esc(coach.signed(c['points'], cat))}</td>"
        + "".join(
            f"<td>{esc(t('play.percent', percent=numbers.get(k, 0)))}</td>"
            for numbers in [c["reasons"][0] if c["reasons"] else {}]
            for k in ("win", "lose")
        )
        + "</tr>"
        for c in coach.hint_order(advice)
    )
    head = "".join(
        f"<th>{esc(t(k))}</th>"
        for k in (
            "play.details.move",
            "play.details.game",
            "play.details.points",
            "play.details.won",
            "play.details.lost",
        )
    )
    body += (
        f'<details class="gin-details"><summary>{esc(t("play.details"))}</summary>'
        f"<p>{esc(t('play.details.intro', count=advice['samples']))}</p>"
        f'<table class="gin-sheet gin-hint-table"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></details>'
    )
    return f'<div class="gin-hint">{body}</div>'


def lay_off_hint(session: Session, cat: Catalog) -> str:
    """The best lay-offs from here (the engine's), and the deadwood they leave."""
    hand, t = session.game.hand, cat.text
    plan = check_lay_off_plan(hand, session.plan)
    planned = {c for c, _ in session.plan}
    left = [c for c in hand.hands[YOU] if c not in planned]
    best = lay_offs(plan["knocker_melds"], left)
    if not best.lay_offs:
        return f'<p class="gin-hint-best">{esc(t("play.hint.lay_off_none"))}</p>'
    if best.points >= plan["points"]:  # cards fit, but laying them off saves nothing
        return f'<p class="gin-hint-best">{esc(t("play.hint.lay_off_no_gain"))}</p>'
    plays = "; ".join(
        t("play.hint.lay_off_one", card=card_text(str(lay.card)), meld=faces(str(lay.onto)))
        for lay in fewest_lay_offs(plan["knocker_melds"], left, best)
    )
    text = t("play.hint.lay_off", plays=plays, before=plan["points"], after=best.points)
    return f'<p class="gin-hint-best">{esc(text)}</p>'


def rule_tips(session: Session, cat: Catalog) -> list[str]:
    """The rule that applies to the decision at hand, in words."""
    hand, t = session.game.hand, cat.text
    if hand.finished or hand.turn != YOU:
        return []
    if hand.phase == "offer":
        return [t("play.tip.offer_first" if hand.dealer == BOT else "play.tip.offer_second")]
    if hand.phase in ("draw", "lay_off"):
        return [t(f"play.tip.{hand.phase}")]
    tips = []
    if hand.taken is not None:
        tips.append(t("play.tip.taken", card=card_text(str(hand.taken))))
    kinds = {a.kind for a in legal_actions(hand)}
    if kinds & {"gin", "big_gin"}:
        tips.append(t("play.tip.gin"))
    elif "knock" in kinds:
        tips.append(t("play.tip.knock", limit=hand.rules.knock_limit_for(hand.upcard)))
    else:
        tips.append(t("play.tip.no_knock", limit=hand.rules.knock_limit_for(hand.upcard)))
    return tips


# --- the end of a hand, of a game --------------------------------------------------------------

KNOCKER_STEPS = {
    "knocker_melds",
    "knocker_melds_gin",
    "gin",
    "big_gin",
    "knock",
    "knock_oklahoma",
    "gin_score",
    "big_gin_score",
    "knock_win",
    "tie_knocker",
}
DEFENDER_STEPS = {
    "defender_melds",
    "defender_no_melds",
    "lay_off",
    "defender_deadwood",
    "defender_deadwood_none",
    "undercut",
    "undercut_tie",
}


def step_subject(step: dict[str, Any], knocker: int | None) -> int | None:
    """Whom a step is about: the knocker, the defender, the winner, or a sheet's player."""
    key = step_key(step).removeprefix("step.")
    if knocker is not None:
        if key in KNOCKER_STEPS:
            return knocker
        if key in DEFENDER_STEPS:
            return 1 - knocker
        if key in ("result", "result_gin"):
            return knocker if step.get("winner") == "knocker" else 1 - knocker
    player = step.get("player")
    return player if player in (YOU, BOT) else None


def play_step(step: dict[str, Any], cat: Catalog, knocker: int | None = None) -> Html:
    """A step of a hand's score or a game's settlement, worded for the reader: "you" and "the
    computer" (``play.step.<step>.you``/``.computer``); a step about nobody as the examples
    word it."""
    subject = step_subject(step, knocker)
    if subject is None:
        return step_html(step, cat)
    key = f"play.{step_key(step)}.{who(subject)}"
    params = step_params(step, cat)
    return cat.html(key, **params)


def play_steps(steps: list[dict[str, Any]], cat: Catalog, knocker: int | None = None) -> Html:
    items = "".join(f"<li>{play_step(s, cat, knocker)}</li>" for s in steps)
    return Html(f'<ol class="gin-steps">{items}</ol>')


def hand_end_text(game: Game, cat: Catalog) -> str:
    """The hand's outcome in a sentence: who won it and how much."""
    hand = game.hand
    if hand.result is None:
        return dead_text(game, cat)
    assert hand.knocker is not None  # a scored hand has a knocker
    winner = hand.knocker if hand.result.winner == "knocker" else 1 - hand.knocker
    return cat.text(f"play.hand_won.{winner}", points=hand.result.points)


def dead_text(game: Game, cat: Catalog) -> str:
    """A void hand (the stock down to two cards): nobody scores, and who deals next as the
    rules say (``void_deal``: the same dealer, or the other player)."""
    return cat.text(f"hand.dead.{game.rules.void_deal}")


def end_html(session: Session, cat: Catalog) -> str:
    """The end of the hand: the outcome, the score step by step, the lay-offs the reader
    could have made; at the end of the game, the game's outcome first."""
    game, t = session.game, cat.text
    hand = game.hand
    parts = []
    if hand.result is None:
        parts.append(
            section(
                "gin-play-end",
                t("play.hand_over"),
                f'<p class="gin-headline">{esc(dead_text(game, cat))}</p>',
            )
        )
        return "".join(parts)
    result = hand.result.to_json()
    knocker = hand.knocker
    steps = result["steps"]
    body = f'<p class="gin-headline">{esc(hand_end_text(game, cat))}</p>'
    body += f"<h3>{esc(t('play.score_explained'))}</h3>{play_steps(steps, cat, knocker)}"
    if hand.ending == "knock" and knocker == BOT:
        review = lay_off_review(hand)
        if review.get("left", 0) > 0:
            best = "".join(  # what could have been: worded as such, not as a step that was
                f"<li>{cat.html('play.lay_off_best', **step_params(lay_off, cat))}</li>"
                for lay_off in (
                    {"code": "lay_off", "card": l["card"], "meld": l["meld"], "result": l["result"]}
                    for l in review["best"]["lay_offs"]
                )
            )
            body += (
                f'<p class="gin-mistake">{esc(t("play.lay_offs_left", points=review["left"]))}</p>'
                f'<ol class="gin-steps">{best}</ol>'
            )
        elif review["best"]["lay_offs"]:
            body += f'<p class="gin-good">{esc(t("play.lay_offs_best"))}</p>'
    parts.append(section("gin-play-end", t("play.hand_over"), body))
    return "".join(parts)


def game_end_html(session: Session, cat: Catalog) -> str:
    """The end of the game, a moment: who won, the final totals, how it was settled, the
    reader's accuracy, and a new game."""
    game, t = session.game, cat.text
    sheet = game.sheet
    winner = sheet.winner
    headline = t("play.game_tied") if winner is None else t(f"play.game_won.{winner}")
    totals = t("play.final_totals", you=sheet.totals[YOU], computer=sheet.totals[BOT])
    steps = [s for s in sheet.to_json()["steps"] if s["code"] not in ROW_STEPS]
    accuracy = accuracy_text(session, cat)
    return (
        f'<section class="gin-game-end gin-won-{who(winner) if winner is not None else "none"}" '
        f'tabindex="-1"><h2 class="gin-game-headline">{esc(headline)}</h2>'
        f'<p class="gin-final">{esc(totals)}</p>{play_steps(steps, cat)}'
        + (f"<p>{esc(accuracy)}</p>" if accuracy else "")
        + f'<p><button type="button" class="gin-move gin-primary" data-new-game>'
        f"{esc(t('play.new_game'))}</button></p></section>"
    )


def accuracy(session: Session) -> int | None:
    """The share of the reader's judged decisions the coach found no mistake in."""
    if not session.log:
        return None
    good = sum(1 for entry in session.log if not entry.mistake)
    return round(100 * good / len(session.log))


def accuracy_text(session: Session, cat: Catalog) -> str:
    log = session.log
    if not log:
        return ""
    good = sum(1 for entry in log if not entry.mistake)
    return cat.text("play.accuracy", percent=accuracy(session), good=good, count=len(log))


def sheet_html(game: Game, cat: Catalog) -> str:
    """The score sheet: its table (a table per Hollywood column), the hands won and, once the
    game is over, how it was settled, in the reader's words."""
    t = cat.text
    sheet = game.sheet.to_json()
    names = (t("play.player.0"), t("play.player.1"))
    if not sheet["rows"] and not game.voids:
        body = f"<p>{esc(t('play.sheet_empty'))}</p>"
    elif "columns" not in sheet:
        body = str(sheet_table(sheet, cat, names=names, voids=game.voids))
    else:
        tables = []
        for column, voids in zip(sheet["columns"], game.column_voids):
            state = t("ui.closed" if column["finished"] else "ui.open")
            caption = f"{t('ui.column', column=column['column'])} ({state})"
            table = sheet_table(column, cat, caption, names, voids)
            tables.append(f'<div class="gin-column">{table}</div>')
        body = f'<div class="gin-columns">{"".join(tables)}</div>'
    opened = " open" if game.finished else ""
    return (
        f'<details class="gin-play-sheet"{opened}><summary>{esc(t("play.sheet"))}</summary>'
        f"{body}</details>"
    )


def review_html(session: Session, cat: Catalog) -> str:
    """The game's review: how many decisions the coach found no mistake in, and each mistake
    beside the coach's choice (the moves it called good during the game are not listed: what
    they cost is within its doubt)."""
    t = cat.text
    log = session.log
    if not log:
        return section("gin-play-review", t("play.review"), f"<p>{esc(t('play.review_empty'))}</p>")
    headline = f'<p class="gin-headline">{esc(accuracy_text(session, cat))}</p>'
    mistakes = [e for e in log if e.mistake]
    if not mistakes:
        return section("gin-play-review", t("play.review"), headline)
    rows = "".join(
        f"<tr><td>{e.hand}</td><td>{esc(judged_label(e.action.to_json(), e.top, cat))}</td>"
        f"<td>{esc(judged_label(e.best.to_json(), e.top, cat))}</td>"
        f"<td>{esc(cat.number(e.cost))}</td></tr>"
        for e in mistakes
    )
    head = "".join(
        f"<th>{esc(t(k))}</th>"
        for k in ("play.review.hand", "play.review.yours", "play.review.coach", "play.review.cost")
    )
    return section(
        "gin-play-review",
        t("play.review"),
        headline
        + f'<table class="gin-sheet"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>',
    )


# --- the whole view, and the page as built -------------------------------------------------------


def view_html(
    session: Session, cat: Catalog, refused: str | None = None, live: bool = True
) -> Html:
    """Everything the play page shows of a game: the end of the game (a moment, on top), the
    table and the reader's moves; beside them the coach and the end of the hand; then the
    sheet and the review."""
    game = session.game
    side = coach_html(session, cat, live) if session.coach else ""
    if game.hand.finished and game.hand.result is not None:  # a dead hand: the prompt says it
        side += end_html(session, cat)
    parts = [
        game_end_html(session, cat) if game.finished else invite_html(session, cat),
        table_html(session, cat, live),
        moves_html(session, cat, live, refused),
        f'<div class="gin-side">{side}</div>' if side else "",
        sheet_html(game, cat),
        review_html(session, cat) if game.finished else "",
    ]
    return Html("".join(str(p) for p in parts))


def step_view(session: Session, cat: Catalog) -> Html:
    """The table and the moves at one of the computer's moves (nothing can be pressed)."""
    return Html(str(table_html(session, cat, live=False)) + moves_html(session, cat, False, None))


def invite_html(session: Session, cat: Catalog) -> str:
    """A first visit plays the beginner: one line says how to change it."""
    if not session.first or session.game.number > 1 or session.game.hand.finished:
        return ""
    return f'<p class="gin-invite">{esc(cat.text("play.first_visit", level=cat.text(f"play.level.{session.level}")))}</p>'


def settings_html(session: Session, cat: Catalog) -> str:
    """The new game's settings (rules, scoring, the computer's level, the coach, the speed of
    the computer's moves), the link that replays this game with its copy button, and the
    reader's statistics (kept by the browser)."""
    t = cat.text
    game = session.game

    def options(name: str, values: Iterable[str], chosen: str, label: Callable[[str], str]) -> str:
        return "".join(
            f'<option value="{v}"{" selected" if v == chosen else ""}>{esc(label(v))}</option>'
            for v in values
        )

    presets = options("rules", RULESETS, game.rules.name, lambda p: t(f"rules.{p}"))
    levels = options("level", LEVELS, session.level, lambda l: t(f"play.level.{l}"))
    formats = options("format", FORMATS, game.format, lambda f: t(f"play.format.{f}"))
    speeds = options("speed", SPEEDS, "normal", lambda s: t(f"play.speed.{s}"))
    checked = " checked" if session.coach else ""
    return (
        '<div class="gin-play-bar">'
        f'<button type="button" class="gin-move gin-new-game" data-new-game disabled>{esc(t("play.new_game"))}</button>'
        f'<a class="gin-play-link" hidden>{esc(t("play.link"))}</a>'
        f'<button type="button" class="gin-move gin-copy" hidden>{esc(t("play.copy"))}</button>'
        f'<label class="gin-coach-switch"><input type="checkbox" name="coach" form="gin-play-settings"{checked} disabled> {esc(t("play.coach_on"))}</label>'
        f'<details class="gin-play-settings-box"><summary>{esc(t("play.settings"))}</summary>'
        f'<form class="gin-play-settings" id="gin-play-settings"><fieldset disabled>'
        f'<label>{esc(t("play.level"))} <select name="level">{levels}</select></label> '
        f'<label>{esc(t("ui.rules"))} <select name="rules">{presets}</select></label> '
        f'<label>{esc(t("play.format"))} <select name="format">{formats}</select></label> '
        f'<label>{esc(t("play.speed"))} <select name="speed">{speeds}</select></label> '
        f'<button type="submit" class="gin-move">{esc(t("play.new_game_with"))}</button>'
        f"</fieldset></form></details></div>"
    )


def stats_html(cat: Catalog) -> str:
    """The reader's statistics, kept by the browser: the words here, the numbers filled in by
    the page's script (``data-stat``)."""
    t = cat.text
    items = "".join(
        f'<div><dt>{esc(t(f"play.stats.{name}"))}</dt><dd data-stat="{name}">–</dd></div>'
        for name in ("played", "won", "accuracy", "streak")
    )
    return (
        f'<details class="gin-play-stats" hidden><summary>{esc(t("play.stats"))}</summary>'
        f'<dl class="gin-stats">{items}</dl>'
        f'<button type="button" class="gin-move gin-stats-reset">{esc(t("play.stats.reset"))}</button>'
        "</details>"
    )


PAGE_TEXTS = {
    "resume": "play.js.resume",
    "resume_link": "play.js.resume_link",
    "other_tab": "play.js.other_tab",
    "game_goes_on": "play.js.game_goes_on",
    "kept_copy": "play.js.kept_copy",
    "copied": "play.copied",
    "moved": "play.js.moved",
}
"""The sentences the page's script says itself, and their keys."""


def texts_json(cat: Catalog) -> str:
    import json

    return json.dumps({name: cat.text(key) for name, key in PAGE_TEXTS.items()}, ensure_ascii=False)


def hand_help(cat: Catalog) -> str:
    return f'<p class="gin-sr" id="gin-hand-help">{esc(cat.text("play.hand_help"))}</p>'


def game_over_info(session: Session) -> dict[str, Any]:
    """What the page's statistics keep of a game that just ended."""
    sheet = session.game.sheet
    return {"won": sheet.winner == YOU, "accuracy": accuracy(session)}
