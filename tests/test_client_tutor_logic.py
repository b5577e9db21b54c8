"""The tutor's judgement without Textual: how much a card loses by the hint's values,
and when that is enough to ask before the card is sent."""

from __future__ import annotations

from cursedbottle.client.tutor import action_code, best_line, line_for, tutor_loss, warning
from cursedbottle.v1 import game_pb2, table_pb2


def play(code: str) -> game_pb2.Action:
    return game_pb2.Action(play=game_pb2.PlayCardAction(card=game_pb2.Card(code=code)))


def hint(*lines: tuple[str, float | None]) -> table_pb2.HintResponse:
    out = table_pb2.HintResponse()
    for code, value in lines:
        line = out.actions.add(action=play(code))
        if value is not None:
            line.expected_value = value
    return out


def test_the_card_an_action_moves():
    assert action_code(play("7H")) == "7H"
    assert action_code(game_pb2.Action(
        pass_card=game_pb2.PassCardAction(to=1, card=game_pb2.Card(code="2S")))) == "2S"
    assert action_code(game_pb2.Action(choose_open=game_pb2.ChooseOpenAction(hand=1))) is None


def test_the_loss_is_the_distance_to_the_best_value():
    ranked = hint(("AH", 3.5), ("7H", 1.0), ("2H", -2.5))
    assert best_line(ranked).action == play("AH")
    assert line_for(ranked, play("7H")).expected_value == 1.0
    assert tutor_loss(ranked, play("AH")) == 0.0
    assert tutor_loss(ranked, play("2H")) == 6.0


def test_nothing_weighed_is_no_loss():
    assert tutor_loss(hint(("AH", None)), play("AH")) is None  # the only legal card
    assert tutor_loss(hint(("AH", 3.0)), play("KH")) is None  # not in the hint
    assert tutor_loss(hint(("AH", 3.0), ("KH", None)), play("KH")) is None
    assert best_line(hint(("AH", None))) is None


def test_the_tutor_asks_only_above_its_threshold():
    ranked = hint(("AH", 3.0), ("7H", 1.0), ("2H", -1.5))
    assert warning(ranked, play("AH"), 2.0) is None
    assert warning(ranked, play("7H"), 2.0) is None  # exactly the threshold: played
    assert warning(ranked, play("2H"), 2.0) == 4.5
    assert warning(ranked, play("QH"), 0.0) is None
