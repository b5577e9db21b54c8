"""Remembered cut-offs in the middle of a trick (issue 17, thirtieth part).
The table is written at a trick's start only, so a node in the middle of a
trick had no hash move, and MTD(f)'s probes, which come back to the same
nodes, ordered them afresh each time.  Two memories beside the table now
give such a node the move that cut off there before:

- `hints`: by the node's whole state, in the root's trick and the next;
- `answers`: for the seats against the root side, by the mover's hand and
  the trick so far alone, at any depth (the same hand facing the same trick
  whatever the others hold).

Both order moves only, so the values are the reference's with them on
(tests/test_solver_diff.py, every rule set); here: the same values with
each off on every rule set, that the search uses them, and what they save."""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.rules import Rules
from cursedbottle.solver import _search
from cursedbottle.solver.api import release_table, solve, solve_hand
from cursedbottle.solver.sampling import random_hand, random_position
from switch_support import with_and_without

MEMORIES = ("hints", "answers")


def test_on_by_default_and_past_a_c_int() -> None:
    """The switches outgrew a C int with these: they must reach the search."""
    assert _search.OPTIONS["hints"] == 1 << 31
    assert _search.OPTIONS["answers"] == 1 << 32
    for name in MEMORIES:
        assert _search.ALL_OPTIONS & _search.OPTIONS[name]
    assert _search.EVERY_OPTION == (1 << 36) - 1 == sum(_search.OPTIONS.values())


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_remembered_moves_change_no_value(rules: Rules) -> None:
    """Four tricks left (three with five or six hands or the second bottle),
    any point of a trick: the values with both, and with each off, are one.
    (Engine hands: a position cannot hold the second bottle.)"""
    rng = random.Random(f"hints:{config_id(rules)}")
    tricks = 3 if rules.players >= 5 or rules.second_bottle else 4
    for _ in range(4):
        hand = random_hand(rules, rng, tricks, rng.randrange(rules.seats))
        release_table()
        on = solve_hand(hand).values
        for name in MEMORIES:
            release_table()
            assert solve_hand(hand, _search.ALL_OPTIONS & ~_search.OPTIONS[name]).values == on


@pytest.mark.parametrize("name", MEMORIES)
def test_the_search_uses_them(name: str) -> None:
    """First leads at three players, nine tricks left: probes come back to
    nodes in the middle of the first tricks, and some find the move that
    cut off there before; with the switch off, none."""
    rng = random.Random("hints:used")
    positions = [random_position(Rules(3), rng, 9, in_trick=0) for _ in range(4)]
    for opts, used in ((_search.ALL_OPTIONS, True),
                       (_search.ALL_OPTIONS & ~_search.OPTIONS[name], False)):
        hits = 0
        for pos in positions:
            release_table()
            solve(pos, opts)
            hits += _search.LAST_STATS[f"{name}_used"]
        assert (hits > 0) == used, (name, hits)


def test_hints_save_nodes() -> None:
    """Cursed Bottle at three, ten tricks left, at a trick's start: fewer
    nodes in all (measured: 23.38 M against 23.44 M; most of what hints
    find, answers find too: without answers 25.25 M against 25.63 M, and
    the benchmark's first leads 32.36 M against 33.50 M, solver/README.md)."""
    rng = random.Random("hints:3:10")
    positions = [random_position(Rules(3), rng, 10, in_trick=0) for _ in range(20)]
    pairs = with_and_without("hints", positions)
    on, off = sum(a.nodes for a, _ in pairs), sum(b.nodes for _, b in pairs)
    assert on < off, (on, off)


def test_answers_save_nodes() -> None:
    """Cursed Bottle at two with Lopaka, ten tricks left, at a trick's
    start: a tenth of the nodes at least (measured: 1.53 M against 1.75 M;
    the benchmark's 2p-lopaka-11: 12.85 M against 14.10 M)."""
    rng = random.Random("answers:2p:10")
    positions = [random_position(Rules(2), rng, 10, in_trick=0) for _ in range(20)]
    pairs = with_and_without("answers", positions)
    on, off = sum(a.nodes for a, _ in pairs), sum(b.nodes for _, b in pairs)
    assert on < 0.9 * off, (on, off)
