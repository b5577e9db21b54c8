"""Throughput of bot-only runs on local processes and on Ray, and Ray's cost per unit.

    nice python bench/cluster_bench.py [--random-hands 3000] [--strong-hands 4] [--repeats 3]

For each bot set (three `random` bots; three `strong:0.3` bots) the same
hands run with one process, a pool of two, and Ray (a local Ray of 2 CPUs,
started once beforehand: its start-up is reported apart, as it is paid once
per run, not per unit).  Each figure is the median of the repeats.  Ray's
cost per unit: the extra wall time of Ray over the pool of two, divided by
the units, on random bots (whose units are a millisecond or two of work); and
the round trip of an empty task, against an empty job on the process pool.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from cursedbottle.bots.ray_runner import LOOPBACK_ONLY, RayRunner
from cursedbottle.bots.simulation import TableSpec, run_local
from cursedbottle.engine.rules import Rules


def _seconds(run, jobs) -> float:
    start = time.perf_counter()
    for _ in run(jobs):
        pass
    return time.perf_counter() - start


def _median_rate(run, jobs, repeats: int) -> tuple[float, float]:
    times = [_seconds(run, jobs) for _ in range(repeats)]
    median = statistics.median(times)
    return len(jobs) / median, median


def _nothing(_: int) -> None:
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--random-hands", type=int, default=3000)
    parser.add_argument("--strong-hands", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault(LOOPBACK_ONLY, "0")  # as `--ray` does: this machine only
    import ray

    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    print(f"ray.init (local Ray, 2 CPUs): {time.perf_counter() - start:.1f} s, once per run")
    ray_runner = RayRunner()
    runners = {
        "--workers 1": lambda jobs: run_local(jobs, 1),
        "--workers 2": lambda jobs: run_local(jobs, 2),
        "--ray (2 CPUs)": ray_runner,
    }
    walls = {}
    for bot, hands in (("random", args.random_hands), ("strong:0.3", args.strong_hands)):
        spec = TableSpec((bot,) * 3, Rules(3), hands, seed=0)
        jobs = [(spec, unit) for unit in range(hands)]
        for name, run in runners.items():
            rate, wall = _median_rate(run, jobs, args.repeats)
            walls[bot, name] = wall
            print(
                f"{bot:<11} {name:<14} {rate:10.2f} hands/s  ({hands} hands, median of "
                f"{args.repeats})"
            )
    extra = walls["random", "--ray (2 CPUs)"] - walls["random", "--workers 2"]
    print(f"Ray over the pool of 2, random bots: {1000 * extra / args.random_hands:+.3f} ms a unit")

    task = ray.remote(_nothing)
    n = 200
    ray.get(task.remote(0))
    start = time.perf_counter()
    for i in range(n):
        ray.get(task.remote(i))
    ray_trip = (time.perf_counter() - start) / n
    with ProcessPoolExecutor(2) as pool:
        pool.submit(_nothing, 0).result()
        start = time.perf_counter()
        for i in range(n):
            pool.submit(_nothing, i).result()
        pool_trip = (time.perf_counter() - start) / n
    print(
        f"empty task round trip: Ray {1000 * ray_trip:.2f} ms, process pool "
        f"{1000 * pool_trip:.2f} ms"
    )
    ray.shutdown()


if __name__ == "__main__":
    main()
