"""The transposition table starts small and grows as a solve fills it.

A table of 2^22 entries (200 MB) probed at random touches every page of it,
and the first touch of a page costs more than a small search (solver/README.md,
"The table grows"): a solve must leave behind a table sized to its search,
and a table grown in the middle of a search, its entries moved, must give
exactly the values of one that was big from the start, in every rule set and
both models, and keep the work its entries save.
"""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.hand import Hand
from cursedbottle.engine.rules import Rules
from cursedbottle.solver import Model, _search, solve_hand
from cursedbottle.solver.api import release_table
from cursedbottle.solver.sampling import random_hand, random_position

#: The cap of the tests' solves (2^BITS entries), and a start so small that
#: the table grows several times within one small search.
BITS = 18
TINY = 4


def _positions(rules: Rules, model: Model, count: int) -> list[Hand]:
    """Positions big enough to fill a tiny table many times over, small
    enough for the test, reached by random play (engine Hands: the second
    bottle has no position format)."""
    wide = rules.holders >= 5 or rules.devils_eye or rules.teams or rules.second_bottle
    left = 3 if wide or model is Model.MAXN else 5
    rng = random.Random(f"table:{config_id(rules)}:{model.value}")
    out = []
    for _ in range(count):
        out.append(random_hand(rules, rng, left))
    return out


@pytest.mark.parametrize("model", list(Model), ids=lambda m: m.value)
@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_a_table_grown_mid_search_gives_the_same_values(rules: Rules, model: Model):
    grown_nodes = big_nodes = 0
    for hand in _positions(rules, model, 6):
        grown = solve_hand(hand, model=model, tt_bits=BITS, tt_start_bits=TINY,
                           tables=_search.SearchTables())
        big = solve_hand(hand, model=model, tt_bits=BITS, tt_start_bits=BITS,
                         tables=_search.SearchTables())
        assert grown.values == big.values
        grown_nodes += grown.nodes
        big_nodes += big.nodes
    # The entries are moved, not dropped: a table that lost them at each
    # growth would search the same subtrees again.
    assert grown_nodes <= 1.2 * big_nodes, (grown_nodes, big_nodes)


def test_a_small_solve_leaves_a_small_table():
    """A late position allowed the biggest table still touches a small one."""
    release_table()
    rng = random.Random("table:small")
    hand = random_position(Rules(3), rng, 2, in_trick=0).to_hand()
    solve_hand(hand, tt_bits=22)
    assert 0 < _search.table_entries() <= 1 << 16
    release_table()
    assert _search.table_entries() == 0


def test_a_big_solve_grows_the_kept_table_to_its_cap_at_most():
    """A first lead fills more than the first size: the kept table grows,
    never past the solve's cap, and the next solve keeps it."""
    release_table()
    rng = random.Random("table:big")
    hand = random_position(Rules(4), rng, 8, in_trick=0).to_hand()
    solve_hand(hand, tt_bits=17, tt_start_bits=10)
    grown = _search.table_entries()
    assert 1 << 10 < grown <= 1 << 17
    small = random_position(Rules(4), rng, 2, in_trick=0).to_hand()
    solve_hand(small, tt_bits=12)
    assert _search.table_entries() == grown
    release_table()


@pytest.mark.parametrize("start, cap", [(0, 16), (31, 16), (4, 31), (-1, 12), (4, 0)])
def test_a_table_size_out_of_range_is_refused_by_name(start: int, cap: int):
    """(A start above the cap is the cap: a small endgame keeps the default start.)"""
    hand = random_position(Rules(3), random.Random("table:bad"), 2, in_trick=0).to_hand()
    with pytest.raises(ValueError, match="tt_bits and tt_start_bits"):
        solve_hand(hand, tt_bits=cap, tt_start_bits=start)
    assert solve_hand(hand, tt_bits=4, tt_start_bits=16).values == solve_hand(hand).values
