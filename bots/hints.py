"""Hint mode: every legal action ranked by what it is worth to the seat.

Like GNU Backgammon's hint window: each action with its expected score for
the hand, how often it was the best across the guessed deals, how many deals
were guessed, and a short reason where one is plain to see.  A hint is
computed from the seat's view alone (bots.search), so it cannot depend on
cards the seat may not know: two states that look the same to the seat give
the same hint for the same seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cursedbottle.engine.actions import Action, ChooseOpen, PassCard, PileCard, Play
from cursedbottle.engine.tricks import trick_winner
from cursedbottle.engine.view import SeatView

from .search import evaluate


@dataclass(frozen=True, slots=True)
class HintLine:
    action: Action
    #: Expected final score of the hand for the seat (None: nothing to weigh).
    value: float | None
    best_rate: float
    samples: int
    exact: bool
    reason: str


@dataclass(frozen=True, slots=True)
class Hint:
    seat: int
    lines: tuple[HintLine, ...]

    @property
    def best(self) -> Action | None:
        return self.lines[0].action if self.lines else None


def hint(
    view: SeatView, seed: int = 0, budget: float | None = 1.0, samples: int | None = None
) -> Hint:
    """The ranked actions of `view`; `samples` fixes the work (reproducible),
    `budget` bounds it in seconds (anytime)."""
    actions = view.legal_actions
    if len(actions) <= 1:
        return Hint(
            view.seat,
            tuple(HintLine(a, None, 1.0, 0, False, "the only legal choice") for a in actions),
        )
    # Shown best value first; among equal values in the search's own order.
    ranked = sorted(evaluate(view, random.Random(seed), budget, samples), key=lambda av: -av.value)
    return Hint(
        view.seat,
        tuple(
            HintLine(
                av.action, av.value, av.best_rate, av.samples, av.exact, reason(view, av.action)
            )
            for av in ranked
        ),
    )


def reason(view: SeatView, action: Action) -> str:
    """What the action plainly does, in a few words ("" when nothing is plain)."""
    if isinstance(action, PileCard):
        return f"puts {action.card.display()} ({action.card.points} pt) under the bottle"
    if isinstance(action, PassCard):
        to = f"seat {action.to}"
        if view.rules.devils_eye and view.pass_to_hand is not None:
            to += f"'s {('first', 'second')[view.pass_to_hand]} hand"
        return f"passes {action.card.display()} to {to}"
    if isinstance(action, ChooseOpen):
        return f"lays hand {action.hand + 1} open"
    if not isinstance(action, Play):
        return ""
    card = action.card
    price = view.price_threshold
    trick = [c.index for _, c in view.trick] + [card.index]
    pos, buys = trick_winner(trick, price)
    wins = pos == len(trick) - 1
    last = len(trick) == len(view.trick_order)
    points = sum(view.rules.deck.points[c] for c in trick)
    if wins and buys:
        return f"buys the bottle at {card.display()}" + ("" if last else " unless undercut")
    if wins and last:
        return f"takes the trick ({points} pt)"
    if wins:
        return ""
    # A card that does not win now cannot win later in the trick.
    if card.index < price:
        return f"sheds the low {card.display()} without buying"
    if card.points >= 3:
        return f"gives {card.points} pt to the trick's winner"
    return f"dumps {card.display()} safely"
