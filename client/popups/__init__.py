"""The pop-ups over the table, each on the common `Popup` frame: the hint, the tutor's
question, the end of a hand, the end of the game, the rules."""

from .base import Popup, PopupQueue
from .game_over import GameOverScreen, score_sheet
from .hand_end import HandEndScreen, hand_summary
from .hint import HintScreen
from .rules import RulesScreen
from .tutor import TutorScreen

__all__ = ["GameOverScreen", "HandEndScreen", "HintScreen", "Popup", "PopupQueue", "RulesScreen",
           "TutorScreen", "hand_summary", "score_sheet"]
