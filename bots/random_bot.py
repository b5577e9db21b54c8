"""The baseline: a uniformly random legal action."""

from __future__ import annotations

import random

from cursedbottle.engine.actions import Action
from cursedbottle.engine.view import SeatView


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal_actions)
