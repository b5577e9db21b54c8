"""The table's log: the last lines that fit, newest at the bottom, in a side panel
as wide as the seats' names need."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import reactive, var
from textual.widget import Widget
from textual.widgets import Static

from ..model import TableModel


class LogView(Widget):
    """The last lines of the model's log that fit."""

    model: reactive[TableModel | None] = reactive(None)

    def render(self) -> Text:
        lines = self.model.log if self.model is not None else []
        height = max(1, self.size.height)
        width = max(10, self.size.width - 2)
        wrapped: list[str] = []
        for line in lines[-height * 2:]:
            while len(line) > width:
                cut = line.rfind(" ", 0, width)
                cut = cut if cut > 0 else width
                wrapped.append(line[:cut])
                line = "  " + line[cut:].lstrip()
            wrapped.append(line)
        return Text("\n".join(wrapped[-height:]), no_wrap=True, overflow="crop")


class LogPanel(Vertical):
    """The log under its title, two fifths of a wide terminal."""

    model: var[TableModel | None] = var(None)

    def __init__(self, heading: str, **kw) -> None:
        super().__init__(**kw)
        self.heading = heading

    def compose(self) -> ComposeResult:
        yield Static(self.heading, id="logtitle", markup=False)
        yield LogView(id="log").data_bind(LogPanel.model)

    def watch_model(self) -> None:
        self.fit(self.app.size.width)

    def fit(self, width: int) -> None:
        """36 columns at 80; 32 for five or six seats and for teams, whose names and
        marks need the room."""
        model = self.model
        least = 32 if model is not None and (model.people > 4 or model.teams) else 36
        want = max(least, width * 2 // 5)
        if self.styles.width is None or self.styles.width.value != want:
            self.styles.width = want
