"""The workload a profile-guided build of the search is trained on (setup.py).

gcc builds `_search` once instrumented, this runs it, and gcc builds it again
laid out for the branches and calls that run took: the search is a deep
recursion of small branchy functions, where that layout is worth 10-14 %
of the time (solver/README.md, twenty-first part).  So the workload
is the search as it is used: first leads of the rule sets the benchmark
times, positions of every other rule set deeper in the hand, both models,
and a position's cards on two threads.  Fixed seeds: a build is repeatable.

Run by setup.py as a script, before anything is installed: `load_package`
maps the source folders to `cursedbottle.*` (as setup.py's package_dir does)
and takes the freshly built module from its path, wherever the build put it.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import time
import types
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (the package is loaded from the source tree at run time)
    from cursedbottle.engine.rules import Rules
    from cursedbottle.solver import Model

#: (rules as in a record, tricks left, positions, tricks left for max-n or 0):
#: every rule set the engine plays (tests/test_solver_training.py checks).
#: First leads where the benchmark's heavy suites are; fewer tricks where a
#: first lead takes seconds (five and six players, Devil's Eye, teams), and
#: where max-n does (it searches every move).
#: The Bottle Imp, as a record names its game (`Edition.BOTTLE_IMP`).
IMP = "bottle-imp"
WORKLOAD: tuple[tuple[dict, int, int, int], ...] = (
    ({"players": 3}, 11, 6, 7),
    ({"players": 3, "game": IMP}, 11, 6, 6),
    ({"players": 4}, 8, 6, 5),
    ({"players": 2}, 11, 4, 7),
    ({"players": 3, "hot_bottle": True}, 8, 4, 5),
    ({"players": 4, "hot_bottle": True}, 6, 4, 4),
    ({"players": 2, "hot_bottle": True}, 8, 3, 5),
    ({"players": 2, "bright_house": True}, 7, 3, 4),
    ({"players": 2, "bright_house": True, "hot_bottle": True}, 7, 2, 4),
    ({"players": 2, "game": IMP}, 5, 4, 3),
    ({"players": 4, "game": IMP}, 7, 4, 4),
    ({"players": 5, "game": IMP}, 6, 4, 0),
    ({"players": 6, "game": IMP}, 5, 4, 0),
    ({"players": 4, "game": IMP, "teams": True}, 6, 4, 4),
    ({"players": 5, "game": IMP, "teams": True}, 5, 2, 0),
    ({"players": 6, "game": IMP, "teams": True}, 4, 3, 0),
    ({"players": 6, "game": IMP, "teams": True, "singles": True}, 4, 2, 0),
    ({"players": 5, "game": IMP, "second_bottle": True}, 5, 2, 0),
    ({"players": 6, "game": IMP, "second_bottle": True, "teams": True}, 4, 2, 0),
)


def load_package(root: Path, module: Path) -> None:
    """Make `cursedbottle.engine` and `cursedbottle.solver` importable from
    the source tree at `root`, with `module` (a built `_search`) as its
    compiled search."""
    top = types.ModuleType("cursedbottle")
    top.__path__ = []
    sys.modules["cursedbottle"] = top
    _exec_package("cursedbottle.engine", root / "engine")
    spec = importlib.util.spec_from_file_location("cursedbottle.solver._search", module)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module at {module}")
    search = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = search
    spec.loader.exec_module(search)
    _exec_package("cursedbottle.solver", root / "solver")


def _exec_package(name: str, folder: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"no package at {folder}")
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    spec.loader.exec_module(package)


def run(scale: float = 1.0) -> int:
    """Solve the workload (`scale` times its positions, at least one a rule
    set); returns how many positions were solved."""
    from cursedbottle.engine.rules import Rules
    from cursedbottle.solver import Model

    solved = 0
    for obj, left, count, maxn_left in WORKLOAD:
        rules = Rules.from_json(obj)
        rng = random.Random(f"training:{sorted(obj.items())}")
        for i in range(max(1, round(count * scale))):
            # (Half on two threads: a split solve reads and writes a shared
            # table, a path of its own the profile must see as often.)
            _solve_drawn(rules, rng, left, Model.PARANOID, split=bool(i % 2))
            if maxn_left:
                _solve_drawn(rules, rng, maxn_left, Model.MAXN, split=False)
            solved += 1
    return solved


def _solve_drawn(rules: Rules, rng: random.Random, left: int, model: Model,
                 split: bool) -> None:
    """Solve a position drawn at random, `left` tricks from the end at a
    trick's lead.  Two bottles are an engine Hand's (a position has one)."""
    from cursedbottle.solver import solve_hand
    from cursedbottle.solver.batch import solve_split
    from cursedbottle.solver.sampling import random_hand, random_position

    if rules.second_bottle:
        hand = random_hand(rules, rng, left)
    else:
        hand = random_position(rules, rng, left, in_trick=0).to_hand()
    if split:
        solve_split(hand, model=model, threads=2)
    else:
        solve_hand(hand, model=model)


def main(argv: list[str]) -> int:
    """setup.py's call: ROOT MODULE [SCALE]; a wrong call says what is wrong
    in one line and exits 2."""
    problem = _wrong_call(argv)
    if problem:
        print(f"usage: training.py ROOT MODULE [SCALE]: {problem}", file=sys.stderr)
        return 2
    root, module = Path(argv[0]), Path(argv[1])
    load_package(root, module)
    start = time.perf_counter()
    solved = run(float(argv[2]) if len(argv) > 2 else 1.0)
    print(f"trained {module.name} on {solved} positions in {time.perf_counter() - start:.1f} s")
    return 0


def _wrong_call(argv: list[str]) -> str:
    """What is wrong with the arguments ("" if nothing)."""
    if not 2 <= len(argv) <= 3:
        return f"expected 2 or 3 arguments, got {len(argv)}"
    root, module = Path(argv[0]), Path(argv[1])
    for folder in (root / "engine", root / "solver"):
        if not (folder / "__init__.py").is_file():
            return f"{root} is not the source tree (no {folder}/__init__.py)"
    if not module.is_file():
        return f"no module at {module}"
    if len(argv) == 3:
        try:
            scale = float(argv[2])
        except ValueError:
            scale = 0.0
        if not scale > 0:
            return f"SCALE {argv[2]!r} is not a positive number"
    return ""


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
