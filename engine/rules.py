"""A rule set: everything a table agrees on before the first deal."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from .cards import BOTTLE_IMP, BOTTLE_IMP_FULL, CURSED_BOTTLE, Deck


class RulesError(ValueError):
    """A rule set that cannot be played: the field it names (None for the whole
    set) and why; the message is `field: reason`."""

    def __init__(self, field: str | None, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(reason if field is None else f"{field}: {reason}")


class Edition(enum.Enum):
    """Which game: Cursed Bottle (RULES.md) or the original Bottle Imp it adapts."""

    CURSED_BOTTLE = "cursed-bottle"
    BOTTLE_IMP = "bottle-imp"


#: Players each edition seats (two Bottle Imp players play Devil's Eye).
PLAYERS = {Edition.CURSED_BOTTLE: (2, 3, 4), Edition.BOTTLE_IMP: (2, 3, 4, 5, 6)}
#: Hands of a Bottle Imp game when no end is given: each player deals twice.
DEALS_PER_PLAYER = 2
#: A player's two hands in words (the bright house, Devil's Eye): the first and
#: the second dealt.
HAND_NAMES = ("first", "second")
#: Devil's Eye deals each player a first hand of 6 and a second of 12.
DEVILS_EYE_DEAL = (6, 12)
#: ... and each lays 2 cards of the second hand into the Devil's Trick.
DEVILS_EYE_PILE = 2


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule set of a table.

    `players` counts people: with 2 a third seat is Lopaka, the dummy, unless
    the bright house is played (then each player has two hands instead); two
    Bottle Imp players play Devil's Eye (two hands each, one of them open).
    The game ends at `target` points, or after `hands` hands when that is set
    (a tie at the top plays on in both cases).  Without either, Cursed Bottle
    plays to 100 and the Bottle Imp lets each player deal twice.
    """

    players: int = 3
    hot_bottle: bool = False
    bright_house: bool = False
    target: int | None = None
    hands: int | None = None
    #: A game to a target also ends after this many hands (with the hot bottle
    #: totals can sink so that nobody ever reaches the target).
    hand_limit: int = 30
    #: Default: the edition's deck for this many players.
    deck: Deck | None = None
    edition: Edition = Edition.CURSED_BOTTLE
    #: The Bottle Imp's team mode: partners opposite each other share their
    #: points, individuals (five players: seat 0, who always deals) double theirs.
    teams: bool = False
    #: The Bottle Imp's second bottle (5–6 players): two bottles at 19; only the
    #: higher-priced one can be bought; each costs its owner the Devil's Trick.
    second_bottle: bool = False
    #: Team mode with six: two pairs and two who play alone (the seed's 2-2-1-1)
    #: instead of three pairs.
    singles: bool = False

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if not isinstance(self.edition, Edition):
            raise RulesError("game", f"{self.edition!r} is not one of {_editions()}")
        allowed = PLAYERS[self.edition]
        if type(self.players) is not int or self.players not in allowed:
            raise RulesError(
                "players", f"{self.players!r} is not {_either(allowed)} in {self.edition.value}"
            )
        original = self.edition is Edition.BOTTLE_IMP
        for name in ("hot_bottle", "bright_house"):
            if original and getattr(self, name):
                raise RulesError(name, "a Cursed Bottle variant, not part of the Bottle Imp")
        if self.teams and not (original and self.players >= 4):
            raise RulesError("teams", "the team mode is the Bottle Imp's, for 4 to 6 players")
        if self.singles and not (self.teams and self.players == 6):
            raise RulesError(
                "singles",
                "two playing alone (2-2-1-1) is a split of the team mode for six: "
                "it needs teams and 6 players",
            )
        if self.second_bottle and not (original and self.players >= 5):
            raise RulesError(
                "second_bottle", "the second bottle is the Bottle Imp's, for 5 or 6 players"
            )
        if self.bright_house and self.players != 2:
            raise RulesError("bright_house", "the bright house is a two-player variant")
        if self.hands is not None:
            if type(self.hands) is not int or self.hands < 1:
                raise RulesError("hands", f"{self.hands!r} is not a positive number of hands")
            set_(self, "target", None)
        elif self.target is None:
            if original:
                set_(self, "hands", DEALS_PER_PLAYER * self.players)
            else:
                set_(self, "target", 100)
        elif type(self.target) is not int or self.target < 1:
            raise RulesError("target", f"{self.target!r} is not a positive score")
        if type(self.hand_limit) is not int or self.hand_limit < 1:
            raise RulesError("hand_limit", f"{self.hand_limit!r} is not a positive number of hands")
        want = _deck(self.edition, self.players)
        if self.deck is None:
            set_(self, "deck", want)
        elif len(self.deck) != len(want):
            raise RulesError(
                "deck", f"{self.deck.name} has {len(self.deck)} cards, these rules need {len(want)}"
            )

    @property
    def original(self) -> bool:
        return self.edition is Edition.BOTTLE_IMP

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Who scores together: partners sit opposite each other (4: 0+2, 1+3;
        6: 0+3, 1+4, 2+5, or with singles seats 0 and 3 alone, 1+4, 2+5; 5: seat
        0 alone, 1+3, 2+4); without teams everyone alone."""
        n = self.players
        if not self.teams:
            return tuple((s,) for s in range(n))
        if n == 5:
            return ((0,), (1, 3), (2, 4))
        if self.singles:
            return ((0,), (1, 4), (2, 5), (3,))
        half = n // 2
        return tuple((s, s + half) for s in range(half))

    @property
    def side_of(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, its side (itself and its partner)."""
        out: dict[int, tuple[int, ...]] = {s: side for side in self.sides for s in side}
        return tuple(out[s] for s in range(self.players))

    def dealer_of(self, first_dealer: int, number: int) -> int:
        """The player who deals hand `number` (1-based): the deal moves left, but
        when some play alone in team mode an individual always deals (with two,
        they take turns, the first dealer's turn first if it is one of them)."""
        alone = [side[0] for side in self.sides if len(side) == 1] if self.teams else []
        if alone:
            start = alone.index(first_dealer) if first_dealer in alone else 0
            return alone[(start + number - 1) % len(alone)]
        return (first_dealer + number - 1) % self.players

    def team_scores(self, scores: tuple[int, ...]) -> tuple[int, ...]:
        """Hand scores as they count: partners both get their sum; in team mode an
        individual's points (a bottle's loss too) count double."""
        if not self.teams:
            return scores
        out = []
        for side in self.side_of:
            total = sum(scores[s] for s in side)
            out.append(2 * total if len(side) == 1 else total)
        return tuple(out)

    @property
    def bottles(self) -> int:
        return 2 if self.second_bottle else 1

    @property
    def devils_eye(self) -> bool:
        """The Bottle Imp for two: hands of 6 and 12, the first laid open (the
        "eye"), four-card tricks where each card comes from either hand."""
        return self.original and self.players == 2

    @property
    def pile_per_stage(self) -> int:
        """Cards each seat lays into the pile in one pile stage (Devil's Eye: both of
        its cards at once; the bright house lays one per hand, in two stages)."""
        return DEVILS_EYE_PILE if self.devils_eye else 1

    @property
    def two_hands(self) -> bool:
        """Each player holds two hands (holders 2p and 2p+1): the bright house, Devil's Eye."""
        return self.bright_house or self.devils_eye

    @property
    def lopaka(self) -> bool:
        """Two Cursed Bottle players without the bright house play with Lopaka in a third seat."""
        return self.players == 2 and not self.two_hands

    @property
    def seats(self) -> int:
        """Seats at the table in one hand (Lopaka has a seat)."""
        return 3 if self.lopaka else self.players

    @property
    def holders(self) -> int:
        """Card holders in the play: one per seat, two per player with two hands."""
        return 4 if self.two_hands else self.seats

    @property
    def dealer_discards(self) -> bool:
        """Five Bottle Imp players: the dealer gets a card fewer and lays none away."""
        return not (self.original and self.players == 5)

    @property
    def deal_size(self) -> int:
        """Cards dealt to each holder (but a dealer who does not discard, and
        Devil's Eye's second hands: see `deal_sizes`)."""
        if self.devils_eye:
            return DEVILS_EYE_DEAL[0]
        if self.bright_house:
            return 9
        if self.lopaka:
            return 11
        return -(-len(self.deck) // self.players)

    def deal_sizes(self, dealer: int) -> tuple[int, ...]:
        """Cards dealt to each holder when `dealer` deals."""
        if self.devils_eye:
            return DEVILS_EYE_DEAL * 2
        sizes = [self.deal_size] * self.holders
        if not self.dealer_discards:
            sizes[dealer] -= 1
        return tuple(sizes)

    def pile_seats(self, dealer: int) -> tuple[int, ...]:
        """Seats that lay a card into the pile, in seat order (not Lopaka: the
        undealt cards are his pile)."""
        if self.lopaka:
            return ()
        return tuple(s for s in range(self.seats) if self.dealer_discards or s != dealer)

    @property
    def pile_size(self) -> int:
        """Cards in the bottle pile once it is laid (with Lopaka: the undealt cards)."""
        if self.lopaka:
            return len(self.deck) - sum(self.deal_sizes(0))
        return self.holders if self.two_hands else len(self.pile_seats(0))

    @property
    def tricks(self) -> int:
        """Tricks in a hand, once the pile and the passes are done."""
        if self.two_hands:
            return 8
        return 11 if self.lopaka else self.deal_size - 1

    def to_json(self, whole: bool = False) -> dict:
        """The `rules` object of FORMATS.md (extra fields are allowed there): the
        hand's rules.  `whole`: every field, how the game ends and the deck's name
        included, each written even when it is the default (the server's tables)."""
        if whole:
            return {
                "players": self.players,
                "hot_bottle": self.hot_bottle,
                "bright_house": self.bright_house,
                "target": self.target,
                "hands": self.hands,
                "deck": self.deck.name,
                "game": self.edition.value,
                "teams": self.teams,
                "second_bottle": self.second_bottle,
                "singles": self.singles,
            }
        out: dict = {"players": self.players}
        if self.original:
            out["game"] = self.edition.value
            if self.teams:
                out["teams"] = True
            if self.second_bottle:
                out["second_bottle"] = True
            if self.singles:
                out["singles"] = True
            return out
        out["hot_bottle"] = self.hot_bottle
        if self.bright_house:
            out["bright_house"] = True
        return out

    @classmethod
    def from_json(cls, obj: object, whole: bool = False) -> Rules:
        """Read a `rules` object (records, positions, the store).  A hand's rules
        do not say how the game ends; `whole` reads that too (`hands`, else
        `target`) and checks a `deck` name against the deck these rules play.
        Raises RulesError naming the field."""
        if not isinstance(obj, Mapping):
            raise RulesError(None, 'expected an object like {"players": 3, "hot_bottle": false}')
        game = obj.get("game", Edition.CURSED_BOTTLE.value)
        try:
            edition = Edition(game)
        except ValueError:
            raise RulesError("game", f"{game!r} is not one of {_editions()}") from None
        if "players" not in obj:
            raise RulesError("players", "missing")
        players = obj["players"]
        if type(players) is not int:
            raise RulesError("players", f"{players!r} is not {_either(PLAYERS[edition])}")
        flags = {}
        for name in ("hot_bottle", "bright_house", "teams", "second_bottle", "singles"):
            flag = obj.get(name, False)
            if not isinstance(flag, bool):
                raise RulesError(name, f"{flag!r} is not true or false")
            flags[name] = flag
        if whole:
            hands = obj.get("hands")
            flags["hands"] = hands
            flags["target"] = obj.get("target") if hands is None else None
        rules = cls(players=players, edition=edition, **flags)
        if whole and obj.get("deck", rules.deck.name) != rules.deck.name:
            raise RulesError(
                "deck", f"{obj['deck']!r} is not {rules.deck.name}, the deck of these rules"
            )
        return rules


def _deck(edition: Edition, players: int) -> Deck:
    if edition is Edition.CURSED_BOTTLE:
        return CURSED_BOTTLE
    return BOTTLE_IMP if players <= 4 else BOTTLE_IMP_FULL


def _either(values: tuple[int, ...]) -> str:
    return ", ".join(str(v) for v in values[:-1]) + f" or {values[-1]}"


def _editions() -> str:
    return " or ".join(repr(e.value) for e in Edition)
