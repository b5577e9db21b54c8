"""`play`'s own server ends with the client that started it, even on SIGKILL
(cli/lifeline.py), and `serve --parent` refuses a parent that is gone."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG")

CLIENT = """
import time
from cursedbottle.cli.play import local_server
with local_server(0.0) as target:
    print(target, flush=True)
    time.sleep(120)
"""


def listening(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_the_local_server_ends_when_its_client_is_killed():
    client = subprocess.Popen([sys.executable, "-c", CLIENT], stdout=subprocess.PIPE, text=True)
    try:
        target = client.stdout.readline().strip()
        port = int(target.rsplit(":", 1)[1])
        assert listening(port)
        client.send_signal(signal.SIGKILL)  # no finally block of the client runs
        client.wait(10)
        deadline = time.monotonic() + 15
        while listening(port) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not listening(port), "the server outlived its client"
    finally:
        client.kill()
        client.wait()


def test_serve_refuses_a_parent_that_has_ended():
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    done = subprocess.run(
        [sys.executable, "-m", "cursedbottle.cli.main", "serve", "--port", "0", "--no-db",
         "--parent", str(gone.pid)],
        capture_output=True, text=True, timeout=30,
    )
    assert done.returncode != 0
    assert f"process {gone.pid} has already ended" in done.stderr
