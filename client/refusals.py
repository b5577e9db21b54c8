"""A server's refusal in the reader's language, from its rule and facts.

The server sends every refusal with an `ErrorInfo` (trailing metadata
`cb-error-bin`): the rule broken and its facts (table seats, card codes, the
suit led …).  The client words it from those (`err_<rule>` in the catalogues), so
that no English of the engine or the server reaches a German screen; a rule this
client does not know is said in English as the server put it, and in German by a
plain sentence.  Seats are numbered from 1 for people, or named.
"""

from __future__ import annotations

from collections.abc import Callable

import grpc
from cursedbottle.v1 import game_pb2, table_pb2

from .i18n import Tr
from .log_lines import shown_name

ERROR_KEY = "cb-error-bin"
#: Facts that name seats (several joined by ",").
_SEAT_FACTS = ("seat", "to", "turn", "other", "recipients")
#: Card codes' last letter: the suit.
_SUIT_OF_LETTER = {
    "D": game_pb2.SUIT_DIAMONDS, "H": game_pb2.SUIT_HEARTS, "S": game_pb2.SUIT_SPADES,
    "Y": game_pb2.SUIT_YELLOW, "B": game_pb2.SUIT_BLUE, "R": game_pb2.SUIT_RED,
}
#: A refusal without an ErrorInfo: the link, not the server, said no.
_LINK = {
    grpc.StatusCode.UNAVAILABLE: "err_link_down",
    grpc.StatusCode.DEADLINE_EXCEEDED: "err_slow",
}


def error_info(exc: grpc.aio.AioRpcError) -> table_pb2.ErrorInfo | None:
    """The refusal's ErrorInfo, if the server sent one."""
    for key, value in exc.trailing_metadata() or ():
        if key == ERROR_KEY and isinstance(value, bytes):
            try:
                return table_pb2.ErrorInfo.FromString(value)
            except Exception:  # (a damaged message: said as the status says)
                return None
    return None


def card_of(code: str) -> game_pb2.Card:
    """A card from its code, enough to show it (`Tr.card`)."""
    return game_pb2.Card(code=code, rank=code[:-1], suit=_SUIT_OF_LETTER.get(code[-1:], 0))


def words(tr: Tr, info: table_pb2.ErrorInfo,
          name: Callable[[int], str] | None = None) -> str:
    """The refusal of `info` in `tr`'s language; `name` names a table seat (else
    "seat 2", counted from 1)."""
    facts = dict(info.facts)
    key = "err_" + info.rule.lower()
    if "hand" in facts and tr.has(key + "_hand"):
        key += "_hand"
    if "turn" in facts and tr.has(key + "_turn"):
        key += "_turn"
    if not tr.has(key) and not tr.has(key + "_1"):
        return info.message if tr.lang == "en" and info.message else tr("err_other")
    params: dict[str, object] = {}
    for fact, value in facts.items():
        if fact in _SEAT_FACTS:
            params[fact] = seat_list(tr, value, name)
        elif fact in ("card", "led"):
            params[fact] = tr.card(card_of(value))
        elif fact == "suit":
            known = value in game_pb2.Suit.keys()  # noqa: SIM118 (an enum wrapper)
            params[fact] = tr.suit(game_pb2.Suit.Value(value)) if known else value
        elif fact in ("holder", "name"):
            params[fact] = shown_name(tr, value)
        elif fact == "hand":
            params["n"] = int(value) + 1 if value.isdigit() else value
        elif fact == "seats":
            numbers = [str(int(s) + 1) for s in value.split(",") if s.isdigit()]
            params["seats"] = tr.joined(numbers)
            params["count"] = len(numbers)
        else:
            params[fact] = value
    if tr.has(key + "_1"):
        return tr.count(key, int(params.get("count", 1)), **params)
    try:
        return tr(key, **params)
    except (KeyError, IndexError):  # a fact missing: the rule's plain sentence
        return tr("err_other") if tr.lang != "en" else info.message


def seat_list(tr: Tr, value: str, name: Callable[[int], str] | None) -> str:
    seats = [int(s) for s in value.split(",") if s.lstrip("-").isdigit()]
    shown = [name(s) if name is not None else tr("seat_n", n=s + 1) for s in seats]
    return tr.joined(shown)


def refusal(tr: Tr, exc: grpc.aio.AioRpcError,
            name: Callable[[int], str] | None = None) -> str:
    """Why the server (or the link) said no, in `tr`'s language."""
    info = error_info(exc)
    if info is not None and info.rule:
        return words(tr, info, name)
    key = _LINK.get(exc.code())
    if key is not None:
        return tr(key)
    return (exc.details() or exc.code().name) if tr.lang == "en" else tr("err_other")
