"""What a searching bot's first lead costs and sees: for fixed-seed deals,
the bot ranks the first lead of a three-player Cursed Bottle hand (setup by
the tips), and the time and the guessed deals behind its choice are printed.

    python bench/first_lead_bench.py strong:1.0       # the default: exact from the first lead
    python bench/first_lead_bench.py strong:1.0:x24   # the default before: rollouts until 24 cards

The two lines are what "exact from the first lead at the default budget"
means for the bot (bench/README.md, "Exact from the first lead"): how many
guessed deals a choice rests on, and whether they were solved or played out
(a decision that solves none in half its budget plays its deals out).
"""

from __future__ import annotations

import argparse
import statistics
import time

from cursedbottle.bots import make_bot
from cursedbottle.engine.events import Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Rules


def first_lead_view(seed: int):
    """The first lead of a one-hand three-player game, the setup by the tips."""
    game = Game(Rules(3, hands=1), seed=f"first-lead:{seed}")
    tips = make_bot("heuristic", seed)
    while True:
        view = game.view(game.player_at(game.to_act()[0]))
        if view.phase is Phase.PLAY:
            return view
        game.apply(tips.act(view))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bot", help="a bot name with its effort (strong:1.0:x33)")
    parser.add_argument("--deals", type=int, default=12)
    args = parser.parse_args()
    times, seen, exact = [], [], 0
    for seed in range(args.deals):
        view = first_lead_view(seed)
        bot = make_bot(args.bot, seed)
        start = time.perf_counter()
        best = bot.rank(view)[0]
        times.append(time.perf_counter() - start)
        seen.append(best.deals)  # different deals (a weighed pool's draws repeat)
        exact += best.exact
        kind = "exact" if best.exact else "rollouts"
        print(f"  deal {seed}: {times[-1]:.2f} s, {best.deals} deals ({kind})", flush=True)
    times.sort()
    print(
        f"{args.bot}: {len(times)} first leads, time median {statistics.median(times):.2f} s"
        f" max {times[-1]:.2f} s; different guessed deals median {statistics.median(seen):g}"
        f" (min {min(seen)}, max {max(seen)}); {exact} of {len(times)} choices on exact solves"
    )


if __name__ == "__main__":
    main()
