"""The server's database: every table as rules + seed + the actions it accepted.

A LAN evening must survive the host's laptop sleeping or the server being
killed.  The engine is deterministic (`Game.replay`), so a table needs no
snapshot: its rules, its seed and the ordered list of accepted actions rebuild
it exactly.  Each action is written (one small transaction) before the table
acknowledges it or shows it to anyone, so nothing a player saw can be lost.

The file itself (schema, lock, WAL, checkpoints) is server/database.py.

What is kept, and what is not: seat and host tokens only as sha256 (a
database leaked from the host's machine opens no seat), passwords as the
table's salted PBKDF2 hash.  The seed *is* kept in clear: it is the whole deal,
which is why the file is created readable by its owner only and the seed never
leaves the server.  Finished hands are also kept as FORMATS.md hand records,
for `cursed-bottle history` and `review`.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

from cursedbottle.engine.actions import Action
from cursedbottle.engine.cards import Deck

from .database import DB_NAME, SCHEMA_VERSION, Database
from .decoding import (
    decode_action,
    decode_hand,
    decode_table,
    encode_action,
    rules_from_json,
    rules_to_json,
    shown,
    table_id_of,
    whole,
    within,
)
from .rows import (
    ActionRow,
    Damage,
    Damaged,
    DamagedTable,
    StoredHand,
    StoredTable,
    StoreError,
    TableRow,
)

__all__ = [
    "SCHEMA_VERSION",
    "Damage",
    "DamagedTable",
    "Store",
    "StoreError",
    "decode_action",
    "default_db_path",
    "encode_action",
    "rules_from_json",
    "rules_to_json",
]

log = logging.getLogger("cursedbottle.server")


def default_db_path() -> Path:
    """Where `cursed-bottle serve` and `history` look without --db: the XDG data directory."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "cursed-bottle" / DB_NAME


_TABLE_COLUMNS = (
    "table_id, name, rules, seed, chosen_seed, first_dealer, password_salt, password_hash, "
    "stand_in_after, stand_in_bot, host_token_sha256, state, created_ns, started_ns, "
    "finished_ns, totals, winner"
)
_HAND_COLUMNS = "h.table_id, number, record, names, seating, scores, h.finished_ns"


# -------------------------------------------------------------------- store


def _log_damage(damage: Damage) -> None:
    log.error("%s", damage)


class Store(Database):
    """One SQLite file.  `Store(path)` is the server's (it writes, and holds a lock so
    that a second server cannot write the same tables); `Store.reader(path)` is for
    `history` and tests: read-only, works while a server runs."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        readonly: bool = False,
        on_damage: Callable[[Damage], None] | None = None,
    ) -> None:
        #: Told of each damaged table once (default: one line in the server's log).
        self.on_damage = on_damage or _log_damage
        #: What was found damaged, by (table, hand): those rows are skipped.
        self._damage: dict[tuple[str, int | None], Damage] = {}
        #: Tables whose own rows, and hands whose record, were found sound already.
        self._sound_tables: set[str] = set()
        self._sound_hands: set[tuple[str, int]] = set()
        super().__init__(path, readonly=readonly)

    @classmethod
    def reader(
        cls, path: str | os.PathLike[str], on_damage: Callable[[Damage], None] | None = None
    ) -> Store:
        return cls(path, readonly=True, on_damage=on_damage)

    # ------------------------------------------------------ the server writes

    def known(self, table_id: str) -> bool:
        """Whether a table id was ever used (ids must stay unique across restarts)."""
        with self._transaction():
            row = self.db.execute("SELECT 1 FROM tables WHERE table_id = ?", (table_id,))
            return row.fetchone() is not None

    def create_table(self, table: TableRow) -> None:
        """A new table, waiting for players, with its seats all empty."""
        rows = [
            (
                "INSERT INTO seats (table_id, seat, kind, name, token_sha256, bot) "
                "VALUES (?, ?, 'empty', '', NULL, '')",
                (table.table_id, seat),
            )
            for seat in range(table.rules.players)
        ]
        self._write(
            (
                "INSERT INTO tables (table_id, name, rules, seed, chosen_seed, first_dealer, "
                "password_salt, password_hash, stand_in_after, stand_in_bot, "
                "host_token_sha256, state, created_ns) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'waiting', ?)",
                (
                    table.table_id,
                    table.name,
                    rules_to_json(table.rules),
                    str(table.seed),
                    int(table.chosen_seed),
                    table.first_dealer,
                    table.password_salt if table.password_hash is not None else None,
                    table.password_hash,
                    table.stand_in_after,
                    table.stand_in_bot,
                    table.host_token_sha256,
                    time.time_ns(),
                ),
            ),
            *rows,
        )

    def save_seat(
        self,
        table_id: str,
        seat: int,
        kind: str,
        name: str,
        token_sha256: str | None,
        bot: str,
        from_hand: int = 0,
    ) -> None:
        self._write(
            (
                "UPDATE seats SET kind = ?, name = ?, token_sha256 = ?, bot = ?, from_hand = ? "
                "WHERE table_id = ? AND seat = ?",
                (kind, name, token_sha256, bot, from_hand, table_id, seat),
            )
        )

    def close_unstarted(self, table_id: str, time_ns: int) -> None:
        """An unstarted table that went away: kept as finished, never resumed (its id
        stays taken)."""
        self._write(
            (
                "UPDATE tables SET state = 'finished', finished_ns = ? "
                "WHERE table_id = ? AND state = 'waiting'",
                (time_ns, table_id),
            )
        )

    def set_stand_ins(self, table_id: str, after: float, bot: str) -> None:
        """The host changed the table's stand-ins (SetStandIns)."""
        self._write(
            (
                "UPDATE tables SET stand_in_after = ?, stand_in_bot = ? WHERE table_id = ?",
                (after, bot, table_id),
            )
        )

    def started(self, table_id: str, time_ns: int) -> None:
        self._write(
            (
                "UPDATE tables SET state = 'playing', started_ns = ? WHERE table_id = ?",
                (time_ns, table_id),
            )
        )

    def record_action(self, row: ActionRow) -> None:
        """A table's accepted action; with it, in the same transaction, the hand it
        finished (as a hand record) and the end of the game."""
        statements = [
            (
                "INSERT INTO actions VALUES (?, ?, ?, ?)",
                (row.table_id, row.n, encode_action(row.action), row.time_ns),
            )
        ]
        hand = row.hand
        if hand is not None:
            statements.append(
                (
                    "INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        row.table_id,
                        hand.number,
                        json.dumps(hand.record),
                        json.dumps(hand.names),
                        json.dumps(hand.seating),
                        json.dumps(hand.scores),
                        hand.finished_ns,
                    ),
                )
            )
        if row.totals is not None:
            statements.append(
                (
                    "UPDATE tables SET state = 'finished', finished_ns = ?, totals = ?, "
                    "winner = ? WHERE table_id = ?",
                    (row.time_ns, json.dumps(row.totals), row.winner, row.table_id),
                )
            )
        self._write(*statements)

    # ---------------------------------------------------------------- reading
    #
    # A row that does not decode costs its table only: the table (or the one hand)
    # is skipped, `on_damage` hears of it once, and everything else is read.

    def damage_of(self, table_id: str, hand: int | None = None) -> Damage | None:
        """What was found wrong with a table (or one of its hands), if anything."""
        return self._damage.get((table_id, hand))

    def report(self, damage: Damage) -> None:
        """Note what is wrong with a table's rows (`on_damage` hears of each table once)."""
        key = (damage.table_id, damage.hand)
        if key in self._damage:
            return
        told = any(t == damage.table_id for t, _ in self._damage)
        self._damage[key] = damage
        if not told:  # one line per damaged table
            self.on_damage(damage)

    def tables(self, state: str | None = None) -> list[StoredTable]:
        """Stored tables, oldest first (with their seats, without their actions)."""
        where, params = ("WHERE state = ?", (state,)) if state else ("", ())
        return self._tables(where, params)

    def table(self, table_id: str) -> StoredTable | None:
        """One stored table (with its seats, without its actions), or None (none, or
        damaged: `damage_of` says how)."""
        found = self._tables("WHERE table_id = ?", (table_id,))
        return found[0] if found else None

    def _tables(self, where: str, params: tuple) -> list[StoredTable]:
        with self._transaction():
            rows = self.db.execute(
                f"SELECT {_TABLE_COLUMNS}, "
                "(SELECT count(*) FROM hands h WHERE h.table_id = t.table_id) "
                f"FROM tables t {where} ORDER BY created_ns, table_id",
                params,
            ).fetchall()
            seats = {
                row[0]: self.db.execute(
                    f"SELECT seat, kind, name, token_sha256, bot, {self._from_hand} FROM seats "
                    "WHERE table_id = ? ORDER BY seat",
                    (row[0],),
                ).fetchall()
                for row in rows
            }
        out = []
        for row in rows:
            try:
                table = decode_table(row[:-1], row[-1], seats[row[0]])
            except Damaged as exc:
                self.report(Damage(table_id_of(row[0]), str(exc)))
                continue
            self._sound_tables.add(table.table_id)
            out.append(table)
        return out

    def _readable(self, table_id: str) -> bool:
        """Whether a table's own rows decode (its hands are shown only then)."""
        return table_id in self._sound_tables or self.table(table_id) is not None

    def actions(self, table_id: str, deck: Deck | None = None) -> list[tuple[Action, int]]:
        """The table's accepted actions with their times (`deck`: the table's, when
        the caller has its rules at hand already); DamagedTable if they do not decode."""
        if deck is None:
            stored = self.table(table_id)
            if stored is None:
                damage = self.damage_of(table_id)
                if damage is not None:
                    raise DamagedTable(damage)
                raise StoreError(f"{self.path}: no table {table_id}")
            deck = stored.rules.deck
        try:
            return self._actions(table_id, deck)
        except Damaged as exc:
            raise DamagedTable(Damage(table_id, str(exc))) from None

    def _actions(self, table_id: str, deck: Deck) -> list[tuple[Action, int]]:
        with self._transaction():
            rows = self.db.execute(
                "SELECT n, action, time_ns FROM actions WHERE table_id = ? ORDER BY n",
                (table_id,),
            ).fetchall()
        for n, _, _ in rows:
            if type(n) is not int:
                raise Damaged(f"action number {shown(n)} is not a whole number")
        for i, (n, _, _) in enumerate(rows):
            if n != i:
                raise Damaged(
                    f"action {i} is missing" if n > i else f"action number {n} is out of order"
                )
        out = []
        for n, text, time_ns in rows:
            with within(f"action {n}"):
                out.append((decode_action(text, deck), whole(time_ns, "time_ns")))
        return out

    def unfinished(self) -> list[StoredTable]:
        """Tables to resume: waiting or playing, with their actions, and whose finished
        hands' rows decode; a damaged one is reported and left out."""
        unfinished = (table for table in self.tables() if table.state != "finished")
        return [table for table in unfinished if self._played(table)]

    def finished(self, table_id: str) -> StoredTable | None:
        """A finished game's table with its actions and hands, to serve it again
        (server/restore.py, `bring_back`); None if there is none (not finished, never
        started) or its rows are damaged (reported)."""
        table = self.table(table_id)
        if table is None or table.state != "finished" or table.started_ns is None:
            return None
        return table if self._played(table) else None

    def _played(self, table: StoredTable) -> bool:
        """Read the table's actions and hands into it; False (and reported) if they
        do not decode."""
        try:
            table.actions = self._actions(table.table_id, table.rules.deck)
            table.hands = self._hands_of(table.table_id)
        except Damaged as exc:
            self.report(Damage(table.table_id, str(exc)))
            return False
        return True

    def _hands_of(self, table_id: str) -> list[StoredHand]:
        """Every finished hand of a table, numbered 1, 2, … (`Damaged` if one is not)."""
        with self._transaction():
            rows = self.db.execute(
                f"SELECT {_HAND_COLUMNS} FROM hands h WHERE h.table_id = ? ORDER BY number",
                (table_id,),
            ).fetchall()
        out = []
        for i, row in enumerate(rows, start=1):
            number = whole(row[1], "hand number")
            if number != i:
                raise Damaged(
                    f"hand {i} is missing"
                    if number > i
                    else f"hand number {number} is out of order"
                )
            with within(f"hand {number}"):
                out.append(decode_hand(row, (table_id, number) in self._sound_hands))
            self._sound_hands.add((table_id, number))
        return out

    def _hands(self, rows: list[tuple]) -> list[StoredHand]:
        """The hands of `rows` that decode, of tables whose own rows decode."""
        out = []
        for row in rows:
            table_id = row[0]
            if not self._readable(table_id):
                continue
            number = row[1]
            key = (table_id, number)
            if key in self._damage:
                continue
            try:
                whole(number, "hand number")
                hand = decode_hand(row, key in self._sound_hands)
            except Damaged as exc:
                self.report(Damage(table_id, str(exc), hand=number))
                continue
            self._sound_hands.add(key)
            out.append(hand)
        return out

    def hands(self, table_id: str | None = None) -> list[StoredHand]:
        """Finished hands (of one table, or all), in the order they were played."""
        with self._transaction():
            where, params = ("WHERE h.table_id = ?", (table_id,)) if table_id else ("", ())
            rows = self.db.execute(
                f"SELECT {_HAND_COLUMNS} FROM hands h JOIN tables t USING (table_id) {where} "
                "ORDER BY t.created_ns, h.table_id, number",
                params,
            ).fetchall()
        return self._hands(rows)

    def hand(self, table_id: str, number: int) -> StoredHand | None:
        """One finished hand, or None (not finished, no such hand, or damaged)."""
        with self._transaction():
            row = self.db.execute(
                f"SELECT {_HAND_COLUMNS} FROM hands h WHERE table_id = ? AND number = ?",
                (table_id, number),
            ).fetchone()
        found = self._hands([row]) if row is not None else []
        return found[0] if found else None

    def recent_hands(
        self, limit: int, table_id: str | None = None, token_sha256: str | None = None
    ) -> list[tuple[str, StoredHand]]:
        """(table name, hand) of the newest finished hands, newest first: of one table
        (`table_id`, whoever may read it), or of every table without a password and of
        the tables `token_sha256` (a host or seat token's hash) opens."""
        if table_id is not None:
            where, params = "h.table_id = ?", (table_id,)
        else:
            where = (
                "(t.password_hash IS NULL OR t.host_token_sha256 = ? OR EXISTS "
                "(SELECT 1 FROM seats s WHERE s.table_id = t.table_id AND s.token_sha256 = ?))"
            )
            params = (token_sha256 or "", token_sha256 or "")
        with self._transaction():
            rows = self.db.execute(
                f"SELECT t.name, {_HAND_COLUMNS} FROM hands h JOIN tables t USING (table_id) "
                f"WHERE {where} ORDER BY h.finished_ns DESC, h.table_id, number DESC LIMIT ?",
                (*params, limit),
            ).fetchall()
        names = {row[1]: row[0] for row in rows}
        return [(names[h.table_id], h) for h in self._hands([row[1:] for row in rows])]

    def find_table(self, prefix: str) -> str:
        """The one table id that starts with `prefix` (ids are 8 hex digits; a few do), of a
        table whose rows can be read (DamagedTable otherwise)."""
        with self._transaction():
            rows = self.db.execute(
                "SELECT table_id FROM tables WHERE substr(table_id, 1, ?) = ?",
                (len(prefix), prefix),
            ).fetchall()
        if not rows:
            raise StoreError(f"no game {prefix!r} in {self.path}")
        if len(rows) > 1:
            ids = ", ".join(sorted(map(table_id_of, (r[0] for r in rows))))
            raise StoreError(f"{prefix!r} names several games ({ids}); give more of the id")
        table_id = rows[0][0]
        if not self._readable(table_id):
            raise DamagedTable(self._damage[(table_id_of(table_id), None)])
        return table_id
