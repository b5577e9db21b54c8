"""How much a batch of guessed deals gains from a second thread (solver/batch.py).

A decision of the strong bot: a seat to move with `--cards` cards left in
the hands (24 by default: the bots' exact-solve threshold), reached by random
legal play; its information set guessed `--deals` times (bots/sampling.py,
uniform among the consistent deals), the same guessed deals solved on 1 and
on 2 threads (`solve_many`).  The runs alternate (1, 2, 1, 2, …) in one
process, so that a change of the machine's load hits both alike; the
throughput ratio is that of the medians.  Every run solves the same deals, so
the table's entries kept for the next solve of the same context (`share`,
solver/README.md) are switched off: with them every run after the first
found its answers in the table (192 solves in 14 ms).  The machine's load average is
printed before and after, and the process's CPU time beside the wall time:
on a shared machine the second thread competes with other jobs for the
second core (cores used = CPU / wall), and the CPU time per solve shows what
solving in parallel costs in itself.

    nice -n 5 .venv/bin/python bench/batch_bench.py            # 3p, 64 deals, 5 runs each
    .venv/bin/python bench/batch_bench.py --game bottle-imp --players 4 --model maxn --cards 16
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

from cursedbottle.bots.sampling import position_of, sample_deal
from cursedbottle.engine.events import Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.solver import _search
from cursedbottle.solver.api import release_table
from cursedbottle.solver.batch import solve_many


def decision_view(rules: Rules, rng: random.Random, cards: int):
    """The view of the seat to move once at most `cards` cards are left (random play)."""
    while True:
        game = Game(rules, seed=rng.randrange(1 << 30), first_dealer=0)
        while not game.is_over:
            seat = game.to_act()[0]
            player = game.player_at(seat)
            view = game.view(player)
            left = sum(view.hand_sizes)
            if view.phase is Phase.PLAY and left <= cards and len(view.legal_actions) > 1:
                return view
            game.apply(rng.choice(view.legal_actions))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=("cursed-bottle", "bottle-imp"), default="cursed-bottle")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--cards", type=int, default=24, help="cards left in the hands")
    ap.add_argument("--deals", type=int, default=64)
    ap.add_argument("--decisions", type=int, default=3, help="information sets, each its batch")
    ap.add_argument("--runs", type=int, default=5, help="runs of each thread count")
    ap.add_argument("--model", choices=("paranoid", "maxn"), default="paranoid")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    edition = Edition.BOTTLE_IMP if args.game == "bottle-imp" else Edition.CURSED_BOTTLE
    rules = Rules(args.players, edition=edition, hands=1)
    rng = random.Random(args.seed)
    batches = []
    for _ in range(args.decisions):
        view = decision_view(rules, rng, args.cards)
        batches.append([position_of(view, sample_deal(view, rng)) for _ in range(args.deals)])
    load_before = os.getloadavg()
    times: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    first: dict[int, list] = {}
    # The same deals in every run: no entries kept from one run for the next.
    opts = _search.ALL_OPTIONS & ~_search.OPTIONS["share"]
    solve_many(batches[0][:4], model=args.model, threads=2, opts=opts)  # warm the tables up
    for _ in range(args.runs):
        for threads in (1, 2):
            t0, c0 = time.perf_counter(), time.process_time()
            out = [solve_many(b, model=args.model, threads=threads, opts=opts) for b in batches]
            times[threads].append(time.perf_counter() - t0)
            cpu[threads].append(time.process_time() - c0)
            values = [[s.values for s in sols] for sols in out]
            if first.setdefault(threads, values) != values:
                raise SystemExit("a run gave other values than the first")
    release_table()
    if first[1] != first[2]:
        raise SystemExit("two threads gave other values than one")
    load_after = os.getloadavg()
    solves = args.deals * args.decisions
    med = {t: statistics.median(v) for t, v in times.items()}
    med_cpu = {t: statistics.median(v) for t, v in cpu.items()}
    result = {
        "rules": f"{args.game} {args.players}p",
        "model": args.model,
        "cards": args.cards,
        "solves_per_run": solves,
        "runs": args.runs,
        "median_s": med,
        "solves_per_s": {t: solves / m for t, m in med.items()},
        "ratio": med[1] / med[2],
        "runs_s": times,
        # CPU seconds of the process (both threads): equal for 1 and 2 threads
        # when parallel solving wastes nothing; cores used = CPU / wall.
        "median_cpu_s": med_cpu,
        "cores_used": {t: med_cpu[t] / med[t] for t in med},
        "runs_cpu_s": cpu,
        "load_before": load_before,
        "load_after": load_after,
        "nice": os.nice(0),
    }
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return 0
    print(
        f"{result['rules']}, {args.model}, {args.cards} cards left, {args.decisions} decisions"
        f" x {args.deals} deals, {args.runs} runs each, nice {os.nice(0)}"
    )
    print("load average before: " + " ".join(f"{x:.2f}" for x in load_before)
          + ", after: " + " ".join(f"{x:.2f}" for x in load_after))
    for t in (1, 2):
        print(
            f"{t} thread(s): median {med[t]:.3f} s ({solves / med[t]:.0f} solves/s), CPU"
            f" {med_cpu[t]:.3f} s ({med_cpu[t] / med[t]:.2f} cores used); runs "
            + " ".join(f"{x:.3f}" for x in times[t])
        )
    print(f"throughput ratio 2 threads / 1 thread: {result['ratio']:.2f} (wall);"
          f" CPU per solve, 2 threads / 1: {med_cpu[2] / med_cpu[1]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
