"""Benchmarks of the bots: decision time of the strong bot, and how
`simulate` scales with worker processes.

    python bench/bots_bench.py decision-time [--budget 1.0] [--seed 1]
        A whole 3-player game (to 100 points): the strong bot in seat 0 against
        two heuristic bots; every decision of the strong bot is timed.
        Prints the median, p90 and maximum, and how many decisions.

    python bench/bots_bench.py scaling [--hands 3000] [--repeats 3]
        Random bots, 3 players: hands per second of `simulate` with 1 and with
        2 workers (median of the repeats), and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time

from cursedbottle.bots import make_bot
from cursedbottle.bots.simulation import TableSpec, simulate
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Rules


def decision_time(budget: float, seed: int) -> None:
    game = Game(Rules(3), seed=seed)
    bots = {
        0: make_bot(f"strong:{budget}", seed),
        1: make_bot("heuristic", 1),
        2: make_bot("heuristic", 2),
    }
    times: list[float] = []
    while not game.is_over:
        for seat in game.to_act():
            player = game.player_at(seat)
            view = game.view(player)
            start = time.perf_counter()
            action = bots[player].act(view)
            if player == 0 and len(view.legal_actions) > 1:
                times.append(time.perf_counter() - start)
            game.apply(action)
    times.sort()
    print(f"strong bot, budget {budget} s, one 3-player game of {len(game.hands)} hands:")
    print(
        f"  decisions {len(times)}  median {statistics.median(times):.3f} s  "
        f"p90 {times[int(0.9 * (len(times) - 1))]:.3f} s  max {times[-1]:.3f} s"
    )
    print(f"  final totals {game.totals} (strong is player 0)")


def scaling(hands: int, repeats: int) -> None:
    spec = TableSpec(("random", "random", "random"), Rules(3), hands, seed=0)
    rates = {}
    for workers in (1, 2):
        runs = []
        for _ in range(repeats):
            start = time.perf_counter()
            n = sum(1 for _ in simulate(spec, workers))
            runs.append(n / (time.perf_counter() - start))
        rates[workers] = statistics.median(runs)
        print(f"  {workers} worker(s): {rates[workers]:,.0f} hands/s (median of {repeats})")
    print(f"  ratio 2 workers / 1 worker: {rates[2] / rates[1]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="part", required=True)
    d = sub.add_parser("decision-time")
    d.add_argument("--budget", type=float, default=1.0)
    d.add_argument("--seed", type=int, default=1)
    s = sub.add_parser("scaling")
    s.add_argument("--hands", type=int, default=3000)
    s.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.part == "decision-time":
        decision_time(args.budget, args.seed)
    else:
        scaling(args.hands, args.repeats)


if __name__ == "__main__":
    main()
