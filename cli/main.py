"""`cursed-bottle`: one command, one subcommand per job.

Each subcommand lives in its own module of this package with two functions,
`add_parser(subparsers)` and `run(args) -> int`.  The modules import their
heavy dependencies inside `run`, so `cursed-bottle replay` never loads the
solver or the client.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = (
    "play",
    "join",
    "simulate",
    "tournament",
    "replay",
    "solve",
    "serve",
    "history",
    "review",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cursed-bottle",
        description="Cursed Bottle: play, replay and analyse the Bottle Imp's trick-taking game.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        module = importlib.import_module(f"cursedbottle.cli.{name}")
        module.add_parser(sub).set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except KeyboardInterrupt:  # Ctrl-C: stop quietly, with the shell's status for it
        print("cursed-bottle: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
