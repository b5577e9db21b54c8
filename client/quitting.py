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

    def __init__(self, tr: Tr) -> None:
        super().__init__()
        self.tr = tr

    def compose(self) -> ComposeResult:
        tr = self.tr
        yield Static(Text.assemble((tr("quit_title") + "\n", "bold yellow"),
                                   tr("quit_keys")), id="quitbox")
