"""Runs (`runs`): two cards of one holder play alike when only that holder's
own cards lie between them in the order, and a table key writes such a run
in one order of its own (the paranoid search).

The values must be those of the search without it, in every rule set; the
technique must save nodes; and neither Lopaka's cards, which his policy
compares with each other, nor cards below the price, which a buy compares
with each other, may ever count as a run.
"""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.position import Position
from cursedbottle.engine.rules import Rules
from cursedbottle.solver import _search, solve
from cursedbottle.solver.api import release_table
from cursedbottle.solver.sampling import random_position

RUNS = _search.ALL_OPTIONS
PLAIN = _search.ALL_OPTIONS & ~_search.OPTIONS["runs"]

#: Eight tricks left of a hand with Lopaka (seat 1), whose 7♥ 7♠ lie next to
#: each other among the cards in play: his policy plays his highest or lowest
#: legal card, so which suit lies where decides his play.  A key that wrote
#: his runs in an order of its own valued 10♠ and J♠ at 32 here, not 31.
LOPAKA_RUNS = {
    "rules": {"players": 2, "hot_bottle": False},
    "lopaka": 1,
    "hands": [["3H", "5H", "6S", "8H", "10H", "10S", "JS", "QH"],
              ["AD", "AH", "2D", "4S", "5S", "7H", "7S", "8S"],
              ["AS", "2H", "3D", "5D", "8D", "9S", "10D", "JD"]],
    "pile": ["4D", "6H", "7D"],
    "price": "3S",
    "owner": 0,
    "taken": [["2S", "6D", "9D", "QD", "QS"], ["4H", "9H", "JH"], []],
    "leader": 0,
    "trick": [],
}


#: Two positions that differ only in which of seat 1's two cards below the
#: price, next to each other in the order, is the diamond: A♦ 2♥ here, A♥ 2♦
#: in its twin (the other two in the pile).  The lower one, when it buys,
#: leaves the other above the price or below it by its suit, so the two
#: must not meet in the table as a run would make them.
BELOW_PRICE_TWIN = {
    "rules": {"players": 3, "hot_bottle": False},
    "lopaka": None,
    "hands": [["2S", "5H", "6S", "7H", "QH"], ["AD", "2H", "7D", "8D", "9H"],
              ["3H", "6H", "9D", "10H", "JS"]],
    "pile": ["AH", "2D", "7S"],
    "price": "3D",
    "owner": 1,
    "taken": [["AS", "3S", "4D", "4H", "4S", "5D", "6D", "8H", "8S", "9S", "10D", "JH"],
              ["JD", "QD"], ["5S", "10S", "QS"]],
    "leader": 0,
    "trick": [],
}


def _twin(position: dict) -> dict:
    swap = {"AD": "AH", "AH": "AD", "2H": "2D", "2D": "2H"}
    out = dict(position)
    out["hands"] = [[swap.get(c, c) for c in hand] for hand in position["hands"]]
    out["pile"] = [swap.get(c, c) for c in position["pile"]]
    return out


def _positions(rules: Rules, count: int, seed: str) -> list[Position]:
    """Random positions with at most 18 cards in play (15 where the tree is wide)."""
    wide = rules.holders >= 5 or rules.devils_eye or rules.teams or rules.second_bottle
    left = (15 if wide else 18) // rules.holders
    rng = random.Random(f"runs:{seed}")
    return [random_position(rules, rng, left, in_trick=i % rules.holders) for i in range(count)]


def test_lopakas_cards_are_never_a_run() -> None:
    pos = Position.from_json(LOPAKA_RUNS)
    values = solve(pos, RUNS).values
    assert values == solve(pos, PLAIN).values
    assert {c.ascii: v for c, v in values.items()}["10S"] == 31


#: (A position holds one bottle: the second bottle's keys are exact anyway.)
def test_cards_below_the_price_are_never_a_run() -> None:
    """The twin solved right after the position, on the same table (`share`),
    gets the values it gets alone."""
    first, twin = Position.from_json(BELOW_PRICE_TWIN), Position.from_json(_twin(BELOW_PRICE_TWIN))
    release_table()
    alone = solve(twin).values
    release_table()
    solve(first)
    assert solve(twin).values == alone
    assert {c.ascii: v for c, v in alone.items()}["2S"] == 32


@pytest.mark.parametrize("rules", [r for r in CONFIGS if not r.second_bottle], ids=config_id)
def test_runs_change_no_value(rules: Rules) -> None:
    for pos in _positions(rules, 6, config_id(rules)):
        assert solve(pos, RUNS).values == solve(pos, PLAIN).values


def test_runs_save_nodes() -> None:
    """Where the points decide (three players, seven tricks left), runs save a
    tenth of the nodes at least."""
    rng = random.Random("runs:nodes")
    positions = [random_position(Rules(3), rng, 7, in_trick=0) for _ in range(12)]
    with_runs = sum(solve(pos, RUNS).nodes for pos in positions)
    without = sum(solve(pos, PLAIN).nodes for pos in positions)
    assert with_runs < 0.9 * without


def _run_twins(price: str, low_card: str) -> tuple[dict, dict]:
    """Seat 0 holds 4♦ 4♥ with 3♥ and 3♠ out of play, and in the twin 3♥ 4♦
    with 4♥ out: a run of two suits, written in one order in both.  Seat 2's
    last card (`low_card`) and the price decide whether the bottle is still
    to be placed."""
    cards = [f"{r}{s}" for r in ("A", *map(str, range(2, 11)), "J", "Q") for s in "DHS"]
    hands = [["4D", "4H", "8D", "9S", "10S", "QH"], ["2D", "6D", "6H", "9H", "10D", "QD"],
             ["3D", "5H", "5S", "JS", "QS", low_card]]
    pile = ["5D", "JD", "8S"]
    used = {c for hand in hands for c in hand} | set(pile) | {"3H", price}
    rest = [c for c in cards if c not in used]
    first = {"rules": {"players": 3, "hot_bottle": False}, "lopaka": None, "hands": hands,
             "pile": pile, "price": price, "owner": 2,
             "taken": [rest[:5], rest[5:10], [*rest[10:], "3H"]], "leader": 1, "trick": []}
    swap = {"4H": "3H", "3H": "4H"}
    twin = dict(first)
    twin["hands"] = [[swap.get(c, c) for c in hand] for hand in hands]
    twin["taken"] = [[swap.get(c, c) for c in taken] for taken in first["taken"]]
    return first, twin


@pytest.mark.parametrize("price, low_card", [("AD", "2S"), ("2S", "AH")],
                         ids=["bottle-settled", "bottle-open"])
def test_a_run_of_two_suits_meets_its_twin_in_the_table(price: str, low_card: str) -> None:
    """The twin solved right after the position, on the same table (`share`),
    finds nearly every subtree there: its key wrote the run as the first's.
    (Without runs it searches a half and a tenth of what it searches alone;
    with a key that broke runs where the suit changes, as one draft did,
    the same.)"""
    first, twin = (Position.from_json(p) for p in _run_twins(price, low_card))
    release_table()
    alone = solve(twin)
    release_table()
    solve(first)
    after = solve(twin)
    assert after.values == alone.values
    assert after.nodes * 20 < alone.nodes
