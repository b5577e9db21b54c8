"""After the bottle question, "anything more?" (`more`, issue 17, nineteenth
part): where the probe at the points taken answers exactly those points (the
card avoids the bottle, and the proof showed nothing above), the next probe
asks for one point more before it goes to the guess.  Many a card avoids the
bottle only by taking nothing; from a guess above, the probes would come down
a point at a time.

The values are the reference's with it on (tests/test_solver_diff.py, its
switch among issue 17's); here: the same values with it off, and the probes
it saves for such a card."""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.rules import Rules
from cursedbottle.solver import _search
from cursedbottle.solver.api import root_cards, solve_hand
from cursedbottle.solver.sampling import random_position

DEFAULT = _search.ALL_OPTIONS
WITHOUT = DEFAULT & ~_search.OPTIONS["more"]


def test_on_by_default() -> None:
    assert DEFAULT & _search.OPTIONS["more"]


@pytest.mark.parametrize("rules", [r for r in CONFIGS if not r.second_bottle], ids=config_id)
def test_anything_more_changes_no_value(rules: Rules) -> None:
    rng = random.Random(f"more:{config_id(rules)}")
    for _ in range(5):
        hand = random_position(rules, rng, 4 if rules.holders >= 5 else 5).to_hand()
        assert solve_hand(hand).values == solve_hand(hand, WITHOUT).values


#: The rule sets where a seat alone asks the bottle question (not team mode,
#: not the second bottle).
ALONE = [r for r in CONFIGS if not r.second_bottle and not r.teams]


@pytest.mark.parametrize("rules", ALONE, ids=config_id)
def test_a_card_worth_the_points_taken_costs_two_probes(rules: Rules) -> None:
    """A card worth exactly the root seat's points taken whose bottle is
    still open, its search started eight points above that: two probes (the
    bottle, then one point more), where without the question the probes come
    down from the guess (Cursed Bottle's rule sets and the Bottle Imp at
    three, on these positions: six such cards, since the memories of
    cut-offs, `hints` and `answers`, make the fail-soft answers without the
    question come down further at once, and in 2p-bright the first three
    cards now save nothing)."""
    rng = random.Random(f"more-probes:{config_id(rules)}")
    seen = saved = 0
    while seen < 6:
        tricks = 4 if rules.holders >= 5 or rules.devils_eye else 6
        hand = random_position(rules, rng, tricks, in_trick=0).to_hand()
        seat = hand.holder_seat[hand.holder_to_play()]
        taken = hand.deck.points_of(hand.taken[seat])
        whole = solve_hand(hand)
        for card in root_cards(hand):
            if whole.values[card] != taken:
                continue
            on = solve_hand(hand, cards=[card], guess=taken + 8)
            probes_on = [b for b, _, _ in _search.LAST_STATS["probes_by_card"][card.index]]
            if probes_on[0] != taken:
                continue  # no bottle question: the ending was already settled
            seen += 1
            off = solve_hand(hand, WITHOUT, cards=[card], guess=taken + 8)
            probes_off = _search.LAST_STATS["probes"]
            assert on.values == off.values and on.values[card] == taken
            assert probes_on == [taken, taken + 1]
            assert probes_off >= len(probes_on)
            saved += probes_off > len(probes_on)
    # (Elsewhere in the Bottle Imp, four to six players and Devil's Eye at
    # four tricks, these cards' answers came down from the guess at once
    # without the question too.)
    assert saved or (rules.original and rules.players != 3)
