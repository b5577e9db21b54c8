"""Players that are programs: each sees only its seat's view and returns an action.

Bots by name (`make_bot`): `random`, `rule` (Lopaka's policy for every seat),
`heuristic` (the rule text's tips and quick rollouts), `strong` (determinized
search with the double-dummy solver).  `hint` ranks a seat's legal actions.
"""

from .base import Bot, make_bot, play_hand_with_bots
from .hints import Hint, HintLine, hint

__all__ = ["Bot", "Hint", "HintLine", "hint", "make_bot", "play_hand_with_bots"]
