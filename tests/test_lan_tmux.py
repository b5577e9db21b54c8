"""A LAN evening in real terminals: two friends and a bot, set up from the clients' keys.

Ann makes the table in the form, puts a bot in seat 3 and lets a bot stand in
after 5 s; Bob joins from the lobby; Ann starts.  They play the first hand, Bob's
terminal is killed, a bot plays for him, and Bob, starting the client again, is
led to his table and gets his seat back.  Every wait is for text on the screen.
"""

from __future__ import annotations

import time

import grpc
from cursedbottle.cli.play import free_port
from tmux_support import SCRIPT, Tmux, answer, serve_in_background, wait_for

LIMIT = 40


def _status(tmux: Tmux, window: str) -> str:
    return tmux.screen(window).splitlines()[0] if tmux.screen(window) else ""


def _play_until(tmux: Tmux, windows: list[str], done, timeout: float = LIMIT) -> list[str]:
    """Answer every prompt of `windows` like a person until `done(steps)`; the steps the
    last window answered."""
    deadline = time.monotonic() + timeout
    steps: list[str] = []
    while not done(steps):
        assert time.monotonic() < deadline, {w: tmux.screen(w) for w in windows}
        for window in windows:
            step = answer(tmux, window, tmux.screen(window))
            assert step != "exited", tmux.screen(window)
            if step and window == windows[-1]:
                steps.append(step)
        time.sleep(0.2)
    return steps


def test_two_friends_and_a_bot_with_a_stand_in(tmux):
    port = free_port()
    server = serve_in_background(port)
    join = f"{SCRIPT} join 127.0.0.1:{port} --lang en --name"
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=20)
        tmux.start("ann", f"{join} Ann")
        wait_for(tmux, "ann", "No tables yet")
        tmux.keys("ann", "n")
        wait_for(tmux, "ann", "New table")
        tmux.keys("ann", "Enter")  # the form as it is: three players, seats open
        wait_for(tmux, "ann", "Open: seat 2, seat 3")
        tmux.keys("ann", "Down", "Down", "b")  # a bot in seat 3
        wait_for(tmux, "ann", "Open: seat 2.")
        assert "heuristic bot" in tmux.screen("ann")
        for shown in ("after 60 s", "after 120 s", "wait for them", "after 5 s"):
            tmux.keys("ann", "a")  # how soon a bot stands in for someone away
            wait_for(tmux, "ann", shown)

        tmux.start("bob", f"{join} Bob")
        wait_for(tmux, "bob", "Ann's table")
        tmux.keys("bob", "Enter")
        wait_for(tmux, "bob", "Every seat is taken")
        wait_for(tmux, "ann", "Every seat is taken")
        text = tmux.screen("ann")
        assert "Ann (you)" in text and "Bob" in text and "heuristic bot" in text
        tmux.keys("ann", "s")

        # The first hand, played by both; Bob's terminal goes when the second begins.
        _play_until(tmux, ["ann", "bob"], lambda _s: "Hand 2" in _status(tmux, "bob"))
        tmux("kill-window", "-t", "cb:bob")
        # A bot stands in for Bob: Ann's seats say so, and the hand goes on without him.
        _play_until(tmux, ["ann"], lambda _s: "(bot)" in tmux.screen("ann"))

        tmux.start("bob2", f"{join} Bob")
        wait_for(tmux, "bob2", "★ Ann's table")  # the cursor is on it: Enter sits him down
        tmux.keys("bob2", "Enter")
        wait_for(tmux, "bob2", "Resumed your seat")
        # His seat again: no stand-in beside his name, and he plays it himself.
        _play_until(tmux, ["ann", "bob2"], lambda steps: "play" in steps)
        assert "(bot)" not in tmux.screen("ann")
    finally:
        server.terminate()
        server.wait(10)
