"""The table's custom widgets: the hand you select cards from, and the log.

Both render plain Rich `Text` from data the screen hands them, so a screenshot
depends on the game state only (no clocks, no animation).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cursedbottle.v1 import game_pb2
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from .i18n import Tr

CELL = 5  # columns per card: " 10♥ " fits the widest face
NUMBER_KEYS = "1234567890"


def card_style(card: game_pb2.Card) -> str:
    return "red" if card.suit in (game_pb2.SUIT_DIAMONDS, game_pb2.SUIT_HEARTS) else ""


def card_text(tr: Tr, card: game_pb2.Card | None, style: str = "") -> Text:
    """A card in its suit's colour (hearts and diamonds red)."""
    if card is None or not card.code:
        return Text(tr.card(None), style=style or "yellow")
    return Text(tr.card(card), style=(card_style(card) + " " + style).strip() or "bold")


@dataclass
class HandRow:
    """One row of cards you hold: the whole hand, or one of the bright house's two."""

    hand: int
    label: str
    cards: list[game_pb2.Card] = field(default_factory=list)


class HandView(Widget):
    """Your cards in the total order: legal ones bright, the cursor reversed, a hint marked.

    Clicking a card selects it; clicking the selected card again plays it (the
    screen decides what "play" means in the current phase).
    """

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 2; padding: 0 1; }
    """

    class Picked(Message):
        """A card was clicked: select it (`confirm` when it was already selected)."""

        def __init__(self, index: int, confirm: bool) -> None:
            self.index = index
            self.confirm = confirm
            super().__init__()

    def __init__(self, tr: Tr, **kw) -> None:
        super().__init__(**kw)
        self.tr = tr
        self.rows: list[HandRow] = []
        self.legal: set[str] = set()
        self.cursor: int | None = None
        self.hint_code: str | None = None
        self.marks: dict[str, str] = {}  # staged choices: code → short tag
        self.active_hand: int | None = None  # the row that may be chosen from now
        self._spans: list[tuple[int, int, int, int]] = []  # (y, x0, x1, flat index)

    def update_hand(self, rows: list[HandRow], legal: set[str], cursor: int | None,
                    hint_code: str | None, marks: dict[str, str],
                    active_hand: int | None) -> None:
        self.rows, self.legal, self.cursor = rows, legal, cursor
        self.hint_code, self.marks, self.active_hand = hint_code, marks, active_hand
        self.refresh(layout=True)

    def flat(self) -> list[tuple[int, game_pb2.Card]]:
        return [(row.hand, c) for row in self.rows for c in row.cards]

    def get_content_height(self, container, viewport, width: int) -> int:
        return max(2, 2 * len(self.rows))

    def render(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        self._spans = []
        flat = 0
        y = 0
        for r, row in enumerate(self.rows):
            label_w = len(row.label) + 1 if row.label else 0
            numbers = Text(" " * label_w, no_wrap=True)
            cards = Text(row.label + " " if row.label else "", style="bold", no_wrap=True)
            for i, card in enumerate(row.cards):
                key = NUMBER_KEYS[flat] if flat < len(NUMBER_KEYS) and len(self.rows) == 1 else ""
                mark = self.marks.get(card.code, "")
                numbers.append((mark or key).center(CELL), style="dim" if not mark else "yellow")
                face = self.tr.card(card).center(CELL - 1)
                style = card_style(card)
                if self.legal:
                    style += " bold" if card.code in self.legal else " dim"
                elif self.active_hand is not None and row.hand != self.active_hand:
                    style += " dim"
                if card.code == self.hint_code:
                    style += " underline on dark_green"
                if card.code in self.marks:
                    style += " on dark_blue"
                if flat == self.cursor:
                    style += " reverse"
                x0 = label_w + i * CELL
                self._spans.append((y + 1, x0, x0 + CELL, flat))
                cards.append(face, style=style.strip() or "bold")
                cards.append(" ")
                flat += 1
            out.append_text(numbers)
            out.append("\n")
            out.append_text(cards)
            if r < len(self.rows) - 1:
                out.append("\n")
            y += 2
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:  # on the border or the padding
            return
        for y, x0, x1, index in self._spans:
            if offset.y in (y, y - 1) and x0 <= offset.x < x1:
                self.post_message(self.Picked(index, confirm=index == self.cursor))
                return


class LogView(Widget):
    """The last lines of the log that fit (newest at the bottom)."""

    DEFAULT_CSS = """
    LogView { height: 1fr; padding: 0 1; }
    """

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.lines: list[str] = []

    def set_lines(self, lines: list[str]) -> None:
        self.lines = lines
        self.refresh()

    def render(self) -> Text:
        height = max(1, self.size.height)
        width = max(10, self.size.width - 2)
        wrapped: list[str] = []
        for line in self.lines[-height * 2:]:
            while len(line) > width:
                cut = line.rfind(" ", 0, width)
                cut = cut if cut > 0 else width
                wrapped.append(line[:cut])
                line = "  " + line[cut:].lstrip()
            wrapped.append(line)
        return Text("\n".join(wrapped[-height:]), no_wrap=True, overflow="crop")
