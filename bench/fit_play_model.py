"""Fit the play model of bots/inference.py to the bots' own play.

    python bench/fit_play_model.py [--hands 30] [--seed 0] [--bots pimc:n8]

Plays hands of Cursed Bottle (3 and 4 players, 2 with Lopaka) and the Bottle
Imp (3 players) with the given bot in every seat and records, at every play
decision with a choice, the features of each legal card (`card_features`) and
the card played, and for every pass how many of the giver's cards the tips
would have passed first.  Fits a conditional logit by Newton's method (a
little L2) and prints the weights, the log-likelihood per decision against
uniform play, and the pass slope (a geometric fit), ready for the constants.

    python bench/fit_play_model.py --check 30 [--tables cb3,cb4,imp3,cb2]
        The shipped model on positions from heuristic play (after 3-7
        tricks): the true deal's log-weight beside 64 uniform guesses (its
        percentile among them) and the guesses' effective sample size.
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from cursedbottle.bots import make_bot
from cursedbottle.bots.heuristic_bot import shedding_order
from cursedbottle.bots.inference import FEATURES, card_features
from cursedbottle.engine.events import Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Edition, Rules

TABLES = {
    "cb3": Rules(3, hands=1),
    "cb4": Rules(4, hands=1),
    "cb2": Rules(2, hands=1),
    "imp3": Rules(3, edition=Edition.BOTTLE_IMP, hands=1),
}


def collect(rules: Rules, hands: int, seed: int, bot: str):
    plays, passes = [], []
    for unit in range(hands):
        game = Game(rules, seed=f"fit:{seed}:{unit}", first_dealer=unit % rules.players)
        bots = {p: make_bot(bot, 1000 * seed + 10 * unit + p) for p in range(rules.players)}
        started = False
        while not game.is_over:
            hand = game.hands[-1]
            if hand.phase is Phase.PLAY and not started:
                started = True
                passes.extend(pass_ranks(hand))
            for seat in game.to_act():
                if hand.phase is Phase.PLAY:
                    mask = hand.legal_play_mask()
                    if mask & (mask - 1):
                        holder = hand.holder_to_play()
                        players = len(hand.trick_order(hand.leader))
                        cards = [c for c in range(mask.bit_length()) if mask >> c & 1]
                        feats = [
                            card_features(
                                c,
                                mask,
                                hand.trick,
                                hand.price,
                                hand.holdings[holder],
                                hand.deck,
                                players,
                            )
                            for c in cards
                        ]
                        player = game.player_at(seat)
                        action = bots[player].act(game.view(player))
                        plays.append((feats, cards.index(action.card.index)))
                        game.apply(action)
                        continue
                player = game.player_at(seat)
                game.apply(bots[player].act(game.view(player)))
    return plays, passes


def pass_ranks(hand):
    """For each pass: cards the giver holds at the start of play (less what the
    receiver gave it) that come before the passed card in the tips' order."""
    deck = hand.deck
    joker = deck.joker_position
    out = []
    log = list(hand.pass_log)
    for giver, to, card, _ in log:
        if hand.lopaka in (giver, to):
            continue
        start = hand.holdings[giver]
        back = [c for g, t, c, _ in log if g == to and t == giver]
        for c in back:
            start &= ~(1 << c)
        cards = deck.cards_of(start | 1 << card)
        key = shedding_order(cards, deck.cards[card], joker)
        out.append(sum(1 for c in cards if shedding_order(cards, c, joker) < key))
    return out


def fit(plays, l2=0.01, steps=25):
    k = len(FEATURES)
    w = np.zeros(k)
    xs = [np.array(f) for f, _ in plays]
    ys = [y for _, y in plays]
    for _ in range(steps):
        grad = -l2 * w
        hess = -l2 * np.eye(k)
        for x, y in zip(xs, ys, strict=True):
            s = x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            mean = p @ x
            grad += x[y] - mean
            hess -= (x * p[:, None]).T @ x - np.outer(mean, mean)
        w -= np.linalg.solve(hess, grad)
    return w


def loglik(plays, w):
    total = base = 0.0
    for f, y in plays:
        s = np.array(f) @ w
        total += s[y] - s.max() - math.log(np.exp(s - s.max()).sum())
        base -= math.log(len(f))
    return total / len(plays), base / len(plays)


def check(rules: Rules, positions: int) -> str:
    import random
    import statistics

    from cursedbottle.bots.inference import DealPool, Scorer
    from cursedbottle.bots.sampling import Deal, sample_deal

    gain, ess, rank = [], [], []
    for u in range(positions):
        game = Game(rules, seed=f"san{u}")
        bots = {p: make_bot("heuristic", p) for p in range(rules.players)}
        while not game.is_over:
            seat = game.to_act()[0]
            hand = game.hands[-1]
            view = game.view(game.player_at(seat))
            if view.phase is Phase.PLAY and len(view.tricks) == 3 + u % 5:
                scorer = Scorer(view)
                deck = rules.deck
                true = Deal(tuple(hand.holdings), deck.mask_of(deck.cards[c] for c in hand.pile))
                rng = random.Random(u)
                others = [scorer.log_weight(sample_deal(view, rng)) for _ in range(64)]
                t = scorer.log_weight(true)
                gain.append(t - statistics.fmean(others))
                rank.append(sum(o < t for o in others) / 64)
                ess.append(DealPool(view, rng, 64, scorer).effective_size)
                break
            game.apply(bots[game.player_at(seat)].act(view))
    return (
        f"true - mean log-weight {statistics.fmean(gain):+.2f}; the true deal's percentile "
        f"{statistics.fmean(rank):.2f}; effective size of 64: median {statistics.median(ess):.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", default="pimc:n8")
    parser.add_argument("--tables", default=",".join(TABLES))
    parser.add_argument("--check", type=int, default=0)
    args = parser.parse_args()
    if args.check:
        for key in args.tables.split(","):
            print(f"{key}: {check(TABLES[key], args.check)}", flush=True)
        return
    data = {}
    ranks = []
    for key in args.tables.split(","):
        plays, passes = collect(TABLES[key], args.hands, args.seed, args.bots)
        data[key] = plays
        ranks.extend(passes)
        print(f"{key}: {len(plays)} play decisions, {len(passes)} passes", flush=True)
    every = [p for v in data.values() for p in v]
    w = fit(every)
    print("WEIGHTS = (" + ", ".join(f"{x:.3f}" for x in w) + ")")
    for name, x in zip(FEATURES, w, strict=True):
        print(f"  {name:15s} {x:+.3f}")
    for key, plays in data.items():
        ll, base = loglik(plays, w)
        print(f"  {key}: log-likelihood per decision {ll:.3f} (uniform {base:.3f})")
    mean = sum(ranks) / len(ranks)
    print(
        f"pass ranks: mean {mean:.2f} over {len(ranks)}; "
        f"PASS_SLOPE = {math.log(1 + 1 / mean) if mean else 5.0:.3f}"
    )


if __name__ == "__main__":
    main()
