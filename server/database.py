"""The SQLite file under the store: its schema, one server per file, WAL, checkpoints.

Why SQLite in WAL mode with synchronous=NORMAL: a commit is then a `write()`
into the WAL file, no fsync, typically well under a millisecond, which is
cheap enough to do on the event loop in the request path (measured: see
docs/storage.md).  It survives a killed process (the data is in the OS's page
cache); only a power cut can lose the last few commits.  The expensive part,
copying the WAL back into the database with fsyncs (a checkpoint), runs in a
thread of its own on its own connection, never on the event loop.

The file is created readable by its owner only (it holds the seeds, i.e.
every deal), and a lock file keeps a second server from writing it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Self

from .rows import StoreError

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


class Database:
    """One SQLite file, opened for writing (with the lock) or read-only."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        readonly: bool = False,
    ) -> None:
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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
