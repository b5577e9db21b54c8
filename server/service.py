"""The CursedBottle gRPC service: requests checked, refusals mapped to status codes.

Every method validates the request's form first (INVALID_ARGUMENT), then asks
the lobby who the caller is (NOT_FOUND, UNAUTHENTICATED, PERMISSION_DENIED),
then lets the table and the engine judge the move (FAILED_PRECONDITION, with
the rule named).  A refusal raises before anything changes.

Requests that do not even parse (random bytes, invalid UTF-8 in a string) are
caught at deserialisation and refused as INVALID_ARGUMENT too, instead of
gRPC's generic INTERNAL, so a misbehaving client learns what it did wrong.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import grpc
from cursedbottle.v1 import table_pb2

from . import wire
from .errors import ServiceError, denied, invalid, precondition, shorten
from .hints import DEFAULT_BUDGET_MS, MAX_BUDGET_MS, ask_hint, hint_view
from .lobby import Lobby
from .names import check_shown_text
from .peers import client_of, connection_of
from .review import Reviews
from .seats import Subscriber
from .table_msgs import event_msgs, snapshot_msg, table_info, turn_msg
from .tables import Table

log = logging.getLogger("cursedbottle.server")

SERVICE = table_pb2.DESCRIPTOR.services_by_name["CursedBottle"]
ERROR_KEY = "cb-error-bin"
MAX_NAME = 40
MAX_ID = 64
MAX_TOKEN = 128
MAX_PASSWORD = 128
MAX_SEED = 64
MAX_STAND_IN_SECONDS = 3600.0
#: Events per stream message: a long replay is cut into messages of this size.
MAX_BATCH = 256


def _text(value: str, what: str, limit: int) -> str:
    if len(value) > limit:
        raise invalid("MALFORMED", f"{what}: {len(value)} characters, at most {limit} allowed")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise invalid("MALFORMED", f"{what}: {shorten(value)} holds control characters")
    return value


def _table_id(value: str) -> str:
    if not value:
        raise invalid("MALFORMED", "table_id: which table? (ListTables shows them)")
    return _text(value, "table_id", MAX_ID)


def _token(value: str) -> str:
    if not value:
        raise invalid("MALFORMED", "token: missing (Join a seat to get one)")
    return _text(value, "token", MAX_TOKEN)


def _seat_number(value: int, what: str = "seat") -> int:
    if value < 0:
        raise invalid("NO_SUCH_SEAT", f"{what}: {value} is not a seat (seats count from 0)")
    return value


def _stand_in_after(value: float) -> float:
    if not 0 <= value <= MAX_STAND_IN_SECONDS:  # (NaN too)
        raise invalid(
            "MALFORMED",
            f"stand_in_after_seconds: {value} is not between 0 and {MAX_STAND_IN_SECONDS:.0f}",
        )
    return value


class Malformed:
    """Stands in for a request that could not be parsed."""

    def __init__(self, error: str) -> None:
        self.error = error


def _safe_parser(parse: Callable[[bytes], object]) -> Callable[[bytes], object]:
    def deserialize(data: bytes) -> object:
        try:
            return parse(data)
        except Exception as exc:  # DecodeError, invalid UTF-8, …
            return Malformed(str(exc) or type(exc).__name__)

    return deserialize


class CursedBottleService:
    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.reviews = Reviews(lobby)

    # ------------------------------------------------------------- tables

    async def ListTables(self, request, context) -> table_pb2.ListTablesResponse:
        self.lobby.sweep()
        out = table_pb2.ListTablesResponse()
        out.tables.extend(table_info(t) for t in self.lobby.tables.values())
        return out

    async def GetTable(self, request, context) -> table_pb2.TableResponse:
        table = self.lobby.table(_table_id(request.table_id))
        return table_pb2.TableResponse(table=table_info(table))

    async def CreateTable(self, request, context) -> table_pb2.CreateTableResponse:
        name = check_shown_text(_text(request.name, "name", MAX_NAME), "name") or "Table"
        rules = wire.rules_from_msg(request.rules)
        password = _text(request.password, "password", MAX_PASSWORD)
        seed = _text(request.seed, "seed", MAX_SEED) if request.HasField("seed") else None
        first_dealer = None
        if request.HasField("first_dealer"):
            first_dealer = request.first_dealer
            if not 0 <= first_dealer < rules.players:
                raise invalid(
                    "NO_SUCH_SEAT",
                    f"first_dealer: {first_dealer} is not a player (0…{rules.players - 1})",
                )
        stand_in_after = _stand_in_after(request.stand_in_after_seconds)
        stand_in_bot = _text(request.stand_in_bot, "stand_in_bot", MAX_NAME) or "random"
        _check_bot_name(stand_in_bot)
        table = self.lobby.create(
            name,
            rules,
            client=client_of(context),
            password=password,
            seed=seed,
            first_dealer=first_dealer,
            stand_in_after=stand_in_after,
            stand_in_bot=stand_in_bot,
        )
        return table_pb2.CreateTableResponse(table=table_info(table), host_token=table.host_token)

    async def Join(self, request, context) -> table_pb2.JoinResponse:
        table = self.lobby.table(_table_id(request.table_id))
        name = check_shown_text(_text(request.name, "name", MAX_NAME), "name")
        password = _text(request.password, "password", MAX_PASSWORD)
        number = _seat_number(request.seat) if request.HasField("seat") else None
        await self._check_password(table, password, context)
        seat, token = table.join(name, number)
        return table_pb2.JoinResponse(table=table_info(table), seat=seat, token=token)

    async def Leave(self, request, context) -> table_pb2.TableResponse:
        table, player = self.lobby.seat(_table_id(request.table_id), _token(request.token))
        table.leave(player)
        return table_pb2.TableResponse(table=table_info(table))

    async def AddBot(self, request, context) -> table_pb2.TableResponse:
        table_id, token = _table_id(request.table_id), _token(request.token)
        number = _seat_number(request.seat) if request.HasField("seat") else None
        name = _text(request.bot, "bot", MAX_NAME) or "random"
        if request.replace and number is None:
            raise invalid("MALFORMED", "seat: which absent person's seat does the bot take?")
        table = (self.lobby.host if request.replace else self.lobby.controller)(table_id, token)
        _check_bot_name(name)
        if request.replace:
            table.replace(number, name)
        else:
            table.add_bot(number, name)
        return table_pb2.TableResponse(table=table_info(table))

    async def SetStandIns(self, request, context) -> table_pb2.TableResponse:
        table_id, token = _table_id(request.table_id), _token(request.token)
        after = _stand_in_after(request.stand_in_after_seconds)
        bot = _text(request.stand_in_bot, "stand_in_bot", MAX_NAME)
        if bot:
            _check_bot_name(bot)
        table = self.lobby.host(table_id, token)
        table.set_stand_ins(after, bot or table.stand_in_bot)
        return table_pb2.TableResponse(table=table_info(table))

    async def RemoveBot(self, request, context) -> table_pb2.TableResponse:
        table = self.lobby.controller(_table_id(request.table_id), _token(request.token))
        table.remove_bot(_seat_number(request.seat))
        return table_pb2.TableResponse(table=table_info(table))

    async def Start(self, request, context) -> table_pb2.TableResponse:
        table = self.lobby.controller(_table_id(request.table_id), _token(request.token))
        table.start()
        return table_pb2.TableResponse(table=table_info(table))

    # --------------------------------------------------------------- play

    async def Act(self, request, context) -> table_pb2.ActResponse:
        table, player = self.lobby.seat(_table_id(request.table_id), _token(request.token))
        if not request.HasField("action"):
            raise invalid("MALFORMED", "action: missing (pile, pass_card, choose_open or play)")
        if request.action.HasField("seat"):
            _seat_number(request.action.seat, "action.seat")
        turn = request.turn_sequence if request.HasField("turn_sequence") else None
        claimed = request.action.seat if request.action.HasField("seat") else None
        table.check_act(player, claimed, turn)
        action = wire.action_from_msg(request.action, player, table.game)
        return table_pb2.ActResponse(sequence=table.act(player, action, turn))

    async def Hint(self, request, context) -> table_pb2.HintResponse:
        table, player = self.lobby.seat(_table_id(request.table_id), _token(request.token))
        budget = request.budget_ms if request.HasField("budget_ms") else DEFAULT_BUDGET_MS
        if not 1 <= budget <= MAX_BUDGET_MS:
            raise invalid("MALFORMED", f"budget_ms: {budget} is not between 1 and {MAX_BUDGET_MS}")
        game = table.game
        if game is None or game.is_over:
            raise precondition("NOT_PLAYING", "hints are for a game in progress")
        table.check_holds(player)
        view = hint_view(game, player, request.staged)
        seed = request.seed if request.HasField("seed") else len(game.actions)
        return await ask_hint(self.lobby.runner, table.table_id, player, view, seed, budget)

    # ------------------------------------------------------------ reviews

    async def ListHands(self, request, context) -> table_pb2.ListHandsResponse:
        table_id = _text(request.table_id, "table_id", MAX_ID)
        password = _text(request.password, "password", MAX_PASSWORD)
        token = _text(request.token, "token", MAX_TOKEN)
        return await self.reviews.list_hands(
            table_id, password, token, request.limit, client_of(context)
        )

    async def ReviewHand(self, request, context) -> table_pb2.HandReview:
        hand, first = await self.reviews.finished_hand(
            _table_id(request.table_id),
            request.hand,
            _text(request.password, "password", MAX_PASSWORD),
            _text(request.token, "token", MAX_TOKEN),
            request.from_trick,
            client_of(context),
        )
        return await self.reviews.review(hand, first, client_of(context))

    # ------------------------------------------------------------ streams

    async def Subscribe(self, request, context) -> None:
        table, player = self.lobby.seat(_table_id(request.table_id), _token(request.token))
        start = request.from_sequence if request.HasField("from_sequence") else None
        await self._stream(table, player, request.token, start, context)

    async def Watch(self, request, context) -> None:
        table = self.lobby.table(_table_id(request.table_id))
        password = _text(request.password, "password", MAX_PASSWORD)
        await self._check_password(table, password, context)
        await self._stream(table, None, None, request.from_sequence, context)

    async def _check_password(self, table: Table, password: str, context) -> None:
        """A protected table's password, checked off the event loop (`PasswordGate`)."""
        if not table.has_password:
            return
        gate = self.lobby.passwords
        if not await gate.check(client_of(context), lambda: table.password_matches(password)):
            raise denied("WRONG_PASSWORD", f"table {table.table_id}: wrong password")

    async def _stream(
        self, table: Table, player: int | None, token: str | None, start: int | None, context
    ) -> None:
        if self.lobby.closing:
            raise ServiceError(grpc.StatusCode.UNAVAILABLE, "SHUTTING_DOWN", self.lobby.closing)
        with self.lobby.open_stream(client_of(context), connection_of(context)):
            await context.send_initial_metadata(())
            sub = table.attach(player, token)
            try:
                await _pump(table, sub, start, context)
            finally:
                table.detach(sub)


async def _pump(table: Table, sub: Subscriber, start: int | None, context) -> None:
    """Send a snapshot, then the log from the cursor on, waking when the table moves."""
    Update = table_pb2.TableUpdate
    snapshot = snapshot_msg(table, sub.player)
    # The info the snapshot holds, read with it: a change during the writes below (the
    # game started) is sent after them, not taken as sent already.
    info_sent = table.info_version
    cursor = snapshot.sequence if start is None else min(start, snapshot.sequence)
    await context.write(Update(snapshot=snapshot))
    if table.game is not None and cursor == snapshot.sequence:
        await context.write(Update(batch=table_pb2.EventBatch(turn=turn_msg(table, sub.player))))
    while True:
        if sub.closed:
            await context.write(Update(closed=table_pb2.StreamClosed(reason=sub.closed)))
            return
        end = table.sequence
        if cursor < end:
            # The turn is taken now, in step with `end`, before any await.
            turn = turn_msg(table, sub.player)
            update = Update()
            events = update.batch.events
            for msg in event_msgs(table, sub.player, cursor, end):
                if len(events) == MAX_BATCH:
                    await context.write(update)
                    update = Update()
                    events = update.batch.events
                events.append(msg)
            update.batch.turn.CopyFrom(turn)
            cursor = end
            await context.write(update)
            continue
        if table.info_version != info_sent:
            info_sent = table.info_version
            await context.write(Update(table=table_info(table)))
            continue
        if table.game is not None and table.game.is_over:
            await context.write(Update(closed=table_pb2.StreamClosed(reason="the game is over")))
            return
        sub.wake.clear()
        await sub.wake.wait()


def _check_bot_name(name: str) -> None:
    """A bot the server knows, with an effort within its limits (runner.MAX_BOT_SECONDS)."""
    from cursedbottle.bots import make_bot

    from .runner import check_bot_effort

    if not name.isascii() or not name.isprintable():
        # (`float` reads other scripts' digits: `strong:١٠` would be shown to others)
        raise invalid("UNKNOWN_BOT", f"bot: {shorten(name)} is not a bot's name (ASCII only)")
    try:
        make_bot(name.partition(":")[0])
        check_bot_effort(name)
        make_bot(name)
    except ValueError as exc:
        raise invalid("UNKNOWN_BOT", f"bot: {exc}") from None


async def _refuse(context, method: str, exc: ServiceError) -> None:
    log.info("refused %s: %s %s: %s", method, exc.code.name, exc.rule, exc.message)
    info = table_pb2.ErrorInfo(rule=exc.rule, message=exc.message, facts=exc.facts)
    await context.abort(
        exc.code, exc.message, trailing_metadata=((ERROR_KEY, info.SerializeToString()),)
    )


def _guard(method: str, fn: Callable[..., Awaitable]) -> Callable[..., Awaitable]:
    async def handler(request, context):
        try:
            if isinstance(request, Malformed):
                raise invalid(
                    "MALFORMED", f"{method}: not a valid request message ({request.error})"
                )
            return await fn(request, context)
        except ServiceError as exc:
            await _refuse(context, method, exc)
        except (asyncio.CancelledError, grpc.aio.AbortError):
            raise
        except Exception:
            log.exception("%s failed", method)
            await context.abort(
                grpc.StatusCode.INTERNAL, "internal error: the server log has details"
            )

    return handler


def add_to_server(service: CursedBottleService, server: grpc.aio.Server) -> None:
    """Register the service with guarded handlers and forgiving parsers
    (what the generated `add_CursedBottleServicer_to_server` does, plus both)."""
    handlers = {}
    for method in SERVICE.methods:
        request_cls = getattr(table_pb2, method.input_type.name)
        response_cls = getattr(table_pb2, method.output_type.name)
        make = (
            grpc.unary_stream_rpc_method_handler
            if method.server_streaming
            else grpc.unary_unary_rpc_method_handler
        )
        handlers[method.name] = make(
            _guard(method.name, getattr(service, method.name)),
            request_deserializer=_safe_parser(request_cls.FromString),
            response_serializer=response_cls.SerializeToString,
        )
    generic = grpc.method_handlers_generic_handler(SERVICE.full_name, handlers)
    server.add_generic_rpc_handlers((generic,))
    server.add_registered_method_handlers(SERVICE.full_name, handlers)
