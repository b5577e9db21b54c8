"""How long the review's solves take, trick by trick, under each model.

`nice -n 10 .venv/bin/python bench/review_bench.py --hands 4` plays hands with the
heuristic bot (the hands a learner reviews look like these, not like random
play), then times the solver's answer at the first card of every trick, under
`maxn` and `paranoid`, one position at a time, in one thread.  A position past
`--cap` seconds is stopped there (shown as `>cap`).  The review's first
affordable trick (solver/review.py) is set from these figures; `--whole` also
times each hand's whole review as ReviewHand computes it.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

from cursedbottle.bots import make_bot
from cursedbottle.engine.game import Game
from cursedbottle.engine.records import record_of, replay, replay_hand
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.solver.api import release_table, solve_hand
from cursedbottle.solver.review import build_review

SUITES = {
    "3p": Rules(3),
    "4p": Rules(4),
    "2p-lopaka": Rules(2),
    "imp-3p": Rules(3, edition=Edition.BOTTLE_IMP),
    "imp-5p": Rules(5, edition=Edition.BOTTLE_IMP),
    "imp-6p": Rules(6, edition=Edition.BOTTLE_IMP),
    "imp-4p": Rules(4, edition=Edition.BOTTLE_IMP),
    "imp-4p-teams": Rules(4, edition=Edition.BOTTLE_IMP, teams=True),
    "imp-5p-teams": Rules(5, edition=Edition.BOTTLE_IMP, teams=True),
    "imp-6p-teams": Rules(6, edition=Edition.BOTTLE_IMP, teams=True),
    "imp-6p-teams-2211": Rules(6, edition=Edition.BOTTLE_IMP, teams=True, singles=True),
    "imp-5p-2bottles": Rules(5, edition=Edition.BOTTLE_IMP, second_bottle=True),
    "imp-6p-teams-2bottles": Rules(6, edition=Edition.BOTTLE_IMP, second_bottle=True,
                                   teams=True),
    "imp-6p-2bottles": Rules(6, edition=Edition.BOTTLE_IMP, second_bottle=True),
    "imp-5p-teams-2bottles": Rules(5, edition=Edition.BOTTLE_IMP, second_bottle=True,
                                   teams=True),
    "bright-house": Rules(2, bright_house=True),
    "devils-eye": Rules(2, edition=Edition.BOTTLE_IMP),
}


def records(rules: Rules, hands: int, seed: int):
    out = []
    for i in range(hands):
        game = Game(replace(rules, hands=1), seed=f"review-bench-{seed}-{i}")
        bots = [make_bot("heuristic", seed=seed * 100 + s) for s in range(rules.players)]
        while not game.is_over:
            seat = game.to_act()[0]
            player = game.player_at(seat)
            game.apply(bots[player].act(game.view(player)))
        out.append(record_of(game.hands[0]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--cap", type=float, default=30.0)
    parser.add_argument("--suite", action="append", choices=sorted(SUITES))
    parser.add_argument("--agreement", action="store_true",
                        help="also count where maxn and the worst case disagree on mistakes")
    parser.add_argument("--seed", type=int, default=1, help="which hands are played")
    parser.add_argument("--whole", action="store_true",
                        help="also time build_review of each hand (what ReviewHand computes)")
    parser.add_argument("--from-trick", type=int, default=1,
                        help="time the trick-by-trick solves from this trick on")
    args = parser.parse_args()
    for name in args.suite or list(SUITES):
        rules = SUITES[name]
        recs = records(rules, args.hands, args.seed)
        print(f"## {name}: {args.hands} hands, seconds at the first card of each trick")
        print("trick | maxn median | maxn max | paranoid median | paranoid max")
        for trick in range(args.from_trick, len(replay(recs[0]).tricks) + 1):
            row = {}
            for model in ("maxn", "paranoid"):
                times = []
                for rec in recs:
                    first = sum(len(t.plays) for t in replay(rec).tricks[: trick - 1])
                    hand = replay_hand(replace(rec, plays=rec.plays[:first]))
                    t0 = time.perf_counter()
                    try:
                        solve_hand(hand, model=model, time_limit=args.cap)
                        times.append(time.perf_counter() - t0)
                    except TimeoutError:
                        times.append(float("inf"))
                    release_table()
                row[model] = times
            cells = []
            for model in ("maxn", "paranoid"):
                t = row[model]
                med, top = statistics.median(t), max(t)
                cells += [_fmt(med, args.cap), _fmt(top, args.cap)]
            print(f"{trick} | " + " | ".join(cells), flush=True)
        if args.agreement:
            counts = agreement(recs)
            print("mistakes under maxn / also in the worst case / maxn only / worst case only,"
                  f" over {counts.pop('cards')} cards with a choice: " +
                  " / ".join(str(v) for v in counts.values()), flush=True)
        if args.whole:
            took = []
            for rec in recs:
                t0 = time.perf_counter()
                review = build_review(rec)
                took.append(time.perf_counter() - t0)
            print(
                f"whole review (maxn from trick {review['valued_from']}, paranoid beside):"
                f" median {statistics.median(took):.2f} s, max {max(took):.2f} s",
                flush=True,
            )


def agreement(recs) -> dict[str, int]:
    """Over the reviewed cards with a choice: the mistakes under maxn, how many of them
    cost in the worst case too, and the cards only one of the two models charges."""
    out = {"cards": 0, "maxn": 0, "both": 0, "maxn_only": 0, "worst_only": 0}
    for rec in recs:
        for trick in build_review(rec)["tricks"]:
            for c in trick["cards"]:
                if "value" not in c or c["forced"]:
                    continue
                maxn, worst = c["loss"] > 0, c["worst_loss"] > 0
                out["cards"] += 1
                out["maxn"] += maxn
                out["both"] += maxn and worst
                out["maxn_only"] += maxn and not worst
                out["worst_only"] += worst and not maxn
    return out


def _fmt(t: float, cap: float) -> str:
    return f">{cap:g}" if t == float("inf") else f"{t:.3f}"


if __name__ == "__main__":
    main()
