"""`cursed-bottle join HOST[:PORT] --name NAME`: play at a LAN server's tables.

Opens the Textual client in the server's lobby: list the tables, make one,
take a seat or watch.  `--table ID` goes straight to that table; a seat this
client holds there (its token is saved in the user's state directory) is
resumed instead of taking a new one.  `--tutor` asks before a poor card.
"""

from __future__ import annotations

import argparse

from cursedbottle.cli.errors import fail
from cursedbottle.cli.options import add_client_arguments, check_tutor_threshold


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("join", help="play on a LAN server (cursed-bottle serve)")
    p.add_argument("server", metavar="HOST[:PORT]", help="the server (default port 50051)")
    p.add_argument("--name", default=None, help="your name at the table")
    p.add_argument("--table", default=None, help="go straight to this table (its id)")
    p.add_argument("--watch", action="store_true", help="with --table: only watch it")
    p.add_argument("--password", default="", help="the table's password, if it has one")
    add_client_arguments(p)
    return p


def run(args: argparse.Namespace) -> int:
    import getpass

    from cursedbottle.client import CursedBottleApp
    from cursedbottle.client.i18n import detect_lang
    from cursedbottle.client.net import parse_target

    problem = check_tutor_threshold(args)
    if problem:
        return fail(problem)
    name = args.name
    if not name:
        try:
            name = getpass.getuser()
        except (KeyError, OSError):
            name = "Player"
    app = CursedBottleApp(
        parse_target(args.server),
        lang=detect_lang(args.lang),
        name=name[:40],
        hint_budget_ms=args.hint_budget,
        table_id=args.table,
        watch=args.watch,
        password=args.password,
        leave_on_quit=True,
        tutor=args.tutor,
        tutor_threshold=args.tutor_threshold,
    )
    app.run()
    return app.return_code or 0  # 1: the client stopped on an error
