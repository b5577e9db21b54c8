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
import dataclasses
import json
import logging
import math
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cursedbottle.engine.actions import Action, ChooseOpen, PassCard, PileCard, Play
from cursedbottle.engine.cards import Deck
from cursedbottle.engine.records import HandRecord, RecordError, record_of
from cursedbottle.engine.rules import Rules, RulesError

if TYPE_CHECKING:
    from .tables import Lobby, Table

log = logging.getLogger("cursedbottle.server")

#: Bumped whenever the schema changes; a database of another version is refused.
SCHEMA_VERSION = 2
#: What turns a database of an older version into the current one (applied in order,
#: in one transaction, when a server opens it; readers do not write).
_MIGRATIONS = {
    # 2: a seat taken during a game is its holder's from a later hand (Seat.from_hand).
    1: "ALTER TABLE seats ADD COLUMN from_hand INTEGER NOT NULL DEFAULT 0;",
}
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
    from_hand INTEGER NOT NULL DEFAULT 0,
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


def default_db_path() -> Path:
    """Where `cursed-bottle serve` and `history` look without --db: the XDG data directory."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "cursed-bottle" / DB_NAME


# ------------------------------------------------- decoding what is stored
#
# SQLite keeps any value in any column, and a file can be edited by hand: every
# value read back is checked, so that a damaged row is named (`Damaged`) rather
# than failing later, somewhere else, for every table at once.


def _shown(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return "a blob"
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _text(value: object, column: str) -> str:
    if isinstance(value, str):
        return value
    raise Damaged(f"{column}: {_shown(value)}, not text")


def _whole(value: object, column: str) -> int:
    if type(value) is int:
        return value
    raise Damaged(f"{column}: {_shown(value)} is not a whole number")


def _maybe_whole(value: object, column: str) -> int | None:
    return None if value is None else _whole(value, column)


def _blob(value: object, column: str) -> bytes | None:
    if value is None or isinstance(value, bytes):
        return value
    raise Damaged(f"{column}: {_shown(value)}, not a blob")


def _seconds(value: object, column: str) -> float:
    if type(value) in (int, float) and math.isfinite(value) and value >= 0:
        return float(value)
    raise Damaged(f"{column}: {_shown(value)} is not a number of seconds")


def _loads(value: object, column: str | None) -> Any:
    """JSON text (`column`: the name the damage gives it, None for a whole action)."""
    said = f"{column}: " if column else ""
    if not isinstance(value, str):
        raise Damaged(f"{said}{_shown(value)}, not text")
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise Damaged(f"{said}not JSON ({exc.msg} at column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        raise Damaged(f"{said}not JSON ({exc})") from None


def _wholes(value: object, column: str, count: int | None = None) -> list[int]:
    if not isinstance(value, list) or any(type(x) is not int for x in value):
        raise Damaged(f"{column}: {_shown(value)} is not a list of whole numbers")
    if count is not None and len(value) != count:
        raise Damaged(f"{column}: {len(value)} numbers, expected {count}")
    return value


@contextlib.contextmanager
def _within(where: str) -> Iterator[None]:
    """Damage found inside `where` (an action, a seat, a hand) is said to be there."""
    try:
        yield
    except Damaged as exc:
        raise Damaged(f"{where}: {exc}", exc.hand) from None


# ------------------------------------------------------------------ actions

#: Per kind of stored action, what follows the kind: seats (int) and cards.
_ACTION_SHAPES: dict[str, tuple[str, ...]] = {
    "play": ("seat", "card"),
    "pile": ("seat", "card"),
    "pass": ("seat", "seat", "card"),
    "open": ("seat", "hand"),
}


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
    """A stored action; `Damaged` saying what is wrong when it is not one."""
    obj = _loads(text, None)
    kind = obj[0] if isinstance(obj, list) and obj else None
    shape = _ACTION_SHAPES.get(kind) if isinstance(kind, str) else None
    if shape is None:
        shown = _shown(kind if isinstance(obj, list) and obj else obj)
        raise Damaged(f"{shown} is not an action ({', '.join(_ACTION_SHAPES)})")
    args = obj[1:]
    numbers = [a for a, want in zip(args, shape, strict=False) if want != "card"]
    if len(args) != len(shape) or any(type(a) is not int for a in numbers):
        raise Damaged(f"{_shown(obj)} is not a {kind} action ([{', '.join((kind, *shape))}])")
    if shape[-1] == "card":
        try:
            card = deck.card(args[-1]) if isinstance(args[-1], str) else None
        except ValueError:
            card = None
        if card is None:
            raise Damaged(f"{_shown(args[-1])} is not a card of the {deck.name} deck")
    if kind == "play":
        return Play(args[0], card)
    if kind == "pile":
        return PileCard(args[0], card)
    if kind == "pass":
        return PassCard(args[0], args[1], card)
    return ChooseOpen(args[0], args[1])


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
    """The stored rule set; `Damaged` naming the field when this server cannot play it."""
    obj = _loads(text, "rules")
    try:
        hand_rules = Rules.from_json(obj)  # (it checks that `obj` is an object)
        hands = obj.get("hands")
        target = obj.get("target") if hands is None else None
        rules = dataclasses.replace(hand_rules, hands=hands, target=target)
    except RulesError as exc:
        raise Damaged(f"rules: {exc}") from None
    if obj.get("deck", rules.deck.name) != rules.deck.name:
        raise Damaged(f"rules: deck {_shown(obj['deck'])}: these rules play {rules.deck.name}")
    return rules


# ------------------------------------------------------------------ reading


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


_STATES = ("waiting", "playing", "finished")
_KINDS = ("empty", "human", "bot")
_TABLE_COLUMNS = (
    "table_id, name, rules, seed, chosen_seed, first_dealer, password_salt, password_hash, "
    "stand_in_after, stand_in_bot, host_token_sha256, state, created_ns, started_ns, "
    "finished_ns, totals, winner"
)
_HAND_COLUMNS = "h.table_id, number, record, names, seating, scores, h.finished_ns"


def _table_id(value: object) -> str:
    """A table's id as damage names it (even an id that is not text)."""
    return value if isinstance(value, str) else _shown(value)


def _decode_table(row: tuple, hands_finished: int, seat_rows: list[tuple]) -> StoredTable:
    """One `tables` row and its seats, every value checked (`Damaged` otherwise)."""
    (table_id, name, rules_text, seed, chosen, dealer, salt, password, after, bot, host) = row[:11]
    (state, created, started, finished, totals, winner) = row[11:]
    _text(table_id, "table_id")
    rules = rules_from_json(rules_text)
    if state not in _STATES:
        raise Damaged(f"state: {_shown(state)} is not waiting, playing or finished")
    first_dealer = _maybe_whole(dealer, "first_dealer")
    if first_dealer is not None and not 0 <= first_dealer < rules.players:
        raise Damaged(f"first_dealer: {first_dealer} is not a seat (0…{rules.players - 1})")
    salt, password = _blob(salt, "password_salt"), _blob(password, "password_hash")
    if (salt is None) != (password is None):
        raise Damaged(
            "password_hash: set without password_salt"
            if salt is None
            else "password_salt: set without password_hash"
        )
    if chosen not in (0, 1) or type(chosen) is not int:
        raise Damaged(f"chosen_seed: {_shown(chosen)} is not 0 or 1")
    if totals is not None:
        totals = _wholes(_loads(totals, "totals"), "totals", rules.players)
    winner = _maybe_whole(winner, "winner")
    if winner is not None and not 0 <= winner < rules.players:
        raise Damaged(f"winner: {winner} is not a seat (0…{rules.players - 1})")
    return StoredTable(
        table_id=table_id,
        name=_text(name, "name"),
        rules=rules,
        seed=_text(seed, "seed"),
        chosen_seed=bool(chosen),
        first_dealer=first_dealer,
        password_salt=salt,
        password_hash=password,
        stand_in_after=_seconds(after, "stand_in_after"),
        stand_in_bot=_text(bot, "stand_in_bot"),
        host_token_sha256=_text(host, "host_token_sha256"),
        state=state,
        created_ns=_whole(created, "created_ns"),
        started_ns=_maybe_whole(started, "started_ns"),
        finished_ns=_maybe_whole(finished, "finished_ns"),
        totals=totals,
        winner=winner,
        seats=_decode_seats(rules, seat_rows),
        hands_finished=hands_finished,
    )


def _decode_seats(rules: Rules, rows: list[tuple]) -> list[StoredSeat]:
    """A table's seat rows: each seat of the rules once, in order."""
    seats = []
    for seat, kind, name, token, bot, from_hand in rows:
        number = _whole(seat, "seat number")
        with _within(f"seat {number}"):
            if not 0 <= number < rules.players:
                raise Damaged(f"no such seat ({rules.players} players)")
            if kind not in _KINDS:
                raise Damaged(f"kind {_shown(kind)} is not empty, human or bot")
            if token is not None:
                _text(token, "token_sha256")
            start = _whole(from_hand, "from_hand")
            if start < 0:
                raise Damaged(f"from_hand {start} is not a hand")
            seats.append(
                StoredSeat(number, kind, _text(name, "name"), token, _text(bot, "bot"), start)
            )
    numbers = [s.seat for s in seats]
    for expected in range(rules.players):
        if expected not in numbers:
            raise Damaged(f"seat {expected} is missing")
    return seats


def _decode_hand(row: tuple, checked: bool) -> StoredHand:
    """One `hands` row, its `number` known to be a number; `checked`: its record was
    parsed before (a finished hand never changes, and parsing is the slow part)."""
    table_id, number, record, names, seating, scores, finished_ns = row
    obj = _loads(record, "record")
    seats = None
    if not checked:
        try:
            seats = HandRecord.from_json(obj).rules.seats
        except RecordError as exc:
            raise Damaged(f"record: {exc}") from None
    names = _loads(names, "names")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise Damaged(f"names: {_shown(names)} is not a list of names")
    if seats is not None and len(names) != seats:
        raise Damaged(f"names: {len(names)} names for the record's {seats} seats")
    seating = _loads(seating, "seating")
    if (
        not isinstance(seating, list)
        or len(seating) != len(names)
        or any(s is not None and type(s) is not int for s in seating)
    ):
        raise Damaged(f"seating: {_shown(seating)} is not a table seat (or null) per name")
    scores = _wholes(_loads(scores, "scores"), "scores", len(names))
    return StoredHand(
        table_id, number, obj, names, seating, scores, _whole(finished_ns, "finished_ns")
    )


# -------------------------------------------------------------------- store


def _log_damage(damage: Damage) -> None:
    log.error("%s", damage)


class Store:
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
        self.path = Path(path)
        self.readonly = readonly
        #: Told of each damaged table once (default: one line in the server's log).
        self.on_damage = on_damage or _log_damage
        #: What was found damaged, by (table, hand): those rows are skipped.
        self._damage: dict[tuple[str, int | None], Damage] = {}
        #: Tables whose own rows, and hands whose record, were found sound already.
        self._sound_tables: set[str] = set()
        self._sound_hands: set[tuple[str, int]] = set()
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
    def reader(
        cls, path: str | os.PathLike[str], on_damage: Callable[[Damage], None] | None = None
    ) -> Store:
        return cls(path, readonly=True, on_damage=on_damage)

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
            self._from_hand = "from_hand"
            return
        if app != APPLICATION_ID:
            raise StoreError(f"{self.path}: not a cursed-bottle database")
        if version in _MIGRATIONS and not self.readonly:
            with self._transaction():
                script = "".join(_MIGRATIONS[v] for v in range(version, SCHEMA_VERSION))
                self.db.executescript(
                    f"BEGIN;{script}PRAGMA user_version={SCHEMA_VERSION};COMMIT;"
                )
            log.info("database %s upgraded to schema version %d", self.path, SCHEMA_VERSION)
            version = SCHEMA_VERSION
        #: How a seat's `from_hand` is read (a reader may look at an older file).
        self._from_hand = "from_hand" if version >= 2 else "0"
        if version != SCHEMA_VERSION and not (self.readonly and version in _MIGRATIONS):
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
                "INSERT INTO seats (table_id, seat, kind, name, token_sha256, bot) "
                "VALUES (?, ?, 'empty', '', NULL, '')",
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
    #
    # A row that does not decode costs its table only: the table (or the one hand)
    # is skipped, `on_damage` hears of it once, and everything else is read.

    def damage_of(self, table_id: str, hand: int | None = None) -> Damage | None:
        """What was found wrong with a table (or one of its hands), if anything."""
        return self._damage.get((table_id, hand))

    def _report(self, damage: Damage) -> None:
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
                table = _decode_table(row[:-1], row[-1], seats[row[0]])
            except Damaged as exc:
                self._report(Damage(_table_id(row[0]), str(exc)))
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
                raise Damaged(f"action number {_shown(n)} is not a whole number")
        for i, (n, _, _) in enumerate(rows):
            if n != i:
                raise Damaged(
                    f"action {i} is missing" if n > i else f"action number {n} is out of order"
                )
        out = []
        for n, text, time_ns in rows:
            with _within(f"action {n}"):
                out.append((decode_action(text, deck), _whole(time_ns, "time_ns")))
        return out

    def unfinished(self) -> list[StoredTable]:
        """Tables to resume: waiting or playing, with their actions, and whose finished
        hands' rows decode; a damaged one is reported and left out."""
        out = []
        for table in self.tables():
            if table.state == "finished":
                continue
            try:
                table.actions = self._actions(table.table_id, table.rules.deck)
                table.hands = self._hands_of(table.table_id)
            except Damaged as exc:
                self._report(Damage(table.table_id, str(exc)))
                continue
            out.append(table)
        return out

    def _hands_of(self, table_id: str) -> list[StoredHand]:
        """Every finished hand of a table, numbered 1, 2, … (`Damaged` if one is not)."""
        with self._transaction():
            rows = self.db.execute(
                f"SELECT {_HAND_COLUMNS} FROM hands h WHERE h.table_id = ? ORDER BY number",
                (table_id,),
            ).fetchall()
        out = []
        for i, row in enumerate(rows, start=1):
            number = _whole(row[1], "hand number")
            if number != i:
                raise Damaged(
                    f"hand {i} is missing"
                    if number > i
                    else f"hand number {number} is out of order"
                )
            with _within(f"hand {number}"):
                out.append(_decode_hand(row, (table_id, number) in self._sound_hands))
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
                _whole(number, "hand number")
                hand = _decode_hand(row, key in self._sound_hands)
            except Damaged as exc:
                self._report(Damage(table_id, str(exc), hand=number))
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
            ids = ", ".join(sorted(map(_table_id, (r[0] for r in rows))))
            raise StoreError(f"{prefix!r} names several games ({ids}); give more of the id")
        table_id = rows[0][0]
        if not self._readable(table_id):
            raise DamagedTable(self._damage[(_table_id(table_id), None)])
        return table_id


# ----------------------------------------------------------------- restoring


def restore(lobby: Lobby, store: Store) -> list[Table]:
    """Rebuild every unfinished table of the database into `lobby` and set it going.

    A game is rebuilt by replaying its actions through the engine; each event
    gets the time of the action that caused it.  Seats keep their token
    hashes: a client's token is recognised when it comes back (Lobby.seat).
    Bots are made again from the table's seed and start acting at once.
    A table whose rows are damaged in any way is skipped, with one line in the
    log saying which and what is wrong; the others come back.
    """
    restored = []
    for row in store.unfinished():
        try:
            table = _rebuild(lobby, row)
        except Damaged as exc:
            store._report(Damage(row.table_id, str(exc)))
            if exc.hand is not None:  # nor is that hand shown (ListHands, ReviewHand)
                what = str(exc).removeprefix(f"hand {exc.hand}: ")
                store._report(Damage(row.table_id, what, exc.hand))
            continue
        except Exception as exc:  # what the checks did not foresee: still this table only
            store._report(Damage(row.table_id, f"cannot be rebuilt: {exc!r}"))
            continue
        table.store = store
        lobby.tables[table.table_id] = table
        for seat in table.seats:
            if seat.token_hash:
                lobby.token_hashes[seat.token_hash] = table
        restored.append(table)
    going = []
    for table in restored:
        try:
            table.resume()
        except Exception as exc:
            store._report(Damage(table.table_id, f"cannot go on: {exc!r}"))
            _forget(lobby, table)
            continue
        going.append(table)
    return going


def _rebuild(lobby: Lobby, row: StoredTable) -> Table:
    """The table of a stored row; `Damaged` when the rows do not make a table the
    server can run (an unknown bot, an action the engine refuses, hands that do not
    agree with the actions …)."""
    from cursedbottle.engine.game import Game

    from .tables import SeatKind, State, Table, stable_seed

    with _within("stand_in_bot"):
        _bot(row.stand_in_bot, 0)
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
        seat.from_hand = saved.from_hand if seat.kind is SeatKind.HUMAN else 0
        if seat.kind is SeatKind.BOT:
            seat.bot_name = saved.bot
            with _within(f"seat {seat.number}"):
                seat.bot = _bot(saved.bot, stable_seed(table.seed, "bot", seat.number))
    finished = 0
    if row.state == "waiting" and row.actions:
        raise Damaged(f"waiting to start, yet {len(row.actions)} actions are stored")
    if row.state == "playing":
        game = Game(row.rules, row.seed, row.first_dealer)
        times = [row.started_ns or row.created_ns] * len(game.events)
        acted: dict[int, int] = {}  # player → the log's length after its last action
        for n, (action, time_ns) in enumerate(row.actions):
            try:
                mover = game.player_at(action.seat)
                game.apply(action)
            except Exception as exc:  # IllegalAction, or a seat the game does not have
                raise Damaged(f"action {n}: the engine refuses it: {exc}") from None
            times.extend([time_ns] * (len(game.events) - len(times)))
            if mover is not None:
                acted[mover] = len(game.events)
        table.restore_turns(acted)
        if game.is_over:
            raise Damaged(f"still playing, yet its {len(row.actions)} actions end the game")
        finished = len(game.hands) - 1
        table.game, table.times = game, times
        table.state = State.PLAYING
    stored = len(row.hands)
    if stored != finished:
        plural = "" if finished == 1 else "s"
        raise Damaged(
            f"hand {stored + 1} is missing (the actions finish {finished} hand{plural})"
            if stored < finished
            else f"hand {finished + 1} is stored, yet the actions finish {finished} hand{plural}"
        )
    for hand in row.hands:
        try:
            _check_hand(hand, table.game.hands[hand.number - 1])
        except Damaged as exc:
            raise Damaged(f"hand {hand.number}: {exc}", hand.number) from None
    return table


def _check_hand(stored: StoredHand, played) -> None:
    """A stored hand is the hand the actions play (its record is what `history`,
    `ListHands` and `ReviewHand` read once the game is over)."""
    record, again = HandRecord.from_json(stored.record), record_of(played)
    fields = ("dealer", "deal", "pile", "passes", "plays", "lopaka", "open_hand")
    for name in fields:
        if getattr(record, name) != getattr(again, name):
            raise Damaged(f"record: {name} differs from what the actions played")
    if stored.scores != list(played.scores()):
        raise Damaged(f"scores: {stored.scores}, the actions score {list(played.scores())}")


def _bot(name: str, seed: int):
    """A stored bot, if this server would take it today (AddBot's checks)."""
    from cursedbottle.bots import make_bot

    from .errors import ServiceError
    from .runner import check_bot_effort

    try:
        check_bot_effort(name)  # a `strong:inf` stored before the limit stays out
        return make_bot(name, seed=seed)
    except ServiceError as exc:
        raise Damaged(exc.message) from None
    except ValueError as exc:
        raise Damaged(str(exc)) from None


def _forget(lobby: Lobby, table: Table) -> None:
    """A restored table that could not go on leaves the lobby again."""
    table.close("the server could not resume this table")
    lobby.tables.pop(table.table_id, None)
    for hashed in [h for h, t in lobby.token_hashes.items() if t is table]:
        del lobby.token_hashes[hashed]
