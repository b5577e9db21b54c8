"""The bottle question's move order (`avoid_moves`; issue 17,
twenty-eighth part): the seats against the root seat try their cards by the
price alone, those below it lowest first, then those above it highest
first.  (Ordering them by how many of the root seat's cards would stay
below the price sent them first into tricks that let it out: measured in
solver/README.md.)"""

from __future__ import annotations

import random

import pytest
from conftest import config_id
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.solver import _search
from cursedbottle.solver.api import problem_of
from cursedbottle.solver.model import Model
from cursedbottle.solver.sampling import random_position

RULES = [
    Rules(3), Rules(4), Rules(2),
    Rules(3, edition=Edition.BOTTLE_IMP), Rules(5, edition=Edition.BOTTLE_IMP),
    Rules(6, edition=Edition.BOTTLE_IMP),
]


def by_price(cards: tuple[int, ...], price: int) -> tuple[int, ...]:
    below = sorted(card for card in cards if card < price)
    above = sorted((card for card in cards if card >= price), reverse=True)
    return (*below, *above)


def nodes_of_a_trick(rules: Rules, seed: str, count: int):
    """(problem, order, against) at every mover of a trick, from its start,
    in `count` random positions (two to five tricks left), each card played
    one of the mover's at random."""
    rng = random.Random(seed)
    for _ in range(count):
        position = random_position(rules, rng, rng.randint(2, 5), in_trick=0)
        problem = problem_of(position.to_hand(), Model.PARANOID)[0]
        path: tuple[int, ...] = ()
        for _ in range(len(problem.order[0])):
            order, against = _search.avoid_order(problem, path)
            yield problem, order, against
            path += (rng.choice(order),)


@pytest.mark.parametrize("rules", RULES, ids=config_id)
def test_the_others_try_their_cards_by_the_price_alone(rules: Rules) -> None:
    checked = 0
    for problem, order, against in nodes_of_a_trick(rules, f"avoid-order:{config_id(rules)}", 30):
        if against and len(order) > 1:
            assert order == by_price(order, problem.bottle.price)
            checked += 1
    assert checked >= 20



def test_a_path_past_the_trick_is_refused() -> None:
    rules = Rules(3)
    position = random_position(rules, random.Random("avoid-order:past"), 3, in_trick=0)
    problem = problem_of(position.to_hand(), Model.PARANOID)[0]
    path: tuple[int, ...] = ()
    for _ in range(len(problem.order[0])):
        path += (_search.avoid_order(problem, path)[0][0],)
    with pytest.raises(ValueError, match="the trick has ended"):
        _search.avoid_order(problem, path)
