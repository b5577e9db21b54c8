"""The table screen's widgets, one region each: the status line, the seats, the trick,
the cards face up, the log, the prompt and the hand."""

from .hand import NUMBER_KEYS, HandRow, HandState, HandView, hand_rows
from .lines import Banner, Drawn, StatusLine, TextLine
from .log import LogPanel, LogView
from .opens import OpensView
from .seats import SeatsView
from .trick import TrickView

__all__ = ["NUMBER_KEYS", "Banner", "Drawn", "HandRow", "HandState", "HandView", "LogPanel",
           "LogView", "OpensView", "SeatsView", "StatusLine", "TextLine", "TrickView", "hand_rows"]
