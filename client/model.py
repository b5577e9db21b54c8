"""The table as one seat (or a spectator) knows it: the server's latest view of it.

The server sends the seat's `SeatView` in the snapshot and with every turn; the
model keeps the latest one and reads everything it draws from it, the facts of
the rules included (who scores together, the passes still to choose, the pile
cards owed, the points taken).  The events are folded only for what they say:
the log (`log_lines`), the results the pop-ups show, and the cards played since
the latest view (a spectator's screen is redrawn card by card within a batch).
Nothing here decides or counts by a rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from cursedbottle.v1 import game_pb2, table_pb2

from .i18n import Tr, sort_cards
from .log_lines import Narrator, addressed, seat_name, side_of

Key = tuple[int, int]  # (table seat, hand)
#: Whom a pass goes to: (table seat, the receiver's hand), the hand None unless it
#: must be told apart (Devil's Eye passes one card to each of the opponent's hands).
Target = tuple[int, int | None]


@dataclass
class Played:
    seat: int
    card: game_pb2.Card
    hand: int = 0  # the seat's hand it came from (two hands each)


def _card(msg, field: str = "price") -> game_pb2.Card | None:
    """A singular card field: None when unset (hidden, or the starting price)."""
    return getattr(msg, field) if msg.HasField(field) and getattr(msg, field).code else None


def _opt(msg, field: str) -> int | None:
    return getattr(msg, field) if msg.HasField(field) else None


def _target(t: game_pb2.PassTarget | game_pb2.PassSeen, seat: int) -> Target:
    return (seat, t.hand if t.HasField("hand") else None)


def _last_trick(trick: game_pb2.CompletedTrick) -> game_pb2.TrickWon:
    """A finished trick of the view as the event that told it (the price after it)."""
    out = game_pb2.TrickWon(number=trick.number, leader=trick.leader, winner=trick.winner,
                            bought=trick.bought, cards=trick.cards)
    if trick.HasField("price_after"):
        out.price.CopyFrom(trick.price_after)
    return out


class TableModel:
    """Everything drawn on the table screen; `apply_update` feeds it."""

    def __init__(self, me: int | None, tr: Tr) -> None:
        self.me = me
        # The table's own translator: it learns the game from the rules (the Bottle
        # Imp's cards, its price "19", its rules text) without changing the app's.
        self.tr = Tr(tr.lang)
        self.narrator = Narrator(me, self.tr)
        self.info: table_pb2.TableInfo | None = None
        self.rules: game_pb2.Rules | None = None
        self.view: game_pb2.SeatView | None = None
        self.view_seq = 0  # the latest view holds every event below this
        self.next_seq = 0
        self.live_from = 0  # events below this were a replay (no pauses, no pop-ups)
        self.started = False
        self.totals: list[int] = []
        self.hand_results: list[game_pb2.HandEnded] = []
        self.game_ended: game_pb2.GameEnded | None = None
        self.legal: list[game_pb2.Action] = []
        self.turn_seq = 0
        self.acted_at = -1
        self.log: list[str] = []
        self.closed: str | None = None
        self._clear_hand()

    def _clear_hand(self) -> None:
        """No hand on the table (before the first view)."""
        self.hand_number = 0
        self.dealer: int | None = None
        self.seat_order: list[int] = []
        self.lopaka: int | None = None
        self.phase = game_pb2.PHASE_UNSPECIFIED
        self.stage_hand: int | None = None
        self.pass_to_hand: int | None = None  # the receiver's hand this pass stage feeds
        self.to_act: list[int] = []
        self.holdings: dict[Key, list[game_pb2.Card]] = {}  # the ones this seat sees
        self.counts: dict[Key, int] = {}
        self.open_hand: dict[int, int] = {}
        self.pile_size = 0
        self.my_pile: list[game_pb2.Card] = []
        # (receiver, its hand or None) -> card; (giver, my hand or None) -> card
        self.passes_given: dict[Target, game_pb2.Card] = {}
        self.passes_received: dict[Target, game_pb2.Card] = {}
        self.trick: list[Played] = []
        self.played: list[Played] = []  # every card played this hand, in order
        self.last_trick: game_pb2.TrickWon | None = None
        self.tricks: list[game_pb2.TrickWon] = []  # every trick taken this hand, in order
        self.play_limits: list[game_pb2.PlayLimit] = []  # why cards may not be played
        self.tricks_played = 0
        self.bottles: list[game_pb2.Bottle] = []  # the second bottle: both, on sale first
        self.price: game_pb2.Card | None = None
        self.owner: int | None = None
        self.taken: dict[int, int] = {}

    # ------------------------------------------------------------ the view

    def use_view(self, view: game_pb2.SeatView, sequence: int) -> None:
        """Draw the table as this view (which holds the log up to `sequence`) says."""
        self.view, self.view_seq = view, sequence
        self.started = True
        self._use_rules(view.rules)
        self.hand_number, self.dealer = view.hand_number, view.dealer
        self.seat_order = list(view.seat_order)
        self.lopaka = _opt(view, "lopaka")
        self.phase = view.phase
        self.stage_hand = _opt(view, "stage_hand")
        self.pass_to_hand = _opt(view, "pass_to_hand")
        self.to_act = list(view.to_act)
        self.holdings = {(h.seat, h.hand): list(h.cards) for h in view.holdings if h.visible}
        self.counts = {(h.seat, h.hand): h.size for h in view.holdings}
        self.open_hand = {o.seat: o.hand for o in view.open_hands}
        self.pile_size = view.pile_size
        self.my_pile = list(view.my_pile_cards)
        self.passes_given = {_target(p, p.seat): p.card for p in view.passes_given}
        self.passes_received = {_target(p, p.seat): p.card for p in view.passes_received}
        self.trick = [Played(p.seat, p.card, p.hand) for p in view.trick]
        self.played = [Played(p.seat, p.card, p.hand) for t in view.tricks for p in t.cards]
        self.played += self.trick
        # (as the events tell it: the last trick lies there until the next is led)
        self.last_trick = _last_trick(view.tricks[-1]) if view.tricks and not view.trick else None
        self.tricks_played = len(view.tricks)
        self.tricks = [_last_trick(t) for t in view.tricks]
        self.play_limits = list(view.play_limits)
        self.bottles = list(view.bottles)
        self.price, self.owner = _card(view), _opt(view, "owner")
        self.taken = {t.seat: t.points for t in view.taken}
        self.totals = list(view.totals)

    def _use_rules(self, rules: game_pb2.Rules) -> None:
        self.rules = self.narrator.rules = rules
        self.tr.use_rules(rules)

    # ---------------------------------------------------------------- reading

    def name(self, seat: int | None) -> str:
        return seat_name(self.tr, self.info, seat, self.lopaka)

    @property
    def people(self) -> int:
        """The people at the table (everyone but Lopaka)."""
        if self.rules is not None and self.rules.sides:
            return sum(len(side.seats) for side in self.rules.sides)
        if self.info is None:
            return 0
        return sum(1 for s in self.info.seats if s.kind != table_pb2.SEAT_KIND_LOPAKA)

    @property
    def bottle_imp(self) -> bool:
        return bool(self.rules and self.rules.game == game_pb2.GAME_BOTTLE_IMP)

    @property
    def devils_eye(self) -> bool:
        """The Bottle Imp for two: two hands each, the first laid open for the play."""
        return bool(self.rules and self.rules.devils_eye)

    @property
    def two_hands(self) -> bool:
        """Each seat holds two hands (the bright house, Devil's Eye): two hand rows."""
        return bool(self.rules and self.rules.two_hands)

    @property
    def teams(self) -> bool:
        """Some play in pairs (the team mode: its five and its 2-2-1-1 leave some alone)."""
        return any(len(side) > 1 for side in self.sides())

    @property
    def second_bottle(self) -> bool:
        """Two bottles on the table (the view lists the bottles only then)."""
        return len(self.bottles) > 1

    def bottle_owners(self) -> list[int | None]:
        """Who owns each bottle (the one for sale first); one entry with one bottle."""
        if not self.second_bottle:
            return [self.owner]
        return [_opt(b, "owner") for b in self.bottles]

    def bottle_prices(self) -> list[game_pb2.Card | None]:
        if not self.second_bottle:
            return [self.price]
        return [_card(b) for b in self.bottles]

    # ------------------------------------------------------------------ teams

    def sides(self) -> list[tuple[int, ...]]:
        """Who scores together (the server's `Rules.sides`); everyone alone without teams."""
        if self.rules is None:
            return []
        return [tuple(side.seats) for side in self.rules.sides]

    def side_of(self, seat: int) -> tuple[int, ...]:
        return side_of(self.rules, seat)

    def partner(self, seat: int) -> int | None:
        side = self.side_of(seat)
        return next((s for s in side if s != seat), None) if len(side) == 2 else None

    def team_label(self, seat: int) -> str:
        """"A", "B", "C" for the pairs in seat order; those who play alone are "solo"."""
        if not self.teams:
            return ""
        pairs = [side for side in self.sides() if len(side) == 2]
        side = self.side_of(seat)
        return "ABC"[pairs.index(side)] if side in pairs else self.tr("solo")

    def side_name(self, seat: int) -> str:
        """The seat's name, or in team mode both partners' ("Bob + Dan")."""
        return " + ".join(self.name(s) for s in self.side_of(seat)) if self.teams else (
            self.name(seat))

    def seats(self) -> list[int]:
        """Table seats at the table this hand, clockwise (Lopaka included)."""
        if self.seat_order:
            return list(self.seat_order)
        if self.info is not None:
            return [s.seat for s in self.info.seats]
        return []

    def my_hands(self) -> list[tuple[int, list[game_pb2.Card]]]:
        """(hand, cards sorted by the total order) of the seat; two in the bright house
        and in Devil's Eye."""
        if self.me is None:
            return []
        hands = (0, 1) if self.two_hands else (0,)
        return [(h, sort_cards(self.holdings.get((self.me, h), []))) for h in hands]

    # ------------------------------------------------------------ the turn

    def my_turn(self) -> bool:
        return (
            self.me is not None
            and self.me in self.to_act
            and bool(self.legal)
            and self.turn_seq >= self.acted_at
            and self.game_ended is None
        )

    def legal_kind(self) -> str | None:
        if not self.my_turn():
            return None
        return self.legal[0].WhichOneof("kind")

    def legal_codes(self) -> set[str]:
        out = set()
        for a in self.legal if self.my_turn() else ():
            kind = a.WhichOneof("kind")
            if kind in ("pile", "play"):
                out.add(getattr(a, kind).card.code)
            elif kind == "pass_card":
                out.add(a.pass_card.card.code)
        return out

    def find_action(self, kind: str, code: str = "", to: int | None = None,
                    hand: int | None = None) -> game_pb2.Action | None:
        """The server's legal action matching a choice, if any."""
        for a in self.legal if self.my_turn() else ():
            if a.WhichOneof("kind") != kind:
                continue
            if kind == "choose_open":
                if a.choose_open.hand == hand:
                    return a
            elif kind == "pass_card":
                if a.pass_card.card.code == code and (to is None or a.pass_card.to == to):
                    return a
            elif getattr(a, kind).card.code == code:
                return a
        return None

    def stage_targets(self) -> list[Target]:
        """The passes the server asks for now, as (seat, receiver's hand)."""
        if self.legal_kind() != "pass_card" or self.view is None:
            return []
        return [_target(t, t.to) for t in self.view.pass_targets]

    def plan_targets(self) -> list[Target]:
        """Every pass still to be chosen in this setup stage, in the order the server asks
        for them (the view's `pass_plan`).  Devil's Eye chooses both (first hand, then
        second hand) together with the pile cards although the server takes them one
        stage at a time, so that a person decides the whole setup at once, as at a
        real table."""
        return [] if self.view is None else [_target(t, t.to) for t in self.view.pass_plan]

    def pass_targets(self) -> list[int]:
        """Whom the seat still passes to in this setup, in the order it is asked."""
        out: list[int] = []
        for to, _hand in self.stage_targets() or self.plan_targets():
            if to not in out:
                out.append(to)
        return out

    def target_hand(self) -> int | None:
        """The receiver's hand the server's current pass stage feeds, when it matters
        (Devil's Eye asks for the pass to the first hand, then for the second)."""
        return self.pass_to_hand if self.devils_eye else None

    def pile_needed(self) -> int:
        """Pile cards the seat still lays in this stage, when asked (the view's
        `pile_owed`: Devil's Eye two; fewer once some are laid, e.g. before a
        reconnection)."""
        if self.legal_kind() != "pile" or self.view is None:
            return 0
        return self.view.pile_owed

    def previous_trick(self) -> game_pb2.TrickWon | None:
        """The trick taken last this hand (it stays in view beside the next one)."""
        return self.tricks[-1] if self.tricks else None

    def limit_of(self, code: str) -> game_pb2.PlayLimit | None:
        """Why the card `code` may not be played now, as the server says (None: it may,
        or the server gave no reason)."""
        for limit in self.play_limits if self.my_turn() else ():
            if any(c.code == code for c in limit.blocked):
                return limit
        return None

    def points_taken(self, seat: int) -> int:
        return self.taken.get(seat, 0)

    def total(self, seat: int) -> int | None:
        return self.totals[seat] if 0 <= seat < len(self.totals) else None

    def game_over_line(self) -> str:
        """"Game over: Ann wins." (in team mode the winning side: "Bob + Dan win")."""
        if self.game_ended is None:
            return ""
        return self.narrator.game_over_line(self.game_ended)

    def addressed(self, key: str, who: int | None = None, **params: object) -> str:
        """The text of `key`; when `who` is this seat, the one addressed to "you" if
        the language has it (English "You win", not "You wins")."""
        return addressed(self.tr, self.me, key, who, **params)

    # ---------------------------------------------------------------- updates

    def apply_update(self, update: table_pb2.TableUpdate) -> list[game_pb2.GameEvent]:
        """Fold one stream message in; returns the new events (for pacing and pop-ups)."""
        kind = update.WhichOneof("kind")
        if kind == "snapshot":
            snap = update.snapshot
            self.set_info(snap.table)
            if snap.HasField("view"):
                self.use_view(snap.view, snap.sequence)
            self.live_from = max(self.live_from, snap.sequence)
            return []
        if kind == "table":
            self.set_info(update.table)
            return []
        if kind == "closed":
            self.closed = update.closed.reason
            return []
        if kind == "batch":
            new = [e for e in update.batch.events if e.sequence >= self.next_seq]
            for event in new:
                self.apply_event(event)
            if update.batch.HasField("turn"):
                self.apply_turn(update.batch.turn)
            return new
        return []

    def set_info(self, info: table_pb2.TableInfo) -> None:
        self.info = self.narrator.info = info
        if self.rules is None and info.HasField("rules"):
            self._use_rules(info.rules)
        if info.totals and not self.totals:
            self.totals = list(info.totals)

    def apply_turn(self, turn: table_pb2.TurnUpdate) -> None:
        if turn.HasField("view") and turn.sequence >= self.view_seq:
            self.use_view(turn.view, turn.sequence)  # the table as it was then
        if turn.sequence < self.acted_at:
            return  # its legal moves were sent before our last action: stale
        self.turn_seq = turn.sequence
        self.to_act = list(turn.to_act)
        self.legal = list(turn.legal_actions)

    def acted(self, sequence: int) -> None:
        """Our action was accepted: wait for a turn at least this new."""
        self.acted_at = max(self.acted_at, sequence)
        if self.turn_seq < sequence:  # the legal moves we hold are from before the action
            self.legal = []

    def apply_event(self, event: game_pb2.GameEvent) -> None:
        """The event's log lines and results; and, when it is newer than the view, what it
        shows before the next view comes (the card played, the trick taken)."""
        self.next_seq = event.sequence + 1
        self.log.extend(self.narrator.lines(event))
        kind = event.WhichOneof("kind")
        m = getattr(event, kind)
        if kind == "game_started":
            self.started = True
            self._use_rules(m.rules)
        elif kind == "hand_ended":
            self.hand_results.append(m)
        elif kind == "game_ended":
            self.game_ended = m
            self.legal = []
        if event.sequence >= self.view_seq:
            self._show(kind, m)

    def _show(self, kind: str, m) -> None:
        """An event the latest view does not hold yet, as it lies on the table."""
        if kind == "hand_started":
            self._clear_hand()
            self.hand_number, self.dealer = m.number, m.dealer
            self.seat_order, self.lopaka = list(m.seat_order), _opt(m, "lopaka")
        elif kind == "card_played":
            if not self.trick:
                self.last_trick = None
            self.trick.append(Played(m.seat, m.card, m.hand))
            self.play_limits = []  # the next view says them again
            self.played.append(self.trick[-1])
            key = (m.seat, m.hand)
            if key in self.holdings:
                self.holdings[key] = [c for c in self.holdings[key] if c.code != m.card.code]
            if key in self.counts:
                self.counts[key] = max(0, self.counts[key] - 1)
        elif kind == "trick_won":
            self.last_trick, self.trick = m, []
            self.tricks.append(m)
            self.tricks_played += 1
            self.price, self.owner = _card(m), _opt(m, "owner")
            if m.bottles:  # the second bottle: the price that counts is the one for sale
                self.bottles = list(m.bottles)
                self.price, self.owner = _card(m.bottles[0]), _opt(m.bottles[0], "owner")
        elif kind in ("hand_ended", "game_ended"):
            self.totals = list(m.totals)
            self.to_act = []
            if kind == "hand_ended":
                self.phase = game_pb2.PHASE_OVER

    # ----------------------------------------------------------- end of hand

    def score_lines(self, result: game_pb2.HandEnded) -> list[tuple[str, int, str]]:
        """(name, score, why) per seat of a finished hand."""
        tr = self.tr
        owner = _opt(result, "owner")
        owners = [b.owner for b in result.bottles if b.HasField("owner")] or [owner]
        out = []
        for seat in self.seats():
            if seat >= len(result.scores):
                continue
            score = result.scores[seat]
            taken = result.points_taken[seat] if seat < len(result.points_taken) else 0
            if seat == self.lopaka:
                why = tr("why_lopaka")
            elif seat == owner and self.rules is not None and self.rules.hot_bottle:
                # (the owner of the hot bottle pays its own tricks too: the words say so)
                why = tr("why_owner_hot", pile=result.pile_points, own=taken)
            elif seat in owners:
                why = tr("why_owner", pile=result.pile_points)
                if owners.count(seat) > 1:
                    why += " ×2"
            else:
                why = tr("why_tricks", points=taken)
            out.append((self.name(seat), score, why))
        return out
