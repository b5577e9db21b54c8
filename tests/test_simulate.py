"""`cursed-bottle simulate`: reproducible to the byte, statistics computed right."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from cursedbottle.bots.simulation import HandResult
from cursedbottle.bots.stats import summarise
from cursedbottle.cli.main import main
from cursedbottle.engine.records import HandRecord, replay


def _simulate(tmp_path: Path, name: str, *args: str) -> tuple[str, str]:
    records = tmp_path / f"{name}.jsonl"
    script = Path(sys.executable).parent / "cursed-bottle"
    done = subprocess.run(
        [str(script), "simulate", *args, "--records", str(records)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, records.read_text()


def test_a_fixed_seed_gives_the_same_bytes_whatever_the_workers(tmp_path):
    args = ("--seats", "heuristic,rule,random", "--hands", "12", "--duplicate", "--seed", "7")
    out1, rec1 = _simulate(tmp_path, "one", *args, "--workers", "1")
    out2, rec2 = _simulate(tmp_path, "two", *args, "--workers", "2")
    assert out1 == out2
    assert rec1 == rec2
    assert len(rec1.splitlines()) == 36  # 12 deals, 3 rotations
    out3, _ = _simulate(tmp_path, "three", *args[:-1], "8", "--workers", "2")
    assert out3 != out1


def test_every_record_written_replays_to_its_scores(tmp_path):
    _, records = _simulate(tmp_path, "r", "--seats", "rule,random", "--hands", "5", "--seed", "3")
    for line in records.splitlines():
        result = replay(HandRecord.from_json(json.loads(line)))
        assert len(result.scores) == 3  # two players and Lopaka


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        ("strong:0.02,heuristic", ()),
        ("heuristic,rule,random", ()),
        ("heuristic,rule,random,rule", ("--teams",)),
        ("strong:0.02,heuristic,rule,random,random", ()),
        ("heuristic,rule,random,rule,heuristic", ("--teams", "--second-bottle")),
        ("heuristic,rule,random,random,rule,heuristic", ("--second-bottle",)),
        ("strong:0.02,rule,random,rule,random,heuristic", ("--teams",)),
        ("heuristic,rule,random,rule,heuristic,random", ("--teams", "--singles")),
    ],
    ids=[
        "devils-eye-strong", "3p", "4p-teams", "5p-strong", "5p-teams-2bottles", "6p-2bottles",
        "6p-teams-strong", "6p-teams-2211",
    ],
)
def test_every_bottle_imp_mode_runs_bot_only_games_and_records_them(tmp_path, seats, options):
    """Whole Bottle Imp games of bots; every hand written is a record that replays."""
    out, records = _simulate(
        tmp_path, "imp", "--game", "bottle-imp", "--seats", seats, *options,
        "--games", "1", "--game-hands", "2", "--seed", "4", "--workers", "1",
    )
    players = len(seats.split(","))
    assert "mean/hand" in out and "games won" in out
    lines = records.splitlines()
    assert len(lines) >= 2  # two hands (more only after a tie at the top)
    for line in lines:
        obj = json.loads(line)
        assert obj["rules"]["game"] == "bottle-imp" and obj["rules"]["players"] == players
        assert obj["rules"].get("teams", False) == ("--teams" in options)
        assert obj["rules"].get("second_bottle", False) == ("--second-bottle" in options)
        assert obj["rules"].get("singles", False) == ("--singles" in options)
        assert len(replay(HandRecord.from_json(obj)).scores) == players


def test_games_mode_counts_games_won(capsys):
    assert (
        main(
            [
                "simulate",
                "--seats",
                "rule,random,random",
                "--games",
                "3",
                "--target",
                "40",
                "--workers",
                "1",
                "--seed",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    lines = [line.split() for line in out.splitlines()[1:3]]
    assert sorted(line[0] for line in lines) == ["random", "rule"]
    won = [line[5].split("/") for line in lines]
    # Three games, one winner each; the random bots sat in two seats of each.
    assert sum(int(w) for w, _ in won) == 3
    assert {line[0]: int(n) for line, (_, n) in zip(lines, won, strict=True)} == {
        "rule": 3,
        "random": 6,
    }


def test_bad_options_exit_2_with_one_line(capsys):
    assert main(["simulate", "--seats", "rule,genius"]) == 2
    assert "unknown bot 'genius'" in capsys.readouterr().err
    assert main(["simulate", "--seats", "rule,rule,rule", "--bright-house"]) == 2
    assert "--bright-house: the bright house is a two-player variant" in capsys.readouterr().err
    assert main(["simulate", "--seats", "rule,rule,rule,rule,rule"]) == 2
    assert "--seats: 5 is not 2, 3 or 4 in cursed-bottle" in capsys.readouterr().err
    args = ["simulate", "--game", "bottle-imp", "--seats", "rule,rule,rule,rule", "--singles"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "--singles: two playing alone (2-2-1-1) is a split of the team mode for six" in err
    assert "it needs teams and 6 players" in err


def test_the_plot_is_a_png(tmp_path, capsys):
    plot = tmp_path / "scores.png"
    assert (
        main(
            [
                "simulate",
                "--seats",
                "rule,random,random",
                "--hands",
                "4",
                "--workers",
                "1",
                "--plot",
                str(plot),
            ]
        )
        == 0
    )
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _hand(unit, rot, bots, scores, owner=None, price=17.5, winner=None) -> HandResult:
    return HandResult(unit, rot, 1, bots, scores, owner, price, winner)


def test_the_summary_on_hand_made_results():
    results = [
        _hand(0, 0, ("a", "b"), (10, -4), owner=1, price=3.0, winner=0),
        _hand(0, 1, ("b", "a"), (6, 2), owner=None, price=17.5, winner=0),
        _hand(1, 0, ("a", "b"), (-5, 20), owner=0, price=1.0, winner=1),
        _hand(1, 1, ("b", "a"), (8, 8), owner=0, price=5.0),
    ]
    s = summarise(results)
    a = next(line for line in s.bots if line.name == "a")
    b = next(line for line in s.bots if line.name == "b")
    # a scored 10, 2, -5, 8; b scored -4, 6, 20, 8.
    assert a.hands == 4 and a.score.mean == pytest.approx(3.75)
    sd = math.sqrt(((10 - 3.75) ** 2 + (2 - 3.75) ** 2 + (-5 - 3.75) ** 2 + (8 - 3.75) ** 2) / 3)
    assert a.score.half_width == pytest.approx(1.96 * sd / 2)
    assert b.score.mean == pytest.approx(7.5)
    # a ended with the bottle once (unit 1, rotation 0, at 1.0); b twice (3.0 and 5.0).
    assert a.bottle_rate == pytest.approx(0.25) and a.price_when_stuck == pytest.approx(1.0)
    assert b.bottle_rate == pytest.approx(0.5) and b.price_when_stuck == pytest.approx(4.0)
    # Three games ended: won by a (unit 0, rot 0), b (unit 0, rot 1), b (unit 1, rot 0).
    assert a.games == 3 and b.games == 3
    assert (a.games_won, b.games_won) == (1, 2)
    assert s.mean_final_price == pytest.approx((3.0 + 17.5 + 1.0 + 5.0) / 4)
    # Paired by unit: the difference of the two bots' mean scores in each unit.
    (cmp,) = s.comparisons
    assert (cmp.better, cmp.worse) == ("b", "a")
    unit0 = (-4 + 6) / 2 - (10 + 2) / 2
    unit1 = (20 + 8) / 2 - (-5 + 8) / 2
    assert cmp.difference.mean == pytest.approx((unit0 + unit1) / 2)
    assert cmp.difference.n == 2
