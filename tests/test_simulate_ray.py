"""`simulate` on Ray: the same bytes as one local process, on one node or two,
and a run killed midway that `--resume` completes with the same result.

Real Ray, nothing mocked: a local Ray of 2 CPUs started by the run itself,
then a cluster of two nodes on this machine started with `ray start`, as
docs/cluster.md tells a user to.
"""

from __future__ import annotations

import ast
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from cursedbottle.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
#: Cheap bots (a few ms a hand), so that a run is mostly Ray's own work.
ARGS = ["simulate", "--seats", "rule,random,random", "--duplicate", "--seed", "5", "--quiet"]


def _local(tmp_path: Path, capsys, hands: int, args=ARGS) -> tuple[str, str]:
    records = tmp_path / "local.jsonl"
    assert main([*args, "--hands", str(hands), "--workers", "1", "--records", str(records)]) == 0
    return capsys.readouterr().out, records.read_text()


def test_a_local_ray_gives_the_same_bytes_as_one_process(tmp_path, capsys):
    """The Ray run is a process of its own, as a user starts it: Ray forks its
    raylet with a `preexec_fn`, and a fork of this process, which has run many
    gRPC servers, can hang before it execs (seen: "The current node timed out
    during startup" late in the suite, never alone)."""
    args = [*ARGS[:2], "heuristic,rule,random", *ARGS[3:]]
    out1, rec1 = _local(tmp_path, capsys, 8, args)
    records = tmp_path / "ray.jsonl"
    done = subprocess.run(
        [str(BIN / "cursed-bottle"), *args, "--hands", "8", "--ray", "--workers", "2",
         "--records", str(records)],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout == out1
    assert records.read_text() == rec1
    assert "ray: 8 units on 1 node(s)" in done.stderr


def test_only_the_ray_runner_imports_ray():
    """The rest of the package runs without the `cluster` extra."""
    importers = []
    for folder in ("engine", "solver", "bots", "server", "client", "cli"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    names = [node.module or ""]
                if any(n == "ray" or n.startswith("ray.") for n in names):
                    importers.append(path.relative_to(ROOT).as_posix())
    assert sorted(set(importers)) == ["bots/ray_runner.py"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: The cluster's processes and its clients share a token (Ray's token
#: authentication, as docs/cluster.md advises), made for this test run.
CLUSTER_ENV = {
    **{k: v for k, v in os.environ.items() if k != "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"},
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_AUTH_MODE": "token",
    "RAY_AUTH_TOKEN": secrets.token_hex(16),
}


def _ray(*args: str) -> None:
    done = subprocess.run(
        [str(BIN / "ray"), *args], capture_output=True, text=True, env=CLUSTER_ENV, timeout=180
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def _wait_for_nodes(address: str, count: int, timeout: float = 60.0) -> None:
    """Until the cluster counts `count` live nodes and their CPUs: `ray start` returns
    before the second node has registered, and a run started then has only the head
    to run on (the runner cuts the work into as many batches as the cluster has CPUs
    when it starts, so a node alive whose CPU is not counted yet gets none)."""
    code = (
        "import time, ray\n"
        f"ray.init(address={address!r}, log_to_driver=False)\n"
        "cpus = lambda: int(ray.cluster_resources().get('CPU', 0))\n"
        "alive = lambda: min(cpus(), sum(1 for n in ray.nodes() if n['Alive']))\n"
        f"end = time.monotonic() + {timeout}\n"
        f"while alive() < {count} and time.monotonic() < end:\n"
        "    time.sleep(0.25)\n"
        "print(alive())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=CLUSTER_ENV, timeout=timeout + 60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-1] == str(count), done.stdout[-500:]


@pytest.fixture(scope="module")
def two_nodes():
    """A head and a second node on this machine, one CPU each.  (Ray puts a
    cluster's nodes on the machine's own network address, never on loopback;
    nothing leaves the machine.)"""
    port = _free_port()
    start = ["start", "--num-cpus", "1", "--disable-usage-stats"]
    try:
        _ray(*start, "--head", "--port", str(port), "--include-dashboard", "false")
        _ray(*start, "--address", f"127.0.0.1:{port}")
        _wait_for_nodes(f"127.0.0.1:{port}", 2)
        yield f"127.0.0.1:{port}"
    finally:
        _ray("stop", "--force")


def _cluster_run(address: str, records: Path, *extra: str,
                 args=ARGS) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            str(BIN / "cursed-bottle"),
            *args,
            "--ray-address",
            address,
            "--records",
            str(records),
            *extra,
        ],
        capture_output=True,
        text=True,
        env=CLUSTER_ENV,
        timeout=300,
    )


def _units_run(err: str) -> tuple[int, int]:
    """(units, nodes) from the run's `ray: N units on K node(s)` line."""
    line = next(x for x in err.splitlines() if x.startswith("ray: "))
    words = line.split()
    return int(words[1]), int(words[4])


#: Bots slow enough (a few tenths of a second a unit) that the head, with one
#: CPU, cannot run every unit before the second node's first worker has
#: started: with the cheap ones it sometimes did, and nothing was shared.
SHARED_ARGS = [*ARGS[:2], "heuristic,heuristic,rule", *ARGS[3:]]


def test_two_nodes_share_the_units_and_give_the_same_bytes(tmp_path, capsys, two_nodes):
    out1, rec1 = _local(tmp_path, capsys, 24, SHARED_ARGS)
    done = _cluster_run(two_nodes, tmp_path / "two.jsonl", "--hands", "24", args=SHARED_ARGS)
    assert done.returncode == 0, done.stderr
    assert done.stdout == out1
    assert (tmp_path / "two.jsonl").read_text() == rec1
    assert _units_run(done.stderr) == (24, 2)


def _complete_units(text: str) -> int:
    """Units whose 3 rotations are all in the file (a cut last line not counted)."""
    lines = [x for x in text.splitlines(keepends=True) if x.endswith("\n")]
    counts = Counter(x.split('"unit":', 1)[1].split(",", 1)[0] for x in lines)
    return sum(1 for n in counts.values() if n == 3)


def test_a_run_killed_midway_resumes_to_the_same_result(tmp_path, capsys, two_nodes):
    hands = 200
    out1, rec1 = _local(tmp_path, capsys, hands)
    records = tmp_path / "killed.jsonl"
    run = subprocess.Popen(
        [
            str(BIN / "cursed-bottle"),
            *ARGS,
            "--hands",
            str(hands),
            "--ray-address",
            two_nodes,
            "--records",
            str(records),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=CLUSTER_ENV,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and run.poll() is None:
        if records.exists() and _complete_units(records.read_text()) >= 15:
            break
        time.sleep(0.01)
    run.send_signal(signal.SIGKILL)
    assert run.wait(timeout=30) == -signal.SIGKILL  # killed, not finished
    before = _complete_units(records.read_text())
    assert 15 <= before < hands
    done = _cluster_run(two_nodes, records, "--hands", str(hands), "--resume")
    assert done.returncode == 0, done.stderr
    assert done.stdout == out1
    assert records.read_text() == rec1
    assert _units_run(done.stderr)[0] == hands - before  # only the missing units ran


def _running_batch_workers() -> list[int]:
    """The pids of this cluster's Ray workers busy with a batch of units (Ray
    names a worker's process after the task it runs)."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and (proc / "cmdline").read_bytes().startswith(
                b"ray::_run_batch"
            ):
                pids.append(int(proc.name))
        except OSError:
            continue
    return pids


def test_a_lost_worker_s_units_are_run_again(tmp_path, capsys, two_nodes):
    args = [*ARGS[:2], "heuristic,rule,random", *ARGS[3:]]
    out1, rec1 = _local(tmp_path, capsys, 4, args)
    records = tmp_path / "lost.jsonl"
    run = subprocess.Popen(
        [
            str(BIN / "cursed-bottle"),
            *args,
            "--hands",
            "4",
            "--ray-address",
            two_nodes,
            "--records",
            str(records),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=CLUSTER_ENV,
        text=True,
    )
    deadline = time.monotonic() + 120
    killed = None
    while killed is None and time.monotonic() < deadline and run.poll() is None:
        busy = _running_batch_workers()
        if busy:
            killed = busy[0]
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.01)
    out, err = run.communicate(timeout=300)
    assert killed is not None, "no worker was seen running a batch"
    assert run.returncode == 0, err
    assert out == out1
    assert records.read_text() == rec1


def test_a_tournament_on_the_cluster_says_what_it_says_locally(capsys, two_nodes):
    args = [
        "tournament",
        "--bots",
        "rule,random,heuristic",
        "--players",
        "2",
        "--deals",
        "3",
        "--quiet",
    ]
    assert main([*args, "--workers", "1"]) == 0
    local = capsys.readouterr().out
    done = subprocess.run(
        [str(BIN / "cursed-bottle"), *args, "--ray-address", two_nodes],
        capture_output=True,
        text=True,
        env=CLUSTER_ENV,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == local
    assert _units_run(done.stderr)[0] == 9  # 3 tables × 3 deals
