"""Solves with one search technique on and off, each on a fresh table so
that node counts compare: what every test of a technique's switch does."""

from __future__ import annotations

from collections.abc import Iterable

from cursedbottle.engine.position import Position
from cursedbottle.solver import _search
from cursedbottle.solver.api import Solution, release_table, solve


def fresh_solve(pos: Position, opts: int, model: str = "paranoid") -> Solution:
    """A solve on a new table (nothing shared from the solve before)."""
    release_table()
    return solve(pos, opts, model=model)


def with_and_without(
    name: str, positions: Iterable[Position], model: str = "paranoid"
) -> list[tuple[Solution, Solution]]:
    """Each position solved with technique `name` and without it, the values
    held equal: a technique buys time only."""
    without = _search.ALL_OPTIONS & ~_search.OPTIONS[name]
    pairs = []
    for pos in positions:
        on, off = fresh_solve(pos, _search.ALL_OPTIONS, model), fresh_solve(pos, without, model)
        assert on.values == off.values, (name, pos.to_json())
        pairs.append((on, off))
    return pairs


def twin_nodes(first: Position, twin: Position, opts: int) -> tuple[int, int]:
    """The twin's nodes alone, and solved right after the first on the same
    table (`share`), where it finds what the first stored under its keys:
    how a technique that leaves something out of the keys is seen to work."""
    alone = fresh_solve(twin, opts)
    release_table()
    solve(first, opts)
    after = solve(twin, opts)
    assert after.values == alone.values
    return alone.nodes, after.nodes
