"""The rules of Cursed Bottle and of the Bottle Imp it adapts: pure Python, the
single source of the rules.

Start with `Game(Rules(players=3), seed=…)`: ask it `to_act()` and
`legal_actions()`, `apply()` an action, read `events_for(player)` and
`view(player)`.  `Hand` is one hand's state machine; `tricks` holds the trick
rules as pure functions over card indices.
"""

from .actions import Action, ChooseOpen, PassCard, PileCard, Play
from .cards import CURSED_BOTTLE, JOKER, Card, Deck, Suit
from .errors import IllegalAction, Rule
from .events import Event, Phase
from .game import Game
from .hand import Hand
from .rules import Rules, RulesError
from .tricks import Trick
from .view import SeatView

__all__ = [
    "CURSED_BOTTLE",
    "JOKER",
    "Action",
    "Card",
    "ChooseOpen",
    "Deck",
    "Event",
    "Game",
    "Hand",
    "IllegalAction",
    "PassCard",
    "Phase",
    "PileCard",
    "Play",
    "Rule",
    "Rules",
    "RulesError",
    "SeatView",
    "Suit",
    "Trick",
]
