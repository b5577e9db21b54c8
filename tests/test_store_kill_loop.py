"""Kill the server again and again, at random moments, while three people play.

`cursed-bottle serve` runs as a real process on a database; after a random
delay it gets SIGKILL — between two actions, in the middle of an Act call,
while a stream is being written, wherever the moment falls.  After each kill
the database must hold every action a client had been told was accepted, in
the order the clients saw, and the server must come back from it; the clients
rejoin with their tokens from the last event they saw.  In the end the game's
result equals an uninterrupted replay of the stored actions.
"""

from __future__ import annotations

import asyncio
import random
import signal

import grpc
from cursedbottle.engine.game import Game
from cursedbottle.server import CLIENT_OPTIONS
from cursedbottle.server.store import Store
from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc
from test_server_support import run
from test_store_restart import SEED, Human, Server, engine_action, free_port, store_rules

MAX_LIVES = 40


def acked_in_order(humans: list[Human]) -> list:
    return [engine_action(a) for _, a in sorted(ack for h in humans for ack in h.acks)]


def is_subsequence(small: list, big: list) -> bool:
    it = iter(big)
    return all(any(a == b for b in it) for a in small)


def test_kill_and_restart_at_random_moments_loses_no_acknowledged_action(tmp_path):
    db = tmp_path / "tables.db"
    port = free_port()
    target = f"127.0.0.1:{port}"
    rng = random.Random("kill-loop")
    humans: list[Human] = []
    table_id = ""
    kills = 0

    async def life(server: Server) -> bool:
        """Play until the game ends or the server is killed; True if it ended."""
        nonlocal table_id, humans
        async with grpc.aio.insecure_channel(target, options=CLIENT_OPTIONS) as channel:
            stub = table_pb2_grpc.CursedBottleStub(channel)
            host = ""
            if not humans:
                made = await stub.CreateTable(
                    table_pb2.CreateTableRequest(
                        name="kill loop",
                        rules=game_pb2.Rules(players=3, hands=20),
                        seed=SEED,
                    )
                )
                table_id = made.table.table_id
                for seat in range(3):
                    joined = await stub.Join(
                        table_pb2.JoinRequest(table_id=table_id, name=f"p{seat}", seat=seat)
                    )
                    humans = [*humans, Human(table_id, joined.token, seat)]
                host = made.host_token
            acked_before = sum(len(h.acks) for h in humans)
            for h in humans:
                h.closed = None
                h.acted_at = -1
            players = [asyncio.create_task(h.play(stub)) for h in humans]
            if host:  # the streams are open before the first event, so they see them all
                await asyncio.sleep(0.1)
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))

            async def killer() -> None:
                # A life lasts a random number of acknowledged actions, then a random
                # moment more (inside an Act, a write, a stream): counted in actions, not
                # seconds, so a slow machine gets through the game in as many lives.
                target = acked_before + rng.randint(1, 60)
                while sum(len(h.acks) for h in humans) < target:
                    await asyncio.sleep(0.002)
                await asyncio.sleep(rng.uniform(0, 0.05))
                server.kill()

            kill = asyncio.create_task(killer())
            await asyncio.wait_for(asyncio.gather(*players), 60)
            ended = all(h.closed == "the game is over" for h in humans)
            kill.cancel()
            return ended

    progress: list[tuple[int, bool]] = []  # (actions stored, killed) after each life
    missed_end = False  # the game ended, and the server was killed before they heard
    for lives in range(1, MAX_LIVES + 1):
        server = Server(db, port, tmp_path / f"life{lives}.log")
        try:
            if lives > 1:
                text = server.wait_for("unfinished table(s) resumed")
                assert "1 unfinished table(s) resumed" in text or "0 unfinished" in text, text
            over = run(life(server))
        finally:
            killed = server.process.poll() is not None
            if not killed:
                server.process.send_signal(signal.SIGTERM)
            server.process.wait(10)
        kills += killed and server.process.returncode == -signal.SIGKILL
        with Store.reader(db) as store:
            stored = [a for a, _ in store.actions(table_id)]
            finished = bool(store.tables("finished"))
        # Whatever moment the kill fell on, every acknowledged action is stored, in order.
        assert is_subsequence(acked_in_order(humans), stored), f"life {lives} lost an action"
        progress.append((len(stored), killed))
        if over:
            break
        # (Killed after the last action was stored, before the end reached the
        # clients, as seen under load: the next life serves the finished table to
        # their tokens, and they hear the end there.)
        missed_end |= finished
    else:
        # (What each life got done says whether the game stalled or only ran long.)
        raise AssertionError(f"the game did not end in {MAX_LIVES} lives: {progress}")

    assert kills >= 3, "the loop must really kill the server mid-game, again and again"
    for h in humans:
        # Every event once, in order, across all lives of the server.
        assert [e.sequence for e in h.events] == list(range(len(h.events)))
    ends = [e.game_ended for e in humans[0].events if e.HasField("game_ended")]
    assert len(ends) == 1, f"the end heard {len(ends)} times (missed in a life: {missed_end})"
    with Store.reader(db) as store:
        actions = [a for a, _ in store.actions(table_id)]
        (table,) = store.tables()
    uninterrupted = Game.replay(store_rules(db, table_id), SEED, actions)
    assert uninterrupted.is_over and table.state == "finished"
    assert list(uninterrupted.totals) == table.totals
    assert all(list(ended.totals) == table.totals for ended in ends)
