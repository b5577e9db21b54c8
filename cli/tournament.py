"""`cursed-bottle tournament`: every table of some bots in duplicate, ranked.

    cursed-bottle tournament --bots heuristic,rule,random,strong:n16 --players 3 --deals 40

The schedule, the paired differences and the rating model are
bots/tournament.py's; the run (local processes or Ray, `--records` and
`--resume`, the progress bar) is simulate's.  The table goes to stdout, the
same bytes for the same arguments.
"""

from __future__ import annotations

import argparse

from cursedbottle.cli.errors import fail
from cursedbottle.cli.options import add_rules_arguments, rules_from_args
from cursedbottle.cli.runs import (
    RunError,
    add_run_arguments,
    bot_names,
    carry_out,
    check_run_arguments,
    draw,
)


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("tournament", help="every table of some bots in duplicate, with ratings")
    p.add_argument(
        "--bots",
        required=True,
        help="the bots, comma-separated (e.g. heuristic,rule,random,strong:n16)",
    )
    add_rules_arguments(p)
    p.add_argument("--deals", type=int, default=50, help="deals every table plays (default 50)")
    p.add_argument(
        "--every-seating",
        action="store_true",
        help="each deal in every order of the bots round the table, not only every rotation",
    )
    add_run_arguments(p, plot="draw the differences and the ratings")
    return p


def run(args: argparse.Namespace) -> int:
    from cursedbottle.bots.tournament import format_standings, jobs, standings
    from cursedbottle.engine.rules import RulesError

    try:
        names = bot_names(args.bots)
        if args.deals < 1:
            raise ValueError("--deals: give a positive number")
        check_run_arguments(args)
        rules = rules_from_args(args)
        work = jobs(names, rules, args.deals, args.seed, bool(args.records), args.every_seating)
    except (RulesError, ValueError) as exc:
        return fail(str(exc))
    try:
        results = carry_out(args, work, "deals×tables")
    except RunError as exc:
        return fail(str(exc))
    table = standings(results)
    print(format_standings(table))
    error = draw(args.plot, "plot_standings", table)
    return fail(error) if error else 0
