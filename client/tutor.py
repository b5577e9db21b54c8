"""The tutor's judgement: how much a card loses against the hint's best, and whether
that is enough to ask "are you sure?" before it is sent.

Pure functions of the server's `HintResponse`; the screen asks for the hint and
shows the question.
"""

from __future__ import annotations

from cursedbottle.v1 import game_pb2, table_pb2


def action_code(action: game_pb2.Action) -> str | None:
    """The card an action moves (None for choosing which hand to open)."""
    kind = action.WhichOneof("kind")
    if kind in ("pile", "play", "pass_card"):
        return getattr(action, kind).card.code
    return None


def line_for(hint: table_pb2.HintResponse,
             action: game_pb2.Action) -> table_pb2.ActionHint | None:
    """The hint's line about this action's card."""
    code = action_code(action)
    return next((a for a in hint.actions if action_code(a.action) == code), None)


def best_line(hint: table_pb2.HintResponse) -> table_pb2.ActionHint | None:
    """The line with the highest expected value (None: nothing was weighed)."""
    return max((a for a in hint.actions if a.HasField("expected_value")),
               key=lambda a: a.expected_value, default=None)


def tutor_loss(hint: table_pb2.HintResponse, action: game_pb2.Action) -> float | None:
    """How much worse the action is than the best line, by the hint's expected values
    (None when the hint does not weigh it)."""
    best, mine = best_line(hint), line_for(hint, action)
    if best is None or mine is None or not mine.HasField("expected_value"):
        return None
    return best.expected_value - mine.expected_value


def warning(hint: table_pb2.HintResponse, action: game_pb2.Action,
            threshold: float) -> float | None:
    """The loss when the tutor should ask first (more than `threshold`), else None:
    the card is played at once."""
    loss = tutor_loss(hint, action)
    return None if loss is None or loss <= threshold else loss
