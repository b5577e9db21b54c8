"""A hint on the wire: the hint engine's lines as a HintResponse, in table seats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cursedbottle.engine.view import SeatView
from cursedbottle.v1 import table_pb2

from .seating import seat_map
from .wire import action_msg, set_card

if TYPE_CHECKING:
    from cursedbottle.bots.hints import Hint, Reason


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


def _set_reason(msg: table_pb2.Reason, why: Reason, to_wire: Sequence[int]) -> None:
    msg.kind, msg.points = why.kind, why.points
    if why.card is not None:
        set_card(msg.card, why.card)
    if why.to is not None:
        msg.to = to_wire[why.to]
    if why.hand is not None:
        msg.hand = why.hand
