"""Names other people see: what a table or a player may be called.

A name is drawn on other people's screens, so it must not be able to change
what they see beyond its own letters: no control characters (C0, DEL, C1),
no format characters (bidirectional overrides and isolates, zero-width
spaces and joiners, the byte-order mark, soft hyphens), no line or paragraph
separators, nothing unassigned or private.  Clients show names literally
(markup such as `[bold]` is just text); the server keeps out what no client can
show literally.  A person may also not pass for a bot or for Lopaka, nor for
another person at the same table.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from .errors import invalid, precondition, shorten

#: Unicode general categories refused in names (see the module's docstring).
REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): characters
#: drawn as nothing whatever their category (the combining grapheme joiner, the
#: variation selectors, the Hangul fillers, …), which Python's unicodedata does not
#: list.  Inclusive ranges.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: How the server labels a bot seat ("strong bot"): no person's name ends so.
BOT_SUFFIX = " bot"
LOPAKA = "Lopaka"


def check_shown_text(value: str, what: str) -> str:
    """`value` with its outer spaces trimmed, or INVALID_ARGUMENT naming the first
    character that cannot be shown literally."""
    for ch in value:
        category = unicodedata.category(ch)
        kind = REFUSED_CATEGORIES.get(category)
        if kind is None and _ignorable(ch):
            kind = "a character drawn as nothing"
        if kind is not None:
            described = unicodedata.name(ch, "")
            label = f"U+{ord(ch):04X}" + (f" {described}" if described else "")
            raise invalid(
                "MALFORMED",
                f"{what}: {shorten(value)} holds {label}, {kind}, which names may not contain",
            )
    return value.strip()


def _ignorable(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def _folded(name: str) -> str:
    """What makes two names the same to a reader: case, width and spacing aside."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def is_bot_name(name: str) -> bool:
    from cursedbottle.bots import make_bot

    try:
        make_bot(name)
    except ValueError:
        return False
    return True


def default_name(seat: int, others: Iterable[str]) -> str:
    """The name of a person who gave none: "Player N" by seat, never someone else's."""
    taken = {_folded(o) for o in others}
    name = f"Player {seat}"
    k = 2
    while _folded(name) in taken:
        name, k = f"Player {seat} ({k})", k + 1
    return name


def check_player_name(name: str, others: Iterable[str]) -> None:
    """Refuse a person's name that passes for a bot, Lopaka, or another seat's holder."""
    folded = _folded(name)
    if not folded:
        return
    if folded == _folded(LOPAKA) or folded.endswith(BOT_SUFFIX) or is_bot_name(folded):
        raise invalid(
            "RESERVED_NAME",
            f"name: {shorten(name)} is how the server calls a bot or Lopaka; choose another",
        )
    for other in others:
        if other and _folded(other) == folded:
            raise precondition(
                "NAME_TAKEN",
                f"name: someone at this table is already called {shorten(other)}; "
                "choose another",
                name=other,
            )
