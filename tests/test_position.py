"""The position of FORMATS.md: parsing, checking (the message names the field),
the bright-house extension of docs/formats.md, and the way to the engine's Hand."""

from __future__ import annotations

import copy
import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.events import Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.position import Position, PositionError
from cursedbottle.engine.rules import Rules
from cursedbottle.solver.sampling import random_position
from test_solver_cli import FORMATS_EXAMPLE


def test_example_parses_and_round_trips() -> None:
    pos = Position.from_json(FORMATS_EXAMPLE)
    assert pos.seat_to_move() == 1
    assert pos.tricks_left() == 2
    again = Position.from_json(pos.to_json())
    assert again == pos
    hand = pos.to_hand()
    assert hand.to_act() == (1,)
    assert [c.index for c in pos.trick] == hand.trick


def test_card_spellings_accepted() -> None:
    data = copy.deepcopy(FORMATS_EXAMPLE)
    data["hands"][3] = ["5♦", "qd"]
    data["taken"][0][-1] = "TD"
    assert Position.from_json(data) == Position.from_json(FORMATS_EXAMPLE)


@pytest.mark.parametrize(
    "rules", [r for r in CONFIGS if not r.second_bottle], ids=config_id
)
def test_random_positions_round_trip(rules: Rules) -> None:
    rng = random.Random(config_id(rules))
    for i in range(20):
        pos = random_position(rules, rng, rng.randint(1, rules.tricks), in_trick=i % rules.holders)
        assert Position.from_json(pos.to_json()) == pos
        hand = pos.to_hand()
        assert Position.from_hand(hand) == pos
        assert hand.holder_seat[hand.holder_to_play()] == pos.seat_to_move()


def _bright() -> dict:
    rng = random.Random(3)
    pos = random_position(Rules(2, bright_house=True), rng, 3, in_trick=1)
    return pos.to_json()


def test_bright_house_extension() -> None:
    data = _bright()
    assert len(data["hands"]) == 4
    assert data["rules"]["bright_house"] is True
    assert data["open"] in ([0, 0], [0, 1], [1, 0], [1, 1])
    pos = Position.from_json(data)
    assert pos.to_hand().open_hand == list(data["open"])


@pytest.mark.parametrize("bad_open", [None, [0], [0, 2], "01", [True, 0]])
def test_bright_house_needs_open(bad_open) -> None:
    data = _bright()
    if bad_open is None:
        del data["open"]
    else:
        data["open"] = bad_open
    with pytest.raises(PositionError, match=r"^open:"):
        Position.from_json(data)


def test_lopaka_needs_his_seat() -> None:
    pos = random_position(Rules(2), random.Random(1), 4, in_trick=0)
    data = pos.to_json()
    data["lopaka"] = None
    with pytest.raises(PositionError, match=r"^lopaka:"):
        Position.from_json(data)


def test_lopaka_trick_card_must_follow_his_policy() -> None:
    rng = random.Random(11)
    for _ in range(50):
        pos = random_position(Rules(2), rng, 5, in_trick=2)
        order = pos.trick_order()
        if pos.lopaka not in order[:2]:
            continue
        i = order.index(pos.lopaka)
        data = pos.to_json()
        other = [c for c in data["hands"][pos.lopaka] if c != data["trick"][i]]
        if not other:
            continue
        played = data["trick"][i]
        data["trick"][i] = other[0]
        data["hands"][pos.lopaka] = [c for c in data["hands"][pos.lopaka] if c != other[0]]
        data["hands"][pos.lopaka].append(played)
        with pytest.raises(PositionError, match=r"^trick"):
            Position.from_json(data)
        return
    pytest.skip("no suitable position drawn")


def test_hand_over_is_rejected() -> None:
    data = copy.deepcopy(FORMATS_EXAMPLE)
    data["hands"] = [[], [], [], []]
    data["taken"][0] += ["AD", "AH", "5H", "2H", "7S", "5D", "QD", "9S"]
    data["trick"] = []
    with pytest.raises(PositionError, match=r"^hands"):
        Position.from_json(data)


def test_full_trick_is_rejected() -> None:
    data = copy.deepcopy(FORMATS_EXAMPLE)
    data["hands"] = [["AD"], ["AH"], ["2H"], ["5D"]]
    data["taken"][0] += ["5H", "7S", "QD"]
    data["trick"] = ["9S", "5H", "7S", "QD"]
    data["taken"][0].remove("9S") if "9S" in data["taken"][0] else None
    with pytest.raises(PositionError, match=r"^trick"):
        Position.from_json(data)


def test_a_position_with_two_bottles_is_refused_by_name():
    from cursedbottle.engine.rules import Edition

    data = dict(FORMATS_EXAMPLE)
    data["rules"] = {"players": 5, "game": "bottle-imp", "second_bottle": True}
    with pytest.raises(PositionError, match=r"rules\.second_bottle: a position"):
        Position.from_json(data)
    game = Game(Rules(5, edition=Edition.BOTTLE_IMP, second_bottle=True), seed=1)
    while game.hand.phase is not Phase.PLAY:
        game.apply(game.legal_actions()[0])
    with pytest.raises(PositionError, match="second bottle is not supported"):
        Position.from_hand(game.hand)
