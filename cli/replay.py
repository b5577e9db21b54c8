"""`cursed-bottle replay RECORD.json`: check a hand record and print its outcome.

Outside tools check the project through this command (FORMATS.md), so its
output is one JSON object on stdout and nothing else, and every bad input —
no file, not JSON, a malformed or an illegal record — is exit status 2 with
one line on stderr that names the file and the first problem.
"""

from __future__ import annotations

import argparse

from cursedbottle.cli.errors import fail
from cursedbottle.cli.files import BadInput, add_indent, add_input, read_json, source, write_json


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
    add_input(p, "record", "RECORD.json", "the hand record")
    add_indent(p)
    return p


def run(args: argparse.Namespace) -> int:
    from cursedbottle.engine.records import HandRecord, RecordError, replay

    try:
        result = replay(HandRecord.from_json(read_json(args.record)))
    except BadInput as exc:
        return fail(str(exc))
    except RecordError as exc:
        return fail(f"{source(args.record)}: {exc}")
    write_json(result.to_json(), args)
    return 0
