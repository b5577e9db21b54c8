"""The seats table: who is to act, names, teams, cards held, points taken, totals."""

from __future__ import annotations

from cursedbottle.v1 import game_pb2, table_pb2
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..cards import team_text
from ..literal import plain_cells
from ..model import TableModel
from .lines import Drawn


def seat_info(info: table_pb2.TableInfo | None, seat: int) -> table_pb2.SeatInfo | None:
    if info is None:
        return None
    for s in info.seats:
        if s.seat == seat:
            return s
    return None


def _name(m: TableModel, seat: int) -> Text:
    tr = m.tr
    name = Text(m.name(seat), style="bold" if seat == m.me else "")
    if seat == m.me and m.name(seat).lower() != tr("you").lower():
        name.append(f" ({tr('you')})", style="dim")
    if m.teams and m.me is not None and m.partner(seat) == m.me:
        name.append(f" ({tr('partner')})", style="dim")
    if seat == m.dealer:
        name.append(f" · {tr('dealer')}", style="dim")
    owned = m.bottle_owners().count(seat)
    if owned:
        name.append(" " + "⚱" * owned, style="bold magenta")
    info = seat_info(m.info, seat)
    if info is not None and info.kind == table_pb2.SEAT_KIND_EMPTY:
        name = Text(tr("seat_empty"), style="dim")
    elif info is not None and info.kind == table_pb2.SEAT_KIND_HUMAN and info.stand_in:
        name.append(" " + tr("seat_stand_in"), style="yellow")  # away, a bot plays for now
    elif info is not None and info.kind == table_pb2.SEAT_KIND_HUMAN and not info.connected:
        name.append(" ✗", style="red")
    return name


def seats_table(m: TableModel) -> Table:
    tr = m.tr
    table = Table(box=None, pad_edge=False, expand=True, show_edge=False, padding=(0, 1))
    table.add_column("", width=1 if m.teams else 2, no_wrap=True)  # teams: room for names
    table.add_column("", ratio=1, no_wrap=True, overflow="ellipsis")
    if m.teams:
        table.add_column(tr("team"), width=4, no_wrap=True)
    table.add_column("#", justify="right", width=2)
    table.add_column(tr("taken"), justify="right", width=6)
    table.add_column(tr("total"), justify="right", width=6)
    shown_sides: set[tuple[int, ...]] = set()
    for seat in m.seats():
        mark = "▶" if seat in m.to_act and m.phase != game_pb2.PHASE_OVER else ""
        count = sum(n for (s, _h), n in m.counts.items() if s == seat)
        total = m.total(seat) if seat != m.lopaka else None
        team: list[Text] = []
        if m.teams:
            # Partners share one total: it is shown once, on the side's first row.
            side = m.side_of(seat)
            if side in shown_sides:
                total = None
            shown_sides.add(side)
            team.append(team_text(m.team_label(seat)))
        table.add_row(*plain_cells(
            Text(mark, style="bold yellow"),
            _name(m, seat),
            *team,
            str(count) if m.hand_number else "",
            str(m.points_taken(seat)) if m.hand_number else "",
            "" if total is None else str(total),
        ))
    return table


class SeatsView(Drawn):
    """The seats, one row each."""

    def draw(self, model: TableModel) -> RenderableType:
        return seats_table(model)
