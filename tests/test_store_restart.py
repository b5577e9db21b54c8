"""Issue 7's promise, tested the hard way: `cursed-bottle serve` as a real process
with a database, killed with SIGKILL in the middle of a trick right after it
acknowledged a card, started again; the clients come back with their tokens,
the bot plays on, and the game ends with the scores an uninterrupted replay of
the same actions gives."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import grpc
from cursedbottle.engine.actions import PassCard, PileCard, Play
from cursedbottle.engine.cards import CURSED_BOTTLE
from cursedbottle.engine.game import Game
from cursedbottle.server import CLIENT_OPTIONS
from cursedbottle.server.store import Store
from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc
from test_server_support import run

SEED = "sigkill"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`cursed-bottle serve` in a process of its own, its log in a file."""

    def __init__(self, db: Path, port: int, log: Path) -> None:
        self.log = log
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cursedbottle.cli.main",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--bot-delay",
                # Long enough that the bot cannot answer between our card's acknowledgement
                # and the kill (so the kill is mid-trick), short enough for a quick test.
                "0.05",
                "--db",
                str(db),
            ],
            stderr=log.open("w"),
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.wait_for("listening on")

    def wait_for(self, needle: str, timeout: float = 30) -> str:
        """The log once it says `needle` (the server logs line by line as it
        starts: the resumed tables come after "listening on")."""
        deadline = time.monotonic() + timeout
        while needle not in self.text():
            assert self.process.poll() is None, self.text()
            assert time.monotonic() < deadline, f"the server never logged {needle!r}"
            time.sleep(0.05)
        return self.text()

    def text(self) -> str:
        return self.log.read_text()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)


def engine_action(msg: game_pb2.Action):
    """A wire action as the engine's (3 players: hand seats are table seats)."""
    kind = msg.WhichOneof("kind")
    if kind == "play":
        return Play(msg.seat, CURSED_BOTTLE.card(msg.play.card.code))
    if kind == "pile":
        return PileCard(msg.seat, CURSED_BOTTLE.card(msg.pile.card.code))
    assert kind == "pass_card"
    return PassCard(msg.seat, msg.pass_card.to, CURSED_BOTTLE.card(msg.pass_card.card.code))


class Human:
    """A seat played with random legal moves; keeps every event and every acknowledged
    action, and can pull the plug on the server right after an acknowledgement."""

    def __init__(self, table_id: str, token: str, seat: int) -> None:
        self.table_id, self.token, self.seat = table_id, token, seat
        self.rng = random.Random(seat)
        self.events: list[game_pb2.GameEvent] = []
        self.acks: list[tuple[int, game_pb2.Action]] = []
        self.acted_at = -1
        self.closed: str | None = None
        #: Called after an acknowledged play; returning True ends this life.
        self.after_ack = lambda: False

    @property
    def plays(self) -> int:
        return sum(1 for e in self.events if e.HasField("card_played"))

    async def play(self, stub) -> None:
        request = table_pb2.SubscribeRequest(table_id=self.table_id, token=self.token)
        if self.events:
            request.from_sequence = self.events[-1].sequence + 1
        try:
            async for update in stub.Subscribe(request):
                kind = update.WhichOneof("kind")
                if kind == "snapshot" and update.snapshot.HasField("view"):
                    view = update.snapshot.view
                    if await self.consider(
                        stub, view.to_act, view.legal_actions, update.snapshot.sequence
                    ):
                        return
                elif kind == "batch":
                    self.events.extend(update.batch.events)
                    turn = update.batch.turn
                    if update.batch.HasField("turn") and await self.consider(
                        stub, turn.to_act, turn.legal_actions, turn.sequence
                    ):
                        return
                elif kind == "closed":
                    self.closed = update.closed.reason
                    return
        except grpc.aio.AioRpcError:
            if self.closed is None:
                self.closed = "connection lost"

    async def consider(self, stub, to_act, legal, sequence: int) -> bool:
        if sequence < self.acted_at or self.seat not in to_act or not legal:
            return False
        action = legal[self.rng.randrange(len(legal))]
        reply = await stub.Act(
            table_pb2.ActRequest(table_id=self.table_id, token=self.token, action=action)
        )
        self.acted_at = reply.sequence
        self.acks.append((reply.sequence, action))
        return action.HasField("play") and self.after_ack()


def test_sigkill_mid_trick_then_restart_and_the_game_is_finished(tmp_path):
    db = tmp_path / "lan.db"
    port = free_port()
    target = f"127.0.0.1:{port}"
    server = Server(db, port, tmp_path / "first.log")
    killed_at: dict[str, int] = {}

    async def first_life():
        async with grpc.aio.insecure_channel(target, options=CLIENT_OPTIONS) as channel:
            stub = table_pb2_grpc.CursedBottleStub(channel)
            made = await stub.CreateTable(
                table_pb2.CreateTableRequest(
                    name="lan", rules=game_pb2.Rules(players=3, hands=2), seed=SEED
                )
            )
            table_id = made.table.table_id
            humans = []
            for i in range(2):
                joined = await stub.Join(table_pb2.JoinRequest(table_id=table_id, name=f"p{i}"))
                humans.append(Human(table_id, joined.token, joined.seat))
            await stub.AddBot(
                table_pb2.AddBotRequest(table_id=table_id, token=made.host_token, bot="random")
            )

            def kill_mid_trick(human: Human):
                def after_ack() -> bool:
                    # Our card went second into a trick of the second hand: kill now,
                    # before the bot (third) can answer, with no time to flush anything.
                    hand = max(e.hand_number for e in human.events)
                    if hand == 2 and human.plays % 3 == 1 and "plays" not in killed_at:
                        server.process.send_signal(signal.SIGKILL)
                        killed_at["plays"] = human.plays + 1
                        killed_at["acked"] = human.acks[-1][0]
                        return True
                    return False

                return after_ack

            for h in humans:
                h.after_ack = kill_mid_trick(h)
            tasks = [asyncio.create_task(h.play(stub)) for h in humans]
            await asyncio.sleep(0.1)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=made.host_token))
            await asyncio.wait_for(asyncio.gather(*tasks), 30)
            return table_id, humans

    table_id, humans = run(first_life())
    server.kill()
    assert "plays" in killed_at, "the server was killed mid-trick"
    assert server.process.returncode == -signal.SIGKILL

    with Store.reader(db) as store:
        stored = store.actions(table_id)
    # Everything acknowledged is in the database, the last card included.
    last_ack = max(seq for h in humans for seq, _ in h.acks)
    assert last_ack == killed_at["acked"]
    replayed = Game.replay(game_rules := store_rules(db, table_id), SEED, [a for a, _ in stored])
    assert len(replayed.events) >= last_ack
    assert replayed.hand.trick, "the database holds a trick under way"

    server = Server(db, port, tmp_path / "second.log")
    try:
        assert "1 unfinished table(s) resumed" in server.wait_for("unfinished table(s) resumed")

        async def second_life():
            async with grpc.aio.insecure_channel(target, options=CLIENT_OPTIONS) as channel:
                stub = table_pb2_grpc.CursedBottleStub(channel)
                for h in humans:
                    h.after_ack = lambda: False
                await asyncio.wait_for(asyncio.gather(*(h.play(stub) for h in humans)), 30)

        run(second_life())
    finally:
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(10)

    for h in humans:
        assert h.closed == "the game is over", h.closed
        # Every event once, in order, across both lives of the server.
        assert [e.sequence for e in h.events] == list(range(len(h.events)))
    (ended,) = [e.game_ended for e in humans[0].events if e.HasField("game_ended")]

    with Store.reader(db) as store:
        actions = [a for a, _ in store.actions(table_id)]
        (table,) = store.tables()
    assert table.state == "finished"
    # The final scores equal an uninterrupted replay of the same actions …
    uninterrupted = Game.replay(game_rules, SEED, actions)
    assert uninterrupted.is_over
    assert list(ended.totals) == list(uninterrupted.totals) == table.totals
    # … which hold every move the clients had acknowledged, in the server's order …
    acked = [engine_action(a) for _, a in sorted(ack for h in humans for ack in h.acks)]
    it = iter(actions)
    assert all(any(a == b for b in it) for a in acked), "an acknowledged move was lost"
    # … and the bot (seat 2) played on after the restart.
    assert any(a.seat == 2 for a in actions[len(stored) :])


def store_rules(db: Path, table_id: str):
    with Store.reader(db) as store:
        (table,) = [t for t in store.tables() if t.table_id == table_id]
        return table.rules
