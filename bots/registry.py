"""The bots by name: one list of them, and `make_bot`, which reads it.

As python-chess lists its variants, each bot class says its own `name` and
this module lists the classes; no bot module registers itself.
"""

from __future__ import annotations

from .base import Bot
from .heuristic_bot import HeuristicBot
from .model_bot import ModelBot
from .pimc_bot import PimcBot
from .random_bot import RandomBot
from .rule_bot import RuleBot
from .strong_bot import StrongBot

#: Every bot `make_bot` knows; each is made as `cls(seed)`.
BOTS: tuple[type[Bot], ...] = (RandomBot, RuleBot, HeuristicBot, ModelBot, PimcBot, StrongBot)
#: The bots that also take an effort per decision: `cls(seed, name=…, budget=…,
#: samples=…)` with `budget` in seconds and `samples` in deals.
BUDGETED: tuple[type[Bot], ...] = (PimcBot, StrongBot)


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by its name (`random`, …), seeded for reproducibility.

    A searching bot takes its effort per decision after a colon, and the name
    stays distinct in statistics, so efforts can be compared:
    - `strong:0.25` thinks a quarter of a second (as strong as the machine is
      fast: a loaded machine makes it weaker);
    - `strong:n64` guesses 64 deals per decision whatever the clock says (the
      same effort on any machine: what comparisons of two versions need);
    - `strong:0.3:x27` also solves its guessed deals exactly from 27 cards
      left in the hands (`bots/search.py`, `exact_cards_for`, says the
      default): what a measurement of the threshold needs.
    """
    base, _, effort = name.partition(":")
    bots = {cls.name: cls for cls in BOTS}
    try:
        factory = bots[base]
    except KeyError:
        known = ", ".join(sorted(bots))
        raise ValueError(f"unknown bot {name!r} (known: {known})") from None
    if not effort:
        return factory(seed)
    if factory not in BUDGETED:
        budgeted = ", ".join(cls.name for cls in BUDGETED)
        raise ValueError(f"bot {base!r} takes no time budget (only: {budgeted})")
    head, *rest = effort.split(":")
    keywords = _effort(name, head)
    for part in rest:
        keywords["exact_cards"] = _exact_cards(name, factory, part)
    return factory(seed, name=name, **keywords)


#: The bots whose threshold of exact solves can be set (`strong:0.3:x27`).
EXACT_SETTABLE: tuple[type[Bot], ...] = (StrongBot,)


def _exact_cards(name: str, factory: type[Bot], part: str) -> int:
    """`x27`: solve exactly from 27 cards left in the hands."""
    if factory not in EXACT_SETTABLE:
        raise ValueError(f"bot {name!r}: only strong takes a threshold of exact solves (x27)")
    if part[:1] not in ("x", "X"):
        raise ValueError(f"bot {name!r}: {part!r} is not a threshold of exact solves (x27)")
    try:
        cards = int(part[1:])
    except ValueError:
        raise ValueError(f"bot {name!r}: {part[1:]!r} is not a whole number of cards") from None
    if cards < 0:
        raise ValueError(f"bot {name!r}: the number of cards cannot be negative")
    return cards


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
