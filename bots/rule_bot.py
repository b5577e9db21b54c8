"""The second baseline: Lopaka's policy for every seat.

In play it does exactly what RULES.md prescribes for Lopaka (lead the highest
card; else the highest legal card that wins; else the lowest legal card).
For the choices Lopaka never makes it follows the rule text's first tip:
the lowest cards go into the pile and to the neighbours; the first hand lies
open in the bright house.
"""

from __future__ import annotations

from cursedbottle.engine.actions import Action, ChooseOpen, PassCard, PileCard, Play
from cursedbottle.engine.tricks import policy_card
from cursedbottle.engine.view import SeatView


class RuleBot:
    name = "rule"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, view: SeatView) -> Action:
        actions = view.legal_actions
        first = actions[0]
        if isinstance(first, Play):
            legal = view.rules.deck.mask_of(view.legal_cards)
            trick = [c.index for _, c in view.trick]
            card = policy_card(legal, trick, view.price_threshold)
            return next(a for a in actions if a.card.index == card)
        if isinstance(first, PileCard | PassCard):
            return min(actions, key=lambda a: a.card.index)
        if isinstance(first, ChooseOpen):
            return first
        raise ValueError(f"no rule for {first!r}")
