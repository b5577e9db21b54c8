"""Reading the database's values back: every value checked, damage named.

SQLite keeps any value in any column, and a file can be edited by hand: every
value read back is checked, so that a damaged row is named (`Damaged`) rather
than failing later, somewhere else, for every table at once.  The decoders
turn raw rows into the values of server/rows.py.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Iterator
from typing import Any

from cursedbottle.engine.actions import Action, ActionFormError, action_from_json, action_to_json
from cursedbottle.engine.cards import Deck
from cursedbottle.engine.records import HandRecord, RecordError
from cursedbottle.engine.rules import Rules, RulesError

from .rows import Damaged, StoredHand, StoredSeat, StoredTable


def shown(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return "a blob"
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _text(value: object, column: str) -> str:
    if isinstance(value, str):
        return value
    raise Damaged(f"{column}: {shown(value)}, not text")


def whole(value: object, column: str) -> int:
    if type(value) is int:
        return value
    raise Damaged(f"{column}: {shown(value)} is not a whole number")


def _maybe_whole(value: object, column: str) -> int | None:
    return None if value is None else whole(value, column)


def _blob(value: object, column: str) -> bytes | None:
    if value is None or isinstance(value, bytes):
        return value
    raise Damaged(f"{column}: {shown(value)}, not a blob")


def _seconds(value: object, column: str) -> float:
    if type(value) in (int, float) and math.isfinite(value) and value >= 0:
        return float(value)
    raise Damaged(f"{column}: {shown(value)} is not a number of seconds")


def loads(value: object, column: str | None) -> Any:
    """JSON text (`column`: the name the damage gives it, None for a whole action)."""
    said = f"{column}: " if column else ""
    if not isinstance(value, str):
        raise Damaged(f"{said}{shown(value)}, not text")
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise Damaged(f"{said}not JSON ({exc.msg} at column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        raise Damaged(f"{said}not JSON ({exc})") from None


def _wholes(value: object, column: str, count: int | None = None) -> list[int]:
    if not isinstance(value, list) or any(type(x) is not int for x in value):
        raise Damaged(f"{column}: {shown(value)} is not a list of whole numbers")
    if count is not None and len(value) != count:
        raise Damaged(f"{column}: {len(value)} numbers, expected {count}")
    return value


@contextlib.contextmanager
def within(where: str) -> Iterator[None]:
    """Damage found inside `where` (an action, a seat, a hand) is said to be there."""
    try:
        yield
    except Damaged as exc:
        raise Damaged(f"{where}: {exc}", exc.hand) from None


# ------------------------------------------------------- actions and rules
#
# The formats are the engine's (`action_to_json`, `Rules.to_json(whole=True)`);
# here they are read with every fault named as damage.


def encode_action(action: Action) -> str:
    """An engine action as compact JSON (hand seats, ASCII cards)."""
    return json.dumps(action_to_json(action), separators=(",", ":"))


def decode_action(text: str, deck: Deck) -> Action:
    """A stored action; `Damaged` saying what is wrong when it is not one."""
    obj = loads(text, None)
    try:
        return action_from_json(obj, deck)
    except ActionFormError as exc:
        raise Damaged(exc.message(shown)) from None


def rules_to_json(rules: Rules) -> str:
    """The whole rule set, how the game ends included (a hand record leaves that out)."""
    return json.dumps(rules.to_json(whole=True))


def rules_from_json(text: str) -> Rules:
    """The stored rule set; `Damaged` naming the field when this server cannot play it."""
    obj = loads(text, "rules")
    fields = dict(obj) if isinstance(obj, dict) else obj
    has_deck = isinstance(fields, dict) and "deck" in fields
    deck = fields.pop("deck") if has_deck else None
    try:
        rules = Rules.from_json(fields, whole=True)
    except RulesError as exc:
        raise Damaged(f"rules: {exc}") from None
    if has_deck and deck != rules.deck.name:
        raise Damaged(f"rules: deck {shown(deck)}: these rules play {rules.deck.name}")
    return rules


_STATES = ("waiting", "playing", "finished")
_KINDS = ("empty", "human", "bot")


def table_id_of(value: object) -> str:
    """A table's id as damage names it (even an id that is not text)."""
    return value if isinstance(value, str) else shown(value)


def decode_table(row: tuple, hands_finished: int, seat_rows: list[tuple]) -> StoredTable:
    """One `tables` row and its seats, every value checked (`Damaged` otherwise)."""
    (table_id, name, rules_text, seed, chosen, dealer, salt, password, after, bot, host) = row[:11]
    (state, created, started, finished, totals, winner) = row[11:]
    _text(table_id, "table_id")
    rules = rules_from_json(rules_text)
    if state not in _STATES:
        raise Damaged(f"state: {shown(state)} is not waiting, playing or finished")
    first_dealer = _maybe_whole(dealer, "first_dealer")
    if first_dealer is not None and not 0 <= first_dealer < rules.players:
        raise Damaged(f"first_dealer: {first_dealer} is not a seat (0…{rules.players - 1})")
    salt, password = _blob(salt, "password_salt"), _blob(password, "password_hash")
    if (salt is None) != (password is None):
        raise Damaged(
            "password_hash: set without password_salt"
            if salt is None
            else "password_salt: set without password_hash"
        )
    if chosen not in (0, 1) or type(chosen) is not int:
        raise Damaged(f"chosen_seed: {shown(chosen)} is not 0 or 1")
    if totals is not None:
        totals = _wholes(loads(totals, "totals"), "totals", rules.players)
    winner = _maybe_whole(winner, "winner")
    if winner is not None and not 0 <= winner < rules.players:
        raise Damaged(f"winner: {winner} is not a seat (0…{rules.players - 1})")
    return StoredTable(
        table_id=table_id,
        name=_text(name, "name"),
        rules=rules,
        seed=_text(seed, "seed"),
        chosen_seed=bool(chosen),
        first_dealer=first_dealer,
        password_salt=salt,
        password_hash=password,
        stand_in_after=_seconds(after, "stand_in_after"),
        stand_in_bot=_text(bot, "stand_in_bot"),
        host_token_sha256=_text(host, "host_token_sha256"),
        state=state,
        created_ns=whole(created, "created_ns"),
        started_ns=_maybe_whole(started, "started_ns"),
        finished_ns=_maybe_whole(finished, "finished_ns"),
        totals=totals,
        winner=winner,
        seats=_decode_seats(rules, seat_rows),
        hands_finished=hands_finished,
    )


def _decode_seats(rules: Rules, rows: list[tuple]) -> list[StoredSeat]:
    """A table's seat rows: each seat of the rules once, in order."""
    seats = []
    for seat, kind, name, token, bot, from_hand in rows:
        number = whole(seat, "seat number")
        with within(f"seat {number}"):
            if not 0 <= number < rules.players:
                raise Damaged(f"no such seat ({rules.players} players)")
            if kind not in _KINDS:
                raise Damaged(f"kind {shown(kind)} is not empty, human or bot")
            if token is not None:
                _text(token, "token_sha256")
            start = whole(from_hand, "from_hand")
            if start < 0:
                raise Damaged(f"from_hand {start} is not a hand")
            seats.append(
                StoredSeat(number, kind, _text(name, "name"), token, _text(bot, "bot"), start)
            )
    numbers = [s.seat for s in seats]
    for expected in range(rules.players):
        if expected not in numbers:
            raise Damaged(f"seat {expected} is missing")
    return seats


def decode_hand(row: tuple, checked: bool) -> StoredHand:
    """One `hands` row, its `number` known to be a number; `checked`: its record was
    parsed before (a finished hand never changes, and parsing is the slow part)."""
    table_id, number, record, names, seating, scores, finished_ns = row
    obj = loads(record, "record")
    seats = None
    if not checked:
        try:
            seats = HandRecord.from_json(obj).rules.seats
        except RecordError as exc:
            raise Damaged(f"record: {exc}") from None
    names = loads(names, "names")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise Damaged(f"names: {shown(names)} is not a list of names")
    if seats is not None and len(names) != seats:
        raise Damaged(f"names: {len(names)} names for the record's {seats} seats")
    seating = loads(seating, "seating")
    if (
        not isinstance(seating, list)
        or len(seating) != len(names)
        or any(s is not None and type(s) is not int for s in seating)
    ):
        raise Damaged(f"seating: {shown(seating)} is not a table seat (or null) per name")
    scores = _wholes(loads(scores, "scores"), "scores", len(names))
    return StoredHand(
        table_id, number, obj, names, seating, scores, whole(finished_ns, "finished_ns")
    )

