"""How often the hint cannot tell its top two lines apart, as a player sees it.

`nice -n 10 .venv/bin/python bench/hint_noise.py --positions 40 --deals 32`
plays hands with the heuristic bot and stops at play decisions with a given
number of tricks left (5, 8, and the first lead of the hand), then asks the
hint (bots.hints.hint, `--deals` guessed deals, a fixed seed) for the seat to
move: the share of positions whose second line is within noise of the best
(`HintLine.close`: the best is not clearly better, paired by deal), the share
where every line has the same value, and what the values were (the basis).
Positions with one legal card are skipped.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import replace

from cursedbottle.bots import hint, make_bot
from cursedbottle.engine.events import Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Rules

SUITES = {"3p": Rules(3), "4p": Rules(4), "2p-lopaka": Rules(2)}


def positions(rules: Rules, tricks_left: int | None, count: int, seed: int):
    """Views of the seat to move with `tricks_left` tricks to go (None: the first lead)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = Game(replace(rules, hands=1), seed=f"hint-noise-{rng.random()}")
        bots = [make_bot("heuristic", seed=rng.randrange(1 << 20)) for _ in range(rules.players)]
        target = rules.tricks - (tricks_left if tricks_left is not None else rules.tricks)
        while not game.is_over:
            hand = game.hand
            seat = game.to_act()[0]
            player = game.player_at(seat)
            view = game.view(player)
            if (
                hand.phase is Phase.PLAY
                and len(hand.tricks) == target
                and len(view.legal_actions) > 1
                and (tricks_left is not None or not hand.trick)
            ):
                out.append(view)
                break
            game.apply(bots[player].act(view))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--deals", type=int, default=32)
    parser.add_argument("--model", help="the exact values' model (default: the search's)")
    parser.add_argument("--tricks-left", type=int, action="append",
                        help="only these (default: 5, 8 and the first lead)")
    args = parser.parse_args()
    extra = {"model": args.model} if args.model else {}
    print("suite | tricks left | positions | top two within noise | all lines equal | basis")
    for name, rules in SUITES.items():
        for left in args.tricks_left or (5, 8, None):
            views = positions(rules, left, args.positions, seed=7)
            close = flat = 0
            bases: Counter[str] = Counter()
            for i, view in enumerate(views):
                h = hint(view, seed=i, budget=None, samples=args.deals, **extra)
                close += h.lines[1].close
                flat += len({line.value for line in h.lines}) == 1
                bases[h.basis.key] += 1
            n = len(views)
            shown = "all" if left is None else str(left)
            basis = ", ".join(f"{k} {v}" for k, v in sorted(bases.items()))
            print(
                f"{name} | {shown} | {n} | {100 * close / n:.0f}% | {100 * flat / n:.0f}% |"
                f" {basis}",
                flush=True,
            )


if __name__ == "__main__":
    main()
