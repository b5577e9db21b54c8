"""The rules pop-up: the player-facing rules in the client's language (package data)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..i18n import Tr
from .base import Popup


class RulesScreen(Popup[None]):
    """The rules, scrollable, under their title."""

    BINDINGS: ClassVar[list] = [Binding("escape,question_mark,q", "dismiss(None)", "Close")]
    BOX = "rulesbox"

    def __init__(self, tr: Tr) -> None:
        super().__init__()
        self.tr = tr

    def body(self) -> ComposeResult:
        yield Static(Text(self.tr.rules_text()))

    def on_mount(self) -> None:
        self.query_one("#rulesbox").border_title = self.tr("rules_title")
        self.query_one("#rulesbox").focus()
