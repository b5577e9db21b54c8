"""`cursed-bottle solve` as FORMATS.md describes it."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cursedbottle.cli.main import main

FORMATS_EXAMPLE = {
    "rules": {"players": 4, "hot_bottle": False},
    "lopaka": None,
    "hands": [["AD"], ["AH", "5H"], ["2H", "7S"], ["5D", "QD"]],
    "pile": ["9H", "10H", "3H", "8H"],
    "price": "AS",
    "owner": 0,
    "taken": [
        ["3D", "4D", "4H", "7D", "7H", "9D", "10D"],
        ["2D", "3S", "5S", "6D", "8D", "8S", "10S", "JD"],
        ["6H", "6S", "JH", "QH"],
        ["2S", "4S", "JS", "QS"],
    ],
    "leader": 0,
    "trick": ["9S"],
}


def _write(tmp_path, data, name="pos.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_example_via_main(tmp_path, capsys) -> None:
    assert main(["solve", _write(tmp_path, FORMATS_EXAMPLE)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seat"] == 1
    assert out["values"] == {"AH": 23, "5H": -8}
    assert out["best"] == ["AH"]
    assert isinstance(out["nodes"], int) and out["nodes"] > 0


def test_reference_flag_agrees(tmp_path, capsys) -> None:
    assert main(["solve", "--reference", _write(tmp_path, FORMATS_EXAMPLE)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["values"] == {"AH": 23, "5H": -8}


def test_installed_entry_point(tmp_path) -> None:
    sibling = Path(sys.executable).with_name("cursed-bottle")
    exe = str(sibling) if sibling.exists() else shutil.which("cursed-bottle")
    assert exe, "the cursed-bottle entry point is not installed"
    done = subprocess.run(
        [exe, "solve", _write(tmp_path, FORMATS_EXAMPLE)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["values"] == {"AH": 23, "5H": -8}
    bad = subprocess.run(
        [exe, "solve", "-"], input="{", capture_output=True, text=True, timeout=60, check=False
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1


def _mutate(path, value):
    data = copy.deepcopy(FORMATS_EXAMPLE)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


BAD = [
    ("not json", "{", "not JSON"),
    ("not an object", "[]", "position"),
    ("no rules", _mutate(["rules"], KeyError), "rules: missing"),
    ("five players", _mutate(["rules", "players"], 5), "rules.players"),
    ("hot not bool", _mutate(["rules", "hot_bottle"], "yes"), "rules.hot_bottle"),
    ("no hands", _mutate(["hands"], KeyError), "hands: missing"),
    ("bad card", _mutate(["hands", 1, 0], "KH"), "hands[1][0]"),
    ("card twice", _mutate(["hands", 3, 1], "AH"), "hands[3]"),
    ("pile twice", _mutate(["pile", 0], "QD"), "pile"),
    ("short pile", _mutate(["pile"], ["9H", "10H", "3H"]), "pile"),
    ("three hands", _mutate(["hands"], [["AD"], ["AH", "5H"], ["2H", "7S"]]), "hands"),
    ("counts", _mutate(["hands", 2], ["2H"]), "hands[2]"),
    ("owner without price", _mutate(["price"], "JOKER"), "owner"),
    ("price above joker", _mutate(["price"], "QS"), "price"),
    ("price not card", _mutate(["price"], 7), "price"),
    ("owner no seat", _mutate(["owner"], 4), "owner"),
    ("leader no seat", _mutate(["leader"], -1), "leader"),
    ("taken count", _mutate(["taken"], [[], [], []]), "taken"),
    ("trick not list", _mutate(["trick"], "9S"), "trick"),
    ("revoke", _mutate(["trick"], ["9S", "QD"]), "trick"),
    ("lopaka in 4p", _mutate(["lopaka"], 1), "lopaka"),
]


@pytest.mark.parametrize(("name", "data", "field"), BAD, ids=[b[0] for b in BAD])
def test_bad_positions_exit_2(tmp_path, capsys, name, data, field) -> None:
    assert main(["solve", _write(tmp_path, data)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert field in lines[0], lines[0]


def test_missing_file(tmp_path, capsys) -> None:
    assert main(["solve", str(tmp_path / "nope.json")]) == 2
    assert "nope.json" in capsys.readouterr().err


def test_lopaka_to_move_values_one_card(tmp_path, capsys) -> None:
    data = {
        "rules": {"players": 2, "hot_bottle": False},
        "lopaka": 2,
        "hands": [["AD", "QS"], ["2D", "JS"], ["3D", "10S"]],
        "pile": ["9H", "10H", "3H"],
        "price": "JOKER",
        "owner": None,
        "taken": [[], [], []],
        "leader": 2,
        "trick": [],
    }
    assert main(["solve", _write(tmp_path, data)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seat"] == 2
    assert list(out["values"]) == ["10S"]  # his policy leads his highest card
    assert out["best"] == ["10S"]


def _early_devils_eye(tmp_path) -> Path:
    """Devil's Eye at the first lead: far beyond a quick exact search."""
    import random

    from cursedbottle.engine.rules import Edition, Rules
    from cursedbottle.solver.sampling import random_position

    pos = random_position(Rules(2, edition=Edition.BOTTLE_IMP), random.Random(1), 8, in_trick=0)
    path = tmp_path / "early.json"
    path.write_text(json.dumps(pos.to_json()))
    return path


def test_a_time_limit_gives_up_with_exit_3(tmp_path, capsys) -> None:
    path = _early_devils_eye(tmp_path)
    assert main(["solve", str(path), "--time-limit", "0.3"]) == 3
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no answer within 0.3 s of search" in captured.err and "nodes searched" in captured.err
    assert main(["solve", str(path), "--time-limit", "0"]) == 2
    assert "--time-limit: 0 is not a positive number of seconds" in capsys.readouterr().err
    # the search gave up cleanly: the next solve is exact again
    example = tmp_path / "example.json"
    example.write_text(json.dumps(FORMATS_EXAMPLE))
    assert main(["solve", str(example), "--time-limit", "30"]) == 0
    assert json.loads(capsys.readouterr().out)["values"] == {"AH": 23, "5H": -8}


def test_threads_share_the_cards_for_the_same_answer(tmp_path, capsys) -> None:
    import random

    from cursedbottle.engine.rules import Rules
    from cursedbottle.solver.sampling import random_position

    pos = random_position(Rules(3), random.Random(5), 5, in_trick=1)
    path = _write(tmp_path, pos.to_json())
    assert main(["solve", path]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["solve", path, "--threads", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert len(one["values"]) >= 2
    assert {k: v for k, v in two.items() if k != "nodes"} == {
        k: v for k, v in one.items() if k != "nodes"
    }
    assert main(["solve", path, "--threads", "0"]) == 2
    assert "--threads: 0 is not at least 1" in capsys.readouterr().err


def test_threads_give_up_at_the_time_limit_with_exit_3(tmp_path, capsys) -> None:
    path = _early_devils_eye(tmp_path)
    assert main(["solve", str(path), "--time-limit", "0.3", "--threads", "2"]) == 3
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no answer within 0.3 s of search on 2 thread(s)" in captured.err


#: Runs its arguments with SIGINT as a terminal delivers it: a shell starts
#: its background jobs (a CI run started with `&`) with SIGINT ignored, and a
#: child inherits that.  A launcher, not a `preexec_fn`: that makes subprocess
#: fork this process, which holds gRPC's threads from the server tests, and
#: gRPC's fork handlers then write an epoll error to the child's stderr
#: (seen once in CI, never alone; cli/lifeline.py avoids it the same way).
SIGINT_LAUNCHER = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


@pytest.mark.parametrize("threads", ["1", "2"])
def test_ctrl_c_stops_a_long_search_at_once(tmp_path, threads) -> None:
    """The search runs without the GIL; it still looks for Ctrl-C every few ms
    (on two threads the waiting main thread takes it and stops both)."""
    import signal
    import time

    script = Path(sys.executable).parent / "cursed-bottle"
    path = _early_devils_eye(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-c", SIGINT_LAUNCHER, str(script), "solve", str(path),
         "--threads", threads],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(3.0)  # well into the search (the interpreter starts in well under that)
    assert process.poll() is None
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=10)
    assert process.returncode == 130 and out == ""
    assert err.strip() == "cursed-bottle: interrupted"


def _position_where_the_models_differ() -> dict:
    """A 3-player position (fixed seed) whose values differ between the models."""
    import random

    from cursedbottle.engine.rules import Rules
    from cursedbottle.solver.reference import reference_solve
    from cursedbottle.solver.sampling import random_position

    rng = random.Random("models differ")
    for _ in range(200):
        pos = random_position(Rules(3), rng, 3)
        hand = pos.to_hand()
        if reference_solve(hand, "maxn")[1] != reference_solve(hand, "paranoid")[1]:
            return pos.to_json()
    raise AssertionError("no position where the models differ in 200 draws")


def test_model_flag(tmp_path, capsys) -> None:
    """`--model maxn` answers the each-for-itself question (FORMATS.md: the
    output names the model), the default stays paranoid, and both agree with
    the reference's own search under the same model."""
    path = _write(tmp_path, _position_where_the_models_differ())
    outs = {}
    for args in ([], ["--model", "paranoid"], ["--model", "maxn"],
                 ["--reference", "--model", "maxn"], ["--reference"]):
        assert main(["solve", *args, path]) == 0
        outs[tuple(args)] = json.loads(capsys.readouterr().out)
    assert outs[()]["model"] == outs[("--reference",)]["model"] == "paranoid"
    assert outs[()]["values"] == outs[("--model", "paranoid")]["values"]
    assert outs[()]["values"] == outs[("--reference",)]["values"]
    maxn = outs[("--model", "maxn")]
    assert maxn["model"] == "maxn"
    assert maxn["values"] == outs[("--reference", "--model", "maxn")]["values"]
    assert maxn["values"] != outs[()]["values"]
    top = max(maxn["values"].values())
    assert maxn["best"] == [c for c, v in maxn["values"].items() if v == top]


def test_unknown_model_is_refused(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["solve", "--model", "optimist", _write(tmp_path, FORMATS_EXAMPLE)])
    assert exit_.value.code == 2
    assert "invalid choice: 'optimist'" in capsys.readouterr().err
