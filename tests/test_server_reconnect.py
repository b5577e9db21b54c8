"""Dropped clients: the seat is kept, the token resumes it, a bot may stand in."""

from __future__ import annotations

import asyncio

import grpc
from cursedbottle.server import CLIENT_OPTIONS, wire
from cursedbottle.server.remote import RemoteSeat, random_policy
from cursedbottle.server.table_msgs import table_info
from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc
from test_server_support import (
    create,
    rules,
    run,
    seat_humans,
    serving,
    table_of,
    until,
)


def mid_trick():
    """A stop condition: true once a trick after the first is under way."""
    state = {"tricks": 0, "cards": 0}

    def stop(event: game_pb2.GameEvent) -> bool:
        if event.HasField("trick_won"):
            state["tricks"] += 1
            state["cards"] = 0
        elif event.HasField("card_played"):
            state["cards"] += 1
        return state["tricks"] >= 2 and state["cards"] == 1

    return stop


def test_a_killed_client_rejoins_with_its_token_and_the_game_goes_on():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1), seed="reconnect")
            seats = await seat_humans(stub, table_id, 3)
            table = table_of(running, table_id)
            # Seat 0 plays over a connection of its own, which is then killed.
            channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}", options=CLIENT_OPTIONS)
            doomed = RemoteSeat(
                table_pb2_grpc.CursedBottleStub(channel),
                table_id,
                seats[0].token,
                0,
                random_policy(1),
            )
            first_life = asyncio.create_task(doomed.play(from_sequence=0, stop=mid_trick()))
            others = [asyncio.create_task(s.play()) for s in seats[1:]]
            await asyncio.sleep(0.05)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            await asyncio.wait_for(first_life, 10)
            await channel.close(grace=None)  # the client dies mid-trick
            game = table.game
            assert game.hand.trick, "killed in the middle of a trick"
            await until(lambda: table.seats[0].streams == 0)
            info = table_info(table)
            assert info.seats[0].kind == table_pb2.SEAT_KIND_HUMAN and not info.seats[0].connected
            # The others play on until the game waits for seat 0.
            await until(lambda: game.player_at(game.to_act()[0]) == 0)
            await asyncio.sleep(0.05)
            before = len(game.events)
            assert not game.is_over

            last_seen = doomed.events[-1].sequence
            channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}", options=CLIENT_OPTIONS)
            back = RemoteSeat(
                table_pb2_grpc.CursedBottleStub(channel),
                table_id,
                seats[0].token,
                0,
                random_policy(2),
            )
            await back.play(from_sequence=last_seen + 1)
            await asyncio.wait_for(asyncio.gather(*others), 10)
            await channel.close()

            snapshot = back.updates[0].snapshot
            assert back.updates[0].WhichOneof("kind") == "snapshot"
            assert snapshot.sequence == before
            # The snapshot is the seat's view at that moment, field for field …
            replayed = type(game).replay(
                game.rules, game.seed, game.actions[: len_actions(game, before)]
            )
            assert snapshot.view == wire.view_msg(replayed.view(0))
            # … and, independently, its own cards and the trick on the table.
            assert {c.code for c in snapshot.view.my_cards} == {
                c.ascii for c in replayed.view(0).my_cards
            }
            assert [p.card.code for p in snapshot.view.trick] == [
                replayed.hand.deck.cards[c].ascii for c in replayed.hand.trick
            ]
            assert 0 in snapshot.view.to_act and snapshot.view.legal_actions
            # Every event exactly once across both lives, in order.
            seqs = [e.sequence for e in doomed.events] + [e.sequence for e in back.events]
            assert seqs == list(range(len(game.events)))
            assert game.is_over and back.closed == "the game is over"
            assert back.actions > 0

    run(main())


def len_actions(game, events: int) -> int:
    """How many of the game's actions had been applied when its log had `events` events."""
    replay = type(game)(game.rules, game.seed, game.first_dealer)
    count = 0
    while len(replay.events) < events:
        replay.apply(game.actions[count])
        count += 1
    assert len(replay.events) == events
    return count


def test_an_absent_seat_gets_a_stand_in_until_its_token_returns():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(
                stub, rules(3, hands=2), seed="stand-in", stand_in_after_seconds=0.2
            )
            seats = await seat_humans(stub, table_id, 3)
            table = table_of(running, table_id)
            others = [asyncio.create_task(s.play()) for s in seats[1:]]
            await asyncio.sleep(0.05)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            game = table.game
            # Seat 0 never connects: after 0.2 s a bot plays for it.
            await until(lambda: table.seats[0].stand_in is not None)
            assert table_info(table).seats[0].stand_in
            await until(lambda: sum(1 for a in game.actions if a.seat == game.seat_of(0)) >= 3)
            # It comes back: the stand-in steps aside and seat 0 plays the rest.
            back = seats[0]
            task = asyncio.create_task(back.play())
            await until(lambda: table.seats[0].stand_in is None)
            await asyncio.wait_for(asyncio.gather(task, *others), 20)
            assert game.is_over
            assert back.actions > 0
            assert back.updates[0].snapshot.view.seat == 0

    run(main())


def test_leaving_mid_game_frees_the_seat_for_someone_else():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1), seed="leave")
            seats = await seat_humans(stub, table_id, 3)
            table = table_of(running, table_id)
            tasks = [asyncio.create_task(s.play()) for s in seats]
            await asyncio.sleep(0.05)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            await until(lambda: len(table.game.actions) >= 5)
            await stub.Leave(table_pb2.LeaveRequest(table_id=table_id, token=seats[2].token))
            await asyncio.wait_for(tasks[2], 5)
            assert seats[2].closed == "you left the table"
            assert table_info(table).seats[2].kind == table_pb2.SEAT_KIND_EMPTY
            (newcomer,) = await seat_humans(stub, table_id, 1)
            assert newcomer.seat == 2
            await asyncio.wait_for(asyncio.gather(newcomer.play(), *tasks[:2]), 20)
            assert table.game.is_over

    run(main())
