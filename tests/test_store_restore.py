"""The server's database in-process: tables come back after a restart with their
tokens (kept only hashed), their bots and their game, and the file refuses what it
cannot read.  The SIGKILL test with a real process is tests/test_store_restart.py."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
import stat

import grpc
import pytest
from cursedbottle.engine.actions import Play
from cursedbottle.engine.cards import CURSED_BOTTLE
from cursedbottle.engine.game import Game
from cursedbottle.engine.records import HandRecord, replay
from cursedbottle.server.limits import Limits
from cursedbottle.server.remote import RemoteSeat, random_policy
from cursedbottle.server.store import (
    SCHEMA_VERSION,
    Store,
    StoreError,
    decode_action,
    default_db_path,
    encode_action,
    rules_from_json,
    rules_to_json,
)
from cursedbottle.v1 import table_pb2
from test_server_support import (
    add_bots,
    create,
    fingerprint,
    play_out,
    refused,
    rules,
    run,
    seat_humans,
    serving,
    table_of,
)


def sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def stop_after_plays(count: int):
    seen = {"plays": 0}

    def stop(event) -> bool:
        if event.HasField("card_played"):
            seen["plays"] += 1
        return seen["plays"] >= count

    return stop


def test_a_restored_table_goes_on_with_its_tokens_and_its_bots(tmp_path):
    db = tmp_path / "tables.db"

    async def first_life():
        async with serving(store=Store(db)) as (running, stub):
            # No chosen seed: the server's random one must survive the restart.
            made = await stub.CreateTable(
                table_pb2.CreateTableRequest(name="evening", rules=rules(3, hands=2))
            )
            table_id, host = made.table.table_id, made.host_token
            (human,) = await seat_humans(stub, table_id, 1)
            await add_bots(stub, table_id, host, 2)
            playing = asyncio.create_task(human.play(from_sequence=0, stop=stop_after_plays(7)))
            await asyncio.sleep(0.05)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            await asyncio.wait_for(playing, 20)
            table = table_of(running, table_id)
            # The game now waits for the human (the bots act at once).
            for _ in range(200):
                if table.game.player_at(table.game.to_act()[0]) == 0:
                    break
                await asyncio.sleep(0.01)
            return table_id, human.token, len(table.game.actions), human.events[-1].sequence

    table_id, token, actions_before, last_seen = run(first_life())

    async def second_life():
        async with serving(store=Store(db)) as (running, stub):
            assert [t.table_id for t in running.restored] == [table_id]
            table = table_of(running, table_id)
            assert len(table.game.actions) == actions_before
            info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
            assert info.state == table_pb2.TABLE_STATE_PLAYING
            assert not info.chosen_seed
            kinds = [s.kind for s in info.seats]
            assert kinds == [table_pb2.SEAT_KIND_HUMAN] + [table_pb2.SEAT_KIND_BOT] * 2
            back = RemoteSeat(stub, table_id, token, 0, random_policy(5))
            await asyncio.wait_for(back.play(from_sequence=last_seen + 1), 30)
            assert back.closed == "the game is over"
            assert back.events[0].sequence == last_seen + 1, "no gap, nothing twice"
            game = table.game
            assert game.is_over
            records = [table.hand_record(n) for n in range(len(game.hands) + 2)]
            return game, next(e for e in back.events if e.HasField("game_ended")), records

    game, ended, records = run(second_life())
    assert records[0] is None and records[-1] is None
    with Store.reader(db) as store:
        (stored,) = store.tables()
        assert stored.state == "finished" and stored.totals == list(game.totals)
        actions = [a for a, _ in store.actions(table_id)]
        # The bots went on after the restart: actions of seats 1 and 2 after it.
        assert {a.seat for a in actions[actions_before:]} >= {1, 2}
        again = Game.replay(stored.rules, stored.seed, actions, stored.first_dealer)
        assert list(again.totals) == list(ended.game_ended.totals) == stored.totals
        hands = store.hands(table_id)
        assert [h.number for h in hands] == list(range(1, len(game.hands) + 1))
        assert [h.export() for h in hands] == records[1:-1]
        for h in hands:
            result = replay(HandRecord.from_json(h.export()))
            assert list(result.scores) == h.scores
            assert h.names[0] == "human 0" and h.names[1] == "random bot"


def test_tokens_are_kept_hashed_and_the_host_token_works_after_a_restart(tmp_path):
    db = tmp_path / "tables.db"

    async def first_life():
        async with serving(store=Store(db)) as (_, stub):
            table_id, host = await create(stub, rules(3, hands=1), password="secret")
            seats = await seat_humans(stub, table_id, 2, password="secret")
            return table_id, host, [s.token for s in seats]

    table_id, host, tokens = run(first_life())
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    for token in [host, *tokens]:
        assert token.encode() not in raw, "a token in clear in the database"
    assert b"secret" not in raw
    with sqlite3.connect(db) as conn:
        hashes = {r[0] for r in conn.execute("SELECT token_sha256 FROM seats")}
        assert {sha(t) for t in tokens} <= hashes
    assert stat.S_IMODE(db.stat().st_mode) == 0o600, "the seeds are for the host's eyes only"

    async def second_life():
        async with serving(store=Store(db)) as (running, stub):
            table = table_of(running, table_id)
            assert table.state.name == "WAITING"
            # The host token still controls the table, a wrong one does not.
            await refused(
                stub.AddBot(table_pb2.AddBotRequest(table_id=table_id, token="nope")),
                grpc.StatusCode.UNAUTHENTICATED,
                "UNKNOWN_TOKEN",
            )
            await add_bots(stub, table_id, host, 1)
            # The password still guards it.
            await refused(
                stub.Join(table_pb2.JoinRequest(table_id=table_id, password="wrong")),
                grpc.StatusCode.PERMISSION_DENIED,
                "WRONG_PASSWORD",
            )
            seats = [
                RemoteSeat(stub, table_id, t, i, random_policy(i)) for i, t in enumerate(tokens)
            ]
            tasks = [asyncio.create_task(s.play(from_sequence=0)) for s in seats]
            await asyncio.sleep(0.05)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=tokens[1]))
            await asyncio.wait_for(asyncio.gather(*tasks), 30)
            assert all(s.closed == "the game is over" for s in seats)
            assert all(s.actions > 0 for s in seats)

    run(second_life())


def test_a_storage_failure_refuses_the_move_and_changes_nothing(tmp_path, monkeypatch):
    async def main():
        store = Store(tmp_path / "tables.db")
        async with serving(store=store) as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1))
            seats = await seat_humans(stub, table_id, 3)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            table = table_of(running, table_id)
            game = table.game
            seat = game.player_at(game.to_act()[0])
            legal = game.legal_actions(game.seat_of(seat))[0]
            from cursedbottle.server import wire

            action = wire.action_msg(legal, wire.current_map(game))
            before = fingerprint(table)

            def broken(*args, **kwargs):
                raise StoreError("disk full")

            monkeypatch.setattr(store, "record_action", broken)
            request = table_pb2.ActRequest(
                table_id=table_id, token=seats[seat].token, action=action
            )
            await refused(stub.Act(request), grpc.StatusCode.UNAVAILABLE, "STORAGE")
            assert fingerprint(table) == before
            assert len(table.times) == len(table.game.events)
            monkeypatch.undo()
            reply = await stub.Act(request)
            assert reply.sequence == table.sequence
        with Store.reader(tmp_path / "tables.db") as reader:
            assert len(reader.actions(table_id)) == 1

    run(main())


def test_an_unknown_schema_version_or_a_foreign_file_is_refused_clearly(tmp_path):
    db = tmp_path / "tables.db"
    Store(db).close()
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    newer = rf"schema version {SCHEMA_VERSION + 1}, .* reads version {SCHEMA_VERSION} only .*newer"
    with pytest.raises(StoreError, match=newer):
        Store(db)
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}"):
        Store.reader(db)
    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE notes (x)")
    with pytest.raises(StoreError, match="not a cursed-bottle database"):
        Store(foreign)
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is no database at all" * 100)
    with pytest.raises(StoreError, match="not a cursed-bottle database"):
        Store(garbage)
    with pytest.raises(StoreError, match="no such database"):
        Store.reader(tmp_path / "missing.db")


def test_one_server_per_database_and_wal_mode(tmp_path):
    db = tmp_path / "tables.db"
    with Store(db) as store:
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        with pytest.raises(StoreError, match="another cursed-bottle server"):
            Store(db)
        # … but reading while it runs is fine (`cursed-bottle history`).
        with Store.reader(db) as reader:
            assert reader.tables() == []
    Store(db).close()  # the lock went with the first server


def test_the_default_database_lives_in_the_xdg_data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_db_path() == tmp_path / "xdg" / "cursed-bottle" / "cursed-bottle.db"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the XDG spec: absolute only
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_db_path() == tmp_path / "home" / ".local/share/cursed-bottle/cursed-bottle.db"


def test_actions_round_trip_through_their_stored_form():
    import random

    from cursedbottle.engine.rules import Edition, Rules

    for r in (
        Rules(3, hands=1),
        Rules(2, hands=1),
        Rules(2, bright_house=True, hands=1),
        Rules(2, hands=1, edition=Edition.BOTTLE_IMP),
        Rules(5, hands=1, edition=Edition.BOTTLE_IMP),
        Rules(6, hands=1, edition=Edition.BOTTLE_IMP, teams=True),
        Rules(6, hands=1, edition=Edition.BOTTLE_IMP, teams=True, singles=True),
        Rules(5, hands=1, edition=Edition.BOTTLE_IMP, second_bottle=True),
    ):
        game = Game(r, seed="codec")
        rng = random.Random(3)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        decoded = [decode_action(encode_action(a), r.deck) for a in game.actions]
        assert decoded == game.actions
        assert rules_from_json(rules_to_json(r)) == r


def test_a_table_that_cannot_be_rebuilt_is_skipped_and_the_others_come_back(tmp_path, caplog):
    db = tmp_path / "tables.db"

    async def first_life():
        async with serving(store=Store(db)) as (_, stub):
            ids = []
            for _ in range(2):
                table_id, host = await create(stub, rules(3, hands=1))
                await seat_humans(stub, table_id, 3)
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
                ids.append(table_id)
            return ids

    broken, fine = run(first_life())
    with sqlite3.connect(db) as conn:  # a card play in the pile phase: the engine refuses it
        bad = encode_action(Play(0, CURSED_BOTTLE.card("AD")))
        conn.execute("INSERT INTO actions VALUES (?, 0, ?, 0)", (broken, bad))

    async def second_life():
        async with serving(store=Store(db)) as (running, _):
            return [t.table_id for t in running.restored], set(running.lobby.tables)

    restored, tables = run(second_life())
    assert restored == [fine] and tables == {fine}
    # (every other kind of damage: tests/test_store_damage.py)
    assert f"table {broken} skipped: action 0: the engine refuses it: " in caplog.text


def test_a_game_that_ended_as_the_server_died_comes_back_for_its_players(tmp_path, caplog):
    """The last action is stored and the server dies before its players hear the end:
    finished tables are not resumed, yet a player coming back with a seat token gets
    the rest of the log and the final standings; nobody else can bring it back."""
    db = tmp_path / "tables.db"

    async def first_life():
        async with serving(store=Store(db)) as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1))
            seats = await seat_humans(stub, table_id, 3)

            async def start():
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))

            await play_out(seats, start)
            unstarted, _ = await create(stub, rules(3, hands=1))
            (lone,) = await seat_humans(stub, unstarted, 1)
            running.lobby.sweep(now=float("inf"))  # it goes, kept as finished, never started
            events = seats[0].events
            end = next(e.sequence for e in events if e.HasField("game_ended"))
            return table_id, [s.token for s in seats], events, end, (unstarted, lone.token)

    table_id, tokens, events, end, (unstarted, lone) = run(first_life())
    assert all(e.sequence == n for n, e in enumerate(events))

    async def second_life():
        async with serving(store=Store(db), limits=Limits(max_tables=1)) as (running, stub):
            assert running.restored == [] and running.lobby.tables == {}
            # An id alone (a spectator, a join) or a wrong token brings nothing back.
            watch = stub.Watch(table_pb2.WatchRequest(table_id=table_id))
            await refused(watch.read(), grpc.StatusCode.NOT_FOUND, "NO_SUCH_TABLE")
            await refused(
                stub.Join(table_pb2.JoinRequest(table_id=table_id, name="late")),
                grpc.StatusCode.NOT_FOUND, "NO_SUCH_TABLE",
            )
            for token in ("nope", lone):  # (the other table's seat token)
                await refused(
                    stub.Leave(table_pb2.LeaveRequest(table_id=table_id, token=token)),
                    grpc.StatusCode.NOT_FOUND, "NO_SUCH_TABLE",
                )
            assert running.lobby.tables == {}
            # A table that never started has no game to show.
            await refused(
                stub.Leave(table_pb2.LeaveRequest(table_id=unstarted, token=lone)),
                grpc.StatusCode.NOT_FOUND, "NO_SUCH_TABLE",
            )
            # Seat 1 comes back from a few events before the end, as a client would.
            back = RemoteSeat(stub, table_id, tokens[1], 1, random_policy(1))
            await asyncio.wait_for(back.play(from_sequence=end - 3), 10)
            assert back.closed == "the game is over" and back.actions == 0
            assert [e.sequence for e in back.events] == [end - 3, end - 2, end - 1, end]
            assert back.events[-1] == events[end]  # (seat 0's view, the same at the end)
            table = table_of(running, table_id)
            assert table.state.name == "FINISHED"
            info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
            assert info.state == table_pb2.TABLE_STATE_FINISHED
            # Read-only: nothing more to play, no hint; the state is unchanged.
            await refused(
                stub.Hint(table_pb2.HintRequest(table_id=table_id, token=tokens[0])),
                grpc.StatusCode.FAILED_PRECONDITION, "NOT_PLAYING",
            )
            before = fingerprint(table)  # (seat 0's token is known in clear from here)
            play = table_pb2.ActRequest(table_id=table_id, token=tokens[0])
            play.action.play.card.code = "AH"
            await refused(stub.Act(play), grpc.StatusCode.FAILED_PRECONDITION)
            assert fingerprint(table) == before
            # It counts among the tables: a new one takes its place once nobody follows
            # it, and its players can bring it back again once there is room.
            made, _ = await create(stub, rules(3, hands=1))
            assert list(running.lobby.tables) == [made]
            message = await refused(
                stub.Leave(table_pb2.LeaveRequest(table_id=table_id, token=tokens[2])),
                grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_TABLES",
            )
            assert "history" in message
            assert list(running.lobby.tables) == [made]

    caplog.set_level("INFO", logger="cursedbottle.server")
    run(second_life())
    assert f"table {table_id} brought back (finished)" in caplog.text
