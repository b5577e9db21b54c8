"""`cursed-bottle join HOST[:PORT] --name NAME`: play at a LAN server's tables.

Opens the Textual client in the server's lobby: list the tables, make one,
take a seat or watch.  `--table ID` goes straight to that table; a seat this
client holds there (its token is saved in the user's state directory) is
resumed instead of taking a new one.  `--tutor` asks before a poor card.

Before the app opens, the server is asked for its tables (a few seconds at
most), so a server that is not running, a wrong port or a table id that does
not exist is one line on stderr and exit status 2, not a waiting screen.
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
    if args.watch and args.table is None:
        return fail("--watch: which table? give its id with --table (the lobby lets you "
                    "watch any table without --watch)")
    try:
        target = parse_target(args.server)
    except ValueError as exc:
        return fail(f"HOST[:PORT]: {exc}")
    problem = reach(target, args.table, args.password)
    if problem:
        return fail(problem)
    name = args.name
    if not name:
        try:
            name = getpass.getuser()
        except (KeyError, OSError):
            name = "Player"
    app = CursedBottleApp(
        target,
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


def reach(target: str, table_id: str | None, password: str) -> str | None:
    """Why the server (or the table) cannot be used, in a few seconds; None: it can."""
    import asyncio

    from cursedbottle.client.reach import NotReached, check_server

    try:
        asyncio.run(check_server(target, table_id, password))
    except NotReached as exc:
        return str(exc)
    return None
