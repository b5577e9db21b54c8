"""The pop-ups' common frame: a modal screen with one scrolling box in its middle, and
the queue that shows pop-ups one at a time."""

from __future__ import annotations

from typing import TypeVar

from textual.app import App, ComposeResult
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


class PopupQueue:
    """Pop-ups shown one after the other (the end of a hand, then the end of the game),
    each when the one before is closed."""

    def __init__(self) -> None:
        self._waiting: list[ModalScreen] = []
        self._open = False

    def add(self, app: App, screen: ModalScreen) -> None:
        self._waiting.append(screen)
        self._next(app)

    def _next(self, app: App) -> None:
        if self._open or not self._waiting:
            return
        self._open = True

        def closed(_result: object = None) -> None:
            self._open = False
            self._next(app)

        app.push_screen(self._waiting.pop(0), closed)
