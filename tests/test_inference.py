"""Inference (bots/inference.py): guessed deals weighed by the others' plays."""

from __future__ import annotations

import random
import statistics

import pytest
from cursedbottle.bots import make_bot
from cursedbottle.bots.inference import FEATURES, DealPool, Scorer, past_plays
from cursedbottle.bots.sampling import Deal, sample_deal
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.engine.tricks import legal_cards

RULES = {
    "3p": Rules(3, hands=1),
    "4p": Rules(4, hands=1),
    "imp3": Rules(3, edition=Edition.BOTTLE_IMP, hands=1),
}


def _position(rules: Rules, seed: str, tricks: int):
    """(hand, view) of the seat to play once `tricks` tricks are done, heuristic bots."""
    game = Game(rules, seed=seed)
    bots = {p: make_bot("heuristic", p) for p in range(rules.players)}
    while True:
        seat = game.to_act()[0]
        view = game.view(game.player_at(seat))
        if view.phase.value == "play" and len(view.tricks) == tricks:
            return game.hands[-1], view
        game.apply(bots[game.player_at(seat)].act(view))


def _find(rules: Rules, seed: str, tricks: int, ok):
    """The first of the seeded positions `seed-0`, `seed-1`, ... where `ok(view)`."""
    for k in range(100):
        hand, view = _position(rules, f"{seed}-{k}", tricks)
        if ok(view):
            return hand, view
    raise AssertionError("no such position")


def _true_deal(hand) -> Deal:
    deck = hand.deck
    return Deal(tuple(hand.holdings), deck.mask_of(deck.cards[c] for c in hand.pile))


@pytest.mark.parametrize("variant", RULES)
def test_past_plays_are_legal_from_the_holdings_they_rebuild(variant):
    """On the true deal every past card of a hidden holder was in its rebuilt
    hand and followed suit as that hand had to."""
    hand, view = _position(RULES[variant], f"past-{variant}", 4)
    deal = _true_deal(hand)
    deck = view.rules.deck
    plays = past_plays(view)
    assert plays and all(p.holder not in view.visible for p in plays)
    for p in plays:
        holding = deal.holdings[p.holder] | p.later
        assert holding >> p.card & 1
        led = p.before[0] if p.before else None
        assert legal_cards(holding, led, deck.suit_masks, deck.suit_of) >> p.card & 1


def test_a_deal_that_contradicts_the_lead_under_the_model_weighs_less():
    """A model in which seats lead low: the deal in which the leader's card was
    its lowest outweighs the one in which it was its highest."""
    hand, view = _find(
        Rules(3, hands=1),
        "lead-low",
        1,
        lambda v: v.tricks[0].holders[0] not in v.visible and not any(v.voids),
    )
    trick = view.tricks[0]
    leader, led = trick.holders[0], trick.cards[0].index
    deal = _true_deal(hand)
    other = next(h for h in range(3) if h not in view.visible and h != leader)
    pool = sorted([c for c in range(36) if (deal.holdings[leader] | deal.holdings[other]) >> c & 1])
    size = deal.holdings[leader].bit_count()

    def with_leader(cards):
        holdings = list(deal.holdings)
        holdings[leader] = sum(1 << c for c in cards)
        holdings[other] = sum(1 << c for c in pool if c not in cards)
        return Deal(tuple(holdings), deal.pile)

    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("lead_rank")] = -3.0
    scorer = Scorer(view, weights=weights, pass_slope=0.0)
    high = with_leader(pool[-size:])  # the led card was its lowest
    low = with_leader(pool[:size])  # the led card was its highest
    assert min(pool) < led < max(pool)
    assert scorer.log_weight(high) > scorer.log_weight(low)


def test_a_pass_with_lower_cards_kept_weighs_less():
    """The tips pass low cards: a giver who kept cards below the one it passed
    is less likely than one who passed its lowest.  (Four players: the seat
    opposite passes nothing to this one, so only the giver's pass is judged.)"""
    for k in range(100):
        hand, view = _position(Rules(4, hands=1), f"pass-low-{k}", 0)
        givers = {g for g, _ in view.passes_received}
        giver = min(givers)
        other = next(h for h in range(4) if h not in view.visible and h not in givers)
        deal = _true_deal(hand)
        both = deal.holdings[giver] | deal.holdings[other]
        pool = sorted(c for c in range(36) if both >> c & 1)
        size = deal.holdings[giver].bit_count()
        card = next(c for g, c in view.passes_received if g == giver)
        # Kept low: a card below the one passed; kept high: none.
        if not any(view.voids) and pool[0] < card.index < pool[-size]:
            break
    rebuilt = []
    for cards in (pool[-size:], pool[:size]):
        holdings = list(deal.holdings)
        holdings[giver] = sum(1 << c for c in cards)
        holdings[other] = sum(1 << c for c in pool if c not in cards)
        rebuilt.append(Deal(tuple(holdings), deal.pile))
    kept_high, kept_low = rebuilt
    scorer = Scorer(view, weights=[0.0] * len(FEATURES), pass_slope=1.0)
    assert scorer.log_weight(kept_high) > scorer.log_weight(kept_low)


@pytest.mark.parametrize("variant", RULES)
def test_the_fitted_model_ranks_the_true_deal_above_most_guesses(variant):
    """Over positions from heuristic play, the true deal outweighs most of 32
    uniform guesses (the model was fitted to pimc bots, not to these)."""
    ranks = []
    for k in range(8):
        hand, view = _position(RULES[variant], f"rank-{variant}-{k}", 2 + k % 4)
        scorer = Scorer(view)
        true = scorer.log_weight(_true_deal(hand))
        rng = random.Random(k)
        guesses = [scorer.log_weight(sample_deal(view, rng)) for _ in range(32)]
        ranks.append(sum(g < true for g in guesses) / len(guesses))
    assert statistics.fmean(ranks) > 0.75


def test_the_pool_hands_out_likely_deals_more_often():
    _, view = _position(Rules(3, hands=1), "pool", 5)
    pool = DealPool(view, random.Random(4), 64, Scorer(view))
    assert 1.0 <= pool.effective_size < 64
    drawn = [pool.draw() for _ in range(64 * 20)]
    best = max(range(64), key=lambda i: pool.weights[i])
    worst = min(range(64), key=lambda i: pool.weights[i])
    assert drawn.count(pool.deals[best]) > drawn.count(pool.deals[worst])
    # No history to judge by: every candidate once a round.
    _, first = _position(Rules(3, hands=1), "pool", 0)
    scorer = Scorer(first, pass_slope=0.0)
    flat = DealPool(first, random.Random(4), 16, scorer)
    assert sorted(map(hash, (flat.draw() for _ in range(16)))) == sorted(map(hash, flat.deals))


def test_strong_and_pimc_by_name_and_reproducible():
    bot = make_bot("strong:n4", 7)
    assert bot.name == "strong:n4" and bot.samples == 4 and bot.budget is None
    with pytest.raises(ValueError, match=r"pimc.*strong"):
        make_bot("genius")
    _, view = _position(Rules(3, hands=1), "repro", 3)
    first = [make_bot("strong:n4", 7).act(view) for _ in range(2)]
    assert first[0] == first[1] and first[0] in view.legal_actions
