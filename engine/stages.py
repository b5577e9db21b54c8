"""The stages of a hand: the pile, pass and open-hand steps each rule set takes
before the tricks, in order (Devil's Eye and the bright house take more than one)."""

from __future__ import annotations

from typing import NamedTuple

from .events import Phase
from .rules import Rules


class Stage(NamedTuple):
    """One step of a hand.  With two hands per seat, `hand` is the one the pile
    cards or passes of the stage come from and `to_hand` the receiver's hand a
    pass goes to; `piled` counts the pile cards each seat has laid once the
    stage is done."""

    phase: Phase
    hand: int | None = None
    to_hand: int | None = None
    piled: int = 1


def stages(rules: Rules) -> tuple[Stage, ...]:
    """The setup and play stages of a hand, in order."""
    play = (Stage(Phase.PLAY), Stage(Phase.OVER))
    if rules.bright_house:
        return (
            Stage(Phase.PILE, 0, piled=1),
            Stage(Phase.PASS, 0, 0),
            Stage(Phase.PILE, 1, piled=2),
            Stage(Phase.PASS, 1, 1),
            Stage(Phase.OPEN),
            *play,
        )
    if rules.devils_eye:
        # Both passes are chosen before either is handed over (simultaneously).
        return (
            Stage(Phase.PILE, 1, piled=rules.pile_per_stage),
            Stage(Phase.PASS, 1, 0),
            Stage(Phase.PASS, 1, 1),
            *play,
        )
    if rules.lopaka:
        return (Stage(Phase.PASS), *play)
    return (Stage(Phase.PILE), Stage(Phase.PASS), *play)
