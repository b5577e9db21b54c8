"""How fast the rules engine plays random hands (one core, pure Python).

Two loops per rule set:
- `engine`: the raw loop the solver's reference and the bot tables stand on:
  `legal_actions()` and `apply()` for every decision;
- `bots`: the same hands through the bot interface, which builds each seat's
  view (`Game.view`) before every decision, as `simulate` and the server do.

Hands are played in whole games (to 100 points, about eight hands each), as
tables and `simulate` play them: one endless game would measure the garbage
collector walking an ever longer history instead.

Run: `python bench/engine_bench.py [--hands 2000] [--repeats 5]`.
Prints hands per second, median of the repeats (and min/max).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from cursedbottle.bots import make_bot, play_hand_with_bots
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Edition, Rules

RULE_SETS = {
    "3 players": Rules(3),
    "4 players": Rules(4),
    "2 players + Lopaka": Rules(2),
    "bright house": Rules(2, bright_house=True),
    "Devil's Eye": Rules(2, edition=Edition.BOTTLE_IMP),
    "Bottle Imp 3p": Rules(3, edition=Edition.BOTTLE_IMP),
    "Bottle Imp 5p": Rules(5, edition=Edition.BOTTLE_IMP),
    "Bottle Imp 6p teams": Rules(6, edition=Edition.BOTTLE_IMP, teams=True),
}


def engine_loop(rules: Rules, hands: int, seed: int) -> float:
    rng = random.Random(seed)
    played = 0
    start = time.perf_counter()
    while played < hands:
        game = Game(rules, seed=f"{seed}:{played}")
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        played += len(game.hands)
    return played / (time.perf_counter() - start)


def bot_loop(rules: Rules, hands: int, seed: int) -> float:
    bots = {p: make_bot("random", seed + p) for p in range(rules.players)}
    played = 0
    start = time.perf_counter()
    while played < hands:
        game = Game(rules, seed=f"{seed}:{played}")
        while not game.is_over:
            play_hand_with_bots(game, bots)
        played += len(game.hands)
    return played / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", choices=sorted(RULE_SETS), default=None)
    args = parser.parse_args()
    print(f"{'rule set':<20} {'loop':<7} {'hands/s (median)':>17} {'min':>8} {'max':>8}")
    for name, rules in RULE_SETS.items():
        if args.only and name != args.only:
            continue
        for loop_name, loop in (("engine", engine_loop), ("bots", bot_loop)):
            n = args.hands if loop_name == "engine" else max(args.hands // 4, 50)
            runs = [loop(rules, n, seed) for seed in range(args.repeats)]
            print(
                f"{name:<20} {loop_name:<7} {statistics.median(runs):>17,.0f} "
                f"{min(runs):>8,.0f} {max(runs):>8,.0f}"
            )


if __name__ == "__main__":
    main()
