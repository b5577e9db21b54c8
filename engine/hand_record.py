"""A hand record (FORMATS.md): one hand's choices, their layout, their JSON.

A record stores the choices only — the deal, the pile cards, the passes, the
open hands and the cards in play order; everything else follows from the rules
(engine.records replays it on the engine's `Hand`).  This module checks the
*shape* of a record only: fields, types, card counts, no card dealt twice.

Layout per rule set (FORMATS.md, plus the bright house and Devil's Eye, see
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

from .cards import Card, Deck
from .rules import HAND_NAMES, Rules, RulesError

__all__ = ["DealerError", "HandRecord", "RecordError", "holder_name", "pass_keys", "pile_slots"]


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


# --------------------------------------------------------------------- layout


def pass_keys(rules: Rules) -> tuple[str, ...]:
    """The keys of one pass entry, in the order of `Hand.recipients` (left,
    right), or in Devil's Eye the receiver's hands."""
    if rules.devils_eye:
        return HAND_NAMES
    return ("other",) if rules.players == 2 else ("left", "right")


def _pass_entries(rules: Rules) -> int:
    """Entries of `passes`: one per seat, per hand in the bright house."""
    return rules.seats if rules.devils_eye else rules.holders


def pile_slots(rules: Rules, dealer: int) -> tuple[int, ...]:
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


def holder_name(rules: Rules, holder: int) -> str:
    """A holder in words: `seat 1`, or `seat 1's second hand` with two hands."""
    if not rules.two_hands:
        return f"seat {holder}"
    return f"seat {holder // 2}'s {HAND_NAMES[holder % 2]} hand"


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
    #: Per seat its pile card (two hands per seat: per slot, see `pile_slots`); with
    #: Lopaka the undealt cards.
    pile: tuple[Card | None, ...]
    #: Per seat (per holder in the bright house): direction (Devil's Eye: the
    #: receiver's hand) → card; None for Lopaka.
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
                    f"deal[{h}]: {len(parsed)} cards, {_table(rules)} hands are dealt {size}{who}"
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
        keys = pass_keys(rules)
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
