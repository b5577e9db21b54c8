"""The server's compute cannot be taken by one client (issue 13: bots, hints, reviews).

Against a real server on 127.0.0.1 (in this process, or `cursed-bottle serve` in
its own): a bot's think time is bounded; expensive bots of some tables do not
stop another table's bots; a seat has one hint in flight; a review nobody
waits for any more is cancelled (its search stops), and one client's reviews
in flight are bounded; SIGTERM stops a server whose bots are deep in a search.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys

import grpc
import pytest
from cursedbottle.server.hints import MAX_HINTS_PER_SEAT
from cursedbottle.server.review import MAX_REVIEWS_PER_CLIENT
from cursedbottle.server.runner import MAX_BOT_SECONDS
from cursedbottle.server.table_msgs import table_info
from cursedbottle.v1 import table_pb2, table_pb2_grpc
from test_server_support import add_bots, create, refused, rules, run, serving

EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED


async def _until(condition, what: str, limit: float = 20.0) -> None:
    """Wait for `condition()` (a bound against hanging, not a measurement)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not condition():
        assert loop.time() < end, f"never happened: {what}"
        await asyncio.sleep(0.05)


async def _finished_hand(stub) -> str:
    """A table of random bots whose one hand is over; its id."""
    table_id, host = await create(stub, rules(3, hands=1), seed="review me")
    await add_bots(stub, table_id, host, 3)
    await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
    async for update in stub.Watch(table_pb2.WatchRequest(table_id=table_id)):
        if update.WhichOneof("kind") == "closed":
            break
    return table_id


@pytest.mark.parametrize(
    "bot", ["strong:inf", "strong:nan", "strong:1e9", "strong:n1000000", "strong:0.3:x33"]
)
def test_a_bot_that_would_think_without_bound_is_refused(bot):
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3))
            message = await refused(
                stub.AddBot(table_pb2.AddBotRequest(table_id=table_id, token=host, bot=bot)),
                grpc.StatusCode.INVALID_ARGUMENT,
                "BOT_EFFORT",
            )
            assert "limit" in message
            assert not table_info(running.lobby.tables[table_id]).seats[0].bot
            request = table_pb2.CreateTableRequest(name="t", rules=rules(3), stand_in_bot=bot)
            before = len(running.lobby.tables)
            await refused(
                stub.CreateTable(request), grpc.StatusCode.INVALID_ARGUMENT, "BOT_EFFORT"
            )
            assert len(running.lobby.tables) == before
            # The limit itself is allowed.
            name = f"strong:{MAX_BOT_SECONDS:g}"
            await stub.AddBot(table_pb2.AddBotRequest(table_id=table_id, token=host, bot=name))

    run(main())


def test_tables_of_expensive_bots_do_not_stop_another_tables_cheap_bots():
    async def main():
        async with serving(bot_workers=8) as (_, stub):
            for i in range(8):
                table_id, host = await create(stub, rules(3), seed=f"slow {i}")
                await add_bots(stub, table_id, host, 3, bot=f"strong:{MAX_BOT_SECONDS:g}")
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            await asyncio.sleep(1.0)  # every strong bot thinks, or waits for a thread
            table_id, host = await create(stub, rules(3, hands=1), seed="cheap")
            await add_bots(stub, table_id, host, 3, bot="random")
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            closed = ""
            async for update in stub.Watch(table_pb2.WatchRequest(table_id=table_id)):
                if update.WhichOneof("kind") == "closed":
                    closed = update.closed.reason
                    break
            assert closed == "the game is over"
            info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
            assert info.state == table_pb2.TABLE_STATE_FINISHED
            assert info.hands_played == 1

    run(main(), timeout=60)


def test_a_seat_has_one_hint_in_flight():
    async def main():
        async with serving() as (_, stub):
            table_id, host = await create(stub, rules(3))
            joined = await stub.Join(table_pb2.JoinRequest(table_id=table_id, name="Ann"))
            await add_bots(stub, table_id, host, 2)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            ask = table_pb2.HintRequest(table_id=table_id, token=joined.token, budget_ms=2500)
            first = asyncio.ensure_future(stub.Hint(ask))
            await asyncio.sleep(0.3)
            second = asyncio.ensure_future(stub.Hint(ask))
            outcomes = await asyncio.gather(first, second, return_exceptions=True)
            errors = [o for o in outcomes if isinstance(o, grpc.aio.AioRpcError)]
            answers = [o for o in outcomes if isinstance(o, table_pb2.HintResponse)]
            assert len(answers) == 1 and answers[0].actions, outcomes
            assert len(errors) == 1 and errors[0].code() == EXHAUSTED, outcomes
            assert f"limit is {MAX_HINTS_PER_SEAT}" in errors[0].details()
            # Once answered, the seat may ask again.
            ask = table_pb2.HintRequest(table_id=table_id, token=joined.token, budget_ms=50)
            assert (await stub.Hint(ask)).actions

    run(main())


@pytest.fixture
def slow_reviews(monkeypatch):
    """Reviews that value every trick under maxn, the first ones included: each takes
    far longer than the tests wait (a whole review as the server makes it is quick)."""
    import cursedbottle.solver.review as review

    monkeypatch.setattr(review, "maxn_cards", lambda rules: 1000)


def test_a_review_nobody_waits_for_is_cancelled(slow_reviews):
    async def main():
        async with serving() as (running, stub):
            table_id = await _finished_hand(stub)
            pool = running.lobby.runner.reviews
            request = table_pb2.ReviewHandRequest(table_id=table_id, hand=1, from_trick=1)
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await stub.ReviewHand(request, timeout=0.5)
            assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            # The search saw the cancellation and stopped: the thread is free again.
            await _until(lambda: pool.cancelled_jobs == 1, "the review's search was cancelled")
            await _until(lambda: pool.busy == 0, "the review thread is idle")

    run(main())


def test_reviews_in_flight_are_bounded_per_client(slow_reviews):
    async def main():
        async with serving() as (running, stub):
            table_id = await _finished_hand(stub)
            calls = [
                stub.ReviewHand(
                    table_pb2.ReviewHandRequest(table_id=table_id, hand=1, from_trick=trick),
                    timeout=20,
                )
                for trick in range(1, MAX_REVIEWS_PER_CLIENT + 1)
            ]
            waiting = [asyncio.ensure_future(c) for c in calls]
            await asyncio.sleep(0.3)
            one_more = table_pb2.ReviewHandRequest(
                table_id=table_id, hand=1, from_trick=MAX_REVIEWS_PER_CLIENT + 1
            )
            message = await refused(
                stub.ReviewHand(one_more, timeout=5), EXHAUSTED, "TOO_MANY_REVIEWS"
            )
            assert f"at most {MAX_REVIEWS_PER_CLIENT} reviews" in message
            for call in calls:
                call.cancel()
            await asyncio.gather(*waiting, return_exceptions=True)
            pool = running.lobby.runner.reviews
            await _until(lambda: pool.busy == 0, "the abandoned reviews stopped")

    run(main())


def test_sigterm_stops_a_server_whose_bots_are_deep_in_a_search():
    grace = 0.5
    process = subprocess.Popen(
        [sys.executable, "-m", "cursedbottle.cli.main", "serve", "--host", "127.0.0.1",
         "--port", "0", "--bot-delay", "0", "--grace", str(grace), "--no-db"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", process.stderr.readline())
        assert match
        with grpc.insecure_channel(f"127.0.0.1:{match.group(1)}") as channel:
            stub = table_pb2_grpc.CursedBottleStub(channel)
            for i in range(3):
                created = stub.CreateTable(
                    table_pb2.CreateTableRequest(name=f"deep {i}", rules=rules(3)), timeout=5
                )
                table_id, host = created.table.table_id, created.host_token
                for _ in range(3):
                    stub.AddBot(
                        table_pb2.AddBotRequest(
                            table_id=table_id, token=host, bot=f"strong:{MAX_BOT_SECONDS:g}"
                        ),
                        timeout=5,
                    )
                stub.Start(table_pb2.StartRequest(table_id=table_id, token=host), timeout=5)
        # Every bot is now a second into a decision of up to ten seconds.
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=1)
        process.send_signal(signal.SIGTERM)
        # The grace and the runner's second; a bound against hanging, far below
        # the ten seconds a decision may still take.
        assert process.wait(timeout=grace + 4) == 0
        assert "server stopped" in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
