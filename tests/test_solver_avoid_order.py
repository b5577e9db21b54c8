"""The bottle question's move order (`avoid_moves`; issue 17,
twenty-eighth part): the seats against the root seat try their cards by the
price alone, those below it lowest first, then those above it highest
first.  (Ordering them by how many of the root seat's cards would stay
below the price sent them first into tricks that let it out: measured in
solver/README.md.)"""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.rules import Rules
from cursedbottle.solver import _search
from cursedbottle.solver.api import problem_of
from cursedbottle.solver.model import Model
from cursedbottle.solver.sampling import random_hand


def by_price(cards: tuple[int, ...], price: int) -> tuple[int, ...]:
    below = sorted(card for card in cards if card < price)
    above = sorted((card for card in cards if card >= price), reverse=True)
    return (*below, *above)


def nodes_of_a_trick(rules: Rules, seed: str, count: int):
    """(problem, order, against) at every mover of a trick still to play, in
    `count` random hands (two to five tricks left), each card played one of
    the mover's at random."""
    rng = random.Random(seed)
    for _ in range(count):
        problem = problem_of(random_hand(rules, rng, rng.randint(2, 5)), Model.PARANOID)[0]
        path: tuple[int, ...] = ()
        # (Beside Lopaka the engine may have played his card already.)
        for _ in range(len(problem.order[0]) - len(problem.trick)):
            order, against = _search.avoid_order(problem, path)
            yield problem, order, against
            path += (rng.choice(order),)


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_the_others_try_their_cards_by_the_price_alone(rules: Rules) -> None:
    """In every rule set the engine plays (with a partner, beside Lopaka,
    two hands a seat, the second bottle), whether or not its search asks
    the bottle question there."""
    checked = 0
    for problem, order, against in nodes_of_a_trick(rules, f"avoid-order:{config_id(rules)}", 60):
        if against and len(order) > 1:
            assert order == by_price(order, problem.bottle.price)
            checked += 1
    assert checked >= 20


def _three_player_problem():
    hand = random_hand(Rules(3), random.Random("avoid-order:refused"), 3)
    return problem_of(hand, Model.PARANOID)[0]


def test_a_path_past_the_trick_is_refused() -> None:
    problem = _three_player_problem()
    path: tuple[int, ...] = ()
    for _ in range(len(problem.order[0]) - len(problem.trick)):
        path += (_search.avoid_order(problem, path)[0][0],)
    with pytest.raises(ValueError, match="the trick has ended"):
        _search.avoid_order(problem, path)


def test_a_card_the_mover_may_not_play_is_refused() -> None:
    """Another holder's card, played by the mover: refused, naming it."""
    problem = _three_player_problem()
    mover = problem.order[problem.leader][len(problem.trick)]
    other = next(mask for h, mask in enumerate(problem.hands) if h != mover and mask)
    card = (other & -other).bit_length() - 1
    with pytest.raises(ValueError, match=f"card {card} is not legal"):
        _search.avoid_order(problem, (card,))
