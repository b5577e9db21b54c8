"""The hint seam: the one function through which the server asks for advice.

The hint engine belongs to the bots layer (`cursedbottle.bots.hint`, in bots/hints.py, built on
the solver).  It gets the seat's view and nothing else, so a hint cannot know
more than the seat does: the view of the seat's next choice (`hint_view`: after
the setup choices it has staged but not sent, `bots.hint_step`), so that it
ranks only what the seat can choose at the step it is at.

Hints think in the hint threads (`BotRunner.hints`, a `FairPool`): one hint
of a seat at a time (a second is refused until the first is answered, or
until its search has stopped after its caller left); tables take turns, one
hint of a table thinks at a time, and a hint of more than the default budget
never takes the thread kept for short hints, so one seat's long hints cannot
make another seat's short one wait.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cursedbottle import bots
from cursedbottle.bots.hint_step import StagedError, next_step
from cursedbottle.engine.game import Game
from cursedbottle.engine.view import SeatView
from cursedbottle.v1 import game_pb2, table_pb2

from .errors import exhausted, invalid, precondition
from .hint_msgs import hint_msg
from .wire import action_from_msg

DEFAULT_BUDGET_MS = 1000
MAX_BUDGET_MS = 10_000
#: Hints of one seat computed at once.
MAX_HINTS_PER_SEAT = 1
#: A hint of a longer budget is slow work: it never takes the thread kept for short ones.
QUICK_BUDGET_MS = DEFAULT_BUDGET_MS


def hint_view(game: Game, player: int, staged: Iterable[game_pb2.Action]) -> SeatView:
    """The view the hint ranks: the player's next choice after its staged ones (a pass
    while the others still lay their pile cards, too); NOT_YOUR_TURN when there is none."""
    actions = [action_from_msg(a, player, game) for a in staged]
    try:
        view = next_step(game.view(player), actions)
    except StagedError as exc:
        raise invalid("MALFORMED", str(exc)) from None
    if not view.legal_actions:
        raise precondition(
            "NOT_YOUR_TURN", f"not your turn: seat {player} has nothing to choose now"
        )
    return view


async def ask_hint(
    runner: Any, table_id: str, player: int, view: SeatView, seed: int, budget_ms: int
) -> table_pb2.HintResponse:
    """The seat's hint from a hint thread; RESOURCE_EXHAUSTED while its last one thinks."""
    pool = runner.hints
    seat = (table_id, player)
    if pool.pending(seat) >= MAX_HINTS_PER_SEAT:
        raise exhausted(
            "HINT_IN_FLIGHT",
            f"one hint at a time per seat (the server's limit is {MAX_HINTS_PER_SEAT}):"
            " your last hint is still being worked out",
        )
    return await pool.run(
        table_id,
        compute_hint,
        view,
        seed,
        budget_ms,
        slow=budget_ms > QUICK_BUDGET_MS,
        owner=seat,
    )


def compute_hint(view: SeatView, seed: int, budget_ms: int) -> table_pb2.HintResponse:
    """Advice for the seat of `view` (runs in a worker thread: it may think for a while)."""
    # (looked up when called: the seam a test may replace)
    return hint_msg(bots.hint(view, seed=seed, budget=budget_ms / 1000), view)
