"""A finished hand against perfect play, and the list of finished hands.

`ReviewScreen` draws the server's `HandReview` like a bridge hand viewer: first
one sentence on what the numbers mean (the model: everyone plays perfectly for
themself with all cards known) and which tricks were valued, then trick by
trick every card with its value, the best card(s), what the card played cost
(in red: a mistake, only where it cost more than 0) and the worst case beside
it; who took the trick and whether the bottle was bought; then each seat's
total loss.  `HistoryScreen` lists `ListHands` and opens a review.
"""

from __future__ import annotations

import datetime
from collections.abc import Awaitable, Callable
from typing import ClassVar

import grpc
from cursedbottle.v1 import table_pb2
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Static

from .cards import card_text
from .i18n import Tr
from .literal import plain, plain_cells
from .log_lines import says_you, shown_name, told_apart
from .net import Seat, Session
from .refusals import refusal
from .teardown import taken_down

Loader = Callable[[], Awaitable[table_pb2.HandReview]]


def hand_loader(session: Session, seat: Seat, hand: int) -> Loader:
    """The server's review of a hand of the seat's table (what the end-of-hand pop-up's
    `r` runs)."""

    async def load() -> table_pb2.HandReview:
        return await session.review_hand(seat.table_id, hand, password=seat.password,
                                         token=seat.token or seat.host_token)

    return load


def _seat_name(review: table_pb2.HandReview, seat: int, tr: Tr) -> str:
    if 0 <= seat < len(review.seats):
        s = review.seats[seat]
        if s.lopaka and not s.name:
            return tr("lopaka")
        if not s.name:
            return f"#{seat + 1}"
        # told apart by their table seat, as at the table
        names = [shown_name(tr, o.name) for o in review.seats]
        return told_apart(names[seat], names, table_seat(review.hand, seat))
    if 0 <= seat < len(review.hand.names):
        return shown_name(tr, review.hand.names[seat])
    return f"#{seat + 1}"


def table_seat(hand: table_pb2.HandSummary, seat: int) -> int:
    """A hand seat's table seat: with Lopaka a hand's seats turn with the dealer (a
    server without `table_seats`: the hand seat)."""
    return hand.table_seats[seat] if seat < len(hand.table_seats) else seat


def _about(tr: Tr, key: str, name: str, **params: object) -> str:
    """A line about a player: the form said to "you" for `play`'s player "You"."""
    return tr(key + "_you" if says_you(tr, name) and tr.has(key + "_you") else key,
              name=name, **params)


def _cards(tr: Tr, cards, style: str = "") -> Text:
    out = Text()
    for i, c in enumerate(sorted(cards, key=lambda c: c.order)):
        if i:
            out.append(" ")
        out.append_text(card_text(tr, c, style))
    return out


def trick_table(tr: Tr, review: table_pb2.HandReview, trick: table_pb2.ReviewedTrick) -> Table:
    """One trick: a row per card, the loss in red when the card cost points."""
    table = Table(box=None, expand=True, padding=(0, 1), show_edge=False)
    table.add_column(tr("review_seat"), ratio=1, no_wrap=True, overflow="ellipsis")
    table.add_column(tr("review_card"), width=5, no_wrap=True)
    table.add_column(tr("review_value"), justify="right", width=6)
    table.add_column(tr("review_best"), ratio=1, no_wrap=True, overflow="ellipsis")
    table.add_column(tr("review_loss"), justify="right", width=6, no_wrap=True)
    worst = review.worst_case
    if worst:
        table.add_column(tr("review_worst"), justify="right", width=15)
    for rc in trick.cards:
        name = Text(_seat_name(review, rc.seat, tr))
        if rc.seat == trick.winner:
            name.stylize("bold")
            name.append(" ✓", style="bold green")
        card = card_text(tr, rc.card, "bold" if rc.seat == trick.winner else "")
        if not rc.valued:
            table.add_row(*plain_cells(name, card, "—", "", "", *([""] if worst else [])))
            continue
        if rc.forced:
            best, loss = Text(tr("review_forced"), style="dim"), Text("")
        else:
            best = _cards(tr, rc.best)
            best.append(f" {rc.best_value:+d}", style="dim")
            # (A cost is what the card gave away: above 0 a mistake, as the
            # legend says, so it is written as it is counted.)
            loss = (Text(str(rc.loss), style="bold white on red") if rc.loss > 0
                    else Text("0", style="green"))
        cells = [name, card, f"{rc.value:+d}", best, loss]
        if worst:
            cells.append(_worst(tr, rc))
        table.add_row(*plain_cells(*cells))
    return table


def _worst(tr: Tr, rc: table_pb2.ReviewedCard) -> Text:
    """The paranoid worst case of a card: its value, and its cost where it had one."""
    if not rc.HasField("worst_value"):
        return Text("")
    out = Text(f"{rc.worst_value:+d}", style="dim")
    if rc.worst_loss > 0:
        out.append(f" ({tr('review_worst_cost', n=rc.worst_loss)})", style="dim")
    return out


def _unvalued_trick(tr: Tr, review: table_pb2.HandReview, trick: table_pb2.ReviewedTrick,
                    outcome: Text) -> Text:
    """A trick without values in one line: who played what, and who took it."""
    out = Text(f"{tr('trick')} {trick.number}: ", style="bold")
    for i, rc in enumerate(trick.cards):
        if i:
            out.append(" · ", style="dim")
        out.append(_seat_name(review, rc.seat, tr) + " ")
        out.append_text(card_text(tr, rc.card))
    out.append(" ")
    out.append_text(outcome)
    return out


def hands_table(tr: Tr, review: table_pb2.HandReview) -> Table:
    """Each seat's cards as it played them in the hand (the hand as it went to the tricks)."""
    played: dict[int, list] = {}
    for trick in review.tricks:
        for rc in trick.cards:
            played.setdefault(rc.seat, []).append(rc.card)
    table = Table(title=tr("review_hands"), title_justify="left", box=None, expand=True,
                  padding=(0, 1), show_header=False)
    table.add_column("", width=14, no_wrap=True, overflow="ellipsis")
    table.add_column("", ratio=1)
    for seat in sorted(played):
        table.add_row(*plain_cells(_seat_name(review, seat, tr), _cards(tr, played[seat])))
    return table


def summary_table(tr: Tr, review: table_pb2.HandReview) -> Table:
    table = Table(title=tr("review_summary"), expand=True, padding=(0, 1))
    table.add_column(tr("review_seat"), ratio=1, no_wrap=True, overflow="ellipsis")
    keys = ["review_score", "review_total_loss", "review_mistakes", "review_analysed"]
    if review.worst_case:
        keys.append("review_worst")
    for key in keys:  # as wide as its heading (the numbers are short)
        table.add_column(tr(key), justify="right", width=max(5, len(tr(key))))
    for i, s in enumerate(review.seats):
        loss = Text(str(s.loss), style="bold red" if s.loss else "green")
        cells = [_seat_name(review, i, tr), f"{s.score:+d}", loss, str(s.mistakes),
                 str(s.analysed)]
        if review.worst_case:
            cells.append(str(s.worst_loss))
        table.add_row(*plain_cells(*cells))
    return table


def meaning(tr: Tr, review: table_pb2.HandReview) -> list[str]:
    """What the numbers mean, and which tricks were not valued and why, in the
    table's language (the server's English sentence from a server without `model`)."""
    if review.model != "maxn":
        return [review.meaning] if review.meaning else []
    out = [tr("review_means")]
    if review.worst_case:
        out.append(tr("review_means_worst"))
    first, valued = review.from_trick or 1, review.valued_from
    if valued > first:
        key = "review_skipped_one" if valued == first + 1 else "review_skipped"
        out.append(tr(key, first=first, last=valued - 1))
    return out


def review_renderable(tr: Tr, review: table_pb2.HandReview) -> Group:
    """The whole review as one Rich renderable (header, tricks, summary)."""
    hand = review.hand
    if hand.HasField("rules"):
        tr = tr.for_rules(hand.rules)  # the Bottle Imp's cards and its price "19"
    parts: list = [
        Text(tr("review_title", table=hand.table_name or hand.table_id, n=hand.hand),
             style="bold"),
        Text(_about(tr, "review_dealer", _seat_name(review, review.dealer, tr)), style="dim"),
    ]
    if review.from_trick > 1:
        parts.append(Text(tr("review_from", n=review.from_trick), style="dim"))
    parts += [Text(line, style="italic") for line in meaning(tr, review)]
    parts.append(hands_table(tr, review))
    for trick in review.tricks:
        winner = _seat_name(review, trick.winner, tr)
        price = tr.card(trick.price if trick.HasField("price") else None)
        if trick.bought:
            line = Text("→ " + _about(tr, "review_buys", winner, n=trick.number, price=price),
                        style="bold magenta")
        else:
            line = Text("→ " + _about(tr, "review_takes", winner, n=trick.number),
                        style="italic")
        if not any(rc.valued for rc in trick.cards):
            parts.append(_unvalued_trick(tr, review, trick, line))
            continue
        parts.append(Text(f"\n{tr('trick')} {trick.number}", style="bold underline"))
        parts.append(trick_table(tr, review, trick))
        parts.append(line)
    parts.append(Text(""))
    parts.append(Text(tr("review_price",
                         price=tr.card(review.price if review.HasField("price") else None))))
    parts.append(summary_table(tr, review))
    return Group(*parts)


class ReviewScreen(ModalScreen[None]):
    """A HandReview, scrollable; "analysing…" while the server works, errors in red."""

    BINDINGS: ClassVar[list] = [
        Binding("escape,q", "dismiss(None)", "Close"),
        Binding("up", "scroll(-1)", "Up", show=False),
        Binding("down", "scroll(1)", "Down", show=False),
        Binding("pageup", "scroll(-10)", "Page up", show=False),
        Binding("pagedown,space", "scroll(10)", "Page down", show=False),
        Binding("home", "scroll_home", "Top", show=False),
        Binding("end", "scroll_end", "End", show=False),
    ]
    CSS_PATH = "review.tcss"

    def __init__(self, tr: Tr, loader: Loader | None = None,
                 review: table_pb2.HandReview | None = None) -> None:
        super().__init__()
        self.tr = tr
        self.loader = loader
        self.review = review
        self.error: str | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="reviewbox"):
            if self.review is not None:
                yield Static(review_renderable(self.tr, self.review), id="reviewtext")
            else:
                yield Static(Text(self.tr("review_wait"), style="italic"), id="reviewtext")
        yield Static(self.tr("review_keys"), id="reviewkeys", markup=False)

    def on_mount(self) -> None:
        box = self.query_one("#reviewbox", VerticalScroll)
        box.border_title = self.tr("review")
        box.focus()
        if self.review is None and self.loader is not None:
            self._load()

    @work(exclusive=True, group="review")
    async def _load(self) -> None:
        try:
            review = await self.loader()
        except grpc.aio.AioRpcError as exc:
            if not taken_down(self, "#reviewtext"):
                self.show_error(refusal(self.tr, exc))
            return
        if not taken_down(self, "#reviewtext"):
            self.show(review)

    def show(self, review: table_pb2.HandReview) -> None:
        self.review = review
        self.query_one("#reviewtext", Static).update(review_renderable(self.tr, review))

    def show_error(self, text: str) -> None:
        self.error = text
        self.query_one("#reviewtext", Static).update(
            Text(self.tr("review_failed", msg=text), style="bold red")
        )

    def action_scroll(self, lines: int) -> None:
        self.query_one("#reviewbox", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_scroll_home(self) -> None:
        self.query_one("#reviewbox", VerticalScroll).scroll_home(animate=False)

    def action_scroll_end(self) -> None:
        self.query_one("#reviewbox", VerticalScroll).scroll_end(animate=False)


def scores_text(tr: Tr, hand: table_pb2.HandSummary) -> str:
    parts = []
    names = [shown_name(tr, name) for name in hand.names]
    for i, name in enumerate(names):
        score = hand.scores[i] if i < len(hand.scores) else 0
        mark = " ⚱" if hand.HasField("owner") and hand.owner == i else ""
        parts.append(f"{told_apart(name, names, table_seat(hand, i))}{mark} {score:+d}")
    return ", ".join(parts)


def _when(ns: int) -> str:
    if not ns:
        return ""
    stamp = datetime.datetime.fromtimestamp(ns / 1e9)
    return stamp.strftime("%Y-%m-%d %H:%M")


class HistoryScreen(Screen):
    """The server's finished hands, newest first; Enter opens a hand's review."""

    BINDINGS: ClassVar[list] = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("r", "refresh", "Refresh"),
        Binding("enter", "review", "Review"),
        Binding("q", "app.quit", "Quit"),
    ]
    CSS_PATH = "review.tcss"

    def __init__(self, session: Session, tr: Tr,
                 credentials: Callable[[str], tuple[str, str]] | None = None) -> None:
        """`credentials(table_id)` → (password, token) that open a table's hands."""
        super().__init__()
        self.session = session
        self.tr = tr
        self.credentials = credentials or (lambda _t: ("", ""))
        self.hands: list[table_pb2.HandSummary] = []

    def compose(self) -> ComposeResult:
        yield Static(plain(self.tr("history", target=self.session.target)), id="histtitle",
                     markup=False)
        yield DataTable(id="hands", cursor_type="row")
        yield Static(self.tr("history_loading"), id="histmsg", markup=False)

    def on_mount(self) -> None:
        tr = self.tr
        table = self.query_one(DataTable)
        table.add_columns(tr("col_name"), tr("col_hand"), tr("col_players"), tr("col_when"))
        table.focus()
        self.action_refresh()

    @work(exclusive=True, group="history")
    async def action_refresh(self) -> None:
        try:
            hands = await self.session.list_hands()
        except grpc.aio.AioRpcError as exc:
            if not taken_down(self, "#histmsg"):
                self.query_one("#histmsg", Static).update(
                    Text(self.tr("refused", msg=refusal(self.tr, exc)), style="bold red"))
            return
        if taken_down(self, "#histmsg"):
            return
        self.hands = hands
        msg = self.query_one("#histmsg", Static)
        table = self.query_one(DataTable)
        table.clear()
        for i, hand in enumerate(self.hands):
            table.add_row(*plain_cells(hand.table_name or hand.table_id, str(hand.hand),
                                       scores_text(self.tr, hand), _when(hand.finished_ns)),
                          key=str(i))
        msg.update(plain(self.tr("history_keys") if self.hands else self.tr("history_none")))

    def _selected(self) -> table_pb2.HandSummary | None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        if not self.hands or row is None or not 0 <= row < len(self.hands):
            return None
        return self.hands[row]

    def action_review(self) -> None:
        hand = self._selected()
        if hand is None:
            return
        password, token = self.credentials(hand.table_id)
        session = self.session

        async def load() -> table_pb2.HandReview:
            return await session.review_hand(hand.table_id, hand.hand, password=password,
                                             token=token)

        self.app.push_screen(ReviewScreen(self.tr, load))

    @on(DataTable.RowSelected)
    def _row(self, _event: DataTable.RowSelected) -> None:
        self.action_review()

