"""A table as the wire shows it: its TableInfo, a stream's Snapshot and TurnUpdate,
and the events of its log as one receiver may see them.

The table decides who may see what (`Table.events`, `Table.holds`, the
engine's views); this module only encodes.  A spectator's events are the same
for every spectator, so each is encoded once per table and kept (so is the
deal a spectator is shown when a hand ends).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator

from cursedbottle.engine.events import Event, HandEnded
from cursedbottle.v1 import game_pb2, table_pb2

from . import wire
from .seating import current_map, seat_map
from .seats import SeatKind, State
from .tables import Table

_KINDS = {
    SeatKind.EMPTY: table_pb2.SEAT_KIND_EMPTY,
    SeatKind.HUMAN: table_pb2.SEAT_KIND_HUMAN,
    SeatKind.BOT: table_pb2.SEAT_KIND_BOT,
}
_STATES = {
    State.WAITING: table_pb2.TABLE_STATE_WAITING,
    State.PLAYING: table_pb2.TABLE_STATE_PLAYING,
    State.FINISHED: table_pb2.TABLE_STATE_FINISHED,
}


def table_info(table: Table) -> table_pb2.TableInfo:
    out = table_pb2.TableInfo(
        table_id=table.table_id,
        name=table.name,
        has_password=table.has_password,
        state=_STATES[table.state],
        next_sequence=table.sequence,
        hands_played=table.hands_finished,
        spectators=table.spectators,
        stand_in_after_seconds=table.stand_in_after,
        chosen_seed=table.chosen_seed,
        stand_in_bot=table.stand_in_bot,
    )
    out.rules.CopyFrom(wire.rules_msg(table.rules))
    for seat in table.seats:
        out.seats.add(
            seat=seat.number,
            kind=_KINDS[seat.kind],
            name=seat.name,
            bot=seat.bot_name if seat.kind is SeatKind.BOT else "",
            connected=seat.streams > 0,
            stand_in=seat.stand_in is not None,
            from_hand=seat.from_hand,
        )
    rules = table.rules
    if rules.lopaka:
        out.seats.add(seat=rules.players, kind=table_pb2.SEAT_KIND_LOPAKA, name="Lopaka")
    game = table.game
    if game:
        out.totals.extend(game.totals)
        if game.winner is not None:
            out.winner = game.winner
    return out


def snapshot_msg(table: Table, player: int | None) -> table_pb2.Snapshot:
    out = table_pb2.Snapshot(sequence=table.sequence)
    out.table.CopyFrom(table_info(table))
    if table.game is not None and player is not None and table.holds(player):
        out.view.CopyFrom(wire.view_msg(table.game.view(player)))
    return out


def turn_msg(table: Table, player: int | None) -> table_pb2.TurnUpdate:
    """Who is to act, `player`'s legal actions if it is them, and what they see now."""
    game = table.game
    out = table_pb2.TurnUpdate(sequence=table.sequence)
    if game is None:
        return out
    out.game_over = game.is_over
    seats = current_map(game)
    to_act = game.to_act()
    out.to_act.extend(seats.to_wire[s] for s in to_act)
    if player is not None and table.holds(player):
        seat = game.seat_of(player)
        if seat in to_act:
            out.legal_actions.extend(wire.action_msg(a, seats) for a in game.legal_actions(seat))
        out.view.CopyFrom(wire.view_msg(game.view(player)))
    else:  # a spectator, or a seat taken mid-hand that watches until its hand
        out.view.CopyFrom(wire.view_msg(table.public_view()))
    return out


class _Encoded:
    """A table's events as spectators see them, and its finished hands' deals."""

    def __init__(self) -> None:
        self.public: dict[int, game_pb2.GameEvent] = {}
        self.deals: dict[int, game_pb2.HandDeal] = {}


_encoded: weakref.WeakKeyDictionary[Table, _Encoded] = weakref.WeakKeyDictionary()


def event_msgs(
    table: Table, player: int | None, start: int, end: int
) -> Iterator[game_pb2.GameEvent]:
    """The log's events [start, end) as `player` may see them (None: a spectator)."""
    cache = _encoded.get(table)
    if cache is None:
        cache = _encoded[table] = _Encoded()
    for seq, event, public in table.events(player, start, end):
        if not public:
            yield _event_msg(table, cache, seq, event, spectator=False)
            continue
        msg = cache.public.get(seq)
        if msg is None:
            msg = cache.public[seq] = _event_msg(table, cache, seq, event, spectator=True)
        yield msg


def _event_msg(
    table: Table, cache: _Encoded, seq: int, event: Event, spectator: bool
) -> game_pb2.GameEvent:
    game = table.game
    seats = seat_map(game.seating_at(seq), table.rules.players)
    deal = None
    if spectator and isinstance(event, HandEnded):
        deal = cache.deals.get(event.number)
        if deal is None:
            deal = cache.deals[event.number] = wire.deal_msg(game.hands[event.number - 1], seats)
    return wire.event_msg(seq, event, seats, table.times[seq], game.hand_of_event(seq), deal)
