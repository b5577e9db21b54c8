"""The trick on the table and, beside it, the last one taken and who took it.

The last trick stays in view until the next hand, so a trick a bot took is
there to be read while you choose.  The current trick lists every card beside
its player in play order, then who is to play (in a large terminal both tricks
are boxed cards under their players' names, one above the other).
"""

from __future__ import annotations

from cursedbottle.v1 import game_pb2
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..cards import boxed_cards, value_words, valued_text
from ..model import TableModel
from .hand import HandView
from .lines import Drawn


def taker(m: TableModel, t: game_pb2.TrickWon) -> str:
    """"Bob takes it", "You buy the bottle at 5♥"."""
    key = "trick_buys" if t.bought else "trick_to"
    return m.addressed(key, t.winner, name=m.name(t.winner), price=m.tr.card(t.price))


def trick_points(t: game_pb2.TrickWon) -> int:
    """The points on the trick's cards as the server gives them (the taker's, unless
    he bought the bottle, as the end of the hand says)."""
    return sum(p.card.points for p in t.cards)


def _next_to_play(m: TableModel) -> int | None:
    """Who the server says must play now (the play only)."""
    if m.phase != game_pb2.PHASE_PLAY or not m.to_act:
        return None
    return m.to_act[0]


def current_lines(m: TableModel, width: int = 8) -> Text:
    """"Trick 3", then each card beside its player in play order, then "▶ Ann …"."""
    tr = m.tr
    out = Text(f"{tr('trick')} {m.tricks_played + 1}\n", style="bold")
    for p in m.trick:
        out.append(f"  {m.name(p.seat):<{width}.{width}} ")
        out.append_text(valued_text(tr, p.card))
        out.append("\n")
    mover = _next_to_play(m)
    if mover is not None and mover not in [p.seat for p in m.trick]:
        out.append("▶ ", style="bold yellow")
        out.append(f"{m.name(mover):<{width}.{width}} …\n", style="bold" if mover == m.me else "")
    return out


def last_lines(m: TableModel, t: game_pb2.TrickWon, width: int = 8) -> Text:
    """"Last trick (2)", its cards beside their players (the winner's bold), who took it."""
    tr = m.tr
    out = Text(f"{tr('last_trick')} ({t.number})", style="bold dim")
    out.append(f" · {tr('f_last_all')}\n", style="dim")
    for p in t.cards:
        strong = p.seat == t.winner
        out.append(f"  {m.name(p.seat):<{width}.{width}} ", style="" if strong else "dim")
        out.append_text(valued_text(tr, p.card, "bold" if strong else "dim"))
        out.append("\n")
    out.append("→ " + taker(m, t), style="italic")
    out.append(f" ({value_words(tr, trick_points(t))})", style="dim")
    return out


def _boxed_current(m: TableModel) -> Text:
    tr = m.tr
    out = Text(f"{tr('trick')} {m.tricks_played + 1}\n", style="bold")
    if m.trick:
        out.append_text(boxed_cards(tr, [(m.name(p.seat), p.card, False) for p in m.trick]))
        out.append("\n")
    mover = _next_to_play(m)
    if mover is not None and mover not in [p.seat for p in m.trick]:
        out.append("▶ ", style="bold yellow")
        out.append(f"{m.name(mover)} …\n", style="bold" if mover == m.me else "")
    return out


def _boxed_last(m: TableModel, t: game_pb2.TrickWon) -> Text:
    tr = m.tr
    out = Text(f"{tr('last_trick')} ({t.number})", style="bold dim")
    out.append(f" · {tr('f_last_all')}\n", style="dim")
    out.append_text(boxed_cards(tr, [(m.name(p.seat), p.card, p.seat == t.winner)
                                     for p in t.cards]))
    out.append("\n→ " + taker(m, t), style="italic")
    out.append(f" ({value_words(tr, trick_points(t))})", style="dim")
    return out


def name_width(m: TableModel, room: int) -> int:
    """Columns for a name beside its card: the longest name at the table, as far as two
    tricks side by side fit in `room` ("  name 10♥³" twice and the gap between)."""
    longest = max([4] + [len(m.name(s)) for s in m.seats()])
    return max(4, min(longest, 14, (room - 16) // 2))


def trick_view(m: TableModel, big: bool, room: int = 44) -> RenderableType:
    """The current trick and the last one: side by side, or boxed one above the other
    in a large terminal (`room`: the columns there are)."""
    if not m.started or m.phase not in (game_pb2.PHASE_PLAY, game_pb2.PHASE_OVER):
        return Text()
    last = m.previous_trick()
    playing = m.phase != game_pb2.PHASE_OVER
    if big:
        parts = ([_boxed_current(m)] if playing else []) + (
            [_boxed_last(m, last)] if last is not None else [])
        return Text("\n").join(parts)
    width = name_width(m, room)
    current = current_lines(m, width) if playing else Text()
    if last is None:
        return current
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, min_width=max(len(line) for line in current.plain.split("\n")))
    grid.add_column()  # who took it wraps when the column is narrow
    grid.add_row(current, last_lines(m, last, width))
    return grid


#: The text of a trick alone, for the log's pop-up of every trick (see popups.tricks).
def trick_line(m: TableModel, t: game_pb2.TrickWon) -> Text:
    """"1  Ann 5♥² · Bob 7♥² · You Q♠³  → Bob takes it"."""
    tr = m.tr
    out = Text(f"{t.number:>2}  ", style="bold")
    for i, p in enumerate(t.cards):
        if i:
            out.append(" · ", style="dim")
        out.append(m.name(p.seat) + " ", style="bold" if p.seat == t.winner else "")
        out.append_text(valued_text(tr, p.card))
    out.append("  → " + taker(m, t), style="italic")
    return out


class TrickView(Drawn):
    """The cards of the trick (boxed when the terminal is as big as the hand's boxes)
    and the last trick beside them."""

    def draw(self, model: TableModel) -> RenderableType:
        size = self.app.size
        big = size.width >= HandView.BIG[0] and size.height >= HandView.BIG[1]
        return trick_view(model, big, self.content_size.width or 44)
