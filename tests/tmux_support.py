"""A real terminal for the client tests: a private tmux server per test, keys
sent, the screen read back (tests/test_client_tmux.py says why; the `tmux`
fixture is in conftest.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

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


def answer(tmux: Tmux, target: str, text: str) -> str | None:
    """Press what a person would for the prompt on screen; returns what was answered."""
    text = " ".join(text.split())  # a long prompt wraps at the terminal's edge
    if "EXIT=" in text:
        return "exited"
    if "Enter: continue" in text or "Enter: look at the table" in text:  # (the game's end)
        tmux.keys(target, "Enter")
        return "continue"
    if "Enter: confirm" in text:
        tmux.keys(target, "Enter")
        return "confirm"
    if "Which hand lies open" in text:
        tmux.keys(target, "1")
        return "open"
    for prompt, step in (("for the bottle's pile", "pile"), ("card to pass to", "pass"),
                         ("'s hand 1 (open)", "pass"), ("'s hand 2 (hidden)", "pass"),
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
            # the prompt line, under the table (not the log's copy beside it)
            if any(line.strip().startswith("Game over:") for line in text.splitlines()):
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
    time.sleep(0.5)
    if any(ask in tmux.screen(target) for ask in ("Quit this game?", "Dieses Spiel beenden?")):
        tmux.keys(target, "q")  # `play` asks before leaving a game in progress: q again
    deadline = time.monotonic() + 20
    while "EXIT=" not in tmux.screen(target):
        assert time.monotonic() < deadline, tmux.screen(target)
        if "n: new table" in tmux.screen(target):  # a LAN table's q leads to the lobby
            tmux.keys(target, "q")
        time.sleep(0.2)
    assert "EXIT=0" in tmux.screen(target)



def wait_for(tmux: Tmux, target: str, text: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while text not in tmux.screen(target):
        assert time.monotonic() < deadline, f"{text!r} not on screen:\n{tmux.screen(target)}"
        time.sleep(0.2)


def serve_in_background(port: int) -> subprocess.Popen:
    """`cursed-bottle serve` on 127.0.0.1:`port` for a real-terminal test: bots at zero
    delay, no database (one test's tables must not be the next one's lobby)."""
    return subprocess.Popen(
        [SCRIPT, "serve", "--host", "127.0.0.1", "--port", str(port), "--bot-delay", "0",
         "--quiet", "--grace", "0.5", "--no-db"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
