"""Optimal lay-offs. STUB: being written (see the contract in the team notes)."""

from __future__ import annotations


def lay_offs(knocker_melds, defender_cards):
    raise NotImplementedError
