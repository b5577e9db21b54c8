"""Decision quality: two ways to choose, judged on the same positions.

The ladder (`simulate --duplicate`) needs hundreds of deals to tell bots a
coin apart, because every later card of a hand adds its noise.  This judges
single decisions instead: positions come from hands of heuristic bots; where
the two choosers disagree, each choice is played out from the *true* deal
with heuristic bots in every seat, the same seeds for both (common random
numbers), and the mean difference is the score of the decision.  Positions
where both agree count zero.  The play-outs' own seat plays like the
heuristic bot, so the verdict favours choices that suit that style.

    python bench/decision_quality.py setup [--hands 40] [--seed 0] [--z 2]
        Bottle Imp, 3 players: the search's overrule of the tips (by
        `clearly_better` at z) against the tips, on pile and pass decisions.

    python bench/decision_quality.py exact --low 21 --high 24 [--hands 40]
        Bottle Imp, 3 players: play decisions with between `low` and `high`
        cards left, exact solving against rollouts (0.3 s each).

    python bench/decision_quality.py choosers --pair maxn/paranoid --table cb3
            --low 12 --high 15 [--hands 60] [--outs 4]
        Two ways of valuing play decisions at 16 uniform guessed deals each:
        `paranoid` (pimc's search), `maxn` (exact values under maxn),
        `exactmodel` (paranoid, ties ordered by the model's rollouts),
        `lopaka` / `model` (rollouts only, by Lopaka's policy or the fitted
        play model); tables cb3, cb4 (Cursed Bottle) and imp3 (Bottle Imp).

Prints "A-B per decision d ± h (n=..., differ=...)", h the 95% half-width.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable

from cursedbottle.bots import search
from cursedbottle.bots.heuristic_bot import HeuristicBot
from cursedbottle.engine.actions import Action
from cursedbottle.engine.events import Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.hand import Hand
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.engine.view import SeatView, observe

Chooser = Callable[[SeatView], Action]


TABLES = {
    "imp3": Rules(3, edition=Edition.BOTTLE_IMP, hands=1),
    "cb3": Rules(3, hands=1),
    "cb4": Rules(4, hands=1),
}


def positions(
    hands: int,
    seed: int | str,
    phases: set[Phase],
    low: int = 0,
    high: int = 99,
    rules: Rules = TABLES["imp3"],
) -> list[tuple[Hand, int]]:
    """(hand, seat) before each decision of one seat per deal (seat `unit % players`,
    so every seat's position relative to the dealer occurs)."""
    players = rules.players
    out = []
    for unit in range(hands):
        game = Game(rules, seed=f"{seed}:{unit}", first_dealer=unit % players)
        bots = {p: HeuristicBot(p + 10 * unit) for p in range(players)}
        while not game.is_over:
            for seat in game.to_act():
                hand = game.hands[-1]
                view = observe(hand, seat)
                left = sum(view.hand_sizes)
                if (
                    seat == unit % players
                    and view.phase in phases
                    and low <= left <= high
                    and len(view.legal_actions) > 1
                ):
                    out.append((hand.copy(), seat))
                player = game.player_at(seat)
                game.apply(bots[player].act(game.view(player)))
    return out


def play_out(hand: Hand, seat: int, action: Action, seed: int) -> int:
    """The seat's score after `action`, the rest played by heuristic bots."""
    hand = hand.copy()
    hand.apply(action)
    bots = [HeuristicBot(1000 * seed + s) for s in range(hand.seats)]
    while not hand.is_over:
        for s in hand.to_act():
            hand.apply(bots[s].act(observe(hand, s)))
    return hand.scores()[seat]


def compare(a: Chooser, b: Chooser, cases: list[tuple[Hand, int]], outs: int = 16) -> str:
    diffs = []
    differ = 0
    for hand, seat in cases:
        view = observe(hand, seat)
        x, y = a(view), b(view)
        if x == y:
            diffs.append(0.0)
            continue
        differ += 1
        diffs.append(
            statistics.fmean(
                play_out(hand, seat, x, k) - play_out(hand, seat, y, k) for k in range(outs)
            )
        )
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return f"A-B per decision {mean:+.3f} ± {half:.3f} (n={len(diffs)}, differ={differ})"


def overrule(z: float, rng: random.Random) -> Chooser:
    """The strong bot's former setup rule: the tips unless the search is z sure."""
    tips = HeuristicBot(0)

    def choose(view: SeatView) -> Action:
        ranked = search.evaluate(view, rng, 0.3)
        default = tips.act(view)
        prior = next(av for av in ranked if av.action == default)
        return ranked[0].action if search.clearly_better(ranked[0], prior, z) else default

    return choose


def searched(exact_cards: int, rng: random.Random) -> Chooser:
    return lambda view: search.evaluate(view, rng, 0.3, exact_cards=exact_cards)[0].action


def valued(kind: str, rng: random.Random) -> Chooser:
    """A chooser of `choosers` mode by name (16 uniform deals)."""
    from cursedbottle.bots.policy import model_rollout

    options = {
        "paranoid": {},
        "maxn": {"model": "maxn"},
        "exactmodel": {"policy": model_rollout},
        "lopaka": {"exact_cards": 0},
        "model": {"exact_cards": 0, "policy": model_rollout},
    }[kind]
    return lambda view: search.evaluate(view, rng, None, 16, **options)[0].action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["setup", "exact", "choosers"])
    parser.add_argument("--pair", default="maxn/paranoid")
    parser.add_argument("--table", choices=sorted(TABLES), default="cb3")
    parser.add_argument("--outs", type=int, default=16)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--z", type=float, default=2.0)
    parser.add_argument("--low", type=int, default=21)
    parser.add_argument("--high", type=int, default=24)
    args = parser.parse_args()
    if args.what == "setup":
        cases = positions(args.hands, args.seed, {Phase.PILE, Phase.PASS})
        tips = HeuristicBot(0)
        print(compare(overrule(args.z, random.Random(3)), tips.act, cases))
    elif args.what == "exact":
        cases = positions(args.hands, args.seed, {Phase.PLAY}, args.low, args.high)
        print(compare(searched(99, random.Random(1)), searched(0, random.Random(2)), cases))
    else:
        rules = TABLES[args.table]
        cases = positions(args.hands, args.seed, {Phase.PLAY}, args.low, args.high, rules)
        a, b = args.pair.split("/")
        print(compare(valued(a, random.Random(1)), valued(b, random.Random(1)), cases, args.outs))


if __name__ == "__main__":
    main()
