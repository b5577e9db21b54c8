"""`cursed-bottle tournament`: the schedule, the paired differences and the
Bradley–Terry ratings on hand-made results, then whole small tournaments."""

from __future__ import annotations

import math

import pytest
from cursedbottle.bots.simulation import HandResult
from cursedbottle.bots.tournament import bradley_terry, standings, tables
from cursedbottle.cli.main import main


def test_every_combination_of_bots_makes_a_table_and_fewer_bots_fill_the_seats():
    assert tables(["a", "b", "c", "d"], 3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "c", "d"),
        ("b", "c", "d"),
    ]
    assert tables(["a", "b"], 3) == [("a", "b", "b"), ("a", "a", "b")]
    with pytest.raises(ValueError, match="two different bots"):
        tables(["a", "a", "b"], 3)


def test_bradley_terry_on_known_counts():
    assert bradley_terry([[0, 2], [2, 0]]) == pytest.approx([0, 0], abs=1e-9)
    # 3 wins to 1, and the prior's half win each way: strengths 3.5 : 1.5.
    a, b = bradley_terry([[0, 3], [1, 0]])
    assert a - b == pytest.approx(400 * math.log10(3.5 / 1.5))
    assert a + b == pytest.approx(0)
    # Transitive: a beats b, b beats c, and c never met a.
    a, b, c = bradley_terry([[0, 8, 0], [2, 0, 8], [0, 2, 0]])
    assert a > b > c


def _hand(deal, bots, scores) -> HandResult:
    return HandResult(deal, 0, 1, bots, scores, None, 17.5)


def test_the_differences_are_paired_by_deal_over_the_tables():
    results = [
        # Deal 0: table (a, b, c) and table (a, b, d).
        _hand(0, ("a", "b", "c"), (10, 4, 0)),
        _hand(0, ("a", "b", "d"), (2, 6, 1)),
        # Deal 1.
        _hand(1, ("a", "b", "c"), (8, 0, 3)),
        _hand(1, ("a", "b", "d"), (5, 1, 9)),
    ]
    s = standings(results, bootstrap=50)
    pair = next(p for p in s.pairs if {p.better, p.worse} == {"a", "b"})
    assert (pair.better, pair.worse) == ("a", "b")
    # Deal 0: (6 + -4) / 2 = 1; deal 1: (8 + 4) / 2 = 6; two units, not four.
    assert pair.difference.mean == pytest.approx(3.5)
    assert pair.difference.n == 2
    assert (pair.wins, pair.pairings) == (3, 4)
    assert (s.tables, s.deals, s.seatings, s.hands) == (2, 2, 1, 4)
    for r in s.ratings:
        assert r.low <= r.rating <= r.high


ARGS = [
    "tournament",
    "--bots",
    "heuristic,rule,random",
    "--players",
    "2",
    "--deals",
    "4",
    "--seed",
    "3",
    "--quiet",
]


def test_a_small_tournament_is_the_same_whatever_runs_it_and_draws_its_plot(tmp_path, capsys):
    plot = tmp_path / "t.png"
    records = tmp_path / "t.jsonl"
    assert main([*ARGS, "--workers", "1", "--plot", str(plot), "--records", str(records)]) == 0
    one = capsys.readouterr().out.removesuffix(f"plot: {plot}\n")
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert one.startswith("3 tables × 4 deals × 2 seatings: 24 hands")
    assert "heuristic − random" in one and "Bradley–Terry" in one
    written = records.read_text()
    assert len(written.splitlines()) == 24
    assert main([*ARGS, "--workers", "2"]) == 0
    assert capsys.readouterr().out == one
    # Resuming a complete run runs nothing and says the same.
    assert main([*ARGS, "--workers", "1", "--records", str(records), "--resume"]) == 0
    assert capsys.readouterr().out == one
    assert records.read_text() == written


def test_bad_options_exit_2_with_one_line(capsys):
    assert main(["tournament", "--bots", "rule"]) == 2
    assert "at least two different bots" in capsys.readouterr().err
    assert main(["tournament", "--bots", "rule,random", "--resume"]) == 2
    assert "--resume: give the --records file" in capsys.readouterr().err


def test_every_seating_plays_each_deal_in_every_order(capsys):
    args = ["tournament", "--bots", "heuristic,rule,random", "--deals", "2", "--quiet"]
    assert main([*args, "--every-seating", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 tables × 2 deals × 6 seatings: 12 hands")
