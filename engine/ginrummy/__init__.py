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

__all__ = [
    "DECK", "Card", "Hand", "cards_from_mask", "parse_cards",
    "CardError", "GinRummyError", "RuleError",
    "Arrangement", "Meld", "arrange", "best_melds", "min_deadwood",
    "RULESETS", "RuleSet", "get_rules",
]
