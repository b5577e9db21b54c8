"""A rule set: everything a table agrees on before the first deal."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import CURSED_BOTTLE, Deck


class RulesError(ValueError):
    """A rule set that cannot be played; the message names the field."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule set of a table.

    `players` counts people: with 2 a third seat is Lopaka, the dummy, unless
    the bright house is played (then each player has two hands instead).
    The game ends at `target` points, or after `hands` hands when that is set
    (a tie at the top plays on in both cases).
    """

    players: int = 3
    hot_bottle: bool = False
    bright_house: bool = False
    target: int | None = 100
    hands: int | None = None
    #: A game to a target also ends after this many hands (with the hot bottle
    #: totals can sink so that nobody ever reaches the target).
    hand_limit: int = 30
    deck: Deck = field(default=CURSED_BOTTLE)

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise RulesError(f"players: {self.players!r} is not 2, 3 or 4")
        if self.bright_house and self.players != 2:
            raise RulesError("bright_house: the bright house is a two-player variant")
        if self.hands is not None:
            if not isinstance(self.hands, int) or self.hands < 1:
                raise RulesError(f"hands: {self.hands!r} is not a positive number of hands")
            object.__setattr__(self, "target", None)
        elif self.target is None or not isinstance(self.target, int) or self.target < 1:
            raise RulesError(f"target: {self.target!r} is not a positive score")
        if not isinstance(self.hand_limit, int) or self.hand_limit < 1:
            raise RulesError(f"hand_limit: {self.hand_limit!r} is not a positive number of hands")
        if len(self.deck) != 36:
            raise RulesError(
                f"deck: {self.deck.name} has {len(self.deck)} cards, these rules need 36"
            )

    @property
    def lopaka(self) -> bool:
        """Two players without the bright house play with Lopaka in a third seat."""
        return self.players == 2 and not self.bright_house

    @property
    def seats(self) -> int:
        """Seats at the table in one hand (Lopaka has a seat)."""
        return 3 if self.lopaka else self.players

    @property
    def holders(self) -> int:
        """Card holders in the play: one per seat, two per player in the bright house."""
        return 4 if self.bright_house else self.seats

    @property
    def deal_size(self) -> int:
        """Cards dealt to each holder."""
        if self.bright_house:
            return 9
        return 11 if self.lopaka else len(self.deck) // self.players

    @property
    def tricks(self) -> int:
        """Tricks in a hand, once the pile and the passes are done."""
        if self.bright_house:
            return 8
        return 11 if self.lopaka else len(self.deck) // self.players - 1

    def to_json(self) -> dict:
        """The `rules` object of FORMATS.md (extra fields are allowed there)."""
        out: dict = {"players": self.players, "hot_bottle": self.hot_bottle}
        if self.bright_house:
            out["bright_house"] = True
        return out
