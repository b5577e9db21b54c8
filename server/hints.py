"""The hint seam: the one function through which the server asks for advice.

The hint engine belongs to the bots layer (`cursedbottle.bots.hint`, built on
the solver).  It gets the seat's view and nothing else, so a hint cannot know
more than the seat does.  Without that function the RPC refuses with
FAILED_PRECONDITION rather than inventing numbers.

`hint(view, seed=…, budget=seconds)` returns a `Hint` whose `lines` hold, best
first, each legal action with `value` (None: nothing to weigh), `best_rate`,
`samples`, `exact` and `reason`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cursedbottle.engine.view import SeatView
from cursedbottle.v1 import table_pb2

from .errors import precondition
from .wire import action_msg, seat_map

DEFAULT_BUDGET_MS = 1000
MAX_BUDGET_MS = 10_000


def hint_engine() -> Callable[..., Any] | None:
    """`cursedbottle.bots.hint` when the bots layer provides it (looked up per call)."""
    from cursedbottle import bots

    return getattr(bots, "hint", None)


def _get(obj: Any, *names: str, default: Any = None) -> Any:
    for name in names:
        value = obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)
        if value is not None:
            return value
    return default


def compute_hint(view: SeatView, seed: int, budget_ms: int) -> table_pb2.HintResponse:
    """Advice for the seat of `view` (runs in a worker thread: it may think for a while)."""
    engine = hint_engine()
    if engine is None:
        raise precondition("NO_SOLVER", "hints need the solver, and this server has no hint engine")
    result = engine(view, seed=seed, budget=budget_ms / 1000)
    seats = seat_map(view.seat_players, view.rules.players)
    legal = set(view.legal_actions)
    out = table_pb2.HintResponse()
    for line in _get(result, "lines", "actions", default=()):
        action = _get(line, "action")
        if action not in legal:  # a hint only ever names the seat's own legal moves
            continue
        item = out.actions.add(
            best_share=float(_get(line, "best_rate", "best_share", default=0.0)),
            samples=int(_get(line, "samples", default=0)),
            exact=bool(_get(line, "exact", default=False)),
            reason=str(_get(line, "reason", default="")),
        )
        value = _get(line, "value", "expected_value")
        if value is not None:
            item.expected_value = float(value)
        item.action.CopyFrom(action_msg(action, seats))
    out.samples = max((a.samples for a in out.actions), default=0)
    out.reason = _get(result, "reason", default=out.actions[0].reason if out.actions else "")
    return out
