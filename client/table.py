"""The table screen: where a hand is played (or watched), and its pop-ups.

The screen turns keys into the server's legal actions and draws the model;
everything it shows comes from the seat's own stream.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

import grpc
from cursedbottle.v1 import game_pb2, table_pb2
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from .hints import hint_lines, hint_table
from .i18n import Tr, sort_cards
from .literal import plain, plain_cells
from .model import TableModel, Target
from .net import RETRYABLE, Seat, Session, error_text
from .review import ReviewScreen
from .widgets import NUMBER_KEYS, HandRow, HandView, LogView, boxed_cards, card_text

SPEEDS = (0.0, 0.25, 0.5, 1.0, 2.0)


@dataclass
class Plan:
    """The pile cards and the passes chosen for one setup stage, sent after a confirmation.

    A person decides the whole setup at once, but the server asks for it piece by piece
    (Devil's Eye: two pile cards, then the pass for the opponent's first hand, then the
    one for its second, each pass a stage of its own).  The plan remembers what the
    server accepted, so that nothing is sent twice and Esc takes back only the rest."""

    stage: int
    pile_count: int
    targets: list[Target]
    pile: list[game_pb2.Card] = field(default_factory=list)
    passes: list[game_pb2.Card] = field(default_factory=list)  # one per target, in order
    confirmed: bool = False
    pile_sent: set[str] = field(default_factory=set)  # codes of the accepted pile cards
    passes_sent: set[Target] = field(default_factory=set)

    def codes(self) -> set[str]:
        return {c.code for c in self.passes} | {c.code for c in self.pile}

    def next_target(self) -> Target | None:
        """Whom the next pass to be chosen goes to (None: all are chosen)."""
        return self.targets[len(self.passes)] if len(self.passes) < len(self.targets) else None

    def card_for(self, target: Target) -> game_pb2.Card | None:
        for t, card in zip(self.targets, self.passes, strict=False):
            if t == target:
                return card
        return None

    def forget(self, pile: bool = True) -> None:
        """Take back the choices not sent yet (the passes; the pile cards too with `pile`),
        to be chosen again."""
        if pile:
            self.pile = [c for c in self.pile if c.code in self.pile_sent]
        kept = []
        for target, card in zip(self.targets, self.passes, strict=False):
            if target not in self.passes_sent:
                break
            kept.append(card)
        self.passes = kept
        self.confirmed = False


class TableScreen(Screen):
    """One table, from one seat (or as a spectator)."""

    BINDINGS: ClassVar[list] = [
        Binding("enter", "choose", "Play", show=True),
        Binding("left", "move(-1)", "←", show=False),
        Binding("right", "move(1)", "→", show=False),
        Binding("up", "row(-1)", "↑", show=False),
        Binding("down", "row(1)", "↓", show=False),
        Binding("h", "hint", "Hint"),
        Binding("t", "tutor", "Tutor", show=False),
        Binding("question_mark", "rules", "Rules"),
        Binding("escape", "back", "Back", show=False),
        Binding("s", "start", "Start", show=False),
        Binding("plus", "speed(-1)", "Faster", show=False),
        Binding("minus", "speed(1)", "Slower", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    DEFAULT_CSS = """
    TableScreen { layout: vertical; }
    #status { height: 1; background: $primary-background; color: $text; padding: 0 1; }
    #banner { height: 1; background: $error; color: $text; padding: 0 1; display: none; }
    #banner.shown { display: block; }
    #main { height: 1fr; }
    #left { width: 1fr; }
    #seats { height: auto; padding: 0 1; max-width: 72; }
    #trick { height: auto; padding: 0 1; margin-top: 1; }
    #opens { height: auto; padding: 0 1; }
    #logbox { width: 36; border-left: solid $primary; }
    #logtitle { height: 1; padding: 0 1; text-style: bold; }
    #prompt { height: auto; max-height: 2; padding: 0 1; background: $boost;
              color: $warning; text-style: bold; }
    #hand { border-top: solid $primary; }
    #keys { height: 1; padding: 0 1; background: $panel; color: $text-muted; }
    """

    def __init__(self, model: TableModel, session: Session | None, seat: Seat | None,
                 hint_budget_ms: int = 1000, speed: float = 0.5, tutor: bool = False,
                 tutor_threshold: float = 2.0) -> None:
        super().__init__()
        self.model = model
        self.tr = model.tr
        self.session = session
        self.seat = seat
        self.hint_budget_ms = hint_budget_ms
        self.speed = speed
        self.cursor: int | None = None
        self.hint: table_pb2.HintResponse | None = None
        self.plan: Plan | None = None
        self.message = ""
        self.note = ""  # a plain (not an error) line for the prompt: tutor, resumed seat
        self.tutor = tutor
        self.tutor_threshold = tutor_threshold
        self._tutoring = False  # a card waits for the tutor's hint (or the "are you sure")
        self.reconnecting = False
        self.starting = False
        self._popups: list[ModalScreen] = []
        self._popup_open = False
        self._busy = False
        self._ready = False

    # ---------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)
        yield Static(self.tr("reconnecting"), id="banner", markup=False)
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="seats", markup=False)
                yield Static(id="trick", markup=False)
                yield Static(id="opens", markup=False)
            with Vertical(id="logbox"):
                yield Static(self.tr("log"), id="logtitle", markup=False)
                yield LogView(id="log")
        yield Static(id="prompt", markup=False)
        yield HandView(self.tr, id="hand")
        yield Static(self.tr("keys_table"), id="keys", markup=False)

    def on_resize(self, event: events.Resize) -> None:
        self._size_log(event.size.width)

    def _size_log(self, width: int) -> None:
        """The log takes two fifths of a wide terminal (36 columns at 80; 32 for five or
        six seats and for teams, whose names and marks need the room)."""
        least = 32 if self.model.people > 4 or self.model.teams else 36
        box = self.query_one("#logbox")
        want = max(least, width * 2 // 5)
        if box.styles.width is None or box.styles.width.value != want:
            box.styles.width = want

    def on_mount(self) -> None:
        self._ready = True
        self.redraw()
        if self.session is not None and self.seat is not None:
            self.follow()

    # ----------------------------------------------------------------- stream

    @work(exclusive=True, group="stream")
    async def follow(self) -> None:
        """Follow the stream; on a dropped connection show the banner and resume the seat
        with its token from the next sequence, so nothing is missed or applied twice."""
        delay = 0.5
        while True:
            try:
                stream = self.session.follow(self.seat, self.model.next_seq)
                async for update in stream:
                    if self.reconnecting:
                        self.reconnecting = False
                        self.model.log.append(self.tr("reconnected"))
                    delay = 0.5
                    await self._handle_update(update)
                    if update.WhichOneof("kind") == "closed":
                        if "shutting down" not in update.closed.reason:
                            self.redraw()
                            return
                        break
            except grpc.aio.AioRpcError as exc:
                if exc.code() not in RETRYABLE:
                    self.message = self.tr("refused", msg=error_text(exc))
                    self.redraw()
                    return
            self.reconnecting = True
            self.redraw()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    async def _handle_update(self, update: table_pb2.TableUpdate) -> None:
        model = self.model
        if update.WhichOneof("kind") != "batch":
            model.apply_update(update)
            self._maybe_autostart()
            self.redraw()
            return
        batch = update.batch
        pace = self.speed if model.me is None else 0.0
        for event in batch.events:
            if event.sequence < model.next_seq:
                continue
            model.apply_event(event)
            live = event.sequence >= model.live_from
            kind = event.WhichOneof("kind")
            if kind == "hand_started":
                self.plan, self.hint, self.cursor = None, None, None
            elif kind == "phase_started" and event.phase_started.phase == game_pb2.PHASE_PILE:
                self.plan = None
            if live and kind == "hand_ended":
                self._popup(HandEndScreen(model, event.hand_ended,
                                          self._review_loader(event.hand_ended.number)))
            if live and kind == "game_ended":
                self._popup(GameOverScreen(model))
            if live and pace and kind in ("card_played", "trick_won"):
                self.redraw()
                await asyncio.sleep(pace)
        if batch.HasField("turn"):
            model.apply_turn(batch.turn)
            if not model.my_turn():
                self.hint = None
        await self._after_turn()
        self.redraw()

    def _maybe_autostart(self) -> None:
        """The table's creator starts the game as soon as every seat is taken."""
        info = self.model.info
        if (
            self.seat is None or not self.seat.host_token or self.starting or info is None
            or info.state != table_pb2.TABLE_STATE_WAITING
            or any(s.kind == table_pb2.SEAT_KIND_EMPTY for s in info.seats)
        ):
            return
        self.starting = True
        self.run_worker(self._start(), group="start")

    async def _start(self) -> None:
        try:
            await self.session.start(self.seat)
        except grpc.aio.AioRpcError as exc:
            self.starting = False
            self.message = self.tr("refused", msg=error_text(exc))
            self.redraw()

    def _popup(self, screen: ModalScreen) -> None:
        self._popups.append(screen)
        self._next_popup()

    def _next_popup(self) -> None:
        if self._popup_open or not self._popups:
            return
        self._popup_open = True
        screen = self._popups.pop(0)

        def closed(_result: object = None) -> None:
            self._popup_open = False
            self._next_popup()

        self.app.push_screen(screen, closed)

    # ---------------------------------------------------------------- drawing

    def redraw(self) -> None:
        if not self._ready or not self.is_attached:
            return  # (not yet composed, or already taken down)
        try:
            self._redraw()
        except NoMatches:
            return  # the screen was taken down while a message came in: nothing to draw

    def _redraw(self) -> None:
        m = self.model
        tr = self.tr
        self._size_log(self.app.size.width)
        self.query_one("#banner").set_class(self.reconnecting, "shown")
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
            status.append(f" · {tr('pile')}: {tr('cards', n=m.pile_size)}")
        elif m.info is not None:
            status.append(f" · {m.info.name}")
        self.query_one("#status", Static).update(status)
        self.query_one("#seats", Static).update(self._seats_table())
        self.query_one("#trick", Static).update(self._trick_text())
        self.query_one("#opens", Static).update(self._opens_text())
        self.query_one("#log", LogView).set_lines(m.log)
        self.query_one("#prompt", Static).update(self._prompt())
        self.query_one("#keys", Static).update(plain(self._keys()))
        rows, active = self._hand_rows()
        flat_len = sum(len(r.cards) for r in rows)
        if self.cursor is not None and self.cursor >= flat_len:
            self.cursor = flat_len - 1 if flat_len else None
        hint_code = None
        if self.hint is not None and self.hint.actions and m.my_turn():
            hint_code = _action_code(self.hint.actions[0].action)
        self.query_one(HandView).update_hand(
            rows, self._selectable_codes(), self.cursor, hint_code, self._marks(), active
        )

    def _keys(self) -> str:
        tr = self.tr
        if self.model.me is None:
            return tr("keys_watch")
        if self.session is None:  # an offline table (screenshots): no tutor to ask
            return tr("keys_table")
        return tr("keys_table_online", state=tr("on") if self.tutor else tr("off"))

    def _review_loader(self, hand: int):
        """What the end-of-hand pop-up's `r` runs: the server's review of that hand."""
        if self.session is None or self.seat is None:
            return None
        session, seat = self.session, self.seat

        async def load() -> table_pb2.HandReview:
            return await session.review_hand(seat.table_id, hand, password=seat.password,
                                             token=seat.token or seat.host_token)

        return load

    def _seats_table(self) -> Table:
        m, tr = self.model, self.tr
        table = Table(box=None, pad_edge=False, expand=True, show_edge=False, padding=(0, 1))
        table.add_column("", width=1 if m.teams else 2, no_wrap=True)  # teams: room for names
        table.add_column("", ratio=1, no_wrap=True, overflow="ellipsis")
        if m.teams:
            table.add_column(tr("team"), width=4, no_wrap=True)
        table.add_column("#", justify="right", width=2)
        table.add_column(tr("taken"), justify="right", width=6)
        table.add_column(tr("total"), justify="right", width=6)
        shown_sides: set[tuple[int, ...]] = set()
        for seat in m.seats():
            mark = "▶" if seat in m.to_act and m.phase != game_pb2.PHASE_OVER else ""
            name = Text(m.name(seat), style="bold" if seat == m.me else "")
            if seat == m.me and m.name(seat).lower() != tr("you").lower():
                name.append(f" ({tr('you')})", style="dim")
            if m.teams and m.me is not None and m.partner(seat) == m.me:
                name.append(f" ({tr('partner')})", style="dim")
            if seat == m.dealer:
                name.append(f" · {tr('dealer')}", style="dim")
            owned = m.bottle_owners().count(seat)
            if owned:
                name.append(" " + "⚱" * owned, style="bold magenta")
            info = _seat_info(m.info, seat)
            if info is not None and info.kind == table_pb2.SEAT_KIND_EMPTY:
                name = Text(tr("seat_empty"), style="dim")
            elif info is not None and info.kind == table_pb2.SEAT_KIND_HUMAN and not info.connected:
                name.append(" ✗", style="red")
            count = sum(n for (s, _h), n in m.counts.items() if s == seat)
            total = m.total(seat) if seat != m.lopaka else None
            team: list[Text] = []
            if m.teams:
                # Partners share one total: it is shown once, on the side's first row.
                side = m.side_of(seat)
                if side in shown_sides:
                    total = None
                shown_sides.add(side)
                label = m.team_label(seat)
                team.append(Text(label, style=_TEAM_STYLES.get(label, "dim")))
            table.add_row(*plain_cells(
                Text(mark, style="bold yellow"),
                name,
                *team,
                str(count) if m.hand_number else "",
                str(m.points_taken(seat)) if m.hand_number else "",
                "" if total is None else str(total),
            ))
        return table

    def _trick_text(self) -> Text:
        m, tr = self.model, self.tr
        out = Text()
        if not m.started:
            return out
        big = self.app.size.width >= HandView.BIG[0] and self.app.size.height >= HandView.BIG[1]
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
                key = "trick_buys" if t.bought else "trick_to"
                said = m.addressed(key, t.winner, name=m.name(t.winner), price=tr.card(t.price))
                out.append("→ " + said + "\n", style="italic")
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
            key = "trick_buys" if t.bought else "trick_to"
            said = m.addressed(key, t.winner, name=m.name(t.winner), price=tr.card(t.price))
            out.append("  → " + said + "\n", style="italic")
        return out

    def _opens_text(self) -> Text:
        m, tr = self.model, self.tr
        out = Text()
        if m.my_pile and m.phase != game_pb2.PHASE_OVER:
            key = "my_pile_n" if len(m.my_pile) > 1 else "my_pile"  # two in Devil's Eye
            out.append(tr(key) + ": ", style="bold")
            for c in sort_cards(m.my_pile):
                out.append_text(card_text(tr, c))
                out.append(" ")
            out.append("\n")
        for (seat, hand), cards in sorted(m.holdings.items()):
            if seat == m.me or not cards:
                continue
            label = tr("shows", name=m.name(seat))
            if m.two_hands:
                label += f" ({tr('hand_n', n=hand + 1)})"
            out.append(label + ": ", style="bold")
            for c in sort_cards(cards):
                out.append_text(card_text(tr, c))
                out.append(" ")
            out.append("\n")
        return out

    def _hand_rows(self) -> tuple[list[HandRow], int | None]:
        m, tr = self.model, self.tr
        hands = m.my_hands()
        active = None
        if m.two_hands:
            active = self._active_hand()
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
            return rows, active
        return [HandRow(h, "", cards) for h, cards in hands], active

    def _active_hand(self) -> int | None:
        m = self.model
        if m.phase in (game_pb2.PHASE_PILE, game_pb2.PHASE_PASS):
            return m.stage_hand or 0
        return None

    # --------------------------------------------------------------- deciding

    def _step(self) -> str:
        """What the seat is asked now: play, pile, pass, confirm, open, wait, …"""
        m = self.model
        if m.me is None:
            return "watch"
        if m.game_ended is not None:
            return "over"
        if not m.started:
            return "lobby"
        kind = m.legal_kind()
        if kind == "play":
            return "play"
        if kind == "choose_open":
            return "open"
        plan = self._plan()
        if plan is None:
            return "wait"
        if len(plan.pile) < plan.pile_count:
            return "pile"
        if len(plan.passes) < len(plan.targets):
            return "pass"
        if not plan.confirmed:
            return "confirm"
        return "wait"

    def _plan(self) -> Plan | None:
        """The staged pile and passes of this stage, made when the server first asks for
        the stage's pile card or pass and kept through the stage's pass stages (Devil's
        Eye passes to each of the opponent's hands in a stage of its own)."""
        m = self.model
        if m.phase not in (game_pb2.PHASE_PILE, game_pb2.PHASE_PASS):
            return None
        stage = m.stage_hand or 0
        if self.plan is None or self.plan.stage != stage:
            kind = m.legal_kind()
            if kind not in ("pile", "pass_card"):
                return None
            self.plan = Plan(stage, pile_count=m.pile_needed(), targets=m.plan_targets())
        return self.plan

    def _selectable_codes(self) -> set[str]:
        """The cards that may be chosen now (legal, minus what is already staged)."""
        m = self.model
        step = self._step()
        if step == "play":
            return m.legal_codes()
        if step in ("pile", "pass"):
            hand = dict(m.my_hands()).get(m.stage_hand or 0, [])
            legal = m.legal_codes() if m.legal_kind() == "pile" or step == "pass" else set()
            codes = legal if legal else {c.code for c in hand}
            return codes - self.plan.codes()
        return set()

    def _marks(self) -> dict[str, str]:
        """Staged choices drawn over their cards: ⚱ for the pile, →Bob for a pass (Devil's
        Eye: →Bo1 and →Bo2, for the opponent's first and second hand)."""
        if self.plan is None:
            return {}
        out = {c.code: "⚱" for c in self.plan.pile}
        for tag, c in zip(self._pass_tags(self.plan.targets), self.plan.passes, strict=False):
            out[c.code] = "→" + tag
        return out

    def _pass_tags(self, targets: list[Target]) -> list[str]:
        """Three letters per target: the name's first three, the seat digit for equal
        names, or two letters and the receiver's hand number when passes go to hands."""
        names = [self.model.name(to) for to, _h in targets]
        if any(h is not None for _to, h in targets):
            return [n[:2] + ("" if h is None else str(h + 1))
                    for n, (_to, h) in zip(names, targets, strict=True)]
        short = [n[:3] for n in names]
        if len(set(short)) < len(short):  # "rule bot 1", "rule bot 2": keep the seat digit
            short = [n[:2] + n[-1] for n in names]
        return short

    def _pass_text(self, target: Target, card: game_pb2.Card) -> str:
        """"5Y to Bob", or in Devil's Eye "5Y to Bob (hand 1)"."""
        to, hand = target
        if hand is None:
            return self.tr("to_name", card=self.tr.card(card), name=self.model.name(to))
        return self.tr("to_name_hand", card=self.tr.card(card), name=self.model.name(to),
                       n=hand + 1)

    def _prompt(self) -> Text:
        m, tr = self.model, self.tr
        if self.message:
            return Text(self.message, style="bold red")
        if self.note:
            return Text(self.note, style="bold")
        step = self._step()
        if step == "watch":
            if m.game_ended is not None:
                return Text(m.game_over_line())
            return Text(tr("spectating", speed=self._speed_text()))
        if step == "over":
            return Text(m.game_over_line())
        if step == "lobby":
            info = m.info
            free = sum(1 for s in info.seats if s.kind == table_pb2.SEAT_KIND_EMPTY) if info else 0
            return Text(tr("waiting_start", free=free))
        if step == "play":
            return Text(tr("your_turn_play"))
        if step == "pile":
            plan = self.plan
            if plan.pile_count > 1:
                return Text(tr("your_turn_pile_n", i=len(plan.pile) + 1, n=plan.pile_count))
            return Text(tr("your_turn_pile"))
        if step == "pass":
            to, hand = self.plan.next_target()
            if hand is None:
                return Text(tr("your_turn_pass", name=m.name(to)))
            return Text(tr("your_turn_pass_hand", name=m.name(to), n=hand + 1,
                           which=tr("open") if hand == 0 else tr("hidden")))
        if step == "confirm":
            plan = self.plan
            passes = ", ".join(self._pass_text(t, c)
                               for t, c in zip(plan.targets, plan.passes, strict=False))
            if not plan.pile:
                return Text(tr("confirm_pass_only", passes=passes))
            pile = " ".join(tr.card(c) for c in plan.pile)
            return Text(tr("confirm_pass", pile=pile, passes=passes))
        if step == "open":
            return Text(tr("choose_open"))
        if self.plan is not None and self.plan.confirmed:
            return Text(tr("sent"))
        if m.phase == game_pb2.PHASE_PILE and m.me == m.dealer and m.me not in m.to_act:
            return Text(tr("dealer_no_pile"))  # the five-player Bottle Imp's dealer
        from_hand = m.info.seats[m.me].from_hand if m.info and m.me < len(m.info.seats) else 0
        if from_hand > m.hand_number:  # a seat taken mid-hand: the server says from when
            return Text(tr("seat_from_hand", n=from_hand))
        return Text(tr("waiting"))

    def _speed_text(self) -> str:
        if not self.speed:
            return self.tr("speed_instant")
        return self.tr("speed_s", s=f"{self.speed:g}")

    # ----------------------------------------------------------------- input

    def _flat(self) -> list[tuple[int, game_pb2.Card]]:
        rows, _ = self._hand_rows()
        return [(r.hand, c) for r in rows for c in r.cards]

    def action_move(self, step: int) -> None:
        flat = self._flat()
        if not flat:
            return
        selectable = self._selectable_codes()
        order = [i for i, (_h, c) in enumerate(flat) if c.code in selectable] or list(
            range(len(flat))
        )
        if self.cursor is None:
            self.cursor = order[0] if step > 0 else order[-1]
        elif self.cursor not in order:
            # on a card that may not be chosen (↑/↓ to the other row): the next one that
            # may, in the direction of the key, so that the row is kept where it can be
            ahead = [i for i in order if (i > self.cursor if step > 0 else i < self.cursor)]
            self.cursor = (ahead[0] if step > 0 else ahead[-1]) if ahead else (
                order[0] if step > 0 else order[-1])
        else:
            self.cursor = order[(order.index(self.cursor) + step) % len(order)]
        self.message = ""
        if not self._tutoring:
            self.note = ""
        self.redraw()

    def action_row(self, step: int) -> None:
        m = self.model
        if self._step() == "open":
            self.cursor = 0 if step < 0 else len(dict(m.my_hands()).get(0, []))
            self.redraw()
            return
        if not m.two_hands:
            return
        flat = self._flat()
        if not flat:
            return
        first_row = len(dict(m.my_hands()).get(0, []))
        cur = self.cursor or 0
        self.cursor = min(len(flat) - 1, cur + first_row) if step > 0 else max(0, cur - first_row)
        self.redraw()

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character in NUMBER_KEYS:
            event.stop()
            self._number(NUMBER_KEYS.index(event.character))

    def _number(self, index: int) -> None:
        step = self._step()
        if step == "open":
            if index in (0, 1):
                self.run_worker(self._choose_open(index), group="act")
            return
        target = self.query_one(HandView).number_to_index(index)
        if target is not None:
            self.cursor = target
            self.message = ""
            self.redraw()

    @on(HandView.Picked)
    def _picked(self, event: HandView.Picked) -> None:
        self.cursor = event.index
        self.message = ""
        self.redraw()
        if event.confirm:
            self.action_choose()

    def action_choose(self) -> None:
        """Enter: play, stage, confirm or choose, depending on what is asked."""
        if self._busy or self._tutoring:
            return
        step = self._step()
        m = self.model
        flat = self._flat()
        card = flat[self.cursor][1] if self.cursor is not None and self.cursor < len(flat) else None
        if step == "play" and card is not None:
            action = m.find_action("play", card.code)
            if action is None:  # not legal: let the server explain which rule says no
                action = game_pb2.Action(play=game_pb2.PlayCardAction(card=card))
            elif self.tutor and self.session is not None and len(m.legal) > 1:
                self._tutored_play(action)
                return
            self.run_worker(self._send([action]), group="act")
        elif step in ("pile", "pass") and card is not None:
            if card.code not in self._selectable_codes():
                return
            if step == "pile":
                self.plan.pile.append(card)
            else:
                self.plan.passes.append(card)
            self.cursor = None
            self.redraw()
        elif step == "confirm":
            self.plan.confirmed = True
            self.run_worker(self._send_plan(), group="act")
        elif step == "open":
            hand = 0 if self.cursor is None or self.cursor < len(dict(m.my_hands())[0]) else 1
            self.run_worker(self._choose_open(hand), group="act")

    # ----------------------------------------------------------------- tutor

    def action_tutor(self) -> None:
        """t: the tutor on or off (it asks before a card that loses more than the threshold)."""
        if self.model.me is None or self.session is None:
            return
        self.tutor = not self.tutor
        self.message = ""
        self.note = (self.tr("tutor_on", points=f"{self.tutor_threshold:g}") if self.tutor
                     else self.tr("tutor_off"))
        self.redraw()

    @work(group="tutor")
    async def _tutored_play(self, action: game_pb2.Action) -> None:
        """Ask the server for a hint first; play at once if the card is good enough,
        otherwise ask "are you sure?" (the card is not sent unless the answer is yes)."""
        self._tutoring = True
        self.message, self.note = "", self.tr("tutor_thinking")
        self.redraw()
        try:
            hint = self.hint  # a hint asked for this very turn (h) is as good as a new one
            if hint is None or tutor_loss(hint, action) is None:
                try:
                    hint = await self.session.hint(self.seat, self.hint_budget_ms)
                except grpc.aio.AioRpcError as exc:
                    self.note = ""
                    self.message = self.tr("tutor_failed", msg=error_text(exc))
                    return
            self.note = ""
            if not self.model.my_turn() or self.model.find_action(
                "play", action.play.card.code
            ) is None:
                return  # the turn moved on meanwhile (it cannot, but never send stale moves)
            self.hint = hint
            loss = tutor_loss(hint, action)
            if loss is None or loss <= self.tutor_threshold:
                await self._send([action])
                return
            self.redraw()
            sure = await self.app.push_screen_wait(TutorScreen(self.model, hint, action, loss))
            if sure and self.model.my_turn():
                await self._send([action])
        finally:
            self._tutoring = False
            self.redraw()

    def action_back(self) -> None:
        """Esc: undo the staged choices that were not sent yet."""
        self.message = ""
        if not self._tutoring:
            self.note = ""
        if self.plan is not None:
            self.plan.forget()
        self.redraw()

    async def _choose_open(self, hand: int) -> None:
        action = self.model.find_action("choose_open", hand=hand)
        if action is not None:
            await self._send([action])

    async def _send_plan(self) -> None:
        await self._after_turn()
        self.redraw()

    async def _after_turn(self) -> None:
        """Send whatever part of a confirmed plan the server now asks for (the pile card
        in the pile phase, the passes once the pass phase has begun)."""
        while await self._advance_plan():
            pass

    async def _advance_plan(self) -> bool:
        """Send the part of a confirmed plan the server asks for now; True when something
        was sent (the server may then ask for more)."""
        plan = self.plan
        if plan is None or not plan.confirmed or self._busy:
            return False
        return await self._send_asked(plan)

    async def _send_asked(self, plan: Plan) -> bool:
        """Send the staged pile cards or passes the server asks for now (all of them: two
        pile cards in Devil's Eye, both passes with three or four players)."""
        kind = self.model.legal_kind()
        if kind == "pile":
            return await self._send_pile(plan)
        if kind == "pass_card":
            return await self._send_passes(plan)
        return False

    async def _send_pile(self, plan: Plan) -> bool:
        m = self.model
        cards = [c for c in plan.pile if c.code not in plan.pile_sent]
        if not cards:
            return False
        actions = [m.find_action("pile", c.code) for c in cards]
        if any(a is None for a in actions):
            plan.forget()
            return False
        return await self._send(actions, lambda i: plan.pile_sent.add(cards[i].code))

    async def _send_passes(self, plan: Plan) -> bool:
        m = self.model
        todo = [t for t in m.stage_targets() if t not in plan.passes_sent]
        if not todo:
            return False
        if any(t not in plan.targets for t in todo):
            # the neighbours were guessed before the server named them: choose again
            plan.targets = [t for t in plan.targets if t in plan.passes_sent] + todo
            plan.forget(pile=False)
            return False
        actions = []
        for target in todo:
            card = plan.card_for(target)
            if card is None:
                return False  # not chosen yet (a hint's early sending stops here)
            action = m.find_action("pass_card", card.code, to=target[0])
            if action is None:
                plan.forget(pile=False)
                return False
            actions.append(action)
        return await self._send(actions, lambda i: plan.passes_sent.add(todo[i]))

    async def _send(self, actions: list[game_pb2.Action],
                    on_sent: Callable[[int], None] | None = None) -> bool:
        """Send the actions in order; `on_sent(i)` as each is accepted (a refusal stops
        the rest, and what was accepted is known).  True when all were accepted."""
        if self.session is None or self.seat is None:
            return False
        self._busy = True
        sequence = -1
        turn = self.model.turn_seq
        try:
            for i, action in enumerate(actions):
                # Each action answers the turn the last one left (the first: the stream's).
                sequence = await self.session.act(self.seat, action, turn)
                turn = sequence
                if on_sent is not None:
                    on_sent(i)
            self.model.acted(sequence)
            self.hint = None
            self.cursor = None
            self.message = ""
            return True
        except grpc.aio.AioRpcError as exc:
            if sequence >= 0:
                self.model.acted(sequence)  # those before the refusal were taken
            self.message = self.tr("refused", msg=error_text(exc))
            return False
        finally:
            self._busy = False
            self.redraw()

    # -------------------------------------------------------------- the rest

    def in_progress(self) -> bool:
        """Whether this screen holds a seat in a game not over yet (quitting asks)."""
        m = self.model
        return not (
            self.session is None or self.seat is None or m.me is None
            or m.game_ended is not None or m.closed
        )

    async def leave(self) -> bool:
        """Give the seat up when a game in progress is quit (see the app's action_quit);
        True when the seat was given up (its token no longer works)."""
        if not self.in_progress():
            return False
        try:
            await self.session.leave(self.seat)
        except (TimeoutError, grpc.aio.AioRpcError):
            return False
        return True

    def action_hint(self) -> None:
        step = self._step()
        if self.session is None or not self.model.my_turn():
            self.message = self.tr("hint_none") if self.model.me is not None else ""
            self.redraw()
            return
        if step == "confirm":
            self.message = self.tr("hint_later")
            self.redraw()
            return
        if step == "pass" and self.plan.next_target() not in self.model.stage_targets():
            # A pass can be ranked only when the server asks for it: a hint before that
            # sends the choices that come first (the pile cards; in Devil's Eye the pass
            # for the first hand), which the rules have chosen first anyway, and waits.
            self.run_worker(self._send_ahead_then_hint(), group="act")
            return
        screen = HintScreen(self.model)
        self.app.push_screen(screen, self._hint_closed)
        self._fetch_hint(screen)

    async def _send_ahead_then_hint(self) -> None:
        plan = self.plan
        self.message = ""
        for _ in range(600):
            if self.plan is not plan or self._step() != "pass":
                return
            if plan.next_target() in self.model.stage_targets():
                self.redraw()
                self.action_hint()
                return
            if self.model.my_turn() and not self._busy:
                await self._send_asked(plan)
                if self.message:  # refused: the prompt says why
                    return
            await asyncio.sleep(0.05)

    @work(group="hint")
    async def _fetch_hint(self, screen: HintScreen) -> None:
        try:
            hint = await self.session.hint(self.seat, self.hint_budget_ms)
        except grpc.aio.AioRpcError as exc:
            screen.show_error(error_text(exc))
            return
        self.hint = hint
        if hint.actions:
            best = hint.actions[0].action
            code = _action_code(best)
            for i, (_h, c) in enumerate(self._flat()):
                if c.code == code:
                    self.cursor = i
            if best.WhichOneof("kind") == "choose_open":
                first = len(dict(self.model.my_hands()).get(0, []))
                self.cursor = 0 if best.choose_open.hand == 0 else first
        self.redraw()
        screen.show(hint)

    def _hint_closed(self, result: str | None) -> None:
        if result == "play":
            self.action_choose()

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.tr))

    def action_start(self) -> None:
        if self.seat is not None and self.session is not None and not self.model.started:
            self.run_worker(self._start(), group="start")

    def action_speed(self, step: int) -> None:
        if self.model.me is not None:
            return
        i = SPEEDS.index(self.speed) if self.speed in SPEEDS else 2
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + step))]
        self.redraw()


#: Team letters in the seats table, each side in its own colour.
_TEAM_STYLES = {"A": "bold green", "B": "bold cyan", "C": "bold magenta"}


def tutor_loss(hint: table_pb2.HintResponse, action: game_pb2.Action) -> float | None:
    """How much worse the action is than the best line, by the hint's expected values
    (None when the hint does not weigh it)."""
    code = _action_code(action)
    values = [a.expected_value for a in hint.actions if a.HasField("expected_value")]
    mine = next((a for a in hint.actions if _action_code(a.action) == code), None)
    if not values or mine is None or not mine.HasField("expected_value"):
        return None
    return max(values) - mine.expected_value


def _action_code(action: game_pb2.Action) -> str | None:
    kind = action.WhichOneof("kind")
    if kind in ("pile", "play", "pass_card"):
        return getattr(action, kind).card.code
    return None


def _seat_info(info: table_pb2.TableInfo | None, seat: int) -> table_pb2.SeatInfo | None:
    if info is None:
        return None
    for s in info.seats:
        if s.seat == seat:
            return s
    return None


# ------------------------------------------------------------------- pop-ups


class HintScreen(ModalScreen[str | None]):
    """The server's ranked list: each legal action with its value and reason."""

    BINDINGS: ClassVar[list] = [
        Binding("escape,h", "dismiss(None)", "Close"),
        Binding("enter", "play", "Play"),
    ]
    DEFAULT_CSS = """
    HintScreen { align: center middle; }
    #hintbox { width: 76; max-height: 90%; height: auto; border: thick $accent;
               background: $panel; padding: 0 1; }
    """

    def __init__(self, model: TableModel) -> None:
        super().__init__()
        self.model = model
        self.tr = model.tr

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="hintbox"):
            yield Static(Text(self.tr("hint_wait"), style="italic"), id="hinttext")

    ready = False

    def action_play(self) -> None:
        """Enter plays the best card only once the list is there."""
        self.dismiss("play" if self.ready else None)

    def show_error(self, text: str) -> None:
        if self.is_mounted:
            self.query_one("#hinttext", Static).update(Text(text, style="red"))

    def show(self, hint: table_pb2.HintResponse) -> None:
        if not self.is_mounted:
            return
        self.ready = True
        self.query_one("#hinttext", Static).update(hint_table(self.model, hint))


class TutorScreen(ModalScreen[bool]):
    """The tutor's question before a card that loses more than the threshold."""

    BINDINGS: ClassVar[list] = [
        Binding("y,j", "dismiss(True)", "Play it"),
        Binding("n,escape", "dismiss(False)", "Choose again"),
    ]
    DEFAULT_CSS = """
    TutorScreen { align: center middle; }
    #tutorbox { width: 76; max-height: 22; height: auto; border: thick $warning;
                background: $panel; padding: 0 1; }
    """

    def __init__(self, model: TableModel, hint: table_pb2.HintResponse,
                 action: game_pb2.Action, loss: float) -> None:
        super().__init__()
        self.model = model
        self.hint = hint
        self.action = action
        self.loss = loss

    def compose(self) -> ComposeResult:
        tr = self.model.tr
        code = _action_code(self.action)
        mine = next(a for a in self.hint.actions if _action_code(a.action) == code)
        best = max((a for a in self.hint.actions if a.HasField("expected_value")),
                   key=lambda a: a.expected_value)
        text = tr("tutor_text", card=tr.card(self.action.play.card),
                  value=tr.number(mine.expected_value, signed=True),
                  best=tr.card(best.action.play.card),
                  best_value=tr.number(best.expected_value, signed=True),
                  loss=tr.number(self.loss))
        with VerticalScroll(id="tutorbox"):
            # the keys before the list: a long list scrolls, the question stays in view
            yield Static(Group(Text(tr("tutor_title"), style="bold yellow"), Text(text),
                               Text(tr("tutor_keys"), style="bold"), Text(""),
                               hint_lines(self.model, self.hint)), id="tutortext")


class HandEndScreen(ModalScreen[None]):
    """The pile revealed, who owns the bottle, each seat's score and why; `r` opens the
    hand's review when the server is there to make one."""

    BINDINGS: ClassVar[list] = [
        Binding("enter,escape,space", "dismiss(None)", "Continue"),
        Binding("r", "review", "Review"),
        Binding("q", "app.quit", "Quit"),
    ]
    DEFAULT_CSS = """
    HandEndScreen { align: center middle; }
    #endbox { width: 72; height: auto; max-height: 22; border: thick $accent;
              background: $panel; padding: 0 1; }
    """

    def __init__(self, model: TableModel, result: game_pb2.HandEnded, review=None) -> None:
        super().__init__()
        self.model = model
        self.result = result
        self.review = review  # async () -> HandReview, or None (no server)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="endbox"):
            yield Static(hand_summary(self.model, self.result, self.review is not None))

    def action_review(self) -> None:
        if self.review is not None:
            self.app.push_screen(ReviewScreen(self.model.tr, self.review))


def hand_summary(model: TableModel, result: game_pb2.HandEnded,
                 reviewable: bool = False) -> Group:
    tr = model.tr
    pile = Text(tr("pile_was", cards="", points=result.pile_points).split("(")[0].rstrip() + " ")
    for c in sort_cards(result.pile):
        pile.append_text(card_text(tr, c))
        pile.append(" ")
    pile.append(f"({result.pile_points})")
    if len(result.bottles) > 1:  # the second bottle: where each one stays
        owner = Text("\n".join(
            tr("owner_is", name=model.name(b.owner), price=tr.card(b.price))
            if b.HasField("owner") else tr("nobody_bought") for b in result.bottles))
    elif result.HasField("owner") and result.price.code:
        owner = Text(tr("owner_is", name=model.name(result.owner), price=tr.card(result.price)))
    else:
        owner = Text(tr("nobody_bought"))
    table = Table(box=None, expand=True, padding=(0, 1))
    table.add_column("", ratio=1, no_wrap=True)
    if model.teams:
        table.add_column(tr("team"), width=4, no_wrap=True)
    table.add_column(tr("score"), justify="right", width=7)
    table.add_column("", ratio=2)
    table.add_column(tr("total"), justify="right", width=6)
    shown_sides: set[tuple[int, ...]] = set()
    for name, score, why in model.score_lines(result):
        seat = next((s for s in model.seats() if model.name(s) == name), None)
        total = "" if seat is None or seat == model.lopaka else str(model.total(seat) or 0)
        team = []
        if model.teams and seat is not None:
            label = model.team_label(seat)
            team.append(Text(label, style=_TEAM_STYLES.get(label, "dim")))
            if model.side_of(seat) in shown_sides:
                total = ""  # partners share one total: shown once
            shown_sides.add(model.side_of(seat))
        table.add_row(*plain_cells(name, *team, f"{score:+d}", why, total))
    parts = [Text(tr("hand_over", n=result.number), style="bold"), pile, owner, table]
    if model.teams:
        parts.append(Text(tr("team_note"), style="italic"))
    parts.append(Text(tr("continue_review" if reviewable else "continue"), style="dim"))
    return Group(*parts)


class GameOverScreen(ModalScreen[None]):
    """The winner and the whole score sheet, hand by hand."""

    BINDINGS: ClassVar[list] = [
        Binding("enter,escape,space", "dismiss(None)", "Continue"),
        Binding("q", "app.quit", "Quit"),
    ]
    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    #overbox { width: 72; height: auto; max-height: 22; border: thick $success;
               background: $panel; padding: 0 1; }
    """

    def __init__(self, model: TableModel) -> None:
        super().__init__()
        self.model = model

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="overbox"):
            yield Static(score_sheet(self.model))


def score_sheet(model: TableModel) -> Group:
    tr = model.tr
    end = model.game_ended
    people = [s for s in model.seats() if s != model.lopaka] or list(range(model.people))
    if model.teams:  # partners share their score: one column per side
        people = [s for s in people if s == min(model.side_of(s))]
    table = Table(title=tr("sheet"), expand=True, padding=(0, 1))
    table.add_column("#", justify="right", width=3)
    for s in people:
        table.add_column(plain(model.side_name(s)), justify="right", no_wrap=True,
                         overflow="ellipsis")
    running = [0] * (max(people) + 1 if people else 0)
    for result in model.hand_results:
        cells = []
        for s in people:
            score = result.scores[s] if s < len(result.scores) else 0
            running[s] = result.totals[s] if s < len(result.totals) else running[s] + score
            cells.append(f"{score:+d} = {running[s]}")
        table.add_row(*plain_cells(str(result.number), *cells))
    lines = [Text(tr("game_over"), style="bold")]
    if end is not None:
        team = model.teams and model.partner(end.winner) is not None
        lines.append(Text(tr("winner_team" if team else "winner",
                             name=model.side_name(end.winner),
                             points=end.totals[end.winner]), style="bold green"))
    lines += [table, Text(tr("continue") + " · " + tr("quit_hint"), style="dim")]
    return Group(*lines)


class RulesScreen(ModalScreen[None]):
    """The player-facing rules in the client's language (shipped as package data)."""

    BINDINGS: ClassVar[list] = [Binding("escape,question_mark,q", "dismiss(None)", "Close")]
    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    #rulesbox { width: 90%; height: 90%; border: thick $accent; background: $panel;
                padding: 0 1; }
    """

    def __init__(self, tr: Tr) -> None:
        super().__init__()
        self.tr = tr

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rulesbox"):
            yield Static(Text(self.tr.rules_text()))

    def on_mount(self) -> None:
        self.query_one("#rulesbox").border_title = self.tr("rules_title")
        self.query_one("#rulesbox").focus()
