"""Issue 13 tried again as an adversary would, after the fixes: what still gave way.

Each test is one attack by an independent client on a real server on 127.0.0.1;
each failed on main when it was written (see the issue-13 adversary report).
"""

from __future__ import annotations

import grpc
import pytest
from cursedbottle.server import CLIENT_OPTIONS, start_server
from cursedbottle.server.limits import Limits
from cursedbottle.server.store import Store
from cursedbottle.v1 import table_pb2, table_pb2_grpc
from test_server_support import add_bots, create, refused, rules, run, serving

FAILED = grpc.StatusCode.FAILED_PRECONDITION
EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED


async def _join(stub, table_id: str, name: str, seat: int):
    return await stub.Join(table_pb2.JoinRequest(table_id=table_id, name=name, seat=seat))


async def _names(stub, table_id: str) -> list[str]:
    info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
    return [s.name for s in info.seats]


@pytest.mark.parametrize(
    "name, looks_like",
    [
        ("Ann\u034f", "Ann"),  # COMBINING GRAPHEME JOINER: invisible, category Mn
        ("Ann\ufe0f", "Ann"),  # VARIATION SELECTOR-16: invisible, Mn
        ("Ann\U000e0100", "Ann"),  # VARIATION SELECTOR-17: invisible, Mn
        ("Ann\u3164", "Ann"),  # HANGUL FILLER: blank, Lo
        ("Lopaka\u034f", "Lopaka"),
        ("Lopaka\ufe0f", "Lopaka"),
        ("strong bot\u034f", "strong bot"),
    ],
)
def test_an_invisible_character_does_not_make_a_name_another_one(name, looks_like):
    """Default-ignorable characters outside category Cf are drawn as nothing: with
    one, a person passes for someone at the table, for Lopaka or for a bot."""

    async def go():
        async with serving() as (_running, stub):
            table_id, _ = await create(stub, rules(3))
            await _join(stub, table_id, "Ann", 0)
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await _join(stub, table_id, name, 1)
            assert info.value.code() in (FAILED, grpc.StatusCode.INVALID_ARGUMENT), (
                info.value.details()
            )
            assert await _names(stub, table_id) == ["Ann", "", ""], f"{name!r} ≈ {looks_like!r}"

    run(go())


def test_a_name_made_of_invisible_characters_is_refused():
    async def go():
        async with serving() as (_running, stub):
            table_id, _ = await create(stub, rules(3))
            for blank in ("\u3164", "\u115f", "\uffa0", "\u034f"):
                with pytest.raises(grpc.aio.AioRpcError):
                    await _join(stub, table_id, blank, 1)

    run(go())


def test_a_seat_joined_without_a_name_is_not_called_like_someone_else():
    """The default name ("Player 2") is given after the name check: a person who
    chose "Player 2" in seat 0 shares it with whoever joins seat 2 unnamed."""

    async def go():
        async with serving() as (_running, stub):
            table_id, _ = await create(stub, rules(3))
            await _join(stub, table_id, "Player 2", 0)
            await _join(stub, table_id, "", 2)
            names = [n for n in await _names(stub, table_id) if n]
            assert len(set(names)) == len(names), names

    run(go())


async def _my_turn(stub, table_id: str, token: str):
    """The first turn of the seat with legal actions: (its sequence, the actions)."""
    call = stub.Subscribe(table_pb2.SubscribeRequest(table_id=table_id, token=token))
    try:
        async for update in call:
            kind = update.WhichOneof("kind")
            if kind == "snapshot" and update.snapshot.view.legal_actions:
                return update.snapshot.sequence, list(update.snapshot.view.legal_actions)
            if kind == "batch" and update.batch.turn.legal_actions:
                return update.batch.turn.sequence, list(update.batch.turn.legal_actions)
    finally:
        call.cancel()
    raise AssertionError("the stream ended before the seat's turn")


def test_a_stale_act_stays_stale_after_a_restart(tmp_path):
    """The natural double send: the act was kept, the server restarted before its
    answer arrived, the client sends it again.  STALE_TURN must survive a restart."""
    path = tmp_path / "db.sqlite"

    async def go():
        store = Store(path)
        running = await start_server("127.0.0.1", 0, store=store)
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}", options=CLIENT_OPTIONS)
        stub = table_pb2_grpc.CursedBottleStub(channel)
        try:
            table_id, host = await create(stub, rules(3, hands=2), seed="stale")
            me = await _join(stub, table_id, "Alice", 0)
            await add_bots(stub, table_id, host, 2)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=me.token))
            turn, legal = await _my_turn(stub, table_id, me.token)  # the pile card
            await stub.Act(
                table_pb2.ActRequest(
                    table_id=table_id, token=me.token, action=legal[0], turn_sequence=turn
                )
            )
            turn, legal = await _my_turn(stub, table_id, me.token)  # two passes
            first = legal[0]
            other = next(
                a
                for a in legal
                if a.pass_card.to != first.pass_card.to
                and a.pass_card.card.code != first.pass_card.card.code
            )
            act = table_pb2.ActRequest(
                table_id=table_id, token=me.token, action=first, turn_sequence=turn
            )
            await stub.Act(act)
            stale = table_pb2.ActRequest(
                table_id=table_id, token=me.token, action=other, turn_sequence=turn
            )
            await refused(stub.Act(stale), FAILED, "STALE_TURN")  # (holds without a restart)
        finally:
            await channel.close()
            await running.stop(grace=1)
            store.close()
        store = Store(path)
        running = await start_server("127.0.0.1", 0, store=store)
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}", options=CLIENT_OPTIONS)
        stub = table_pb2_grpc.CursedBottleStub(channel)
        try:
            await refused(stub.Act(stale), FAILED, "STALE_TURN")
        finally:
            await channel.close()
            await running.stop(grace=1)
            store.close()

    run(go())


@pytest.mark.parametrize("method", ["ListHands", "ReviewHand"])
def test_guessing_a_password_through_the_finished_hands_is_braked(method):
    """ListHands and ReviewHand take a table's password too: without the brake of
    Join and Watch they are an unlimited guessing oracle (and each guess is a PBKDF2
    computed on the event loop: ~30 ms during which no table moves)."""
    limits = Limits(wrong_passwords=3)

    async def go():
        async with serving(limits=limits) as (_running, stub):
            made = await stub.CreateTable(
                table_pb2.CreateTableRequest(name="private", rules=rules(3), password="secret")
            )
            table_id = made.table.table_id

            def guess(i: int):
                if method == "ListHands":
                    return stub.ListHands(
                        table_pb2.ListHandsRequest(table_id=table_id, password=f"guess {i}")
                    )
                return stub.ReviewHand(
                    table_pb2.ReviewHandRequest(table_id=table_id, hand=1, password=f"guess {i}")
                )

            for i in range(limits.wrong_passwords):
                await refused(guess(i), grpc.StatusCode.PERMISSION_DENIED, "WRONG_PASSWORD")
            await refused(guess(99), EXHAUSTED, "TOO_MANY_GUESSES")
            # … and the brake is one per client, whichever call guessed.
            await refused(
                stub.Join(
                    table_pb2.JoinRequest(table_id=table_id, name="Eve", password="guess 100")
                ),
                EXHAUSTED,
                "TOO_MANY_GUESSES",
            )

    run(go())



@pytest.mark.parametrize("bot", ["strong:\u0661\u0660", "strong:１", "random\u200b"])
def test_a_bot_name_is_plain_ascii(bot):
    """Other scripts' digits are numbers to `float`, but a bot's name is shown to all."""

    async def go():
        async with serving() as (_running, stub):
            table_id, host = await create(stub, rules(3))
            add = table_pb2.AddBotRequest(table_id=table_id, token=host, bot=bot)
            await refused(stub.AddBot(add), grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_BOT")

    run(go())
