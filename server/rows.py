"""What the database keeps, as plain values: the rows the store writes and reads back.

The store takes and returns these and nothing of the live server (no `Table`,
no `Lobby`): a table describes itself as a `TableRow` when it is made and as
an `ActionRow` for each action it accepts, and rebuilds itself from a
`StoredTable` after a restart (server/restore.py).  The errors say what is
wrong with a file or with one table's rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cursedbottle.engine.actions import Action
from cursedbottle.engine.game import Game
from cursedbottle.engine.records import record_of
from cursedbottle.engine.rules import Rules


class StoreError(Exception):
    """The database cannot be used (wrong version, not ours, locked, disk full …)."""


class Damaged(StoreError):
    """A stored value that does not decode; the message names it and says what is wrong
    (`hand`: the finished hand it is in, if it is in one)."""

    def __init__(self, message: str, hand: int | None = None) -> None:
        super().__init__(message)
        self.hand = hand


@dataclass(frozen=True)
class Damage:
    """What is wrong in one table's rows.  That table (or, with `hand`, that finished
    hand of it) is skipped; the rest of the file is used as usual."""

    table_id: str
    what: str
    hand: int | None = None

    def __str__(self) -> str:
        if self.hand is None:
            return f"table {self.table_id} skipped: {self.what}"
        return f"table {self.table_id}: hand {self.hand} skipped: {self.what}"


class DamagedTable(StoreError):
    """A table asked for by its id whose rows are damaged (`damage` says how)."""

    def __init__(self, damage: Damage) -> None:
        super().__init__(str(damage))
        self.damage = damage


@dataclass
class StoredSeat:
    seat: int
    kind: str
    name: str
    token_sha256: str | None
    bot: str
    #: The hand from which the holder plays the seat (0: from the start).
    from_hand: int = 0


@dataclass
class TableRow:
    """What a table is made with, as it is kept (`Store.create_table`)."""

    table_id: str
    name: str
    rules: Rules
    seed: str
    chosen_seed: bool
    first_dealer: int | None
    #: The password's salt and PBKDF2 hash (both None: no password).
    password_salt: bytes | None
    password_hash: bytes | None
    stand_in_after: float
    stand_in_bot: str
    host_token_sha256: str


@dataclass
class StoredTable(TableRow):
    """One row of `tables` with its seats and actions: enough to rebuild the table."""

    state: str
    created_ns: int
    started_ns: int | None
    finished_ns: int | None
    totals: list[int] | None
    winner: int | None
    seats: list[StoredSeat] = field(default_factory=list)
    #: (action, time_ns) in the order the table accepted them.
    actions: list[tuple[Action, int]] = field(default_factory=list)
    hands_finished: int = 0
    #: Its finished hands (`Store.unfinished` reads them, to check them against the game).
    hands: list[StoredHand] = field(default_factory=list)


@dataclass
class StoredHand:
    table_id: str
    number: int
    #: The FORMATS.md hand record (JSON object).
    record: dict[str, Any]
    #: Per seat of the hand, who sat there (Lopaka's too).
    names: list[str]
    #: Per seat of the hand, its table seat (docs/protocol.md); None for Lopaka.
    seating: list[int | None]
    scores: list[int]
    finished_ns: int

    @classmethod
    def of(
        cls, table_id: str, game: Game, number: int, names: list[str], finished_ns: int = 0
    ) -> StoredHand:
        """Hand `number` of `game` (it must be over), `names`: who sits at each table seat."""
        hand = game.hands[number - 1]
        seating = list(game.seatings[number - 1])
        who = [names[p] if p is not None else "Lopaka" for p in seating]
        record = record_of(hand).to_json()
        return cls(table_id, number, record, who, seating, list(hand.scores()), finished_ns)

    def export(self) -> dict[str, Any]:
        """The record with where it comes from: extra fields FORMATS.md allows (replay
        ignores them)."""
        return {
            **self.record,
            "table": self.table_id,
            "hand": self.number,
            "names": self.names,
            "seating": self.seating,
        }


@dataclass(frozen=True)
class ActionRow:
    """One accepted action (number `n` of the table's log of actions) and, written
    in the same transaction, the hand it finished and the end of the game."""

    table_id: str
    n: int
    action: Action
    time_ns: int
    #: The hand this action finished, if it finished one.
    hand: StoredHand | None = None
    #: The game's totals and winner, if this action ended it.
    totals: list[int] | None = None
    winner: int | None = None

    @classmethod
    def of(
        cls, table_id: str, game: Game, hands_before: int, names: list[str], time_ns: int
    ) -> ActionRow:
        """The last action `game` accepted (`hands_before`: the hands begun before it;
        `names`: who sits at each table seat, for the hand it may have finished)."""
        n = len(game.actions) - 1
        hand = None
        if game.is_over or len(game.hands) > hands_before:
            hand = StoredHand.of(table_id, game, hands_before, names, time_ns)
        over = game.is_over
        return cls(
            table_id,
            n,
            game.actions[n],
            time_ns,
            hand,
            totals=list(game.totals) if over else None,
            winner=game.winner if over else None,
        )
