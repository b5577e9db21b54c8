"""The tutor's question before a card that loses more than the threshold."""

from __future__ import annotations

from typing import ClassVar

from cursedbottle.v1 import game_pb2, table_pb2
from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..hints import hint_lines
from ..model import TableModel
from ..tutor import best_line, line_for
from .base import Popup


class TutorScreen(Popup[bool]):
    """"Are you sure?": y plays the card, n chooses again; the hint's list below."""

    BINDINGS: ClassVar[list] = [
        Binding("y,j", "dismiss(True)", "Play it"),
        Binding("n,escape", "dismiss(False)", "Choose again"),
    ]
    BOX = "tutorbox"

    def __init__(self, model: TableModel, hint: table_pb2.HintResponse,
                 action: game_pb2.Action, loss: float) -> None:
        super().__init__()
        self.model = model
        self.hint = hint
        self.action = action
        self.loss = loss

    def body(self) -> ComposeResult:
        tr = self.model.tr
        mine, best = line_for(self.hint, self.action), best_line(self.hint)
        text = tr("tutor_text", card=tr.card(self.action.play.card),
                  value=tr.number(mine.expected_value, signed=True),
                  best=tr.card(best.action.play.card),
                  best_value=tr.number(best.expected_value, signed=True),
                  loss=tr.number(self.loss))
        # the keys before the list: a long list scrolls, the question stays in view
        yield Static(Group(Text(tr("tutor_title"), style="bold yellow"), Text(text),
                           Text(tr("tutor_keys"), style="bold"), Text(""),
                           hint_lines(self.model, self.hint)), id="tutortext")
