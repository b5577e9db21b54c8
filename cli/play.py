"""`cursed-bottle play`: a game against bots, one command from install to playing.

By default it starts a game server on 127.0.0.1 (a child process on a free
port), makes a table, fills the other seats with strong bots and opens the
Textual client.  `--text` keeps the plain-text table: it needs nothing but a
terminal and stdin, so it also serves scripts and screen readers (type a card,
`10H`, `QS`, `10♥`, or its number in your hand).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

from cursedbottle.cli.errors import fail
from cursedbottle.cli.options import (
    add_client_arguments,
    add_rules_arguments,
    check_tutor_threshold,
    rules_from_args,
)


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("play", help="play a game against bots in this terminal")
    add_rules_arguments(p)
    p.add_argument("--seed", default=None, help="seed of the deal (default: random)")
    p.add_argument(
        "--bots", default=None,
        help="bot for the other seats: strong, pimc, model, heuristic, rule, random "
        "(default: strong; random with --text)",
    )
    p.add_argument("--name", default=None, help="your name at the table")
    p.add_argument("--text", action="store_true", help="the plain-text table instead of the app")
    p.add_argument("--watch", action="store_true", help="only watch: bots take every seat")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="seconds a bot waits before it acts (default: 0.6)")
    add_client_arguments(p)
    return p


def run(args: argparse.Namespace) -> int:
    if args.text:
        return run_text(args)
    return run_app(args)


def run_text(args: argparse.Namespace) -> int:
    import secrets

    from cursedbottle.bots import make_bot
    from cursedbottle.bots.seeds import stable_seed
    from cursedbottle.cli.text_table import TextTable
    from cursedbottle.engine.rules import RulesError

    try:
        rules = rules_from_args(args)
        seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
        bot = args.bots or "random"
        bots = {p: make_bot(bot, seed=stable_seed(seed, p)) for p in range(1, rules.players)}
    except (RulesError, ValueError) as exc:
        return fail(str(exc))
    table = TextTable(rules, seed, bots, args.name or "You", input_fn=input, out=sys.stdout)
    try:
        table.play()
    except (EOFError, KeyboardInterrupt):
        print("\nGame left.", file=sys.stdout)
        return 1
    return 0


def run_app(args: argparse.Namespace) -> int:
    """Server in a child process, the client in this one: the bots think on their own
    core and never stall the screen."""
    from cursedbottle.bots import make_bot
    from cursedbottle.client import CursedBottleApp, QuickGame
    from cursedbottle.client.i18n import detect_lang
    from cursedbottle.engine.rules import RulesError
    from cursedbottle.server.wire import rules_msg

    try:
        rules = rules_msg(rules_from_args(args))  # the engine's checks and messages
        bot = args.bots or "strong"
        make_bot(bot)
    except (RulesError, ValueError) as exc:
        return fail(str(exc))
    if not 0 <= args.bot_delay <= 60:
        return fail(f"--bot-delay: {args.bot_delay} is not between 0 and 60 seconds")
    problem = check_tutor_threshold(args)
    if problem:
        return fail(problem)
    lang = detect_lang(args.lang)
    name = args.name or ("Du" if lang == "de" else "You")
    quick = QuickGame(rules, bots=bot, name=name, seed=args.seed, watch=args.watch)
    with local_server(args.bot_delay) as target:
        app = CursedBottleApp(target, lang=lang, name=name, quick=quick,
                              hint_budget_ms=args.hint_budget, tutor=args.tutor,
                              tutor_threshold=args.tutor_threshold,
                              # the server ends with this client: no seat to resume later
                              remember_seats=False)
        app.run()
    return app.return_code or 0  # 1: the client stopped on an error


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def local_server(bot_delay: float) -> Iterator[str]:
    """`cursed-bottle serve` on 127.0.0.1 and a free port, for as long as the block runs."""
    port = free_port()
    command = [
        sys.executable, "-m", "cursedbottle.cli.main", "serve", "--host", "127.0.0.1",
        "--port", str(port), "--bot-delay", str(bot_delay), "--quiet", "--grace", "0.5",
        # A game against bots lives as long as this client: nothing to resume later,
        # and no lock on the host's database if a LAN server runs beside it.
        "--no-db",
        # It ends when this process does, even on SIGKILL (cli/lifeline.py).
        "--parent", str(os.getpid()),
    ]
    with tempfile.TemporaryFile(mode="w+") as log:
        child = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            _wait_listening(port, child)
            yield f"127.0.0.1:{port}"
        finally:
            child.terminate()
            try:
                child.wait(5)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def _wait_listening(port: int, child: subprocess.Popen, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise SystemExit(f"cursed-bottle: the local server stopped (exit {child.returncode})")
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise SystemExit("cursed-bottle: the local server did not start")
