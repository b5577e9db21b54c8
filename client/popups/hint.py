"""The hint pop-up: the server's ranked list, each legal action with its value and reason."""

from __future__ import annotations

from typing import ClassVar

from cursedbottle.v1 import table_pb2
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import var
from textual.widgets import Static

from ..hints import hint_table
from ..model import TableModel
from ..teardown import taken_down
from .base import Popup


class HintScreen(Popup[str | None]):
    """"Thinking…" until `show` brings the list; Enter then plays the best choice."""

    BINDINGS: ClassVar[list] = [
        Binding("escape,h", "dismiss(None)", "Close"),
        Binding("enter", "play", "Play"),
    ]
    BOX = "hintbox"
    #: The server's list, once it is there (`show`), or why there is none (`show_error`).
    hint: var[table_pb2.HintResponse | None] = var(None, init=False)
    error = var("", init=False)

    def __init__(self, model: TableModel) -> None:
        super().__init__()
        self.model = model
        self.tr = model.tr

    def body(self) -> ComposeResult:
        yield Static(Text(self.tr("hint_wait"), style="italic"), id="hinttext")

    @property
    def ready(self) -> bool:
        return self.hint is not None

    def action_play(self) -> None:
        """Enter plays the best card once the list is there; before, it says so (after
        an error, it closes: the error said why)."""
        if self.ready or self.error:
            self.dismiss("play" if self.ready else None)
            return
        self.query_one("#hinttext", Static).update(
            Text(self.tr("hint_wait_enter"), style="italic"))

    def show(self, hint: table_pb2.HintResponse) -> None:
        if not taken_down(self, "#hinttext"):  # (not after the pop-up was closed)
            self.hint = hint

    def show_error(self, text: str) -> None:
        if not taken_down(self, "#hinttext"):
            self.error = text

    def watch_hint(self, hint: table_pb2.HintResponse) -> None:
        self.query_one("#hinttext", Static).update(hint_table(self.model, hint))

    def watch_error(self, text: str) -> None:
        self.query_one("#hinttext", Static).update(Text(text, style="red"))
