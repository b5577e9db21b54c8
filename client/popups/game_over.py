"""The end of the game: the winner and the whole score sheet, hand by hand."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..literal import plain, plain_cells
from ..model import TableModel
from .base import Popup


def score_sheet(model: TableModel) -> Group:
    tr = model.tr
    end = model.game_ended
    people = [s for s in model.seats() if s != model.lopaka] or list(range(model.people))
    if model.teams:  # partners share their score: one column per side
        people = [s for s in people if s == min(model.side_of(s))]
    table = Table(title=tr("sheet"), expand=True, padding=(0, 1))
    table.add_column("#", justify="right", width=3)
    for s in people:
        table.add_column(plain(model.side_name(s)), justify="right", no_wrap=True,
                         overflow="ellipsis")
    running = [0] * (max(people) + 1 if people else 0)
    for result in model.hand_results:
        cells = []
        for s in people:
            score = result.scores[s] if s < len(result.scores) else 0
            running[s] = result.totals[s] if s < len(result.totals) else running[s] + score
            cells.append(f"{score:+d} = {running[s]}")
        table.add_row(*plain_cells(str(result.number), *cells))
    lines = [Text(tr("game_over"), style="bold")]
    if end is not None:
        team = model.teams and model.partner(end.winner) is not None
        lines.append(Text(tr("winner_team" if team else "winner",
                             name=model.side_name(end.winner),
                             points=end.totals[end.winner]), style="bold green"))
    lines += [table, Text(tr("continue") + " · " + tr("quit_hint"), style="dim")]
    return Group(*lines)


class GameOverScreen(Popup[None]):
    """The score sheet."""

    BINDINGS: ClassVar[list] = [
        Binding("enter,escape,space", "dismiss(None)", "Continue"),
        Binding("q", "app.quit", "Quit"),
    ]
    BOX = "overbox"

    def __init__(self, model: TableModel) -> None:
        super().__init__()
        self.model = model

    def body(self) -> ComposeResult:
        yield Static(score_sheet(self.model))
