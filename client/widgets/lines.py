"""The table's one-line strips: the status line (game, hand, price, bottle, pile), the
reconnecting banner, and a line of text bound to the screen (the prompt, the keys)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.reactive import var
from textual.widgets import Static

from ..cards import card_text
from ..model import TableModel


def status_text(m: TableModel) -> Text:
    tr = m.tr
    title = tr("g_devils_eye") if m.devils_eye else tr("g_imp") if m.bottle_imp else (
        tr("title"))
    status = Text(title, style="bold")
    if m.hand_number:
        status.append(f" · {tr('hand_no', n=m.hand_number)} · {tr('price')} ")
        status.append_text(card_text(tr, m.price))
        if m.second_bottle:  # "Bottles: nobody / Bob 17B", the one for sale first
            bottles = [m.name(o) + ("" if i == 0 else f" {tr.card(p)}")
                       for i, (o, p) in enumerate(zip(m.bottle_owners(), m.bottle_prices(),
                                                      strict=True))]
            status.append(f" · {tr('bottles')}: {' / '.join(bottles)}")
        else:
            status.append(f" · {tr('bottle')}: {m.name(m.owner)}")
        status.append(f" · {tr('pile')}: {tr.count('cards', m.pile_size)}")
    elif m.info is not None:
        status.append(f" · {m.info.name}")
    return status


class Drawn(Static):
    """A region drawn from the table's model, again each time the model changes."""

    model: var[TableModel | None] = var(None)

    def watch_model(self, model: TableModel | None) -> None:
        if model is not None:
            self.update(self.draw(model))

    def draw(self, model: TableModel) -> RenderableType:
        raise NotImplementedError


class StatusLine(Drawn):
    """The game, the hand, the price and who holds the bottle."""

    def draw(self, model: TableModel) -> Text:
        return status_text(model)


class Banner(Static):
    """Shown while the connection is down ("reconnecting…")."""

    shown: var[bool] = var(False, toggle_class="shown")


class TextLine(Static):
    """What the screen says: `said` is (text, style), or more such pairs one after the
    other (the prompt: a refusal, then what to do now)."""

    said: var[tuple[str, ...]] = var(("", ""))

    def watch_said(self, said: tuple[str, ...]) -> None:
        out = Text()
        for i in range(0, len(said) - 1, 2):
            out.append(said[i], style=said[i + 1] or None)
        self.update(out)
