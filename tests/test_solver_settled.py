"""The bottle's ending settled without search (`settled`, solver/_search.pyx
`ending`): while only one side holds cards below the price, the first trick
to hold one sells the bottle to that side, and nobody can buy it back; and
(`outnumber`) a seat whose lowest such card the others outnumber ends free;
and an owner settled free has the quick tricks' bounds, its price card back.

Each case is checked against the reference (plain minimax over the engine),
with the technique on and off, and for the outcome the argument predicts."""

from __future__ import annotations

import pytest
from cursedbottle.engine.position import Position
from cursedbottle.engine.rules import Rules
from cursedbottle.solver import solve
from cursedbottle.solver._search import ALL_OPTIONS, OPTIONS
from cursedbottle.solver.api import static_bounds
from cursedbottle.solver.reference import reference_solve

DECK = [card.ascii for card in Rules(3).deck.cards]


def _position(hands: list[list[str]], owner: int, hot: bool, price: str = "4D") -> Position:
    """Three players, seat 0 to lead, the price (4♦) owned by `owner`; every
    card not in a hand, the pile or the price lies in someone's tricks."""
    pile = ["5D", "5H", "5S"]
    used = {c for h in hands for c in h} | set(pile) | {price}
    rest = [c for c in DECK if c not in used]
    return Position.from_json({
        "rules": {"players": 3, "hot_bottle": hot},
        "lopaka": None,
        "hands": hands,
        "pile": pile,
        "price": price,
        "owner": owner,
        "taken": [rest[0::3], rest[1::3], rest[2::3]],
        "leader": 0,
        "trick": [],
    })


def _values(pos: Position, opts: int) -> dict[str, int]:
    return {c.ascii: v for c, v in solve(pos, opts).values.items()}


@pytest.mark.parametrize("hot", [False, True], ids=["plain", "hot"])
def test_an_owner_without_a_card_below_the_price_is_bought_from(hot: bool) -> None:
    # Seat 0 owns and holds nothing below 4♦; seat 1's 2♥ must buy when played.
    pos = _position([["8D", "10H", "QS"], ["2H", "9D", "JH"], ["6S", "7H", "10S"]], 0, hot)
    want = {c.ascii: v for c, v in reference_solve(pos.to_hand())[1].items()}
    taken = pos.to_hand().deck.points_of(pos.to_hand().taken[0])
    assert _values(pos, ALL_OPTIONS) == want
    assert _values(pos, ALL_OPTIONS & ~OPTIONS["settled"]) == want
    # It ends free: its tricks count, the price card comes back to it.
    assert min(want.values()) >= taken + 1


@pytest.mark.parametrize("hot", [False, True], ids=["plain", "hot"])
def test_the_only_seat_with_a_card_below_the_price_ends_the_owner(hot: bool) -> None:
    # Seat 1 owns; only seat 0 holds a card below 4♦ (3♠): it buys, for good.
    pos = _position([["3S", "10H", "QS"], ["8D", "9D", "JH"], ["6S", "7H", "10S"]], 1, hot)
    hand = pos.to_hand()
    want = {c.ascii: v for c, v in reference_solve(hand)[1].items()}
    assert _values(pos, ALL_OPTIONS) == want
    assert _values(pos, ALL_OPTIONS & ~OPTIONS["settled"]) == want
    if hot:
        assert max(want.values()) <= -hand.pile_points() - hand.deck.points_of(hand.taken[0])
    else:
        assert set(want.values()) == {-hand.pile_points()}


@pytest.mark.parametrize("hot", [False, True], ids=["plain", "hot"])
def test_a_seat_outnumbered_below_its_lowest_card_below_the_price_ends_free(hot: bool) -> None:
    # Below 6♠ seat 0 holds only 6♥; the others hold five cards below it,
    # more than the one trick (two of theirs in it) its one card could sweep.
    hands = [["6H", "10H", "QS"], ["AD", "2D", "JH"], ["AH", "2H", "3D"]]
    pos = _position(hands, 1, hot, price="6S")
    hand = pos.to_hand()
    want = {c.ascii: v for c, v in reference_solve(hand)[1].items()}
    assert _values(pos, ALL_OPTIONS) == want
    assert _values(pos, ALL_OPTIONS & ~OPTIONS["outnumber"]) == want
    assert min(want.values()) >= hand.deck.points_of(hand.taken[0])


@pytest.mark.parametrize("hot", [False, True], ids=["plain", "hot"])
def test_an_owner_bought_from_has_quick_tricks_and_its_price_card_back(hot: bool) -> None:
    # Seat 0 owns 4♦ and holds nothing below it: seat 1's 2♥ and 3♦ buy, so it
    # ends free with 4♦ back, and its cards, all above every other card, win
    # their tricks but for the two that the buys may take (no search needed).
    hands = [["QS", "QH", "JS", "10D"], ["2H", "3D", "6D", "7S"], ["6S", "7H", "8S", "9D"]]
    pos = _position(hands, 0, hot)
    hand = pos.to_hand()
    want = reference_solve(hand)[1]
    taken = hand.deck.points_of(hand.taken[0])
    back = hand.deck.points[hand.price_card]
    lo, hi = static_bounds(pos)
    assert lo <= min(want.values()) and max(want.values()) <= hi
    assert static_bounds(pos, ALL_OPTIONS & ~OPTIONS["quick"]) == (taken + back, hi)
    # Two tricks won, with at least its two lowest (10♦ J♠: 3 points each)
    # and two of each other hand's lowest (2♥ 3♦: 1 each; 6♠ 7♥: 2 each).
    assert lo == taken + back + 6 + 2 + 4
    assert _values(pos, ALL_OPTIONS) == {c.ascii: v for c, v in want.items()}
    assert _values(pos, ALL_OPTIONS & ~OPTIONS["quick"]) == {c.ascii: v for c, v in want.items()}
