"""Tables: one engine game each, its seats, its bots and its subscribers.

Everything here runs on the server's event loop, so a table's state changes
one step at a time without locks.  Bots think in worker threads on a copy of
their seat's view (an immutable `SeatView`) and hand an action back to the
loop, so a bot that thinks for seconds delays no other table and no client.

Subscribers never receive pushed events.  A table only *wakes* them (one
pending wake-up each, so nothing piles up per subscriber); every stream then
reads the events it has not sent yet from the game's log, at its own pace,
through the engine's secrecy filter.  A slow or dead client therefore costs
the table nothing, and a client that comes back can resume from any sequence
number because the log is the buffer.

A table speaks engine values only: what the wire shows of it is
server/table_msgs.py, its bots think in server/bot_turns.py and its stand-ins
in server/stand_ins.py; the database sees it as rows (server/rows.py), and a
table rebuilt after a restart is put together by server/restore.py.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterator

from cursedbottle.bots import Bot, make_bot
from cursedbottle.engine.actions import Action
from cursedbottle.engine.errors import IllegalAction
from cursedbottle.engine.events import Event
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Rules
from cursedbottle.engine.view import SeatView, observe

from .bot_turns import BotTurns
from .credentials import PasswordHash, new_token, token_hash, token_opens
from .errors import ENGINE_RULES, ServiceError, denied, invalid, precondition, storage_failed
from .host_choices import HostChoices
from .names import check_player_name, default_name
from .refusal_facts import engine_facts
from .rows import ActionRow, StoredHand, StoredSeat, TableRow
from .runner import BotRunner
from .seating import current_map
from .seats import Seat, SeatKind, State, Subscriber
from .stand_ins import StandIns, bot_seed
from .store import Store

log = logging.getLogger("cursedbottle.server")


class Table(HostChoices):
    """One engine game, its seats and its streams (see the module's docstring)."""

    def __init__(
        self,
        table_id: str,
        name: str,
        rules: Rules,
        runner: BotRunner,
        password: PasswordHash | None = None,
        seed: str | None = None,
        first_dealer: int | None = None,
        stand_in_after: float = 0.0,
        stand_in_bot: str = "random",
        on_token: Callable[[str, Table | None], None] | None = None,
        host_token_hash: str | None = None,
        chosen_seed: bool | None = None,
    ) -> None:
        """A new table (`host_token_hash`, `chosen_seed`: a restored one's, whose host
        token is known by its hash only)."""
        self.table_id = table_id
        self.name = name
        self.rules = rules
        self.password = password
        self.chosen_seed = seed is not None if chosen_seed is None else chosen_seed
        self.seed = seed if seed is not None else secrets.token_hex(16)
        self.first_dealer = first_dealer
        self.stand_in_after = stand_in_after
        self.stand_in_bot = stand_in_bot
        #: The host token in clear (None for a restored table: it was shown once).
        self.host_token = None if host_token_hash else new_token()
        self.host_token_hash = host_token_hash or token_hash(self.host_token)
        #: Where the table is kept (None: in memory only); written before acknowledging.
        self.store: Store | None = None
        self._on_token = on_token or (lambda token, table: None)
        self.seats = [Seat(p) for p in range(rules.players)]
        self.state = State.WAITING
        self.game: Game | None = None
        #: Per event of the game's log: when it was logged (ns since the epoch).
        self.times: list[int] = []
        self.subscribers: set[Subscriber] = set()
        #: Bumped on every change of TableInfo, so streams know to resend it.
        self.info_version = 0
        #: When TableInfo last changed or a stream left (time.monotonic).
        self.last_change = time.monotonic()
        #: The address of the client that created the table ("" if restored).
        self.creator = ""
        self.bots = BotTurns(
            table_id, runner, self.seats, lambda: self.game, self._apply, lambda: self.creator
        )
        #: Per player: the log's length after its last action (stale acts are refused).
        self._acted: dict[int, int] = {}
        self.stand_ins = StandIns(
            table_id,
            self.seed,
            stand_in_bot,
            stand_in_after,
            playing=lambda: self.state is State.PLAYING,
            arrive=self._start_stand_in,
        )

    @classmethod
    def from_row(
        cls,
        row: TableRow,
        runner: BotRunner,
        on_token: Callable[[str, Table | None], None] | None = None,
    ) -> Table:
        """A table as the database kept it (the other way round from `row`); its seats
        and its game are restored after (`restore_seat`, `restore_game`)."""
        return cls(
            row.table_id,
            row.name,
            row.rules,
            runner,
            password=PasswordHash.stored(row.password_salt, row.password_hash),
            seed=row.seed,
            first_dealer=row.first_dealer,
            stand_in_after=row.stand_in_after,
            stand_in_bot=row.stand_in_bot,
            on_token=on_token,
            host_token_hash=row.host_token_sha256,
            chosen_seed=row.chosen_seed,
        )

    def row(self) -> TableRow:
        """The table as the database keeps it when it is made."""
        kept = self.password
        return TableRow(
            table_id=self.table_id,
            name=self.name,
            rules=self.rules,
            seed=self.seed,
            chosen_seed=self.chosen_seed,
            first_dealer=self.first_dealer,
            password_salt=kept.salt if kept else None,
            password_hash=kept.digest if kept else None,
            stand_in_after=self.stand_in_after,
            stand_in_bot=self.stand_in_bot,
            host_token_sha256=self.host_token_hash,
        )

    # ---------------------------------------------------------------- reading

    @property
    def sequence(self) -> int:
        return len(self.game.events) if self.game else 0

    @property
    def spectators(self) -> int:
        return sum(1 for s in self.subscribers if s.player is None)

    @property
    def has_password(self) -> bool:
        return self.password is not None

    def password_matches(self, password: str) -> bool:
        """The slow comparison (PBKDF2): call it off the event loop (`PasswordGate`)."""
        return self.password is None or self.password.matches(password)

    def idle_for(self, now: float) -> float:
        """Seconds an unstarted table has had nobody at it (0 while anyone is, or once
        it has started): such a table goes away after `Limits.idle_table_seconds`."""
        if self.state is not State.WAITING or self.subscribers:
            return 0.0
        return now - self.last_change

    def readable_by_token(self, token: str) -> bool:
        """Whether the table's finished hands may be read without its password: it has
        none, or `token` is one of its tokens (host or seat)."""
        hashes = [self.host_token_hash, *(seat.token_hash for seat in self.seats)]
        return token_opens(token, self.password, hashes)

    def holds(self, player: int) -> bool:
        """Whether the seat's holder plays and sees it now (not while waiting for the
        hand that makes a seat taken mid-game theirs)."""
        return self.game is None or not self.seats[player].waits(len(self.game.hands))

    def check_holds(self, player: int) -> None:
        """Refuse what only the seat's holder may do (act, ask a hint) while it waits."""
        seat = self.seats[player]
        if not self.holds(player):
            taken = seat.from_hand - 1
            raise precondition(
                "NEXT_HAND",
                f"you took seat {player} during hand {taken}: a bot plays it to the end of "
                f"that hand, and it is yours from hand {seat.from_hand} on",
            )

    def public_view(self) -> SeatView:
        """What lies face up now: a spectator's view (or a seat's while it waits)."""
        game = self.game
        return observe(game.hand, None, tuple(game.totals), game.seatings[-1])

    def events(
        self, player: int | None, start: int, end: int
    ) -> Iterator[tuple[int, Event, bool]]:
        """The log's events [start, end) as `player` may see them (None: a spectator):
        (sequence, event, whether it is as a spectator sees it).

        A seat taken mid-game sees the hands before its own as a spectator does."""
        game = self.game
        if game is None:
            return
        limit = self.seats[player].from_hand if player is not None else 0
        if limit and start < end and game.hand_of_event(start) < limit:
            split = start
            while split < end and game.hand_of_event(split) < limit:
                split += 1
            yield from self._events(None, start, split)
            start = split
        yield from self._events(player, start, end)

    def _events(
        self, player: int | None, start: int, end: int
    ) -> Iterator[tuple[int, Event, bool]]:
        if start >= end:
            return
        for seq, event in self.game.events_for(player, start):
            if seq >= end:
                return
            yield seq, event, player is None

    # ------------------------------------------------------------------ seats

    def _seat(self, number: int | None, want_empty: bool) -> Seat:
        if number is None:
            for seat in self.seats:
                if seat.kind is SeatKind.EMPTY:
                    return seat
            raise precondition("TABLE_FULL", f"table {self.table_id} has no empty seat")
        if not 0 <= number < len(self.seats):
            last = len(self.seats) - 1
            raise invalid("NO_SUCH_SEAT", f"seat {number}: this table's seats are 0…{last}")
        seat = self.seats[number]
        if want_empty and seat.kind is not SeatKind.EMPTY:
            who = seat.name or seat.bot_name
            raise precondition("SEAT_TAKEN", f"seat {number} is taken by {who}; pick an empty one",
                               seat=number, holder=who)
        return seat

    def join(self, name: str, number: int | None) -> tuple[int, str]:
        """Seat a person (the password, if any, was checked by the caller)."""
        if self.state is State.FINISHED:
            raise precondition("GAME_OVER", f"the game at table {self.table_id} is over")
        seat = self._seat(number, want_empty=True)
        others = [s.name for s in self.seats if s is not seat]
        check_player_name(name, others)
        name = name or default_name(seat.number, others)
        token = new_token()
        # A seat taken during a game is the holder's from the next hand (`_take_over`).
        from_hand = len(self.game.hands) + 1 if self.state is State.PLAYING else 0
        self._save_seat(seat.number, SeatKind.HUMAN, name, token_hash(token), from_hand=from_hand)
        seat.kind, seat.name = SeatKind.HUMAN, name
        seat.token, seat.token_hash = token, token_hash(token)
        seat.bot, seat.bot_name = None, ""
        self._on_token(seat.token, self)
        log.info("table %s: %s joins seat %d", self.table_id, seat.name, seat.number)
        seat.from_hand = from_hand
        if self.state is State.PLAYING:
            self._take_over(seat)
        self._changed()
        return seat.number, seat.token

    def _take_over(self, seat: Seat) -> None:
        """A seat joined during a game: its cards of the hand under way were someone
        else's, so a bot plays that hand out and the holder's hand is the next one."""
        if seat.stand_in is None:
            seat.stand_in = self.stand_ins.make(seat)
        log.info("table %s: seat %d is %s's from hand %d",
                 self.table_id, seat.number, seat.name, seat.from_hand)
        self.bots.drive()

    def _hand_started(self, number: int) -> None:
        """Seats taken during the last hand become their holders'."""
        for seat in self.seats:
            if seat.kind is SeatKind.HUMAN and seat.from_hand == number:
                self._end_stand_in(seat)
                self.stand_ins.watch(seat)
                self._changed()

    def leave(self, player: int) -> None:
        seat = self.seats[player]
        token = seat.token
        self._save_seat(player, SeatKind.EMPTY, "")
        log.info("table %s: %s leaves seat %d", self.table_id, seat.name, player)
        seat.kind, seat.name, seat.token, seat.streams = SeatKind.EMPTY, "", None, 0
        seat.token_hash, seat.from_hand = None, 0
        if token:
            self._on_token(token, None)
        for sub in list(self.subscribers):
            if sub.token == token:
                sub.close("you left the table")
        if self.state is State.PLAYING and self.stand_in_after > 0:
            self._start_stand_in(seat)
        else:
            self._end_stand_in(seat)  # (a taker's stand-in: the seat waits empty, as any)
        self._changed()

    def add_bot(self, number: int | None, name: str) -> int:
        if self.state is State.FINISHED:
            raise precondition("GAME_OVER", f"the game at table {self.table_id} is over")
        seat = self._seat(number, want_empty=True)
        try:
            bot = make_bot(name, seed=bot_seed(self.seed, "bot", seat.number))
        except ValueError as exc:
            raise invalid("UNKNOWN_BOT", f"bot: {exc}") from None
        self._save_seat(seat.number, SeatKind.BOT, f"{name} bot", bot=name)
        seat.kind, seat.bot, seat.bot_name = SeatKind.BOT, bot, name
        seat.name = f"{name} bot"
        seat.stand_in = None
        self.bots.cancel(seat.number)
        log.info("table %s: %s bot sits in seat %d", self.table_id, name, seat.number)
        self._changed()
        self.bots.drive()
        return seat.number

    def remove_bot(self, number: int) -> None:
        seat = self._seat(number, want_empty=False)
        if seat.kind is not SeatKind.BOT:
            raise precondition("NOT_A_BOT", f"seat {number} is not a bot's seat", seat=number)
        self._save_seat(number, SeatKind.EMPTY, "")
        seat.kind, seat.bot, seat.bot_name, seat.name = SeatKind.EMPTY, None, "", ""
        self.bots.cancel(number)
        log.info("table %s: bot leaves seat %d", self.table_id, number)
        if self.state is State.PLAYING and self.stand_in_after > 0:
            self._start_stand_in(seat)
        self._changed()

    def start(self) -> None:
        if self.state is not State.WAITING:
            raise precondition("ALREADY_STARTED", f"table {self.table_id} has already started")
        empty = [s.number for s in self.seats if s.kind is SeatKind.EMPTY]
        if empty:
            names = ", ".join(map(str, empty))
            raise precondition(
                "SEATS_EMPTY", f"seat(s) {names} empty: someone must join or a bot be added first",
                seats=",".join(map(str, empty)),
            )
        now = time.time_ns()
        if self.store is not None:
            try:
                self.store.started(self.table_id, now)
            except Exception as exc:
                raise storage_failed(exc) from None
        self.game = Game(self.rules, self.seed, self.first_dealer)
        self.times = [now] * len(self.game.events)
        self.state = State.PLAYING
        # Never log a random seed: it is the whole deal.
        log.info("table %s: game starts", self.table_id)
        for seat in self.seats:
            if seat.kind is SeatKind.HUMAN:
                self.stand_ins.watch(seat)
        self._changed()
        self.bots.drive()

    # ------------------------------------------------------------------- play

    def check_act(
        self, player: int, claimed_seat: int | None = None, turn_sequence: int | None = None
    ) -> None:
        """Refuse an action of `player` before what it says is read: the game has not
        started, it claims another seat, the seat waits for its hand, or it answers a
        turn that is over (`turn_sequence`: the TurnUpdate it answers)."""
        if self.game is None:
            raise precondition(
                "NOT_STARTED", "the game has not started: it starts once every seat is taken"
            )
        if claimed_seat is not None and claimed_seat != player:
            raise denied(
                "NOT_YOUR_SEAT", f"your token is for seat {player}, not for seat {claimed_seat}"
            )
        self.check_holds(player)
        if turn_sequence is not None:
            self._check_turn(player, turn_sequence)

    def act(self, player: int, action: Action, turn_sequence: int | None = None) -> int:
        """Apply a person's action (an engine action of the seat's current hand seat);
        refusals change nothing.  Returns the log's length.

        `turn_sequence`: the TurnUpdate the action answers; a turn the seat has
        already answered (a double-sent act, a stand-in's move) is refused."""
        self.check_act(player, None, turn_sequence)
        self._apply(action)
        self._end_stand_in(self.seats[player])  # the person is back
        return self.sequence

    def _check_turn(self, player: int, turn_sequence: int) -> None:
        if turn_sequence > self.sequence:
            raise invalid(
                "MALFORMED",
                f"turn_sequence: {turn_sequence} is ahead of the table's log "
                f"({self.sequence} events)",
            )
        acted = self._acted.get(player, 0)
        if acted > turn_sequence:
            raise precondition(
                "STALE_TURN",
                f"seat {player} has already moved since that turn (sequence {turn_sequence}); "
                "this action was meant for a turn that is over, so nothing changed",
            )

    def _apply(self, action) -> None:
        game = self.game
        before = len(game.events)
        hands_before = len(game.hands)
        mover = game.player_at(action.seat)
        try:
            game.apply(action)
        except IllegalAction as exc:
            # The engine's words, its hand seats named as the table's seats.
            words = exc.message(current_map(game).name)
            raise ServiceError(
                ENGINE_RULES[exc.rule], exc.rule.name, f"{exc.rule.value}: {words}",
                engine_facts(exc, current_map(game)),
            ) from None
        now = time.time_ns()
        if self.store is not None:
            # Kept before anyone hears of it; if it cannot be kept, it did not happen.
            try:
                self.store.record_action(self.accepted(hands_before, now))
            except Exception as exc:
                self.game = Game.replay(self.rules, self.seed, game.actions[:-1], self.first_dealer)
                raise storage_failed(exc) from None
        self.times.extend([now] * (len(game.events) - before))
        if mover is not None:
            self._acted[mover] = len(game.events)
        if len(game.hands) > hands_before and not game.is_over:
            self._hand_started(len(game.hands))
        if game.is_over:
            self.state = State.FINISHED
            log.info("table %s: game over, totals %s, winner seat %d",
                     self.table_id, game.totals, game.winner)
            self._changed()
        self._wake()
        self.bots.drive()

    def accepted(self, hands_before: int, time_ns: int) -> ActionRow:
        """The action just applied as the database keeps it, with the hand it finished
        and the game's end, if it did (`hands_before`: hands begun before it)."""
        names = [seat.name for seat in self.seats]
        return ActionRow.of(self.table_id, self.game, hands_before, names, time_ns)

    # --------------------------------------------------------------- absence

    def _start_stand_in(self, seat: Seat) -> None:
        if seat.stand_in is None:
            seat.stand_in = self.stand_ins.make(seat)
            self._changed()
            self.bots.drive()

    def _end_stand_in(self, seat: Seat) -> None:
        if self.game is not None and seat.waits(len(self.game.hands)):
            return  # the stand-in plays out the hand the seat was taken in
        self.stand_ins.unwatch(seat)
        if seat.stand_in is not None:
            seat.stand_in = None
            self.bots.cancel(seat.number)
            log.info("table %s: %s is back", self.table_id, seat.name or seat.number)
            self._changed()

    # ---------------------------------------------------------------- storage

    def _save_seat(
        self,
        number: int,
        kind: SeatKind,
        name: str,
        hashed: str | None = None,
        bot: str = "",
        from_hand: int = 0,
    ) -> None:
        """Write a seat change ahead of making it: a refusal then changes nothing."""
        if self.store is None:
            return
        try:
            self.store.save_seat(self.table_id, number, kind.value, name, hashed, bot, from_hand)
        except Exception as exc:
            raise storage_failed(exc) from None

    def resume(self) -> None:
        """A table rebuilt from the database goes on: bots act, absent humans may get
        stand-ins (no stream is open yet after a restart)."""
        if self.state is not State.PLAYING:
            return
        for seat in self.seats:
            if seat.kind is SeatKind.HUMAN and seat.waits(len(self.game.hands)):
                self._take_over(seat)
            elif seat.kind is SeatKind.HUMAN:
                self.stand_ins.watch(seat)
        self.bots.drive()

    @property
    def hands_finished(self) -> int:
        """Hands that are over (their records may be shown to anyone who may read the
        table); the hand being played, if any, is not counted."""
        game = self.game
        if not game:
            return 0
        return len(game.hands) - (0 if game.is_over else 1)

    def finished_hand(self, number: int, finished_ns: int = 0) -> StoredHand | None:
        """Hand `number` (1, 2, …) as the database keeps it — once it is over, when
        every card may be shown (spectators get the deal then too); else None."""
        if not 1 <= number <= self.hands_finished:
            return None
        names = [seat.name for seat in self.seats]
        return StoredHand.of(self.table_id, self.game, number, names, finished_ns)

    def hand_record(self, number: int) -> dict | None:
        """Hand `number` as a FORMATS.md record with `table`, `hand`, `names` and
        `seating` (table seat per hand seat, None for Lopaka), once it is over; else
        None.  What a review needs."""
        hand = self.finished_hand(number)
        return None if hand is None else hand.export()

    # ---------------------------------------------------------------- restoring

    def restore_seat(self, saved: StoredSeat, bot: Bot | None = None) -> None:
        """A seat as the database kept it (`bot`: the bot of a bot's seat, made again)."""
        seat = self.seats[saved.seat]
        seat.kind = SeatKind(saved.kind)
        seat.name = saved.name
        seat.token_hash = saved.token_sha256
        seat.from_hand = saved.from_hand if seat.kind is SeatKind.HUMAN else 0
        if seat.kind is SeatKind.BOT:
            seat.bot_name, seat.bot = saved.bot, bot

    def restore_game(self, game: Game, times: list[int], acted: dict[int, int]) -> None:
        """The game replayed from the database, with its events' times and where each
        player last acted in the log (so an act sent again across the restart is
        still stale); a game that is over leaves the table finished."""
        self.game, self.times = game, times
        self._acted = dict(acted)
        self.state = State.FINISHED if game.is_over else State.PLAYING

    # ------------------------------------------------------------ subscribers

    def attach(self, player: int | None, token: str | None = None) -> Subscriber:
        """A new stream.  A spectator coming or going changes nothing the others must
        hear of at once (their count goes out with the next TableInfo), so a crowd of
        watchers costs each of them one snapshot, not one message per newcomer."""
        sub = Subscriber(player, token)
        self.subscribers.add(sub)
        if player is not None:
            seat = self.seats[player]
            seat.streams += 1
            self._end_stand_in(seat)
            self._changed()
        return sub

    def detach(self, sub: Subscriber) -> None:
        if sub not in self.subscribers:
            return
        self.subscribers.discard(sub)
        if sub.player is not None:
            seat = self.seats[sub.player]
            if seat.token == sub.token:
                seat.streams -= 1
                if seat.streams == 0:
                    log.info("table %s: seat %d disconnected", self.table_id, sub.player)
                    self.stand_ins.watch(seat)
            self._changed()
        self.last_change = time.monotonic()

    def _changed(self) -> None:
        self.info_version += 1
        self.last_change = time.monotonic()
        self._wake()

    def _wake(self) -> None:
        for sub in self.subscribers:
            sub.wake.set()

    def close(self, reason: str) -> None:
        """End every stream of the table and stop its bots (server shutdown)."""
        for sub in list(self.subscribers):
            sub.close(reason)
        self.bots.close()
        self.stand_ins.close()
