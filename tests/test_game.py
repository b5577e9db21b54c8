"""The game around the hands (RULES.md, "The game" and "Two players"):
running totals, the end of the game and its tie rule, the dealer moving left,
Lopaka's seat, the rule set's checks, and `Game.replay`.

The end-of-game tests steer the totals: just before the last card of a hand
they set `game.totals` so that after the hand's scores (taken from a copy of
the hand) the totals are exactly the ones the test wants.
"""

from __future__ import annotations

import random

import pytest
from conftest import DECK, play_random_game
from cursedbottle.engine.errors import IllegalAction
from cursedbottle.engine.events import GameEnded, GameStarted, HandEnded, HandStarted, Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Edition, Rules, RulesError


def _last_action(game: Game, rng: random.Random):
    """Play on until the next action ends the hand; return (action, scores it brings)."""
    while True:
        action = rng.choice(game.legal_actions())
        probe = game.hand.copy()
        probe.apply(action)
        if probe.is_over:
            return action, probe.scores()
        game.apply(action)


def finish_hand_with_totals(game: Game, rng: random.Random, wanted: tuple[int, ...]) -> None:
    hands = len(game.hands)
    action, scores = _last_action(game, rng)
    seating = game.seatings[-1]
    for seat, player in enumerate(seating):
        if player is not None:
            game.totals[player] = wanted[player] - scores[seat]
    game.apply(action)
    assert tuple(game.totals) == wanted
    ended = [e for e in game.events if isinstance(e, HandEnded)]
    assert len(ended) == hands and ended[-1].totals == wanted


def game_ended(game: Game) -> GameEnded | None:
    last = game.events[-1]
    return last if isinstance(last, GameEnded) else None


# ------------------------------------------------------------ end of the game


@pytest.mark.parametrize(
    "wanted, winner",
    [
        ((100, 50, 20), 0),  # exactly the target
        ((101, 150, 0), 1),  # the highest total wins, not the first to reach
        ((120, 120, 130), 2),  # a tie below the top does not matter
        ((99, 98, 0), None),  # nobody reached the target: play on
        ((120, 120, 30), None),  # a tie at the top: play on
        ((-10, -5, -200), None),
    ],
)
def test_target_and_the_tie_at_the_top(wanted, winner):
    rng = random.Random(str(wanted))
    game = Game(Rules(3), seed=31)
    finish_hand_with_totals(game, rng, wanted)
    if winner is None:
        assert not game.is_over and game.winner is None
        assert len(game.hands) == 2 and game.hand.phase is Phase.PILE
        assert game_ended(game) is None
    else:
        assert game.is_over and game.winner == winner
        assert len(game.hands) == 1
        end = game_ended(game)
        assert end.winner == winner and end.totals == wanted and end.hands_played == 1


def test_a_tie_at_the_top_is_decided_by_one_more_hand():
    rng = random.Random(32)
    game = Game(Rules(4, target=50), seed=32)
    finish_hand_with_totals(game, rng, (60, 60, 10, 0))
    assert not game.is_over
    finish_hand_with_totals(game, rng, (70, 70, 75, 0))  # a third player overtakes
    assert game.is_over and game.winner == 2 and len(game.hands) == 2


def test_the_tie_rule_repeats():
    rng = random.Random(33)
    game = Game(Rules(3), seed=33)
    for k in range(3):
        finish_hand_with_totals(game, rng, (100 + k, 100 + k, 0))
        assert not game.is_over
    finish_hand_with_totals(game, rng, (104, 103, 0))
    assert game.winner == 0 and len(game.hands) == 4


def test_fixed_number_of_hands():
    rng = random.Random(34)
    rules = Rules(3, hands=2)
    assert rules.target is None
    game = Game(rules, seed=34)
    finish_hand_with_totals(game, rng, (150, 0, 0))  # no target with a fixed number of hands
    assert not game.is_over
    finish_hand_with_totals(game, rng, (40, 40, 10))  # tie after the last hand: one more
    assert not game.is_over and len(game.hands) == 3
    finish_hand_with_totals(game, rng, (40, 41, 10))
    assert game.is_over and game.winner == 1 and game_ended(game).hands_played == 3


def test_fixed_hands_end_without_a_tie():
    rng = random.Random(35)
    game = Game(Rules(4, hands=1), seed=35)
    finish_hand_with_totals(game, rng, (-3, 5, 4, 5 - 1))
    assert game.is_over and game.winner == 1


def test_two_players_only_the_players_totals_count():
    rng = random.Random(36)
    game = Game(Rules(2), seed=36)
    finish_hand_with_totals(game, rng, (100, 80))
    assert game.is_over and game.winner == 0
    assert len(game.totals) == 2


def test_lopakas_score_never_counts():
    # find hands where Lopaka ends as the owner: he loses the pile, nobody else does
    found = 0
    for seed in range(200):
        game = play_random_game(Rules(2), seed, random.Random(seed), max_hands=6)
        before = [0, 0]
        for hand, ended in zip(game.hands, [e for e in game.events if isinstance(e, HandEnded)],
                               strict=False):
            seating = game.seatings[hand.number - 1]
            if hand.owner == hand.lopaka:
                found += 1
                assert ended.scores[hand.lopaka] == -hand.pile_points()
                for seat, player in enumerate(seating):
                    if player is not None:
                        assert ended.scores[seat] == ended.points_taken[seat] >= 0
            change = [ended.totals[p] - before[p] for p in (0, 1)]
            assert change == [ended.scores[seating.index(p)] for p in (0, 1)]
            before = list(ended.totals)
        if found >= 3:
            break
    assert found >= 3


# ------------------------------------------------------------ dealer and seats


@pytest.mark.parametrize("players", [3, 4])
def test_dealer_rotates_left(players):
    rng = random.Random(37)
    for first in range(players):
        game = Game(Rules(players, hands=players + 2), seed=first, first_dealer=first)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        started = [e for e in game.events if isinstance(e, HandStarted)]
        assert [e.dealer for e in started] == [
            (first + k) % players for k in range(len(started))
        ]
        for hand in game.hands:
            # the player left of the dealer leads the first trick
            assert hand.tricks[0].leader == (hand.dealer + 1) % players


def test_first_dealer_from_the_seed_or_given():
    dealers = {Game(Rules(4), seed=s).first_dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert Game(Rules(4), seed=7).first_dealer == Game(Rules(4), seed=7).first_dealer
    started = Game(Rules(3), seed=1, first_dealer=2).events[0]
    assert isinstance(started, GameStarted) and started.first_dealer == 2
    for bad in (3, -1):
        with pytest.raises(ValueError):
            Game(Rules(3), seed=1, first_dealer=bad)


def test_lopaka_sits_at_the_dealers_right_every_hand():
    rng = random.Random(38)
    game = Game(Rules(2, hands=6), seed=38, first_dealer=1)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    started = [e for e in game.events if isinstance(e, HandStarted)]
    assert len(started) >= 6
    for k, (e, hand) in enumerate(zip(started, game.hands, strict=True)):
        dealer_player = (1 + k) % 2  # the deal passes to the left: the players alternate
        assert e.seat_players[e.dealer] == dealer_player
        # clockwise: dealer → other player → Lopaka → dealer
        assert e.seat_players[(e.dealer + 1) % 3] == 1 - dealer_player
        assert e.lopaka == (e.dealer - 1) % 3 and e.seat_players[e.lopaka] is None
        assert hand.lopaka == e.lopaka
        # the non-dealer leads the first trick
        first = hand.tricks[0]
        assert e.seat_players[first.leader] == 1 - dealer_player
        # Lopaka was dealt 11 cards, the pile is the 3 undealt ones
        assert hand.dealt[e.lopaka].bit_count() == 11
        assert len(hand.pile) == 3 and not any(hand.pile_by_seat.values())


# ------------------------------------------------------------ rule set


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"players": 3, "bright_house": True}, "bright_house"),
        ({"players": 4, "bright_house": True}, "bright_house"),
        ({"players": 3, "hands": 0}, "hands"),
        ({"players": 3, "target": 0}, "target"),
        ({"players": 3, "target": "100"}, "target"),
        ({"players": 1, "edition": Edition.BOTTLE_IMP}, "players"),
        ({"players": 7, "edition": Edition.BOTTLE_IMP}, "players"),
        ({"players": 3, "hot_bottle": True, "edition": Edition.BOTTLE_IMP}, "hot_bottle"),
    ],
)
def test_unplayable_rule_sets_are_refused(kwargs, field):
    with pytest.raises(RulesError) as info:
        Rules(**kwargs)
    assert field in str(info.value)


@pytest.mark.parametrize(
    "rules, seats, deal, tricks",
    [
        (Rules(3), 3, 12, 11),
        (Rules(4), 4, 9, 8),
        (Rules(2), 3, 11, 11),
        (Rules(2, bright_house=True), 2, 9, 8),
    ],
    ids=["3p", "4p", "2p-lopaka", "2p-bright"],
)
def test_table_sizes(rules, seats, deal, tricks):
    assert rules.seats == seats and rules.deal_size == deal and rules.tricks == tricks
    assert rules.target == 100 and not rules.hot_bottle
    game = Game(rules, seed=39)
    sizes = [m.bit_count() for m in game.hand.dealt]
    assert sizes == [deal] * (4 if rules.bright_house else seats)


# ------------------------------------------------------------ replay


@pytest.mark.parametrize("seed", [0, 41, "table-7"])
def test_replay_rebuilds_the_game_exactly(seed):
    rng = random.Random(seed)
    for rules in (Rules(3), Rules(4, hot_bottle=True), Rules(2), Rules(2, bright_house=True)):
        game = play_random_game(rules, seed, rng, max_hands=8)
        again = Game.replay(rules, seed, game.actions)
        assert again.events == game.events
        assert again.totals == game.totals and again.winner == game.winner
        assert again.actions == game.actions
        assert [h.dealt for h in again.hands] == [h.dealt for h in game.hands]
        # a prefix rebuilds the game as it was then
        half = len(game.actions) // 2
        partial = Game.replay(rules, seed, game.actions[:half])
        assert partial.events == game.events[: len(partial.events)]


def test_replay_with_a_given_first_dealer():
    rng = random.Random(42)
    game = Game(Rules(3, hands=2), seed=42, first_dealer=2)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    again = Game.replay(Rules(3, hands=2), 42, game.actions, first_dealer=2)
    assert again.events == game.events


def test_the_seed_decides_the_deal():
    a, b, c = Game(Rules(3), seed=5), Game(Rules(3), seed=5), Game(Rules(3), seed=6)
    assert a.hand.dealt == b.hand.dealt
    assert a.hand.dealt != c.hand.dealt
    for m in a.hand.dealt:
        assert m.bit_count() == 12
    assert sum(a.hand.dealt) == DECK.full_mask


def test_replay_refuses_a_tampered_action_list():
    rng = random.Random(43)
    game = play_random_game(Rules(3), 43, rng, max_hands=1)
    actions = list(game.actions)
    i = next(k for k, a in enumerate(actions) if type(a).__name__ == "Play")
    first, second = actions[i], actions[i + 1]
    actions[i], actions[i + 1] = second, first  # out of turn now
    with pytest.raises(IllegalAction):
        Game.replay(Rules(3), 43, actions)
