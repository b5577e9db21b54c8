"""An engine refusal's facts on the wire (`ErrorInfo.facts`), so that a client words it.

The engine says why an action is refused as a rule and its facts (the seat, the
card, the suit led, the seats a pass may go to …; `IllegalAction`); here they
become strings a client can read without the engine: seats as table seats
(several joined by ","), cards as their codes, a suit as the wire's `Suit` name.
English words (the engine's `what`, a phase's name) stay in the message only.
"""

from __future__ import annotations

from cursedbottle.engine.cards import Card
from cursedbottle.engine.errors import SEAT_FACTS, IllegalAction
from cursedbottle.v1 import game_pb2

from .seating import SeatMap
from .wire import card_msg

#: Facts that are English words or the engine's own numbering: never sent as facts.
_WORDS = frozenset({"what", "phase", "hand_name", "hand_number"})


def engine_facts(exc: IllegalAction, seats: SeatMap) -> dict[str, str]:
    """The refusal's facts by name, in the wire's terms."""
    values = {"seat": exc.seat, "card": exc.card, **exc.facts}
    out: dict[str, str] = {}
    for name, value in values.items():
        if value is None or name in _WORDS:
            continue
        if name in SEAT_FACTS:
            shown = _seats(value, seats)
        elif isinstance(value, Card):
            shown = value.ascii
            if name == "led":
                out["suit"] = game_pb2.Suit.Name(card_msg(value).suit)
        elif name == "suit":
            continue  # from the card led, as the wire names suits
        else:
            shown = str(value)
        if shown is not None:
            out[name] = shown
    return out


def _seats(value: object, seats: SeatMap) -> str | None:
    values = value if isinstance(value, tuple) else (value,)
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(seats.to_wire)
               for v in values):
        return None  # no seat of the hand: the message says what was asked
    return ",".join(str(seats.to_wire[v]) for v in values)
