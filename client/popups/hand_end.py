"""The end of a hand: the pile revealed, who owns the bottle, each seat's score and why."""

from __future__ import annotations

from typing import ClassVar

from cursedbottle.v1 import game_pb2
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..cards import cards_text, team_text
from ..i18n import sort_cards
from ..literal import plain_cells
from ..model import TableModel
from ..review import Loader, ReviewScreen
from .base import Popup


def _owner(model: TableModel, result: game_pb2.HandEnded) -> Text:
    tr = model.tr
    if len(result.bottles) > 1:  # the second bottle: where each one stays
        return Text("\n".join(
            model.addressed("owner_is", b.owner, name=model.name(b.owner), price=tr.card(b.price))
            if b.HasField("owner") else tr("nobody_bought") for b in result.bottles))
    if result.HasField("owner") and result.price.code:
        return Text(model.addressed("owner_is", result.owner, name=model.name(result.owner),
                                    price=tr.card(result.price)))
    return Text(tr("nobody_bought"))


def hand_summary(model: TableModel, result: game_pb2.HandEnded,
                 reviewable: bool = False) -> Group:
    tr = model.tr
    pile = Text(tr("pile_was", cards="", points=result.pile_points).split("(")[0].rstrip() + " ")
    pile.append_text(cards_text(tr, sort_cards(result.pile)))
    pile.append(f"({result.pile_points})")
    table = Table(box=None, expand=True, padding=(0, 1))
    table.add_column("", ratio=1, no_wrap=True)
    if model.teams:
        table.add_column(tr("team"), width=4, no_wrap=True)
    table.add_column(tr("score"), justify="right", width=7)
    table.add_column("", ratio=2)
    table.add_column(tr("total"), justify="right", width=6)
    shown_sides: set[tuple[int, ...]] = set()
    for name, score, why in model.score_lines(result):
        seat = next((s for s in model.seats() if model.name(s) == name), None)
        total = "" if seat is None or seat == model.lopaka else str(model.total(seat) or 0)
        team = []
        if model.teams and seat is not None:
            team.append(team_text(model.team_label(seat)))
            if model.side_of(seat) in shown_sides:
                total = ""  # partners share one total: shown once
            shown_sides.add(model.side_of(seat))
        table.add_row(*plain_cells(name, *team, f"{score:+d}", why, total))
    parts = [Text(tr("hand_over", n=result.number), style="bold"), pile, _owner(model, result),
             table]
    if model.teams:
        parts.append(Text(tr("team_note"), style="italic"))
    parts.append(Text(tr("continue_review" if reviewable else "continue"), style="dim"))
    return Group(*parts)


class HandEndScreen(Popup[None]):
    """The hand's summary; `r` opens the hand's review when the server is there to make one."""

    BINDINGS: ClassVar[list] = [
        Binding("enter,escape,space", "dismiss(None)", "Continue"),
        Binding("r", "review", "Review"),
        Binding("q", "app.quit", "Quit"),
    ]
    BOX = "endbox"

    def __init__(self, model: TableModel, result: game_pb2.HandEnded,
                 review: Loader | None = None) -> None:
        super().__init__()
        self.model = model
        self.result = result
        self.review = review  # async () -> HandReview, or None (no server)

    def body(self) -> ComposeResult:
        yield Static(hand_summary(self.model, self.result, self.review is not None))

    def action_review(self) -> None:
        if self.review is not None:
            self.app.push_screen(ReviewScreen(self.model.tr, self.review))
