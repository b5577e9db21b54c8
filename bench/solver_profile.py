"""Where a solve's nodes go: the heaviest positions of a suite, card by card
and probe by probe.

A suite's tail is a few positions, and within each a few root cards whose
MTD(f) probes take most of the nodes (solver/README.md, "Issue 17,
fourteenth part").  For the `--top` heaviest of a suite's positions (those of
bench/solver_bench.py) this prints the solve's counters (solver
`_search.LAST_STATS`): the nodes of the bottle question, the main search's
trick starts by the root seat's ending (open, settled free, settled owner),
the nodes that searched every move (and of them the root side's), and for
each root card its value and every probe "value >= b?" with its answer and
its nodes.

    .venv/bin/python bench/solver_profile.py --suite 3p-11
    .venv/bin/python bench/solver_profile.py --suite imp-3p-11 --positions 20 --top 5
"""

from __future__ import annotations

import argparse
import time

from cursedbottle.solver import _search, solve
from cursedbottle.solver.api import release_table
from solver_bench import SUITES, TIPS_SUITES, positions


def profile(position) -> dict:
    """One solve from an empty table, and its counters."""
    release_table()
    start = time.perf_counter()
    solution = solve(position)
    stats = dict(_search.LAST_STATS)
    stats["seconds"] = time.perf_counter() - start
    stats["nodes"] = solution.nodes
    stats["values"] = {card.index: value for card, value in solution.values.items()}
    stats["names"] = {card.index: str(card) for card in solution.values}
    return stats


def report(index: int, stats: dict) -> str:
    ends = stats["trick_starts_by_ending"]
    lines = [
        f"#{index}: {stats['nodes']:,} nodes in {stats['seconds'] * 1000:.0f} ms,"
        f" bottle question {stats['avoid_nodes']:,}, one point more {stats.get('gain_nodes', 0):,},"
        f" {stats['probes']} probes;"
        f" values {sorted(set(stats['values'].values()))}",
        f"  main search's trick starts by the root seat's ending: open {ends['open']:,},"
        f" free {ends['free']:,}, owner {ends['owner']:,}",
        f"  nodes searching every move: {stats['no_cut']:,}"
        f" (the root side's {stats['no_cut_root_side']:,})",
    ]
    by_card = stats["by_card"]
    for card in sorted(by_card, key=lambda c: -by_card[c][1]):
        value, nodes, _ = by_card[card]
        log = stats["probes_by_card"].get(card, [])
        probes = "  ".join(f"{'>=' if g >= b else '<'}{b}:{n:,}" for b, g, n in log)
        lines.append(f"  {stats['names'][card]:>4} value {value:>4}  {nodes:>11,} nodes  {probes}")
    return "\n".join(lines)


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", required=True, choices=sorted({*SUITES, *TIPS_SUITES}))
    parser.add_argument(
        "--positions", type=positive, default=20, help="positions of the suite solved"
    )
    parser.add_argument("--top", type=positive, default=3, help="the heaviest positions shown")
    args = parser.parse_args()
    rows = [(i, profile(p)) for i, p in enumerate(positions(args.suite, args.positions))]
    rows.sort(key=lambda row: -row[1]["nodes"])
    top = min(args.top, len(rows))
    total = sum(stats["nodes"] for _, stats in rows)
    heaviest = sum(stats["nodes"] for _, stats in rows[:top])
    print(
        f"{args.suite}: {len(rows)} positions, {total:,} nodes;"
        f" the {top} heaviest hold {heaviest / max(total, 1):.0%}"
    )
    for index, stats in rows[:top]:
        print(report(index, stats))


if __name__ == "__main__":
    main()
