"""How a card is drawn: its face in its suit's colour, alone or boxed under a name.

Plain Rich `Text` from the wire's card fields, so a screenshot depends on the
game state only (no clocks, no animation).
"""

from __future__ import annotations

from cursedbottle.v1 import game_pb2
from rich.text import Text

from .i18n import Tr

#: Card faces by suit: hearts and diamonds red; the Bottle Imp's colours their own.
SUIT_STYLES = {
    game_pb2.SUIT_DIAMONDS: "red",
    game_pb2.SUIT_HEARTS: "red",
    game_pb2.SUIT_YELLOW: "yellow",
    game_pb2.SUIT_BLUE: "bright_blue",
    game_pb2.SUIT_RED: "red",
}
#: Team letters, each side in its own colour.
TEAM_STYLES = {"A": "bold green", "B": "bold cyan", "C": "bold magenta"}


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def points_mark(card: game_pb2.Card | None) -> str:
    """A card's points (the Bottle Imp's coins) as the server gives them, raised: "²"."""
    if card is None or not card.code:
        return ""
    return str(card.points).translate(_SUPERSCRIPT)


def value_words(tr: Tr, n: int) -> str:
    """"5 points", "1 point", in the Bottle Imp "5 coins"."""
    return tr.count("f_coins" if tr.bottle_imp else "f_points", n)


def card_style(card: game_pb2.Card) -> str:
    return SUIT_STYLES.get(card.suit, "")


def card_text(tr: Tr, card: game_pb2.Card | None, style: str = "") -> Text:
    """A card in its suit's colour; an unset card is the starting price (the joker, or
    the Bottle Imp's Hell card 19)."""
    if card is None or not card.code:
        return Text(tr.card(None), style=style or ("bold magenta" if tr.start_price
                                                   else "yellow"))
    return Text(tr.card(card), style=(card_style(card) + " " + style).strip() or "bold")


def valued_text(tr: Tr, card: game_pb2.Card, style: str = "") -> Text:
    """A card in its suit's colour with its points raised after it ("5♥²")."""
    out = card_text(tr, card, style)
    out.append(points_mark(card), style="dim")
    return out


def cards_text(tr: Tr, cards: list[game_pb2.Card], valued: bool = False) -> Text:
    """Cards side by side, each followed by a space (with their points, `valued`)."""
    out = Text()
    for c in cards:
        out.append_text(valued_text(tr, c) if valued else card_text(tr, c))
        out.append(" ")
    return out


def team_text(label: str) -> Text:
    return Text(label, style=TEAM_STYLES.get(label, "dim"))


def boxed_cards(tr: Tr, entries: list[tuple[str, game_pb2.Card, bool]]) -> Text:
    """Cards side by side as boxes under their players' names (large terminals):
    `entries` are (name, card, emphasised)."""
    face_w = max([4] + [len(tr.card(card)) for _n, card, _s in entries])
    width = min(18, max([face_w + 4] + [len(name) + 2 for name, _c, _s in entries]))
    lines = [Text() for _ in range(4)]
    for name, card, strong in entries:
        edge = "bold yellow" if strong else ""
        lines[0].append(f"{name[: width - 1]:<{width}}", style="bold" if strong else "")
        lines[1].append(("┌" + "─" * face_w + "┐").ljust(width), style=edge)
        lines[2].append("│", style=edge)
        lines[2].append(tr.card(card).center(face_w), style=card_style(card) or "bold")
        lines[2].append("│".ljust(width - face_w - 1), style=edge)
        points = points_mark(card)  # on the bottom edge, as in the hand
        left = (face_w - len(points)) // 2
        lines[3].append("└" + "─" * left, style=edge)
        lines[3].append(points, style="bold")
        lines[3].append(("─" * (face_w - left - len(points)) + "┘").ljust(width - left - 1
                                                                          - len(points)),
                        style=edge)
    return Text("\n").join(lines)
