"""The bot interface: an observation in, one legal action out.

As in OpenSpiel, the state and the legal actions are separate from the
policy: a bot gets a `SeatView` (which carries the seat's legal actions) and
nothing else, so it cannot peek at hidden cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from cursedbottle.engine.actions import Action
from cursedbottle.engine.game import Game
from cursedbottle.engine.view import SeatView


class Bot(Protocol):
    name: str

    def act(self, view: SeatView) -> Action:
        """Choose one of `view.legal_actions`."""
        ...


_REGISTRY: dict[str, Callable[[int], Bot]] = {}


def register(name: str) -> Callable[[Callable[[int], Bot]], Callable[[int], Bot]]:
    def deco(factory: Callable[[int], Bot]) -> Callable[[int], Bot]:
        _REGISTRY[name] = factory
        return factory

    return deco


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by its name (`random`, …), seeded for reproducibility."""
    from . import heuristic_bot, random_bot, rule_bot, strong_bot  # noqa: F401  (registering)

    try:
        return _REGISTRY[name](seed)
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown bot {name!r} (known: {known})") from None


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
