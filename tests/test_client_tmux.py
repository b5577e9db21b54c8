"""The client in a real terminal: tmux runs it, keys are sent, the screen is read back.

Each test uses a private tmux server (`tmux -L <random>`), killed at the end,
so no session outlives a test and nobody else's tmux is touched.  Without tmux
the tests fail rather than skip: the real-terminal check is part of CI.
"""

from __future__ import annotations

import grpc
from cursedbottle.cli.play import free_port
from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc
from tmux_support import SCRIPT, play_until_over, quit_cleanly, serve_in_background, wait_for


def test_play_a_hand_in_a_real_terminal(tmux):
    command = f"{SCRIPT} play --lang en --bots rule --bot-delay 0 --seed 7 --game-hands 1"
    tmux.start("main", command)
    steps = play_until_over(tmux, ["main"])["main"]
    assert steps.count("play") >= 11, steps
    assert "pile" in steps and "pass" in steps and "confirm" in steps
    text = tmux.screen("main")
    assert "Game over:" in text
    quit_cleanly(tmux, "main")


def test_two_clients_play_each_other_on_one_server(tmux):
    port = free_port()
    server = serve_in_background(port)
    try:
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        grpc.channel_ready_future(channel).result(timeout=20)
        stub = table_pb2_grpc.CursedBottleStub(channel)
        stub.CreateTable(table_pb2.CreateTableRequest(
            name="LAN game", rules=game_pb2.Rules(players=2, hands=1), seed="tmux"))
        join = f"{SCRIPT} join 127.0.0.1:{port} --lang en --name"
        tmux.start("main", f"{join} Ann")
        wait_for(tmux, "main", "LAN game")
        tmux.keys("main", "Enter")  # join the first table in the lobby
        wait_for(tmux, "main", "Waiting for players")
        tmux.start("bob", f"{join} Bob")
        wait_for(tmux, "bob", "LAN game")
        tmux.keys("bob", "Enter")
        wait_for(tmux, "main", "Bob")
        tmux.keys("main", "s")  # any seated player may start once every seat is taken
        steps = play_until_over(tmux, ["main", "bob"])
        for who in ("main", "bob"):
            assert steps[who].count("play") >= 11, steps
            assert "pass" in steps[who]
        tables = stub.ListTables(table_pb2.ListTablesRequest()).tables
        assert tables[0].state == table_pb2.TABLE_STATE_FINISHED
        names = {s.name for s in tables[0].seats}
        assert {"Ann", "Bob"} <= names
        channel.close()
        quit_cleanly(tmux, "main")
        quit_cleanly(tmux, "bob")
    finally:
        server.terminate()
        server.wait(10)
