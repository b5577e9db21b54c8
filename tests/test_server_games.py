"""Whole games over real gRPC on 127.0.0.1: people, bots, spectators, every variant."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from cursedbottle.server.remote import watch
from cursedbottle.v1 import game_pb2, table_pb2
from test_server_support import (
    add_bots,
    create,
    play_out,
    refused,
    rules,
    run,
    seat_humans,
    sequences,
    serving,
    stream_events,
    table_of,
)


def kinds(events) -> list[str]:
    return [e.WhichOneof("kind") for e in events]


def public_plays(events) -> list[tuple[int, str]]:
    return [
        (e.card_played.seat, e.card_played.card.code) for e in events if e.HasField("card_played")
    ]


def test_three_clients_play_a_whole_game():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=2))
            seats = await seat_humans(stub, table_id, 3)

            async def start():
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))

            await play_out(seats, start)
            game = table_of(running, table_id).game
            assert game.is_over and len(game.hands) >= 2
            n = len(game.events)
            for seat in seats:
                assert seat.closed == "the game is over"
                assert sequences(seat) == list(range(n)), "every event, in order, once"
                assert seat.actions > 0
                assert not seat.refusals, "a client that follows its turn updates is never refused"
                last = seat.events[-1]
                assert last.HasField("game_ended")
                assert list(last.game_ended.totals) == game.totals
                assert last.game_ended.winner == game.winner
                own = [
                    e.cards_dealt
                    for e in seat.events
                    if e.HasField("cards_dealt") and e.cards_dealt.seat == seat.seat
                ]
                assert [len(d.cards) for d in own] == [12] * len(game.hands)
            plays = [public_plays(s.events) for s in seats]
            assert plays[0] == plays[1] == plays[2]
            assert len(plays[0]) == 33 * len(game.hands)
            info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
            assert info.state == table_pb2.TABLE_STATE_FINISHED
            assert list(info.totals) == game.totals

    run(main())


def test_a_human_plays_with_bots():
    async def main():
        async with serving() as (running, stub):
            table_id, _host = await create(stub, rules(4, hands=1))
            (human,) = await seat_humans(stub, table_id, 1)
            await add_bots(stub, table_id, human.token, 3)  # a seat token may add bots too

            async def start():
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=human.token))

            await play_out([human], start)
            game = table_of(running, table_id).game
            assert game.is_over
            assert sequences(human) == list(range(len(game.events)))
            # 4 players: a pile card, two passes and 8 cards a hand
            assert human.actions == 11 * len(game.hands)
            info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
            assert [s.kind for s in info.seats] == [table_pb2.SEAT_KIND_HUMAN] + [
                table_pb2.SEAT_KIND_BOT
            ] * 3

    run(main())


@pytest.mark.parametrize(("bot", "hands"), [("random", 2), ("strong:0.05", 1)])
def test_a_bot_table_finishes_while_a_spectator_watches(bot, hands):
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=hands))
            await add_bots(stub, table_id, host, 3, bot=bot)
            spectator = asyncio.create_task(watch(stub, table_id))
            await asyncio.sleep(0.05)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            updates = await asyncio.wait_for(spectator, 60)
            game = table_of(running, table_id).game
            assert game.is_over
            events = stream_events(updates)
            assert [e.sequence for e in events] == list(range(len(game.events)))
            assert updates[-1].closed.reason == "the game is over"
            for e in events:
                if e.HasField("cards_dealt"):
                    assert not e.cards_dealt.cards, "a spectator sees no hidden hand"
                if e.HasField("pile_card_placed"):
                    assert not e.pile_card_placed.HasField("card")
            ended = [e.hand_ended for e in events if e.HasField("hand_ended")]
            assert len(ended) == len(game.hands)
            for number, end in enumerate(ended, start=1):
                hand = game.hands[number - 1]
                dealt = {d.seat: {c.code for c in d.cards} for d in end.deal.dealt}
                for seat in range(3):
                    want = {c.ascii for c in hand.deck.cards_of(hand.dealt[seat])}
                    assert dealt[seat] == want, "the whole deal once the hand is over"
                assert len(end.deal.passes) == 6
                assert sorted(c.code for c in end.pile) == sorted(
                    c.code for p in end.deal.pile for c in p.cards
                )

    run(main())


def test_two_players_with_lopaka():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(2, hands=2), seed="lopaka")
            seats = await seat_humans(stub, table_id, 2)

            async def start():
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))

            await play_out(seats, start)
            game = table_of(running, table_id).game
            assert game.is_over
            events = seats[0].events
            started = [e.hand_started for e in events if e.HasField("hand_started")]
            assert all(s.lopaka == 2 for s in started), "Lopaka is table seat 2 in every hand"
            orders = {tuple(s.seat_order) for s in started}
            assert orders == {(0, 1, 2), (1, 0, 2)}, "the dealer rotates; Lopaka follows"
            for e in events:
                if e.HasField("cards_dealt") and e.cards_dealt.seat == 2:
                    assert e.cards_dealt.public and len(e.cards_dealt.cards) == 11
                if e.HasField("card_passed"):
                    assert {e.card_passed.seat, e.card_passed.to} == {0, 1}
            plays = public_plays(events)
            assert len(plays) == 33 * len(game.hands)
            assert {seat for seat, _ in plays} == {0, 1, 2}
            ended = [e.hand_ended for e in events if e.HasField("hand_ended")]
            assert all(len(h.pile) == 3 and len(h.scores) == 3 for h in ended)
            for seat in seats:
                assert sequences(seat) == list(range(len(game.events)))
                assert seat.actions == 12 * len(game.hands)  # one pass and 11 cards

    run(main())


def test_the_bright_house():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(2, hands=1, bright_house=True))
            seats = await seat_humans(stub, table_id, 2)

            async def start():
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))

            await play_out(seats, start)
            game = table_of(running, table_id).game
            assert game.is_over
            for seat in seats:
                events = seat.events
                assert sequences(seat) == list(range(len(game.events)))
                revealed = [
                    e.open_hand_revealed for e in events if e.HasField("open_hand_revealed")
                ]
                assert len(revealed) == 2 * len(game.hands)
                assert all(len(r.cards) == 8 for r in revealed)
                tricks = [e.trick_won for e in events if e.HasField("trick_won")]
                assert len(tricks) == 8 * len(game.hands)
                assert all(len(t.cards) == 4 for t in tricks)
                own = [
                    e.cards_dealt
                    for e in events
                    if e.HasField("cards_dealt") and e.cards_dealt.seat == seat.seat
                ]
                assert sorted(d.hand for d in own[:2]) == [0, 1]
                # two piles, two passes, the open hand and 16 cards a hand
                assert seat.actions == 21 * len(game.hands)

    run(main())


def test_devils_eye():
    """The Bottle Imp for two: passes for the opponent's first and second hand,
    the first hands laid open, four-card tricks from either hand."""

    async def main():
        async with serving() as (running, stub):
            imp2 = rules(2, hands=1, game=game_pb2.GAME_BOTTLE_IMP)
            table_id, host = await create(stub, imp2, seed="devil's eye")
            seats = await seat_humans(stub, table_id, 2)

            async def start():
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))

            await play_out(seats, start)
            game = table_of(running, table_id).game
            assert game.is_over and len(game.hands) == 1
            for seat in seats:
                events = seat.events
                own = [
                    e.cards_dealt
                    for e in events
                    if e.HasField("cards_dealt") and e.cards_dealt.seat == seat.seat
                ]
                assert sorted((d.hand, len(d.cards)) for d in own) == [(0, 6), (1, 12)]
                stages = [
                    (p.phase, p.stage_hand, p.pass_to_hand if p.HasField("pass_to_hand") else None)
                    for e in events
                    if e.HasField("phase_started")
                    for p in [e.phase_started]
                ]
                assert stages == [
                    (game_pb2.PHASE_PILE, 1, None),
                    (game_pb2.PHASE_PASS, 1, 0),
                    (game_pb2.PHASE_PASS, 1, 1),
                    (game_pb2.PHASE_PLAY, 0, None),
                ]
                received = [
                    e.card_passed for e in events
                    if e.HasField("card_passed") and e.card_passed.to == seat.seat
                ]
                assert sorted(r.hand for r in received) == [0, 1]
                assert all(r.card.code for r in received)
                revealed = [
                    e.open_hand_revealed for e in events if e.HasField("open_hand_revealed")
                ]
                assert [(r.seat, r.hand, len(r.cards)) for r in revealed] == [
                    (0, 0, 7), (1, 0, 7)
                ]
                tricks = [e.trick_won for e in events if e.HasField("trick_won")]
                assert len(tricks) == 8 and all(len(t.cards) == 4 for t in tricks)
                # two pile cards, two passes and 16 cards
                assert seat.actions == 20
            (ended,) = [e.hand_ended for e in seats[0].events if e.HasField("hand_ended")]
            assert list(ended.scores) == list(game.hands[0].scores())

    run(main())


def test_list_tables_and_health():
    async def main():
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        async with serving() as (_running, stub):
            table_id, _ = await create(stub, rules(3), password="secret")
            listed = (await stub.ListTables(table_pb2.ListTablesRequest())).tables
            assert [t.table_id for t in listed] == [table_id]
            assert listed[0].has_password and listed[0].state == table_pb2.TABLE_STATE_WAITING
            assert [s.kind for s in listed[0].seats] == [table_pb2.SEAT_KIND_EMPTY] * 3
            assert listed[0].chosen_seed, "everyone sees that the creator knows the seed"
            unseeded = await stub.CreateTable(table_pb2.CreateTableRequest(rules=rules(3)))
            assert not unseeded.table.chosen_seed
            health = health_pb2_grpc.HealthStub(stub.channel)
            reply = await health.Check(
                health_pb2.HealthCheckRequest(service="cursedbottle.v1.CursedBottle")
            )
            assert reply.status == health_pb2.HealthCheckResponse.SERVING

    run(main())


def test_kinds_of_a_seat_stream():
    """The stream's shape: a snapshot first, events with their turn updates, then closed."""

    async def main():
        async with serving() as (_running, stub):
            table_id, host = await create(stub, rules(3, hands=1))
            (human,) = await seat_humans(stub, table_id, 1)
            await add_bots(stub, table_id, host, 2)

            async def start():
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))

            await play_out([human], start)
            shape = [u.WhichOneof("kind") for u in human.updates]
            assert shape[0] == "snapshot" and shape[-1] == "closed"
            assert "batch" in shape and "table" in shape
            batches = [u.batch for u in human.updates if u.WhichOneof("kind") == "batch"]
            assert batches[0].events[0].HasField("game_started")
            assert all(b.HasField("turn") for b in batches), "each step ends with whose turn"
            assert batches[-1].turn.game_over

    run(main())


def test_a_client_that_stops_reading_does_not_stall_the_table():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=6))
            await add_bots(stub, table_id, host, 3)
            stalled = stub.Watch(table_pb2.WatchRequest(table_id=table_id))
            await stalled.initial_metadata()  # subscribed, and never reads a message
            reader = asyncio.create_task(watch(stub, table_id))
            await asyncio.sleep(0.05)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            updates = await asyncio.wait_for(reader, 30)
            game = table_of(running, table_id).game
            assert game.is_over
            assert [e.sequence for e in stream_events(updates)] == list(range(len(game.events)))
            stalled.cancel()

    run(main())


def test_a_bot_added_mid_game_takes_over_an_empty_seat():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1), seed="replace")
            seats = await seat_humans(stub, table_id, 3)
            table = table_of(running, table_id)
            tasks = [asyncio.create_task(s.play()) for s in seats[:2]]
            await asyncio.sleep(0.05)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            await stub.Leave(table_pb2.LeaveRequest(table_id=table_id, token=seats[2].token))
            await asyncio.sleep(0.1)
            assert not table.game.is_over, "the game waits for the empty seat"
            await add_bots(stub, table_id, host, 1)
            await asyncio.wait_for(asyncio.gather(*tasks), 20)
            assert table.game.is_over

    run(main())


def test_finished_tables_make_room_for_new_ones():
    from cursedbottle.server.limits import Limits
    from cursedbottle.server.lobby import Lobby
    from cursedbottle.server.runner import BotRunner

    async def main():
        lobby = Lobby(BotRunner(2), limits=Limits(max_tables=2))
        async with serving(lobby=lobby) as (running, stub):
            finished, host = await create(stub, rules(3, hands=1))
            await add_bots(stub, finished, host, 3)
            spectator = asyncio.create_task(watch(stub, finished))
            await asyncio.sleep(0.05)
            await stub.Start(table_pb2.StartRequest(table_id=finished, token=host))
            await asyncio.wait_for(spectator, 20)
            waiting, _ = await create(stub, rules(3))
            await asyncio.sleep(0.05)  # the spectator's stream is gone
            newest, _ = await create(stub, rules(3))
            assert set(running.lobby.tables) == {waiting, newest}
            await refused(
                stub.CreateTable(table_pb2.CreateTableRequest()),
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "TOO_MANY_TABLES",
            )

    run(main())


def test_a_thinking_bot_does_not_delay_other_tables(monkeypatch):
    import random as random_module
    import time

    from cursedbottle.bots import registry

    class SleepyBot:
        """Thinks for a long time (sleeping releases the GIL, as the solver does)."""

        name = "sleepy"

        def __init__(self, seed: int = 0) -> None:
            self.rng = random_module.Random(seed)

        def act(self, view):
            time.sleep(1.0)
            return self.rng.choice(view.legal_actions)

    monkeypatch.setattr(registry, "BOTS", (*registry.BOTS, SleepyBot))

    async def main():
        async with serving() as (running, stub):
            slow, slow_host = await create(stub, rules(3, hands=1))
            await add_bots(stub, slow, slow_host, 3, bot="sleepy")
            fast, fast_host = await create(stub, rules(3, hands=1))
            await add_bots(stub, fast, fast_host, 3)
            await stub.Start(table_pb2.StartRequest(table_id=slow, token=slow_host))
            await asyncio.sleep(0.1)  # all three sleepy bots are thinking now
            began = time.perf_counter()
            spectator = asyncio.create_task(watch(stub, fast))
            await stub.Start(table_pb2.StartRequest(table_id=fast, token=fast_host))
            await asyncio.wait_for(spectator, 10)
            assert table_of(running, fast).game.is_over
            assert time.perf_counter() - began < 0.9, "the fast table did not wait"
            assert len(table_of(running, slow).game.actions) == 0

    run(main())


def test_a_five_player_bottle_imp_table_over_the_wire():
    """The original game: 54 numbered cards in three colours, the dealer a card short."""

    async def main():
        async with serving() as (running, stub):
            imp = rules(5, hands=1, game=game_pb2.GAME_BOTTLE_IMP)
            table_id, host = await create(stub, imp)
            seats = await seat_humans(stub, table_id, 5)

            async def start():
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))

            await play_out(seats, start)
            game = table_of(running, table_id).game
            assert game.is_over and len(game.hands) == 1
            info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
            assert info.rules.game == game_pb2.GAME_BOTTLE_IMP
            assert info.rules.start_price == "19"
            dealer = game.hands[0].dealer
            colours = {game_pb2.SUIT_YELLOW, game_pb2.SUIT_BLUE, game_pb2.SUIT_RED}
            for seat in seats:
                (dealt,) = [
                    e.cards_dealt
                    for e in seat.events
                    if e.HasField("cards_dealt") and e.cards_dealt.seat == seat.seat
                ]
                assert len(dealt.cards) == (10 if seat.seat == dealer else 11)
                assert {c.suit for c in dealt.cards} <= colours
                assert all(1 <= c.points <= 6 for c in dealt.cards)
                (ended,) = [e.hand_ended for e in seat.events if e.HasField("hand_ended")]
                assert len(ended.pile) == 4  # the dealer lays no card away
                assert list(ended.scores) == list(game.hands[0].scores())
            assert len(public_plays(seats[0].events)) == 50

    run(main())


def test_a_second_bottle_table_reports_both_bottles():
    async def main():
        async with serving() as (running, stub):
            two = rules(6, hands=1, game=game_pb2.GAME_BOTTLE_IMP, second_bottle=True)
            table_id, host = await create(stub, two, seed="two bottles")
            seats = await seat_humans(stub, table_id, 6)

            async def start():
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))

            await play_out(seats, start)
            hand = table_of(running, table_id).game.hands[0]
            want = [(None if c is None else c.ascii, o) for c, o in hand.bottle_states()]
            for seat in seats:
                (ended,) = [e.hand_ended for e in seat.events if e.HasField("hand_ended")]
                got = [
                    (b.price.code if b.HasField("price") else None,
                     b.owner if b.HasField("owner") else None)
                    for b in ended.bottles
                ]
                assert got == want and len(got) == 2
                won = [e.trick_won for e in seat.events if e.HasField("trick_won")]
                assert all(len(t.bottles) == 2 for t in won)
            assert list(ended.scores) == list(hand.scores())

    run(main())


IMP = game_pb2.GAME_BOTTLE_IMP


@pytest.mark.parametrize("table_rules", [
    rules(3), rules(4, hot_bottle=True), rules(2), rules(2, bright_house=True),
    rules(2, game=IMP), rules(3, game=IMP), rules(5, game=IMP),
    rules(4, game=IMP, teams=True), rules(6, game=IMP, teams=True, singles=True),
    rules(5, game=IMP, second_bottle=True),
], ids=["3p", "4p-hot", "2p-lopaka", "2p-bright", "devils-eye", "imp-3p", "imp-5p",
        "imp-4p-teams", "imp-6p-2211", "imp-5p-2bottles"])
def test_a_stream_opened_as_the_game_starts_learns_that_it_started(monkeypatch,
                                                                   table_rules):
    """The snapshot says the table waits, and the game starts while it is being written:
    the table's new state must still follow (the client's waiting room closes on it).
    The stream once took that change for sent, and the room stayed over a game under
    way. The start is put exactly there: right after the snapshot is taken."""
    from cursedbottle.server import service

    taken = service.snapshot_msg

    def then_start(table, player):
        snapshot = taken(table, player)
        if table.game is None:
            asyncio.get_running_loop().call_soon(table.start)
        return snapshot

    monkeypatch.setattr(service, "snapshot_msg", then_start)

    async def main():
        async with serving() as (_running, stub):
            table_id, host = await create(stub, table_rules)
            (human,) = await seat_humans(stub, table_id, 1)
            info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
            empty = [x for x in info.seats if x.kind == table_pb2.SEAT_KIND_EMPTY]
            await add_bots(stub, table_id, host, len(empty))
            stream = stub.Subscribe(table_pb2.SubscribeRequest(table_id=table_id,
                                                               token=human.token))
            states = []
            async with asyncio.timeout(10):
                async for update in stream:
                    kind = update.WhichOneof("kind")
                    if kind in ("snapshot", "table"):
                        info = update.snapshot.table if kind == "snapshot" else update.table
                        states.append(info.state)
                    if states[-1] == table_pb2.TABLE_STATE_PLAYING:
                        break
            stream.cancel()
            assert states == [table_pb2.TABLE_STATE_WAITING, table_pb2.TABLE_STATE_PLAYING]

    run(main())
