"""The client is thin: it imports the wire contract and Textual, never the server, the
solver, the bots or the engine (it draws cards from the wire's own fields)."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import cursedbottle.client

FORBIDDEN = ("cursedbottle.server", "cursedbottle.solver", "cursedbottle.bots")
#: Of the engine, the card notation at most (RULES.md); the client needs none of it.
ENGINE_ALLOWED = {"cursedbottle.engine", "cursedbottle.engine.cards"}


def test_client_modules_import_nothing_of_server_solver_bots_or_engine():
    modules = ["cursedbottle.client"] + [
        f"cursedbottle.client.{m.name}" for m in pkgutil.iter_modules(cursedbottle.client.__path__)
    ]
    code = (
        "import importlib, json, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('cursedbottle'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert "cursedbottle.client.table" in loaded and "cursedbottle.v1.table_pb2" in loaded
    bad = [m for m in loaded if m.startswith(FORBIDDEN)]
    assert not bad, f"the client pulls in {bad}"
    engine = [m for m in loaded if m.startswith("cursedbottle.engine")]
    assert set(engine) <= ENGINE_ALLOWED, f"the client pulls in engine modules {engine}"
