"""The lobby: every table of the server, the tokens that open them, and the limits.

The lobby makes tables (within `Limits`), finds them by id and by token, lets
idle and finished ones go, and counts the open streams.  A seat token is
known in clear once its holder has used it; a restored table's tokens are
known by their sha256 until their holders come back (`adopt`).
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterator

from cursedbottle.engine.rules import Rules

from .credentials import PasswordHash, token_hash, token_is
from .errors import denied, exhausted, not_found, storage_failed, unauthenticated
from .limits import Limits
from .passwords import PasswordGate
from .runner import BotRunner
from .seats import State
from .store import Store
from .tables import Table

log = logging.getLogger("cursedbottle.server")


class Lobby:
    """Every table of the server and the tokens that open them."""

    def __init__(
        self,
        runner: BotRunner | None = None,
        store: Store | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.runner = runner or BotRunner()
        self.limits = limits or Limits()
        self.passwords = PasswordGate(self.limits)
        self.store = store
        #: Open streams by client address and by connection (see `open_stream`).
        self.streams: Counter[str] = Counter()
        self.tables: dict[str, Table] = {}
        #: seat tokens → their table (a token is for one seat of one table).
        self.tokens: dict[str, Table] = {}
        #: Tokens of restored tables, known by hash until their holder comes back.
        self.token_hashes: dict[str, Table] = {}
        self.closing: str | None = None
        #: A finished table from the database for a seat token of it (table id, token),
        #: or None: server/restore.py's `bring_back`, set where the store is opened.
        self.bring_back: Callable[[str, str], Table | None] | None = None

    def token_changed(self, token: str, table: Table | None) -> None:
        """A seat's token now opens `table` (None: it opens nothing any more)."""
        if table is None:
            self.tokens.pop(token, None)
        else:
            self.tokens[token] = table

    def create(
        self, name: str, rules: Rules, client: str = "", password: str = "", **options
    ) -> Table:
        """A new table, made by `client` (its address), within the limits."""
        limits = self.limits
        self.sweep()
        mine = sum(
            1 for t in self.tables.values() if t.creator == client and t.state is not State.FINISHED
        )
        if client and mine >= limits.max_tables_per_client:
            raise exhausted(
                "TOO_MANY_TABLES",
                f"you have made {mine} tables here that are not finished, the most one "
                f"client may have ({limits.max_tables_per_client}): play or leave one (an "
                f"unstarted table nobody is at goes away after "
                f"{limits.idle_table_seconds / 60:.0f} minutes)",
            )
        if len(self.tables) >= limits.max_tables:
            self._evict()
        if len(self.tables) >= limits.max_tables:
            raise exhausted(
                "TOO_MANY_TABLES",
                f"this server holds at most {limits.max_tables} tables, and none is free to go",
            )
        table_id = secrets.token_hex(4)
        while table_id in self.tables or (self.store and self.store.known(table_id)):
            table_id = secrets.token_hex(4)
        kept = PasswordHash.of(password) if password else None
        table = Table(
            table_id, name, rules, self.runner, password=kept, on_token=self.token_changed,
            **options,
        )
        table.creator = client
        if self.store is not None:
            try:
                self.store.create_table(table.row())
            except Exception as exc:
                raise storage_failed(exc) from None
            table.store = self.store
        self.tables[table_id] = table
        log.info("table %s created: %r, %s", table_id, name, rules.to_json())
        return table

    def _evict(self) -> None:
        """Forget finished tables nobody follows any more, oldest first, to make room."""
        for table_id, table in list(self.tables.items()):
            if table.state is State.FINISHED and not table.subscribers:
                self.forget(table)
                log.info("table %s forgotten (finished)", table_id)

    def sweep(self, now: float | None = None) -> None:
        """Let unstarted tables that nobody has been at for a while go (in the
        database too: they would fill the server again after a restart)."""
        now = time.monotonic() if now is None else now
        for table in list(self.tables.values()):
            if table.idle_for(now) >= self.limits.idle_table_seconds:
                if self.store is not None:
                    try:
                        self.store.close_unstarted(table.table_id, time.time_ns())
                    except Exception as exc:
                        log.error("database: %s", exc)
                        continue
                self.forget(table)
                log.info("table %s went away (not started, nobody at it)", table.table_id)

    def adopt(self, table: Table) -> None:
        """A table rebuilt from the database (server/restore.py) joins the lobby; its
        seats' tokens are known by their hashes until their holders come back."""
        self.tables[table.table_id] = table
        for seat in table.seats:
            if seat.token_hash:
                self.token_hashes[seat.token_hash] = table

    def forget(self, table: Table, reason: str = "the table is gone") -> None:
        """The table leaves the lobby: its streams end, its tokens open nothing."""
        table.close(reason)
        self.tables.pop(table.table_id, None)
        for seat in table.seats:
            if seat.token:
                self.tokens.pop(seat.token, None)
        for hashed in [h for h, t in self.token_hashes.items() if t is table]:
            del self.token_hashes[hashed]

    @contextlib.contextmanager
    def open_stream(self, client: str, connection: str) -> Iterator[None]:
        """Count a Subscribe/Watch stream against the limits while it is open."""
        limits = self.limits
        total = self.streams["*"]
        if total >= limits.max_streams:
            raise exhausted("TOO_MANY_STREAMS", f"the server has {total} streams open (at most "
                            f"{limits.max_streams}): try again later")
        keys = ("*", "client " + client, "connection " + connection)
        if self.streams[keys[1]] >= limits.max_streams_per_client:
            raise exhausted(
                "TOO_MANY_STREAMS",
                f"your address has {self.streams[keys[1]]} streams open, the most one client "
                f"may have ({limits.max_streams_per_client}): close some",
            )
        if self.streams[keys[2]] >= limits.max_streams_per_connection:
            raise exhausted(
                "TOO_MANY_STREAMS",
                f"this connection has {self.streams[keys[2]]} streams open, the most one "
                f"connection may have ({limits.max_streams_per_connection}): close some",
            )
        self.streams.update(keys)
        try:
            yield
        finally:
            self.streams.subtract(keys)
            for key in keys[1:]:
                if self.streams[key] <= 0:
                    del self.streams[key]

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise not_found(
                "NO_SUCH_TABLE", f"there is no table {table_id!r} (ListTables shows them)",
                table=table_id,
            )
        return table

    def seat(self, table_id: str, token: str) -> tuple[Table, int]:
        """The table and seat a seat token opens (a finished table the server no
        longer holds comes back for its players: `_bring_back`)."""
        if table_id not in self.tables and token:
            self._bring_back(table_id, token)
        table = self.table(table_id)
        owner = self.tokens.get(token)
        if owner is None and token and self.token_hashes:
            owner = self._adopt(token)
        if owner is None:
            if token_is(token, table.host_token_hash):
                raise denied("HOST_TOKEN", "the host token opens no seat: Join a seat first")
            raise unauthenticated("UNKNOWN_TOKEN", "unknown seat token: Join a seat to get one")
        if owner is not table:
            raise denied("OTHER_TABLE", f"this token is for another table, not {table_id}")
        for seat in table.seats:
            if seat.token is not None and hmac.compare_digest(seat.token, token):
                return table, seat.number
        raise unauthenticated("UNKNOWN_TOKEN", "unknown seat token: Join a seat to get one")

    def _bring_back(self, table_id: str, token: str) -> None:
        """A game that ended as the server died never told its players the end; the
        table comes back from the database for them, read-only, within `max_tables`."""
        if self.bring_back is None:
            return
        if len(self.tables) >= self.limits.max_tables:
            self._evict()
        if len(self.tables) >= self.limits.max_tables:
            raise exhausted(
                "TOO_MANY_TABLES",
                f"this server holds at most {self.limits.max_tables} tables, and none is "
                f"free to go, so the finished game at table {table_id} cannot be shown now: "
                "try again later (the host's `cursed-bottle history` has it)",
            )
        self.bring_back(table_id, token)

    def _adopt(self, token: str) -> Table | None:
        """A restored seat's token, recognised by its hash, becomes known in clear again."""
        hashed = token_hash(token)
        table = self.token_hashes.get(hashed)
        if table is None or self.tables.get(table.table_id) is not table:
            return None
        for seat in table.seats:
            if seat.token is None and seat.token_hash == hashed:
                del self.token_hashes[hashed]
                seat.token = token
                self.tokens[token] = table
                return table
        return None

    def controller(self, table_id: str, token: str) -> Table:
        """The table, if `token` is its host token or one of its seat tokens."""
        table = self.table(table_id)
        if token_is(token, table.host_token_hash):
            return table
        self.seat(table_id, token)
        return table

    def host(self, table_id: str, token: str) -> Table:
        """The table, if `token` is its host token; a seat token of it is refused (what
        only the host may do: stand-ins, giving an absent person's seat to a bot)."""
        table = self.table(table_id)
        if token_is(token, table.host_token_hash):
            return table
        self.seat(table_id, token)  # unknown or another table's: refused as such
        raise denied("HOST_ONLY", "only the table's host (the host token) may do that")

    def close_all(self, reason: str) -> None:
        self.closing = reason
        for table in self.tables.values():
            table.close(reason)
        self.passwords.shutdown()
