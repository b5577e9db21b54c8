"""A seat that changes hands during a game, and acts that answer a turn already over.

The attack this guards against: a seated player removes a bot mid-hand, joins its
seat with a fresh token, reads the bot's hidden cards, leaves and puts the bot back.
A seat taken during a hand is its holder's from the next hand only: until then a bot
plays it and the holder sees what a spectator sees (docs/protocol.md, "Seats").
"""

from __future__ import annotations

import asyncio

import grpc
import pytest
from cursedbottle.engine.game import Game
from cursedbottle.server.remote import RemoteSeat
from cursedbottle.server.table_msgs import table_info, turn_msg
from cursedbottle.v1 import game_pb2, table_pb2
from test_server_secrecy import GAMES, Knowledge
from test_server_support import (
    add_bots,
    create,
    refused,
    rules,
    run,
    seat_humans,
    serving,
    table_of,
    until,
)

FAILED = grpc.StatusCode.FAILED_PRECONDITION


def _two_hands(rules_msg: game_pb2.Rules) -> game_pb2.Rules:
    out = game_pb2.Rules()
    out.CopyFrom(rules_msg)
    out.hands = 2
    return out


#: Every game and mode the secrecy tests play, with a second hand to take over.
TAKEOVER_GAMES = [pytest.param(_two_hands(p.values[0]), id=p.id) for p in GAMES]


async def _takeover(stub, running, rules_msg: game_pb2.Rules | None = None):
    rules_msg = rules_msg or rules(3, hands=2)
    table_id, host = await create(stub, rules_msg)
    (me,) = await seat_humans(stub, table_id, 1)
    await add_bots(stub, table_id, host, rules_msg.players - 1)
    await stub.Start(table_pb2.StartRequest(table_id=table_id, token=me.token))
    table = table_of(running, table_id)
    # Seat 0's token removes the bot of seat 1 and takes its seat.
    await stub.RemoveBot(table_pb2.RemoveBotRequest(table_id=table_id, token=me.token, seat=1))
    joined = await stub.Join(table_pb2.JoinRequest(table_id=table_id, seat=1, name="Mallory"))
    assert joined.table.seats[1].from_hand == 2
    assert joined.table.seats[1].stand_in, "a bot plays the seat until its holder's hand"
    taker = RemoteSeat(stub, table_id, joined.token, 1)
    return table_id, table, me, taker


@pytest.mark.parametrize("rules_msg", TAKEOVER_GAMES)
def test_a_seat_taken_mid_hand_shows_nothing_of_that_hand_and_is_played_by_a_bot(rules_msg):
    async def go():
        async with serving() as (running, stub):
            _table_id, table, me, taker = await _takeover(stub, running, rules_msg)
            playing = [asyncio.create_task(s.play(from_sequence=0)) for s in (me, taker)]
            await asyncio.wait_for(asyncio.gather(*playing), 60)
            # Hand 1 as a spectator may see it, hand 2 on as seat 1: the independent
            # checker of the secrecy tests, told whose stream it is at each point.
            first = taker.updates[0]
            assert first.WhichOneof("kind") == "snapshot"
            assert not first.snapshot.HasField("view"), "no seat view before the seat's hand"
            spectator, seat = Knowledge(None), Knowledge(1)
            hand = 0
            for update in taker.updates:
                if update.WhichOneof("kind") != "batch":
                    continue
                for event in update.batch.events:
                    hand = max(hand, event.hand_number)
                    (seat if event.hand_number >= 2 else spectator).check_event(event)
                if update.batch.turn.legal_actions:
                    assert hand >= 2, "legal actions only once the seat is the holder's"
            # In hand 2 the seat is the taker's: cards dealt to it, and moves of its own.
            dealt = [
                e
                for e in taker.events
                if e.hand_number == 2
                and e.WhichOneof("kind") == "cards_dealt"
                and e.cards_dealt.seat == 1
            ]
            assert dealt and all(e.cards_dealt.cards for e in dealt), "hand 2 is the taker's"
            assert taker.actions > 0, "the taker played in hand 2"
            assert table.game.is_over

    run(go())


def test_the_taker_can_neither_act_nor_ask_a_hint_before_its_hand():
    async def go():
        async with serving() as (running, stub):
            table_id, table, _me, taker = await _takeover(stub, running)
            # Whatever seat 1 may do now (the stand-in's turn or not), the taker may not.
            game = table.game
            action = table_pb2.ActRequest(table_id=table_id, token=taker.token)
            action.action.pile.card.code = "AD"
            await refused(stub.Act(action), FAILED, "NEXT_HAND")
            hint = table_pb2.HintRequest(table_id=table_id, token=taker.token, budget_ms=10)
            message = await refused(stub.Hint(hint), FAILED)
            assert "NOT_YOUR_TURN" not in message
            assert len(game.hands) == 1
            sub = stub.Subscribe(table_pb2.SubscribeRequest(table_id=table_id, token=taker.token))
            async for update in sub:
                assert update.WhichOneof("kind") == "snapshot"
                assert not update.snapshot.HasField("view")
                break
            sub.cancel()

    run(go())


def test_seat_changes_are_public_so_a_swap_cannot_go_unseen():
    """Remove the bot, take its seat, leave, put a bot back: everyone at the table
    (here seat 0's own stream) was told that seat 1 changed hands, and from when."""

    async def go():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=2))
            (me,) = await seat_humans(stub, table_id, 1)
            await add_bots(stub, table_id, host, 2)
            sub = stub.Subscribe(table_pb2.SubscribeRequest(table_id=table_id, token=me.token))
            infos = []

            async def follow():
                async for update in sub:
                    if update.WhichOneof("kind") == "table":
                        infos.append(update.table)

            following = asyncio.create_task(follow())
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=me.token))
            remove = table_pb2.RemoveBotRequest(table_id=table_id, token=me.token, seat=1)
            await stub.RemoveBot(remove)
            joined = await stub.Join(
                table_pb2.JoinRequest(table_id=table_id, seat=1, name="Mallory")
            )
            await until(lambda: any(i.seats[1].name == "Mallory" for i in infos))
            await stub.Leave(table_pb2.LeaveRequest(table_id=table_id, token=joined.token))
            await add_bots(stub, table_id, me.token, 1)
            await until(lambda: infos[-1].seats[1].kind == table_pb2.SEAT_KIND_BOT)
            sub.cancel()
            following.cancel()
            seen = [(i.seats[1].kind, i.seats[1].name, i.seats[1].from_hand) for i in infos]
            assert (table_pb2.SEAT_KIND_HUMAN, "Mallory", 2) in seen, seen
            assert seen[-1][0] == table_pb2.SEAT_KIND_BOT, seen
            assert table_of(running, table_id).seats[1].from_hand == 0

    run(go())


def test_a_double_sent_act_is_refused_as_stale_not_played_on_the_next_turn():
    async def go():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1))
            seats = await seat_humans(stub, table_id, 3)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            table = table_of(running, table_id)
            game = table.game
            # Everyone lays a pile card; then seat 0 passes twice (two turns in a row).
            for seat in seats:
                legal = turn_msg(table, seat.seat).legal_actions
                await stub.Act(
                    table_pb2.ActRequest(table_id=table_id, token=seat.token, action=legal[0])
                )
            seat = seats[0]
            legal = turn_msg(table, 0).legal_actions
            request = table_pb2.ActRequest(
                table_id=table_id, token=seat.token, action=legal[0], turn_sequence=table.sequence
            )
            await stub.Act(request)
            actions = len(game.actions)
            # The same request again: the seat has moved since that turn.
            message = await refused(stub.Act(request), FAILED, "STALE_TURN")
            assert "nothing changed" in message
            assert len(game.actions) == actions
            # The same act for the seat's next turn, with that turn's sequence, is fine.
            legal = turn_msg(table, 0).legal_actions
            request = table_pb2.ActRequest(
                table_id=table_id, token=seat.token, action=legal[0], turn_sequence=table.sequence
            )
            await stub.Act(request)
            assert len(game.actions) == actions + 1
            # A turn from the future is malformed.
            request.turn_sequence = table.sequence + 5
            await refused(stub.Act(request), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED")

    run(go())


@pytest.mark.parametrize("rules_msg", TAKEOVER_GAMES)
def test_stale_acts_from_a_real_race_never_land(rules_msg):
    """Bots at zero delay and a person who sends every act twice: every second copy
    is refused, and the person's moves match the acts that were accepted."""

    async def go():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules_msg)
            (me,) = await seat_humans(stub, table_id, 1)
            await add_bots(stub, table_id, host, rules_msg.players - 1)
            accepted = refused_stale = 0
            sub = stub.Subscribe(
                table_pb2.SubscribeRequest(table_id=table_id, token=me.token, from_sequence=0)
            )
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            async for update in sub:
                if update.WhichOneof("kind") == "closed":
                    break
                if update.WhichOneof("kind") != "batch" or not update.batch.turn.legal_actions:
                    continue
                turn = update.batch.turn
                request = table_pb2.ActRequest(
                    table_id=table_id,
                    token=me.token,
                    action=turn.legal_actions[0],
                    turn_sequence=turn.sequence,
                )
                results = await asyncio.gather(
                    stub.Act(request), stub.Act(request), return_exceptions=True
                )
                for result in results:
                    if isinstance(result, grpc.aio.AioRpcError):
                        assert result.code() in (FAILED,), result.details()
                        trailing = dict(result.trailing_metadata() or ())
                        info = table_pb2.ErrorInfo.FromString(trailing["cb-error-bin"])
                        if info.rule == "STALE_TURN":
                            refused_stale += 1
                    else:
                        accepted += 1
            table = table_of(running, table_id)
            game = table.game
            # Whose each action was, hand by hand (with Lopaka the seats move).
            again = Game(game.rules, game.seed, game.first_dealer)
            mine = 0
            for action in game.actions:
                mine += again.player_at(action.seat) == 0
                again.apply(action)
            assert game.is_over
            assert accepted == mine
            assert refused_stale >= 1

    run(go())


def test_a_taken_seat_waits_for_its_hand_across_a_restart(tmp_path):
    from cursedbottle.server import CLIENT_OPTIONS, start_server
    from cursedbottle.server.store import Store
    from cursedbottle.v1 import table_pb2_grpc

    path = tmp_path / "db.sqlite"

    async def server():
        store = Store(path)
        running = await start_server("127.0.0.1", 0, store=store)
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}", options=CLIENT_OPTIONS)
        return store, running, channel, table_pb2_grpc.CursedBottleStub(channel)

    async def stop(store, running, channel):
        await channel.close()
        await running.stop(grace=1)
        store.close()

    async def go():
        store, running, channel, stub = await server()
        table_id, table, _me, taker = await _takeover(stub, running)
        hand = len(table.game.hands)
        await stop(store, running, channel)
        store, running, channel, stub = await server()
        try:
            table = table_of(running, table_id)
            assert len(table.game.hands) == hand == 1
            assert table_info(table).seats[1].from_hand == 2 and table_info(table).seats[1].stand_in
            sub = stub.Subscribe(table_pb2.SubscribeRequest(table_id=table_id, token=taker.token))
            async for update in sub:
                assert not update.snapshot.HasField("view"), "still not the taker's hand"
                break
            sub.cancel()
            request = table_pb2.ActRequest(table_id=table_id, token=taker.token)
            request.action.pile.card.code = "AD"
            await refused(stub.Act(request), FAILED, "NEXT_HAND")
        finally:
            await stop(store, running, channel)

    run(go())


def test_a_database_of_the_first_schema_is_upgraded_in_place(tmp_path):
    import sqlite3

    from cursedbottle.server.store import SCHEMA_VERSION, Store

    path = tmp_path / "db.sqlite"
    Store(path).close()
    with sqlite3.connect(path) as db:  # as the first schema had it
        db.executescript("ALTER TABLE seats DROP COLUMN from_hand; PRAGMA user_version=1;")
    reader = Store.reader(path)  # a reader reads it as it is, and writes nothing
    assert reader.tables() == []
    reader.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    Store(path).close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        columns = [row[1] for row in db.execute("PRAGMA table_info(seats)")]
    assert "from_hand" in columns
