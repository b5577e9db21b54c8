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
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import hashlib
import hmac
import logging
import re
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import grpc
from cursedbottle.bots import Bot, make_bot
from cursedbottle.engine.errors import IllegalAction
from cursedbottle.engine.events import HandEnded
from cursedbottle.engine.game import Game
from cursedbottle.engine.records import record_of
from cursedbottle.engine.rules import Rules
from cursedbottle.engine.view import observe
from cursedbottle.v1 import game_pb2, table_pb2

from . import wire
from .errors import (
    ENGINE_RULES,
    ServiceError,
    denied,
    exhausted,
    invalid,
    not_found,
    precondition,
    unauthenticated,
)
from .limits import Limits
from .names import check_player_name, default_name
from .passwords import PasswordGate
from .runner import BotRunner

if TYPE_CHECKING:
    from .store import Store

log = logging.getLogger("cursedbottle.server")

MAX_BOT_RETRIES = 3


class SeatKind(enum.Enum):
    EMPTY = table_pb2.SEAT_KIND_EMPTY
    HUMAN = table_pb2.SEAT_KIND_HUMAN
    BOT = table_pb2.SEAT_KIND_BOT


class State(enum.Enum):
    WAITING = table_pb2.TABLE_STATE_WAITING
    PLAYING = table_pb2.TABLE_STATE_PLAYING
    FINISHED = table_pb2.TABLE_STATE_FINISHED


@dataclass
class Seat:
    number: int
    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    token: str | None = None
    #: sha256 of the token: what the database keeps (a restored seat knows only this).
    token_hash: str | None = None
    bot_name: str = ""
    bot: Bot | None = None
    #: Open Subscribe streams of the seat's token.
    streams: int = 0
    #: A bot playing for an absent human (or for an empty seat once the game runs).
    stand_in: Bot | None = None
    #: The hand from which the holder plays and sees the seat (0: from the start).  A
    #: seat taken during a hand is the holder's from the next one: its hidden cards of
    #: the hand under way were someone else's (a bot's, or a person's who left).
    from_hand: int = 0

    def waits(self, hand_number: int) -> bool:
        """Whether the seat's holder is still waiting for the hand that makes it theirs."""
        return hand_number < self.from_hand

    def player(self) -> Bot | None:
        """The bot that moves for this seat now, if any."""
        return self.bot if self.kind is SeatKind.BOT else self.stand_in


@dataclass(eq=False)
class Subscriber:
    """One open stream: a seat's (player) or a spectator's (None)."""

    player: int | None
    token: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: str | None = None

    def close(self, reason: str) -> None:
        if self.closed is None:
            self.closed = reason
        self.wake.set()


def stable_seed(*parts: object) -> int:
    """A bot's seed from the table's seed: the same in every process (unlike `hash`)."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:4], "big")


def token_hash(token: str) -> str:
    """How tokens are compared and stored: random tokens need no salt or slow hash."""
    return hashlib.sha256(token.encode()).hexdigest()


def _storage_failed(exc: Exception) -> ServiceError:
    log.error("database: %s", exc)
    return ServiceError(
        grpc.StatusCode.UNAVAILABLE,
        "STORAGE",
        "the server could not save this to its database, so nothing changed (see its log)",
    )


def _hash_password(password: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 50_000)


def token_opens(
    token: str, password_hash: bytes | None, token_hashes: Iterable[str | None]
) -> bool:
    """Whether a request may read a table's finished hands (ListHands, ReviewHand)
    without its password: a table without one is open to all, one with a password
    opens for one of its tokens (host or seat, known by their sha256).  Cheap."""
    if password_hash is None:
        return True
    if token:
        hashed = token_hash(token)
        if any(h is not None and hmac.compare_digest(hashed, h) for h in token_hashes):
            return True
    return False


def password_opens(password: str, salt: bytes | None, password_hash: bytes | None) -> bool:
    """The slow comparison (PBKDF2) of a table's password: off the event loop."""
    if password_hash is None:
        return True
    return bool(password and salt is not None) and hmac.compare_digest(
        _hash_password(password, salt), password_hash
    )


class Table:
    def __init__(
        self,
        table_id: str,
        name: str,
        rules: Rules,
        runner: BotRunner,
        password: str = "",
        seed: str | None = None,
        first_dealer: int | None = None,
        stand_in_after: float = 0.0,
        stand_in_bot: str = "random",
        on_token: Callable[[str, Table | None], None] | None = None,
    ) -> None:
        self.table_id = table_id
        self.name = name
        self.rules = rules
        self.runner = runner
        self._salt = secrets.token_bytes(16)
        self._password = _hash_password(password, self._salt) if password else None
        self.chosen_seed = seed is not None
        self.seed = seed if seed is not None else secrets.token_hex(16)
        self.first_dealer = first_dealer
        self.stand_in_after = stand_in_after
        self.stand_in_bot = stand_in_bot
        self.host_token = secrets.token_urlsafe(24)
        self.host_token_hash = token_hash(self.host_token)
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
        self._thinking: dict[int, asyncio.Task] = {}
        #: Per player: the log's length after its last action (stale acts are refused).
        self._acted: dict[int, int] = {}
        self._absence: dict[int, asyncio.Task] = {}
        self._public_cache: dict[int, game_pb2.GameEvent] = {}
        self._deals: dict[int, game_pb2.HandDeal] = {}

    # ---------------------------------------------------------------- reading

    @property
    def sequence(self) -> int:
        return len(self.game.events) if self.game else 0

    @property
    def spectators(self) -> int:
        return sum(1 for s in self.subscribers if s.player is None)

    @property
    def has_password(self) -> bool:
        return self._password is not None

    def password_matches(self, password: str) -> bool:
        """The slow comparison (PBKDF2): call it off the event loop (`PasswordGate`)."""
        return password_opens(password, self._salt, self._password)

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
        return token_opens(token, self._password, hashes)

    def info(self) -> table_pb2.TableInfo:
        out = table_pb2.TableInfo(
            table_id=self.table_id,
            name=self.name,
            has_password=self._password is not None,
            state=self.state.value,
            next_sequence=self.sequence,
            hands_played=self._hands_played(),
            spectators=self.spectators,
            stand_in_after_seconds=self.stand_in_after,
            chosen_seed=self.chosen_seed,
        )
        out.rules.CopyFrom(wire.rules_msg(self.rules))
        for seat in self.seats:
            out.seats.add(
                seat=seat.number,
                kind=seat.kind.value,
                name=seat.name,
                bot=seat.bot_name if seat.kind is SeatKind.BOT else "",
                connected=seat.streams > 0,
                stand_in=seat.stand_in is not None,
                from_hand=seat.from_hand,
            )
        if self.rules.lopaka:
            out.seats.add(seat=self.rules.players, kind=table_pb2.SEAT_KIND_LOPAKA, name="Lopaka")
        if self.game:
            out.totals.extend(self.game.totals)
            if self.game.winner is not None:
                out.winner = self.game.winner
        return out

    def _hands_played(self) -> int:
        game = self.game
        if not game:
            return 0
        return len(game.hands) - (0 if game.is_over else 1)

    def snapshot(self, player: int | None) -> table_pb2.Snapshot:
        out = table_pb2.Snapshot(sequence=self.sequence)
        out.table.CopyFrom(self.info())
        if self.game is not None and player is not None and self.holds(player):
            out.view.CopyFrom(wire.view_msg(self.game.view(player)))
        return out

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

    def turn(self, player: int | None) -> table_pb2.TurnUpdate:
        game = self.game
        out = table_pb2.TurnUpdate(sequence=self.sequence)
        if game is None:
            return out
        out.game_over = game.is_over
        seats = wire.current_map(game)
        to_act = game.to_act()
        out.to_act.extend(seats.to_wire[s] for s in to_act)
        if player is not None and self.holds(player):
            seat = game.seat_of(player)
            if seat in to_act:
                out.legal_actions.extend(
                    wire.action_msg(a, seats) for a in game.legal_actions(seat)
                )
            out.view.CopyFrom(wire.view_msg(game.view(player)))
        else:  # a spectator, or a seat taken mid-hand that watches until its hand
            public = observe(game.hand, None, tuple(game.totals), game.seatings[-1])
            out.view.CopyFrom(wire.view_msg(public))
        return out

    def event_msgs(self, player: int | None, start: int, end: int) -> Iterator[game_pb2.GameEvent]:
        """The log's events [start, end) as `player` may see them (None: a spectator).

        A seat taken mid-game sees the hands before its own as a spectator does."""
        game = self.game
        if game is None:
            return
        limit = self.seats[player].from_hand if player is not None else 0
        if limit and start < end and game.hand_of_event(start) < limit:
            split = start
            while split < end and game.hand_of_event(split) < limit:
                split += 1
            yield from self._event_msgs(None, start, split)
            start = split
        yield from self._event_msgs(player, start, end)

    def _event_msgs(
        self, player: int | None, start: int, end: int
    ) -> Iterator[game_pb2.GameEvent]:
        game = self.game
        if start >= end:
            return
        players = self.rules.players
        for seq, event in game.events_for(player, start):
            if seq >= end:
                return
            if player is None:
                msg = self._public_cache.get(seq)
                if msg is None:
                    msg = self._public_cache[seq] = self._encode(
                        seq, event, players, spectator=True
                    )
                yield msg
            else:
                yield self._encode(seq, event, players, spectator=False)

    def _encode(self, seq: int, event, players: int, spectator: bool) -> game_pb2.GameEvent:
        game = self.game
        seating = game.seating_at(seq)
        seats = wire.seat_map(seating, players)
        hand_number = game.hand_of_event(seq)
        deal = None
        if spectator and isinstance(event, HandEnded):
            deal = self._deals.get(event.number)
            if deal is None:
                deal = self._deals[event.number] = wire.deal_msg(
                    game.hands[event.number - 1], seats
                )
        return wire.event_msg(seq, event, seats, self.times[seq], hand_number, deal)

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
            raise precondition("SEAT_TAKEN", f"seat {number} is taken by {who}; pick an empty one")
        return seat

    def join(self, name: str, number: int | None) -> tuple[int, str]:
        """Seat a person (the password, if any, was checked by the caller)."""
        if self.state is State.FINISHED:
            raise precondition("GAME_OVER", f"the game at table {self.table_id} is over")
        seat = self._seat(number, want_empty=True)
        others = [s.name for s in self.seats if s is not seat]
        check_player_name(name, others)
        name = name or default_name(seat.number, others)
        token = secrets.token_urlsafe(24)
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
            seed = stable_seed(self.seed, "stand-in", seat.number)
            seat.stand_in = make_bot(self.stand_in_bot, seed=seed)
        log.info(
            "table %s: seat %d is %s's from hand %d",
            self.table_id,
            seat.number,
            seat.name,
            seat.from_hand,
        )
        self._drive()

    def _hand_started(self, number: int) -> None:
        """Seats taken during the last hand become their holders'."""
        for seat in self.seats:
            if seat.kind is SeatKind.HUMAN and seat.from_hand == number:
                self._end_stand_in(seat)
                self._watch_absence(seat)
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
            bot = make_bot(name, seed=stable_seed(self.seed, "bot", seat.number))
        except ValueError as exc:
            raise invalid("UNKNOWN_BOT", f"bot: {exc}") from None
        self._save_seat(seat.number, SeatKind.BOT, f"{name} bot", bot=name)
        seat.kind, seat.bot, seat.bot_name = SeatKind.BOT, bot, name
        seat.name = f"{name} bot"
        seat.stand_in = None
        self._cancel_thinking(seat.number)
        log.info("table %s: %s bot sits in seat %d", self.table_id, name, seat.number)
        self._changed()
        self._drive()
        return seat.number

    def remove_bot(self, number: int) -> None:
        seat = self._seat(number, want_empty=False)
        if seat.kind is not SeatKind.BOT:
            raise precondition("NOT_A_BOT", f"seat {number} is not a bot's seat")
        self._save_seat(number, SeatKind.EMPTY, "")
        seat.kind, seat.bot, seat.bot_name, seat.name = SeatKind.EMPTY, None, "", ""
        self._cancel_thinking(number)
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
                "SEATS_EMPTY", f"seat(s) {names} empty: someone must join or a bot be added first"
            )
        now = time.time_ns()
        if self.store is not None:
            try:
                self.store.started(self.table_id, now)
            except Exception as exc:
                raise _storage_failed(exc) from None
        self.game = Game(self.rules, self.seed, self.first_dealer)
        self.times = [now] * len(self.game.events)
        self.state = State.PLAYING
        # Never log a random seed: it is the whole deal.
        log.info("table %s: game starts", self.table_id)
        for seat in self.seats:
            if seat.kind is SeatKind.HUMAN:
                self._watch_absence(seat)
        self._changed()
        self._drive()

    # ------------------------------------------------------------------- play

    def act(
        self, player: int, action: game_pb2.Action, turn_sequence: int | None = None
    ) -> int:
        """Apply a person's action; refusals change nothing.  Returns the log's length.

        `turn_sequence`: the TurnUpdate the action answers; a turn the seat has
        already answered (a double-sent act, a stand-in's move) is refused."""
        game = self.game
        if game is None:
            raise precondition(
                "NOT_STARTED", "the game has not started: it starts once every seat is taken"
            )
        if action.HasField("seat") and action.seat != player:
            raise denied(
                "NOT_YOUR_SEAT", f"your token is for seat {player}, not for seat {action.seat}"
            )
        self.check_holds(player)
        if turn_sequence is not None:
            self._check_turn(player, turn_sequence)
        engine_action = wire.action_from_msg(action, player, game)
        self._apply(engine_action)
        self._end_stand_in(self.seats[player])  # the person is back
        return self.sequence

    def restore_turns(self, acted: dict[int, int]) -> None:
        """After a restart: where each player last acted in the log (so an act sent again
        across the restart is still stale)."""
        self._acted = dict(acted)

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
            raise ServiceError(ENGINE_RULES[exc.rule], exc.rule.name, self._explain(exc)) from None
        now = time.time_ns()
        if self.store is not None:
            # Kept before anyone hears of it; if it cannot be kept, it did not happen.
            try:
                self.store.record_action(self, hands_before, now)
            except Exception as exc:
                self.game = Game.replay(self.rules, self.seed, game.actions[:-1], self.first_dealer)
                raise _storage_failed(exc) from None
        self.times.extend([now] * (len(game.events) - before))
        if mover is not None:
            self._acted[mover] = len(game.events)
        if len(game.hands) > hands_before and not game.is_over:
            self._hand_started(len(game.hands))
        if game.is_over:
            self.state = State.FINISHED
            log.info(
                "table %s: game over, totals %s, winner seat %d",
                self.table_id,
                game.totals,
                game.winner,
            )
            self._changed()
        self._wake()
        self._drive()

    def _explain(self, exc: IllegalAction) -> str:
        """The engine's words, with its hand seats turned into table seats."""
        seats = wire.current_map(self.game)
        lopaka = self.rules.players

        def table_seat(m: re.Match) -> str:
            hand_seat = int(m.group(1))
            if hand_seat >= len(seats.to_wire):
                return m.group(0)
            w = seats.to_wire[hand_seat]
            return "Lopaka" if self.rules.lopaka and w == lopaka else f"seat {w}"

        return f"{exc.rule.value}: " + re.sub(r"\bseat (\d+)", table_seat, str(exc))

    # ------------------------------------------------------------------- bots

    def _drive(self) -> None:
        """Set every bot that must act now thinking (one task per seat)."""
        game = self.game
        if game is None or game.is_over:
            return
        for hand_seat in game.to_act():
            player = game.player_at(hand_seat)
            if player is None or player in self._thinking:
                continue
            bot = self.seats[player].player()
            if bot is not None:
                self._thinking[player] = asyncio.create_task(self._bot_moves(player, bot))

    async def _bot_moves(self, player: int, bot: Bot) -> None:
        seat = self.seats[player]
        failures = 0
        try:
            while True:
                game = self.game
                if game.is_over or seat.player() is not bot:
                    return
                if game.seat_of(player) not in game.to_act():
                    return
                if self.runner.delay:
                    await asyncio.sleep(self.runner.delay)
                    if seat.player() is not bot or game.seat_of(player) not in game.to_act():
                        return
                view = game.view(player)
                action = await self.runner.think(self.table_id, bot, view, self.creator)
                if seat.player() is not bot:
                    return
                try:
                    # Others acting meanwhile (simultaneous phases) cannot make a
                    # move of this seat illegal; if anything did, the engine says so.
                    self._apply(action)
                except ServiceError as exc:
                    failures += 1
                    log.warning("table %s: bot in seat %d: %s", self.table_id, player, exc)
                    if failures >= MAX_BOT_RETRIES:
                        self._apply(game.legal_actions(game.seat_of(player))[0])
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot in seat %d failed", self.table_id, player)
        finally:
            if self._thinking.get(player) is asyncio.current_task():
                del self._thinking[player]

    def _cancel_thinking(self, player: int) -> None:
        task = self._thinking.pop(player, None)
        if task is not None:
            task.cancel()

    # --------------------------------------------------------------- absence

    def _watch_absence(self, seat: Seat) -> None:
        """A human seat without a stream gets a stand-in bot after a while (if enabled)."""
        if self.stand_in_after <= 0 or seat.streams > 0 or self.state is not State.PLAYING:
            return
        if seat.number in self._absence:
            return
        self._absence[seat.number] = asyncio.create_task(self._stand_in_later(seat))

    async def _stand_in_later(self, seat: Seat) -> None:
        try:
            await asyncio.sleep(self.stand_in_after)
        finally:
            self._absence.pop(seat.number, None)
        if seat.kind is SeatKind.HUMAN and seat.streams == 0 and self.state is State.PLAYING:
            log.info("table %s: %s is away; a bot stands in", self.table_id, seat.name)
            self._start_stand_in(seat)

    def _start_stand_in(self, seat: Seat) -> None:
        if seat.stand_in is None:
            seed = stable_seed(self.seed, "stand-in", seat.number)
            seat.stand_in = make_bot(self.stand_in_bot, seed=seed)
            self._changed()
            self._drive()

    def _end_stand_in(self, seat: Seat) -> None:
        if self.game is not None and seat.waits(len(self.game.hands)):
            return  # the stand-in plays out the hand the seat was taken in
        task = self._absence.pop(seat.number, None)
        if task is not None:
            task.cancel()
        if seat.stand_in is not None:
            seat.stand_in = None
            self._cancel_thinking(seat.number)
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
            self.store.save_seat(
                self.table_id, number, kind.name.lower(), name, hashed, bot, from_hand
            )
        except Exception as exc:
            raise _storage_failed(exc) from None

    def resume(self) -> None:
        """A table rebuilt from the database goes on: bots act, absent humans may get
        stand-ins (no stream is open yet after a restart)."""
        if self.state is not State.PLAYING:
            return
        for seat in self.seats:
            if seat.kind is SeatKind.HUMAN and seat.waits(len(self.game.hands)):
                self._take_over(seat)
            elif seat.kind is SeatKind.HUMAN:
                self._watch_absence(seat)
        self._drive()

    @property
    def hands_finished(self) -> int:
        """Hands that are over (their records may be shown to anyone who may read the
        table); the hand being played, if any, is not counted."""
        return self._hands_played()

    def hand_record(self, number: int) -> dict | None:
        """Hand `number` (1, 2, …) as a FORMATS.md record with `table`, `hand`, `names`
        and `seating` (table seat per hand seat, None for Lopaka) — once it is over, when
        every card may be shown (spectators get the deal then too); else None.  What the
        database keeps, and what a review needs."""
        game = self.game
        finished = len(game.hands) - (0 if game.is_over else 1) if game else 0
        if not 1 <= number <= finished:
            return None
        seating = list(game.seatings[number - 1])
        names = [self.seats[p].name if p is not None else "Lopaka" for p in seating]
        record = record_of(game.hands[number - 1]).to_json()
        return {
            **record,
            "table": self.table_id,
            "hand": number,
            "names": names,
            "seating": seating,
        }

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
                    self._watch_absence(seat)
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
        for task in [*self._thinking.values(), *self._absence.values()]:
            task.cancel()


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

    def _token_changed(self, token: str, table: Table | None) -> None:
        if table is None:
            self.tokens.pop(token, None)
        else:
            self.tokens[token] = table

    def create(self, name: str, rules: Rules, client: str = "", **options) -> Table:
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
        table = Table(table_id, name, rules, self.runner, on_token=self._token_changed, **options)
        table.creator = client
        if self.store is not None:
            try:
                self.store.create_table(table)
            except Exception as exc:
                raise _storage_failed(exc) from None
            table.store = self.store
        self.tables[table_id] = table
        log.info("table %s created: %r, %s", table_id, name, rules.to_json())
        return table

    def _evict(self) -> None:
        """Forget finished tables nobody follows any more, oldest first, to make room."""
        for table_id, table in list(self.tables.items()):
            if table.state is State.FINISHED and not table.subscribers:
                self._forget(table)
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
                self._forget(table)
                log.info("table %s went away (not started, nobody at it)", table.table_id)

    def _forget(self, table: Table) -> None:
        del self.tables[table.table_id]
        for seat in table.seats:
            if seat.token:
                self.tokens.pop(seat.token, None)
            if seat.token_hash:
                self.token_hashes.pop(seat.token_hash, None)
        table.close("the table is gone")

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
                "NO_SUCH_TABLE", f"there is no table {table_id!r} (ListTables shows them)"
            )
        return table

    def seat(self, table_id: str, token: str) -> tuple[Table, int]:
        """The table and seat a seat token opens."""
        table = self.table(table_id)
        owner = self.tokens.get(token)
        if owner is None and token and self.token_hashes:
            owner = self._adopt(token)
        if owner is None:
            if token and hmac.compare_digest(token_hash(token), table.host_token_hash):
                raise denied("HOST_TOKEN", "the host token opens no seat: Join a seat first")
            raise unauthenticated("UNKNOWN_TOKEN", "unknown seat token: Join a seat to get one")
        if owner is not table:
            raise denied("OTHER_TABLE", f"this token is for another table, not {table_id}")
        for seat in table.seats:
            if seat.token is not None and hmac.compare_digest(seat.token, token):
                return table, seat.number
        raise unauthenticated("UNKNOWN_TOKEN", "unknown seat token: Join a seat to get one")

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
        if token and hmac.compare_digest(token_hash(token), table.host_token_hash):
            return table
        self.seat(table_id, token)
        return table

    def close_all(self, reason: str) -> None:
        self.closing = reason
        for table in self.tables.values():
            table.close(reason)
        self.passwords.shutdown()
