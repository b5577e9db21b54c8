"""The server's database: every table as rules + seed + the actions it accepted.

A LAN evening must survive the host's laptop sleeping or the server being
killed.  The engine is deterministic (`Game.replay`), so a table needs no
snapshot: its rules, its seed and the ordered list of accepted actions rebuild
it exactly.  Each action is written (one small transaction) before the table
acknowledges it or shows it to anyone, so nothing a player saw can be lost.

Why SQLite in WAL mode with synchronous=NORMAL: a commit is then a `write()`
into the WAL file, no fsync, typically well under a millisecond, which is
cheap enough to do on the event loop in the request path (measured: see
docs/storage.md).  It survives a killed process (the data is in the OS's page
cache); only a power cut can lose the last few commits.  The expensive part,
copying the WAL back into the database with fsyncs (a checkpoint), runs in a
thread of its own on its own connection, never on the event loop.

What is kept, and what is not: seat and host tokens only as sha256 (a
database leaked from the host's machine opens no seat), passwords as the
table's salted PBKDF2 hash.  The seed *is* kept in clear: it is the whole deal,
which is why the file is created readable by its owner only and the seed never
leaves the server.  Finished hands are also kept as FORMATS.md hand records,
for `cursed-bottle history` and `review`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cursedbottle.engine.actions import Action, ChooseOpen, PassCard, PileCard, Play
from cursedbottle.engine.cards import Deck
from cursedbottle.engine.rules import Edition, Rules

if TYPE_CHECKING:
    from .tables import Lobby, Table

log = logging.getLogger("cursedbottle.server")

#: Bumped whenever the schema changes; a database of another version is refused.
SCHEMA_VERSION = 1
#: PRAGMA application_id: marks the file as ours ("CBTL").
APPLICATION_ID = 0x4342544C
#: Commits between two checkpoints (each copies the WAL back, off the event loop).
CHECKPOINT_EVERY = 500
DB_NAME = "cursed-bottle.db"

_SCHEMA = """
CREATE TABLE tables (
    table_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed TEXT NOT NULL,
    chosen_seed INTEGER NOT NULL,
    first_dealer INTEGER,
    password_salt BLOB,
    password_hash BLOB,
    stand_in_after REAL NOT NULL,
    stand_in_bot TEXT NOT NULL,
    host_token_sha256 TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('waiting', 'playing', 'finished')),
    created_ns INTEGER NOT NULL,
    started_ns INTEGER,
    finished_ns INTEGER,
    totals TEXT,
    winner INTEGER
);
CREATE TABLE seats (
    table_id TEXT NOT NULL REFERENCES tables (table_id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('empty', 'human', 'bot')),
    name TEXT NOT NULL,
    token_sha256 TEXT,
    bot TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE actions (
    table_id TEXT NOT NULL REFERENCES tables (table_id),
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    time_ns INTEGER NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
CREATE TABLE hands (
    table_id TEXT NOT NULL REFERENCES tables (table_id),
    number INTEGER NOT NULL,
    record TEXT NOT NULL,
    names TEXT NOT NULL,
    seating TEXT NOT NULL,
    scores TEXT NOT NULL,
    finished_ns INTEGER NOT NULL,
    PRIMARY KEY (table_id, number)
) WITHOUT ROWID;
"""


class StoreError(Exception):
    """The database cannot be used (wrong version, not ours, locked, disk full …)."""


def default_db_path() -> Path:
    """Where `cursed-bottle serve` and `history` look without --db: the XDG data directory."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "cursed-bottle" / DB_NAME


# ------------------------------------------------------------------ actions


def encode_action(action: Action) -> str:
    """An engine action as compact JSON (hand seats, ASCII cards)."""
    if isinstance(action, Play):
        out: list[Any] = ["play", action.seat, action.card.ascii]
    elif isinstance(action, PileCard):
        out = ["pile", action.seat, action.card.ascii]
    elif isinstance(action, PassCard):
        out = ["pass", action.seat, action.to, action.card.ascii]
    elif isinstance(action, ChooseOpen):
        out = ["open", action.seat, action.hand]
    else:
        raise TypeError(f"not an action: {action!r}")
    return json.dumps(out, separators=(",", ":"))


def decode_action(text: str, deck: Deck) -> Action:
    kind, *rest = json.loads(text)
    if kind == "play":
        return Play(rest[0], deck.card(rest[1]))
    if kind == "pile":
        return PileCard(rest[0], deck.card(rest[1]))
    if kind == "pass":
        return PassCard(rest[0], rest[1], deck.card(rest[2]))
    if kind == "open":
        return ChooseOpen(rest[0], rest[1])
    raise ValueError(f"unknown action kind {kind!r}")


def rules_to_json(rules: Rules) -> str:
    """The whole rule set, how the game ends included (a hand record leaves that out)."""
    return json.dumps(
        {
            "players": rules.players,
            "hot_bottle": rules.hot_bottle,
            "bright_house": rules.bright_house,
            "target": rules.target,
            "hands": rules.hands,
            "deck": rules.deck.name,
            "game": rules.edition.value,
            "teams": rules.teams,
            "second_bottle": rules.second_bottle,
            "singles": rules.singles,
        }
    )


def rules_from_json(text: str) -> Rules:
    obj = json.loads(text)
    try:
        edition = Edition(obj.get("game", Edition.CURSED_BOTTLE.value))
    except ValueError:
        raise StoreError(f"game {obj['game']!r}: this server does not know that game") from None
    end = {"hands": obj["hands"]} if obj.get("hands") is not None else {"target": obj["target"]}
    rules = Rules(
        obj["players"],
        obj["hot_bottle"],
        obj["bright_house"],
        edition=edition,
        teams=obj.get("teams", False),
        second_bottle=obj.get("second_bottle", False),
        singles=obj.get("singles", False),
        **end,
    )
    if obj.get("deck", rules.deck.name) != rules.deck.name:
        raise StoreError(f"deck {obj['deck']!r}: this server plays {rules.deck.name} here")
    return rules


# ------------------------------------------------------------------ reading


@dataclass
class StoredSeat:
    seat: int
    kind: str
    name: str
    token_sha256: str | None
    bot: str


@dataclass
class StoredTable:
    """One row of `tables` with its seats and actions: enough to rebuild the table."""

    table_id: str
    name: str
    rules: Rules
    seed: str
    chosen_seed: bool
    first_dealer: int | None
    password_salt: bytes | None
    password_hash: bytes | None
    stand_in_after: float
    stand_in_bot: str
    host_token_sha256: str
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


# -------------------------------------------------------------------- store


class Store:
    """One SQLite file.  `Store(path)` is the server's (it writes, and holds a lock so
    that a second server cannot write the same tables); `Store.reader(path)` is for
    `history` and tests: read-only, works while a server runs."""

    def __init__(self, path: str | os.PathLike[str], *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._lock_fd: int | None = None
        self._lock_created: Path | None = None
        self._checkpointer: ThreadPoolExecutor | None = None
        self._checkpoint_db: sqlite3.Connection | None = None
        self._commits = 0
        if readonly:
            if not self.path.is_file():
                raise StoreError(f"{self.path}: no such database")
            uri = self.path.resolve().as_uri() + "?mode=ro"
            self.db = self._connect(uri, uri=True)
            self._check_schema(create=False)
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self._lock()
            with contextlib.suppress(FileExistsError):
                # Owner-only from the start: the file holds the seeds, i.e. every deal.
                # (SQLite gives its -wal and -shm files the same permissions.)
                os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except OSError as exc:
            self.close()
            raise StoreError(f"{self.path}: {exc.strerror or exc}") from None
        self.db = self._connect(str(self.path))
        try:
            # The version first: a file that is not ours is left exactly as it was.
            self._check_schema(create=True)
            with self._transaction():
                mode = self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                self.db.execute("PRAGMA synchronous=NORMAL")
                # Checkpoints are ours to schedule, off the event loop (`_after_commit`).
                self.db.execute("PRAGMA wal_autocheckpoint=0")
                self.db.execute("PRAGMA foreign_keys=ON")
            if mode.lower() != "wal":
                raise StoreError(f"{self.path}: cannot use WAL mode (journal_mode={mode})")
        except BaseException:
            self.close()
            if self._lock_created is not None:  # leave a file that is not ours as we found it
                self._lock_created.unlink(missing_ok=True)
            raise
        self._checkpointer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cb-checkpoint")

    @classmethod
    def reader(cls, path: str | os.PathLike[str]) -> Store:
        return cls(path, readonly=True)

    def _connect(self, target: str, uri: bool = False) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(
                target, uri=uri, isolation_level=None, check_same_thread=False, timeout=5.0
            )
            db.execute("PRAGMA busy_timeout=5000")
            return db
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: {exc}") from None

    def _lock(self) -> None:
        """One server per database: two would both resume the same tables."""
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock, documented
            return
        lock_path = self.path.with_name(self.path.name + ".lock")
        created = not lock_path.exists()
        fd = os.open(lock_path, os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreError(
                f"{self.path}: another cursed-bottle server is using this database "
                "(stop it, or give this one its own --db)"
            ) from None
        self._lock_fd = fd
        self._lock_created = lock_path if created else None

    def _check_schema(self, create: bool) -> None:
        try:
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            app = self.db.execute("PRAGMA application_id").fetchone()[0]
            names = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a cursed-bottle database ({exc})") from None
        if version == 0 and app == 0 and not names:
            if not create:
                raise StoreError(f"{self.path}: an empty database (no server has written it)")
            with self._transaction():
                self.db.executescript(
                    "BEGIN;"
                    + _SCHEMA
                    + f"PRAGMA application_id={APPLICATION_ID};"
                    + f"PRAGMA user_version={SCHEMA_VERSION};"
                    + "COMMIT;"
                )
            log.debug("database %s created (schema version %d)", self.path, SCHEMA_VERSION)
            return
        if app != APPLICATION_ID:
            raise StoreError(f"{self.path}: not a cursed-bottle database")
        if version != SCHEMA_VERSION:
            newer = " (written by a newer cursed-bottle?)" if version > SCHEMA_VERSION else ""
            raise StoreError(
                f"{self.path}: database schema version {version}, this cursed-bottle "
                f"reads version {SCHEMA_VERSION} only{newer}"
            )

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """Turn every SQLite failure into a StoreError naming the file."""
        try:
            yield
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
            raise StoreError(f"{self.path}: {exc}") from None

    def _write(self, *statements: tuple[str, tuple]) -> None:
        """One transaction of a few statements, committed before returning."""
        if self.readonly:
            raise StoreError(f"{self.path}: opened read-only")
        with self._transaction():
            self.db.execute("BEGIN IMMEDIATE")
            for sql, params in statements:
                self.db.execute(sql, params)
            self.db.execute("COMMIT")
        self._after_commit()

    def _after_commit(self) -> None:
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0 and self._checkpointer is not None:
            self._checkpointer.submit(self._checkpoint, "PASSIVE")

    def _checkpoint(self, mode: str) -> None:
        """Copy the WAL back into the database (fsyncs): runs in the checkpoint thread."""
        try:
            if self._checkpoint_db is None:
                self._checkpoint_db = sqlite3.connect(
                    str(self.path), isolation_level=None, timeout=5.0
                )
            self._checkpoint_db.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        except sqlite3.Error as exc:
            log.warning("database %s: checkpoint failed: %s", self.path, exc)

    def close(self) -> None:
        """Checkpoint what is left and let go of the file and the lock."""
        if self._checkpointer is not None:
            self._checkpointer.submit(self._checkpoint, "TRUNCATE")
            self._checkpointer.submit(self._close_checkpoint_db)
            self._checkpointer.shutdown(wait=True)
            self._checkpointer = None
        with contextlib.suppress(sqlite3.Error, AttributeError):
            self.db.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _close_checkpoint_db(self) -> None:
        if self._checkpoint_db is not None:
            self._checkpoint_db.close()
            self._checkpoint_db = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------ the server writes

    def known(self, table_id: str) -> bool:
        """Whether a table id was ever used (ids must stay unique across restarts)."""
        with self._transaction():
            row = self.db.execute("SELECT 1 FROM tables WHERE table_id = ?", (table_id,))
            return row.fetchone() is not None

    def create_table(self, table: Table) -> None:
        rows = [
            (
                "INSERT INTO seats VALUES (?, ?, 'empty', '', NULL, '')",
                (table.table_id, seat.number),
            )
            for seat in table.seats
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
                    table._salt if table._password is not None else None,
                    table._password,
                    table.stand_in_after,
                    table.stand_in_bot,
                    table.host_token_hash,
                    time.time_ns(),
                ),
            ),
            *rows,
        )

    def save_seat(
        self, table_id: str, seat: int, kind: str, name: str, token_sha256: str | None, bot: str
    ) -> None:
        self._write(
            (
                "UPDATE seats SET kind = ?, name = ?, token_sha256 = ?, bot = ? "
                "WHERE table_id = ? AND seat = ?",
                (kind, name, token_sha256, bot, table_id, seat),
            )
        )

    def started(self, table_id: str, time_ns: int) -> None:
        self._write(
            (
                "UPDATE tables SET state = 'playing', started_ns = ? WHERE table_id = ?",
                (time_ns, table_id),
            )
        )

    def record_action(self, table: Table, hands_before: int, time_ns: int) -> None:
        """The table's last accepted action; with it, in the same transaction, the hand
        it finished (as a hand record) and the end of the game."""
        game = table.game
        assert game is not None
        n = len(game.actions) - 1
        statements = [
            (
                "INSERT INTO actions VALUES (?, ?, ?, ?)",
                (table.table_id, n, encode_action(game.actions[n]), time_ns),
            )
        ]
        if game.is_over or len(game.hands) > hands_before:
            hand = game.hands[hands_before - 1]
            full = table.hand_record(hands_before)
            assert full is not None
            names, seating = full.pop("names"), full.pop("seating")
            del full["table"], full["hand"]
            statements.append(
                (
                    "INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        table.table_id,
                        hand.number,
                        json.dumps(full),
                        json.dumps(names),
                        json.dumps(seating),
                        json.dumps(list(hand.scores())),
                        time_ns,
                    ),
                )
            )
        if game.is_over:
            statements.append(
                (
                    "UPDATE tables SET state = 'finished', finished_ns = ?, totals = ?, "
                    "winner = ? WHERE table_id = ?",
                    (time_ns, json.dumps(list(game.totals)), game.winner, table.table_id),
                )
            )
        self._write(*statements)

    # ---------------------------------------------------------------- reading

    def tables(self, state: str | None = None) -> list[StoredTable]:
        """Stored tables, oldest first (with their seats, without their actions)."""
        where, params = ("WHERE state = ?", (state,)) if state else ("", ())
        return self._tables(where, params)

    def table(self, table_id: str) -> StoredTable | None:
        """One stored table (with its seats, without its actions), or None."""
        found = self._tables("WHERE table_id = ?", (table_id,))
        return found[0] if found else None

    def _tables(self, where: str, params: tuple) -> list[StoredTable]:
        with self._transaction():
            cur = self.db.execute(
                "SELECT table_id, name, rules, seed, chosen_seed, first_dealer, password_salt, "
                "password_hash, stand_in_after, stand_in_bot, host_token_sha256, state, "
                "created_ns, started_ns, finished_ns, totals, winner, "
                "(SELECT count(*) FROM hands h WHERE h.table_id = t.table_id) "
                f"FROM tables t {where} ORDER BY created_ns, table_id",
                params,
            )
            out = []
            for row in cur.fetchall():
                table = StoredTable(
                    table_id=row[0],
                    name=row[1],
                    rules=rules_from_json(row[2]),
                    seed=row[3],
                    chosen_seed=bool(row[4]),
                    first_dealer=row[5],
                    password_salt=row[6],
                    password_hash=row[7],
                    stand_in_after=row[8],
                    stand_in_bot=row[9],
                    host_token_sha256=row[10],
                    state=row[11],
                    created_ns=row[12],
                    started_ns=row[13],
                    finished_ns=row[14],
                    totals=json.loads(row[15]) if row[15] else None,
                    winner=row[16],
                    hands_finished=row[17],
                )
                table.seats = [
                    StoredSeat(*r)
                    for r in self.db.execute(
                        "SELECT seat, kind, name, token_sha256, bot FROM seats "
                        "WHERE table_id = ? ORDER BY seat",
                        (table.table_id,),
                    )
                ]
                out.append(table)
            return out

    def actions(self, table_id: str, deck: Deck | None = None) -> list[tuple[Action, int]]:
        """The table's accepted actions with their times (`deck`: the table's, when
        the caller has its rules at hand already)."""
        if deck is None:
            stored = self.table(table_id)
            if stored is None:
                raise StoreError(f"{self.path}: no table {table_id}")
            deck = stored.rules.deck
        with self._transaction():
            rows = self.db.execute(
                "SELECT n, action, time_ns FROM actions WHERE table_id = ? ORDER BY n",
                (table_id,),
            ).fetchall()
        for i, (n, _, _) in enumerate(rows):
            if n != i:
                raise StoreError(f"{self.path}: table {table_id}: action {i} is missing")
        return [(decode_action(text, deck), t) for _, text, t in rows]

    def unfinished(self) -> list[StoredTable]:
        """Tables to resume: waiting or playing, with their actions."""
        out = [t for t in self.tables() if t.state != "finished"]
        for table in out:
            table.actions = self.actions(table.table_id, table.rules.deck)
        return out

    def hands(self, table_id: str | None = None) -> list[StoredHand]:
        """Finished hands (of one table, or all), in the order they were played."""
        with self._transaction():
            where, params = ("WHERE h.table_id = ?", (table_id,)) if table_id else ("", ())
            rows = self.db.execute(
                "SELECT h.table_id, number, record, names, seating, scores, h.finished_ns "
                f"FROM hands h JOIN tables t USING (table_id) {where} "
                "ORDER BY t.created_ns, h.table_id, number",
                params,
            ).fetchall()
        return [
            StoredHand(r[0], r[1], *(json.loads(x) for x in r[2:6]), finished_ns=r[6]) for r in rows
        ]

    def hand(self, table_id: str, number: int) -> StoredHand | None:
        """One finished hand, or None (not finished, or no such hand)."""
        with self._transaction():
            row = self.db.execute(
                "SELECT table_id, number, record, names, seating, scores, finished_ns "
                "FROM hands WHERE table_id = ? AND number = ?",
                (table_id, number),
            ).fetchone()
        if row is None:
            return None
        return StoredHand(row[0], row[1], *(json.loads(x) for x in row[2:6]), finished_ns=row[6])

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
                "SELECT t.name, h.table_id, number, record, names, seating, scores, "
                f"h.finished_ns FROM hands h JOIN tables t USING (table_id) WHERE {where} "
                "ORDER BY h.finished_ns DESC, h.table_id, number DESC LIMIT ?",
                (*params, limit),
            ).fetchall()
        return [
            (r[0], StoredHand(r[1], r[2], *(json.loads(x) for x in r[3:7]), finished_ns=r[7]))
            for r in rows
        ]

    def find_table(self, prefix: str) -> str:
        """The one table id that starts with `prefix` (ids are 8 hex digits; a few do)."""
        with self._transaction():
            rows = self.db.execute(
                "SELECT table_id FROM tables WHERE substr(table_id, 1, ?) = ?",
                (len(prefix), prefix),
            ).fetchall()
        if not rows:
            raise StoreError(f"no game {prefix!r} in {self.path}")
        if len(rows) > 1:
            ids = ", ".join(sorted(r[0] for r in rows))
            raise StoreError(f"{prefix!r} names several games ({ids}); give more of the id")
        return rows[0][0]


# ----------------------------------------------------------------- restoring


def restore(lobby: Lobby, store: Store) -> list[Table]:
    """Rebuild every unfinished table of the database into `lobby` and set it going.

    A game is rebuilt by replaying its actions through the engine; each event
    gets the time of the action that caused it.  Seats keep their token
    hashes: a client's token is recognised when it comes back (Lobby.seat).
    Bots are made again from the table's seed and start acting at once.
    """
    from cursedbottle.bots import make_bot
    from cursedbottle.engine.game import Game

    from .tables import SeatKind, State, Table, stable_seed

    restored = []
    for row in store.unfinished():
        try:
            table = Table(
                row.table_id,
                row.name,
                row.rules,
                lobby.runner,
                seed=row.seed,
                first_dealer=row.first_dealer,
                stand_in_after=row.stand_in_after,
                stand_in_bot=row.stand_in_bot,
                on_token=lobby._token_changed,
            )
            table.chosen_seed = row.chosen_seed
            if row.password_hash is not None:
                table._salt, table._password = row.password_salt, row.password_hash
            table.host_token_hash = row.host_token_sha256
            for saved in row.seats:
                seat = table.seats[saved.seat]
                seat.kind = SeatKind[saved.kind.upper()]
                seat.name = saved.name
                seat.token_hash = saved.token_sha256
                if seat.kind is SeatKind.BOT:
                    seat.bot_name = saved.bot
                    seat.bot = make_bot(saved.bot, seed=stable_seed(table.seed, "bot", seat.number))
            if row.state == "playing":
                game = Game(row.rules, row.seed, row.first_dealer)
                times = [row.started_ns or row.created_ns] * len(game.events)
                for action, time_ns in row.actions:
                    game.apply(action)
                    times.extend([time_ns] * (len(game.events) - len(times)))
                table.game, table.times = game, times
                table.state = State.PLAYING
        except Exception as exc:  # one broken table must not keep the others down
            log.error("table %s: cannot be restored: %s", row.table_id, exc)
            continue
        table.store = store
        lobby.tables[table.table_id] = table
        for seat in table.seats:
            if seat.token_hash:
                lobby.token_hashes[seat.token_hash] = table
        restored.append(table)
    for table in restored:
        table.resume()
    return restored
