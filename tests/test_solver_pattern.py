"""The table key's pattern (`pattern` in solver/_search.pyx): the cards in
play by holder, suit and points in order, nothing of which cards they are.

Two positions whose cards in play show one pattern must meet in the table, in
every rule set that uses the pattern (the second bottle's keys are exact).
The twin of a position swaps one card in play for a card out of play of the
same suit and points that no card in play, nor the price, separates from it:
solved right after the position on the same table (`share`), it must find
most of its subtrees there, far more than with the exact key.
"""

from __future__ import annotations

import json
import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.position import Position
from cursedbottle.engine.rules import Rules
from cursedbottle.solver import _search, solve
from cursedbottle.solver.api import release_table
from cursedbottle.solver.sampling import random_position

PATTERN = _search.ALL_OPTIONS
EXACT = _search.ALL_OPTIONS & ~_search.OPTIONS["canon"]


def _twin(pos: Position) -> Position | None:
    data, deck = pos.to_json(), pos.to_hand().deck
    place = {card.ascii: i for i, card in enumerate(deck.cards)}
    inplay = {c for hand in data["hands"] for c in hand}
    price = place[data["price"]]
    out = sorted({c for taken in data["taken"] for c in taken} | set(data["pile"]), key=place.get)
    for y in sorted(inplay, key=place.get):
        for x in out:
            i, j = place[x], place[y]
            lo, hi = min(i, j), max(i, j)
            if (deck.points[i], deck.suit_of[i]) != (deck.points[j], deck.suit_of[j]):
                continue
            if lo < price < hi or any(lo < place[c] < hi for c in inplay):
                continue
            swap = {x: y, y: x}
            twin = json.loads(json.dumps(data))
            for name in ("hands", "taken"):
                twin[name] = [[swap.get(c, c) for c in cards] for cards in twin[name]]
            twin["pile"] = [swap.get(c, c) for c in twin["pile"]]
            return Position.from_json(twin)
    return None


def _after(first: Position, twin: Position, opts: int) -> int:
    release_table()
    solve(first, opts)
    return solve(twin, opts).nodes


#: Lopaka's positions are left out only to keep the twin simple (his cards
#: take part like anyone's); the second bottle's keys are exact.
@pytest.mark.parametrize("rules", [r for r in CONFIGS if not r.second_bottle and not r.lopaka],
                         ids=config_id)
def test_a_twin_with_the_same_pattern_meets_the_position_in_the_table(rules: Rules) -> None:
    rng = random.Random(f"pattern:{config_id(rules)}")
    left = (24 if rules.holders <= 4 else 20) // rules.holders
    for _ in range(200):
        first = random_position(rules, rng, left, in_trick=0)
        twin = _twin(first)
        if twin is None or first.lopaka is not None:
            continue
        release_table()
        alone = solve(twin, PATTERN)
        if alone.nodes < 2000:
            continue
        after = _after(first, twin, PATTERN)
        assert solve(twin, PATTERN).values == alone.values
        assert after * 2 < alone.nodes
        assert after * 2 < _after(first, twin, EXACT)
        return
    pytest.fail("no position with a twin and 2,000 nodes was drawn")
