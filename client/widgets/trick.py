"""The trick on the table, or the last one taken and who took it (boxed cards in a
large terminal)."""

from __future__ import annotations

from rich.text import Text

from ..cards import boxed_cards, card_text
from ..model import TableModel
from .hand import HandView
from .lines import Drawn


def _taker(m: TableModel) -> str:
    t = m.last_trick
    key = "trick_buys" if t.bought else "trick_to"
    return m.addressed(key, t.winner, name=m.name(t.winner), price=m.tr.card(t.price))


def trick_text(m: TableModel, big: bool) -> Text:
    tr = m.tr
    out = Text()
    if not m.started:
        return out
    if big and (m.trick or m.last_trick is not None):
        if m.trick:
            out.append(f"{tr('trick')} {m.tricks_played + 1}\n", style="bold")
            entries = [(m.name(p.seat), p.card, False) for p in m.trick]
        else:
            t = m.last_trick
            out.append(f"{tr('last_trick')} ({t.number})\n", style="bold dim")
            entries = [(m.name(p.seat), p.card, p.seat == t.winner) for p in t.cards]
        out.append_text(boxed_cards(tr, entries))
        out.append("\n")
        if not m.trick:
            out.append("→ " + _taker(m) + "\n", style="italic")
        return out
    if m.trick:
        out.append(f"{tr('trick')} {m.tricks_played + 1}\n", style="bold")
        for p in m.trick:
            out.append(f"  {m.name(p.seat):<14.14} ")
            out.append_text(card_text(tr, p.card))
            out.append("\n")
    elif m.last_trick is not None:
        t = m.last_trick
        out.append(f"{tr('last_trick')} ({t.number})\n", style="bold dim")
        for p in t.cards:
            out.append(f"  {m.name(p.seat):<14.14} ", style="dim")
            out.append_text(card_text(tr, p.card, "bold" if p.seat == t.winner else "dim"))
            out.append("\n")
        out.append("  → " + _taker(m) + "\n", style="italic")
    return out


class TrickView(Drawn):
    """The cards of the trick (boxed when the terminal is as big as the hand's boxes)."""

    def draw(self, model: TableModel) -> Text:
        size = self.app.size
        big = size.width >= HandView.BIG[0] and size.height >= HandView.BIG[1]
        return trick_text(model, big)
