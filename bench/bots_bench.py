"""Benchmarks of the bots: decision time of the strong bot, and how
`simulate` scales with worker processes.

    python bench/bots_bench.py decision-time [--budget 1.0] [--seed 1]
            [--players 3] [--bot strong] [--game cursed-bottle|bottle-imp]
            [--exact-cards N] [--hands N]
        A whole game (to 100 points; the Bottle Imp: its own end) of Cursed
        Bottle: the bot in seat 0 against heuristic bots; every decision of
        the bot with a choice is timed.  Prints the median, p90 and maximum,
        and how many decisions, over the whole game and over the first lead
        of each hand (the first card of a hand, before any trick: inference
        has only the passes to go on and the search the longest hand ahead);
        the bot leads a hand's first trick in one hand of `players`, so at
        the other seats' first leads a fresh bot is timed on their view too.
        `--exact-cards 33`: the bot solves its guessed deals exactly from 33
        cards left (`strong:1.0:x33`); `--hands 3`: a game of three hands.

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
from cursedbottle.engine.events import Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Edition, Rules


def decision_time(
    budget: float, seed: int, players: int, bot: str, game_name: str,
    exact_cards: int | None = None, hands: int | None = None,
) -> None:
    edition = Edition.BOTTLE_IMP if game_name == "bottle-imp" else Edition.CURSED_BOTTLE
    game = Game(Rules(players, edition=edition, hands=hands), seed=seed)
    name = f"{bot}:{budget}" + ("" if exact_cards is None else f":x{exact_cards}")
    bots = {0: make_bot(name, seed)}
    bots.update({p: make_bot("heuristic", p) for p in range(1, players)})
    times: list[float] = []
    first_leads: list[float] = []
    while not game.is_over:
        for seat in game.to_act():
            player = game.player_at(seat)
            view = game.view(player)
            first = view.phase is Phase.PLAY and not view.tricks and not view.trick
            if first and player != 0:
                # A first lead of another seat: time a fresh bot on that
                # seat's view (its choice is thrown away).
                start = time.perf_counter()
                make_bot(name, seed + len(game.hands)).act(view)
                first_leads.append(time.perf_counter() - start)
            start = time.perf_counter()
            action = bots[player].act(view)
            if player == 0 and len(view.legal_actions) > 1:
                times.append(time.perf_counter() - start)
                if first:
                    first_leads.append(times[-1])
            game.apply(action)
    print(
        f"{name} bot, budget {budget} s, one {players}-player {game_name} game "
        f"of {len(game.hands)} hands:"
    )
    print(f"  every decision: {_stats(times)}")
    print(f"  first leads:    {_stats(first_leads)}")
    print(f"  final totals {game.totals} ({bot} is player 0)")


def _stats(times: list[float]) -> str:
    times = sorted(times)
    return (
        f"n {len(times)}  median {statistics.median(times):.3f} s  "
        f"p90 {times[int(0.9 * (len(times) - 1))]:.3f} s  max {times[-1]:.3f} s"
    )


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
    d.add_argument("--players", type=int, default=3)
    d.add_argument("--bot", default="strong")
    d.add_argument("--game", choices=["cursed-bottle", "bottle-imp"], default="cursed-bottle")
    d.add_argument("--exact-cards", type=int, default=None, metavar="N")
    d.add_argument("--hands", type=int, default=None, metavar="N")
    s = sub.add_parser("scaling")
    s.add_argument("--hands", type=int, default=3000)
    s.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.part == "decision-time":
        decision_time(
            args.budget, args.seed, args.players, args.bot, args.game,
            args.exact_cards, args.hands,
        )
    else:
        scaling(args.hands, args.repeats)


if __name__ == "__main__":
    main()
