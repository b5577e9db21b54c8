"""The file a command reads (or stdin) and the answer it prints: one argument,
one reading with its errors in words, one way to leave a closed pipe."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any


class BadInput(Exception):
    """An input that cannot be read; the message names it and the problem."""


def add_input(p: argparse.ArgumentParser, dest: str, metavar: str, what: str) -> None:
    p.add_argument(dest, metavar=metavar, help=f"{what}; - reads stdin")


def add_indent(p: argparse.ArgumentParser) -> None:
    """How the answer is laid out: indented for a person at a terminal, one line for a
    program reading a pipe or a file (FORMATS.md's bytes), unless told otherwise."""
    layout = p.add_mutually_exclusive_group()
    layout.add_argument(
        "--indent", type=int, default=None, metavar="N",
        help="pretty-print with N spaces (default: 2 on a terminal, one line otherwise)",
    )
    layout.add_argument(
        "--compact", action="store_true", help="one line, even on a terminal"
    )


def write_json(value: Any, args: argparse.Namespace) -> None:
    """The answer on stdout, laid out as `add_indent`'s options say."""
    indent = args.indent
    if indent is None and not args.compact and sys.stdout.isatty():
        indent = 2
    write_out(json.dumps(value, indent=indent) + "\n")


def source(path: str) -> str:
    """How messages name the input."""
    return "<stdin>" if path == "-" else path


def read_json(path: str) -> Any:
    """The JSON value in `path` (`-`: stdin); BadInput naming the file otherwise."""
    where = source(path)
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8")
    except OSError as exc:
        raise BadInput(f"{where}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BadInput(f"{where}: not JSON: the file is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(
            f"{where}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None


def write_out(text: str) -> None:
    """Print to stdout; a reader that left (`… | head`) is fine."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
