"""Where and how a long bot-only run goes: local processes or Ray, its records
file as a journal (`--resume`), its progress bar.  Shared by `simulate` and
`tournament`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from functools import partial

from cursedbottle.cli.progress import ProgressBar


class RunError(Exception):
    """A run that cannot start or go on, in one line for the user."""


def add_run_arguments(p: argparse.ArgumentParser, plot: str) -> None:
    """The options every bot-only run shares; `plot`: what its --plot draws."""
    p.add_argument("--seed", default="0", help="seed of everything random (default 0)")
    p.add_argument("--plot", metavar="FILE.png", help=plot)
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes (default: all cores); with --ray, the CPUs of the local Ray",
    )
    p.add_argument(
        "--ray",
        action="store_true",
        help="run the units as Ray tasks on a local Ray started for the run "
        "(needs pip install 'cursed-bottle[cluster]')",
    )
    p.add_argument(
        "--ray-address",
        metavar="ADDRESS",
        help="run on the Ray cluster there (HEAD:6379, or auto); implies --ray",
    )
    p.add_argument("--records", metavar="FILE.jsonl", help="write every hand as a hand record")
    p.add_argument(
        "--resume",
        action="store_true",
        help="keep the units already in --records and run only the others",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def bot_names(text: str) -> tuple[str, ...]:
    """The bots of a comma-separated list, each known (ValueError if not)."""
    from cursedbottle.bots import make_bot

    names = tuple(n.strip() for n in text.split(",") if n.strip())
    for name in set(names):
        make_bot(name)
    return names


def draw(path: str | None, picture: str, what: object) -> str | None:
    """`bots.plot.<picture>(what, path)` if a plot was asked for; the error
    text if matplotlib is missing."""
    if not path:
        return None
    try:
        from cursedbottle.bots import plot
    except ImportError:  # check_plot said so before the run; this is a last resort
        return "--plot needs matplotlib: pip install 'cursed-bottle[plot]'"
    try:
        getattr(plot, picture)(what, path)
    except OSError as exc:  # the summary is printed already: only the picture is lost
        return f"--plot: cannot write {path}: {exc.strerror or exc}"
    print(f"plot: {path}")
    return None


def check_plot(path: str | None) -> None:
    """ValueError now, before the run, if `--plot` could not be drawn after it:
    matplotlib is missing, or the picture's folder is not there to write in."""
    if not path:
        return
    import os

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install 'cursed-bottle[plot]' "
                         "(or leave out --plot)") from None
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"--plot: {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"--plot: {path}: cannot write in {folder}")


def check_run_arguments(args: argparse.Namespace) -> None:
    """ValueError for options that do not go together (and a --plot that cannot be drawn)."""
    check_plot(getattr(args, "plot", None))
    if args.workers is not None and args.workers < 1:
        raise ValueError("--workers: give a positive number of processes")
    if args.resume and not args.records:
        raise ValueError("--resume: give the --records file of the run to resume")
    if args.ray_address and args.workers is not None:
        raise ValueError("--workers: a Ray cluster's CPUs are its own (drop --workers)")


def carry_out(args: argparse.Namespace, jobs: Sequence, unit: str) -> list:
    """Every hand of the jobs, in job order, run as the options say (RunError
    if it cannot be: no ray, a --records file not to be written or resumed)."""
    from cursedbottle.bots.journal import Journal, JournalError
    from cursedbottle.bots.journal import carry_out as carry_out_jobs
    from cursedbottle.bots.simulation import run_local

    ray = None
    if args.ray or args.ray_address:
        from cursedbottle.bots.ray_runner import RayRunner

        runner = ray = RayRunner(args.ray_address, args.workers)
        try:
            ray.require()
        except ImportError:
            raise RunError("--ray needs ray: pip install 'cursed-bottle[cluster]'") from None
    else:
        runner = partial(run_local, workers=args.workers)
    journal = Journal(args.records) if args.records else None
    bar = ProgressBar.on_terminal(unit, args.quiet)
    try:
        return carry_out_jobs(jobs, runner, journal, args.resume, bar)
    except JournalError as exc:
        raise RunError(f"--resume: {args.records}: {exc}") from None
    except OSError as exc:
        if exc.filename is None:
            raise
        raise RunError(f"--records: cannot write {exc.filename}: {exc.strerror}") from None
    finally:
        if bar:
            bar.close()
        if ray is not None and ray.nodes:
            print(ray.report(), file=sys.stderr)
