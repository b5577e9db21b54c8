"""ListHands and ReviewHand over real gRPC on 127.0.0.1: the review's numbers are the
solver's, only finished hands are shown (never the one being played), a table's
password guards its hands, and a finished game's hands survive a restart."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import grpc
from cursedbottle.engine.cards import CURSED_BOTTLE
from cursedbottle.engine.records import HandRecord, replay, replay_hand
from cursedbottle.server import start_server, wire
from cursedbottle.server.store import Store
from cursedbottle.solver.api import solve
from cursedbottle.solver.review import build_review, record_names
from cursedbottle.v1 import table_pb2 as t
from test_server_support import (
    add_bots,
    create,
    fingerprint,
    refused,
    rules,
    run,
    serving,
    table_of,
)

NOT_FOUND = grpc.StatusCode.NOT_FOUND
DENIED = grpc.StatusCode.PERMISSION_DENIED
INVALID = grpc.StatusCode.INVALID_ARGUMENT
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION


async def bot_game(stub, players: int = 4, hands: int = 1, **kw) -> tuple[str, str]:
    """A table of random bots played to its end; (table id, host token)."""
    table_id, host = await create(stub, rules(players, hands=hands), seed="review", **kw)
    await add_bots(stub, table_id, host, players)
    await stub.Start(t.StartRequest(table_id=table_id, token=host))
    for _ in range(1000):
        info = (await stub.GetTable(t.GetTableRequest(table_id=table_id))).table
        if info.state == t.TABLE_STATE_FINISHED:
            return table_id, host
        await asyncio.sleep(0.01)
    raise AssertionError("the bots did not finish")


def check_against_solver(review: t.HandReview, obj: dict) -> None:
    """Every valued card against the solver asked afresh on the position rebuilt from
    the record, in the review's model (maxn) and the worst case (paranoid) beside it; per
    seat, the losses add up, and only cards that cost points count as mistakes."""
    record = HandRecord.from_json(obj)
    result = replay(record)
    assert review.model == "maxn" and review.worst_case
    assert review.valued_from >= review.from_trick
    assert "perfectly for themself" in review.meaning
    first = (review.valued_from - 1) * record.rules.holders
    cards = [c for trick in review.tricks for c in trick.cards]
    assert [c.card.code for c in cards] == [c.ascii for c in record.plays]
    assert [tr.winner for tr in review.tricks] == [tr.winner for tr in result.tricks]
    loss = [0] * record.rules.seats
    mistakes = [0] * record.rules.seats
    analysed = [0] * record.rules.seats
    for index, c in enumerate(cards):
        assert c.valued == (index >= first)
        if not c.valued:
            assert c.value == c.loss == c.best_value == 0 and not c.best
            continue
        if c.seat == record.lopaka:
            # His policy card: no choice (the engine plays it itself when a record is
            # replayed up to it, so there is no position "before" it to ask about).
            assert c.forced and c.loss == 0 and [b.code for b in c.best] == [c.card.code]
            analysed[c.seat] += 1
            continue
        hand = replay_hand(replace(record, plays=record.plays[:index]))
        solution = solve(hand, model="maxn")
        assert solution.seat == c.seat
        played = CURSED_BOTTLE.card(c.card.code)
        assert c.value == solution.values[played]
        worst = solve(hand, model="paranoid").values
        assert c.worst_value == worst[played]
        assert c.worst_best_value == max(worst.values())
        assert c.worst_loss == c.worst_best_value - c.worst_value
        assert c.best_value == max(solution.values.values())
        assert [b.code for b in c.best] == [b.ascii for b in solution.best]
        assert c.loss == c.best_value - c.value >= 0
        assert c.forced == (len(solution.values) == 1)
        loss[c.seat] += c.loss
        mistakes[c.seat] += c.loss > 0
        analysed[c.seat] += 1
    assert [s.loss for s in review.seats] == loss
    assert [s.mistakes for s in review.seats] == mistakes
    assert [s.analysed for s in review.seats] == analysed
    assert [s.score for s in review.seats] == list(result.scores)
    assert list(review.hand.scores) == list(result.scores)


def test_review_values_are_the_solvers_and_hands_are_listed_newest_first():
    async def main():
        async with serving() as (running, stub):
            table_id, _ = await bot_game(stub, players=4, hands=2)
            table = table_of(running, table_id)
            listed = (await stub.ListHands(t.ListHandsRequest(table_id=table_id))).hands
            assert [h.hand for h in listed] == [2, 1], "finished hands, newest first"
            assert listed[0].finished_ns >= listed[1].finished_ns > 0
            for summary in listed:
                obj = table.hand_record(summary.hand)
                record = HandRecord.from_json(obj)
                result = replay(record)
                assert summary.table_id == table_id and summary.table_name == "test table"
                assert list(summary.names) == record_names(obj, record, told_apart=False)
                assert list(summary.names) == ["random bot"] * len(obj["seating"])
                assert list(summary.scores) == list(result.scores)
                assert summary.HasField("owner") == (result.owner is not None)
                if result.owner is not None:
                    assert summary.owner == result.owner
                assert summary.rules.players == 4
            everything = (await stub.ListHands(t.ListHandsRequest())).hands
            assert list(everything) == list(listed)
            assert [h.hand for h in (await stub.ListHands(t.ListHandsRequest(limit=1))).hands] == [
                2
            ]

            obj = table.hand_record(1)
            request = t.ReviewHandRequest(table_id=table_id, hand=1, from_trick=3)
            review = await stub.ReviewHand(request)
            assert review.hand == listed[1]
            assert review.from_trick == 3 and review.dealer == obj["dealer"]
            assert [s.name for s in review.seats] == list(listed[1].names)
            assert not any(s.lopaka for s in review.seats)
            check_against_solver(review, obj)
            # The same numbers as `cursed-bottle review --json` on the exported record.
            data = build_review(HandRecord.from_json(obj), 3)
            assert [s.loss for s in review.seats] == data["loss"]
            price = data["price"]
            assert (review.price.code if review.HasField("price") else "JOKER") == price
            # A second request is answered from the cache: nothing is solved again.
            computed = running.service.reviews.computed
            again = await asyncio.gather(*(stub.ReviewHand(request) for _ in range(3)))
            assert all(a == review for a in again)
            assert running.service.reviews.computed == computed

            # A whole hand (the slow first tricks too) is solved off the event loop:
            # the server answers other calls meanwhile.
            whole = asyncio.ensure_future(
                stub.ReviewHand(t.ReviewHandRequest(table_id=table_id, hand=2))
            )
            await asyncio.sleep(0.05)
            answered_meanwhile = 0
            while not whole.done() and answered_meanwhile < 5:
                await stub.GetTable(t.GetTableRequest(table_id=table_id))
                answered_meanwhile += not whole.done()
            check_against_solver(await whole, table.hand_record(2))
            assert answered_meanwhile == 5

    run(main())


def test_lopaka_hand_review_marks_him():
    async def main():
        async with serving() as (running, stub):
            table_id, _ = await bot_game(stub, players=2, hands=1)
            obj = table_of(running, table_id).hand_record(1)
            review = await stub.ReviewHand(
                t.ReviewHandRequest(table_id=table_id, hand=1, from_trick=9)
            )
            lopaka = obj["lopaka"]
            assert [s.lopaka for s in review.seats] == [s == lopaka for s in range(3)]
            assert review.seats[lopaka].name == "Lopaka"
            his = [c for tr in review.tricks for c in tr.cards if c.seat == lopaka and c.valued]
            assert his and all(c.forced and c.loss == 0 for c in his)
            check_against_solver(review, obj)

    run(main())


async def play_until(stub, running, table_id: str, tokens: dict[int, str], done) -> None:
    """People's seats play the first legal action over gRPC until `done(game)`."""
    table = table_of(running, table_id)
    while not done(table.game):
        game = table.game
        seat = game.to_act()[0]
        action = game.legal_actions(seat)[0]
        msg = wire.action_msg(action, wire.current_map(game))
        await stub.Act(
            t.ActRequest(table_id=table_id, token=tokens[game.player_at(seat)], action=msg)
        )


CARD = re.compile(r"\b(?:10|[6-9AJQK])[DHSC]\b")


def test_refusals_and_the_hand_being_played_stays_secret():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(4, hands=2), password="pw")
            tokens = {}
            for i in range(4):
                joined = await stub.Join(
                    t.JoinRequest(table_id=table_id, name=f"P{i}", password="pw")
                )
                tokens[joined.seat] = joined.token
            await stub.Start(t.StartRequest(table_id=table_id, token=host))
            table = table_of(running, table_id)

            # Hand 1 is being played: nothing to list, and it is not shown.
            await play_until(stub, running, table_id, tokens, lambda g: len(g.hand.tricks) >= 2)
            listed = await stub.ListHands(t.ListHandsRequest(table_id=table_id, password="pw"))
            assert not listed.hands
            message = await refused(
                stub.ReviewHand(t.ReviewHandRequest(table_id=table_id, hand=1, password="pw")),
                PRECONDITION,
                "HAND_NOT_OVER",
            )
            assert "hand 1" in message and not CARD.search(message), message

            # Into hand 2: hand 1 is over and may be shown; hand 2 is not.
            await play_until(
                stub,
                running,
                table_id,
                tokens,
                lambda g: len(g.hands) == 2 and len(g.hand.tricks) >= 1,
            )
            before = fingerprint(table)
            for opener in ({"password": "pw"}, {"token": host}, {"token": tokens[2]}):
                listed = await stub.ListHands(t.ListHandsRequest(table_id=table_id, **opener))
                assert [h.hand for h in listed.hands] == [1]
                assert list(listed.hands[0].names) == [
                    f"P{p}" for p in table.hand_record(1)["seating"]
                ]
            hand2 = t.ReviewHandRequest(table_id=table_id, hand=2, password="pw")
            message = await refused(stub.ReviewHand(hand2), PRECONDITION, "HAND_NOT_OVER")
            assert "hand 2" in message and not CARD.search(message), message
            message = await refused(
                stub.ReviewHand(t.ReviewHandRequest(table_id=table_id, hand=3, password="pw")),
                NOT_FOUND,
                "NO_SUCH_HAND",
            )
            assert "hand 3" in message and "hands 1…1 are over" in message
            await refused(
                stub.ReviewHand(t.ReviewHandRequest(table_id=table_id, hand=0, password="pw")),
                INVALID,
                "MALFORMED",
            )
            message = await refused(
                stub.ReviewHand(
                    t.ReviewHandRequest(table_id=table_id, hand=1, password="pw", from_trick=10)
                ),
                INVALID,
                "MALFORMED",
            )
            assert message.startswith("from_trick: 10")

            # The password guards the table's hands; a token of another table does not open it.
            other_id, other_host = await create(stub, rules(3, hands=1))
            for wrong in ({}, {"password": "nope"}, {"token": other_host}, {"token": "x" * 20}):
                for call in (
                    stub.ListHands(t.ListHandsRequest(table_id=table_id, **wrong)),
                    stub.ReviewHand(t.ReviewHandRequest(table_id=table_id, hand=1, **wrong)),
                ):
                    await refused(call, DENIED, "WRONG_PASSWORD")
            # Every table: a table with a password only for one of its tokens.
            assert not (await stub.ListHands(t.ListHandsRequest())).hands
            mine = await stub.ListHands(t.ListHandsRequest(token=tokens[0]))
            assert [(h.table_id, h.hand) for h in mine.hands] == [(table_id, 1)]
            for call in (
                stub.ListHands(t.ListHandsRequest(table_id="nosuch")),
                stub.ReviewHand(t.ReviewHandRequest(table_id="nosuch", hand=1)),
            ):
                await refused(call, NOT_FOUND, "NO_SUCH_TABLE")
            await refused(
                stub.ReviewHand(t.ReviewHandRequest(table_id=other_id, hand=1)),
                NOT_FOUND,
                "NO_SUCH_HAND",
            )
            await refused(stub.ReviewHand(t.ReviewHandRequest(hand=1)), INVALID, "MALFORMED")
            assert fingerprint(table) == before, "refusals change nothing"

            review = await stub.ReviewHand(
                t.ReviewHandRequest(table_id=table_id, hand=1, token=tokens[3], from_trick=8)
            )
            check_against_solver(review, table.hand_record(1))
            assert fingerprint(table) == before

    run(main())


def test_a_finished_games_hands_are_reviewable_after_a_restart(tmp_path):
    path = tmp_path / "evening.db"

    async def first_life():
        running = await start_server("127.0.0.1", 0, store=Store(path))
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}")
        try:
            stub = t_stub(channel)
            table_id, host = await bot_game(stub, players=4, hands=1, password="pw")
            open_id, _ = await bot_game(stub, players=3, hands=1)
            obj = table_of(running, table_id).hand_record(1)
            listed = await stub.ListHands(t.ListHandsRequest(table_id=table_id, password="pw"))
            review = await stub.ReviewHand(
                t.ReviewHandRequest(table_id=table_id, hand=1, password="pw", from_trick=4)
            )
            everything = await stub.ListHands(t.ListHandsRequest())
            assert [(h.table_id, h.hand) for h in everything.hands] == [(open_id, 1)]
            return table_id, host, obj, listed, review, everything
        finally:
            await channel.close()
            await running.stop(grace=1)

    async def second_life(table_id, host, obj, listed, review, everything):
        running = await start_server("127.0.0.1", 0, store=Store(path))
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}")
        try:
            stub = t_stub(channel)
            assert table_id not in running.lobby.tables, "a finished game is not live again"
            again = await stub.ListHands(t.ListHandsRequest(table_id=table_id, token=host))
            assert again == listed
            # Every table: the one without a password, as before the restart.
            assert await stub.ListHands(t.ListHandsRequest()) == everything
            mine = await stub.ListHands(t.ListHandsRequest(token=host))
            assert [h.table_id for h in mine.hands] == [everything.hands[0].table_id, table_id]
            await refused(
                stub.ListHands(t.ListHandsRequest(table_id=table_id)), DENIED, "WRONG_PASSWORD"
            )
            await refused(
                stub.ReviewHand(t.ReviewHandRequest(table_id=table_id, hand=2, password="pw")),
                NOT_FOUND,
                "NO_SUCH_HAND",
            )
            stored = await stub.ReviewHand(
                t.ReviewHandRequest(table_id=table_id, hand=1, password="pw", from_trick=4)
            )
            assert stored == review
            check_against_solver(stored, obj)
            whole = await stub.ReviewHand(
                t.ReviewHandRequest(table_id=table_id, hand=1, token=host, from_trick=6)
            )
            check_against_solver(whole, obj)
        finally:
            await channel.close()
            await running.stop(grace=1)

    found = run(first_life())
    run(second_life(*found))


def t_stub(channel):
    from cursedbottle.v1 import table_pb2_grpc

    return table_pb2_grpc.CursedBottleStub(channel)
