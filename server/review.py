"""Finished hands for `ListHands` and `ReviewHand`: where they come from, who may read
them, and the review (the solver's, `cursedbottle.solver.review`) as a `HandReview`.

A finished hand comes from a live table (`Table.hand_record`) or, for a game
that is no longer live (finished before a restart, or forgotten to make room),
from the database (`Store.hand`).  Only hands that are over exist here: the
hand being played is never shown (its deal is the secret the whole protocol
keeps).  A table with a password is read with its password or one of its
tokens, as for `Watch`.

A review solves every position of the hand from its first valued trick on,
under `maxn` and beside it `paranoid` (`build_review`: the first tricks, too
slow under `maxn`, are not valued), which takes up to seconds, so it runs in
a review thread (`BotRunner`),
never on the event loop; a finished hand never changes, so each review is
computed once per (table, hand, from_trick) and kept (a cache bounded by
count and by bytes).  Several requests for the same review wait for the same
computation; once all of them have gone (their clients cancelled or timed
out) the computation is cancelled (its search stops within 65,536 nodes), and
one client (an address) may have at most MAX_REVIEWS_PER_CLIENT requests
waiting at a time.  The review threads serve clients in turn (`FairPool`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from cursedbottle.engine.events import HandEnded
from cursedbottle.engine.records import HandRecord, RecordError
from cursedbottle.solver.review import build_review
from cursedbottle.v1 import table_pb2

from .credentials import PasswordHash, password_opens, token_hash, token_opens
from .errors import denied, exhausted, invalid, not_found, precondition
from .lobby import Lobby
from .review_msgs import FinishedHand, review_msg, summary_msg
from .rows import StoredHand, StoredTable
from .runner import SOLVER_THREADS, Job
from .tables import Table

log = logging.getLogger("cursedbottle.server")

#: Hands ListHands returns when the request does not say (at most MAX_LIST).
DEFAULT_LIST = 100
MAX_LIST = 1000
#: Reviews kept (each is a few kilobytes), and at most this many bytes of them.
CACHE_SIZE = 256
CACHE_BYTES = 16 << 20
#: ReviewHand requests of one client (address) waiting at once.
MAX_REVIEWS_PER_CLIENT = 2
#: Hand summaries kept (a few hundred bytes each); the cache starts afresh beyond.
SUMMARY_CACHE_SIZE = 20_000


def _summary_or_none(hand: FinishedHand) -> table_pb2.HandSummary | None:
    """A hand's summary; None (and a log line) for a stored record that decodes but
    does not replay: one damaged hand must not take the list down for everyone."""
    try:
        return summary_msg(hand)
    except RecordError as exc:
        log.error("table %s: hand %d skipped: record: %s", hand.table_id, hand.number, exc)
        return None


def compute_review(hand: FinishedHand, from_trick: int) -> table_pb2.HandReview:
    """The review of a finished hand (runs in a review thread: it solves every card)."""
    try:
        record = HandRecord.from_json(hand.record)
        summary = summary_msg(hand)
    except RecordError as exc:  # a stored record that decodes yet does not replay
        log.error("table %s: hand %d cannot be reviewed: record: %s", hand.table_id,
                  hand.number, exc)
        raise not_found(
            "NO_SUCH_HAND", f"hand {hand.number} of table {hand.table_id} is damaged in the "
            "server's database"
        ) from None
    review = build_review(record, from_trick, names=list(summary.names), threads=SOLVER_THREADS)
    return review_msg(review, summary, record)


@dataclass(eq=False)
class _Review:
    """A review computed or being computed, and how many requests wait for it."""

    job: Job
    waiters: int = 0
    #: Its size once computed (bytes of the message), for the cache's bound.
    size: int = field(default=0)


class Reviews:
    """The finished hands a server can show, and the reviews it computed."""

    def __init__(
        self, lobby: Lobby, cache_size: int = CACHE_SIZE, cache_bytes: int = CACHE_BYTES
    ) -> None:
        self.lobby = lobby
        self.cache_size = cache_size
        self.cache_bytes = cache_bytes
        self._cached_bytes = 0
        #: Client → its ReviewHand requests waiting now.
        self._callers: dict[str, int] = {}
        #: (table, hand) → its summary: a finished hand never changes.
        self._summaries: dict[tuple[str, int], table_pb2.HandSummary] = {}
        #: A live table's id → (events scanned, hand number → when it ended).
        self._hand_ends: dict[str, tuple[int, dict[int, int]]] = {}
        #: (table, hand, from_trick) → the review, computed or being computed.
        self._reviews: OrderedDict[tuple[str, int, int], _Review] = OrderedDict()
        #: Reviews sent to a review thread since the server started (a request
        #: answered from the cache adds nothing).
        self.computed = 0

    # ------------------------------------------------------------- finding

    async def _source(
        self, table_id: str, password: str, token: str, client: str
    ) -> Table | StoredTable:
        """The live table, else the stored one; NOT_FOUND, or PERMISSION_DENIED.  A
        password goes through the lobby's `PasswordGate` (off the loop, braked)."""
        table = self.lobby.tables.get(table_id)
        if table is not None:
            if not table.readable_by_token(token):
                await self._password(client, table_id, password, table.password_matches)
            return table
        store = self.lobby.store
        row = store.table(table_id) if store is not None else None
        if row is None:
            raise not_found(
                "NO_SUCH_TABLE", f"there is no table {table_id!r} (ListTables shows them)",
                table=table_id,
            )
        hashes = [row.host_token_sha256, *(s.token_sha256 for s in row.seats)]
        if not token_opens(token, row.password_hash, hashes):
            kept = PasswordHash.stored(row.password_salt, row.password_hash)
            await self._password(client, table_id, password, lambda p: password_opens(p, kept))
        return row

    async def _password(
        self, client: str, table_id: str, password: str, matches: Callable[[str], bool]
    ) -> None:
        refusal = denied(
            "WRONG_PASSWORD", f"table {table_id}: wrong password (or give a token of this table)"
        )
        if not password:
            raise refusal  # no guess: nothing to compute
        if not await self.lobby.passwords.check(client, lambda: matches(password)):
            raise refusal

    def _live_hand(self, table: Table, number: int) -> FinishedHand | None:
        record = table.hand_record(number)
        if record is None:
            return None
        return FinishedHand(
            table.table_id, table.name, number, record, self._ends(table).get(number, 0)
        )

    def _ends(self, table: Table) -> dict[int, int]:
        """When each finished hand of a live table ended (its HandEnded event's time),
        read from the log once: only the events added since the last call are scanned."""
        game = table.game
        if game is None:
            return {}
        scanned, ends = self._hand_ends.get(table.table_id, (0, {}))
        if scanned > len(game.events):  # (a log never shrinks; be safe all the same)
            scanned, ends = 0, {}
        for seq in range(scanned, len(game.events)):
            event = game.events[seq]
            if isinstance(event, HandEnded):
                ends[event.number] = table.times[seq] if seq < len(table.times) else 0
        self._hand_ends[table.table_id] = (len(game.events), ends)
        return ends

    async def _summaries_of(
        self, hands: list[tuple[tuple[str, int], Callable[[], FinishedHand]]]
    ) -> list[table_pb2.HandSummary]:
        """The summaries of `hands` (key, how to get the hand), cached; those not seen
        before are made in a thread (each replays its hand)."""
        known = {key: self._summaries[key] for key, _ in hands if key in self._summaries}
        missing = [(key, get()) for key, get in hands if key not in known]
        if missing:
            made = await asyncio.to_thread(lambda: [_summary_or_none(h) for _, h in missing])
            if len(self._summaries) + len(made) > SUMMARY_CACHE_SIZE:
                self._summaries.clear()
            for (key, _), summary in zip(missing, made, strict=True):
                if summary is not None:
                    self._summaries[key] = known[key] = summary
        return [known[key] for key, _ in hands if key in known]

    # --------------------------------------------------------------- calls

    async def list_hands(
        self, table_id: str, password: str, token: str, limit: int, client: str = ""
    ) -> table_pb2.ListHandsResponse:
        """Finished hands, newest first: of one table (which the request may read), or
        of every table without a password and of the tables `token` opens."""
        limit = min(limit or DEFAULT_LIST, MAX_LIST)
        store = self.lobby.store
        live: list[Table] = []
        stored: list[tuple[str, StoredHand]] = []
        if table_id:
            source = await self._source(table_id, password, token, client)
            if isinstance(source, Table):
                live.append(source)
            else:
                stored = store.recent_hands(limit, table_id=table_id)
        else:
            for gone in self._hand_ends.keys() - self.lobby.tables.keys():
                del self._hand_ends[gone]
            # A password opens one named table only (it is slow to check).
            live.extend(t for t in self.lobby.tables.values() if t.readable_by_token(token))
            if store is not None:
                hashed = token_hash(token) if token else None
                stored = [
                    (name, h)
                    for name, h in store.recent_hands(limit, token_sha256=hashed)
                    if h.table_id not in self.lobby.tables
                ]
        # (finished_ns, table, hand) → how to get it; the newest `limit` are made.
        found: dict[tuple[int, str, int], Callable[[], FinishedHand]] = {}
        for table in live:
            ends = self._ends(table)
            for number in range(1, table.hands_finished + 1):
                found[(ends.get(number, 0), table.table_id, number)] = (
                    lambda table=table, number=number: self._live_hand(table, number)
                )
        for name, h in stored:
            found[(h.finished_ns, h.table_id, h.number)] = lambda name=name, h=h: FinishedHand(
                h.table_id, name, h.number, h.export(), h.finished_ns
            )
        newest = sorted(found, key=lambda k: (-k[0], k[1], -k[2]))[:limit]
        out = table_pb2.ListHandsResponse()
        out.hands.extend(await self._summaries_of([((k[1], k[2]), found[k]) for k in newest]))
        return out

    async def finished_hand(
        self,
        table_id: str,
        number: int,
        password: str,
        token: str,
        from_trick: int,
        client: str = "",
    ) -> tuple[FinishedHand, int]:
        """The hand to review and the first trick to value; refusals before any work."""
        if number < 1:
            raise invalid(
                "MALFORMED", "hand: which hand? (hands count from 1; ListHands shows them)"
            )
        source = await self._source(table_id, password, token, client)
        tricks = source.rules.tricks
        first = from_trick or 1
        if first > tricks:
            raise invalid(
                "MALFORMED", f"from_trick: {from_trick} is not a trick of this hand (1…{tricks})"
            )
        if isinstance(source, Table):
            hand = self._live_hand(source, number)
            if hand is not None:
                return hand, first
            finished = source.hands_finished
            game = source.game
            if game is not None and not game.is_over and number == len(game.hands):
                raise precondition(
                    "HAND_NOT_OVER",
                    f"hand {number} is still being played: it can be reviewed once it is over",
                )
        else:
            stored = self.lobby.store.hand(table_id, number)
            if stored is not None:
                return FinishedHand(
                    table_id, source.name, number, stored.export(), stored.finished_ns
                ), first
            finished = source.hands_finished
        over = f"hands 1…{finished} are over" if finished else "no hand is over yet"
        raise not_found("NO_SUCH_HAND", f"table {table_id} has no hand {number} ({over})")

    async def review(
        self, hand: FinishedHand, from_trick: int, client: str = ""
    ) -> table_pb2.HandReview:
        """The review, computed in a review thread or from the cache; cancelled
        once no request waits for it any more."""
        if self._callers.get(client, 0) >= MAX_REVIEWS_PER_CLIENT:
            raise exhausted(
                "TOO_MANY_REVIEWS",
                f"at most {MAX_REVIEWS_PER_CLIENT} reviews at a time from one address"
                f" ({client or 'unknown'}): wait for one to finish",
            )
        key = (hand.table_id, hand.number, from_trick)
        entry = self._reviews.get(key)
        if entry is None:
            job = self.lobby.runner.reviews.submit(client, compute_review, hand, from_trick)
            self.computed += 1
            entry = _Review(job)
            job.future.add_done_callback(lambda f, key=key, entry=entry: self._settled(key, entry))
            self._reviews[key] = entry
            self._trim()
        else:
            self._reviews.move_to_end(key)
        entry.waiters += 1
        self._callers[client] = self._callers.get(client, 0) + 1
        try:
            # One caller going away does not cancel the review others wait for.
            return await asyncio.shield(entry.job.future)
        finally:
            entry.waiters -= 1
            left = self._callers[client] - 1
            if left:
                self._callers[client] = left
            else:
                del self._callers[client]
            if entry.waiters == 0 and not entry.job.future.done():
                log.info(
                    "review of table %s hand %d cancelled: nobody waits for it",
                    hand.table_id,
                    hand.number,
                )
                entry.job.cancel()

    def _settled(self, key: tuple[str, int, int], entry: _Review) -> None:
        """A failed or cancelled review is not kept: the next request tries again."""
        future = entry.job.future
        if self._reviews.get(key) is not entry:
            return
        if future.cancelled() or future.exception() is not None:
            del self._reviews[key]
            return
        entry.size = future.result().ByteSize()
        self._cached_bytes += entry.size
        self._trim()

    def _trim(self) -> None:
        """Forget the least recently asked reviews beyond the cache's bounds."""
        while self._reviews and (
            len(self._reviews) > self.cache_size or self._cached_bytes > self.cache_bytes
        ):
            _, oldest = self._reviews.popitem(last=False)
            self._cached_bytes -= oldest.size
