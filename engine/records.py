"""Hand records (FORMATS.md): one hand as played, to save, share and check.

A record stores the choices only — the deal, the pile cards, the passes, the
open hands and the cards in play order.  Everything else (who leads, who wins,
the price, the scores) follows from the rules, so `replay` hands the choices to
the engine's `Hand` one by one and reads the outcome from it.  The engine is
the single source of the rules: this module checks the *shape* of a record
(fields, types, card counts, no card dealt twice) and translates the engine's
`IllegalAction` into the record's words, naming the first illegal step.

Layout per rule set (FORMATS.md, plus the bright house, see
docs/formats-records.md):

- 3–4 players: `deal` and `pile` per seat, `passes` per seat {"left", "right"}.
- 2 players with Lopaka: `deal` per seat (11 each), `pile` = the 3 undealt
  cards, `passes` per seat {"other"} and null for Lopaka, `lopaka` = his seat.
- The Bottle Imp (`rules.game` "bottle-imp", 3–6 players): as 3–4 players,
  except that with 5 the dealer is dealt a card fewer and lays none away, so
  `pile` lists the other four seats' cards in seat order.
- Bright house: per *holder* (seat 0 first hand, seat 0 second, seat 1 first,
  seat 1 second): `deal`, `pile` and `passes` {"other"}; `open` per seat.
- Devil's Eye (the Bottle Imp for 2): `deal` per holder as in the bright house
  (6, 12, 6, 12 cards), `pile` two cards per seat (seat 0's, then seat 1's),
  `passes` per seat {"first", "second"}: the cards it gave to the opponent's
  first and second hand; no `open` (the first hands are always the open ones).

A record of a hand still in progress may hold null for a pile card, a pass or
an open hand not chosen yet, and fewer plays: `replay_hand` rebuilds such a
hand, `replay` insists on a complete one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from os import PathLike
from pathlib import Path
from typing import Any

from .actions import Action, ChooseOpen, PassCard, PileCard, Play
from .cards import JOKER, Card, Deck
from .errors import IllegalAction, Rule
from .events import Phase
from .hand import Emit, Hand
from .rules import Rules, RulesError
from .stages import Stage, stages
from .tricks import Trick

__all__ = [
    "DealerError",
    "HandRecord",
    "RecordError",
    "ReplayError",
    "ReplayResult",
    "record_of",
    "replay",
    "replay_hand",
]


class RecordError(ValueError):
    """A record that is not a well-formed hand record; the message names the field."""


class DealerError(RecordError):
    """A team hand dealt by a team member while some play alone.

    RULES.md (the seed): "Dealer is always an individual player when there are
    individuals" (five in teams, the 2-2-1-1 split of six); the engine deals
    so, and a record that says otherwise is not a hand of these rules.
    `field` is the record field, `rule` the rule in words, `dealer` the seat
    the record names and `individuals` the seats that may deal.
    """

    field = "dealer"
    rule = "the dealer is always an individual"

    def __init__(self, dealer: int, individuals: tuple[int, ...]) -> None:
        may = " or ".join(f"seat {s}" for s in individuals)
        super().__init__(
            f"dealer: seat {dealer} plays in a team, but {self.rule} when some play "
            f"alone (here {may})"
        )
        self.dealer = dealer
        self.individuals = individuals


class ReplayError(RecordError):
    """A well-formed record with an illegal step; the message names the first one.

    `step` is the record field of that step (`plays[12]`, `passes[1].left`, or
    `plays` when the record stops short); `rule` is the engine's rule that
    refused it, when the engine refused it.
    """

    def __init__(self, message: str, step: str, rule: Rule | None = None) -> None:
        super().__init__(message)
        self.step = step
        self.rule = rule


# --------------------------------------------------------------------- layout


def _pass_keys(rules: Rules) -> tuple[str, ...]:
    """The keys of one pass entry, in the order of `Hand.recipients` (left,
    right), or in Devil's Eye the receiver's hands."""
    if rules.devils_eye:
        return _HANDS
    return ("other",) if rules.players == 2 else ("left", "right")


_HANDS = ("first", "second")


def _pass_entries(rules: Rules) -> int:
    """Entries of `passes`: one per seat, per hand in the bright house."""
    return rules.seats if rules.devils_eye else rules.holders


def _pile_slots(rules: Rules, dealer: int) -> tuple[int, ...]:
    """Whose pile card each entry of `pile` is: with two hands per seat, slot
    2s + k is seat s's k-th card (the bright house's from hand k); else the
    seats that lay one (five Bottle Imp players: all but the dealer)."""
    if rules.two_hands:
        return tuple(range(rules.holders))
    return rules.pile_seats(dealer)


def _table(rules: Rules) -> str:
    """How messages name the table, e.g. `3-player` or `bright-house`."""
    if rules.devils_eye:
        return "Devil's Eye"
    return "bright-house" if rules.bright_house else f"{rules.players}-player"


def _one_per_holder(rules: Rules) -> str:
    if rules.devils_eye:
        return "two per seat"
    if rules.bright_house:
        return "one per hand"
    return "one per seat" if rules.dealer_discards else "one per seat but the dealer's"


def _lopaka_seat(rules: Rules, dealer: int) -> int | None:
    """FORMATS.md: Lopaka sits at the dealer's right, i.e. seat dealer − 1."""
    return (dealer - 1) % rules.seats if rules.lopaka else None


def _dealers(rules: Rules) -> tuple[int, ...]:
    """The seats that may deal a hand: whoever deals first is the rules' own
    `dealer_of` (an individual whenever some play alone, anyone otherwise)."""
    if not rules.teams:
        return tuple(range(rules.seats))
    return tuple(sorted({rules.dealer_of(first, 1) for first in range(rules.players)}))


def _holder_name(rules: Rules, holder: int) -> str:
    """A holder in words: `seat 1`, or `seat 1's second hand` with two hands."""
    if not rules.two_hands:
        return f"seat {holder}"
    return f"seat {holder // 2}'s {_HANDS[holder % 2]} hand"


# -------------------------------------------------------------------- parsing


def _kind(value: object) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "an object"
    return "a list" if isinstance(value, (list, tuple)) else type(value).__name__


def _list(value: object, path: str, what: str) -> Sequence[Any]:
    if not isinstance(value, (list, tuple)):
        raise RecordError(f"{path}: expected {what}, got {_kind(value)}")
    return value


def _int(value: object, path: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{path}: expected a seat number, got {_kind(value)}")
    return value


def _card(deck: Deck, value: object, path: str) -> Card:
    if isinstance(value, Card) and value.deck_name == deck.name:
        return value
    if isinstance(value, str):
        try:
            return deck.card(value)
        except ValueError:
            pass
        raise RecordError(f"{path}: {value!r} is not a card (write e.g. AD, 10H, QS)")
    raise RecordError(f"{path}: expected a card, got {_kind(value)}")


def _maybe_card(deck: Deck, value: object, path: str) -> Card | None:
    """A card, or null for one not chosen yet (a record of a hand in progress)."""
    return None if value is None else _card(deck, value, path)


def _cards(deck: Deck, value: object, path: str) -> tuple[Card, ...]:
    items = _list(value, path, "a list of cards")
    return tuple(_card(deck, c, f"{path}[{i}]") for i, c in enumerate(items))


#: How a game ends is no part of a hand's rules: a record resets it to the defaults.
_GAME_END_DEFAULTS = {
    f.name: f.default for f in fields(Rules) if f.name in ("target", "hands", "hand_limit")
}


def _rules_from_json(obj: object) -> Rules:
    """The rules of one hand.  How the game ends (target, number of hands) is not
    part of a hand, so a record drops it: a record from a table playing to 50
    equals the same record read back from JSON."""
    if isinstance(obj, Rules):
        return replace(obj, **_GAME_END_DEFAULTS)
    if not isinstance(obj, Mapping):
        raise RecordError(f"rules: expected an object, got {_kind(obj)}")
    try:
        return Rules.from_json(obj)
    except RulesError as exc:
        raise RecordError(f"rules.{exc}") from None


# --------------------------------------------------------------------- record


@dataclass(frozen=True, eq=True)
class HandRecord:
    """One hand as played: the choices, from which the engine derives the rest.

    Construction checks the shape (see the module docstring) and raises
    `RecordError`; cards may be given as `Card` or as text (`"10H"`), the rules
    as `Rules` or as their JSON object.
    Whether the steps are legal is `replay`'s question, not the constructor's:
    a record of an illegal hand can be built, saved and shown to be illegal.
    """

    rules: Rules
    dealer: int
    #: Each holder's cards as dealt.
    deal: tuple[tuple[Card, ...], ...]
    #: Per seat (per holder in the bright house) its pile card; with Lopaka the undealt cards.
    pile: tuple[Card | None, ...]
    #: Per seat (per holder in the bright house): direction → card; None for Lopaka.
    passes: tuple[Mapping[str, Card | None] | None, ...]
    #: Every card of the play phase, in the order played (Lopaka's too).
    plays: tuple[Card, ...] = ()
    lopaka: int | None = None
    #: Bright house: per seat, which hand lies open (0 = first dealt, 1 = second).
    open_hand: tuple[int | None, ...] | None = None

    def __post_init__(self) -> None:
        rules = _rules_from_json(self.rules)
        deck = rules.deck
        set_ = object.__setattr__
        set_(self, "rules", rules)
        self._check_seats(rules)
        set_(self, "deal", self._parse_deal(rules, deck))
        set_(self, "pile", self._parse_pile(rules, deck))
        self._check_dealt_once()
        set_(self, "passes", self._parse_passes(rules, deck))
        set_(self, "plays", _cards(deck, self.plays, "plays"))
        set_(self, "open_hand", self._parse_open(rules))

    # The checks run in field order, so the first message names the first bad field.

    def _check_seats(self, rules: Rules) -> None:
        dealer = _int(self.dealer, "dealer")
        if not 0 <= dealer < rules.seats:
            raise RecordError(f"dealer: {dealer} is not a seat (seats are 0 to {rules.seats - 1})")
        dealers = _dealers(rules)
        if dealer not in dealers:
            raise DealerError(dealer, dealers)
        want = _lopaka_seat(rules, dealer)
        if want is None:
            if self.lopaka is not None:
                raise RecordError(
                    f"lopaka: only two players without the bright house have "
                    f"Lopaka, got seat {self.lopaka!r}"
                )
            return
        if self.lopaka is None:
            raise RecordError(f"lopaka: missing (two players play with Lopaka, here seat {want})")
        if _int(self.lopaka, "lopaka") != want:
            raise RecordError(
                f"lopaka: seat {self.lopaka} is not the dealer's right "
                f"neighbour (the dealer is seat {dealer}, so Lopaka is seat {want})"
            )

    def _parse_deal(self, rules: Rules, deck: Deck) -> tuple[tuple[Card, ...], ...]:
        hands = _list(self.deal, "deal", f"a list of {rules.holders} hands")
        if len(hands) != rules.holders:
            raise RecordError(
                f"deal: {len(hands)} hands, {_table(rules)} records deal {rules.holders}"
            )
        out = []
        for h, cards in enumerate(hands):
            parsed = _cards(deck, cards, f"deal[{h}]")
            size = rules.deal_sizes(self.dealer)[h]
            if len(parsed) != size:
                who = " the dealer" if size != rules.deal_size else ""
                raise RecordError(
                    f"deal[{h}]: {len(parsed)} cards, {_table(rules)} hands are "
                    f"dealt {size}{who}"
                )
            out.append(parsed)
        return tuple(out)

    def _parse_pile(self, rules: Rules, deck: Deck) -> tuple[Card | None, ...]:
        items = _list(self.pile, "pile", "a list of cards")
        want = rules.pile_size
        if len(items) != want:
            why = "the undealt cards" if rules.lopaka else _one_per_holder(rules)
            raise RecordError(
                f"pile: {len(items)} cards, a {_table(rules)} pile has {want} ({why})"
            )
        if rules.lopaka:
            return _cards(deck, items, "pile")
        return tuple(_maybe_card(deck, c, f"pile[{i}]") for i, c in enumerate(items))

    def _parse_passes(self, rules: Rules, deck: Deck) -> tuple[dict[str, Card | None] | None, ...]:
        want = _pass_entries(rules)
        items = _list(self.passes, "passes", f"a list of {want} pass entries")
        if len(items) != want:
            raise RecordError(
                f"passes: {len(items)} entries, a {_table(rules)} record has "
                f"{want} ({_one_per_holder(rules)})"
            )
        keys = _pass_keys(rules)
        lopaka = _lopaka_seat(rules, self.dealer)
        out: list[dict[str, Card | None] | None] = []
        for h, entry in enumerate(items):
            path = f"passes[{h}]"
            if h == lopaka:
                if entry is not None:
                    raise RecordError(f"{path}: Lopaka passes nothing, expected null")
                out.append(None)
                continue
            if not isinstance(entry, Mapping):
                raise RecordError(
                    f"{path}: expected an object with {' and '.join(keys)}, got {_kind(entry)}"
                )
            extra = sorted(set(entry) - set(keys))
            if extra:
                raise RecordError(
                    f"{path}: unexpected key {extra[0]!r} ({_table(rules)} "
                    f"passes are {' and '.join(map(repr, keys))})"
                )
            for key in keys:
                if key not in entry:
                    raise RecordError(f"{path}.{key}: missing")
            out.append({k: _maybe_card(deck, entry[k], f"{path}.{k}") for k in keys})
        return tuple(out)

    def _parse_open(self, rules: Rules) -> tuple[int | None, ...] | None:
        if not rules.bright_house:
            if self.open_hand is not None:
                raise RecordError("open: only the bright house has open hands")
            return None
        if self.open_hand is None:
            raise RecordError("open: missing (the bright house records each seat's open hand)")
        items = _list(self.open_hand, "open", "a list of 2 hand numbers")
        if len(items) != rules.seats:
            raise RecordError(f"open: {len(items)} entries, expected {rules.seats} (one per seat)")
        for s, hand in enumerate(items):
            if hand is not None and (type(hand) is not int or hand not in (0, 1)):
                raise RecordError(
                    f"open[{s}]: expected 0 (first hand) or 1 (second hand), got {hand!r}"
                )
        return tuple(items)

    def _check_dealt_once(self) -> None:
        where: dict[Card, str] = {}
        undealt = self.pile if self.rules.lopaka else ()
        places = [(f"deal[{h}]", cards) for h, cards in enumerate(self.deal)]
        places.append(("pile", undealt))
        for path, cards in places:
            for card in cards:
                if card in where:
                    raise RecordError(f"{path}: {card} is dealt twice (also in {where[card]})")
                where[card] = path

    # ---------------------------------------------------------------- JSON

    @classmethod
    def from_json(cls, obj: object) -> HandRecord:
        """A record from parsed JSON (FORMATS.md); extra fields are ignored."""
        if not isinstance(obj, Mapping):
            raise RecordError(f"record: expected a JSON object, got {_kind(obj)}")
        for name in ("rules", "dealer", "deal", "pile", "passes", "plays"):
            if name not in obj:
                raise RecordError(f"{name}: missing")
        rules = _rules_from_json(obj["rules"])
        return cls(
            rules=rules,
            dealer=obj["dealer"],
            deal=obj["deal"],
            pile=obj["pile"],
            passes=obj["passes"],
            plays=obj["plays"],
            lopaka=obj.get("lopaka"),
            open_hand=obj.get("open"),
        )

    @classmethod
    def loads(cls, text: str) -> HandRecord:
        """A record from JSON text."""
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            where = f"line {exc.lineno} column {exc.colno}"
            raise RecordError(f"not JSON: {exc.msg} at {where}") from None
        return cls.from_json(obj)

    @classmethod
    def load(cls, path: str | PathLike[str]) -> HandRecord:
        """A record from a file.  OSError (no such file …) is left to the caller."""
        data = Path(path).read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("not JSON: the file is not UTF-8 text") from None
        return cls.loads(text)

    def to_json(self) -> dict[str, Any]:
        """The FORMATS.md object (`lopaka` only with Lopaka, `open` only in the bright house)."""
        out: dict[str, Any] = {"rules": self.rules.to_json(), "dealer": self.dealer}
        if self.lopaka is not None:
            out["lopaka"] = self.lopaka
        out["deal"] = [[c.ascii for c in cards] for cards in self.deal]
        out["pile"] = [_ascii(c) for c in self.pile]
        out["passes"] = [
            None if entry is None else {k: _ascii(c) for k, c in entry.items()}
            for entry in self.passes
        ]
        out["plays"] = [c.ascii for c in self.plays]
        if self.open_hand is not None:
            out["open"] = list(self.open_hand)
        return out

    def dumps(self, indent: int | None = None) -> str:
        """JSON text: one line, or with `indent` one field per line (lists stay on one
        line, so a saved record reads like the hand: one line per deal)."""
        obj = self.to_json()
        if indent is None:
            return json.dumps(obj, ensure_ascii=False)
        pad = " " * indent
        fields = (
            f"{pad}{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in obj.items()
        )
        return "{\n" + ",\n".join(fields) + "\n}"

    def save(self, path: str | PathLike[str]) -> None:
        Path(path).write_text(self.dumps(indent=2) + "\n", encoding="utf-8")


def _ascii(card: Card | None) -> str | None:
    return None if card is None else card.ascii


# --------------------------------------------------------------------- replay


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of a complete hand, as `cursed-bottle replay` prints it."""

    #: Per seat (Lopaka's too, though it never counts).
    scores: tuple[int, ...]
    owner: int | None
    #: The final price card; None is the price joker.
    price: Card | None
    tricks: tuple[Trick, ...]
    #: What the starting price is called in this deck (JOKER, the Bottle Imp's 19).
    start_price: str = JOKER
    #: The second bottle: (price card, owner) of each bottle, the one on sale first.
    bottles: tuple[tuple[Card | None, int | None], ...] = ()

    @classmethod
    def of(cls, hand: Hand) -> ReplayResult:
        deck = hand.deck
        price = None if hand.price_card is None else deck.cards[hand.price_card]
        return cls(
            tuple(hand.scores()),
            hand.owner,
            price,
            tuple(hand.tricks),
            deck.joker_name,
            hand.bottle_states(),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "owner": self.owner,
            "price": self._price_name(self.price),
            "tricks": [
                {
                    "leader": t.leader,
                    "cards": [c.ascii for c in t.cards],
                    "winner": t.winner,
                    "bought": t.bought,
                }
                for t in self.tricks
            ],
        } | (
            {"bottles": [{"price": self._price_name(c), "owner": o} for c, o in self.bottles]}
            if self.bottles
            else {}
        )

    def _price_name(self, card: Card | None) -> str:
        return self.start_price if card is None else card.ascii


def replay(record: HandRecord) -> ReplayResult:
    """Check a complete record against the rules; ReplayError names the first illegal step."""
    hand = replay_hand(record)
    if not hand.is_over:
        raise _incomplete(hand, record)
    played = _cards_played(hand)
    if len(record.plays) < len(played):  # the engine played Lopaka's last card(s) itself
        number, seat, card = played[len(record.plays)]
        raise ReplayError(
            f"plays: the record ends after {len(record.plays)} plays, without the {card} "
            f"seat {seat} (Lopaka) played in trick {number}; a complete hand has {len(played)}",
            "plays",
        )
    return ReplayResult.of(hand)


def replay_hand(record: HandRecord, emit: Emit | None = None) -> Hand:
    """The engine's hand after every step of the record (complete or not).

    `emit` receives the engine's events, so a table can be rebuilt from a record.
    """
    try:
        undealt = record.pile if record.rules.lopaka else ()
        hand = Hand(record.rules, record.dealer, record.deal, undealt, emit)  # type: ignore[arg-type]
    except ValueError as exc:  # the constructor's shape checks make this unreachable
        raise ReplayError(f"deal: {exc}", "deal") from None
    missing: str | None = None
    for path, action in _setup_steps(record, hand):
        if action is None:
            missing = missing or path
            continue
        try:
            hand.apply(action)
        except IllegalAction as exc:
            raise _setup_error(hand, path, action, exc, missing) from None
    _replay_plays(record, hand, missing)
    return hand


def _setup_steps(record: HandRecord, hand: Hand) -> list[tuple[str, Action | None]]:
    """The record's pile, pass and open-hand choices as engine actions, in the
    engine's stage order; None where the record has null (not chosen yet)."""
    steps: list[tuple[str, Action | None]] = []
    piled = 0
    for stage in stages(record.rules):
        if stage.phase is Phase.PILE:
            steps.extend(_pile_steps(record, hand, range(piled, stage.piled)))
            piled = stage.piled
        elif stage.phase is Phase.PASS:
            steps.extend(_pass_steps(record, hand, stage))
        elif stage.phase is Phase.OPEN:
            steps.extend(_open_steps(record, hand))
    return steps


def _pile_steps(record: HandRecord, hand: Hand, nths: range) -> list[tuple[str, Action | None]]:
    """The pile cards of one stage: each seat's `nths` cards (with two hands per
    seat its slot 2s + k holds its k-th card)."""
    steps: list[tuple[str, Action | None]] = []
    order = _pile_slots(record.rules, record.dealer)
    for seat in hand.pile_seats:
        for nth in nths:
            i = order.index(2 * seat + nth if record.rules.two_hands else seat)
            card = record.pile[i]
            steps.append((f"pile[{i}]", None if card is None else PileCard(seat, card)))
    return steps


def _pass_steps(record: HandRecord, hand: Hand, stage: Stage) -> list[tuple[str, Action | None]]:
    steps: list[tuple[str, Action | None]] = []
    rules = record.rules
    keys = _pass_keys(rules)
    for seat in hand.setup_seats():
        recipients = hand.recipients(seat)
        if rules.devils_eye:
            entry_at, pairs = seat, [(keys[stage.to_hand or 0], recipients[0])]
        else:
            entry_at = hand.holder_of(seat, stage.hand or 0)
            pairs = list(zip(keys, recipients, strict=True))
        entry = record.passes[entry_at] or {}
        for key, to in pairs:
            card = entry.get(key)
            action = None if card is None else PassCard(seat, to, card)
            steps.append((f"passes[{entry_at}].{key}", action))
    return steps


def _open_steps(record: HandRecord, hand: Hand) -> list[tuple[str, Action | None]]:
    choices = record.open_hand or ()
    return [
        (f"open[{seat}]", None if choice is None else ChooseOpen(seat, choice))
        for seat, choice in enumerate(choices)
    ]


def _replay_plays(record: HandRecord, hand: Hand, missing: str | None) -> None:
    """Push the plays onto the hand; Lopaka's cards are compared with what the
    engine played for him (his policy), never pushed."""
    for i, card in enumerate(record.plays):
        path = f"plays[{i}]"
        played = _cards_played(hand)
        if i < len(played):
            number, seat, policy_card = played[i]
            if policy_card != card:
                raise ReplayError(
                    f"trick {number}, seat {seat} (Lopaka) played {card} but his policy plays "
                    f"{policy_card} ({path})",
                    path,
                    Rule.LOPAKA_PLAYS_HIMSELF,
                )
            continue
        if hand.is_over:
            total = record.rules.tricks * record.rules.holders
            raise ReplayError(
                f"{path}: {card} is one play too many, the hand is over after {total} plays",
                path,
                Rule.GAME_OVER,
            )
        if hand.phase is not Phase.PLAY:
            raise _too_early(hand, path, missing)
        seat = hand.to_act()[0]
        try:
            hand.apply(Play(seat, card))
        except IllegalAction as exc:
            raise _play_error(hand, path, seat, card, exc) from None


def _cards_played(hand: Hand) -> list[tuple[int, int, Card]]:
    """(trick number, seat, card) of every card played so far, in order."""
    out = [(t.number, seat, card) for t in hand.tricks for seat, card in t.plays]
    number = len(hand.tricks) + 1
    cards = hand.deck.cards
    out.extend(
        (number, hand.holder_seat[h], cards[c])
        for h, c in zip(hand.trick_holders, hand.trick, strict=True)
    )
    return out


# ------------------------------------------------------------- the messages


def _whereabouts(hand: Hand, card: Card) -> tuple[str, int | None]:
    """Where a card is now, in words, and the holder holding it (if any)."""
    i = card.index
    for holder, mask in enumerate(hand.holdings):
        if mask >> i & 1:
            return f"{_holder_name(hand.rules, holder)} holds it", holder
    for giver, to, c, _ in hand.pending_passes():
        if c == i:
            return f"seat {giver} passes it to seat {to}", None
    for number, _, c in _cards_played(hand):
        if c == card:
            return f"it was already played in trick {number}", None
    for seat, cards in hand.pile_by_seat.items():
        if i in cards:
            return f"seat {seat} put it into the pile", None
    if i in hand.pile:
        return "it lies in the bottle pile", None
    return "it is nowhere in this hand", None


def _setup_error(
    hand: Hand, path: str, action: Action, exc: IllegalAction, missing: str | None
) -> ReplayError:
    if exc.rule is Rule.WRONG_PHASE:
        return _too_early(hand, path, missing)
    if exc.rule is Rule.CARD_NOT_HELD and isinstance(action, (PileCard, PassCard)):
        if isinstance(action, PileCard):
            doing = f"put {action.card} into the pile"
        else:
            doing = f"passed {action.card} to seat {action.to}"
        if hand.rules.two_hands:
            doing += f" from its {_HANDS[hand.stage_hand or 0]} hand"
        where, _ = _whereabouts(hand, action.card)
        message = f"{path}: seat {action.seat} {doing} but does not hold it ({where})"
        return ReplayError(message, path, exc.rule)
    return ReplayError(f"{path}: {exc}", path, exc.rule)


def _too_early(hand: Hand, path: str, missing: str | None) -> ReplayError:
    """A step recorded while an earlier one is still null (a hand in progress)."""
    gap = f"{missing} is null" if missing else "an earlier step is missing"
    return ReplayError(
        f"{path}: recorded although {gap} (the hand is still in the {hand.phase.value} phase)",
        path,
        Rule.WRONG_PHASE,
    )


def _play_error(hand: Hand, path: str, seat: int, card: Card, exc: IllegalAction) -> ReplayError:
    number = len(hand.tricks) + 1
    holder = hand.holder_to_play()
    rules = hand.rules
    if exc.rule is Rule.FOLLOW_SUIT:
        suit = hand.deck.cards[hand.trick[0]].suit.display()
        from_hand = f" in its {_open_or_hidden(hand, holder)} hand" if rules.bright_house else ""
        if rules.devils_eye:
            holder = hand.holder_of_card(card.index)
            from_hand = f" in its {_HANDS[holder % 2]} hand, which {card} is in,"
        message = (
            f"trick {number}, seat {seat} played {card} but holds {suit}{from_hand} and "
            f"{suit} were led"
        )
    elif exc.rule is Rule.CARD_NOT_HELD:
        where, other = _whereabouts(hand, card)
        if other is not None and hand.holder_seat[other] == seat:
            message = (
                f"trick {number}, seat {seat} must play from its "
                f"{_open_or_hidden(hand, holder)} hand but {card} is in its "
                f"{_open_or_hidden(hand, other)} hand"
            )
        elif other is not None:
            message = (
                f"trick {number}, seat {seat} is to play but {card} is held by seat "
                f"{hand.holder_seat[other]}: a play out of turn"
            )
        else:
            message = f"trick {number}, seat {seat} played {card} but {where}"
    else:
        message = f"trick {number}: {exc}"
    return ReplayError(f"{message} ({path})", path, exc.rule)


def _open_or_hidden(hand: Hand, holder: int) -> str:
    return "open" if hand.open_hand[holder // 2] == holder % 2 else "hidden"


def _incomplete(hand: Hand, record: HandRecord) -> ReplayError:
    for path, action in _setup_steps(record, hand):
        if action is None:
            return ReplayError(f"{path}: null, the record stops before the hand is complete", path)
    done = len(_cards_played(hand))
    total = record.rules.tricks * record.rules.holders
    return ReplayError(
        f"plays: the record ends after {done} plays, in trick {len(hand.tricks) + 1} with seat "
        f"{hand.to_act()[0]} to play; a complete hand has {total}",
        "plays",
    )


# ------------------------------------------------------------ engine → record


def record_of(hand: Hand) -> HandRecord:
    """The record of a hand started from a deal (`Hand(...)`), finished or not.

    Choices not made yet are null.  Choices made but still secret (passes not
    yet exchanged, an open hand not yet revealed) are included: a record knows
    every card.  (A hand laid out with `Hand.at_position` has no deal and so no
    record.)
    """
    rules, deck = hand.rules, hand.deck
    return HandRecord(
        rules=rules,
        dealer=hand.dealer,
        deal=tuple(tuple(deck.cards_of(mask)) for mask in hand.dealt),
        pile=_pile_of(hand),
        passes=_passes_of(hand),
        plays=tuple(card for _, _, card in _cards_played(hand)),
        lopaka=hand.lopaka,
        open_hand=_open_of(hand) if rules.bright_house else None,
    )


def _open_of(hand: Hand) -> tuple[int | None, ...]:
    """Revealed open hands, and choices made but not revealed yet (the record knows all)."""
    pending: dict[int, int] = hand.pending_open
    return tuple(
        pending.get(seat) if choice is None else choice
        for seat, choice in enumerate(hand.open_hand)
    )


def _pile_of(hand: Hand) -> tuple[Card | None, ...]:
    cards = hand.deck.cards
    if hand.rules.lopaka:
        return tuple(cards[c] for c in hand.pile)
    out: list[Card | None] = []
    for slot in _pile_slots(hand.rules, hand.dealer):
        seat = hand.holder_seat[slot]
        laid = hand.pile_by_seat[seat]
        nth = slot % 2 if hand.rules.two_hands else 0
        out.append(cards[laid[nth]] if nth < len(laid) else None)
    return tuple(out)


def _passes_of(hand: Hand) -> tuple[dict[str, Card | None] | None, ...]:
    """Every pass chosen so far (handed over or not: a record knows every card)."""
    rules, cards = hand.rules, hand.deck.cards
    keys = _pass_keys(rules)
    out: list[dict[str, Card | None] | None] = [
        None if seat == hand.lopaka else dict.fromkeys(keys)
        for seat in (range(rules.seats) if rules.devils_eye else hand.holder_seat)
    ]
    for giver, to, card, to_hand in hand.all_passes():
        if rules.devils_eye:
            entry, key = out[giver], keys[to_hand or 0]
        else:
            entry = out[hand.holder_of(giver, to_hand or 0)]
            key = keys[hand.recipients(giver).index(to)]
        entry[key] = cards[card]  # type: ignore[index]
    return tuple(out)
