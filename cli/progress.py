"""The progress bar of a long run: done, rate and time left, on stderr.

Shown only on a terminal (a pipe or a log file gets nothing).  The rate
counts the units done by this run, not the ones a `--resume` found done.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}:{seconds % 60:02d}"


class ProgressBar:
    """A one-line bar, redrawn in place; call it with (done, total)."""

    WIDTH = 30

    def __init__(self, unit: str, stream: TextIO | None = None) -> None:
        self.unit = unit
        self.stream = stream or sys.stderr
        self.start = time.perf_counter()
        self.first: int | None = None
        self.drawn = 0.0

    @classmethod
    def on_terminal(cls, unit: str, quiet: bool = False) -> ProgressBar | None:
        return None if quiet or not sys.stderr.isatty() else cls(unit)

    def __call__(self, done: int, total: int) -> None:
        if self.first is None:
            self.first = done
            self.start = time.perf_counter()
        now = time.perf_counter()
        if now - self.drawn < 0.1 and done < total:
            return  # a few redraws a second are enough
        self.drawn = now
        filled = int(self.WIDTH * done / max(total, 1))
        elapsed = now - self.start
        rate = (done - self.first) / max(elapsed, 1e-9)
        left = f", {duration((total - done) / rate)} left" if rate > 0 else ""
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total} {self.unit} "
            f"({rate:.2f}/s{left})  "
        )
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()
