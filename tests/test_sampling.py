"""Guessed deals fit everything the seat knows, and only that."""

from __future__ import annotations

import random

import pytest
from cursedbottle.bots.sampling import position_of, sample_deal
from cursedbottle.engine import Game, Phase, Rules

VARIANTS = {
    "3p": Rules(3, hands=1),
    "4p": Rules(4, hands=1),
    "2p-lopaka": Rules(2, hands=1),
    "bright-house": Rules(2, bright_house=True, hands=1),
}


def _play_decisions(rules: Rules, seed: int):
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        if game.hand.phase is Phase.PLAY:
            yield game
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("name", VARIANTS)
def test_sampled_deals_respect_the_view(name):
    rng = random.Random(1)
    for seed in range(4):
        for game in _play_decisions(VARIANTS[name], seed):
            player = game.player_at(game.to_act()[0])
            view = game.view(player)
            true = game.hand
            for _ in range(3):
                deal = sample_deal(view, rng)
                masks = [*deal.holdings, deal.pile]
                # Every card in at most one place; together the cards still out.
                union = 0
                for m in masks:
                    assert not union & m
                    union |= m
                assert union == sum(true.holdings) | sum(1 << c for c in true.pile)
                assert [m.bit_count() for m in deal.holdings] == [
                    m.bit_count() for m in true.holdings
                ]
                for h in view.visible:
                    assert deal.holdings[h] == true.holdings[h]
                for h, cards in view.known.items():
                    assert all(deal.holdings[h] >> c.index & 1 for c in cards)
                for h, suits in enumerate(view.voids):
                    for suit in suits:
                        assert not deal.holdings[h] & true.deck.suit_masks[suit]
                assert all(deal.pile >> c.index & 1 for c in view.my_pile_cards)


def test_every_consistent_place_is_drawn_for_an_unseen_card():
    """Over many draws an unseen card lands in each hidden hand and in the pile."""
    game = Game(Rules(3, hands=1), seed=2)
    while game.hand.phase is not Phase.PLAY:
        game.apply(game.legal_actions()[0])
    view = game.view(game.player_at(game.to_act()[0]))
    card = view.unseen[0]
    rng = random.Random(0)
    where = set()
    for _ in range(400):
        deal = sample_deal(view, rng)
        masks = [*deal.holdings, deal.pile]
        where.add(next(i for i, m in enumerate(masks) if m >> card.index & 1))
    hidden = {h for h in range(3) if h not in view.visible}
    assert where == hidden | {3}


def test_a_sampled_position_plays_on_like_the_real_one():
    game = Game(Rules(4, hands=1), seed=9)
    rng = random.Random(3)
    while game.hand.phase is not Phase.PLAY or len(game.hand.trick) != 2:
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(game.player_at(game.to_act()[0]))
    hand = position_of(view, sample_deal(view, rng))
    assert hand.to_act() == game.hand.to_act()
    assert hand.legal_actions() == game.hand.legal_actions()
    assert hand.price_card == game.hand.price_card and hand.owner == game.hand.owner


def test_fitting_by_suits_follows_supply_and_demand():
    from cursedbottle.bots.sampling import PILE, _fits

    room = {1: 2, 2: 2, PILE: 1}
    allowed = {1: frozenset({0}), 2: frozenset({0, 1, 2}), PILE: frozenset({0, 1, 2})}
    # Holder 1 takes only diamonds: two hearts and a spade can go to 2 and the pile.
    assert _fits([2, 2, 1], room, allowed)
    # Four cards that are not diamonds, but only three places take them.
    assert not _fits([1, 2, 2], room, allowed)


@pytest.mark.parametrize("seed", range(12))
def test_sampling_never_fails_on_a_real_four_player_game(seed):
    """Many voids in four-player hands once made a greedy draw run into dead ends."""
    rng = random.Random(seed)
    for game in _play_decisions(Rules(4, hands=1), seed + 100):
        view = game.view(game.player_at(game.to_act()[0]))
        for _ in range(5):
            sample_deal(view, rng)
