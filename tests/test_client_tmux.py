"""The client in a real terminal: tmux runs it, keys are sent, the screen is read back.

Each test uses a private tmux server (`tmux -L <random>`), killed at the end,
so no session outlives a test and nobody else's tmux is touched.  Without tmux
the tests fail rather than skip: the real-terminal check is part of CI.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import grpc
import pytest
from cursedbottle.cli.play import free_port
from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc

SCRIPT = str(Path(sys.executable).parent / "cursed-bottle")
TIMEOUT = 90


class Tmux:
    def __init__(self) -> None:
        assert shutil.which("tmux"), "tmux is needed for the real-terminal tests"
        self.socket = f"cb-test-{uuid.uuid4().hex[:10]}"
        self.path = ""

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True, text=True, timeout=20,
        )
        return done.stdout

    def start(self, name: str, command: str) -> None:
        """A window `name` running the command (the first one makes the session)."""
        shell = f"{command}; echo EXIT=$?; sleep 60"
        if not self("list-sessions").strip():
            self("new-session", "-d", "-s", "cb", "-n", name, "-x", "80", "-y", "24", shell)
            self.path = self("display-message", "-p", "#{socket_path}").strip()
        else:
            self("new-window", "-d", "-t", "cb", "-n", name, shell)

    def screen(self, window: str) -> str:
        return self("capture-pane", "-p", "-t", f"cb:{window}")

    def keys(self, window: str, *keys: str) -> None:
        self("send-keys", "-t", f"cb:{window}", *keys)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        if self.path:  # kill-server leaves the socket file behind
            Path(self.path).unlink(missing_ok=True)


@pytest.fixture
def tmux():
    t = Tmux()
    try:
        yield t
    finally:
        t.close()


def answer(tmux: Tmux, target: str, text: str) -> str | None:
    """Press what a person would for the prompt on screen; returns what was answered."""
    if "EXIT=" in text:
        return "exited"
    if "Enter: continue" in text:
        tmux.keys(target, "Enter")
        return "continue"
    if "Enter: confirm" in text:
        tmux.keys(target, "Enter")
        return "confirm"
    if "Which hand lies open" in text:
        tmux.keys(target, "1")
        return "open"
    for prompt, step in (("for the bottle's pile", "pile"), ("card to pass to", "pass"),
                         ("Your turn: play a card", "play")):
        if prompt in text:
            tmux.keys(target, "Right")
            tmux.keys(target, "Enter")
            return step
    return None


def play_until_over(tmux: Tmux, targets: list[str]) -> dict[str, list[str]]:
    steps: dict[str, list[str]] = {t: [] for t in targets}
    over: set[str] = set()
    deadline = time.monotonic() + TIMEOUT
    while len(over) < len(targets):
        assert time.monotonic() < deadline, {t: tmux.screen(t) for t in targets}
        for target in targets:
            if target in over:
                continue
            text = tmux.screen(target)
            prompt = [line for line in text.splitlines() if line.strip()]
            if any(line.strip().startswith("Game over:") for line in prompt[-4:]):
                over.add(target)
                continue
            step = answer(tmux, target, text)
            assert step != "exited", text
            if step:
                steps[target].append(step)
        time.sleep(0.25)
    return steps


def quit_cleanly(tmux: Tmux, target: str) -> None:
    tmux.keys(target, "Escape")  # close a pop-up if one is open
    time.sleep(0.3)
    tmux.keys(target, "q")
    deadline = time.monotonic() + 20
    while "EXIT=" not in tmux.screen(target):
        assert time.monotonic() < deadline, tmux.screen(target)
        time.sleep(0.2)
    assert "EXIT=0" in tmux.screen(target)


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
    server = subprocess.Popen(
        [SCRIPT, "serve", "--host", "127.0.0.1", "--port", str(port), "--bot-delay", "0",
         "--quiet", "--grace", "0.5"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
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


def wait_for(tmux: Tmux, target: str, text: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while text not in tmux.screen(target):
        assert time.monotonic() < deadline, f"{text!r} not on screen:\n{tmux.screen(target)}"
        time.sleep(0.2)
