"""How the command line reports a bad input: one line on stderr, exit status 2."""

from __future__ import annotations

import sys

EXIT_BAD_INPUT = 2


def fail(message: str) -> int:
    print(f"cursed-bottle: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT
