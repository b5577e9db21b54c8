"""A kept table's entries serve the next solve of the same context (`share`).

Solved in a row on one table, the positions of one hand (a review) and
positions of different deals with the same dealer (a decision's guessed
deals: other piles, other hidden cards) must get exactly the values each
gets alone on a fresh table without sharing, in every rule set and both
models; and sharing must actually save work where a hand is reviewed.
"""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.events import Phase
from cursedbottle.engine.hand import Hand, random_deal
from cursedbottle.engine.position import Position
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.solver import Model, _search, solve_hand
from cursedbottle.solver.sampling import random_position
from stopping_support import big_hands, stop_midway

SHARE = _search.ALL_OPTIONS
ALONE = _search.ALL_OPTIONS & ~_search.OPTIONS["share"]


def _most_cards(rules: Rules, model: Model) -> int:
    """Cards in play up to which a position is cheap enough for the test."""
    wide = rules.holders >= 5 or rules.devils_eye or rules.teams or rules.second_bottle
    if model is Model.MAXN:
        return 10 if wide else 12
    return 15 if wide else 18


def _hand_positions(rules: Rules, rng: random.Random, dealer: int, most: int) -> list[Hand]:
    """Every position of one random hand from `most` cards in play on."""
    hand = Hand(rules, dealer, *random_deal(rules, rng, dealer))
    out = []
    while not hand.is_over:
        if hand.phase is Phase.PLAY and sum(map(int.bit_count, hand.holdings)) <= most:
            out.append(hand.copy())
        hand.apply(rng.choice(hand.legal_actions()))
    return out


def _in_a_row(hands: list[Hand], model: Model, opts: int) -> tuple[list[dict], int]:
    tables = _search.SearchTables()
    solved = [solve_hand(h, opts=opts, model=model, tables=tables) for h in hands]
    return [s.values for s in solved], sum(s.nodes for s in solved)


def _alone(hands: list[Hand], model: Model) -> list[dict]:
    return [solve_hand(h, opts=ALONE, model=model, tables=_search.SearchTables()).values
            for h in hands]


@pytest.mark.parametrize("model", list(Model), ids=lambda m: m.value)
@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_solves_in_a_row_share_nothing_false(rules: Rules, model: Model):
    rng = random.Random(f"share:{config_id(rules)}:{model.value}")
    most = _most_cards(rules, model)
    dealer = rng.randrange(rules.seats)
    review = _hand_positions(rules, rng, dealer, most)[::2]
    # Other deals, the same dealer: one context, other piles and holdings.
    deals = [rng.choice(_hand_positions(rules, rng, dealer, most)) for _ in range(6)]
    for hands in (review, deals):
        values, _ = _in_a_row(hands, model, SHARE)
        assert values == _alone(hands, model)


def test_a_review_reuses_the_entries_of_the_positions_before():
    """One hand's positions in a row on one table, each a subtree of the one
    before: fewer nodes than each on a table of its own (0.92 of them here;
    0.82-0.97 over other seeds, issue 17, eighteenth part)."""
    rules = Rules(3)
    rng = random.Random("share:review")
    hands = _hand_positions(rules, rng, 0, 24)
    shared, nodes_shared = _in_a_row(hands, Model.PARANOID, SHARE)
    alone, nodes_alone = _in_a_row(hands, Model.PARANOID, ALONE)
    assert shared == alone
    assert nodes_shared < 0.95 * nodes_alone


def test_the_hot_bottle_and_the_plain_one_in_turn():
    """The same positions under the hot bottle and without (one seed, so one
    deal and the same plays, every key alike), solved in turn on one table:
    each gets the values it gets alone."""
    plains = _hand_positions(Rules(3), random.Random("share:hot"), 1, 21)
    hots = _hand_positions(Rules(3, hot_bottle=True), random.Random("share:hot"), 1, 21)
    for plain, hot in zip(plains, hots, strict=True):
        assert plain.holdings == hot.holdings and plain.taken == hot.taken
    alone = _alone(plains + hots, Model.PARANOID)
    # Where a value differs, and the search had to search (more than one legal card).
    differ = [i for i in range(len(plains))
              if alone[i] != alone[len(plains) + i] and len(alone[i]) > 1]
    assert differ, "no position where the hot bottle changes a value"
    row = [h for i in differ for h in (plains[i], hots[i], plains[i])]
    values, _ = _in_a_row(row, Model.PARANOID, SHARE)
    assert values == _alone(row, Model.PARANOID)


def _other_pile(pos: Position, rng: random.Random) -> Position | None:
    """The same cards in play, another pile: a pile card swapped with a card
    of another points value in the tricks of a seat that is not to move."""
    hand = pos.to_hand()
    mover = hand.holder_seat[hand.holder_to_play()]
    for seat in rng.sample(range(pos.seats), pos.seats):
        if seat == mover:
            continue
        for a in pos.pile:
            for b in pos.taken[seat]:
                if a.points != b.points:
                    pile = [b if c == a else c for c in pos.pile]
                    taken = [list(t) for t in pos.taken]
                    taken[seat] = [a if c == b else c for c in taken[seat]]
                    return Position.build(pos.rules, pos.hands, pile, pos.price, pos.owner,
                                          taken, pos.leader, pos.trick, pos.lopaka, pos.open)
    return None


PILE_CASES = [
    (Rules(3), Model.PARANOID),
    (Rules(3, hot_bottle=True), Model.PARANOID),
    (Rules(4, edition=Edition.BOTTLE_IMP, teams=True), Model.PARANOID),
    (Rules(3), Model.MAXN),
    (Rules(4, edition=Edition.BOTTLE_IMP, teams=True), Model.MAXN),
]


@pytest.mark.parametrize(("rules", "model"), PILE_CASES,
                         ids=[f"{config_id(r)}-{m.value}" for r, m in PILE_CASES])
def test_the_same_cards_with_another_pile(rules: Rules, model: Model):
    """Every key alike, the pile's points not: only where no value depends on
    the pile may the entries serve (one seat, paranoid), else a new context."""
    rng = random.Random(f"share:pile:{config_id(rules)}:{model.value}")
    pairs = 0
    while pairs < 12:
        pos = random_position(rules, rng, 4, in_trick=0)
        other = _other_pile(pos, rng)
        if other is None:
            continue
        pairs += 1
        row = [pos.to_hand(), other.to_hand()]
        values, _ = _in_a_row(row, model, SHARE)
        assert values == _alone(row, model)


STOP_CASES = [(rules, Model.PARANOID) for rules in CONFIGS] + [(Rules(3), Model.MAXN)]


@pytest.mark.parametrize(("rules", "model"), STOP_CASES,
                         ids=[f"{config_id(r)}-{m.value}" for r, m in STOP_CASES])
def test_a_solve_stopped_midway_leaves_the_kept_table_true(rules: Rules, model: Model):
    """A bot's or a hint's solve is cancelled, or runs out of time, mid-search
    (every search then returns at once with nothing worth keeping) and its
    table is kept: the next solve of the same context, here the same
    position, must get the values of a fresh table."""
    def solver():
        tables = _search.SearchTables()
        return lambda hand, token: solve_hand(hand, model=model, tables=tables,
                                              cancel=token).values

    stop_midway(big_hands(rules, model, 3, "share"), solver)
