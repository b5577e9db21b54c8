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
from cursedbottle.engine.cards import Card
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
    reason: Reason


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
            tuple(HintLine(a, None, 1.0, 0, False, Reason("only")) for a in actions),
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


@dataclass(frozen=True, slots=True)
class Reason:
    """What an action plainly does, as data: `kind` names the sentence, the rest
    fills it in, so a client can say it in its own language (`str` is English).
    `to` is the receiver's seat of a pass and `hand` its hand where that must be
    told (Devil's Eye)."""

    kind: str = ""
    card: Card | None = None
    points: int = 0
    to: int | None = None
    hand: int | None = None

    def __str__(self) -> str:
        card = self.card.display() if self.card is not None else ""
        to = "" if self.to is None else f"seat {self.to}"
        if self.to is not None and self.hand is not None:
            to += f"'s {('first', 'second')[self.hand]} hand"
        n = "" if self.hand is None else self.hand + 1
        return _ENGLISH[self.kind].format(card=card, points=self.points, to=to, n=n)


_ENGLISH = {
    "": "",
    "only": "the only legal choice",
    "pile": "puts {card} ({points} pt) under the bottle",
    "pass": "passes {card} to {to}",
    "open": "lays hand {n} open",
    "buys": "buys the bottle at {card}",
    "buys_unless": "buys the bottle at {card} unless undercut",
    "takes": "takes the trick ({points} pt)",
    "sheds": "sheds the low {card} without buying",
    "gives": "gives {points} pt to the trick's winner",
    "dumps": "dumps {card} safely",
}


def reason(view: SeatView, action: Action) -> Reason:
    """What the action plainly does (kind "" when nothing is plain)."""
    if isinstance(action, PileCard):
        return Reason("pile", action.card, action.card.points)
    if isinstance(action, PassCard):
        hand = view.pass_to_hand if view.rules.devils_eye else None
        return Reason("pass", action.card, to=action.to, hand=hand)
    if isinstance(action, ChooseOpen):
        return Reason("open", hand=action.hand)
    if not isinstance(action, Play):
        return Reason()
    card = action.card
    price = view.price_threshold
    trick = [c.index for _, c in view.trick] + [card.index]
    pos, buys = trick_winner(trick, price)
    wins = pos == len(trick) - 1
    last = len(trick) == len(view.trick_order)
    points = sum(view.rules.deck.points[c] for c in trick)
    if wins and buys:
        return Reason("buys" if last else "buys_unless", card)
    if wins and last:
        return Reason("takes", points=points)
    if wins:
        return Reason()
    # A card that does not win now cannot win later in the trick.
    if card.index < price:
        return Reason("sheds", card)
    if card.points >= 3:
        return Reason("gives", points=card.points)
    return Reason("dumps", card)
