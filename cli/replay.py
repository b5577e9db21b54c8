"""`cursed-bottle replay RECORD.json`: check a hand record and print its outcome.

Outside tools check the project through this command (FORMATS.md), so its
output is one JSON object on stdout and nothing else, and every bad input —
no file, not JSON, a malformed or an illegal record — is exit status 2 with
one line on stderr that names the file and the first problem.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from cursedbottle.cli.errors import fail


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "replay",
        help="check a hand record against the rules and print its outcome",
        description=(
            "Replay a hand record (FORMATS.md) through the rules engine and print one JSON "
            "object: scores per seat, the bottle's owner, the final price and every trick. "
            "An illegal or malformed record exits with status 2 and names the first problem."
        ),
    )
    p.add_argument("record", metavar="RECORD.json", help="the hand record; - reads stdin")
    p.add_argument(
        "--indent", type=int, default=None, metavar="N", help="pretty-print with N spaces"
    )
    return p


def run(args: argparse.Namespace) -> int:
    from cursedbottle.engine.records import HandRecord, RecordError, replay

    source = "<stdin>" if args.record == "-" else args.record
    try:
        if args.record == "-":
            record = HandRecord.loads(sys.stdin.read())
        else:
            record = HandRecord.load(args.record)
        result = replay(record)
    except OSError as exc:
        return fail(f"{source}: {exc.strerror or exc}")
    except RecordError as exc:
        return fail(f"{source}: {exc}")
    try:
        print(json.dumps(result.to_json(), indent=args.indent), flush=True)
    except BrokenPipeError:  # `cursed-bottle replay x.json | head`: the reader left, fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
