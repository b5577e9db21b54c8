"""The `model` bot: the fitted play model's most likely card, no search.

bots.inference fits a softmax over a few features of each legal card to how
the pimc bots play; this bot plays its top card (bots.policy) and follows the
tips for the pile and the passes.  It is what the strong bot's rollouts play
for every seat, and a rung of the ladder between `rule` and `heuristic` in
cost, above `heuristic` in strength (bench/README.md, "Issue 14").
"""

from __future__ import annotations

import random

from cursedbottle.engine.actions import Action, Play
from cursedbottle.engine.view import SeatView

from .heuristic_bot import HeuristicBot
from .policy import model_card
from .sampling import position_of, sample_deal


class ModelBot:
    name = "model"

    def __init__(self, seed: int = 0) -> None:
        self.tips = HeuristicBot(seed)
        self.rng = random.Random(seed)

    def act(self, view: SeatView) -> Action:
        actions = view.legal_actions
        if not isinstance(actions[0], Play):
            return self.tips.act(view)
        if len(actions) == 1:
            return actions[0]
        # The model reads only the mover's own cards and the table: any deal
        # of the hidden cards gives the same choice.
        hand = position_of(view, sample_deal(view, self.rng))
        card = model_card(hand, len(view.trick_order))
        return next(a for a in actions if a.card.index == card)
