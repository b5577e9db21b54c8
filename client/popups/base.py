"""The pop-ups' common frame: a modal screen with one scrolling box in its middle."""

from __future__ import annotations

from typing import TypeVar

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen

ResultType = TypeVar("ResultType")


class Popup(ModalScreen[ResultType]):
    """A box over the table (its id `BOX` sizes and colours it in popups.tcss)."""

    CSS_PATH = "popups.tcss"
    BOX = ""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id=self.BOX):
            yield from self.body()

    def body(self) -> ComposeResult:
        """The box's content."""
        raise NotImplementedError
