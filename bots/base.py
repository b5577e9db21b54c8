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


_REGISTRY: dict[str, Callable[..., Bot]] = {}
#: Bots whose factory takes `budget=` (seconds per decision).
_BUDGETED: list[str] = []


def register(
    name: str, budgeted: bool = False
) -> Callable[[Callable[..., Bot]], Callable[..., Bot]]:
    def deco(factory: Callable[..., Bot]) -> Callable[..., Bot]:
        _REGISTRY[name] = factory
        if budgeted:
            _BUDGETED.append(name)
        return factory

    return deco


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by its name (`random`, …), seeded for reproducibility.

    A searching bot takes its time budget per decision after a colon:
    `strong:0.25` thinks a quarter of a second (the name stays distinct in
    statistics, so budgets can be compared).
    """
    from . import heuristic_bot, random_bot, rule_bot, strong_bot  # noqa: F401  (registering)

    base, _, budget = name.partition(":")
    try:
        factory = _REGISTRY[base]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown bot {name!r} (known: {known})") from None
    if not budget:
        return factory(seed)
    if base not in _BUDGETED:
        raise ValueError(f"bot {base!r} takes no time budget (only: {', '.join(_BUDGETED)})")
    try:
        seconds = float(budget)
    except ValueError:
        raise ValueError(f"bot {name!r}: {budget!r} is not a number of seconds") from None
    if not seconds > 0:
        raise ValueError(f"bot {name!r}: the time budget must be positive")
    bot = factory(seed, budget=seconds)
    bot.name = name
    return bot


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
