"""The card table of the play page: the computer's hand, the piles with what happened last, the
reader's hand in melds and deadwood, and the reader's moves.

Cards are drawn by the site (a face: its index in the corner and its suit in the middle; a back:
a pattern), so nothing is downloaded for them. Every card on the table carries ``data-key``
(``c7H``: that card wherever it is; ``b3``: the computer's fourth face-down card) and a card
that arrives from a pile or from the computer's hidden cards carries ``data-from`` (``stock``,
``discard``, ``computer``): the page's script moves a card from where it was to where it is
now, so the reader sees each move (``play.js``); nothing else depends on them.

The table shows only what the reader may know (:func:`ginrummy.public.view`): the computer's
cards face down, except those it took from the pile and still holds, until the end of the hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from ginrummy import Card
from ginrummy.advice import check_lay_off_plan
from ginrummy.game import GameSheet
from ginrummy.hand import KNOCK_KINDS, PHASE_OF, TAKE_KINDS, Event, HandState, legal_actions
from ginrummy.match import Game
from ginrummy.melds import best_melds
from ginrummy.public import view
from ginrummy.scoring import optimal_layouts

from ..catalog import Catalog, Html, esc
from ..markup import card_name, card_text, face, faces
from .session import BOT, YOU, Session

Group = tuple[str, list[Card]]
"""Cards shown together in a hand: a meld (``"meld"``) or the deadwood (``"deadwood"``)."""

# --- cards -----------------------------------------------------------------------------------


def _face_inside(card: Card, spoken: str | None) -> str:
    """A face's index (rank over suit) and its suit in the middle, for the eye; ``spoken``
    for the ear (None: the control around it says it)."""
    text = face(card)
    rank, suit = text[:-1], text[-1]
    return (
        f'<span class="gin-corner" aria-hidden="true"><span class="gin-rank">{rank}</span>'
        f'<span class="gin-suit">{suit}</span></span>'
        f'<span class="gin-pip" aria-hidden="true">{suit}</span>'
        + ("" if spoken is None else f'<span class="gin-sr">{esc(spoken)}</span>')
    )


def card_face(
    card: Card, cat: Catalog, cls: str = "", spoken: str | None = "", arrive: str = ""
) -> str:
    """A card face up on the table (not a control); ``spoken``: its name by default."""
    extra = f" {cls}" if cls else ""
    came = f' data-from="{arrive}"' if arrive else ""
    return (
        f'<span class="gin-face gin-suit-{card.suit}{extra}" data-key="c{card}"{came}>'
        f"{_face_inside(card, card_name(card, cat) if spoken == '' else spoken)}</span>"
    )


def move_data(move: dict[str, Any]) -> str:
    return esc(json.dumps(move, separators=(",", ":"), ensure_ascii=False))


def card_button(
    card: Card, move: dict[str, Any], label: str, cls: str = "", live: bool = True, arrive: str = ""
) -> str:
    """A card of the reader's that is a move: pressing it plays ``move``; ``label`` is what it
    does, for the ear (the eye sees the card)."""
    extra = f" {cls}" if cls else ""
    came = f' data-from="{arrive}"' if arrive else ""
    return (
        f'<button type="button" class="gin-face gin-suit-{card.suit}{extra}" data-key="c{card}"'
        f'{came} data-card="{card}" data-move="{move_data(move)}"{"" if live else " disabled"}>'
        f"{_face_inside(card, label)}</button>"
    )


def card_back(key: str, arrive: str = "", cls: str = "") -> str:
    came = f' data-from="{arrive}"' if arrive else ""
    extra = f" {cls}" if cls else ""
    return f'<span class="gin-back{extra}" data-key="{key}"{came} aria-hidden="true"></span>'


def mini_cards(cards: str | Any, cat: Catalog) -> str:
    """Cards drawn small in a row (in a move's button or a sentence's example)."""
    cards = [Card.parse(c) for c in cards.split()] if isinstance(cards, str) else list(cards)
    inner = "".join(
        f'<span class="gin-mini gin-suit-{c.suit}" aria-hidden="true">{face(c)}</span>'
        for c in cards
    )
    return f'<span class="gin-minis">{inner}</span>'


def button(move: dict[str, Any], label: Any, cls: str = "", live: bool = True) -> str:
    extra = f" {cls}" if cls else ""
    return (
        f'<button type="button" class="gin-move{extra}" data-move="{move_data(move)}"'
        f"{'' if live else ' disabled'}>{label}</button>"
    )


# --- what happened ---------------------------------------------------------------------------


def runs(hand: HandState) -> list[list[Event]]:
    """The hand's public moves in runs, each the moves one player made in a row."""
    out: list[list[Event]] = []
    for event in hand.history:
        if out and out[-1][0].player == event.player:
            out[-1].append(event)
        else:
            out.append([event])
    return out


def last_moves(hand: HandState) -> list[Event]:
    """What the line beside the piles tells: the last run of moves, with the computer's run
    before it when the last is the reader's own (their draw) or the computer's lay-offs."""
    found = runs(hand)
    if not found:
        return []
    last = found[-1]
    if len(found) > 1 and (last[0].player == YOU or last[-1].kind == "lay_off"):
        return found[-2] + last
    return last


def computer_moves(hand: HandState) -> list[Event]:
    """The computer's moves since the reader's last: they stay marked on the table until the
    reader's next move."""
    found = runs(hand)
    return found[-1] if found and found[-1][0].player == BOT else []


def drawn_card(hand: HandState) -> Card | None:
    """The card the reader just drew from the stock (marked until they discard)."""
    history = hand.history
    if (
        hand.phase == "discard"
        and hand.turn == YOU
        and history
        and history[-1].kind == "draw_stock"
        and history[-1].player == YOU
    ):
        return hand.hands[YOU][-1]  # a card drawn goes to the end of the hand
    return None


def arrived(hand: HandState) -> dict[str, str]:
    """The card that arrived with the last move from somewhere the table did not show it:
    the reader's card from the stock, the computer's new face-down card from the stock, the
    computer's discard from its hidden cards (``data-key``: where it came from)."""
    if not hand.history:
        return {}
    last = hand.history[-1]
    if last.kind == "draw_stock":
        if last.player == YOU:
            return {f"c{hand.hands[YOU][-1]}": "stock"}
        hidden = len(hand.hands[BOT]) - len(view(hand, YOU).known)
        return {f"b{hidden - 1}": "stock"}
    if last.kind == "discard" and last.player == BOT:
        return {f"c{last.card}": "computer"}
    return {}


def event_text(event: Event, hand: HandState, cat: Catalog, drawn: Card | None = None) -> str:
    """One move as the reader saw it: the computer's (``play.last.bot.<kind>``) and the
    reader's own (``play.last.you.<kind>``, naming the card they drew from the stock while it
    is ``drawn``, and the card they knocked with; a defender's lay-offs say whether there were
    melds to lay out and cards laid off)."""
    if event.player == BOT:
        key = f"play.last.bot.{event.kind}"
        card = event.card
    else:
        key = f"play.last.you.{event.kind}"
        card = event.card
        if event.kind in KNOCK_KINDS:
            card = hand.knock_discard
        elif event.kind == "draw_stock" and drawn is not None:
            key, card = "play.last.you.draw_stock_card", drawn
    if event.kind == "lay_off" and not (hand.result and hand.result.lay_offs):
        key += "_none"  # nothing laid off (the lay-offs played, chosen or the best by default)
    if event.kind == "lay_off" and event.player == YOU and hand.result:
        key += "" if hand.result.defender_melds else "_no_melds"  # nothing to lay out
    return cat.text(key, **({"card": card_text(str(card))} if card is not None else {}))


def dealt_text(hand: HandState, cat: Catalog) -> str:
    return cat.text(f"play.last.dealt.{hand.dealer}", card=card_text(str(hand.upcard)))


def last_line(hand: HandState, cat: Catalog) -> str:
    """The line beside the piles: what happened last, one sentence a move."""
    moves = last_moves(hand)
    if not moves:
        return dealt_text(hand, cat)
    drawn = drawn_card(hand)
    return " ".join(event_text(e, hand, cat, drawn) for e in moves)


# --- the table -------------------------------------------------------------------------------


def table_html(session: Session, cat: Catalog, live: bool = True) -> Html:
    """The table: the scores, the computer's hand, the piles and the last moves, the reader's
    hand; its cards are moves when ``live`` and it is the reader's turn."""
    game, t = session.game, cat.text
    arrivals = arrived(game.hand)
    return Html(
        f'<section class="gin-table" aria-label="{esc(t("play.table"))}">'
        f"{scoreline_html(game, cat)}"
        f"{computer_html(session, cat, arrivals)}"
        f"{piles_html(session, cat, live, arrivals)}"
        f"{your_hand_html(session, cat, live, arrivals)}"
        "</section>"
    )


def scoreline_html(game: Game, cat: Catalog) -> str:
    sheet = game.sheet
    totals = sheet.points if isinstance(sheet, GameSheet) else sheet.totals
    key = "play.scoreline" if game.format == "standard" else "play.scoreline_hollywood"
    text = cat.text(
        key,
        number=game.number,
        you=totals[YOU],
        computer=totals[BOT],
        target=game.rules.game_target,
    )
    return f'<p class="gin-scoreline">{esc(text)}</p>'


def _seat(name: str, dealer: bool, cat: Catalog, who: str) -> str:
    chip = f' <span class="gin-chip">{esc(cat.text(f"play.dealer.{who}"))}</span>' if dealer else ""
    return f'<p class="gin-seat-name">{esc(name)}{chip}</p>'


def computer_html(session: Session, cat: Catalog, arrivals: dict[str, str]) -> str:
    """The computer's hand: face down, with the cards it is known to hold face up; laid out
    in melds once it knocks; every card face up at the end of the hand."""
    game, t = session.game, cat.text
    hand = game.hand
    head = _seat(t("play.computer"), hand.dealer == BOT, cat, "computer")
    last = {e.card for e in computer_moves(hand) if e.kind in TAKE_KINDS}
    if hand.finished or (hand.phase == "lay_off" and hand.knocker == BOT):
        groups = shown_groups(session, BOT)
        body = groups_html(groups, cat, lambda c: card_face(c, cat, _laid_cls(c, session)))
        label = t("play.computer_shown")
    else:
        seen = view(hand, YOU)
        hidden = seen.opponent_count - len(seen.known)
        backs = "".join(card_back(f"b{i}", arrivals.get(f"b{i}", "")) for i in range(hidden))
        known = "".join(
            card_face(c, cat, "gin-last" if c in last else "", arrive=arrivals.get(f"c{c}", ""))
            for c in seen.known
        )
        body = f'<div class="gin-fan gin-fan-computer">{backs}{known}</div>'
        label = t("play.computer_cards", count=seen.opponent_count)
        if len(seen.known):
            label += " " + t("play.computer_known", cards=faces(str(seen.known)))
    return (
        f'<div class="gin-seat gin-seat-computer" data-anchor="computer">{head}'
        f'<div class="gin-seat-cards" role="group" aria-label="{esc(label)}">{body}</div></div>'
    )


def _laid_cls(card: Card, session: Session) -> str:
    """A card of the reader's laid off onto the computer's melds is marked as theirs."""
    hand = session.game.hand
    laid = {c for c, _ in session.plan}
    if hand.result is not None:
        laid |= {lay.card for lay in hand.result.lay_offs}
    return "gin-laid" if card in laid else ""


def piles_html(session: Session, cat: Catalog, live: bool, arrivals: dict[str, str]) -> str:
    """The stock (face down, with its count) and the discard pile (its top card), each a
    button when the reader may draw from it; beside them, what happened last."""
    game, t = session.game, cat.text
    hand = game.hand
    seen = view(hand, YOU)
    moves = computer_moves(hand)
    bot_drew = next((e.kind for e in moves if PHASE_OF[e.kind] == "draw"), None)
    bot_threw = bool(moves) and moves[-1].kind == "discard"
    legal = (
        {a.kind: a for a in legal_actions(hand)} if hand.turn == YOU and not hand.finished else {}
    )

    count = t("play.cards_count", count=seen.stock_count)
    stock_cls = "gin-pile gin-stock" + (" gin-last" if bot_drew == "draw_stock" else "")
    stock_inner = (
        (card_back("stock", cls="gin-pile-card") if seen.stock_count else "")
        + f'<span class="gin-pile-name" aria-hidden="true">{esc(t("play.stock"))}</span>'
        f'<span class="gin-count" aria-hidden="true">{seen.stock_count}</span>'
    )
    if "draw_stock" in legal:
        stock = (
            f'<button type="button" class="{stock_cls} gin-can" data-anchor="stock" '
            f'data-move="{move_data({"action": legal["draw_stock"].to_json()})}"'
            f'{"" if live else " disabled"}>{stock_inner}<span class="gin-sr">'
            f"{esc(t('play.move.draw_stock_count', count=seen.stock_count))}</span></button>"
        )
    else:
        stock = (
            f'<div class="{stock_cls}" data-anchor="stock">{stock_inner}'
            f'<span class="gin-sr">{esc(t("play.stock"))}: {esc(count)}</span></div>'
        )

    pile = seen.discards
    top = pile[-1] if pile else None
    take = legal.get("take_upcard") or legal.get("draw_discard")
    pile_cls = "gin-pile gin-discard" + (" gin-last" if bot_drew == "draw_discard" else "")
    top_cls = "gin-pile-card" + (" gin-last" if bot_threw else "")
    arrive = arrivals.get(f"c{top}", "") if top is not None else ""
    if top is None:
        face_html = f'<span class="gin-empty">{esc(t("play.pile_empty"))}</span>'
    else:  # named once, by the pile (the words after it)
        face_html = card_face(top, cat, top_cls, None, arrive)
    name = f'<span class="gin-pile-name" aria-hidden="true">{esc(t("play.discard_pile"))}</span>'
    if take is not None and top is not None:
        label = t(f"play.move.{take.kind}", card=card_text(str(top)))
        discard = (
            f'<button type="button" class="{pile_cls} gin-can" data-anchor="discard" '
            f'data-move="{move_data({"action": take.to_json()})}"{"" if live else " disabled"}>'
            f"{face_html}{name}"
            f'<span class="gin-sr">{esc(label)}</span></button>'
        )
    else:
        spoken = t("play.discard_top", card=card_name(top, cat)) if top is not None else ""
        discard = (
            f'<div class="{pile_cls}" data-anchor="discard">{face_html}{name}'
            f'<span class="gin-sr">{esc(t("play.discard_pile"))}. {esc(spoken)}</span></div>'
        )
    line = f'<p class="gin-last-line">{esc(last_line(hand, cat))}</p>'
    if hand.phase == "lay_off" or hand.finished:  # the piles play no part any more
        return f'<div class="gin-centre">{line}</div>'
    return f'<div class="gin-centre"><div class="gin-piles">{stock}{discard}</div>{line}</div>'


# --- the reader's hand -----------------------------------------------------------------------


def shown_groups(session: Session, player: int) -> list[Group]:
    """A player's cards as the table shows them: (``meld`` or ``deadwood``, cards) groups.

    While the hand is played, the reader's cards in the melds that leave the least deadwood
    (in the reader's own order, :func:`ordered`); once a player has laid out their melds,
    those melds (the knocker's with the cards laid off onto them)."""
    hand = session.game.hand
    result = hand.result
    cards = hand.hands[player]
    if result is not None:
        knocker = hand.knocker
        if player == knocker:
            melds = [list(m.cards) for m in result.knocker_melds]
            for lay in result.lay_offs:
                melds[lay.meld_index] = list(lay.result)
            return [("meld", m) for m in melds] + _dead(result.knocker_deadwood)
        return [("meld", list(m.cards)) for m in result.defender_melds] + _dead(
            result.defender_deadwood
        )
    if hand.phase == "lay_off" and hand.layout is not None:
        plan = check_lay_off_plan(hand, session.plan)
        if player == hand.knocker:
            melds = [[Card.parse(c) for c in m.split()] for m in plan["knocker_melds"]]
            dead = [c for c in cards if not any(c in m.cards for m in hand.layout)]
            dead = [c for c in dead if c is not hand.knock_discard]
            return [("meld", m) for m in melds] + _dead(dead)
        own = [[Card.parse(c) for c in m.split()] for m in plan["melds"]]
        return ordered(
            session,
            [("meld", m) for m in own] + _dead(Card.parse(c) for c in plan["deadwood"].split()),
        )
    arrangement = best_melds(cards)
    loose = list(arrangement.deadwood) + ([arrangement.discard] if arrangement.discard else [])
    if arrangement.big_gin:
        loose = []
    groups = [("meld", list(m.cards)) for m in arrangement.melds] + _dead(loose)
    return ordered(session, groups) if player == YOU else groups


def _dead(cards: Iterable[Card]) -> list[Group]:
    dead = sorted(cards, key=lambda c: (c.rank, "SHDC".index(c.suit)))
    return [("deadwood", dead)] if dead else []


def ordered(session: Session, groups: list[Group]) -> list[Group]:
    """The groups in the reader's own order (``session.order``, from dragging): each meld
    where its first card is, the deadwood cards in their order; by rank, melds first, where
    the reader has not moved them."""
    place = {card: i for i, card in enumerate(session.order)}
    unplaced = len(place) + 100

    def key(group: tuple[str, list[Card]]) -> tuple[float, int]:
        kind, cards = group
        placed = [place[c] for c in cards if c in place]
        if kind == "deadwood":
            return (min(placed) if placed else float("inf"), 0)
        return (min(placed) if placed else unplaced + min(c.rank for c in cards), 0)

    def card_key(card: Card) -> tuple[int, int, int]:
        return (place.get(card, unplaced), card.rank, "SHDC".index(card.suit))

    out = []
    for kind, cards in sorted(groups, key=key):
        out.append((kind, sorted(cards, key=card_key) if kind == "deadwood" else cards))
    return out


def groups_html(groups: list[Group], cat: Catalog, draw: Callable[[Card], str]) -> str:
    parts = []
    for kind, cards in groups:
        inner = f'<div class="gin-group-cards">{"".join(draw(c) for c in cards)}</div>'
        if kind == "meld":
            label = cat.text("play.meld_label", cards=faces(" ".join(str(c) for c in cards)))
            parts.append(
                f'<div class="gin-group gin-meld" role="group" aria-label="{esc(label)}">{inner}</div>'
            )
        else:
            points = sum(c.value for c in cards)
            label = cat.text("play.deadwood_count", points=points)
            parts.append(
                f'<div class="gin-group gin-deadwood" role="group" aria-label="{esc(label)}">'
                f'{inner}<span class="gin-group-label" aria-hidden="true">{esc(label)}</span></div>'
            )
    return f'<div class="gin-groups">{"".join(parts)}</div>'


def knock_cards(hand: HandState) -> dict[Card, str]:
    """The cards whose discard lets the reader end the hand: ``knock`` or ``gin``."""
    found: dict[Card, str] = {}
    if hand.turn != YOU or hand.phase != "discard":
        return found
    for action in legal_actions(hand):
        card = action.card
        if card is None or action.kind not in KNOCK_KINDS:
            continue
        if action.kind == "gin" or card not in found:
            found[card] = action.kind
    return found


def lay_off_targets(session: Session) -> dict[Card, list[int]]:
    """In the lay-off phase, each card of the reader's that fits onto one of the computer's
    melds as they stand now, and which melds (the engine checks each)."""
    hand = session.game.hand
    if hand.phase != "lay_off" or hand.turn != YOU:
        return {}
    planned = {c for c, _ in session.plan}
    plan = check_lay_off_plan(hand, session.plan)
    targets: dict[Card, list[int]] = {}
    for card in hand.hands[YOU]:
        if card in planned:
            continue
        for index in range(len(plan["knocker_melds"])):
            try:
                check_lay_off_plan(hand, (*session.plan, (card, index)))
            except ValueError:
                continue
            targets.setdefault(card, []).append(index)
    return targets


def your_hand_html(session: Session, cat: Catalog, live: bool, arrivals: dict[str, str]) -> str:
    """The reader's hand: melds grouped and set apart, the deadwood marked and counted; each
    card a move when the reader may play it (discard it, knock with it, lay it off)."""
    game, t = session.game, cat.text
    hand = game.hand
    head = _seat(t("play.you"), hand.dealer == YOU, cat, "you")
    groups = shown_groups(session, YOU)
    my_turn = hand.turn == YOU and not hand.finished
    drawn = drawn_card(hand)
    knocks = knock_cards(hand) if my_turn else {}
    targets = lay_off_targets(session) if my_turn else {}
    knockable = session.knocking and session.knock_card is None
    multiple = {
        c: len(optimal_layouts([x for x in hand.hands[YOU] if x is not c])) > 1 for c in knocks
    }

    def draw(card: Card) -> str:
        name = card_name(card, cat)
        marks, cls = [], []
        if card == drawn:
            marks.append(t("play.mark.drawn"))
            cls.append("gin-drawn")
        if hand.taken == card and hand.phase == "discard":
            marks.append(t("play.mark.taken"))
            cls.append("gin-drawn gin-taken")
        if card in knocks:
            marks.append(t(f"play.mark.{knocks[card]}"))
            cls.append(f"gin-can-{knocks[card]}")
        if card in targets:
            melds = check_lay_off_plan(hand, session.plan)["knocker_melds"]
            marks.append(t("play.mark.fits", meld=faces(melds[targets[card][0]])))
            cls.append("gin-fits")
        arrive = arrivals.get(f"c{card}", "")
        note = (" " + " ".join(marks)) if marks else ""
        if my_turn and hand.phase == "discard" and hand.taken != card:
            if knockable and card in knocks:
                kind = knocks[card]
                move = (
                    {"knock": str(card)}
                    if multiple[card]
                    else {"action": {"kind": kind, "player": YOU, "card": str(card)}}
                )
                label = t(f"play.{kind}_with", card=name) + note
                return card_button(card, move, label, " ".join(cls), live, arrive)
            if not session.knocking:
                move = {"action": {"kind": "discard", "player": YOU, "card": str(card)}}
                label = t("play.discard_card", card=name) + note
                return card_button(card, move, label, " ".join(cls), live, arrive)
        if card in targets and len(targets[card]) == 1:
            move = {"lay_off": {"card": str(card), "meld": targets[card][0]}}
            label = t("play.lay_off_card", card=name) + note
            return card_button(card, move, label, " ".join(cls), live, arrive)
        return card_face(card, cat, " ".join(cls), name + note, arrive)

    summary = _hand_summary(groups, cat)
    return (
        f'<div class="gin-seat gin-seat-you" data-anchor="you">{head}'
        f'<div class="gin-seat-cards gin-hand{" gin-knocking" if session.knocking else ""}" '
        f'role="group" aria-label="{esc(t("play.your_cards"))}" '
        f'aria-describedby="gin-hand-help">{groups_html(groups, cat, draw)}</div>'
        f"{summary}</div>"
    )


def _hand_summary(groups: list[Group], cat: Catalog) -> str:
    points = sum(c.value for kind, cards in groups if kind == "deadwood" for c in cards)
    text = cat.text("play.no_deadwood") if not points else ""
    return f'<p class="gin-hand-note">{esc(text)}</p>' if text else ""
