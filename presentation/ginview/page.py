"""What a page with live examples or lessons needs once: the card picker and the few sentences
the page's script shows before the engine has answered (so the script holds no text)."""

from __future__ import annotations

import json

from ginrummy.cards import DECK

from .catalog import Catalog, Html, esc
from .markup import card_name, face

TEXTS = {
    "loading": "ui.loading",
    "working": "ui.working",
    "failed": "ui.failed",
    "copied": "ui.copied",
    "bad_link": "ui.bad_link",
    "checking": "tutorial.checking",
    "choose_first": "tutorial.choose_first",
    "no_more_hints": "tutorial.no_more_hints",
}
"""The page script's sentences, by the name it uses, and their catalog keys."""


def page_html(cat: Catalog) -> Html:
    """The page's texts (``data-gin-texts``) and the card picker's template: 52 cards in four
    rows of 13, by suit. The search leaves the template out (``data-search-exclude``)."""
    texts = {name: cat.text(key) for name, key in TEXTS.items()}
    rows = []
    for suit in range(4):
        cells = "".join(
            f'<button type="button" class="gin-card gin-suit-{card.suit}" data-pick="{card}" '
            f'tabindex="-1"><span aria-hidden="true">{face(card)}</span>'
            f'<span class="gin-sr" data-search-exclude>{esc(card_name(card, cat))}</span></button>'
            for card in DECK[suit * 13 : (suit + 1) * 13]
        )
        rows.append(f'<div class="gin-picker-row" role="group">{cells}</div>')
    picker = (
        f'<div class="gin-picker" role="dialog" aria-label="{esc(cat.text("ui.pick_card"))}">'
        f'<p class="gin-picker-caption"></p>'
        f'<p class="gin-picker-note" id="gin-picker-note">{esc(cat.text("ui.picker_note"))}</p>'
        f"{''.join(rows)}</div>"
    )
    data = esc(json.dumps(texts, ensure_ascii=False, separators=(",", ":")))
    return Html(
        f'<div class="gin-page" hidden data-gin-texts="{data}">'
        f'<template class="gin-picker-template" data-search-exclude>{picker}</template></div>'
    )
