"""A moment of the play phase with every card known: the position of FORMATS.md.

The solver, `cursed-bottle solve` and the hint code all start from one of these.
Positions come from users' files, so `from_json` checks everything a search
relies on and names the offending field in its message: a search started on an
inconsistent position would return numbers that mean nothing.

Bright house (an extension of FORMATS.md, documented in docs/formats.md):
`hands` has four entries, [seat 0 first hand, seat 0 second hand, seat 1 first,
seat 1 second] (the engine's holders 0..3), and `open` gives, per seat, which of
its two hands (0 or 1) lies open.  Devil's Eye (the Bottle Imp for two) has the
same four `hands` and no `open` (the first hands are the open ones); a seat
plays each card from either hand, so only its two hands' total is fixed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, Deck
from .hand import Hand
from .rules import Rules, RulesError
from .tricks import lopaka_card


class PositionError(ValueError):
    """A malformed or impossible position; the message starts with the field."""


@dataclass(frozen=True)
class Position:
    rules: Rules
    #: Cards held, per holder (seat; with two hands per seat: 2*seat + hand).
    hands: tuple[tuple[Card, ...], ...]
    pile: tuple[Card, ...]
    price: Card | None
    owner: int | None
    #: Cards in each seat's tricks (not the price card).
    taken: tuple[tuple[Card, ...], ...]
    leader: int
    trick: tuple[Card, ...]
    lopaka: int | None = None
    #: Bright house: which hand (0/1) of each seat is open.
    open: tuple[int, ...] = ()

    # ------------------------------------------------------------- derived

    @property
    def seats(self) -> int:
        return self.rules.seats

    def trick_order(self, leader: int | None = None) -> tuple[int, ...]:
        """Holders in playing order for a trick led by `leader` (the engine's rule)."""
        leader = self.leader if leader is None else leader
        if self.rules.devils_eye:
            other = 2 * (1 - leader)
            return (2 * leader, other, 2 * leader, other)
        if self.rules.bright_house:
            other = 1 - leader
            lo, oo = self.open[leader], self.open[other]
            return (2 * leader + lo, 2 * other + oo, 2 * leader + 1 - lo, 2 * other + 1 - oo)
        n = self.seats
        return tuple((leader + i) % n for i in range(n))

    def holder_to_move(self) -> int:
        return self.trick_order()[len(self.trick)]

    def seat_to_move(self) -> int:
        holder = self.holder_to_move()
        return holder // 2 if self.rules.two_hands else holder

    def tricks_left(self) -> int:
        """Tricks still to finish, the one in progress included."""
        if self.rules.devils_eye:
            return max(-(-self._seat_cards(s) // 2) for s in range(2))
        return max(len(h) for h in self.hands)

    def _seat_cards(self, seat: int) -> int:
        return len(self.hands[2 * seat]) + len(self.hands[2 * seat + 1])

    def to_hand(self) -> Hand:
        """The engine's Hand at this moment (Lopaka left to move if it is his turn)."""
        return Hand.at_position(
            self.rules,
            [list(h) for h in self.hands],
            list(self.pile),
            self.price,
            self.owner,
            [list(t) for t in self.taken],
            self.leader,
            list(self.trick),
            open_hand=list(self.open),
            lopaka=self.lopaka,
        )

    @classmethod
    def from_hand(cls, hand: Hand) -> Position:
        """The position of an engine Hand in its play phase."""
        if hand.rules.second_bottle:
            raise PositionError(SECOND_BOTTLE)
        deck = hand.deck
        cards = deck.cards
        return cls.build(
            rules=hand.rules,
            hands=[deck.cards_of(m) for m in hand.holdings],
            pile=[cards[c] for c in hand.pile],
            price=None if hand.price_card is None else cards[hand.price_card],
            owner=hand.owner,
            taken=[deck.cards_of(m) for m in hand.taken],
            leader=hand.leader,
            trick=[cards[c] for c in hand.trick],
            lopaka=hand.lopaka,
            open=list(hand.open_hand),
        )

    @classmethod
    def build(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[Card]],
        pile: Sequence[Card],
        price: Card | None,
        owner: int | None,
        taken: Sequence[Sequence[Card]],
        leader: int,
        trick: Sequence[Card],
        lopaka: int | None = None,
        open: Sequence[int] = (),
    ) -> Position:
        """A checked position from engine values (raises PositionError)."""
        pos = cls(
            rules,
            tuple(tuple(sorted(h)) for h in hands),
            tuple(sorted(pile)),
            price,
            owner,
            tuple(tuple(sorted(t)) for t in taken),
            leader,
            tuple(trick),
            lopaka if rules.lopaka else None,
            tuple(open) if rules.bright_house else (),
        )
        pos.check()
        return pos

    # ---------------------------------------------------------------- JSON

    def to_json(self) -> dict:
        def names(cs: Sequence[Card]) -> list[str]:
            return [c.ascii for c in cs]

        out: dict = {
            "rules": self.rules.to_json(),
            "lopaka": self.lopaka,
            "hands": [names(h) for h in self.hands],
            "pile": names(self.pile),
            "price": self.rules.deck.price_name(self.price),
            "owner": self.owner,
            "taken": [names(t) for t in self.taken],
            "leader": self.leader,
            "trick": names(self.trick),
        }
        if self.rules.bright_house:
            out["open"] = list(self.open)
        return out

    @classmethod
    def from_json(cls, data: object) -> Position:
        """Parse and check a FORMATS.md position; PositionError names the field."""
        if not isinstance(data, dict):
            raise PositionError("position: expected a JSON object")
        if "rules" not in data:
            raise PositionError("rules: missing")
        rules = _rules(data["rules"])
        if rules.second_bottle:
            raise PositionError(f"rules.second_bottle: {SECOND_BOTTLE}")
        deck = rules.deck
        for key in ("hands", "pile", "price", "owner", "taken", "leader", "trick"):
            if key not in data:
                raise PositionError(f"{key}: missing")
        hands = _card_lists(data["hands"], "hands", deck)
        pile = _cards(data["pile"], "pile", deck)
        price_text = data["price"]
        start = deck.joker_name
        if not isinstance(price_text, str):
            raise PositionError(f"price: {price_text!r} is not a card or {start}")
        price = None if price_text.strip().upper() == start else _card(price_text, "price", deck)
        owner = _seat_or_none(data["owner"], "owner", rules.seats)
        taken = _card_lists(data["taken"], "taken", deck)
        leader = _seat_or_none(data["leader"], "leader", rules.seats)
        if leader is None:
            raise PositionError("leader: null is not a seat")
        trick = _cards(data["trick"], "trick", deck)
        lopaka = _seat_or_none(data.get("lopaka"), "lopaka", rules.seats)
        if rules.lopaka and lopaka is None:
            raise PositionError("lopaka: two players without the bright house need Lopaka's seat")
        if not rules.lopaka and lopaka is not None:
            raise PositionError(f"lopaka: these rules have no Lopaka, got seat {lopaka}")
        open_: tuple[int, ...] = ()
        if rules.bright_house:
            raw = data.get("open")
            if (
                not isinstance(raw, list)
                or len(raw) != 2
                or any(type(x) is not int or x not in (0, 1) for x in raw)
            ):
                raise PositionError(
                    "open: the bright house needs [open hand of seat 0, of seat 1], each 0 or 1"
                )
            open_ = tuple(raw)
        return cls.build(rules, hands, pile, price, owner, taken, leader, trick, lopaka, open_)

    # --------------------------------------------------------------- check

    def check(self) -> None:
        """Raise PositionError unless the play can go on from here under the rules."""
        rules, deck = self.rules, self.rules.deck
        if len(self.hands) != rules.holders:
            what = "4 hands (two per player)" if rules.two_hands else f"{rules.seats} hands"
            raise PositionError(f"hands: {len(self.hands)} given, these rules need {what}")
        if len(self.taken) != rules.seats:
            raise PositionError(
                f"taken: {len(self.taken)} given, these rules have {rules.seats} seats"
            )
        want_pile = rules.pile_size
        if len(self.pile) != want_pile:
            raise PositionError(
                f"pile: {len(self.pile)} cards, these rules make a pile of {want_pile}"
            )
        if not 0 <= self.leader < rules.seats:
            raise PositionError(f"leader: {self.leader} is not a seat")
        if (self.price is None) != (self.owner is None):
            raise PositionError(
                f"owner: must be null exactly when the price is {deck.joker_name}"
            )
        if self.price is not None and self.price.index >= deck.joker_position:
            raise PositionError(
                f"price: {self.price} is above the starting price {deck.joker_name}, and "
                "the price only ever falls"
            )
        if self.lopaka is not None and not 0 <= self.lopaka < rules.seats:
            raise PositionError(f"lopaka: {self.lopaka} is not a seat")
        # Every card in one place only.
        seen: dict[Card, str] = {}
        places: list[tuple[str, Sequence[Card]]] = [
            *((f"hands[{h}]", cs) for h, cs in enumerate(self.hands)),
            ("pile", self.pile),
            ("price", () if self.price is None else (self.price,)),
            *((f"taken[{s}]", cs) for s, cs in enumerate(self.taken)),
            ("trick", self.trick),
        ]
        for name, cs in places:
            for c in cs:
                if c in seen:
                    raise PositionError(f"{name}: {c} is also in {seen[c]}")
                seen[c] = name
        # The trick in progress and the card counts.
        holders = rules.holders
        if len(self.trick) >= holders:
            raise PositionError(
                f"trick: {len(self.trick)} cards, a trick in progress has fewer than {holders}"
            )
        order = self.trick_order()
        if rules.devils_eye:
            self._check_seat_counts(order)
        else:
            counts = [len(h) for h in self.hands]
            to_play = counts[order[len(self.trick)]]
            if to_play == 0:
                raise PositionError("hands: no cards left, the hand is over")
            for i, h in enumerate(order):
                want = to_play - 1 if i < len(self.trick) else to_play
                if counts[h] != want:
                    raise PositionError(
                        f"hands[{h}]: {counts[h]} cards, but the tricks cannot complete: "
                        f"expected {want} given the trick in progress"
                    )
        # The trick's cards followed suit where the holder could, and Lopaka his policy.
        if self.trick:
            led = self.trick[0]
            suit_masks, suit_of = deck.suit_masks, deck.suit_of
            price = deck.joker_position if self.price is None else self.price.index
            for i, c in enumerate(self.trick):
                holder = order[i]
                held = deck.mask_of(self.hands[holder])
                if rules.devils_eye and not (
                    deck.mask_of(self.hands[holder + 1]) & suit_masks[suit_of[led.index]]
                ):
                    # The card may have come from the second hand, which lacks the
                    # led suit (no card joins a hand during the play).
                    held = 0
                if i and c.suit != led.suit and held & suit_masks[suit_of[led.index]]:
                    seat = holder // 2 if rules.two_hands else holder
                    raise PositionError(
                        f"trick: seat {seat} played {c} but holds {led.suit.display()} "
                        f"and {led.suit.display()} were led"
                    )
                if holder == self.lopaka:
                    before = [t.index for t in self.trick[:i]]
                    policy = lopaka_card(held | c.mask, before, price, suit_masks, suit_of)
                    if policy != c.index:
                        raise PositionError(
                            f"trick: Lopaka played {c} but his policy plays {deck.cards[policy]}"
                        )


    def _check_seat_counts(self, order: tuple[int, ...]) -> None:
        """Devil's Eye: each seat's two hands together hold two cards per trick left."""
        played = [sum(order[i] // 2 == s for i in range(len(self.trick))) for s in range(2)]
        total = [self._seat_cards(s) + played[s] for s in range(2)]
        if total[0] == 0:
            raise PositionError("hands: no cards left, the hand is over")
        for s in range(2):
            if total[s] != total[0] or total[s] % 2:
                raise PositionError(
                    f"hands[{2 * s}], hands[{2 * s + 1}]: {self._seat_cards(s)} cards for seat "
                    f"{s}, but the tricks cannot complete: each seat plays two cards a trick"
                )


#: FORMATS.md positions hold one bottle (price and owner).
SECOND_BOTTLE = "a position (FORMATS.md) has one bottle; the second bottle is not supported"


def _rules(raw: object) -> Rules:
    if not isinstance(raw, dict):
        raise PositionError('rules: expected an object like {"players": 3, "hot_bottle": false}')
    try:
        return Rules.from_json(raw)
    except RulesError as exc:
        raise PositionError(f"rules.{exc}") from None


def _card(raw: object, field: str, deck: Deck) -> Card:
    if not isinstance(raw, str):
        raise PositionError(f"{field}: {raw!r} is not a card")
    try:
        return deck.card(raw)
    except ValueError as exc:
        raise PositionError(f"{field}: {exc}") from None


def _cards(raw: object, field: str, deck: Deck) -> list[Card]:
    if not isinstance(raw, list):
        raise PositionError(f"{field}: expected a list of cards")
    out = [_card(x, f"{field}[{i}]", deck) for i, x in enumerate(raw)]
    for i, c in enumerate(out):
        if c in out[:i]:
            raise PositionError(f"{field}: {c} appears twice")
    return out


def _card_lists(raw: object, field: str, deck: Deck) -> list[list[Card]]:
    if not isinstance(raw, list):
        raise PositionError(f"{field}: expected a list with one list of cards per seat")
    return [_cards(x, f"{field}[{i}]", deck) for i, x in enumerate(raw)]


def _seat_or_none(raw: object, field: str, seats: int) -> int | None:
    if raw is None:
        return None
    if type(raw) is not int or not 0 <= raw < seats:
        raise PositionError(f"{field}: {raw!r} is not a seat (0..{seats - 1})")
    return raw
