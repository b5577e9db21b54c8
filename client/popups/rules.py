"""The rules pop-up: a short summary first (what wins a trick, buying the bottle, the
scoring, the point table), then the full rules, in the client's language.

The words are the rules text shipped with the client (package data); the point
table is the server's: `Rules.point_table` lists every card with its points (coins)."""

from __future__ import annotations

from typing import ClassVar

from cursedbottle.v1 import game_pb2
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..cards import value_words
from ..i18n import Tr
from .base import Popup

#: Where the rules text wants the point table (its summary's last line).
POINT_TABLE = "[point table]"


def point_table(tr: Tr, rules: game_pb2.Rules | None) -> list[str]:
    """"  1 point:  A 2 3 4", … from the server's deck (the Bottle Imp: each card, by coins)."""
    deck = list(rules.point_table) if rules is not None else []
    groups: dict[int, list[str]] = {}
    for card in sorted(deck, key=lambda c: c.order):
        name = tr.card(card)
        if not tr.bottle_imp:
            name = name[:-1]  # the rank: the three suits of a rank count alike here
        names = groups.setdefault(card.points, [])
        if name not in names:
            names.append(name)
    width = max((len(value_words(tr, n)) for n in groups), default=0) + 1
    return [f"  {value_words(tr, n) + ':':<{width}} {' '.join(names)}"
            for n, names in sorted(groups.items())]


def rules_body(tr: Tr, rules: game_pb2.Rules | None) -> Text:
    text = tr.rules_text()
    table = point_table(tr, rules) or ["  " + tr("f_points_at_table")]  # (the lobby's ?)
    text = text.replace(POINT_TABLE + "\n", "".join(line + "\n" for line in table))
    out = Text(tr("f_rules_top") + "\n", style="bold")
    out.append(text)
    out.append("\n" + tr("f_rules_close"), style="dim")
    return out


class RulesScreen(Popup[None]):
    """The rules, scrollable, under their title; the summary first."""

    BINDINGS: ClassVar[list] = [Binding("escape,question_mark,q", "dismiss(None)", "Close")]
    BOX = "rulesbox"

    def __init__(self, tr: Tr, rules: game_pb2.Rules | None = None) -> None:
        super().__init__()
        self.tr = tr
        self.rules = rules

    def body(self) -> ComposeResult:
        yield Static(rules_body(self.tr, self.rules))

    def on_mount(self) -> None:
        self.query_one("#rulesbox").border_title = self.tr("rules_title")
        self.query_one("#rulesbox").border_subtitle = self.tr("f_rules_close")
        self.query_one("#rulesbox").focus()
