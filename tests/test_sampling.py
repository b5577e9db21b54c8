"""Guessed deals fit everything the seat knows, and only that."""

from __future__ import annotations

import dataclasses
import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.bots.sampling import position_of, sample_deal
from cursedbottle.bots.search import _sample_original_deal
from cursedbottle.engine import Game, Phase, Rules
from cursedbottle.engine.hand import Hand
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st


def _decisions(rules: Rules, seed: int, phases: frozenset[Phase]):
    """Random positions of a random hand: (game, deciding player) wherever a
    seat of a human decides in one of `phases` (the game is left as it was)."""
    game = Game(dataclasses.replace(rules, hands=1), seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        if game.hand.phase in phases:
            for seat in game.to_act():
                if game.player_at(seat) is not None:
                    yield game, game.player_at(seat)
        game.apply(rng.choice(game.legal_actions()))


def _check_play_deal(view, true, deal) -> None:
    """Everything the view knows holds in the guessed deal (checked with the
    cards' own suits, not the deck's suit indices)."""
    deck = true.deck
    masks = [*deal.holdings, deal.pile]
    union = 0
    for m in masks:
        assert not union & m, "a card in two places"
        union |= m
    assert union == sum(true.holdings) | sum(1 << c for c in true.pile)
    assert [m.bit_count() for m in deal.holdings] == list(view.hand_sizes)
    assert list(view.hand_sizes) == [m.bit_count() for m in true.holdings]
    assert deal.pile.bit_count() == view.pile_size == len(true.pile)
    for h, cards in view.visible.items():
        assert deck.cards_of(deal.holdings[h]) == list(cards)
    for h, cards in view.known.items():
        assert all(deal.holdings[h] >> c.index & 1 for c in cards), f"passed card left {h}"
    for h, suits in enumerate(view.voids):
        shown = [c for c in deck.cards_of(deal.holdings[h]) if c.suit in suits]
        assert not shown, f"holder {h} is void in {sorted(suits)} but was dealt {shown}"
    assert all(deal.pile >> c.index & 1 for c in view.my_pile_cards)


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), pick=st.integers(0, 2**32))
def test_sampled_deals_respect_the_view(rules, seed, pick):
    """Over random play positions of every rule set the engine plays."""
    picks = random.Random(pick)
    voided = 0
    for game, player in _decisions(rules, seed, frozenset({Phase.PLAY})):
        if picks.random() > 0.5:
            continue
        view = game.view(player)
        voided += any(view.voids)
        for _ in range(2):
            _check_play_deal(view, game.hand, sample_deal(view, picks))
    note(f"{voided} positions with a void")


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_voids_are_respected_in_every_rule_set(rules):
    """The check above cannot pass for want of voids: every position of fixed
    hands of each rule set where a hidden holder has shown one is sampled."""
    voided = 0
    for seed in range(3):
        for game, player in _decisions(rules, seed, frozenset({Phase.PLAY})):
            view = game.view(player)
            if any(v for h, v in enumerate(view.voids) if h not in view.visible):
                voided += 1
                for i in range(3):
                    _check_play_deal(view, game.hand, sample_deal(view, random.Random(i)))
    assert voided, "no hidden holder showed a void in three hands"


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), pick=st.integers(0, 2**32))
def test_guessed_original_deals_respect_the_view(rules, seed, pick):
    """The setup search's guess of the deal: the seat's own hands as dealt,
    Lopaka's open hand, the cards received in the givers' hands, every hand at
    its dealt size, each card once."""
    setup = frozenset({Phase.PILE, Phase.PASS, Phase.OPEN})
    picks = random.Random(pick)
    for game, player in _decisions(rules, seed, setup):
        view = game.view(player)
        deal, undealt = _sample_original_deal(view, picks)
        true = game.hand
        deck = true.deck
        assert tuple(len(cards) for cards in deal) == view.rules.deal_sizes(view.dealer)
        everything = [c for cards in deal for c in cards] + undealt
        assert sorted(everything) == list(deck.cards)
        for h, cards in view.dealt.items():
            assert deal[h] == list(cards) == deck.cards_of(true.dealt[h])
        if view.lopaka is not None:
            assert deal[view.lopaka] == list(view.visible[view.lopaka])
        for giver, card in view.passes_received:
            givers = [h for h, s in enumerate(view.holder_seat) if s == giver]
            assert any(card in deal[h] for h in givers)
            assert any(true.dealt[h] >> card.index & 1 for h in givers)
        Hand(view.rules, view.dealer, deal, undealt)  # the engine takes it


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
    for game, player in _decisions(Rules(4), seed + 100, frozenset({Phase.PLAY})):
        view = game.view(player)
        for _ in range(5):
            sample_deal(view, rng)
