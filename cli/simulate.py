"""`cursed-bottle simulate`: bot-only tables for analysis.

    cursed-bottle simulate --seats heuristic,rule,random --hands 1000 --duplicate

The summary goes to stdout and is the same, byte for byte, for the same
arguments (whatever --workers or --ray say, and after a --resume); the
progress bar goes to stderr.
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
    p = sub.add_parser("simulate", help="let bots play many hands and compare them")
    p.add_argument(
        "--seats",
        required=True,
        help="bot of each player, comma-separated: random, rule, heuristic, strong",
    )
    add_rules_arguments(p, players=False)
    how_much = p.add_mutually_exclusive_group()
    how_much.add_argument(
        "--hands", type=int, default=None, help="independent hands (deals) to play (default 100)"
    )
    how_much.add_argument("--games", type=int, default=None, help="whole games to play")
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="replay each deal with the bots rotated through the seats",
    )
    add_run_arguments(p, plot="draw the score distribution per bot")
    return p


def run(args: argparse.Namespace) -> int:
    from cursedbottle.bots.simulation import TableSpec
    from cursedbottle.bots.stats import format_summary, summarise
    from cursedbottle.engine.rules import RulesError

    try:
        names = bot_names(args.seats)
        if (args.hands is not None and args.hands < 1) or (
            args.games is not None and args.games < 1
        ):
            raise ValueError("--hands/--games: give a positive number")
        check_run_arguments(args)
        rules = rules_from_args(args, players=len(names))
    except (RulesError, ValueError) as exc:
        return fail(str(exc))
    games = args.games is not None
    unit_name = "games" if games else "deals"
    units = args.games if games else (args.hands or 100)
    spec = TableSpec(
        names,
        rules,
        units,
        games=games,
        duplicate=args.duplicate,
        seed=args.seed,
        records=bool(args.records),
    )
    try:
        results = carry_out(args, [(spec, unit) for unit in range(units)], unit_name)
    except RunError as exc:
        return fail(str(exc))
    deck = rules.deck

    def price_name(place: float) -> str:
        i = round(place)
        if place >= deck.joker_position - 0.5:
            return deck.joker_name.lower()
        return deck.cards[min(i, len(deck) - 1)].ascii

    print(format_summary(summarise(results), price_name, unit=unit_name))
    error = draw(args.plot, "plot_scores", results)
    return fail(error) if error else 0
