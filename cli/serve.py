"""`cursed-bottle serve`: the LAN game server.

One person runs it; everyone else joins from their own terminal.  It logs
tables, joins, leaves and refused requests to stderr, and stops gracefully on
Ctrl-C or SIGTERM (health turns NOT_SERVING, streams are closed, calls in
flight finish).

Tables are kept in a database by default (docs/storage.md), because a host
expects an evening to survive the laptop sleeping or the server being
restarted: without --db it lives in the user's data directory
($XDG_DATA_HOME/cursed-bottle, else ~/.local/share/cursed-bottle); --no-db
keeps everything in memory, as a throwaway server for a quick test wants.
"""

from __future__ import annotations

import argparse

from cursedbottle.cli.errors import fail


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("serve", help="run the LAN game server (gRPC)")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: 0.0.0.0)")
    p.add_argument("--port", type=int, default=50051, help="port (default: 50051; 0 = any free)")
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        help="seconds a bot waits before it acts, so people can follow (default: 0.6)",
    )
    p.add_argument("--grace", type=float, default=5.0, help="seconds calls get to finish on stop")
    p.add_argument("--quiet", action="store_true", help="log warnings and errors only")
    p.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one of the server's limits (docs/protocol.md, \"Limits\"), e.g. "
        "max_streams_per_client=1000 for a load test; may be repeated",
    )
    # `play`'s own server: it ends when that process does (cli/lifeline.py).
    p.add_argument("--parent", type=int, default=None, help=argparse.SUPPRESS)
    db = p.add_mutually_exclusive_group()
    db.add_argument(
        "--db",
        metavar="PATH",
        default=None,
        help="SQLite file that keeps every table, so a restarted server resumes them "
        "(default: cursed-bottle/cursed-bottle.db in $XDG_DATA_HOME or ~/.local/share)",
    )
    db.add_argument(
        "--no-db", action="store_true", help="keep tables in memory only (lost on stop)"
    )
    return p


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    if args.parent is not None:
        from cursedbottle.cli.lifeline import end_with_parent

        if not end_with_parent(args.parent):
            return fail(f"--parent: process {args.parent} has already ended")
    if not 0 <= args.port <= 65535:
        return fail(f"--port: {args.port} is not a port number (0…65535)")
    if not 0 <= args.bot_delay <= 60:
        return fail(f"--bot-delay: {args.bot_delay} is not between 0 and 60 seconds")
    if args.grace < 0:
        return fail(f"--grace: {args.grace} is negative")
    from cursedbottle.server.limits import Limits

    limits = Limits()
    for text in args.limit:
        try:
            limits = limits.with_text(text)
        except ValueError as exc:
            return fail(str(exc))
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO,
        format="%(asctime)s %(levelname)s %(message)s",
    )
    from cursedbottle.server import serve
    from cursedbottle.server.address import ListenError
    from cursedbottle.server.store import StoreError, default_db_path

    db = None if args.no_db else (args.db or default_db_path())
    try:
        asyncio.run(
            serve(
                args.host,
                args.port,
                bot_delay=args.bot_delay,
                grace=args.grace,
                db=db,
                limits=limits,
            )
        )
    except StoreError as exc:
        return fail(f"database: {exc}")
    except ListenError as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(f"cannot serve on {args.host}:{args.port}: {exc}")
    return 0
