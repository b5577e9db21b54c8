"""Cards and decks as data.

A deck is a table of cards in one total order (lowest first) with suits and
points, plus the position of the price joker in that order.  The rules never
look at a rank or a number: they compare positions in the order, suits and
points, so another deck (the original Bottle Imp's) is another table, not
another rule.  Inside the engine a card is its index in the order; a set of
cards is a bit mask over those indices.
"""

from __future__ import annotations

import csv
import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path


class Suit(enum.IntEnum):
    """Every suit of every deck.  A deck uses three of them: the Cursed Bottle deck
    ♦ ♥ ♠ (in their order of precedence within a rank, as in Bridge), the
    original Bottle Imp deck its colours.  Inside a deck a suit is its place in
    `Deck.suits` (0…2), so masks and the solver never see this enum."""

    DIAMONDS = 0
    HEARTS = 1
    SPADES = 2
    YELLOW = 3
    BLUE = 4
    RED = 5

    @property
    def letter(self) -> str:
        return "DHSYBR"[self]

    @property
    def symbol(self) -> str:
        """The suit sign; the colours have none, their letter stands in."""
        return "♦♥♠YBR"[self]

    def display(self) -> str:
        """The suit's name in the engine's (English) messages; the client has its own words."""
        return _SUIT_NAMES[self]


_SUIT_NAMES = ("diamonds", "hearts", "spades", "yellow", "blue", "red")
JOKER = "JOKER"


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card of a deck: a value, interned per deck (compare with ==, sort by order)."""

    index: int
    rank: str
    suit: Suit
    points: int
    deck_name: str

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Card)
            and other.index == self.index
            and other.deck_name == self.deck_name
        )

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __reduce__(self):
        # Pickled cards (worker processes) come back as the deck's own instance.
        return (_card_from_deck, (self.deck_name, self.index))

    @property
    def ascii(self) -> str:
        """The notation of files, logs and the command line: `AD`, `10H`, `QS`."""
        return self.rank + self.suit.letter

    @property
    def mask(self) -> int:
        return 1 << self.index

    def display(self) -> str:
        """Short form for people: `10♥`, `J♠` (the colours keep their letter)."""
        return self.rank + self.suit.symbol

    def __str__(self) -> str:
        return self.ascii

    def __repr__(self) -> str:
        return f"Card({self.ascii})"


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck: its cards in total order and where the price joker stands."""

    name: str
    #: (rank, suit, points) of every card, lowest first in the total order.
    faces: tuple[tuple[str, Suit, int], ...]
    #: How many cards lie below the price joker: a card is below the starting
    #: price exactly when its index is smaller than this number.
    joker_position: int
    #: What the starting price is called (the Bottle Imp's Hell card is "19").
    joker_name: str = JOKER
    cards: tuple[Card, ...] = field(init=False)
    #: The deck's suits in enum order; `suit_of` and `suit_masks` index this.
    suits: tuple[Suit, ...] = field(init=False)
    points: tuple[int, ...] = field(init=False)
    suit_masks: tuple[int, ...] = field(init=False)
    suit_of: tuple[int, ...] = field(init=False)
    full_mask: int = field(init=False)
    _by_name: dict[str, Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.faces) > 64:
            raise ValueError(f"deck {self.name}: {len(self.faces)} cards, at most 64 fit a mask")
        cards = tuple(
            Card(i, rank, suit, points, self.name)
            for i, (rank, suit, points) in enumerate(self.faces)
        )
        suits = tuple(sorted({c.suit for c in cards}))
        if len(suits) > 3:
            raise ValueError(f"deck {self.name}: {len(suits)} suits, the rules know three")
        setattr_ = object.__setattr__
        setattr_(self, "cards", cards)
        setattr_(self, "suits", suits)
        setattr_(self, "points", tuple(c.points for c in cards))
        setattr_(self, "suit_of", tuple(suits.index(c.suit) for c in cards))
        setattr_(
            self,
            "suit_masks",
            tuple(sum(c.mask for c in cards if c.suit == suit) for suit in suits),
        )
        setattr_(self, "full_mask", (1 << len(cards)) - 1)
        by_name: dict[str, Card] = {}
        for c in cards:
            if c.ascii in by_name:
                raise ValueError(f"deck {self.name}: two cards are called {c.ascii}")
            by_name[c.ascii] = c
            by_name[c.rank + c.suit.symbol] = c
            if c.rank == "10":
                by_name["T" + c.suit.letter] = by_name["T" + c.suit.symbol] = c
        setattr_(self, "_by_name", by_name)
        _DECKS[self.name] = self

    def __len__(self) -> int:
        return len(self.cards)

    def card(self, text: str) -> Card:
        """Parse a card in ASCII (`10H`, `TH`) or with a suit symbol (`10♥`)."""
        key = text.strip().upper() if isinstance(text, str) else text
        try:
            return self._by_name[key]
        except (KeyError, TypeError):
            raise ValueError(
                f"{text!r} is not a card of the {self.name} deck "
                f"(write rank then suit, e.g. {self.examples})"
            ) from None

    @property
    def examples(self) -> str:
        """Three cards of the deck as the notation's examples in messages."""
        picks = (self.cards[0], self.cards[len(self.cards) // 2], self.cards[-1])
        return ", ".join(c.ascii for c in picks)

    def cards_of(self, mask: int) -> list[Card]:
        """The cards of a bit mask, lowest first."""
        cards = self.cards
        return [cards[i] for i in iter_bits(mask)]

    def mask_of(self, cards: Iterable[Card]) -> int:
        mask = 0
        for c in cards:
            mask |= 1 << c.index
        return mask

    def points_of(self, mask: int) -> int:
        points = self.points
        return sum(points[i] for i in iter_bits(mask))

    def price_name(self, price_card: Card | None) -> str:
        return self.joker_name if price_card is None else price_card.ascii


# Set-bit indices of every byte value, per byte position: decoding a mask a
# byte at a time is several times faster in Python than a bit at a time.
_BYTE_BITS = [
    [tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)] for k in range(8)
]


def iter_bits(mask: int) -> list[int]:
    """Indices of the set bits of a mask of up to 64 bits, lowest first."""
    out: list[int] = []
    k = 0
    while mask:
        b = mask & 255
        if b:
            out.extend(_BYTE_BITS[k][b])
        mask >>= 8
        k += 1
    return out


_DECKS: dict[str, Deck] = {}


def _card_from_deck(deck_name: str, index: int) -> Card:
    return _DECKS[deck_name].cards[index]


_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")
#: The point table of RULES.md: A–4 one point, 5–9 two, 10–Q three.
_POINTS = (1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3)

#: The Cursed Bottle deck of RULES.md: A–Q in ♦ ♥ ♠, rank first, then suit.
CURSED_BOTTLE = Deck(
    name="cursed-bottle",
    faces=tuple(
        (rank, suit, points) for rank, points in zip(_RANKS, _POINTS, strict=True)
        for suit in (Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
    ),
    joker_position=18,
)


# ------------------------------------------------------------ the Bottle Imp

#: The original game's colours as the deck file names them.
_COLOURS = {"yellow": Suit.YELLOW, "blue": Suit.BLUE, "red": Suit.RED}
#: The original game's Hell card: the price before anyone has bought the bottle.
BOTTLE_IMP_START_PRICE = 19


def bottle_imp_deck(name: str, sets: frozenset[str], path: Path | None = None) -> Deck:
    """The original Bottle Imp deck from its data file (number, colour, coins, set).

    Every card has its own number, so the total order is the numbers' order; the
    Hell card (19) is the price joker.  `sets` picks the basic set (3–4 players)
    or both (5–6 players).
    """
    path = path or Path(__file__).with_name("data") / "bottle-imp-original.csv"
    faces = []
    with path.open(newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["set"] in sets:
                number = float(row["number"])
                faces.append((number, row["number"], _COLOURS[row["colour"]], int(row["coins"])))
    faces.sort()
    below = sum(1 for number, *_ in faces if number < BOTTLE_IMP_START_PRICE)
    return Deck(
        name=name,
        faces=tuple((rank, suit, coins) for _, rank, suit, coins in faces),
        joker_position=below,
        joker_name=str(BOTTLE_IMP_START_PRICE),
    )


#: 36 cards, 1–37 without 19: three and four players.
BOTTLE_IMP = bottle_imp_deck("bottle-imp", frozenset({"basic"}))
#: All 54 cards with the half numbers: five and six players.
BOTTLE_IMP_FULL = bottle_imp_deck("bottle-imp-full", frozenset({"basic", "additional"}))
