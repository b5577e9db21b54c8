"""Every trick of the hand so far, one line each: the cards in play order beside
their players, their points, and who took it (the table shows only the last)."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..model import TableModel
from ..widgets.trick import trick_line
from .base import Popup


def tricks_text(model: TableModel) -> Group:
    tr = model.tr
    lines: list[Text] = [Text(tr("f_tricks_title", n=model.hand_number), style="bold")]
    lines += [trick_line(model, t) for t in model.tricks] or [Text(tr("f_no_tricks"))]
    lines.append(Text(tr("f_close"), style="dim"))
    return Group(*lines)


class TricksScreen(Popup[None]):
    """The hand's tricks, scrollable; any key of the list closes it."""

    BINDINGS: ClassVar[list] = [Binding("escape,l,enter,space", "dismiss(None)", "Close")]
    BOX = "tricksbox"

    def __init__(self, model: TableModel) -> None:
        super().__init__()
        self.model = model

    def body(self) -> ComposeResult:
        yield Static(tricks_text(self.model))
