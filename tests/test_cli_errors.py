"""The commands around the game refuse in the user's words, at once, with exit status 2.

Each test runs the real command in a process of its own, as a user types it:
`join` against nothing, against a program that is not our server, and against a
real `cursed-bottle serve` on 127.0.0.1 (a table that is not there, a password
not given); `serve` on a port in use and on an address the machine lacks;
`--bright-house` alone; `replay` and `solve` on a terminal and in a pipe.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from cursedbottle.v1 import table_pb2, table_pb2_grpc

#: A refusal must come this fast (the command's own start, its imports, included).
FEW_SECONDS = 8.0
CLI = [sys.executable, "-m", "cursedbottle.cli.main"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"}


def cli(*args: str, stdin: str = "", timeout: float = 60) -> tuple[int, str, str, float]:
    """Run `cursed-bottle ARGS`: exit status, stdout, stderr, seconds it took."""
    start = time.monotonic()
    done = subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True,
                          env=ENV, timeout=timeout)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - start


def refused(*args: str) -> str:
    """The one line a refused command prints (exit 2, nothing on stdout, quickly)."""
    code, out, err, took = cli(*args)
    assert code == 2, (code, out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cursed-bottle: "), err
    assert took < FEW_SECONDS, f"{took:.1f} s: {err}"
    return lines[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server() -> Iterator[int]:
    """`cursed-bottle serve` on 127.0.0.1 (its port), stopped with SIGTERM at the end."""
    process = subprocess.Popen(
        [*CLI, "serve", "--host", "127.0.0.1", "--port", "0", "--no-db", "--bot-delay", "0"],
        stderr=subprocess.PIPE, text=True, env=ENV,
    )
    try:
        line = process.stderr.readline()
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        assert match, line
        yield int(match.group(1))
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def make_table(port: int, name: str, password: str = "") -> str:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = table_pb2_grpc.CursedBottleStub(channel)
        made = stub.CreateTable(table_pb2.CreateTableRequest(name=name, password=password),
                                timeout=10)
        return made.table.table_id


# ------------------------------------------------------------------- join


def test_join_with_no_server_running_says_so_in_a_few_seconds():
    line = refused("join", f"127.0.0.1:{free_port()}", "--name", "Ann")
    assert "nothing listens on 127.0.0.1:" in line
    assert "`cursed-bottle serve` is not running there" in line


def test_join_to_a_program_that_does_not_answer_gives_up_in_a_few_seconds():
    with socket.socket() as sock:  # accepts connections (the kernel does), never answers
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        line = refused("join", f"127.0.0.1:{sock.getsockname()[1]}")
    assert "listens on 127.0.0.1:" in line and "does not answer within 3 s" in line
    assert "cursed-bottle serve" in line


def test_join_to_another_kind_of_server_says_it_is_not_ours(tmp_path):
    port = free_port()
    web = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                            "127.0.0.1", "--directory", str(tmp_path)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the web server did not start"
                time.sleep(0.05)
        line = refused("join", f"127.0.0.1:{port}")
    finally:
        web.terminate()
        web.wait()
    assert f"a program listens on 127.0.0.1:{port}, but it is not `cursed-bottle serve`" in line


def test_join_to_an_unknown_host_names_the_host():
    line = refused("join", "no-such-host.invalid")
    assert "cannot find the machine 'no-such-host.invalid'" in line


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("127.0.0.1:abc", "'abc' is not a port number (1…65535"),
        ("127.0.0.1:0", "'0' is not a port number (1…65535"),
        ("127.0.0.1:70000", "'70000' is not a port number (1…65535"),
        ("127.0.0.1:", "the port after ':' is missing"),
        (":50051", "the host is missing"),
        ("[::1", "an IPv6 address is written [ADDRESS]:PORT"),
    ],
)
def test_join_checks_the_port_when_it_reads_it(target, says):
    line = refused("join", target)
    assert line.startswith("cursed-bottle: HOST[:PORT]: ") and says in line


def test_join_watch_needs_a_table():
    assert "--watch: which table? give its id with --table" in refused(
        "join", "127.0.0.1", "--watch")


def test_a_table_that_is_not_there_is_not_an_unreachable_server(server):
    table = make_table(server, "Friday")
    line = refused("join", f"127.0.0.1:{server}", "--table", "nope", "--name", "Ann")
    assert f"the server on 127.0.0.1:{server} has no table 'nope'" in line
    assert f"{table} (Friday)" in line and "leave out --table" in line
    assert "reach" not in line.lower() and "nothing listens" not in line


def test_a_table_with_a_password_asks_for_it(server):
    table = make_table(server, "Locked", password="sesame")
    line = refused("join", f"127.0.0.1:{server}", "--table", table, "--name", "Ann")
    assert f"table {table!r} (Locked) has a password: give it with --password" in line


def test_join_reaches_a_running_server(server):
    """The check `join` makes passes on a real server, by address and by name."""
    from cursedbottle.client.reach import check_server

    table = make_table(server, "Open")
    asyncio.run(check_server(f"127.0.0.1:{server}", table))
    asyncio.run(check_server(f"localhost:{server}"))


# ------------------------------------------------------------------- serve


def test_serve_on_a_port_in_use_says_so_without_a_raw_grpc_line(server):
    line = refused("serve", "--host", "127.0.0.1", "--port", str(server), "--no-db")
    assert f"port {server} on 127.0.0.1 is already in use" in line
    assert "--port 0" in line


def test_serve_on_an_address_the_machine_lacks_is_not_a_port_in_use():
    line = refused("serve", "--host", "203.0.113.77", "--port", str(free_port()), "--no-db")
    assert "--host 203.0.113.77: not an address of this machine" in line
    assert "0.0.0.0 listens on all" in line and "in use" not in line


def test_serve_on_an_unknown_name_says_so():
    line = refused("serve", "--host", "no-such-host.invalid", "--port", "0", "--no-db")
    assert "--host no-such-host.invalid: no such name" in line and "in use" not in line


def test_serve_on_every_network_says_how_to_join_it():
    from cursedbottle.server.address import local_addresses

    mine = local_addresses()
    if not mine:
        pytest.skip("this machine has no network address but loopback")
    process = subprocess.Popen([*CLI, "serve", "--port", "0", "--no-db"],
                               stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        port = re.search(r"listening on 0\.0\.0\.0:(\d+)", process.stderr.readline()).group(1)
        assert f"join with: cursed-bottle join {mine[0]}:{port}" in process.stderr.readline()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=15)


# ------------------------------------------------------------------- the bright house


def test_the_bright_house_alone_is_a_two_player_game():
    code, out, err, _ = cli("play", "--text", "--bright-house", "--game-hands", "1",
                            "--seed", "4", "--name", "Ann")
    assert code == 1 and "Game left." in out, err  # stdin ended at the first question
    points = next(line for line in out.splitlines() if line.startswith("Points in tricks:"))
    assert points.count(",") == 1, points  # Ann and one bot: no Lopaka, no third player


def test_the_bright_house_with_more_players_is_refused_clearly():
    line = refused("play", "--text", "--bright-house", "--players", "3")
    assert line == ("cursed-bottle: --bright-house: the bright house is a two-player variant: "
                    "leave out --players 3 (--bright-house alone means two)")
    line = refused("simulate", "--seats", "random,random,random", "--bright-house")
    assert line.endswith("two-player variant: give two --seats, not 3")


# ------------------------------------------------------------------- replay, solve


def _on_a_terminal(*args: str) -> str:
    """stdout of the command when it is a terminal (a pseudo-terminal)."""
    import pty

    master, slave = pty.openpty()
    try:
        process = subprocess.Popen([*CLI, *args], stdout=slave, stderr=subprocess.PIPE,
                                   env=ENV)
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the other side closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert process.wait(timeout=60) == 0, process.stderr.read()
    finally:
        os.close(master)
    return b"".join(chunks).decode().replace("\r\n", "\n")


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    import random

    from cursedbottle.engine.game import Game
    from cursedbottle.engine.records import record_of
    from cursedbottle.engine.rules import Rules

    rng = random.Random(5)
    game = Game(Rules(3), seed=5)
    while not game.hands[0].is_over:
        game.apply(rng.choice(game.legal_actions()))
    path = tmp_path_factory.mktemp("record") / "hand.json"
    path.write_text(record_of(game.hands[0]).dumps())
    return path


def test_replay_is_indented_on_a_terminal_and_one_line_in_a_pipe(record):
    code, piped, err, _ = cli("replay", str(record))
    assert code == 0, err
    assert piped.count("\n") == 1 and piped == json.dumps(json.loads(piped)) + "\n"
    shown = _on_a_terminal("replay", str(record))
    assert json.loads(shown) == json.loads(piped)
    assert shown == json.dumps(json.loads(piped), indent=2) + "\n"
    assert _on_a_terminal("replay", "--compact", str(record)) == piped
    assert _on_a_terminal("replay", "--indent", "4", str(record)).startswith('{\n    "')


def test_solve_is_indented_on_a_terminal_and_one_line_in_a_pipe(tmp_path):
    position = {
        "rules": {"players": 4, "hot_bottle": False}, "lopaka": None,
        "hands": [["AD"], ["AH", "5H"], ["2H", "7S"], ["5D", "QD"]],
        "pile": ["9H", "10H", "3H", "8H"], "price": "AS", "owner": 0,
        "taken": [["3D", "4D", "4H", "7D", "7H", "9D", "10D"],
                  ["2D", "3S", "5S", "6D", "8D", "8S", "10S", "JD"],
                  ["6H", "6S", "JH", "QH"], ["2S", "4S", "JS", "QS"]],
        "leader": 0, "trick": ["9S"],
    }
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position))
    code, piped, err, _ = cli("solve", str(path))
    assert code == 0, err
    assert piped == json.dumps(json.loads(piped)) + "\n"
    shown = _on_a_terminal("solve", str(path))
    assert shown == json.dumps(json.loads(piped), indent=2) + "\n"
    code, out, err, _ = cli("solve", "--indent", "2", "--compact", str(path))
    assert code == 2 and out == "" and "not allowed with argument --indent" in err


# ------------------------------------------------------------------- the app's own words


@pytest.mark.parametrize(("lang", "says"), [("en", "Refused: "), ("de", "Abgelehnt: ")])
def test_the_app_words_a_missing_table_as_a_refusal_not_as_unreachable(lang, says):
    """The table can go between `join`'s check and the app's first call: the app then
    says the server refused, not that it cannot reach it."""
    from client_support import SIZE, local_server, run, until
    from cursedbottle.client import CursedBottleApp
    from textual.widgets import Static

    async def main():
        async with local_server() as target:
            app = CursedBottleApp(target, lang=lang, name="Ann", table_id="gone",
                                  remember_seats=False)
            async with app.run_test(size=SIZE) as pilot:
                def shown() -> str:
                    found = app.screen.query("#connecting")
                    return str(found.first(Static).render()) if found else ""

                await until(pilot, lambda: "gone" in shown())
                assert shown().startswith(says) and "reach" not in shown()
                assert "erreichbar" not in shown()

    run(main())


# ------------------------------------------------------------------- simulate


@pytest.fixture(scope="module")
def no_matplotlib(tmp_path_factory) -> dict[str, str]:
    """An environment in which `import matplotlib` fails, as on an install without
    the plot extra."""
    folder = tmp_path_factory.mktemp("hide") / "matplotlib"
    folder.mkdir()
    (folder / "__init__.py").write_text("raise ImportError('not installed')\n")
    return {**ENV, "PYTHONPATH": str(folder.parent)}


@pytest.mark.parametrize("command", [
    ["simulate", "--seats", "heuristic,rule,random", "--hands", "100000"],
    ["tournament", "--bots", "heuristic,rule,random", "--deals", "100000"],
])
def test_plot_without_matplotlib_is_refused_before_the_run(no_matplotlib, tmp_path, command):
    start = time.monotonic()
    done = subprocess.run([*CLI, *command, "--quiet", "--plot", str(tmp_path / "p.png")],
                          capture_output=True, text=True, env=no_matplotlib, timeout=60)
    assert time.monotonic() - start < FEW_SECONDS  # 100000 deals would take minutes
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("cursed-bottle: --plot needs matplotlib: pip install "
                           "'cursed-bottle[plot]' (or leave out --plot)\n")


def test_plot_into_a_missing_folder_is_refused_before_the_run(tmp_path):
    line = refused("simulate", "--seats", "rule,random", "--hands", "100000",
                   "--plot", str(tmp_path / "nowhere" / "p.png"))
    assert f"there is no folder {tmp_path / 'nowhere'}" in line


def test_the_summary_says_what_its_columns_mean_in_plain_words():
    code, out, err, _ = cli("simulate", "--seats", "rule,random", "--games", "1",
                            "--game-hands", "1", "--seed", "2", "--quiet", "--workers", "1")
    assert code == 0, err
    assert "no clear difference" in out and "not clear" not in out and "units" not in out
    assert "price when stuck" not in out
    assert "mean/hand: points per hand; 95% CI: the true mean lies in this range" in out
    assert "bottle: the hands it ended holding the bottle" in out
    assert "(the same 1 game for both; no clear difference)" in out


def test_the_plot_compares_shares_of_each_bots_hands_not_counts(monkeypatch, tmp_path):
    """A bot in two seats has twice the hands: each curve is its own hands' share
    (100% in all), and the legend names its mean per hand."""
    from cursedbottle.bots import plot
    from cursedbottle.bots.simulation import HandResult
    from matplotlib.axes import Axes

    figures, shares = [], []
    monkeypatch.setattr(plot.plt, "close", figures.append)
    real_hist = Axes.hist

    def hist(self, *args, **kw):
        drawn = real_hist(self, *args, **kw)
        shares.append(drawn[0])
        return drawn

    monkeypatch.setattr(Axes, "hist", hist)
    results = [HandResult(u, 0, 1, ("a", "b", "b"), (u % 7, -(u % 5), 3), None, 1.0)
               for u in range(60)]
    plot.plot_scores(results, str(tmp_path / "p.png"))
    (ax,) = figures[0].axes
    assert ax.get_ylabel() == "% of the bot's hands"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["a: mean +2.9 per hand (60 hands)", "b: mean +0.5 per hand (120 hands)"]
    assert len(shares) == 2
    for heights in shares:
        assert sum(heights) == pytest.approx(100)
