"""`cursed-bottle join` in a real terminal, in a lobby with tables whose names are markup.

Another client makes the tables over gRPC; the lobby used to exit at once with
a MarkupError on `[/x]` (tests/test_client_names.py covers every other screen).
"""

from __future__ import annotations

import time

import grpc
from cursedbottle.cli.play import free_port
from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc
from tmux_support import SCRIPT, quit_cleanly, serve_in_background, wait_for


def _lobby_or_exit(tmux, window: str) -> str:
    """The screen once the lobby lists the tables, or once the client has exited."""
    deadline = time.monotonic() + 30
    while True:
        text = tmux.screen(window)
        if "[reverse]ADMIN[/]" in text or "EXIT=" in text:
            return text
        assert time.monotonic() < deadline, text
        time.sleep(0.2)


def test_the_lobby_shows_markup_names_literally_and_stays_open(tmux):
    port = free_port()
    server = serve_in_background(port)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=20)
            stub = table_pb2_grpc.CursedBottleStub(channel)
            made = stub.CreateTable(table_pb2.CreateTableRequest(
                name="[/x]", rules=game_pb2.Rules(players=3, hands=1)))
            stub.Join(table_pb2.JoinRequest(table_id=made.table.table_id, name="[bold red]X[/]"))
            stub.CreateTable(table_pb2.CreateTableRequest(
                name="[reverse]ADMIN[/]", rules=game_pb2.Rules(players=2, hands=1)))
        tmux.start("main", f"{SCRIPT} join 127.0.0.1:{port} --lang en --name Ann")
        text = _lobby_or_exit(tmux, "main")
        assert "EXIT=" not in text, text
        assert "[/x]" in text and "[bold red]X[/]" in text, text
        tmux.keys("main", "r")  # the lobby drawn again from a fresh list
        wait_for(tmux, "main", "[/x]")
        assert "EXIT=" not in tmux.screen("main")
        quit_cleanly(tmux, "main")  # exits 0: it was running all along
    finally:
        server.terminate()
        server.wait(10)
