"""Scoring one hand. STUB: being written."""

from __future__ import annotations


def score_hand(knocker, defender, rules="standard", upcard=None):
    raise NotImplementedError
