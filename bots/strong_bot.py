"""The strong bot: determinized search with the double-dummy solver (bots.search).

In play it takes the action with the best mean over the guessed deals.  For
the pile, the passes and the open hand the rule text's tips give a default
(the heuristic bot's choice), and the search overrules it only when another
action is clearly better on the same deals: those choices are worth little
each, and a noisy search that flips them at random was measured to lose
points against the tips.
"""

from __future__ import annotations

import random

from cursedbottle.engine.actions import Action, Play
from cursedbottle.engine.view import SeatView

from .base import register
from .heuristic_bot import HeuristicBot
from .search import clearly_better, evaluate


class StrongBot:
    name = "strong"

    def __init__(
        self, seed: int = 0, budget: float | None = 1.0, samples: int | None = None
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.samples = samples
        self.tips = HeuristicBot(seed)

    def act(self, view: SeatView) -> Action:
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0]
        ranked = evaluate(view, self.rng, self.budget, self.samples)
        if isinstance(actions[0], Play):
            return ranked[0].action
        default = self.tips.act(view)
        prior = next(av for av in ranked if av.action == default)
        return ranked[0].action if clearly_better(ranked[0], prior) else default


register("strong", budgeted=True)(StrongBot)
