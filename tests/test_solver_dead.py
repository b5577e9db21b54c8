"""Cards that cannot matter (the paranoid search with one bottle).  A hand
that holds no card below the price (but perhaps the lowest, which buys the
trick it is played to) never buys: it takes a trick only with the highest
card in it.  (In Devil's Eye, where a seat plays two cards a trick from
either hand, the seat's two hands together.)

- dead cards (`dead`): while the root seat (and its partner, in team mode)
  is such a hand, a card above its highest, or the lowest card below the
  price, lies in a trick it never takes.  Their points never reach it: the
  table keys leave them out, and two such cards of one hand play alike
  whatever their points;
- losers (`losers`): every card from the price up to the lowest of such a
  hand never takes a trick (that hand plays a higher one to each), whoever
  holds it.  Of a loser only its holder, suit and points count: the keys
  write the losers sorted, and a hand's losers of one suit and points play
  alike wherever they lie.  (With Lopaka they end below his lowest card
  at or above the price: his policy compares his cards with the one
  winning so far.)

The values must be those of the search without them in every rule set, and
of the reference; and two positions that differ only in what the technique
leaves out must meet in the table.
"""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.position import Position
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.solver import _search, solve
from cursedbottle.solver.reference import reference_solve
from cursedbottle.solver.sampling import random_position
from switch_support import twin_nodes

ALL = _search.ALL_OPTIONS
PLAIN = _search.ALL_OPTIONS & ~_search.OPTIONS["dead"]
NO_LOSERS = _search.ALL_OPTIONS & ~_search.OPTIONS["losers"]


#: The Bottle Imp at three, seven tricks left (solver/sampling.py's position
#: "twin" #182).  Seat 2 leads with nothing below the price (3Y) and 34B its
#: highest card; seat 1 holds 37R, which lies above all of seat 2's.
FIRST = {
    "rules": {"players": 3, "game": "bottle-imp"},
    "lopaka": None,
    "hands": [["2Y", "7Y", "16R", "25Y", "26R", "29R", "33R"],
              ["4B", "6B", "14R", "18Y", "22Y", "32B", "37R"],
              ["8B", "13B", "20B", "21R", "23R", "24B", "34B"]],
    "pile": ["15Y", "30B", "31R"],
    "price": "3Y",
    "owner": 2,
    "taken": [[], ["5Y", "9Y", "11R", "12Y", "35R", "36R"], ["1Y", "10B", "17B", "27B", "28Y"]],
    "leader": 2,
    "trick": [],
}
#: Its twin: seat 1 holds 35R instead (other points), 37R in its tricks; 36R,
#: the card between them, is out of play, so the cards in play show one
#: pattern but for that card's points.
TWIN = {**FIRST,
        "hands": [FIRST["hands"][0], [*FIRST["hands"][1][:-1], "35R"], FIRST["hands"][2]],
        "taken": [[], ["5Y", "9Y", "11R", "12Y", "36R", "37R"], FIRST["taken"][2]]}
#: What the reference (solver/reference.py) gives both, in about five minutes each.
VALUES = {"8B": 25, "13B": 25, "20B": 25, "21R": 30, "23R": 30, "24B": 19, "34B": 19}


def test_a_dead_cards_points_change_no_value() -> None:
    """The twins' values are one, with the technique and without it."""
    first, twin = Position.from_json(FIRST), Position.from_json(TWIN)
    deck = first.to_hand().deck
    points = {card.ascii: deck.points[card.index] for card in deck.cards}
    assert points["35R"] != points["37R"]
    for pos in (first, twin):
        for opts in (ALL, PLAIN):
            assert {c.ascii: v for c, v in solve(pos, opts).values.items()} == VALUES


def _meets_only_with(first: dict, twin: dict, without: int, saved: int, kept: int) -> None:
    """Solved right after the first, the twin takes under 1/`saved` of its
    nodes alone with every technique, and over 1/`kept` of them with the
    options `without` the one that joins them."""
    first_pos, twin_pos = Position.from_json(first), Position.from_json(twin)
    alone, after = twin_nodes(first_pos, twin_pos, ALL)
    assert after * saved < alone
    alone, after = twin_nodes(first_pos, twin_pos, without)
    assert after * kept > alone


def test_the_twin_meets_the_first_in_the_table() -> None:
    """Solved right after the first on the same table (`share`), the twin
    finds its subtrees there with the technique (its trick starts' keys are
    the first's: 118,274 nodes alone, 194 after) and searches most of them
    again without it (124,467 and 35,698)."""
    _meets_only_with(FIRST, TWIN, PLAIN, 100, 5)


#: Three players, six tricks left (sampling's "losers" #57): seat 0 leads
#: with 8S its lowest card and nothing below the price (AD, none in play).
#: Seat 1's 4S and seat 2's AS, both a point, are losers; in the twin they
#: trade places, and the losers of each hand show the same suits and points.
LOSERS_FIRST = {
    "rules": {"players": 3, "hot_bottle": False},
    "lopaka": None,
    "hands": [["8S", "9D", "10D", "QD", "QH", "QS"], ["2D", "4D", "4S", "5S", "6D", "JD"],
              ["AS", "2S", "5D", "5H", "9S", "JS"]],
    "pile": ["2H", "3D", "7S"],
    "price": "AD",
    "owner": 2,
    "taken": [["8H", "10H", "JH"], ["3S", "4H", "6H", "6S", "9H", "10S"],
              ["AH", "3H", "7D", "7H", "8D"]],
    "leader": 0,
    "trick": [],
}
LOSERS_TWIN = {**LOSERS_FIRST,
               "hands": [LOSERS_FIRST["hands"][0], ["2D", "4D", "AS", "5S", "6D", "JD"],
                         ["4S", "2S", "5D", "5H", "9S", "JS"]]}
#: The reference's values for both (about six seconds each).
LOSERS_VALUES = {"8S": 25, "9D": 30, "10D": 30, "QD": 30, "QH": 30, "QS": 30}


def test_losers_trading_places_change_no_value() -> None:
    for pos in (Position.from_json(LOSERS_FIRST), Position.from_json(LOSERS_TWIN)):
        for opts in (ALL, NO_LOSERS):
            assert {c.ascii: v for c, v in solve(pos, opts).values.items()} == LOSERS_VALUES


def test_losers_trading_places_meet_in_the_table() -> None:
    """With the technique the twin finds its subtrees (7,449 nodes alone,
    551 after the first); without it most of them are new (11,830 and
    8,222)."""
    _meets_only_with(LOSERS_FIRST, LOSERS_TWIN, NO_LOSERS, 10, 2)


#: Three players, six tricks left: seat 2 leads holding AS, below the price
#: (2D), so its own cards settle nothing; seat 0 holds nothing below it, and
#: 6D is its lowest, so every card from 2D to 5S loses.  Seat 1's 2H and
#: seat 2's 4H, both no points, trade places in the twin.
ANY_HAND_FIRST = {
    "rules": {"players": 3, "hot_bottle": False},
    "lopaka": None,
    "hands": [["6D", "7S", "9S", "10D", "JS", "QD"], ["AH", "2H", "5S", "9H", "JH", "QH"],
              ["AS", "2S", "4H", "4S", "7D", "10S"]],
    "pile": ["7H", "8H", "JD"],
    "price": "2D",
    "owner": 1,
    "taken": [["3H", "5H", "QS"], ["8D", "9D"],
              ["AD", "3D", "3S", "4D", "5D", "6H", "6S", "8S", "10H"]],
    "leader": 2,
    "trick": [],
}
ANY_HAND_TWIN = {**ANY_HAND_FIRST,
                 "hands": [ANY_HAND_FIRST["hands"][0], ["AH", "4H", "5S", "9H", "JH", "QH"],
                           ["AS", "2S", "2H", "4S", "7D", "10S"]]}
#: The reference's values (about 45 seconds each).
ANY_HAND_VALUES = ({"AS": 20, "2S": 15, "4H": 15, "4S": 15, "7D": 15, "10S": 15},
                   {"AS": 20, "2H": 15, "2S": 15, "4S": 15, "7D": 15, "10S": 15})


def test_losers_below_another_hands_lowest() -> None:
    """The losers come from any hand with nothing below the price, not only
    the root seat's: the twin meets the first (9,117 nodes alone, 159
    after) with the technique, and not without it (11,533 and 5,888)."""
    first, twin = Position.from_json(ANY_HAND_FIRST), Position.from_json(ANY_HAND_TWIN)
    for pos, values in zip((first, twin), ANY_HAND_VALUES, strict=True):
        for opts in (ALL, NO_LOSERS):
            assert {c.ascii: v for c, v in solve(pos, opts).values.items()} == values
    _meets_only_with(ANY_HAND_FIRST, ANY_HAND_TWIN, NO_LOSERS, 20, 2)


#: The Bottle Imp at six, four tricks left (sampling's "band6" #14): seat
#: 1 leads, and seat 0 holds nothing below the price (2Y), so every card
#: from the price up to its lowest, 14.5R, loses: thirteen cards of five
#: hands, the holders in no order along them.  In the twin seats 3 and 4
#: trade 10.5B and 8.5B (one suit, one point each): every hand's losers
#: show the same suits and points, in other places.
SIX_FIRST = {
    "rules": {"players": 6, "game": "bottle-imp"},
    "lopaka": None,
    "hands": [["14.5R", "21R", "23R", "31R"], ["16.5R", "20.5B", "36R", "37R"],
              ["15Y", "16R", "30B", "36.5R"], ["4B", "9Y", "10.5B", "24.5B"],
              ["8.5B", "13B", "32B", "33R"], ["26R", "26.5R", "34.5B", "35R"]],
    "pile": ["5Y", "6B", "8B", "10B", "11R", "14R"],
    "price": "2Y",
    "owner": 2,
    "taken": [[], ["2.5Y", "3Y", "6.5B", "20B", "22Y", "28.5Y"],
              ["1Y", "12Y", "18Y", "18.5Y", "29R"], ["7Y", "12.5Y", "17B", "22.5Y", "25Y", "28Y"],
              ["4.5B", "24B", "27B", "30.5B", "32.5B", "34B"], []],
    "leader": 1,
    "trick": [],
}
SIX_TWIN = {**SIX_FIRST,
            "hands": [*SIX_FIRST["hands"][:3], ["4B", "8.5B", "9Y", "24.5B"],
                      ["10.5B", "13B", "32B", "33R"], SIX_FIRST["hands"][5]]}
#: The reference's values for both (about 90 seconds each).
SIX_VALUES = {"16.5R": 54, "20.5B": 56, "36R": 36, "37R": 56}


def test_losers_of_five_hands_meet_in_the_table() -> None:
    """Six holders (three bits of holder in the keys) and a band of five
    hands' losers, written by holder, suit and points (`write_band`): the
    twin solved after the first takes 1,809 nodes against 165,462 alone;
    without the technique 103,181."""
    for pos in (Position.from_json(SIX_FIRST), Position.from_json(SIX_TWIN)):
        for opts in (ALL, NO_LOSERS):
            assert {c.ascii: v for c, v in solve(pos, opts).values.items()} == SIX_VALUES
    _meets_only_with(SIX_FIRST, SIX_TWIN, NO_LOSERS, 50, 2)


#: Two players and Lopaka (seat 0), five tricks left, 4S led (a fuzzer's
#: find).  Lopaka holds cards that would lie among the losers below seat
#: 2's lowest card; his policy compares them with the card winning so far,
#: which may be one of those losers, so where each lies matters to him.
#: The losers end below his lowest card at or above the price: with them
#: running up to seat 2's lowest instead, 5S was valued 11.
LOPAKA = {
    "rules": {"players": 2, "hot_bottle": True},
    "lopaka": 0,
    "hands": [["2D", "3D", "4H", "5D", "7H", "8D"], ["AD", "6D", "9D", "JS", "QD"],
              ["3S", "4D", "5S", "7D", "7S", "10D"]],
    "pile": ["10S", "QH", "QS"],
    "price": "5H",
    "owner": 0,
    "taken": [["2H", "3H", "8S", "9S", "JD"],
              ["AH", "AS", "2S", "6H", "6S", "8H", "9H", "10H", "JH"], []],
    "leader": 1,
    "trick": ["4S"],
}


def test_losers_end_below_lopakas_cards() -> None:
    pos = Position.from_json(LOPAKA)
    _, reference, _ = reference_solve(pos.to_hand())
    assert {c.ascii: v for c, v in reference.items()} == {"3S": 10, "5S": 15, "7S": 11}
    assert solve(pos, ALL).values == reference

#: Devil's Eye, five tricks left (a fuzzer's find).  A seat plays its two
#: cards a trick from either hand, so the losers lie below a seat's lowest
#: card, and only a hand's own losers of one suit and points play alike:
#: with those of both hands of seat 0 merged, 15Y (in its second hand) was
#: valued 53.
DEVILS_EYE = {
    "rules": {"players": 2, "game": "bottle-imp"},
    "lopaka": None,
    "hands": [["8B", "21R", "35R"], ["10B", "13B", "14R", "15Y", "23R", "25Y", "28Y"],
              ["16R", "18Y", "22Y", "32B", "37R"], ["1Y", "9Y", "11R", "31R", "33R"]],
    "pile": ["4B", "24B", "26R", "29R"],
    "price": "6B",
    "owner": 0,
    "taken": [["2Y", "3Y", "5Y", "7Y", "12Y", "17B", "20B", "27B", "30B", "34B", "36R"], []],
    "leader": 0,
    "trick": [],
}
#: The reference's values (about five minutes).
DEVILS_EYE_VALUES = {"8B": 53, "10B": 53, "13B": 53, "14R": 58, "15Y": 57, "21R": 57,
                     "23R": 58, "25Y": 58, "28Y": 58, "35R": 42}


def test_losers_of_a_devils_eye_seat() -> None:
    pos = Position.from_json(DEVILS_EYE)
    for opts in (ALL, NO_LOSERS, PLAIN):
        assert {c.ascii: v for c, v in solve(pos, opts).values.items()} == DEVILS_EYE_VALUES

#: Four players, five tricks left (a fuzzer's find).  Seat 2 holds AD and 2S
#: below the price (4H), and 4S just above it.  2S is not the lowest card
#: below the price: once a trick is bought with a card below it the price
#: falls below 2S, and seat 2 may then play it under a card that would
#: have been called a loser.  Only a hand with no card below the price but
#: the lowest bounds the losers: with seat 2's 4S bounding them, 8D was
#: valued 22.
BELOW = {
    "rules": {"players": 4, "hot_bottle": False},
    "lopaka": None,
    "hands": [["7S", "8D", "9H", "10H", "JS"], ["2H", "6D", "7D", "9D", "10S"],
              ["AD", "2S", "4S", "6H", "8H"], ["3H", "3S", "9S", "10D", "JH"]],
    "pile": ["AH", "AS", "2D", "JD"],
    "price": "4H",
    "owner": 0,
    "taken": [["5H", "7H", "QH"], [], ["3D", "4D", "5D", "QD"], ["5S", "6S", "8S", "QS"]],
    "leader": 0,
    "trick": [],
}


def test_a_card_below_the_price_may_rise_above_it() -> None:
    pos = Position.from_json(BELOW)
    _, reference, _ = reference_solve(pos.to_hand())
    assert {c.ascii: v for c, v in reference.items()} == {
        "7S": 8, "8D": 16, "9H": 8, "10H": 8, "JS": 8}
    assert solve(pos, ALL).values == reference

def _positions(rules: Rules, count: int, seed: str) -> list[Position]:
    """Random positions with at most 18 cards in play (15 where the tree is wide)."""
    wide = rules.holders >= 5 or rules.devils_eye or rules.teams or rules.second_bottle
    left = (15 if wide else 18) // rules.holders
    rng = random.Random(f"dead:{seed}")
    return [random_position(rules, rng, left, in_trick=i % rules.holders) for i in range(count)]


@pytest.mark.parametrize("rules", [r for r in CONFIGS if not r.second_bottle], ids=config_id)
def test_dead_cards_and_losers_change_no_value(rules: Rules) -> None:
    for pos in _positions(rules, 6, config_id(rules)):
        values = solve(pos, ALL).values
        assert values == solve(pos, PLAIN).values
        assert values == solve(pos, NO_LOSERS).values


def test_dead_cards_save_nodes() -> None:
    """The Bottle Imp at three, eight tricks left, where points vary most."""
    rng = random.Random("dead:nodes")
    positions = [random_position(Rules(3, edition=Edition.BOTTLE_IMP), rng, 8, in_trick=0)
                 for _ in range(12)]
    with_dead = sum(solve(pos, ALL).nodes for pos in positions)
    without = sum(solve(pos, PLAIN).nodes for pos in positions)
    assert with_dead < without


def test_losers_save_nodes() -> None:
    """Cursed Bottle at four, six tricks left: a tenth of the nodes at least."""
    rng = random.Random("losers:nodes")
    positions = [random_position(Rules(4), rng, 6, in_trick=0) for _ in range(12)]
    with_losers = sum(solve(pos, ALL).nodes for pos in positions)
    without = sum(solve(pos, NO_LOSERS).nodes for pos in positions)
    assert with_losers < 0.9 * without
