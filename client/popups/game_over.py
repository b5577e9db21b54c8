"""The end of the game: the final standings, the whole score sheet hand by hand, and
what next (play again, back to the lobby, quit); and the question before quitting a
game in progress."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..i18n import Tr
from ..literal import plain, plain_cells
from ..log_lines import says_you
from ..model import TableModel
from .base import Popup


def _people(model: TableModel) -> list[int]:
    """One seat per side (partners share their score), Lopaka left out."""
    people = [s for s in model.seats() if s != model.lopaka] or list(range(model.people))
    if model.teams:
        people = [s for s in people if s == min(model.side_of(s))]
    return people


def standings(model: TableModel) -> Table:
    """"1.  Ann  112", highest total first, as the server's totals say (the winner first)."""
    tr = model.tr
    end = model.game_ended
    totals = list(end.totals) if end is not None else list(model.totals)
    people = [s for s in _people(model) if s < len(totals)]
    people.sort(key=lambda s: (end is None or s != end.winner, -totals[s]))
    table = Table(title=tr("f_standings"), box=None, padding=(0, 1))
    table.add_column("", justify="right")
    table.add_column("")
    table.add_column(tr("total"), justify="right")
    for place, s in enumerate(people, 1):
        style = "bold green" if end is not None and s == end.winner else ""
        name = model.side_name(s)
        if model.me in model.side_of(s) and not says_you(tr, model.name(model.me)):
            name += f" ({tr('you')})"
        table.add_row(*plain_cells(f"{place}.", name, str(totals[s])), style=style)
    return table


def score_sheet(model: TableModel, keys: str = "") -> Group:
    tr = model.tr
    end = model.game_ended
    people = _people(model)
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
        lines.append(Text(model.addressed("winner_team" if team else "winner", end.winner,
                                          name=model.side_name(end.winner),
                                          points=end.totals[end.winner]), style="bold green"))
    lines += [standings(model), table,
              Text(keys or tr("continue") + " · " + tr("quit_hint"), style="dim")]
    return Group(*lines)


class GameOverScreen(Popup[None]):
    """The final standings and the score sheet; then play again (n), back to the lobby
    (l) or quit (q); Enter looks at the table once more (where Enter brings this back)."""

    BINDINGS: ClassVar[list] = [
        Binding("n", "again", "Play again"),
        Binding("l", "lobby", "Lobby"),
        Binding("enter,escape,space", "dismiss(None)", "Close"),
        Binding("q", "app.quit", "Quit"),
    ]
    BOX = "overbox"

    def __init__(self, model: TableModel, online: bool = False) -> None:
        super().__init__()
        self.model = model
        self.online = online  # a server to play again on

    def body(self) -> ComposeResult:
        tr = self.model.tr
        lan = getattr(self.app, "quick", None) is None  # `play` has no lobby to go back to
        key = "f_over_keys_offline" if not self.online else (
            "f_over_keys" if lan else "f_over_keys_play")
        yield Static(score_sheet(self.model, tr(key)))

    def action_again(self) -> None:
        again = getattr(self.app, "play_again", None)
        if self.online and again is not None:
            self.dismiss(None)
            again()

    def action_lobby(self) -> None:
        lobby = getattr(self.app, "back_to_lobby", None)
        if self.online and lobby is not None:
            self.dismiss(None)
            lobby()


class AskQuitScreen(Popup[bool]):
    """"Quit this game?": y quits, n or Esc stays at the table."""

    BINDINGS: ClassVar[list] = [
        Binding("y,j,q", "dismiss(True)", "Quit"),
        Binding("n,escape", "dismiss(False)", "Stay"),
    ]
    BOX = "askbox"

    def __init__(self, tr: Tr) -> None:
        super().__init__()
        self.tr = tr

    def body(self) -> ComposeResult:
        yield Static(Text.assemble((self.tr("f_quit_title") + "\n", "bold yellow"),
                                   self.tr("f_quit_keys")))
