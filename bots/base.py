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
#: Bots whose factory takes `budget=` (seconds per decision) and `samples=`
#: (deals per decision).
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

    A searching bot takes its effort per decision after a colon, and the name
    stays distinct in statistics, so efforts can be compared:
    - `strong:0.25` thinks a quarter of a second (as strong as the machine is
      fast: a loaded machine makes it weaker);
    - `strong:n64` guesses 64 deals per decision whatever the clock says (the
      same effort on any machine: what comparisons of two versions need).
    """
    from . import heuristic_bot, model_bot, pimc_bot, random_bot, rule_bot, strong_bot  # noqa: F401

    base, _, effort = name.partition(":")
    try:
        factory = _REGISTRY[base]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown bot {name!r} (known: {known})") from None
    if not effort:
        return factory(seed)
    if base not in _BUDGETED:
        raise ValueError(f"bot {base!r} takes no time budget (only: {', '.join(_BUDGETED)})")
    bot = factory(seed, **_effort(name, effort))
    bot.name = name
    return bot


def _effort(name: str, effort: str) -> dict[str, float | int | None]:
    """The factory's keywords for an effort: `n64` (deals) or `0.25` (seconds)."""
    if effort[:1] in ("n", "N"):
        try:
            count = int(effort[1:])
        except ValueError:
            raise ValueError(
                f"bot {name!r}: {effort[1:]!r} is not a whole number of deals"
            ) from None
        if count < 1:
            raise ValueError(f"bot {name!r}: the number of deals must be at least 1")
        return {"budget": None, "samples": count}
    try:
        seconds = float(effort)
    except ValueError:
        raise ValueError(
            f"bot {name!r}: {effort!r} is neither seconds (0.25) nor deals (n64)"
        ) from None
    if not seconds > 0:
        raise ValueError(f"bot {name!r}: the time budget must be positive")
    return {"budget": seconds}


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
