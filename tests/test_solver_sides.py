"""A side of two (the Bottle Imp's team mode) in the paranoid search: its own
static bounds (`side_bounds`) and, once the side's ending is settled
(`side_endings`), table values stored less the fixed part of the points taken.

The values must be those of the search without either technique and of the
reference; a settled side must meet in the table whatever split of the points
taken between the partners led there, and never where the split matters; and
the bounds must save nodes.
"""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.position import Position
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.solver import _search, solve
from cursedbottle.solver.api import release_table
from cursedbottle.solver.reference import reference_solve
from cursedbottle.solver.sampling import random_position
from switch_support import fresh_solve

TEAM_RULES = [r for r in CONFIGS if r.teams and not r.second_bottle]
DEFAULT = _search.ALL_OPTIONS


def _positions(rules: Rules, count: int, seed: str, left: int,
               starts: bool = False) -> list[Position]:
    """Random positions, in every place of a trick (`starts`: at its start only)."""
    rng = random.Random(f"sides:{seed}")
    return [random_position(rules, rng, left, in_trick=0 if starts else i % rules.holders)
            for i in range(count)]


def _root(pos: Position) -> int:
    hand = pos.to_hand()
    return hand.holder_seat[hand.holder_to_play()]


def _partner(pos: Position) -> int | None:
    mates = [s for s in pos.to_hand().rules.side_of[_root(pos)] if s != _root(pos)]
    return mates[0] if mates else None


def _below(pos: Position) -> dict[int, bool]:
    """Per seat, whether it holds a card below the price (at a trick's start)."""
    hand = pos.to_hand()
    below = (1 << hand.price) - 1
    out = dict.fromkeys(range(hand.rules.seats), False)
    for i, held in enumerate(hand.holdings):
        out[hand.holder_seat[i]] |= bool(held & below)
    return out


def _settled_free(pos: Position) -> bool:
    """Whether the side to move can no longer end owning the bottle, at the
    start of a trick: no member holds a card below the price, and someone
    else does, or nobody does and no member owns."""
    hand = pos.to_hand()
    side = hand.rules.side_of[_root(pos)]
    below = _below(pos)
    ours = any(below[s] for s in side)
    theirs = any(v for s, v in below.items() if s not in side)
    return not hand.trick and not ours and (theirs or hand.owner not in side)


def _one_member_can_own(pos: Position) -> bool:
    """Whether the bottle is open for the side and one member can no longer
    end owning it (it holds no card below the price; its partner and one of
    the others do)."""
    below = _below(pos)
    root, partner = _root(pos), _partner(pos)
    if partner is None:
        return False
    others = any(v for s, v in below.items() if s not in (root, partner))
    return not pos.to_hand().trick and others and below[root] != below[partner]


def _moved(pos: Position) -> Position | None:
    """The position with one card of the points taken moved from one partner
    to the other (None: a seat alone, or neither took anything)."""
    partner = _partner(pos)
    if partner is None:
        return None
    data = pos.to_json()
    root = _root(pos)
    src, dst = (root, partner) if data["taken"][root] else (partner, root)
    if not data["taken"][src]:
        return None
    taken = [list(t) for t in data["taken"]]
    taken[dst].append(taken[src].pop())
    data["taken"] = taken
    return Position.from_json(data)


def _twins_meet_rightly(positions: list[Position]) -> int:
    """Solve each position, then its twin (`_moved`) on the same table: the
    twin must get the values it gets alone.  Returns how many twins there were."""
    twins = 0
    for pos in positions:
        twin = _moved(pos)
        if twin is None:
            continue
        twins += 1
        release_table()
        alone = solve(twin).values
        release_table()
        solve(pos)
        assert solve(twin).values == alone, pos.to_json()
    return twins


@pytest.mark.parametrize("name", ["bounds", "settled", "gallop", "team-killer", "side-low"])
@pytest.mark.parametrize("rules", TEAM_RULES, ids=config_id)
def test_side_techniques_change_no_value(rules: Rules, name: str) -> None:
    for pos in _positions(rules, 6, config_id(rules), 3):
        values = solve(pos).values
        assert solve(pos, DEFAULT & ~_search.OPTIONS[name]).values == values
        assert reference_solve(pos.to_hand())[1] == values


@pytest.mark.parametrize("rules", TEAM_RULES, ids=config_id)
def test_a_split_of_the_points_taken_meets_only_where_it_does_not_matter(rules: Rules) -> None:
    """Each position, then its twin with one card of the points taken moved
    to the partner, on one table: the twin gets the values it gets alone
    (moved points change a free side's score by nothing, an owning member's
    side by the card's points one way or the other)."""
    assert _twins_meet_rightly(_positions(rules, 16, f"split:{config_id(rules)}", 3)) >= 8


def test_a_settled_free_side_meets_in_the_table_whatever_the_split() -> None:
    """Where only the others can still own the bottle, the twin solved after
    its position costs a fraction of its nodes alone, and is worth the same."""
    rules = Rules(4, edition=Edition.BOTTLE_IMP, teams=True)
    alone_nodes = after_nodes = 0
    for pos in _positions(rules, 40, "free", 5, starts=True):
        twin = _moved(pos)
        if twin is None or not _settled_free(pos):
            continue
        release_table()
        alone = solve(twin)
        release_table()
        first = solve(pos)
        after = solve(twin)
        assert after.values == alone.values == first.values
        alone_nodes += alone.nodes
        after_nodes += after.nodes
    assert alone_nodes > 0
    assert after_nodes < 0.2 * alone_nodes


@pytest.mark.parametrize("rules", TEAM_RULES, ids=config_id)
def test_a_member_that_cannot_own_keeps_its_partners_points_in_the_key(rules: Rules) -> None:
    """Where one member can no longer end owning, the values are stored less
    its points: the twin, whose partner took a card more, must not meet its
    position's entries (its score differs by that card where the partner
    ends owning, and by nothing where the side ends free)."""
    positions = _positions(rules, 60, f"member:{config_id(rules)}", 4, starts=True)
    assert _twins_meet_rightly([p for p in positions if _one_member_can_own(p)]) >= 4


def test_side_bounds_save_nodes() -> None:
    """Team mode at four, five tricks left: the side's bounds save a fifth of
    the nodes at least."""
    rules = Rules(4, edition=Edition.BOTTLE_IMP, teams=True)
    positions = _positions(rules, 10, "nodes", 5)
    with_bounds = sum(fresh_solve(pos, DEFAULT).nodes for pos in positions)
    without = sum(fresh_solve(pos, DEFAULT & ~_search.OPTIONS["bounds"]).nodes for pos in positions)
    assert with_bounds < 0.8 * without


@pytest.mark.parametrize(("name", "share"), [("team-killer", 0.9), ("side-low", 0.97)])
def test_team_orderings_save_nodes(name: str, share: float) -> None:
    """Team mode at four, seven tricks left: killer moves, and the lowest card
    first while the side's ending (not the root seat's alone) is open, each
    save nodes (measured on these positions: 23 % and 6 %)."""
    rules = Rules(4, edition=Edition.BOTTLE_IMP, teams=True)
    positions = _positions(rules, 16, "orderings", 7, starts=True)
    with_it = sum(fresh_solve(pos, DEFAULT).nodes for pos in positions)
    without = sum(fresh_solve(pos, DEFAULT & ~_search.OPTIONS[name]).nodes for pos in positions)
    assert with_it < share * without, (with_it, without)


def test_killer_moves_only_in_team_mode_at_four() -> None:
    """At five and six players they cost nodes (measured): switching
    `team-killer` off there changes nothing, not even the nodes."""
    for rules in TEAM_RULES:
        if rules.holders == 4:
            continue
        without = DEFAULT & ~_search.OPTIONS["team-killer"]
        for pos in _positions(rules, 4, f"killer:{config_id(rules)}", 4, starts=True):
            assert fresh_solve(pos, DEFAULT).nodes == fresh_solve(pos, without).nodes
