"""Inference: which guessed deals the other seats' plays make likely.

Plain sampling (bots.sampling) treats every deal that fits the voids as
equally likely.  Real players do not play at random: a seat that ducked
under a card it could have won with, or that passed a 5 when it held an ace,
tells the table something.  Skat programs gained most strength from weighing
the guessed deals by how likely the opponents' observed plays are under a
model of how people play; this does the same with a cheap model:

- each past card of a hidden holder in this hand is scored by a softmax over
  the holder's legal cards at that moment (re-played on the guessed deal),
  on a few features (`card_features`: Lopaka's choice, wins, buys the bottle,
  rank, points ...) whose weights were fitted to the bots' own play
  (bench/fit_play_model.py; the figures are in bench/README.md);
- a card passed to this seat is scored by how many cards the giver still
  holds that the tips ("pass low cards, void a suit") would have passed
  first.

`DealPool` draws many candidate deals (cheap), weighs them, and hands out
deals in proportion to their weights for the expensive search to value.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from cursedbottle.engine.cards import Deck
from cursedbottle.engine.tricks import legal_cards, policy_card, trick_winner
from cursedbottle.engine.view import SeatView

from .heuristic_bot import shedding_order
from .sampling import Deal, sample_deal

#: Names of `card_features`, in order.
FEATURES = (
    "lopaka",
    "lead_rank",
    "follow_rank",
    "discard_rank",
    "wins",
    "buys",
    "last_wins",
    "last_buys",
    "below",
    "points",
    "discard_points",
    "highest_below",
    "lead_short",
)

#: Fitted by bench/fit_play_model.py (conditional logit, maximum likelihood)
#: on the play decisions of pimc:n8 bots (`--bots pimc:n8 --hands 30 --seed 1`).
WEIGHTS = (
    0.731,
    -2.218,
    -1.768,
    -2.213,
    1.003,
    -0.779,
    1.861,
    -2.071,
    0.164,
    -0.072,
    0.289,
    0.312,
    1.916,
)
#: Log-likelihood per rank of a passed card among the giver's cards in the
#: tips' order (bench/fit_play_model.py).
PASS_SLOPE = 0.863


def card_features(
    card: int,
    legal: int,
    trick: Sequence[int],
    price: int,
    holding: int,
    deck: Deck,
    players: int,
) -> tuple[float, ...]:
    """The features of playing `card` (of the legal mask, from `holding`) into
    `trick` at the price threshold `price`; `players` cards make a trick."""
    cards = [c for c in range(legal.bit_length()) if legal >> c & 1]
    k = len(cards)
    rank = cards.index(card) / (k - 1) if k > 1 else 0.0
    lead = not trick
    suit_of = deck.suit_of
    discard = not lead and suit_of[card] != suit_of[trick[0]]
    if lead:
        wins = buys = 0.0
    else:
        pos, bought = trick_winner([*trick, card], price)
        wins = float(pos == len(trick))
        buys = float(wins and bought)
    last = not lead and len(trick) == players - 1
    below = card < price
    below_cards = [c for c in cards if c < price]
    short = 0.0
    if lead:
        length = (holding & deck.suit_masks[suit_of[card]]).bit_count()
        short = 1.0 / length
    return (
        float(card == policy_card(legal, trick, price)),
        rank if lead else 0.0,
        rank if not lead and not discard else 0.0,
        rank if discard else 0.0,
        wins,
        buys,
        wins if last else 0.0,
        buys if last else 0.0,
        float(below),
        deck.points[card] / 3,
        deck.points[card] / 3 if discard else 0.0,
        float(bool(below_cards) and card == below_cards[-1]),
        short,
    )


@dataclass(frozen=True, slots=True)
class PastPlay:
    """One card a hidden holder played this hand, and the trick it went into."""

    holder: int
    card: int
    #: The cards before it in its trick.
    before: tuple[int, ...]
    price: int
    #: Cards the holder played from this moment on (this one included).
    later: int


def past_plays(view: SeatView) -> list[PastPlay]:
    """Every card played this hand by a holder the seat cannot see, in order."""
    deck = view.rules.deck
    joker = deck.joker_position
    tricks: list[tuple[tuple[tuple[int, int], ...], int]] = []
    for t in view.tricks:
        plays = tuple(zip(t.holders, (c.index for c in t.cards), strict=True))
        tricks.append((plays, joker if t.price_before is None else t.price_before.index))
    if view.trick:
        order = view.trick_order
        plays = tuple((order[i], c.index) for i, (_, c) in enumerate(view.trick))
        tricks.append((plays, view.price_threshold))
    hidden = {h for h in range(len(view.hand_sizes)) if h not in view.visible}
    out: list[PastPlay] = []
    later = [0] * len(view.hand_sizes)
    for plays, price in reversed(tricks):
        for i in range(len(plays) - 1, -1, -1):
            holder, card = plays[i]
            later[holder] |= 1 << card
            if holder in hidden:
                before = tuple(c for _, c in plays[:i])
                out.append(PastPlay(holder, card, before, price, later[holder]))
    out.reverse()
    return out


def supported(view: SeatView) -> bool:
    """Whether the model applies: one hand per seat (no two-handed seats)."""
    rules = view.rules
    return not (rules.two_hands or rules.devils_eye)


class Scorer:
    """The log-likelihood of a guessed deal under the play and pass models."""

    def __init__(
        self,
        view: SeatView,
        weights: Sequence[float] = WEIGHTS,
        pass_slope: float = PASS_SLOPE,
        temper: float = 1.0,
    ) -> None:
        self.view = view
        self.deck = view.rules.deck
        self.weights = tuple(weights)
        self.pass_slope = pass_slope
        self.temper = temper
        self.plays = past_plays(view) if supported(view) else []
        self.players = len(view.trick_order) or view.rules.holders
        hidden = {h for h in range(len(view.hand_sizes)) if h not in view.visible}
        self.passes = (
            [(g, c.index) for g, c in view.passes_received if g in hidden]
            if supported(view)
            else []
        )
        self.gave = {to: c.index for to, c in view.passes_given}

    def log_weight(self, deal: Deal) -> float:
        total = 0.0
        deck = self.deck
        for p in self.plays:
            holding = deal.holdings[p.holder] | p.later
            legal = legal_cards(
                holding, p.before[0] if p.before else None, deck.suit_masks, deck.suit_of
            )
            if legal & (legal - 1) == 0:
                continue
            total += self._play_log_prob(p, legal, holding)
        for giver, card in self.passes:
            total += self._pass_log_prob(deal, giver, card)
        return self.temper * total

    def _play_log_prob(self, p: PastPlay, legal: int, holding: int) -> float:
        w = self.weights
        scores = []
        mine = 0.0
        c = legal
        while c:
            low = c & -c
            card = low.bit_length() - 1
            c ^= low
            f = card_features(card, legal, p.before, p.price, holding, self.deck, self.players)
            s = sum(a * b for a, b in zip(w, f, strict=True))
            scores.append(s)
            if card == p.card:
                mine = s
        top = max(scores)
        return mine - top - math.log(sum(math.exp(s - top) for s in scores))

    def _pass_log_prob(self, deal: Deal, giver: int, card: int) -> float:
        start = deal.holdings[giver] | self._played_by(giver)
        gave = self.gave.get(giver)
        if gave is not None:
            start &= ~(1 << gave)
        before = start | 1 << card
        cards = self.deck.cards_of(before)
        joker = self.deck.joker_position
        key = shedding_order(cards, self.deck.cards[card], joker)
        lower = sum(1 for c in cards if shedding_order(cards, c, joker) < key)
        return -self.pass_slope * lower

    def _played_by(self, holder: int) -> int:
        out = 0
        for t in self.view.tricks:
            for h, c in zip(t.holders, t.cards, strict=True):
                if h == holder:
                    out |= 1 << c.index
        order = self.view.trick_order
        for i, (_, c) in enumerate(self.view.trick):
            if order[i] == holder:
                out |= 1 << c.index
        return out


class DealPool:
    """Guessed deals in proportion to their likelihood under `Scorer`.

    Draws `candidates` deals uniformly (bots.sampling), weighs each, and then
    hands out `draw()` deals by systematic resampling of the weights in
    rounds of `candidates`: likely deals come back more often, unlikely ones
    rarely.  With no history to judge by every candidate comes back once.
    """

    def __init__(self, view: SeatView, rng: random.Random, candidates: int, scorer: Scorer) -> None:
        self.deals = [sample_deal(view, rng) for _ in range(candidates)]
        if scorer.plays or scorer.passes:
            logs = [scorer.log_weight(d) for d in self.deals]
            top = max(logs)
            self.weights = [math.exp(x - top) for x in logs]
        else:
            self.weights = [1.0] * candidates
        self.rng = rng
        self.queue: list[Deal] = []

    @property
    def effective_size(self) -> float:
        """Kish's effective sample size of the weights."""
        s = sum(self.weights)
        return s * s / sum(w * w for w in self.weights)

    def draw(self) -> Deal:
        if not self.queue:
            self.queue = self._round()
        return self.queue.pop()

    def _round(self) -> list[Deal]:
        n = len(self.deals)
        total = sum(self.weights)
        step = total / n
        u = self.rng.random() * step
        out = []
        acc = 0.0
        i = 0
        for k in range(n):
            target = u + k * step
            while acc + self.weights[i] < target and i < n - 1:
                acc += self.weights[i]
                i += 1
            out.append(self.deals[i])
        self.rng.shuffle(out)
        return out
