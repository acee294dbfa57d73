"""ginrummy: an exact gin rummy rules engine.

>>> from ginrummy import parse_cards, min_deadwood
>>> min_deadwood(parse_cards("AS 2S 3S 7H 7D 7C 9C TC JC KD"))
10
"""

__version__ = "0.1.0"

from .cards import DECK, Card, Hand, cards_from_mask, parse_cards
from .errors import CardError, GinRummyError, RuleError
from .melds import Arrangement, Meld, arrange, best_melds, min_deadwood
from .rules import RULESETS, RuleSet, get_rules
from .ending import Verdict, check_ending, verdict
from .layoffs import LayOff, LayOffResult, as_meld, check_melds, lay_offs
from .scoring import HandResult, optimal_layouts, score_hand
from .game import (GameRow, GameSheet, HandEntry, HollywoodRow, HollywoodSheet,
                   hollywood_columns, score_game, score_hollywood)
from .hand import Action, Event, HandState, apply, deal, legal_actions
from .public import PlayerView, view

__all__ = [
    "DECK", "Card", "Hand", "cards_from_mask", "parse_cards",
    "CardError", "GinRummyError", "RuleError",
    "Arrangement", "Meld", "arrange", "best_melds", "min_deadwood",
    "RULESETS", "RuleSet", "get_rules",
    "Verdict", "check_ending", "verdict",
    "LayOff", "LayOffResult", "as_meld", "check_melds", "lay_offs",
    "HandResult", "optimal_layouts", "score_hand",
    "GameRow", "GameSheet", "HandEntry", "HollywoodRow", "HollywoodSheet",
    "hollywood_columns", "score_game", "score_hollywood",
    "Action", "Event", "HandState", "apply", "deal", "legal_actions",
    "PlayerView", "view",
]
