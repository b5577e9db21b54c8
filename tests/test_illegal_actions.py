"""Every kind of illegal action is refused, names the rule, and changes nothing.

Each refusal is checked three ways: the `IllegalAction` carries the expected
`Rule`, its message says in words which rule was broken (and names the seat
where there is one), and a deep fingerprint of the game (holdings, pile,
passes, trick, tricks taken, price, owner, phase, who is to act, the event and
action logs, totals) is the same before and after.  The game then goes on
normally.  A sweep at the end offers many random actions at every moment of
random games: whatever is not among `legal_actions()` must be refused without
a trace, whatever is must be accepted.
"""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, DECK, card, config_id, game_fingerprint
from cursedbottle.engine.actions import ChooseOpen, PassCard, PileCard, Play
from cursedbottle.engine.errors import IllegalAction, Rule
from cursedbottle.engine.events import Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.hand import Hand
from cursedbottle.engine.rules import Rules

#: Words a player would recognise the rule by: one of them must be in the message.
RULE_WORDS = {
    Rule.GAME_OVER: ("over",),
    Rule.WRONG_PHASE: ("phase",),
    Rule.NOT_YOUR_TURN: ("turn",),
    Rule.NO_SUCH_SEAT: ("no seat",),
    Rule.LOPAKA_PLAYS_HIMSELF: ("lopaka",),
    Rule.CARD_NOT_HELD: ("does not hold", "not a card"),
    Rule.ALREADY_CHOSEN: ("already",),
    Rule.PASS_TO_NON_NEIGHBOUR: ("pass only to",),
    Rule.SAME_CARD_TWICE: ("twice",),
    Rule.FOLLOW_SUIT: ("follow suit",),
    Rule.WRONG_HAND: ("hand",),
    Rule.DEALER_KEEPS_CARDS: ("deals to five",),
}


def names_the_rule(err: IllegalAction) -> bool:
    message = str(err).lower()
    return any(w in message for w in RULE_WORDS[err.rule])


def refused(game: Game, action, rule: Rule | set[Rule], *words: str) -> IllegalAction:
    before = game_fingerprint(game)
    events = list(game.events)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    err = info.value
    rules = rule if isinstance(rule, set) else {rule}
    assert err.rule in rules, (action, err.rule, str(err))
    message = str(err).lower()
    assert names_the_rule(err), f"message does not name the rule: {err}"
    for w in words:
        assert w.lower() in message, f"{w!r} not in {err}"
    assert game_fingerprint(game) == before, f"{action} changed the state"
    assert game.events == events
    return err


def holding(game: Game, seat: int, hand: int = 0) -> list:
    h = game.hand.holder_of(seat, hand)
    return game.hand.deck.cards_of(game.hand.holdings[h])


def not_held(game: Game, seat: int, hand: int = 0):
    mine = set(holding(game, seat, hand))
    return next(c for c in DECK.cards if c not in mine)


def advance(game: Game, rng: random.Random, until) -> Game:
    while not until(game):
        assert not game.is_over
        game.apply(rng.choice(game.legal_actions()))
    return game


def goes_on(game: Game, rng: random.Random) -> None:
    """The refused actions left a game that still plays."""
    game.apply(rng.choice(game.legal_actions()))


def in_phase(phase):
    return lambda g: g.hand.phase is phase


# ------------------------------------------------------------------ pile phase


def test_refused_in_the_pile_phase():
    rng = random.Random(1)
    game = Game(Rules(3), seed=1)
    assert game.hand.phase is Phase.PILE and game.to_act() == (0, 1, 2)
    c0 = holding(game, 0)[0]
    refused(game, Play(0, c0), Rule.WRONG_PHASE, "pile")
    refused(game, PassCard(0, 1, c0), Rule.WRONG_PHASE, "pile")
    refused(game, ChooseOpen(0, 0), Rule.WRONG_PHASE)
    refused(game, PileCard(0, not_held(game, 0)), Rule.CARD_NOT_HELD, "seat 0")
    refused(game, PileCard(3, c0), Rule.NO_SUCH_SEAT, "3")
    refused(game, PileCard(-1, c0), Rule.NO_SUCH_SEAT, "-1")
    refused(game, PileCard(True, c0), Rule.NO_SUCH_SEAT, "True")  # a bool is no seat number
    game.apply(PileCard(0, c0))
    # a second pile card, and the first one again
    refused(game, PileCard(0, holding(game, 0)[0]), Rule.ALREADY_CHOSEN, "seat 0")
    refused(game, PileCard(0, c0), {Rule.ALREADY_CHOSEN, Rule.CARD_NOT_HELD}, "seat 0")
    # another seat may still choose; not the card already in the pile
    refused(game, PileCard(1, c0), Rule.CARD_NOT_HELD, "seat 1")
    goes_on(game, rng)


# ------------------------------------------------------------------ pass phase


def test_refused_in_the_pass_phase_four_players():
    rng = random.Random(2)
    game = advance(Game(Rules(4), seed=2), rng, in_phase(Phase.PASS))
    assert game.to_act() == (0, 1, 2, 3)
    c0, c1 = holding(game, 0)[:2]
    pile0 = DECK.cards[game.hand.pile_by_seat[0][0]]
    refused(game, PileCard(0, c0), Rule.WRONG_PHASE, "pass")
    refused(game, Play(1, holding(game, 1)[0]), Rule.WRONG_PHASE, "pass")
    # neighbours of seat 0 are 1 (left) and 3 (right)
    refused(game, PassCard(0, 2, c0), Rule.PASS_TO_NON_NEIGHBOUR, "seat 0", "seat 2")
    refused(game, PassCard(0, 0, c0), Rule.PASS_TO_NON_NEIGHBOUR, "seat 0")
    refused(game, PassCard(0, 4, c0), Rule.PASS_TO_NON_NEIGHBOUR, "seat 0")
    refused(game, PassCard(0, 1, not_held(game, 0)), Rule.CARD_NOT_HELD)
    refused(game, PassCard(0, 1, pile0), Rule.CARD_NOT_HELD, "seat 0")  # it is in the pile
    refused(game, PassCard(4, 0, c0), Rule.NO_SUCH_SEAT)
    game.apply(PassCard(0, 1, c0))
    refused(game, PassCard(0, 1, c1), Rule.ALREADY_CHOSEN, "seat 0", "seat 1")
    # the same card to the other neighbour too
    refused(game, PassCard(0, 3, c0), Rule.SAME_CARD_TWICE, "seat 0")
    # nothing was exchanged yet: seat 1 cannot pass on what seat 0 chose for it
    refused(game, PassCard(1, 2, c0), Rule.CARD_NOT_HELD, "seat 1")
    game.apply(PassCard(0, 3, c1))
    refused(game, PassCard(0, 1, holding(game, 0)[0]), Rule.ALREADY_CHOSEN)
    refused(game, PassCard(0, 3, holding(game, 0)[0]), Rule.ALREADY_CHOSEN)
    goes_on(game, rng)


def test_three_players_pass_only_left_and_right():
    rng = random.Random(3)
    game = advance(Game(Rules(3), seed=3), rng, in_phase(Phase.PASS))
    c = holding(game, 2)[0]
    for to in (2, 3, -1, None, "1"):
        refused(game, PassCard(2, to, c), Rule.PASS_TO_NON_NEIGHBOUR, "seat 2")
    game.apply(PassCard(2, 0, c))  # left of seat 2 is seat 0
    game.apply(PassCard(2, 1, holding(game, 2)[0]))
    goes_on(game, rng)


# ------------------------------------------------------------------ play phase


def _play_state(players: int, seed: int, want_revoke: bool):
    """A play-phase game where the seat to move is following a trick and holds
    the led suit and another suit (so a revoke is possible)."""
    rng = random.Random(seed)
    game = Game(Rules(players), seed=seed)
    while True:
        hand = game.hand
        if hand.phase is Phase.PLAY and hand.trick:
            seat = game.to_act()[0]
            led = DECK.cards[hand.trick[0]].suit
            mine = holding(game, seat)
            if not want_revoke or (
                any(c.suit == led for c in mine) and any(c.suit != led for c in mine)
            ):
                return game, rng
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("players", [3, 4])
def test_refused_in_the_play_phase(players):
    game, _ = _play_state(players, seed=10 + players, want_revoke=True)
    hand = game.hand
    seat = game.to_act()[0]
    other = (seat + 1) % players
    led = DECK.cards[hand.trick[0]].suit
    mine = holding(game, seat)
    off_suit = next(c for c in mine if c.suit != led)
    refused(game, Play(seat, off_suit), Rule.FOLLOW_SUIT, f"seat {seat}", led.display())
    # out of turn, with a card the other seat holds
    refused(game, Play(other, holding(game, other)[0]), Rule.NOT_YOUR_TURN,
            f"seat {other}", f"seat {seat}")
    refused(game, Play(seat, holding(game, other)[0]), Rule.CARD_NOT_HELD, f"seat {seat}")
    refused(game, Play(seat, DECK.cards[hand.trick[0]]), Rule.CARD_NOT_HELD)  # already played
    refused(game, PileCard(seat, mine[0]), Rule.WRONG_PHASE, "play")
    refused(game, PassCard(seat, other, mine[0]), Rule.WRONG_PHASE, "play")
    refused(game, ChooseOpen(seat, 0), Rule.WRONG_PHASE, "play")
    refused(game, Play(players, mine[0]), Rule.NO_SUCH_SEAT, str(players))
    refused(game, Play(-1, mine[0]), Rule.NO_SUCH_SEAT)
    refused(game, Play("0", mine[0]), Rule.NO_SUCH_SEAT)
    refused(game, Play(seat, "AD"), Rule.CARD_NOT_HELD)  # a string is not a card
    # the seat that led the trick may not play again
    refused(game, Play(hand.leader, holding(game, hand.leader)[0]), Rule.NOT_YOUR_TURN)
    follow = [c for c in mine if c.suit == led]
    game.apply(Play(seat, follow[0]))


def test_a_void_seat_may_play_any_card():
    # the other side of the follow-suit rule: no card of the led suit, anything goes
    rng = random.Random(5)
    game = Game(Rules(3), seed=5)
    while True:
        hand = game.hand
        if hand.phase is Phase.PLAY and hand.trick:
            seat = game.to_act()[0]
            led = DECK.cards[hand.trick[0]].suit
            mine = holding(game, seat)
            if mine and all(c.suit != led for c in mine) and len({c.suit for c in mine}) > 1:
                break
        game.apply(rng.choice(game.legal_actions()))
    assert {a.card for a in game.legal_actions()} == set(mine)
    game.apply(Play(seat, mine[-1]))


# ------------------------------------------------------------------ Lopaka


def test_nobody_acts_for_lopaka():
    rng = random.Random(6)
    game = Game(Rules(2), seed=6)
    hand = game.hand
    lopaka = hand.lopaka
    assert game.hand.phase is Phase.PASS
    assert lopaka not in game.to_act()
    player = game.to_act()[0]
    lop_card = holding(game, lopaka)[0]
    refused(game, PassCard(lopaka, player, lop_card), Rule.LOPAKA_PLAYS_HIMSELF,
            f"seat {lopaka}")
    refused(game, PassCard(player, lopaka, holding(game, player)[0]),
            Rule.PASS_TO_NON_NEIGHBOUR, f"seat {player}")
    refused(game, PileCard(player, holding(game, player)[0]), Rule.WRONG_PHASE)  # no pile phase
    refused(game, Play(lopaka, lop_card), Rule.WRONG_PHASE)
    refused(game, PassCard(3, player, lop_card), Rule.NO_SUCH_SEAT)
    advance(game, rng, in_phase(Phase.PLAY))
    assert lopaka not in game.to_act()
    refused(game, Play(lopaka, holding(game, lopaka)[0]), Rule.LOPAKA_PLAYS_HIMSELF,
            f"seat {lopaka}")
    refused(game, Play(3, holding(game, lopaka)[0]), Rule.NO_SUCH_SEAT)
    # a player may not play Lopaka's cards either
    seat = game.to_act()[0]
    refused(game, Play(seat, holding(game, lopaka)[-1]), Rule.CARD_NOT_HELD)
    goes_on(game, rng)


# ------------------------------------------------------------------ bright house


def test_refused_in_the_bright_house():
    rng = random.Random(7)
    game = Game(Rules(2, bright_house=True), seed=7)
    assert game.hand.phase is Phase.PILE and game.hand.stage_hand == 0
    first, second = holding(game, 0, 0), holding(game, 0, 1)
    refused(game, PileCard(0, second[0]), Rule.CARD_NOT_HELD, "hand 1")  # not the first hand
    game.apply(PileCard(0, first[0]))
    refused(game, PileCard(0, first[1]), Rule.ALREADY_CHOSEN, "seat 0")
    refused(game, PassCard(0, 1, first[1]), Rule.WRONG_PHASE)
    advance(game, rng, in_phase(Phase.PASS))
    refused(game, PassCard(0, 0, holding(game, 0, 0)[0]), Rule.PASS_TO_NON_NEIGHBOUR)
    refused(game, PassCard(0, 1, holding(game, 0, 1)[0]), Rule.CARD_NOT_HELD)
    advance(game, rng, in_phase(Phase.OPEN))
    refused(game, ChooseOpen(0, 2), Rule.WRONG_HAND, "2")
    refused(game, ChooseOpen(0, -1), Rule.WRONG_HAND)
    refused(game, ChooseOpen(2, 0), Rule.NO_SUCH_SEAT)
    refused(game, Play(0, holding(game, 0, 0)[0]), Rule.WRONG_PHASE, "open")
    game.apply(ChooseOpen(0, 1))
    refused(game, ChooseOpen(0, 0), Rule.ALREADY_CHOSEN, "seat 0")
    game.apply(ChooseOpen(1, 0))
    hand = game.hand
    assert hand.phase is Phase.PLAY and hand.open_hand == [1, 0]
    # the leader must play from the open hand first: the hidden hand's cards are refused
    leader = game.to_act()[0]
    hidden = holding(game, leader, 1 - hand.open_hand[leader])
    refused(game, Play(leader, hidden[0]), Rule.CARD_NOT_HELD, f"seat {leader}")
    game.apply(Play(leader, holding(game, leader, hand.open_hand[leader])[0]))
    refused(game, Play(leader, hidden[0]), Rule.NOT_YOUR_TURN)
    goes_on(game, rng)


# ------------------------------------------------------------------ game over


def test_refused_after_the_game_is_over():
    rng = random.Random(8)
    game = advance(Game(Rules(3, hands=1), seed=8), rng, lambda g: g.is_over)
    assert game.legal_actions() == [] and game.to_act() == ()
    c = DECK.cards[0]
    for action in (Play(0, c), PileCard(0, c), PassCard(0, 1, c), ChooseOpen(0, 0), Play(9, c)):
        refused(game, action, Rule.GAME_OVER)


def test_a_finished_hand_refuses_everything():
    hand = Hand.at_position(Rules(3), [[], [], []], [card("AD"), card("AH"), card("AS")],
                            None, None, [[], [], []], 0, [])
    assert hand.is_over
    for action in (Play(0, card("QS")), PileCard(1, card("2D")), PassCard(2, 0, card("2H"))):
        with pytest.raises(IllegalAction) as info:
            hand.apply(action)
        assert info.value.rule is Rule.GAME_OVER
        assert "over" in str(info.value)


# ------------------------------------------------------------------ the sweep


def _random_action(rng: random.Random, seats: int):
    seat = rng.randrange(-1, seats + 1)
    c = rng.choice(DECK.cards)
    kind = rng.randrange(4)
    if kind == 0:
        return Play(seat, c)
    if kind == 1:
        return PileCard(seat, c)
    if kind == 2:
        return PassCard(seat, rng.randrange(-1, seats + 1), c)
    return ChooseOpen(seat, rng.randrange(-1, 3))


PHASE_OF = {Play: Phase.PLAY, PileCard: Phase.PILE, PassCard: Phase.PASS, ChooseOpen: Phase.OPEN}


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_everything_but_the_legal_actions_is_refused(rules):
    rng = random.Random(config_id(rules))
    for seed in range(3):
        game = Game(rules, seed=seed)
        hands = 0
        while not game.is_over and hands < 2:
            legal = game.legal_actions()
            legal_set = set(legal)
            assert len(legal_set) == len(legal)
            hand = game.hand
            for _ in range(12):
                action = _random_action(rng, hand.seats)
                if action in legal_set:
                    continue
                before = game_fingerprint(game)
                with pytest.raises(IllegalAction) as info:
                    game.apply(action)
                assert game_fingerprint(game) == before, action
                rule = info.value.rule
                if not 0 <= action.seat < hand.seats:
                    assert rule is Rule.NO_SUCH_SEAT, (action, info.value)
                elif PHASE_OF[type(action)] is not hand.phase:
                    assert rule is Rule.WRONG_PHASE, (action, info.value)
                elif action.seat == hand.lopaka:
                    assert rule is Rule.LOPAKA_PLAYS_HIMSELF, (action, info.value)
                assert names_the_rule(info.value), info.value
            before_hands = len(game.hands)
            game.apply(rng.choice(legal))
            hands += len(game.hands) - before_hands
