"""The new-table form: the game, who sits where (you, a bot of a chosen level, or an
open seat for a friend), the stand-ins for absent players, play or watch.

The form only chooses; the table is made by the lobby, and the game starts when
the host says so in the waiting room (client/waiting.py).  A combination the
server refuses (teams for three) is refused there with its message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from cursedbottle.v1 import game_pb2
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from .i18n import Tr
from .log_lines import shown_name, table_name_of

BOTS = ("strong", "heuristic", "rule", "random")
#: The most seats a game has (the Bottle Imp for six).
MOST_SEATS = 6
#: The stand-in delays the form offers (seconds; 0: never), and the default: long enough
#: for a dropped Wi-Fi to come back, short enough that the others do not wait long.
STAND_IN_DELAYS = (5, 15, 30, 60, 120, 0)
STAND_IN_DEFAULT = 30
STAND_IN_BOT = "heuristic"

#: Players per game, and the default count.
PLAYERS = {"cursed": ((2, 3, 4), 3), "imp": ((2, 3, 4, 5, 6), 4)}


@dataclass
class NewTable:
    """What the form chose: `seats[i]` is "" (open for a person) or a bot's name for
    seat i; with `watch` False you take seat 0 (its entry is ignored)."""

    name: str
    rules: game_pb2.Rules
    watch: bool = False
    seats: list[str] = field(default_factory=list)
    stand_in_after: float = STAND_IN_DEFAULT
    stand_in_bot: str = STAND_IN_BOT


def player_options(tr: Tr, game: str) -> list[tuple[str, int]]:
    """The player counts of a game for the form; two Bottle Imp players play Devil's
    Eye, which the label says (it is a game of its own, with two hands each)."""
    counts, _default = PLAYERS[game]
    return [(tr("p_devils_eye") if game == "imp" and n == 2 else str(n), n) for n in counts]


def bot_label(tr: Tr, bot: str) -> str:
    """A bot's level as the reader calls it ("rule bot", German "Regel-Bot")."""
    return shown_name(tr, f"{bot} bot")


def seat_options(tr: Tr) -> list[tuple[str, str]]:
    """One seat's choices: open for a person, or a bot of a level."""
    return [(tr("l_open"), "")] + [(bot_label(tr, b), b) for b in BOTS]


def delay_text(tr: Tr, seconds: float) -> str:
    return tr("l_stand_never") if seconds <= 0 else tr("l_stand_after", s=f"{seconds:g}")


class CreateScreen(ModalScreen["NewTable | None"]):
    """A new table: the game, player count, variant or teams, how the game ends, the
    seats, the stand-ins, play or watch.  The Cursed Bottle's variants are not
    offered for the Bottle Imp."""

    BINDINGS: ClassVar[list] = [Binding("escape", "dismiss(None)", "Cancel")]
    CSS_PATH = "app.tcss"

    def __init__(self, tr: Tr, name: str) -> None:
        super().__init__()
        self.tr = tr
        self.player_name = name

    def compose(self) -> ComposeResult:
        tr = self.tr

        def row(label: str, widget, row_id: str | None = None) -> Horizontal:
            return Horizontal(Label(label), widget, id=row_id)

        with VerticalScroll(id="form"):
            yield row(tr("f_name"), Input(table_name_of(tr, self.player_name), id="name",
                                          compact=True))
            yield row(tr("f_game"), Select(
                [(tr("g_cursed"), "cursed"), (tr("g_imp"), "imp")],
                value="cursed", allow_blank=False, compact=True, id="game"))
            yield row(tr("f_players"), Select([(str(n), n) for n in (2, 3, 4)], value=3,
                                              allow_blank=False, compact=True, id="players"))
            yield row(tr("f_variant"), Select(
                [(tr("v_plain"), "plain"), (tr("v_hot"), "hot"), (tr("v_bright"), "bright")],
                value="plain", allow_blank=False, compact=True, id="variant"), "variantrow")
            teams = row(tr("f_teams"), Select(
                [(tr("t_off"), "off"), (tr("t_on"), "on"), (tr("t_singles"), "singles")],
                value="off", allow_blank=False, compact=True, id="teams"), "teamsrow")
            teams.add_class("hidden")
            yield teams
            bottles = row(tr("f_bottles"), Select(
                [(tr("bo_one"), "one"), (tr("bo_two"), "two")],
                value="one", allow_blank=False, compact=True, id="bottles"), "bottlesrow")
            bottles.add_class("hidden")
            yield bottles
            yield row(tr("f_end"), Select(
                [(tr("e_target"), "target"), (tr("e_hands"), "hands")],
                value="target", allow_blank=False, compact=True, id="end"))
            yield row(tr("f_value"), Input("100", id="value", type="integer", compact=True),
                      "valuerow")
            yield row(tr("f_who"), Select(
                [(tr("w_play"), "play"), (tr("w_watch"), "watch")],
                value="play", allow_blank=False, compact=True, id="who"))
            yield row(tr("f_fill"), Select(
                seat_options(tr), value="", allow_blank=False, compact=True, id="bots"))
            yield row(tr("f_seat", n=1), Static(tr("l_you", name=self.player_name),
                                                id="youseat", markup=False), "yourow")
            for n in range(MOST_SEATS):
                seat = row(tr("f_seat", n=n + 1), Select(
                    seat_options(tr), value="", allow_blank=False, compact=True,
                    id=f"seat{n}"), f"seatrow{n}")
                yield seat
            yield row(tr("f_stand_in"), Select(
                [(delay_text(tr, s), s) for s in STAND_IN_DELAYS], value=STAND_IN_DEFAULT,
                allow_blank=False, compact=True, id="standin"))
            yield row(tr("f_stand_in_bot"), Select(
                [(bot_label(tr, b), b) for b in BOTS], value=STAND_IN_BOT, allow_blank=False,
                compact=True,
                id="standinbot"))
            yield Static(id="formmsg", markup=False)
            yield Horizontal(Button(tr("b_create"), variant="primary", id="ok", compact=True),
                             Button(tr("b_cancel"), id="cancel", compact=True), id="buttons")

    def on_mount(self) -> None:
        self.query_one("#form").border_title = self.tr("create")
        self._seat_rows()
        self.query_one("#name", Input).focus()  # Tab then walks the choices in order

    def _count(self) -> int:
        return 2 if self._variant() == "bright" else int(self.query_one("#players").value or 3)

    def _variant(self) -> str:
        imp = self.query_one("#game", Select).value == "imp"
        return "plain" if imp else str(self.query_one("#variant", Select).value)

    def _watching(self) -> bool:
        return self.query_one("#who", Select).value == "watch"

    def _seat_rows(self) -> None:
        """A row per seat of the game; yours (seat 1) says so when you play."""
        count, watching = self._count(), self._watching()
        self.query_one("#yourow").set_class(watching, "hidden")
        for n in range(MOST_SEATS):
            shown = n < count and (watching or n > 0)
            self.query_one(f"#seatrow{n}").set_class(not shown, "hidden")

    @on(Select.Changed, "#players, #variant, #who")
    def _seats_changed(self) -> None:
        self._seat_rows()

    @on(Select.Changed, "#bots")
    def _fill(self, event: Select.Changed) -> None:
        """The quick way: every seat at once (each can still be changed after)."""
        for n in range(MOST_SEATS):
            self.query_one(f"#seat{n}", Select).value = event.value

    @on(Select.Changed, "#game")
    def _game_changed(self, event: Select.Changed) -> None:
        """The Bottle Imp seats 2–6 (two: Devil's Eye) and has teams; the Cursed Bottle 2–4
        and its variants."""
        tr = self.tr
        imp = event.value == "imp"
        players = self.query_one("#players", Select)
        game = "imp" if imp else "cursed"
        counts, default = PLAYERS[game]
        keep = players.value if players.value in counts else default
        players.set_options(player_options(tr, game))
        players.value = keep
        self.query_one("#variantrow").set_class(imp, "hidden")
        self.query_one("#teamsrow").set_class(not imp, "hidden")
        self.query_one("#bottlesrow").set_class(not imp, "hidden")
        end = self.query_one("#end", Select)
        if imp:
            end.set_options([(tr("e_default"), "default"), (tr("e_hands"), "hands"),
                             (tr("e_target"), "target")])
            end.value = "default"
        else:
            end.set_options([(tr("e_target"), "target"), (tr("e_hands"), "hands")])
            end.value = "target"
        self.query_one("#formmsg", Static).update("")
        self._seat_rows()

    @on(Select.Changed, "#end")
    def _end_changed(self, event: Select.Changed) -> None:
        """"Each player deals twice" needs no number."""
        self.query_one("#valuerow").set_class(event.value == "default", "hidden")
        value = self.query_one("#value", Input)
        if event.value == "hands" and value.value == "100":
            value.value = str(2 * int(self.query_one("#players", Select).value or 3))
        elif event.value == "target" and not value.value:
            value.value = "100"

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted)
    def _ok(self) -> None:
        imp = self.query_one("#game", Select).value == "imp"
        players = self.query_one("#players", Select).value
        variant = self._variant()
        team_mode = self.query_one("#teams", Select).value if imp else "off"
        teams, singles = team_mode in ("on", "singles"), team_mode == "singles"
        second = imp and self.query_one("#bottles", Select).value == "two"
        end = self.query_one("#end", Select).value
        value = 1
        if end != "default":
            try:
                value = int(self.query_one("#value", Input).value)
            except ValueError:
                value = 0
        if value <= 0:
            self.query_one("#formmsg", Static).update(self.tr("f_value") + ": > 0")
            return
        rules = game_pb2.Rules(players=2 if variant == "bright" else players,
                               hot_bottle=variant == "hot", bright_house=variant == "bright",
                               teams=teams, second_bottle=second, singles=singles)
        if imp:
            rules.game = game_pb2.GAME_BOTTLE_IMP
        if end == "hands":
            rules.hands = value
        elif end == "target":
            rules.target = value
        watch = self._watching()
        seats = [str(self.query_one(f"#seat{n}", Select).value) for n in range(self._count())]
        if not watch:
            seats[0] = ""
        self.dismiss(NewTable(
            name=self.query_one("#name", Input).value[:40] or "table",
            rules=rules,
            watch=watch,
            seats=seats,
            stand_in_after=float(self.query_one("#standin", Select).value),
            stand_in_bot=str(self.query_one("#standinbot", Select).value),
        ))
