"""Hand seats ↔ table seats: the one place where the engine's seats become the table's.

The engine numbers the seats of each hand from its own seating (who sits
where this hand, Lopaka included); a table and the wire number its seats
once and for all (see game.proto).  Every seat number leaving the server, in
a message or in words, goes through a `SeatMap`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from cursedbottle.engine.game import Game


class SeatMap:
    """Hand seats ↔ table seats for one hand's seating (players by hand seat)."""

    __slots__ = ("players", "to_hand", "to_wire")

    def __init__(self, seating: tuple[int | None, ...], players: int) -> None:
        self.players = players
        self.to_wire: tuple[int, ...] = tuple(players if p is None else p for p in seating)
        self.to_hand: dict[int, int] = {w: h for h, w in enumerate(self.to_wire)}

    def wire(self, seat: int | None) -> int | None:
        return None if seat is None else self.to_wire[seat]

    def per_table_seat(self, values: Iterable[int]) -> list[int]:
        """A per-hand-seat tuple re-ordered by table seat."""
        values = list(values)
        return [values[self.to_hand[w]] for w in range(len(values))]

    def name(self, hand_seat: int) -> str:
        """A hand seat in words, as the table names it ("seat 2", "Lopaka"); a number
        that is no seat of the hand is named as the engine names it."""
        if not 0 <= hand_seat < len(self.to_wire):
            return f"seat {hand_seat}"
        seat = self.to_wire[hand_seat]
        return "Lopaka" if seat == self.players else f"seat {seat}"


@lru_cache(maxsize=64)
def seat_map(seating: tuple[int | None, ...], players: int) -> SeatMap:
    return SeatMap(seating, players)


def current_map(game: Game) -> SeatMap:
    """The seat map of the hand being played."""
    return seat_map(game.seatings[-1], game.rules.players)
