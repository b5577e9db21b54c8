"""A seat's view holds what the seat may know — all of it, and nothing more."""

from __future__ import annotations

import dataclasses
import random

import pytest
from cursedbottle.engine import Card, Game, Phase, Rules
from cursedbottle.engine.view import SeatView

VARIANTS = {
    "3p": Rules(3, hands=2),
    "4p": Rules(4, hands=2),
    "2p-lopaka": Rules(2, hands=2),
    "bright-house": Rules(2, bright_house=True, hands=2),
}


def _cards_in(value) -> set[Card]:
    """Every card mentioned anywhere inside an event or a view."""
    if isinstance(value, Card):
        return {value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(_cards_in(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, dict):
        return _cards_in(list(value.values()))
    if isinstance(value, list | tuple | frozenset | set):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    return set()


def _view_cards(view: SeatView) -> set[Card]:
    parts = [
        view.visible,
        view.known,
        view.my_pile_cards,
        view.passes_given,
        view.passes_received,
        view.taken,
        view.trick,
        view.tricks,
        view.price,
    ]
    return _cards_in(parts)


def _decision_points(rules: Rules, seed: int):
    """(game, player) at every decision of a random game, for each seat asked."""
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        for seat in game.to_act():
            yield game, game.player_at(seat)
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("name", VARIANTS)
def test_a_view_reveals_no_card_the_seat_was_not_shown(name):
    for game, player in _decision_points(VARIANTS[name], seed=3):
        shown = set().union(*(_cards_in(e) for _, e in game.events_for(player)))
        view = game.view(player)
        leaked = _view_cards(view) - shown
        assert not leaked, f"view of player {player} shows {leaked} never shown to it"


@pytest.mark.parametrize("name", VARIANTS)
def test_unseen_is_exactly_the_hidden_hands_and_the_rest_of_the_pile(name):
    for game, player in _decision_points(VARIANTS[name], seed=5):
        hand = game.hand
        view = game.view(player)
        deck = hand.deck
        hidden = set(
            deck.cards_of(
                sum(hand.holdings[h] for h in range(len(hand.holdings)) if h not in view.visible)
            )
        )
        hidden -= {c for cards in view.known.values() for c in cards}
        in_transit = {
            deck.cards[c]
            for giver, given in hand.passes.items()
            if giver != view.seat
            for c in given.values()
        }
        pile = {deck.cards[c] for c in hand.pile} - set(view.my_pile_cards)
        assert set(view.unseen) == hidden | in_transit | pile
        assert set(view.unseen).isdisjoint(_view_cards(view))


@pytest.mark.parametrize("name", VARIANTS)
def test_inferences_are_true(name):
    for game, player in _decision_points(VARIANTS[name], seed=8):
        hand = game.hand
        view = game.view(player)
        for holder, cards in view.known.items():
            assert all(hand.holdings[holder] >> c.index & 1 for c in cards)
        for holder, suits in enumerate(view.voids):
            for suit in suits:
                assert not hand.holdings[holder] & hand.deck.suit_masks[suit]


def test_a_view_in_play_lists_exactly_the_legal_cards():
    game = Game(Rules(3), seed=1)
    while game.hand.phase is not Phase.PLAY:
        game.apply(game.legal_actions()[0])
    mover = game.player_at(game.to_act()[0])
    view = game.view(mover)
    assert view.legal_actions == tuple(game.legal_actions())
    assert set(view.legal_cards) <= set(view.my_cards)
    others = [p for p in range(3) if p != mover]
    assert all(game.view(p).legal_actions == () for p in others)


def test_lopakas_hand_is_in_every_view():
    game = Game(Rules(2), seed=4)
    lopaka = game.hand.lopaka
    for player in (0, 1):
        view = game.view(player)
        assert set(view.visible[lopaka]) == set(game.hand.deck.cards_of(game.hand.holdings[lopaka]))
