"""ginrummy: an exact gin rummy rules engine.

>>> from ginrummy import parse_cards, min_deadwood
>>> min_deadwood(parse_cards("AS 2S 3S 7H 7D 7C 9C TC JC KD"))
10
"""

__version__ = "0.1.0"

from .cards import DECK, Card, Hand, cards_from_mask, parse_cards
from .ending import Verdict, check_ending, verdict
from .errors import CardError, GinRummyError, RuleError
from .game import (
    GameRow,
    GameSheet,
    HandEntry,
    HollywoodRow,
    HollywoodSheet,
    hollywood_columns,
    score_game,
    score_hollywood,
)
from .hand import Action, Event, HandState, apply, deal, legal_actions
from .layoffs import LayOff, LayOffResult, as_meld, check_melds, lay_offs
from .melds import Arrangement, Meld, arrange, best_melds, min_deadwood
from .public import PlayerView, view
from .rules import RULESETS, RuleSet, get_rules
from .scoring import HandResult, best_deadwood_sets, optimal_layouts, score_hand

__all__ = [
    "DECK",
    "RULESETS",
    "Action",
    "Arrangement",
    "Card",
    "CardError",
    "Event",
    "GameRow",
    "GameSheet",
    "GinRummyError",
    "Hand",
    "HandEntry",
    "HandResult",
    "HandState",
    "HollywoodRow",
    "HollywoodSheet",
    "LayOff",
    "LayOffResult",
    "Meld",
    "PlayerView",
    "RuleError",
    "RuleSet",
    "Verdict",
    "apply",
    "arrange",
    "as_meld",
    "best_deadwood_sets",
    "best_melds",
    "cards_from_mask",
    "check_ending",
    "check_melds",
    "deal",
    "get_rules",
    "hollywood_columns",
    "lay_offs",
    "legal_actions",
    "min_deadwood",
    "optimal_layouts",
    "parse_cards",
    "score_game",
    "score_hand",
    "score_hollywood",
    "verdict",
    "view",
]
