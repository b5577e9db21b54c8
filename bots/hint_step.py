"""The step a hint ranks: the seat's next setup choice after the ones it has staged.

A person chooses the whole setup of a stage before sending any of it (the pile
card, then a pass to each neighbour; Devil's Eye: two pile cards, then a pass to
each of the opponent's hands), and may ask for a hint at any of those steps.  The
hint must rank only what can be chosen there: not the cards already staged, not
the passes to a receiver already served, and a pass even while the server still
waits for the others' pile cards.  `next_step` turns the seat's view and its
staged choices into the view of that step; the setup search (`bots.search`) then
plays the staged choices as made, exactly as it plays the choices already sent.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from cursedbottle.engine.actions import Action, PassCard, PileCard
from cursedbottle.engine.cards import Card
from cursedbottle.engine.events import Phase
from cursedbottle.engine.view import SeatView


class StagedError(ValueError):
    """Staged choices the seat cannot make (a card it does not hold, a pass to nobody
    it still serves, more pile cards than it owes)."""


def setup_holder(view: SeatView) -> int:
    """The holder the stage's pile cards and passes come from (as the engine's
    `Hand.setup_holder`: with two hands per seat, the stage's hand)."""
    return view.seat if view.stage_hand is None else 2 * view.seat + view.stage_hand


def next_step(view: SeatView, staged: Sequence[Action] = ()) -> SeatView:
    """The view of the step after `staged` (pile cards, then passes in the order of the
    view's `pass_plan`): its legal actions are the choices still open there (the passes
    to the next receiver only); none when nothing is left to choose.  Outside the
    setup the view as it is."""
    if view.phase not in (Phase.PILE, Phase.PASS):
        if staged:
            raise StagedError("staged: setup choices outside the setup")
        return view
    holder = setup_holder(view)
    cards = list(view.visible.get(holder, ()))
    piles: list[Card] = []
    passes: list[tuple[int, Card]] = []
    for action in staged:
        if not isinstance(action, (PileCard, PassCard)) or action.seat != view.seat:
            raise StagedError("staged: only the seat's own pile cards and passes")
        if action.card not in cards:
            raise StagedError(f"staged: {action.card} is not in the hand (or staged twice)")
        cards.remove(action.card)
        if isinstance(action, PassCard):
            passes.append((action.to, action.card))
        elif passes:
            raise StagedError("staged: the pile cards come before the passes")
        else:
            piles.append(action.card)
    owed = view.pile_owed - len(piles)
    plan = list(view.pass_plan)
    if owed < 0 or len(passes) > len(plan) or (passes and owed > 0):
        raise StagedError("staged: not the choices the setup asks for, in its order")
    for (to, _card), (want, _hand) in zip(passes, plan, strict=False):
        if to != want:
            raise StagedError(f"staged: a pass to seat {to} where the setup asks for seat {want}")
    if owed > 0 and not staged:
        return view  # the pile cards the server asks for: the view as it is
    phase, to_hand = view.phase, view.pass_to_hand
    legal: tuple[Action, ...] = ()
    if owed > 0:
        legal = tuple(PileCard(view.seat, c) for c in cards)
    elif len(passes) < len(plan):
        to, told = plan[len(passes)]
        phase, legal = Phase.PASS, tuple(PassCard(view.seat, to, c) for c in cards)
        if told is not None:
            to_hand = told
    return dataclasses.replace(
        view,
        phase=phase,
        pass_to_hand=to_hand,
        legal_actions=legal,
        visible={**view.visible, holder: tuple(cards)},
        my_pile_cards=(*view.my_pile_cards, *piles),
        passes_given=(*view.passes_given, *passes),
        passes_given_hands=(*view.passes_given_hands, *(h for _to, h in plan[: len(passes)])),
    )
