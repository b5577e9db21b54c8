"""The table as one seat (or a spectator) knows it, rebuilt from the event stream.

The client subscribes from sequence 0 and folds every event into this model,
so a fresh start, a resumed stream and a spectator all take the same path and
the log is always complete.  Nothing here decides a rule: legal moves come
from the server's `TurnUpdate`, points from the server's `Card.points`.
"""

from __future__ import annotations

from dataclasses import dataclass

from cursedbottle.v1 import game_pb2, table_pb2

from .i18n import Tr, sort_cards

Key = tuple[int, int]  # (table seat, hand)
#: Whom a pass goes to: (table seat, the receiver's hand), the hand None unless it
#: must be told apart (Devil's Eye passes one card to each of the opponent's hands).
Target = tuple[int, int | None]


@dataclass
class Played:
    seat: int
    card: game_pb2.Card
    hand: int


class TableModel:
    """Everything drawn on the table screen; `apply_update` feeds it."""

    def __init__(self, me: int | None, tr: Tr) -> None:
        self.me = me
        # The table's own translator: it learns the game from the rules (the Bottle
        # Imp's cards, its price "19", its rules text) without changing the app's.
        self.tr = Tr(tr.lang)
        self.info: table_pb2.TableInfo | None = None
        self.rules: game_pb2.Rules | None = None
        self.next_seq = 0
        self.live_from = 0  # events below this were a replay (no pauses, no pop-ups)
        self.started = False
        self.hand_number = 0
        self.dealer: int | None = None
        self.seat_order: list[int] = []
        self.lopaka: int | None = None
        self.phase = game_pb2.PHASE_UNSPECIFIED
        self.stage_hand: int | None = None
        self.pass_to_hand: int | None = None  # the receiver's hand this pass stage feeds
        self.to_act: list[int] = []
        self.holdings: dict[Key, list[game_pb2.Card]] = {}
        self.counts: dict[Key, int] = {}
        self.open_hand: dict[int, int] = {}
        self.my_open_choice: int | None = None
        self.pile_size = 0
        self.my_pile: list[game_pb2.Card] = []
        # (receiver, its hand or None) -> card; (giver, my hand or None) -> card
        self.passes_given: dict[Target, game_pb2.Card] = {}
        self.passes_received: dict[Target, game_pb2.Card] = {}
        self.trick: list[Played] = []
        self.played: list[Played] = []  # every card played this hand, in order
        self.last_trick: game_pb2.TrickWon | None = None
        self.bottles: list[game_pb2.Bottle] = []
        self.tricks_played = 0
        self.price: game_pb2.Card | None = None
        self.owner: int | None = None
        self.taken: dict[int, int] = {}
        self.totals: list[int] = []
        self.hand_results: list[game_pb2.HandEnded] = []
        self.game_ended: game_pb2.GameEnded | None = None
        self.legal: list[game_pb2.Action] = []
        self.turn_seq = 0
        self.acted_at = -1
        self.log: list[str] = []
        self.closed: str | None = None

    # ---------------------------------------------------------------- reading

    def name(self, seat: int | None) -> str:
        tr = self.tr
        if seat is None:
            return tr("nobody")
        if seat == self.lopaka:
            return tr("lopaka")
        if self.info is not None:
            names = [s.name for s in self.info.seats]
            for s in self.info.seats:
                if s.seat == seat and s.name:
                    # two "rule bot"s at one table: tell them apart by their seat
                    return s.name if names.count(s.name) == 1 else f"{s.name} {seat}"
        return f"#{seat}"

    @property
    def people(self) -> int:
        return self.rules.players if self.rules else (len(self.info.seats) if self.info else 0)

    @property
    def bright(self) -> bool:
        return bool(self.rules and self.rules.bright_house)

    @property
    def bottle_imp(self) -> bool:
        return bool(self.rules and self.rules.game == game_pb2.GAME_BOTTLE_IMP)

    @property
    def devils_eye(self) -> bool:
        """The Bottle Imp for two: two hands each, the first laid open for the play."""
        return self.bottle_imp and self.people == 2

    @property
    def two_hands(self) -> bool:
        """Each seat holds two hands (the bright house, Devil's Eye): two hand rows."""
        return self.bright or self.devils_eye

    @property
    def teams(self) -> bool:
        return bool(self.rules and self.rules.teams)

    def _use_rules(self, rules: game_pb2.Rules) -> None:
        self.rules = rules
        self.tr.use_rules(rules)

    @property
    def second_bottle(self) -> bool:
        return bool(self.rules and self.rules.second_bottle)

    def bottle_owners(self) -> list[int | None]:
        """Who owns each bottle (the one for sale first); one entry without the second
        bottle."""
        if not self.second_bottle:
            return [self.owner]
        if not self.bottles:
            return [None, None]
        return [b.owner if b.HasField("owner") else None for b in self.bottles]

    def bottle_prices(self) -> list[game_pb2.Card | None]:
        if not self.second_bottle:
            return [self.price]
        if not self.bottles:
            return [None, None]
        return [b.price if b.HasField("price") and b.price.code else None for b in self.bottles]

    # ------------------------------------------------------------------ teams

    def sides(self) -> list[tuple[int, ...]]:
        """Who scores together (game.proto, `Rules.teams`): partners opposite each other
        (4: 0+2, 1+3; 6: 0+3, 1+4, 2+5, or with `singles` 0 and 3 alone, 1+4, 2+5;
        5: seat 0 alone, 1+3, 2+4); else everyone alone."""
        n = self.people
        if not self.teams or n < 4:
            return [(s,) for s in range(n)]
        if n == 5:
            return [(0,), (1, 3), (2, 4)]
        if n == 6 and self.rules is not None and self.rules.singles:
            return [(0,), (1, 4), (2, 5), (3,)]
        half = n // 2
        return [(s, s + half) for s in range(half)]

    def side_of(self, seat: int) -> tuple[int, ...]:
        for side in self.sides():
            if seat in side:
                return side
        return (seat,)

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

    def pass_targets(self) -> list[int]:
        """Whom the seat passes to: from the legal actions when the server gave them, else
        the neighbours in the hand's seat order (left first), only to label the choices."""
        if self.legal_kind() == "pass_card":
            seen: list[int] = []
            for a in self.legal:
                if a.pass_card.to not in seen:
                    seen.append(a.pass_card.to)
            return seen
        people = [s for s in self.seats() if s != self.lopaka]
        if self.me not in people:
            return []
        if len(people) == 2:
            return [s for s in people if s != self.me]
        i = people.index(self.me)
        return [people[(i + 1) % len(people)], people[(i - 1) % len(people)]]

    def target_hand(self) -> int | None:
        """The receiver's hand the server's current pass stage feeds, when it matters
        (Devil's Eye asks for the pass to the first hand, then for the second)."""
        return self.pass_to_hand if self.devils_eye else None

    def stage_targets(self) -> list[Target]:
        """The passes the server asks for now, as (seat, receiver's hand)."""
        if self.legal_kind() != "pass_card":
            return []
        return [(to, self.target_hand()) for to in self.pass_targets()]

    def plan_targets(self) -> list[Target]:
        """Every pass still to be chosen in this setup stage, in the order the server asks
        for them.  Devil's Eye chooses both (first hand, then second hand) together with
        the pile cards although the server takes them one stage at a time, so that a
        person decides the whole setup at once, as at a real table."""
        seats = self.pass_targets()
        if not self.devils_eye:
            return [(s, None) for s in seats]
        first = 0
        if self.phase == game_pb2.PHASE_PASS and self.pass_to_hand is not None:
            first = self.pass_to_hand
        return [(s, h) for h in range(first, 2) for s in seats]

    def pile_needed(self) -> int:
        """Pile cards the seat still lays in this stage: `Rules.pile_per_stage` (Devil's
        Eye: two), less any laid already, e.g. before a reconnection; one at least
        when asked at all (an older server leaves the field 0)."""
        if self.legal_kind() != "pile":
            return 0
        return max(1, self.rules.pile_per_stage - len(self.my_pile))

    def points_taken(self, seat: int) -> int:
        return self.taken.get(seat, 0)

    def total(self, seat: int) -> int | None:
        return self.totals[seat] if 0 <= seat < len(self.totals) else None

    def game_over_line(self) -> str:
        """"Game over: Ann wins." (in team mode the winning side: "Bob + Dan win")."""
        if self.game_ended is None:
            return ""
        winner = self.game_ended.winner
        if self.teams and self.partner(winner) is not None:
            return self.tr("game_over_line_team", name=self.side_name(winner))
        return self.addressed("game_over_line", winner, name=self.name(winner))

    # ---------------------------------------------------------------- updates

    def apply_update(self, update: table_pb2.TableUpdate) -> list[game_pb2.GameEvent]:
        """Fold one stream message in; returns the new events (for pacing and pop-ups)."""
        kind = update.WhichOneof("kind")
        if kind == "snapshot":
            self.set_info(update.snapshot.table)
            self.live_from = max(self.live_from, update.snapshot.sequence)
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
        self.info = info
        if self.rules is None and info.HasField("rules"):
            self._use_rules(info.rules)
        if info.totals and not self.totals:
            self.totals = list(info.totals)

    def apply_turn(self, turn: table_pb2.TurnUpdate) -> None:
        if turn.sequence < self.acted_at:
            return  # sent before our last action: stale
        self.turn_seq = turn.sequence
        self.to_act = list(turn.to_act)
        self.legal = list(turn.legal_actions)

    def acted(self, sequence: int) -> None:
        """Our action was accepted: wait for a turn at least this new."""
        self.acted_at = max(self.acted_at, sequence)
        if self.turn_seq < sequence:  # the legal moves we hold are from before the action
            self.legal = []

    def addressed(self, key: str, who: int | None = None, **params: object) -> str:
        """The text of `key`; when `who` is this seat, the one addressed to "you" if
        the language has it (English "You win", not "You wins")."""
        if who is not None and who == self.me and self.tr.has(key + "_you"):
            key += "_you"
        return self.tr(key, **params)

    def _say(self, key: str, who: int | None = None, **params: object) -> None:
        """Log a line (addressed to "you" where it is about this seat)."""
        self.log.append(self.addressed(key, who, **params))

    def _remove(self, key: Key, card: game_pb2.Card) -> None:
        cards = self.holdings.get(key)
        if cards is not None:
            self.holdings[key] = [c for c in cards if c.code != card.code]
        if key in self.counts:
            self.counts[key] = max(0, self.counts[key] - 1)

    def apply_event(self, event: game_pb2.GameEvent) -> None:
        self.next_seq = event.sequence + 1
        kind = event.WhichOneof("kind")
        m = getattr(event, kind)
        tr = self.tr
        stage = self.stage_hand or 0
        if kind == "game_started":
            self.started = True
            self._use_rules(m.rules)
            self.totals = [0] * m.rules.players
        elif kind == "hand_started":
            self._new_hand(m)
            self._say("log_hand", who=m.dealer, n=m.number, name=self.name(m.dealer))
        elif kind == "cards_dealt":
            key = (m.seat, m.hand)
            self.counts[key] = m.count
            if m.cards:
                self.holdings[key] = list(m.cards)
                if m.public and m.seat != self.me:
                    self._say("log_lopaka", cards=tr.cards(m.cards))
        elif kind == "phase_started":
            self.phase = m.phase
            self.stage_hand = m.stage_hand if m.HasField("stage_hand") else None
            self.pass_to_hand = m.pass_to_hand if m.HasField("pass_to_hand") else None
            self.to_act = list(m.to_act)
        elif kind == "pile_card_placed":
            self.pile_size += 1
            if m.card.code:
                self._remove((m.seat, stage), m.card)
                self.my_pile.append(m.card)
            else:
                self.counts[(m.seat, stage)] = max(0, self.counts.get((m.seat, stage), 1) - 1)
        elif kind == "pass_chosen":
            self._pass_chosen(m, stage)
        elif kind == "card_passed":
            self._card_passed(m, stage)
        elif kind == "open_hand_chosen":
            if m.seat == self.me and m.HasField("hand"):
                self.my_open_choice = m.hand
        elif kind == "open_hand_revealed":
            self.open_hand[m.seat] = m.hand
            if m.seat != self.me:
                self.holdings[(m.seat, m.hand)] = list(m.cards)
            self._say("log_open", who=m.seat, name=self.name(m.seat), n=m.hand + 1,
                      cards=tr.cards(m.cards))
        elif kind == "card_played":
            if not self.trick:
                self.last_trick = None
            self.trick.append(Played(m.seat, m.card, m.hand))
            self.played.append(self.trick[-1])
            self._remove((m.seat, m.hand), m.card)
        elif kind == "trick_won":
            self._trick_won(m)
        elif kind == "hand_ended":
            self.hand_results.append(m)
            self.totals = list(m.totals)
            self.phase = game_pb2.PHASE_OVER
            self.to_act = []
            scores = ", ".join(
                f"{self.name(s)} {m.scores[s]:+d}"
                for s in self.seats() if s < len(m.scores) and s != self.lopaka
            )
            self._say("log_hand_end", n=m.number, scores=scores)
        elif kind == "game_ended":
            self.game_ended = m
            self.totals = list(m.totals)
            self.to_act = []
            self.legal = []
            if self.teams and self.partner(m.winner) is not None:
                self._say("log_game_end_team", name=self.side_name(m.winner))
            else:
                self._say("log_game_end", who=m.winner, name=self.name(m.winner))

    def _pass_chosen(self, m: game_pb2.PassChosen, stage: int) -> None:
        """A pass laid face down: it leaves the giver's stage hand (ours: which card)."""
        if m.card.code:
            self._remove((m.seat, stage), m.card)
            self.passes_given[(m.to, self._told_hand(m))] = m.card
        else:
            self.counts[(m.seat, stage)] = max(0, self.counts.get((m.seat, stage), 1) - 1)

    def _card_passed(self, m: game_pb2.CardPassed, stage: int) -> None:
        """A pass handed over: it joins the receiver's hand the event names (Devil's Eye
        hands both passes over at once, one for each hand), else the stage's hand."""
        hand = m.hand if m.HasField("hand") else stage
        key = (m.to, hand)
        self.counts[key] = self.counts.get(key, 0) + 1
        if m.card.code and m.to == self.me:
            self.holdings.setdefault(key, []).append(m.card)
            self.passes_received[(m.seat, self._told_hand(m))] = m.card
        if m.card.code and self.me in (m.seat, m.to):
            told = self._told_hand(m)
            if told is None:
                self._say("log_passed", a=self.name(m.seat), card=self.tr.card(m.card),
                          b=self.name(m.to))
            else:
                self._say("log_passed_hand", a=self.name(m.seat), card=self.tr.card(m.card),
                          b=self.name(m.to), n=told + 1)

    def _told_hand(self, m: game_pb2.PassChosen | game_pb2.CardPassed) -> int | None:
        """The receiver's hand of a pass where it must be told (Devil's Eye), else None:
        in the bright house it is always the stage's hand and goes without saying."""
        return m.hand if self.devils_eye and m.HasField("hand") else None

    def _new_hand(self, m: game_pb2.HandStarted) -> None:
        self.hand_number = m.number
        self.dealer = m.dealer
        self.seat_order = list(m.seat_order)
        self.lopaka = m.lopaka if m.HasField("lopaka") else None
        self.phase = game_pb2.PHASE_UNSPECIFIED
        self.stage_hand = None
        self.pass_to_hand = None
        self.holdings, self.counts, self.open_hand = {}, {}, {}
        self.my_open_choice = None
        self.pile_size = 0
        self.my_pile = []
        self.passes_given, self.passes_received = {}, {}
        self.trick, self.last_trick, self.tricks_played = [], None, 0
        self.played = []
        self.price, self.owner = None, None
        self.bottles = []  # the second bottle: both bottles, the one for sale first
        self.taken = {s: 0 for s in m.seat_order}
        if self.lopaka is not None and self.rules is not None:
            # Lopaka games: the pile is the undealt cards (3), nobody adds to it.
            self.pile_size = 3

    def _trick_won(self, m: game_pb2.TrickWon) -> None:
        self.last_trick = m
        self.trick = []
        self.tricks_played += 1
        self.price = m.price if m.HasField("price") and m.price.code else None
        self.owner = m.owner if m.HasField("owner") else None
        if m.bottles:  # the second bottle: the price that counts is the one for sale
            self.bottles = list(m.bottles)
            sale = m.bottles[0]
            self.price = sale.price if sale.HasField("price") and sale.price.code else None
            self.owner = sale.owner if sale.HasField("owner") else None
        bought_code = m.price.code if m.bought else None
        for pc in m.cards:
            if bought_code and pc.seat == m.winner and pc.card.code == bought_code:
                continue  # the new price lies in front of its owner, not in the tricks
            self.taken[m.winner] = self.taken.get(m.winner, 0) + pc.card.points
        if m.HasField("returned") and m.returned.code and m.HasField("returned_to"):
            self.taken[m.returned_to] = self.taken.get(m.returned_to, 0) + m.returned.points
        if m.bought:
            self._say("log_buys", who=m.winner, name=self.name(m.winner), n=m.number,
                      price=self.tr.card(m.price))
        else:
            self._say("log_trick", who=m.winner, name=self.name(m.winner), n=m.number)

    # ----------------------------------------------------------- end of hand

    def score_lines(self, result: game_pb2.HandEnded) -> list[tuple[str, int, str]]:
        """(name, score, why) per seat of a finished hand."""
        tr = self.tr
        hot = bool(self.rules and self.rules.hot_bottle)
        owner = result.owner if result.HasField("owner") else None
        owners = [b.owner for b in result.bottles if b.HasField("owner")] or [owner]
        out = []
        for seat in self.seats():
            if seat >= len(result.scores):
                continue
            score = result.scores[seat]
            taken = result.points_taken[seat] if seat < len(result.points_taken) else 0
            if seat == self.lopaka:
                why = tr("why_lopaka")
            elif seat == owner and hot:
                why = tr("why_owner_hot", pile=result.pile_points, own=taken)
            elif seat in owners:
                why = tr("why_owner", pile=result.pile_points)
                if owners.count(seat) > 1:
                    why += " ×2"
            else:
                why = tr("why_tricks", points=taken)
            out.append((self.name(seat), score, why))
        return out
