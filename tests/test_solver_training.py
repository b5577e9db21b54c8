"""The profile-guided build's workload (solver/training.py), as setup.py runs
it: a script given the source tree and a built module, before anything is
installed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import CONFIGS, config_id
from cursedbottle.engine.rules import Rules
from cursedbottle.solver import _search
from cursedbottle.solver.training import WORKLOAD

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "solver" / "training.py"


def run_training(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=300, cwd="/")


def test_the_workload_runs_from_the_source_tree_on_the_module_given():
    module = Path(_search.__file__)
    done = run_training(str(ROOT), str(module), "0.01")
    assert done.returncode == 0, done.stderr
    # At least one position of every rule set, on the module named.
    assert f"trained {module.name} on {len(WORKLOAD)} positions" in done.stdout


def test_a_module_that_is_not_there_fails_the_run(tmp_path):
    done = run_training(str(ROOT), str(tmp_path / "_search.so"), "0.01")
    assert done.returncode == 2
    assert f"no module at {tmp_path / '_search.so'}" in done.stderr


def test_the_workload_plays_every_rule_set_the_engine_plays():
    """A rule set the profile never saw keeps the plain optimisation only
    (its code paths: the second bottle, sides, Lopaka's hot bottle)."""
    trained = [Rules.from_json(obj) for obj, *_ in WORKLOAD]
    assert len(set(trained)) == len(trained)
    assert sorted(map(config_id, trained)) == sorted(map(config_id, CONFIGS))


def test_a_wrong_call_says_what_is_wrong_in_one_line(tmp_path):
    module = _search.__file__
    for args, problem in [
        ((str(ROOT),), "expected 2 or 3 arguments, got 1"),
        ((str(tmp_path), module), f"{tmp_path} is not the source tree"),
        ((str(ROOT), module, "abc"), "SCALE 'abc' is not a positive number"),
        ((str(ROOT), module, "-1"), "SCALE '-1' is not a positive number"),
        ((str(ROOT), module, "nan"), "SCALE 'nan' is not a positive number"),
    ]:
        done = run_training(*args)
        assert done.returncode == 2, args
        # One line, no traceback.
        assert done.stderr.startswith(f"usage: training.py ROOT MODULE [SCALE]: {problem}")
        assert done.stderr.count("\n") == 1, done.stderr
