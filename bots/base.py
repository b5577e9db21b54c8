"""The bot interface: an observation in, one legal action out.

As in OpenSpiel, the state and the legal actions are separate from the
policy: a bot gets a `SeatView` (which carries the seat's legal actions) and
nothing else, so it cannot peek at hidden cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from cursedbottle.engine.actions import Action
from cursedbottle.engine.game import Game
from cursedbottle.engine.view import SeatView


class Bot(Protocol):
    """A player that is a program; `name` is what `make_bot` knows it by."""

    name: str

    def act(self, view: SeatView) -> Action:
        """Choose one of `view.legal_actions`."""
        ...


def play_hand_with_bots(game: Game, bots: Mapping[int, Bot]) -> None:
    """Let the bots (by player) act until the current hand ends or a human must act."""
    hands = len(game.hands)
    while not game.is_over and len(game.hands) == hands:
        seats = game.to_act()
        movers = [s for s in seats if game.player_at(s) in bots]
        if not movers:
            return
        for seat in movers:
            player = game.player_at(seat)
            game.apply(bots[player].act(game.view(player)))
