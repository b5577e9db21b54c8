"""The question before leaving a LAN table mid-game: keep the seat or give it up.

(`play`'s "quit this game?" is the table screen's, client/popups/game_over.py.)"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static

from .i18n import Tr


class QuitScreen(ModalScreen[str | None]):
    """Leave a LAN table: keep the seat for later, or give it up."""

    BINDINGS: ClassVar[list] = [
        Binding("k,b", "dismiss('keep')", "Keep the seat"),
        Binding("l,a", "dismiss('leave')", "Give it up"),
        Binding("escape,q", "dismiss(None)", "Stay"),
    ]
    CSS_PATH = "app.tcss"

    def __init__(self, tr: Tr, stand_in_after: float | None = None) -> None:
        """`stand_in_after`: the table's stand-in delay (0: none), said below the keys."""
        super().__init__()
        self.tr = tr
        self.stand_in_after = stand_in_after

    def compose(self) -> ComposeResult:
        tr, after = self.tr, self.stand_in_after
        parts = [(tr("quit_title") + "\n", "bold yellow"), tr("quit_keys")]
        if after is not None:
            said = tr("q_stand_in", s=f"{after:g}") if after > 0 else tr("q_no_stand_in")
            parts.append(("\n" + said, "dim"))
        yield Static(Text.assemble(*parts), id="quitbox")
