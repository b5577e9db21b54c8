"""The hand you select cards from: legal ones bright, the ones the rules rule out struck
through, the cursor reversed, a hint marked; each card's points under it on request (v),
on the box's edge in a large terminal.

The screen binds one `HandState` to it; the widget draws it and turns clicks
and number keys into positions in the flat list of cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cursedbottle.v1 import game_pb2
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ..cards import card_style, points_mark
from ..i18n import Tr
from ..model import TableModel
from ..plan import active_hand

CELL = 5  # columns per card: " 10♥ " and " 2.5Y" fit the widest faces
#: The keys that choose a card, left to right: 1–9, 0 for the tenth, then - and = (the
#: keys beside 0) for the eleventh and twelfth.
NUMBER_KEYS = "1234567890-="


@dataclass
class HandRow:
    """One row of cards you hold: the whole hand, or one of the bright house's two."""

    hand: int
    label: str
    cards: list[game_pb2.Card] = field(default_factory=list)


def hand_rows(m: TableModel) -> tuple[list[HandRow], int | None]:
    """The seat's hands as rows (labelled, when the bright house holds two) and the row
    the setup takes from."""
    tr = m.tr
    hands = m.my_hands()
    if not m.two_hands:
        return [HandRow(h, "", cards) for h, cards in hands], None
    rows = []
    opened = m.open_hand.get(m.me)
    for h, cards in hands:
        state = ""
        if opened is not None:
            state = f" {tr('open') if h == opened else tr('hidden')}"
        rows.append(HandRow(h, f"{tr('hand_n', n=h + 1)}{state}:", cards))
    width = max(len(r.label) for r in rows)
    for r in rows:
        r.label = r.label.ljust(width)
    return rows, active_hand(m)


@dataclass(frozen=True)
class HandState:
    """What the hand shows: its rows, the codes that may be chosen, the cursor (an index
    in the flat list), the hint's card, staged choices (code → short tag) and the row
    that may be chosen from now."""

    rows: tuple[HandRow, ...] = ()
    legal: frozenset[str] = frozenset()
    cursor: int | None = None
    hint_code: str | None = None
    marks: dict[str, str] = field(default_factory=dict)
    active_hand: int | None = None
    values: bool = False  # each card's points on a line under it (boxed: on the edge)

    def flat(self) -> list[tuple[int, game_pb2.Card]]:
        return [(row.hand, c) for row in self.rows for c in row.cards]


class HandView(Widget):
    """Your cards in the total order.

    Clicking a card selects it; clicking the selected card again plays it (the
    screen decides what "play" means in the current phase).
    """

    hand: reactive[HandState] = reactive(HandState, layout=True)

    class Picked(Message):
        """A card was clicked: select it (`confirm` when it was already selected)."""

        def __init__(self, index: int, confirm: bool) -> None:
            self.index = index
            self.confirm = confirm
            super().__init__()

    def __init__(self, tr: Tr, **kw) -> None:
        super().__init__(**kw)
        self.tr = tr
        self._spans: list[tuple[int, int, int, int]] = []  # (y, x0, x1, flat index)

    @property
    def rows(self) -> tuple[HandRow, ...]:
        return self.hand.rows

    @property
    def legal(self) -> frozenset[str]:
        return self.hand.legal

    @property
    def cursor(self) -> int | None:
        return self.hand.cursor

    @property
    def hint_code(self) -> str | None:
        return self.hand.hint_code

    @property
    def marks(self) -> dict[str, str]:
        return self.hand.marks

    @property
    def active_hand(self) -> int | None:
        return self.hand.active_hand

    def flat(self) -> list[tuple[int, game_pb2.Card]]:
        return self.hand.flat()

    def key_row(self) -> int | None:
        """The row the number keys choose from: the one with the cards that may be chosen
        now (the bright house has two), else the first.  When both rows hold such cards
        (Devil's Eye plays from either hand), the row the cursor is in."""
        playable = [row for row in self.rows if self.legal & {c.code for c in row.cards}]
        if len(playable) > 1 and self.cursor is not None:
            flat = 0
            for row in self.rows:
                if flat <= self.cursor < flat + len(row.cards):
                    return row.hand if row in playable else playable[0].hand
                flat += len(row.cards)
        for row in self.rows:
            if self.legal & {c.code for c in row.cards}:
                return row.hand
        if self.active_hand is not None:
            return self.active_hand
        return self.rows[0].hand if self.rows else None

    def number_to_index(self, n: int) -> int | None:
        """Number key n (0-based) → index in the flat list of cards."""
        flat = 0
        key_row = self.key_row()
        for row in self.rows:
            if row.hand == key_row:
                return flat + n if n < len(row.cards) else None
            flat += len(row.cards)
        return None

    #: Cards drawn as boxes (three lines each) when the terminal is this big.
    BIG = (100, 32)

    def big(self) -> bool:
        size = self.app.size
        return size.width >= self.BIG[0] and size.height >= self.BIG[1]

    def get_content_height(self, container, viewport, width: int) -> int:
        per_row = 4 if self.big() else 3 if self.hand.values else 2  # keys, faces, points
        return max(2, per_row * len(self.rows))

    def on_resize(self) -> None:
        self.watch_hand()  # boxed or not: the title says where the points are

    def watch_hand(self) -> None:
        """The title says the keys, and how to see the points (boxed: on the edge)."""
        tr = self.tr
        shown = "on" if self.big() else "shown" if self.hand.values else "off"
        unit = tr("f_values_coins" if tr.bottle_imp else "f_values_points")
        self.border_title = tr(f"f_hand_title_{shown}", unit=unit)

    def _style(self, row: HandRow, card: game_pb2.Card, flat: int) -> str:
        style = card_style(card)
        if self.legal:
            style += " bold" if card.code in self.legal else " dim strike"
        elif self.active_hand is not None and row.hand != self.active_hand:
            style += " dim"
        if card.code == self.hint_code:
            style += " underline on dark_green"
        if card.code in self.marks:
            style += " on dark_blue"
        if flat == self.cursor:
            style += " reverse"
        return style.strip() or "bold"

    def face_width(self) -> int:
        """Columns of the widest face: 4 ("10♥", "17B"), 5 for half numbers ("12.5Y")."""
        return max([CELL - 1] + [len(self.tr.card(c)) for row in self.rows for c in row.cards])

    def render(self) -> Text:
        big, values = self.big(), self.hand.values
        face_w = self.face_width()
        cell = face_w + 3 if big else face_w + 1
        lines: list[Text] = []
        self._spans = []
        flat = 0
        key_row = self.key_row()
        for row in self.rows:
            label_w = len(row.label) + 1 if row.label else 0
            first = flat
            numbers = Text(" " * label_w)
            # one line of faces and one of their points (boxed: the points on the bottom edge)
            faces = [Text(" " * label_w) for _ in range(3 if big else 2 if values else 1)]
            if row.label:
                faces[1 if big else 0] = Text(row.label + " ", style="bold")  # by the faces
            for i, card in enumerate(row.cards):
                n = flat - first
                key = NUMBER_KEYS[n] if row.hand == key_row and n < len(NUMBER_KEYS) else ""
                mark = self.marks.get(card.code, "")
                numbers.append((mark or key).center(cell), style="yellow" if mark else "dim")
                style = self._style(row, card, flat)
                shown, points = self.tr.card(card), points_mark(card)
                if big:
                    edge = "dim" if self.legal and card.code not in self.legal else ""
                    if flat == self.cursor or card.code == self.hint_code:
                        edge = "bold yellow"
                    faces[0].append("┌" + "─" * face_w + "┐ ", style=edge)
                    faces[1].append("│", style=edge)
                    faces[1].append(shown.center(face_w), style=style)
                    faces[1].append("│ ", style=edge)
                    left = (face_w - len(points)) // 2
                    faces[2].append("└" + "─" * left, style=edge)
                    faces[2].append(points, style="bold")
                    faces[2].append("─" * (face_w - left - len(points)) + "┘ ", style=edge)
                else:
                    faces[0].append(shown.center(face_w), style=style)
                    faces[0].append(" ")
                    if values:
                        faces[1].append(points.center(face_w) + " ", style="dim")
                x0 = label_w + i * cell
                self._spans.append((len(lines) + 1, x0, x0 + cell, flat))
                flat += 1
            lines.append(numbers)
            lines.extend(faces)
        out = Text("\n", no_wrap=True, overflow="crop").join(lines)
        out.no_wrap, out.overflow = True, "crop"
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:  # on the border or the padding
            return
        depth = 3 if self.big() else 1
        for y, x0, x1, index in self._spans:
            if y - 1 <= offset.y < y + depth and x0 <= offset.x < x1:
                self.post_message(self.Picked(index, confirm=index == self.cursor))
                return
