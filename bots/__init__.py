"""Players that are programs: each sees only its seat's view and returns an action.

Bots by name (`make_bot`): `random`, `rule` (Lopaka's policy for every seat),
`heuristic` (the rule text's tips and quick rollouts), `model` (the fitted
play model's top card), `pimc` (determinized search with the double-dummy
solver: the strong bot before issue 14), `strong` (pimc's search over deals
weighed by the others' plays, with the model's rollouts).  `hint` ranks a
seat's legal actions.
"""

from .base import Bot, play_hand_with_bots
from .hints import Hint, HintLine, hint
from .registry import make_bot

__all__ = ["Bot", "Hint", "HintLine", "hint", "make_bot", "play_hand_with_bots"]
