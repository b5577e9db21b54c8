"""`cursed-bottle solve POSITION.json`: the double-dummy values of a position.

Outside tools check the solver through this command (FORMATS.md), so stdout
carries one JSON object and nothing else; a missing file, bad JSON or a
malformed or impossible position is exit status 2 with one line on stderr
that names the file and the problem; a search that passes `--time-limit` is
exit status 3 (one line: how long and how many nodes).
"""

from __future__ import annotations

import argparse
import sys

from cursedbottle.cli.errors import fail
from cursedbottle.cli.files import BadInput, add_indent, add_input, read_json, source, write_json


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "solve",
        help="double-dummy values of every legal card in a position",
        description=(
            "Read a position (FORMATS.md) and print one JSON object: the seat to move, the "
            "model, each legal card's double-dummy value for that seat (RULES.md), the best "
            "cards and the nodes searched. A malformed or impossible position exits with "
            "status 2."
        ),
    )
    add_input(p, "position", "POSITION.json", "the position")
    add_indent(p)
    p.add_argument(
        "--time-limit", type=float, default=None, metavar="SECONDS",
        help="give up after this much search (exit 3); early positions, above all of "
        "Devil's Eye, can take minutes. Ctrl-C stops a search too",
    )
    p.add_argument(
        "--model", choices=["paranoid", "maxn"], default="paranoid",
        help="how the other seats play: paranoid (all against the seat to move; the "
        "default) or maxn (each for itself)",
    )
    p.add_argument(
        "--threads", type=int, default=1, metavar="N",
        help="share the cards among N threads (up to N times faster on a machine with N "
        "free cores; the nodes printed are the threads' sum)",
    )
    p.add_argument(
        "--reference",
        action="store_true",
        help="use the slow pure-Python minimax instead of the compiled search (for checking)",
    )
    return p


def run(args: argparse.Namespace) -> int:
    from cursedbottle.engine.position import Position, PositionError

    where = source(args.position)
    try:
        position = Position.from_json(read_json(args.position))
    except BadInput as exc:
        return fail(str(exc))
    except PositionError as exc:
        return fail(f"{where}: {exc}")
    if args.reference:
        from cursedbottle.solver.api import Solution
        from cursedbottle.solver.model import Model
        from cursedbottle.solver.reference import reference_solve

        seat, values, nodes = reference_solve(position.to_hand(), args.model)
        solution = Solution(seat, dict(sorted(values.items())), nodes, Model(args.model))
    else:
        from cursedbottle.solver import solve
        from cursedbottle.solver.batch import solve_split

        if args.time_limit is not None and args.time_limit <= 0:
            return fail(f"--time-limit: {args.time_limit:g} is not a positive number of seconds")
        if args.threads < 1:
            return fail(f"--threads: {args.threads} is not at least 1")
        try:
            if args.threads > 1:
                solution = solve_split(
                    position, model=args.model, threads=args.threads, time_limit=args.time_limit
                )
            else:
                solution = solve(position, time_limit=args.time_limit, model=args.model)
        except TimeoutError as exc:
            print(f"cursed-bottle: {where}: {exc}", file=sys.stderr)
            return 3
    write_json(solution.to_json(), args)
    return 0
