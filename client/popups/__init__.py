"""The pop-ups over the table, each on the common `Popup` frame: the hint, the tutor's
question, the end of a hand, the end of the game, the rules, the hand's tricks."""

from .base import Popup, PopupQueue
from .game_over import AskQuitScreen, GameOverScreen, score_sheet, standings
from .hand_end import HandEndScreen, hand_summary
from .hint import HintScreen
from .rules import RulesScreen
from .tricks import TricksScreen
from .tutor import TutorScreen

__all__ = ["AskQuitScreen", "GameOverScreen", "HandEndScreen", "HintScreen", "Popup",
           "PopupQueue", "RulesScreen", "TricksScreen", "TutorScreen", "hand_summary",
           "score_sheet", "standings"]
