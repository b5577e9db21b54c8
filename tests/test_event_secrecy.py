"""What each seat's event stream shows (RULES.md, "What each seat may know").

A seat sees its own hand(s), its own pile card(s), the cards it passed and
received, everything played, Lopaka's hand, the bright house's open hands;
never another seat's hidden cards, other seats' passes, or the pile (but its
own pile cards) before the hand ends.  A spectator (`events_for(None)`) sees
only what lies face up.  The targeted tests below look at single moments;
`check_secrecy` (conftest) replays whole games seat by seat.
"""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, DECK, cards_in, check_secrecy, config_id
from cursedbottle.engine.events import (
    CardPassed,
    CardPlayed,
    CardsDealt,
    HandEnded,
    OpenHandChosen,
    OpenHandRevealed,
    PassChosen,
    Phase,
    PileCardPlaced,
    TrickWon,
)
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Rules


def stream(game: Game, player: int | None, kind=None) -> list:
    return [e for _, e in game.events_for(player) if kind is None or isinstance(e, kind)]


def advance_to(game: Game, rng: random.Random, phase: Phase) -> None:
    while game.hand.phase is not phase:
        game.apply(rng.choice(game.legal_actions()))


def test_deal_only_your_own_cards():
    game = Game(Rules(4), seed=21)
    for player in range(4):
        dealt = stream(game, player, CardsDealt)
        assert [e.seat for e in dealt] == [0, 1, 2, 3]
        for e in dealt:
            assert e.count == 9
            if e.seat == player:
                assert set(e.cards) == set(DECK.cards_of(game.hand.dealt[player]))
            else:
                assert e.cards is None
    assert all(e.cards is None for e in stream(game, None, CardsDealt))


def test_pile_cards_are_hidden_until_the_hand_ends():
    rng = random.Random(22)
    game = Game(Rules(3), seed=22)
    for seat in (2, 0, 1):
        game.apply(rng.choice(game.legal_actions(seat)))
    pile = [DECK.cards[c] for c in game.hand.pile]
    by_seat = {s: DECK.cards[v[0]] for s, v in game.hand.pile_by_seat.items()}
    for player in range(3):
        placed = stream(game, player, PileCardPlaced)
        assert len(placed) == 3
        for e in placed:
            assert e.card == (by_seat[e.seat] if e.seat == player else None)
        everything = set().union(*(cards_in(e) for e in stream(game, player)))
        assert everything & set(pile) == {by_seat[player]}
    assert all(e.card is None for e in stream(game, None, PileCardPlaced))
    # at the end of the hand everybody sees the pile
    while len(game.hands) == 1:
        game.apply(rng.choice(game.legal_actions()))
    for player in (None, 0, 1, 2):
        (ended,) = stream(game, player, HandEnded)
        assert list(ended.pile) == pile


def test_passes_giver_and_receiver_only():
    rng = random.Random(23)
    game = Game(Rules(4), seed=23)
    advance_to(game, rng, Phase.PASS)
    chosen = {}
    for seat in range(4):
        for to in ((seat + 1) % 4, (seat - 1) % 4):
            c = DECK.cards_of(game.hand.holdings[seat])[0]
            chosen[seat, to] = c
            game.apply(next(a for a in game.legal_actions(seat) if a.to == to and a.card == c))
        if seat < 3:
            # chosen, not yet picked up: only the giver sees it, even the receiver not
            for player in range(4):
                for e in stream(game, player, PassChosen):
                    assert e.card == (chosen[e.seat, e.to] if e.seat == player else None)
            assert not stream(game, None, CardPassed)
    assert game.hand.phase is Phase.PLAY
    for player in range(4):
        passed = stream(game, player, CardPassed)
        assert len(passed) == 8
        for e in passed:
            visible = player in (e.seat, e.to)
            assert e.card == (chosen[e.seat, e.to] if visible else None), (player, e)
    for e in stream(game, None, PassChosen) + stream(game, None, CardPassed):
        assert e.card is None


def test_lopakas_hand_is_public():
    game = Game(Rules(2), seed=24)
    hand = game.hand
    lopaka = hand.lopaka
    lop_cards = set(DECK.cards_of(hand.dealt[lopaka]))
    assert len(lop_cards) == 11
    for player in (None, 0, 1):
        seat = None if player is None else game.seat_of(player)
        for e in stream(game, player, CardsDealt):
            if e.seat == lopaka:
                assert set(e.cards) == lop_cards and e.public
            elif e.seat == seat:
                assert set(e.cards) == set(DECK.cards_of(hand.dealt[seat]))
            else:
                assert e.cards is None
    # no pile events with Lopaka: the pile is the 3 undealt cards, seen by nobody
    assert not any(isinstance(e, PileCardPlaced) for e in game.events)
    pile = {DECK.cards[c] for c in hand.pile}
    for player in (None, 0, 1):
        assert not set().union(*(cards_in(e) for e in stream(game, player))) & pile


def test_lopaka_seat_numbers_follow_the_player():
    # seats change every hand with Lopaka: each player still sees exactly their own deal
    rng = random.Random(25)
    game = Game(Rules(2, hands=3), seed=25)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    for player in (0, 1):
        own = [e for e in stream(game, player, CardsDealt) if e.cards is not None and not e.public]
        assert len(own) == len(game.hands)
        for e, hand, seating in zip(own, game.hands, game.seatings, strict=True):
            assert seating[e.seat] == player
            assert set(e.cards) == set(DECK.cards_of(hand.dealt[e.seat]))


def test_bright_house_open_hands():
    rng = random.Random(26)
    game = Game(Rules(2, bright_house=True), seed=26)
    advance_to(game, rng, Phase.OPEN)
    game.apply(next(a for a in game.legal_actions(1) if a.hand == 0))
    # the choice is secret until both have chosen
    for player in (None, 0):
        (e,) = stream(game, player, OpenHandChosen)
        assert e.seat == 1 and e.hand is None
    (e,) = stream(game, 1, OpenHandChosen)
    assert e.hand == 0
    assert not stream(game, None, OpenHandRevealed)
    game.apply(next(a for a in game.legal_actions(0) if a.hand == 1))
    hand = game.hand
    assert hand.phase is Phase.PLAY
    open_cards = {0: set(DECK.cards_of(hand.holdings[1])), 1: set(DECK.cards_of(hand.holdings[2]))}
    hidden = {0: set(DECK.cards_of(hand.holdings[0])), 1: set(DECK.cards_of(hand.holdings[3]))}
    for player in (None, 0, 1):
        revealed = stream(game, player, OpenHandRevealed)
        assert {(e.seat, e.hand) for e in revealed} == {(0, 1), (1, 0)}
        for e in revealed:
            assert set(e.cards) == open_cards[e.seat]
        everything = set().union(*(cards_in(e) for e in stream(game, player)))
        for other in (0, 1):
            if other != player:
                # the other's hidden hand: nothing of it, except what this seat passed there
                given = {
                    DECK.cards[c] for g, to, c, _ in hand.pass_log if g == player and to == other
                }
                assert not (everything & hidden[other]) - given, (player, other)


def test_spectator_sees_only_the_face_up_cards():
    rng = random.Random(27)
    for rules in (Rules(3), Rules(2)):
        game = Game(rules, seed=27)
        hand = game.hand
        while not hand.is_over:
            game.apply(rng.choice(game.legal_actions()))
            if hand.is_over:
                break  # HandEnded shows the pile to everyone
            face_up = {c for _, c in (p for t in hand.tricks for p in t.plays)}
            face_up |= {DECK.cards[c] for c in hand.trick}
            if hand.lopaka is not None:
                face_up |= set(DECK.cards_of(hand.dealt[hand.lopaka]))
            seen = set().union(*(cards_in(e) for e in stream(game, None)))
            assert seen <= face_up, sorted(seen - face_up)


def test_played_cards_and_tricks_are_public():
    rng = random.Random(28)
    game = Game(Rules(3, hands=1), seed=28)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    raw_plays = [e for e in game.events if isinstance(e, CardPlayed | TrickWon)]
    for player in (None, 0, 1, 2):
        assert stream(game, player, CardPlayed | TrickWon) == raw_plays


def test_events_for_start_gives_the_same_suffix():
    rng = random.Random(29)
    game = Game(Rules(4, hands=1), seed=29)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    for player in (None, 2):
        full = list(game.events_for(player))
        assert [seq for seq, _ in full] == list(range(len(game.events)))
        assert list(game.events_for(player, start=40)) == [x for x in full if x[0] >= 40]


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_whole_games_leak_nothing(rules):
    for seed in range(6):
        rng = random.Random(seed)
        game = Game(rules, seed=seed)
        while not game.is_over and len(game.hands) <= 3:
            game.apply(rng.choice(game.legal_actions()))
        for player in [None, *range(rules.players)]:
            check_secrecy(game, player)
