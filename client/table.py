"""The table screen: where a hand is played (or watched).

The screen follows the seat's stream into the model, turns keys into the
server's legal actions, and holds what the seat is choosing (the cursor, the
staged setup, the last hint, a refusal or a note) as reactive state; the
widgets are bound to it and draw themselves when it changes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ClassVar

import grpc
from cursedbottle.v1 import game_pb2, table_pb2
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import Screen

from .cue import Cue
from .hints import best_now
from .model import TableModel
from .net import Seat, Session
from .plan import ASKED, Plan, Step, active_hand, due, marks, selectable, stage_plan, step
from .popups import (
    AskQuitScreen,
    GameOverScreen,
    HandEndScreen,
    HintScreen,
    PopupQueue,
    RulesScreen,
    TricksScreen,
    TutorScreen,
)
from .prompt import Said, not_your_turn, refusal_text
from .refusals import refusal
from .review import hand_loader
from .stream import Back, Lost, Refused, resume
from .tutor import action_code, tutor_loss
from .tutoring import Tutoring
from .widgets import (
    NUMBER_KEYS,
    Banner,
    HandRow,
    HandState,
    HandView,
    LogPanel,
    OpensView,
    SeatsView,
    StatusLine,
    TextLine,
    TrickView,
    hand_rows,
)

__all__ = ["GameOverScreen", "HandEndScreen", "HintScreen", "RulesScreen", "TableScreen",
           "TutorScreen", "tutor_loss"]

SPEEDS = (0.0, 0.25, 0.5, 1.0, 2.0)


class TableScreen(Cue, Tutoring, Screen):
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
        Binding("l", "tricks", "Tricks", show=False),
        Binding("v", "toggle('values')", "Points", show=False),
        Binding("escape", "back", "Back", show=False),
        Binding("s", "start", "Start", show=False),
        Binding("plus", "speed(-1)", "Faster", show=False),
        Binding("minus", "speed(1)", "Slower", show=False),
        Binding("q", "quit", "Quit"),
    ]
    CSS_PATH = "table.tcss"

    #: The table as the stream tells it (a mutable model: `_changed` says it changed).
    model: var[TableModel | None] = var(None, init=False)
    #: The staged setup of this stage (mutable too: `_replanned` says it changed).
    plan: var[Plan | None] = var(None, init=False)
    cursor: var[int | None] = var(None, init=False)  # an index in the flat list of cards
    hint: var[table_pb2.HintResponse | None] = var(None, init=False)
    message = var("", init=False)  # a refusal, in red on the prompt line
    note = var("", init=False)  # a plain line for the prompt: tutor, resumed seat
    reconnecting = var(False, init=False)
    speed = var(0.5, init=False)  # seconds per card for a spectator
    tutor = var(False, init=False)
    values = var(False, init=False)  # each card's points under it (v; boxed cards show them)
    # What the widgets draw, computed from the above.
    said: var[tuple[str, ...]] = var(("", ""), init=False)  # (text, style, …): see cue
    keys: var[Said] = var(("", ""), init=False)
    hand: var[HandState] = var(HandState, init=False)

    def __init__(self, model: TableModel, session: Session | None, seat: Seat | None,
                 hint_budget_ms: int = 1000, speed: float = 0.5, tutor: bool = False,
                 tutor_threshold: float = 2.0) -> None:
        super().__init__()
        self.tr = model.tr
        self.session = session
        self.seat = seat
        self.hint_budget_ms = hint_budget_ms
        self.tutor_threshold = tutor_threshold
        #: The card that waits for the tutor's hint (or the "are you sure"), if any.
        self._tutoring: game_pb2.Action | None = None
        self.starting = False
        self._popups = PopupQueue()
        self._busy = False
        self.model = model
        self.speed = speed
        self.tutor = tutor

    # ---------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        tr = self.tr
        yield StatusLine(id="status", markup=False).data_bind(TableScreen.model)
        yield Banner(tr("reconnecting"), id="banner", markup=False).data_bind(
            shown=TableScreen.reconnecting)
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield SeatsView(id="seats", markup=False).data_bind(TableScreen.model)
                yield TrickView(id="trick", markup=False).data_bind(TableScreen.model)
                yield OpensView(id="opens", markup=False).data_bind(TableScreen.model)
            yield LogPanel(tr("log"), id="logbox").data_bind(TableScreen.model)
        yield TextLine(id="prompt", markup=False).data_bind(said=TableScreen.said)
        yield HandView(tr, id="hand").data_bind(TableScreen.hand)
        yield TextLine(tr("keys_table"), id="keys", markup=False).data_bind(
            said=TableScreen.keys)

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(LogPanel).fit(event.size.width)

    def on_mount(self) -> None:
        if self.session is not None and self.seat is not None:
            self.follow()

    # -------------------------------------------------------------- the state

    def _changed(self) -> None:
        """The model was changed in place: redraw what is bound to it."""
        self.mutate_reactive(TableScreen.model)

    def _replanned(self) -> None:
        """The plan was changed in place."""
        self.mutate_reactive(TableScreen.plan)

    def watch_model(self) -> None:
        self._plan()
        self.cursor = self.cursor  # kept within the hand (validate_cursor)
        self.forget_stale()

    def watch_plan(self) -> None:
        self.hint = None  # a hint ranks one step of the setup: a new step needs a new one

    def validate_cursor(self, cursor: int | None) -> int | None:
        count = len(self._flat())
        if cursor is not None and cursor >= count:
            return count - 1 if count else None
        return cursor

    def compute_hand(self) -> HandState:
        m = self.model
        rows, active = self._hand_rows()
        hint_code = None
        if self.hint is not None and self.hint.actions and self._step() in ASKED:
            hint_code = action_code(self.hint.actions[0].action)
        return HandState(tuple(rows), frozenset(selectable(m, self.plan)), self.cursor,
                         hint_code, self._marks(), active, self.values)

    # ----------------------------------------------------------------- stream

    @work(exclusive=True, group="stream")
    async def follow(self) -> None:
        """Follow the stream; a dropped connection shows the banner until it is back."""
        async for item in resume(self.session, self.seat, lambda: self.model.next_seq):
            if isinstance(item, Lost):
                self.reconnecting = True
            elif isinstance(item, Back):
                self.reconnecting, self.message = False, ""  # an outage's error is over
                self.model.log.append(self.tr("reconnected"))
            elif isinstance(item, Refused):
                self.message = self.tr("refused", msg=self._refusal(item.error) if item.error
                                       else item.text)
            else:
                await self._handle_update(item)

    async def _handle_update(self, update: table_pb2.TableUpdate) -> None:
        model = self.model
        if update.WhichOneof("kind") != "batch":
            model.apply_update(update)
            self._changed()
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
                loader = None if self.session is None or self.seat is None else hand_loader(
                    self.session, self.seat, event.hand_ended.number)
                self._popups.add(self.app, HandEndScreen(model, event.hand_ended, loader))
            if live and kind == "game_ended":
                self._popups.add(self.app, GameOverScreen(model, self.session is not None))
            if live and pace and kind in ("card_played", "trick_won"):
                self._changed()
                await asyncio.sleep(pace)
        if batch.HasField("turn"):
            model.apply_turn(batch.turn)
            if self._step() not in ASKED:
                self.hint = None
        await self._after_turn()
        self._changed()

    async def _start(self) -> None:
        try:
            await self.session.start(self.seat)
        except grpc.aio.AioRpcError as exc:
            self.starting = False
            self.message = self.tr("refused", msg=self._refusal(exc))

    # ------------------------------------------------------------- the hand

    def _hand_rows(self) -> tuple[list[HandRow], int | None]:
        return hand_rows(self.model)

    def _active_hand(self) -> int | None:
        return active_hand(self.model)

    def _flat(self) -> list[tuple[int, game_pb2.Card]]:
        rows, _ = self._hand_rows()
        return [(r.hand, c) for r in rows for c in r.cards]

    def _first_row(self) -> int:
        return len(dict(self.model.my_hands()).get(0, []))

    # --------------------------------------------------------------- deciding

    def _plan(self) -> Plan | None:
        """The staged pile and passes of this stage, made when the server first asks for
        the stage's pile card or pass (see plan.stage_plan) and kept."""
        plan = stage_plan(self.model, self.plan)
        if plan is not None and plan is not self.plan:
            self.plan = plan
        return plan

    def _step(self) -> Step:
        """What the seat is asked now: play, pile, pass, confirm, open, wait, …"""
        return step(self.model, self._plan())

    def _selectable_codes(self) -> set[str]:
        """The cards that may be chosen now (legal, minus what is already staged)."""
        return selectable(self.model, self._plan())

    def _marks(self) -> dict[str, str]:
        """Staged choices drawn over their cards (see plan.marks)."""
        plan = self.plan
        names = [self.model.name(to) for to, _h in plan.targets] if plan is not None else []
        return marks(plan, names)

    # ----------------------------------------------------------------- input

    def _clear(self) -> None:
        """A key was pressed: the refusal goes, and the note unless the tutor speaks."""
        self.message = ""
        if self._tutoring is None:
            self.note = ""

    def action_move(self, direction: int) -> None:
        flat = self._flat()
        if not flat:
            return
        choosable = self._selectable_codes()
        order = [i for i, (_h, c) in enumerate(flat) if c.code in choosable] or list(
            range(len(flat))
        )
        if self.cursor is None:
            self.cursor = order[0] if direction > 0 else order[-1]
        elif self.cursor not in order:
            # on a card that may not be chosen (↑/↓ to the other row): the next one that
            # may, in the direction of the key, so that the row is kept where it can be
            ahead = [i for i in order if (i > self.cursor if direction > 0 else i < self.cursor)]
            self.cursor = (ahead[0] if direction > 0 else ahead[-1]) if ahead else (
                order[0] if direction > 0 else order[-1])
        else:
            self.cursor = order[(order.index(self.cursor) + direction) % len(order)]
        self._clear()

    def action_row(self, direction: int) -> None:
        m = self.model
        if self._step() == Step.OPEN:
            self.cursor = 0 if direction < 0 else self._first_row()
            return
        if not m.two_hands:
            return
        flat = self._flat()
        if not flat:
            return
        first_row = self._first_row()
        cur = self.cursor or 0
        self.cursor = (min(len(flat) - 1, cur + first_row) if direction > 0
                       else max(0, cur - first_row))

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character in NUMBER_KEYS and (
                event.character.isdigit() or self.model.me is not None):  # -/= : speed
            event.stop()
            self._number(NUMBER_KEYS.index(event.character))

    def _number(self, index: int) -> None:
        if self._step() == Step.OPEN:
            if index in (0, 1):
                self.run_worker(self._choose_open(index), group="act")
            return
        target = self.query_one(HandView).number_to_index(index)
        if target is not None:
            self.cursor = target
            self.message = ""

    @on(HandView.Picked)
    def _picked(self, event: HandView.Picked) -> None:
        self.cursor = event.index
        self.message = ""
        if event.confirm:
            self.action_choose()

    def action_choose(self) -> None:
        """Enter: play, stage, confirm or choose, depending on what is asked."""
        if self._busy or self._tutoring is not None:
            return
        now = self._step()
        m = self.model
        flat = self._flat()
        card = flat[self.cursor][1] if self.cursor is not None and self.cursor < len(flat) else None
        if now in (Step.PLAY, Step.PILE, Step.PASS) and card is None:
            self.message = self.tr("no_card_chosen")  # Enter before any card is chosen
            return
        if now == Step.PLAY:
            action, limit = m.find_action("play", card.code), m.limit_of(card.code)
            if action is None and limit is not None:  # the server said which rule says no
                self.message = self.tr("refused", msg=refusal_text(m, limit, card))
                return
            if action is None:  # not legal, no reason given: let the server explain
                action = game_pb2.Action(play=game_pb2.PlayCardAction(card=card))
            elif self.tutor and self.session is not None and len(m.legal) > 1:
                self._tutored_play(action)
                return
            self.run_worker(self._send([action]), group="act")
        elif now in (Step.PILE, Step.PASS):
            if card.code not in self._selectable_codes():
                return
            (self.plan.pile if now == Step.PILE else self.plan.passes).append(card)
            self._replanned()
            self.cursor = None
        elif now == Step.CONFIRM:
            self.plan.confirmed = True
            self._replanned()
            self.run_worker(self._after_turn(), group="act")
        elif now == Step.OPEN:
            hand = 0 if self.cursor is None or self.cursor < self._first_row() else 1
            self.run_worker(self._choose_open(hand), group="act")
        elif m.game_ended is not None:  # the final standings again, and what next
            self._popups.add(self.app, GameOverScreen(m, self.session is not None))
        elif now == Step.WAIT:
            self.message = not_your_turn(m)

    def action_back(self) -> None:
        """Esc: take back the last staged choice not sent yet (one step, not all)."""
        self._clear()
        if self.plan is None:
            return
        if self.plan.undo():
            self._replanned()
        else:
            self.message = self.tr("undo_sent")

    # --------------------------------------------------------------- sending

    async def _choose_open(self, hand: int) -> None:
        action = self.model.find_action("choose_open", hand=hand)
        if action is not None:
            await self._send([action])

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
        """Send what of the plan the server asks for now (see plan.due)."""
        asked = due(self.model, plan)
        if asked.taken_back:
            self._replanned()
        if not asked.actions:
            return False
        return await self._send(asked.actions, lambda i: plan.mark_sent(asked.sent[i]))

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
            self.message = self.tr("refused", msg=self._refusal(exc))
            return False
        finally:
            self._busy = False
            self._changed()

    # ------------------------------------------------------------------ hint

    def action_hint(self) -> None:
        """h: the server's ranking of what the seat chooses now (in the setup: the step
        after the staged choices, which stay unsent so that Esc can take them back)."""
        now = self._step()
        if self.session is None or now not in ASKED:
            if self.model.me is not None:
                self.message = self.tr("hint_later" if now == Step.CONFIRM else "hint_none")
            return
        staged = self.plan.staged() if now in (Step.PILE, Step.PASS) else []
        screen = HintScreen(self.model)
        self.app.push_screen(screen, self._hint_closed)
        self._fetch_hint(screen, staged)

    @work(group="hint")
    async def _fetch_hint(self, screen: HintScreen, staged: list[game_pb2.Action]) -> None:
        try:
            hint = await self.session.hint(self.seat, self.hint_budget_ms, staged)
        except grpc.aio.AioRpcError as exc:
            screen.show_error(self._refusal(exc))
            return
        self.hint = hint
        if hint.actions:
            self._point_at(hint.actions[0].action)
        screen.show(hint)

    def _point_at(self, action: game_pb2.Action) -> None:
        """The cursor on the action's card (the first card of the hand it opens)."""
        if action.WhichOneof("kind") == "choose_open":
            self.cursor = 0 if action.choose_open.hand == 0 else self._first_row()
            return
        code = action_code(action)
        self.cursor = next((i for i, (_h, c) in enumerate(self._flat()) if c.code == code),
                           self.cursor)

    def _refusal(self, exc: grpc.aio.AioRpcError) -> str:
        """The server's refusal in the table's language, its seats named as here."""
        return refusal(self.tr, exc, self.model.name)

    def _hint_closed(self, result: str | None) -> None:
        if result == "play":
            self._take_best()

    def _take_best(self) -> None:
        """Enter in the hint: play (or stage) the best choice; if that can no longer be
        done (the turn or the step moved on), say so rather than do nothing."""
        best = best_now(self.hint, self._step(), self._selectable_codes())
        if best is None or self._busy or self._tutoring is not None:
            self.message = self.tr("hint_stale")
            return
        self._point_at(best)
        self.action_choose()

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

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.tr, self.model.rules))

    def action_tricks(self) -> None:
        """l: every trick of the hand so far."""
        if self.model.started:
            self.app.push_screen(TricksScreen(self.model))

    def action_quit(self) -> None:
        """q: a game in progress asks first, unless the app asks itself (a LAN seat)."""
        self._drop_tutoring()
        if not self.in_progress() or getattr(self.app, "leave_on_quit", False):
            self.app.action_quit()
        else:
            self.app.push_screen(AskQuitScreen(self.tr),
                                 lambda sure: self.app.action_quit() if sure else None)

    def action_start(self) -> None:
        if self.seat is not None and self.session is not None and not self.model.started:
            self.run_worker(self._start(), group="start")

    def action_speed(self, direction: int) -> None:
        if self.model.me is not None:
            return
        i = SPEEDS.index(self.speed) if self.speed in SPEEDS else 2
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + direction))]
