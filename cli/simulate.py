"""`cursed-bottle simulate`: bot-only tables for analysis.

    cursed-bottle simulate --seats heuristic,rule,random --hands 1000 --duplicate

The summary goes to stdout and is the same, byte for byte, for the same
arguments (whatever --workers says); the progress bar goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time

from cursedbottle.cli.errors import fail
from cursedbottle.cli.options import add_rules_arguments, rules_from_args


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
    p.add_argument("--seed", default="0", help="seed of everything random (default 0)")
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="replay each deal with the bots rotated through the seats",
    )
    p.add_argument("--records", metavar="FILE.jsonl", help="write every hand as a hand record")
    p.add_argument("--plot", metavar="FILE.png", help="draw the score distribution per bot")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def run(args: argparse.Namespace) -> int:
    from cursedbottle.bots import make_bot
    from cursedbottle.bots.simulation import TableSpec, simulate
    from cursedbottle.bots.stats import format_summary, summarise
    from cursedbottle.engine.rules import RulesError

    names = tuple(n.strip() for n in args.seats.split(",") if n.strip())
    try:
        for name in set(names):
            make_bot(name)
        if (args.hands is not None and args.hands < 1) or (
            args.games is not None and args.games < 1
        ):
            raise ValueError("--hands/--games: give a positive number")
        if args.workers is not None and args.workers < 1:
            raise ValueError("--workers: give a positive number of processes")
        rules = rules_from_args(args, players=len(names))
    except (RulesError, ValueError) as exc:
        return fail(str(exc))
    games = args.games is not None
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
        records = open(args.records, "w", encoding="utf-8") if args.records else None  # noqa: SIM115
    except OSError as exc:
        return fail(f"--records: cannot write {args.records}: {exc.strerror}")
    show = not args.quiet and sys.stderr.isatty()
    bar = ProgressBar(units, "games" if games else "deals") if show else None
    results = []
    for result in simulate(spec, args.workers, bar):
        results.append(result)
        if records:
            records.write(result.record + "\n")
    if records:
        records.close()
    if bar:
        bar.close()
    deck = rules.deck

    def price_name(place: float) -> str:
        i = round(place)
        if place >= deck.joker_position - 0.5:
            return deck.joker_name.lower()
        return deck.cards[min(i, len(deck) - 1)].ascii

    print(format_summary(summarise(results), price_name))
    if args.plot:
        try:
            from cursedbottle.bots.plot import plot_scores
        except ImportError:
            return fail("--plot needs matplotlib: pip install 'cursed-bottle[plot]'")
        plot_scores(results, args.plot)
        print(f"plot: {args.plot}")
    return 0


class ProgressBar:
    """A one-line bar on stderr, redrawn in place (only shown on a terminal)."""

    def __init__(self, total: int, unit: str) -> None:
        self.total, self.unit = total, unit
        self.start = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = int(width * done / total)
        rate = done / max(time.perf_counter() - self.start, 1e-9)
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {self.unit} ({rate:.1f}/s)"
        )
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")
