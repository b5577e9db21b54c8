"""The hint seam: the one function through which the server asks for advice.

The hint engine belongs to the bots layer (`cursedbottle.bots.hint`, in bots/hints.py, built on
the solver).  It gets the seat's view and nothing else, so a hint cannot know
more than the seat does.  Without the solver the RPC refuses with
FAILED_PRECONDITION rather than inventing numbers.

Hints think in the hint threads (`BotRunner.hints`, a `FairPool`): one hint
of a seat at a time (a second is refused until the first is answered, or
until its search has stopped after its caller left); tables take turns, one
hint of a table thinks at a time, and a hint of more than the default budget
never takes the thread kept for short hints, so one seat's long hints cannot
make another seat's short one wait.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cursedbottle.engine.view import SeatView
from cursedbottle.v1 import table_pb2

from .errors import exhausted, precondition
from .seating import seat_map
from .wire import action_msg, set_card

if TYPE_CHECKING:
    from cursedbottle.bots.hints import Hint, Reason

DEFAULT_BUDGET_MS = 1000
MAX_BUDGET_MS = 10_000
#: Hints of one seat computed at once.
MAX_HINTS_PER_SEAT = 1
#: A hint of a longer budget is slow work: it never takes the thread kept for short ones.
QUICK_BUDGET_MS = DEFAULT_BUDGET_MS


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
    try:
        # (Imported here: test_server_refusals takes the hint engine away to see the
        # refusal a server without the solver would give.)
        from cursedbottle.bots import hint
    except ImportError as exc:
        raise precondition("NO_SOLVER", f"hints need the solver, which is missing: {exc}") from None
    return hint_msg(hint(view, seed=seed, budget=budget_ms / 1000), view)


def hint_msg(result: Hint, view: SeatView) -> table_pb2.HintResponse:
    """A hint of the seat of `view` as the wire's HintResponse (table seats)."""
    seats = seat_map(view.seat_players, view.rules.players)
    legal = set(view.legal_actions)
    out = table_pb2.HintResponse()
    for line in result.lines:
        if line.action not in legal:  # a hint only ever names the seat's own legal moves
            continue
        item = out.actions.add(
            best_share=line.best_rate,
            samples=line.samples,
            exact=line.exact,
            reason=str(line.reason),
            close_to_best=line.close,
        )
        _set_reason(item.why, line.reason, seats.to_wire)
        if line.value is not None:
            item.expected_value = line.value
        item.action.CopyFrom(action_msg(line.action, seats))
    out.samples = max((a.samples for a in out.actions), default=0)
    out.reason = out.actions[0].reason if out.actions else ""
    basis = result.basis
    out.basis.kind, out.basis.model, out.basis.deals = basis.kind, basis.model, basis.deals
    out.meaning = basis.meaning
    return out


def _set_reason(msg: table_pb2.Reason, why: Reason, to_wire) -> None:
    msg.kind, msg.points = why.kind, why.points
    if why.card is not None:
        set_card(msg.card, why.card)
    if why.to is not None:
        msg.to = to_wire[why.to]
    if why.hand is not None:
        msg.hand = why.hand
