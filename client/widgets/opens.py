"""The cards face up beside the trick: your own pile cards, and the hands shown."""

from __future__ import annotations

from cursedbottle.v1 import game_pb2
from rich.console import RenderableType
from rich.text import Text

from ..cards import cards_text
from ..i18n import sort_cards
from ..model import TableModel
from .lines import Drawn


def opens_text(m: TableModel) -> Text:
    tr = m.tr
    out = Text()
    if m.my_pile and m.phase != game_pb2.PHASE_OVER:
        key = "my_pile_n" if len(m.my_pile) > 1 else "my_pile"  # two in Devil's Eye
        out.append(tr(key) + ": ", style="bold")
        out.append_text(cards_text(tr, sort_cards(m.my_pile)))
        out.append("\n")
    for (seat, hand), cards in sorted(m.holdings.items()):
        if seat == m.me or not cards:
            continue
        label = tr("shows", name=m.name(seat))
        if m.two_hands:
            label += f" ({tr('hand_n', n=hand + 1)})"
        out.append(label + ": ", style="bold")
        out.append_text(cards_text(tr, sort_cards(cards)))
        out.append("\n")
    return out


class OpensView(Drawn):
    """Cards shown face up."""

    def draw(self, model: TableModel) -> RenderableType:
        return opens_text(model)
