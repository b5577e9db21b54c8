"""Words and card names in English and German.

The client draws cards from the wire (`Card.rank`, `Card.suit`, `Card.order`)
rather than importing the engine's card module: the wire already carries
everything a person needs to see, and the client stays independent of the
engine's import graph.
"""

from __future__ import annotations

import locale
import os
from importlib import resources

from cursedbottle.v1 import game_pb2

from .strings_de import DE
from .strings_en import EN

LANGS = ("en", "de")

_SUIT_SYMBOL = {
    game_pb2.SUIT_DIAMONDS: "♦",
    game_pb2.SUIT_HEARTS: "♥",
    game_pb2.SUIT_SPADES: "♠",
}
_SUIT_LETTER = {
    game_pb2.SUIT_DIAMONDS: "D", game_pb2.SUIT_HEARTS: "H", game_pb2.SUIT_SPADES: "S",
    game_pb2.SUIT_YELLOW: "Y", game_pb2.SUIT_BLUE: "B", game_pb2.SUIT_RED: "R",
}
#: The Bottle Imp's colours have no sign: a card face is its number and the colour's
#: initial in the reader's language (and it is drawn in that colour).
_COLOUR_LETTER = {
    "en": {game_pb2.SUIT_YELLOW: "Y", game_pb2.SUIT_BLUE: "B", game_pb2.SUIT_RED: "R"},
    "de": {game_pb2.SUIT_YELLOW: "G", game_pb2.SUIT_BLUE: "B", game_pb2.SUIT_RED: "R"},
}
SUIT_NAMES = {
    "en": {
        game_pb2.SUIT_DIAMONDS: "diamonds", game_pb2.SUIT_HEARTS: "hearts",
        game_pb2.SUIT_SPADES: "spades", game_pb2.SUIT_YELLOW: "yellow",
        game_pb2.SUIT_BLUE: "blue", game_pb2.SUIT_RED: "red",
    },
    "de": {
        game_pb2.SUIT_DIAMONDS: "Karo", game_pb2.SUIT_HEARTS: "Herz",
        game_pb2.SUIT_SPADES: "Pik", game_pb2.SUIT_YELLOW: "gelb",
        game_pb2.SUIT_BLUE: "blau", game_pb2.SUIT_RED: "rot",
    },
}
#: Short rank names (RULES.md: German Bube = B, Dame = D; the ace stays "A" on a
#: card face so that a hand of 12 cards fits 80 columns).
_RANKS = {"en": {}, "de": {"J": "B", "Q": "D"}}
_JOKER = {"en": "joker (6½)", "de": "Joker (6½)"}
#: What the wire calls the Cursed Bottle's starting price (`Rules.start_price`).
_JOKER_NAME = "JOKER"

STRINGS: dict[str, dict[str, str]] = {"en": EN, "de": DE}


def detect_lang(explicit: str | None = None) -> str:
    """`--lang` wins; otherwise the locale (LC_ALL, LC_MESSAGES, LANG) picks German or English."""
    if explicit:
        return explicit if explicit in LANGS else "en"
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "de" if value.lower().startswith("de") else "en"
    try:
        code = locale.getlocale()[0] or ""
    except ValueError:
        code = ""
    return "de" if code.lower().startswith("de") else "en"


class Tr:
    """Translation for one language; `tr("key", n=1)`."""

    def __init__(self, lang: str = "en", rules: game_pb2.Rules | None = None) -> None:
        self.lang = lang if lang in LANGS else "en"
        self._strings = STRINGS[self.lang]
        #: The game whose cards and rules text this speaks of (Cursed Bottle unless
        #: `use_rules` says otherwise) and the name of its starting price.
        self.game = game_pb2.GAME_CURSED_BOTTLE
        self.start_price = ""
        if rules is not None:
            self.use_rules(rules)

    def use_rules(self, rules: game_pb2.Rules) -> None:
        """Speak of this rule set's game: its price before the first purchase ("19" in
        the Bottle Imp) and its rules text."""
        self.game = rules.game or game_pb2.GAME_CURSED_BOTTLE
        price = rules.start_price  # filled by the server
        self.start_price = "" if price == _JOKER_NAME else price

    def for_rules(self, rules: game_pb2.Rules) -> Tr:
        """A translator of the same language for a table with these rules."""
        return Tr(self.lang, rules)

    @property
    def bottle_imp(self) -> bool:
        return self.game == game_pb2.GAME_BOTTLE_IMP

    def has(self, key: str) -> bool:
        return key in self._strings

    def __call__(self, key: str, **params: object) -> str:
        text = self._strings.get(key) or STRINGS["en"].get(key, key)
        return text.format(**params) if params else text

    def card(self, card: game_pb2.Card | None) -> str:
        """`10♥`, German `B♠`; the Bottle Imp's `2.5Y`, `17B` (German `2.5G`); an unset
        card is the starting price: the joker, or the Bottle Imp's Hell card `19`."""
        if card is None or not card.code:
            return self.start_price or _JOKER[self.lang]
        rank = card.rank or card.code[:-1]
        colour = _COLOUR_LETTER[self.lang].get(card.suit)
        if colour is not None:
            return rank + colour
        return _RANKS[self.lang].get(rank, rank) + _SUIT_SYMBOL.get(card.suit, card.code[-1:])

    def suit(self, suit: int) -> str:
        """The suit's or colour's name: `hearts`, `yellow`, German `Herz`, `gelb`."""
        return SUIT_NAMES[self.lang].get(suit, "?")

    def number(self, value: float, signed: bool = False, digits: int = 1) -> str:
        """`+3.2`, German `+3,2` (a decimal comma); `signed` shows the sign of 0 and up."""
        text = f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
        return text.replace(".", ",") if self.lang == "de" else text

    def count(self, key: str, n: int, **params: object) -> str:
        """`1 deal` / `40 deals` (`deals_1`, `deals_n`), in the language."""
        return self(f"{key}_1", n=n, **params) if n == 1 else self(f"{key}_n", n=n, **params)

    def joined(self, items: list[str]) -> str:
        """`A`, `A and B`, `A, B and C` (German `und`)."""
        if len(items) <= 1:
            return "".join(items)
        return ", ".join(items[:-1]) + self("and") + items[-1]

    def cards(self, cards) -> str:
        return " ".join(self.card(c) for c in sort_cards(cards))

    def rules_text(self) -> str:
        """The player-facing rules of this game shipped with the client (package data)."""
        name = "rules-bottle-imp" if self.bottle_imp else "rules"
        return resources.files("cursedbottle.client").joinpath(
            f"data/{name}-{self.lang}.txt"
        ).read_text(encoding="utf-8")

    def game_name(self, game: int) -> str:
        return self("g_imp") if game == game_pb2.GAME_BOTTLE_IMP else self("g_cursed")


def suit_letter(card: game_pb2.Card) -> str:
    return _SUIT_LETTER.get(card.suit, card.code[-1:])


def sort_cards(cards) -> list[game_pb2.Card]:
    """The one total order of the game (the server numbers it: `Card.order`)."""
    return sorted(cards, key=lambda c: c.order)
