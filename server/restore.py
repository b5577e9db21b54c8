"""Tables rebuilt from the database after a restart, and set going again.

The store hands back plain rows (server/rows.py); this is the table side of
the restart: a game is rebuilt by replaying its actions through the engine,
each event getting the time of the action that caused it.  Seats keep their
token hashes: a client's token is recognised when it comes back
(`Lobby.seat`).  Bots are made again from the table's seed and start acting
at once.  A table whose rows are damaged in any way is skipped, with one line
in the log saying which and what is wrong; the others come back.
"""

from __future__ import annotations

import logging

from cursedbottle.bots import Bot, make_bot
from cursedbottle.engine.game import Game
from cursedbottle.engine.hand import Hand
from cursedbottle.engine.records import HandRecord, record_of

from .credentials import token_hash
from .decoding import within
from .errors import ServiceError
from .lobby import Lobby
from .rows import Damage, Damaged, StoredHand, StoredTable
from .runner import check_bot_effort
from .seats import SeatKind
from .stand_ins import bot_seed
from .store import Store
from .tables import Table

log = logging.getLogger("cursedbottle.server")


def restore(lobby: Lobby, store: Store) -> list[Table]:
    """Rebuild every unfinished table of the database into `lobby` and set it going."""
    restored = []
    for row in store.unfinished():
        table = _rebuilt(lobby, store, row)
        if table is not None:
            restored.append(table)
    going = []
    for table in restored:
        try:
            table.resume()
        except Exception as exc:
            store.report(Damage(table.table_id, f"cannot go on: {exc!r}"))
            lobby.forget(table, "the server could not resume this table")
            continue
        going.append(table)
    return going


def bring_back(lobby: Lobby, store: Store, table_id: str, token: str) -> Table | None:
    """A finished game's table, for one of its players coming back after a restart.

    A game can end just as the server dies: its last action is stored, the end never
    reaches the clients, and `restore` does not load finished tables.  A player who
    comes back with a seat token of it gets the table again, read-only (the game is
    over), so the rest of the log and the final standings reach them.  Only a seat
    token opens this (an id alone does not), and the table then counts among the
    lobby's tables and goes, like any finished one, when room is needed.  None when
    the token is not one of the table's seats', the table never started or is not
    finished, or its rows are damaged (reported, as at a restart).
    """
    if store.damage_of(table_id) is not None:  # told once already; not replayed again
        return None
    row = store.finished(table_id)
    if row is None or not any(s.token_sha256 == token_hash(token) for s in row.seats):
        return None
    table = _rebuilt(lobby, store, row)
    if table is not None:
        log.info("table %s brought back (finished): a player came back to it", table_id)
    return table


def _rebuilt(lobby: Lobby, store: Store, row: StoredTable) -> Table | None:
    """The stored table rebuilt and adopted by the lobby; None if it is damaged
    (reported: one line in the log, and the hand at fault left out of ListHands)."""
    try:
        table = rebuild(lobby, row)
    except Damaged as exc:
        store.report(Damage(row.table_id, str(exc)))
        if exc.hand is not None:  # nor is that hand shown (ListHands, ReviewHand)
            what = str(exc).removeprefix(f"hand {exc.hand}: ")
            store.report(Damage(row.table_id, what, exc.hand))
        return None
    except Exception as exc:  # what the checks did not foresee: still this table only
        store.report(Damage(row.table_id, f"cannot be rebuilt: {exc!r}"))
        return None
    table.store = store
    lobby.adopt(table)
    return table


def rebuild(lobby: Lobby, row: StoredTable) -> Table:
    """The table of a stored row; `Damaged` when the rows do not make a table the
    server can run (an unknown bot, an action the engine refuses, hands that do not
    agree with the actions …)."""
    with within("stand_in_bot"):
        _bot(row.stand_in_bot, 0)
    table = Table.from_row(row, lobby.runner, lobby.token_changed)
    for saved in row.seats:
        bot = None
        if SeatKind(saved.kind) is SeatKind.BOT:
            with within(f"seat {saved.seat}"):
                bot = _bot(saved.bot, bot_seed(table.seed, "bot", saved.seat))
        table.restore_seat(saved, bot)
    finished = 0
    if row.state == "waiting" and row.actions:
        raise Damaged(f"waiting to start, yet {len(row.actions)} actions are stored")
    if row.state == "playing" or (row.state == "finished" and row.actions):
        game = Game(row.rules, row.seed, row.first_dealer)
        times = [row.started_ns or row.created_ns] * len(game.events)
        acted: dict[int, int] = {}  # player → the log's length after its last action
        for n, (action, time_ns) in enumerate(row.actions):
            try:
                mover = game.player_at(action.seat)
                game.apply(action)
            except Exception as exc:  # IllegalAction, or a seat the game does not have
                raise Damaged(f"action {n}: the engine refuses it: {exc}") from None
            times.extend([time_ns] * (len(game.events) - len(times)))
            if mover is not None:
                acted[mover] = len(game.events)
        if game.is_over != (row.state == "finished"):
            raise Damaged(
                f"still playing, yet its {len(row.actions)} actions end the game"
                if game.is_over
                else f"finished, yet its {len(row.actions)} actions do not end the game"
            )
        table.restore_game(game, times, acted)
        finished = table.hands_finished
    stored = len(row.hands)
    if stored != finished:
        plural = "" if finished == 1 else "s"
        raise Damaged(
            f"hand {stored + 1} is missing (the actions finish {finished} hand{plural})"
            if stored < finished
            else f"hand {finished + 1} is stored, yet the actions finish {finished} hand{plural}"
        )
    for hand in row.hands:
        try:
            _check_hand(hand, table.game.hands[hand.number - 1])
        except Damaged as exc:
            raise Damaged(f"hand {hand.number}: {exc}", hand.number) from None
    return table


def _check_hand(stored: StoredHand, played: Hand) -> None:
    """A stored hand is the hand the actions play (its record is what `history`,
    `ListHands` and `ReviewHand` read once the game is over)."""
    record, again = HandRecord.from_json(stored.record), record_of(played)
    fields = ("dealer", "deal", "pile", "passes", "plays", "lopaka", "open_hand")
    for name in fields:
        if getattr(record, name) != getattr(again, name):
            raise Damaged(f"record: {name} differs from what the actions played")
    if stored.scores != list(played.scores()):
        raise Damaged(f"scores: {stored.scores}, the actions score {list(played.scores())}")


def _bot(name: str, seed: int) -> Bot:
    """A stored bot, if this server would take it today (AddBot's checks)."""
    try:
        check_bot_effort(name)  # a `strong:inf` stored before the limit stays out
        return make_bot(name, seed=seed)
    except ServiceError as exc:
        raise Damaged(exc.message) from None
    except ValueError as exc:
        raise Damaged(str(exc)) from None
