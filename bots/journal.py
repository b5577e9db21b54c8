"""A run that survives being stopped: its records file is its journal.

Each finished unit's lines are appended (and flushed) as it finishes, in
whatever order units finish; each line names its table and unit and says how
many lines the unit has, so a unit cut short by a stop is recognised and run
again.  `--resume` reads the file back, keeps the complete units and runs
only the others; at the end the file is rewritten in job order, so a resumed
run leaves the same bytes as one that never stopped (and as `--workers 1`).
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from .simulation import HandResult, Job, Runner


class JournalError(ValueError):
    """A records file that cannot be resumed (another run's, or not records)."""


class Journal:
    """The records file of a run: read back, appended to, put in order."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._out: TextIO | None = None

    def read(self, jobs: Sequence[Job]) -> dict[int, list[HandResult]]:
        """The complete units already in the file, by job index; a missing
        file is an empty journal.  A line cut short (the last one, after a
        kill) and units missing lines are dropped: they run again."""
        index = {(spec.table, unit): i for i, (spec, unit) in enumerate(jobs)}
        lines: dict[int, list[HandResult]] = defaultdict(list)
        sizes: dict[int, int] = {}
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        for number, line in enumerate(text.splitlines(keepends=True), 1):
            if not line.endswith("\n"):
                break  # the write a stop interrupted
            try:
                table, of, result = HandResult.from_line(line.rstrip("\n"))
            except (KeyError, TypeError, ValueError, AttributeError):
                raise JournalError(f"line {number} is not a hand record of a simulation") from None
            i = index.get((table, result.unit))
            if i is None:
                raise JournalError(
                    f"line {number} is from another run (other bots, rules or seed, "
                    "or a unit beyond this run's count)"
                )
            lines[i].append(result)
            sizes[i] = of
        return {i: hands for i, hands in lines.items() if len(hands) == sizes[i]}

    def open(self, keep: dict[int, list[HandResult]]) -> None:
        """Start appending, with only the complete units kept (in file order)."""
        self._rewrite([h for i in sorted(keep) for h in keep[i]])
        self._out = self.path.open("a", encoding="utf-8")

    def append(self, hands: list[HandResult]) -> None:
        """One finished unit, in one write, flushed: a kill loses at most it."""
        assert self._out is not None
        self._out.write("".join(f"{h.record}\n" for h in hands))
        self._out.flush()

    def close(self, ordered: list[HandResult] | None = None) -> None:
        """Stop appending; with `ordered` (the run is complete), rewrite the file
        in that order."""
        if self._out is not None:
            self._out.close()
            self._out = None
        if ordered is not None:
            self._rewrite(ordered)

    def _rewrite(self, hands: list[HandResult]) -> None:
        new = self.path.with_name(self.path.name + ".new")
        new.write_text("".join(f"{h.record}\n" for h in hands), encoding="utf-8")
        os.replace(new, self.path)


def carry_out(
    jobs: Sequence[Job],
    runner: Runner,
    journal: Journal | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> list[HandResult]:
    """Every hand of the jobs, in job order: those the journal has (`resume`),
    then the rest from the runner, journalled as they finish."""
    done = journal.read(jobs) if journal and resume else {}
    todo = [i for i in range(len(jobs)) if i not in done]
    if journal:
        journal.open(done)
    if progress:
        progress(len(done), len(jobs))
    complete = False
    try:
        for k, hands in runner([jobs[i] for i in todo]) if todo else ():
            done[todo[k]] = hands
            if journal:
                journal.append(hands)
            if progress:
                progress(len(done), len(jobs))
        complete = True
    finally:
        ordered = [h for i in range(len(jobs)) for h in done[i]] if complete else None
        if journal:
            journal.close(ordered)
    return [h for i in range(len(jobs)) for h in done[i]]
