"""Issue 13, violation 4: one damaged table in the database costs that table only.

Every case starts from the same database: two unfinished tables, each with a
human and bots, mid-game.  One of them (DAMAGED, which has finished a hand
already) is damaged by direct SQL in one way; the server then starts, the
other table (SOUND) is live and is played to its end over gRPC on 127.0.0.1,
the damaged one is not live, the log has exactly one line naming it and the
damage, and ListHands, ReviewHand and `cursed-bottle history` go on reading
the rest.  Damage to the file itself still stops the server with one line.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from cursedbottle.cli.main import main
from cursedbottle.engine.actions import PileCard, Play
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Rules
from cursedbottle.server import CLIENT_OPTIONS
from cursedbottle.server.remote import RemoteSeat, random_policy
from cursedbottle.server.runner import BotRunner
from cursedbottle.server.store import SCHEMA_VERSION, Store, encode_action, rules_to_json
from cursedbottle.server.tables import Table
from cursedbottle.v1 import table_pb2, table_pb2_grpc
from test_server_support import run, serving

DAMAGED, SOUND = "dead0001", "50d00002"
SOUND_TOKEN = "the sound table's seat 0"
DAMAGED_TOKEN = "the damaged table's seat 0"
#: Actions of the damaged table: all of hand 1 and a few of hand 2.
EXTRA_ACTIONS = 5


def sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Template:
    path: Path
    #: How many actions the damaged table has, and where its card plays are.
    actions: int
    plays: list[int]


def _fill(store: Store, runner: BotRunner, table_id: str, rules: Rules, token: str, until) -> Game:
    """A table as the server writes it (create, seats, start, each action)."""
    table = Table(table_id, f"table {table_id}", rules, runner, seed=table_id, first_dealer=0)
    store.create_table(table.row())
    seats = [("human", "Ann", sha(token), ""), ("bot", "random bot", None, "random")]
    seats.append(("bot", "random bot", None, "random"))
    for number, (kind, name, hashed, bot) in enumerate(seats):
        table.seats[number].name = name
        store.save_seat(table_id, number, kind, name, hashed, bot)
    store.started(table_id, time.time_ns())
    table.game = game = Game(rules, table_id, 0)
    rng = random.Random(table_id)
    while not until(game):
        hands_before = len(game.hands)
        game.apply(rng.choice(game.legal_actions()))
        store.record_action(table.accepted(hands_before, time.time_ns()))
    return game


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Template:
    path = tmp_path_factory.mktemp("damage") / "template.db"
    runner = BotRunner(workers=1)
    marks: list[int] = []

    def into_hand_two(game: Game) -> bool:
        if len(game.hands) == 2 and not marks:
            marks.append(len(game.actions))
        return bool(marks) and len(game.actions) >= marks[0] + EXTRA_ACTIONS

    with Store(path) as store:
        damaged = _fill(store, runner, DAMAGED, Rules(3, hands=2), DAMAGED_TOKEN, into_hand_two)
        _fill(store, runner, SOUND, Rules(3, hands=1), SOUND_TOKEN, lambda g: len(g.actions) >= 4)
    runner.shutdown()
    plays = [n for n, a in enumerate(damaged.actions) if isinstance(a, Play)]
    assert isinstance(damaged.actions[0], PileCard) and plays
    return Template(path, len(damaged.actions), plays)


# ------------------------------------------------------------------ damage


@dataclass(frozen=True)
class Damage:
    name: str
    sql: Callable[[Template], list[tuple[str, tuple]]]
    #: What the log line must say after "table DAMAGED skipped: " (a regex).
    says: Callable[[Template], str]
    #: Whether the table's own rows are readable (its finished hand is still listed).
    readable: bool = True


def _action(n: int, text: str) -> list[tuple[str, tuple]]:
    return [("UPDATE actions SET action = ? WHERE table_id = ? AND n = ?", (text, DAMAGED, n))]


def _table(column: str, value: object) -> list[tuple[str, tuple]]:
    return [(f"UPDATE tables SET {column} = ? WHERE table_id = ?", (value, DAMAGED))]


def _seat(seat: int, column: str, value: object) -> list[tuple[str, tuple]]:
    sql = f"UPDATE seats SET {column} = ? WHERE table_id = ? AND seat = ?"
    return [(sql, (value, DAMAGED, seat))]


def _hand(column: str, value: object) -> list[tuple[str, tuple]]:
    return [(f"UPDATE hands SET {column} = ? WHERE table_id = ? AND number = 1", (value, DAMAGED))]


def _card_zz(t: Template) -> list[tuple[str, tuple]]:
    return _action(t.plays[-1], '["play",0,"ZZ"]')


def _stored_record(t: Template) -> dict:
    with sqlite3.connect(t.path) as conn:
        sql = "SELECT record FROM hands WHERE table_id = ? AND number = 1"
        return json.loads(conn.execute(sql, (DAMAGED,)).fetchone()[0])


def _plays_reversed(t: Template) -> list[tuple[str, tuple]]:
    """A record that decodes, but is not the hand the actions played (nor a legal one)."""
    record = _stored_record(t)
    return _hand("record", json.dumps({**record, "plays": record["plays"][::-1]}))


RULES = json.loads(rules_to_json(Rules(3, hands=2)))
NO_CHECKS = [("PRAGMA ignore_check_constraints = ON", ())]

DAMAGES = [
    Damage(
        "card code",
        _card_zz,
        lambda t: rf"action {t.plays[-1]}: 'ZZ' is not a card of the cursed-bottle deck$",
    ),
    Damage(
        "action not JSON",
        lambda t: _action(3, '["pile",0,'),
        lambda t: r"action 3: not JSON \(",
    ),
    Damage(
        "action of no kind",
        lambda t: _action(3, '["jump",0]'),
        lambda t: r"action 3: 'jump' is not an action",
    ),
    Damage(
        "action of the wrong shape",
        lambda t: _action(3, '["pile","x"]'),
        lambda t: r"action 3: \['pile', 'x'\] is not a pile action",
    ),
    Damage(
        "action number missing",
        lambda t: [("DELETE FROM actions WHERE table_id = ? AND n = 3", (DAMAGED,))],
        lambda t: r"action 3 is missing",
    ),
    Damage(
        "action number not a number",
        lambda t: [("UPDATE actions SET n = 'x' WHERE table_id = ? AND n = 3", (DAMAGED,))],
        lambda t: r"action number 'x' is not a whole number",
    ),
    Damage(
        "action time of the wrong type",
        lambda t: [
            ("UPDATE actions SET time_ns = 'soon' WHERE table_id = ? AND n = 2", (DAMAGED,))
        ],
        lambda t: r"action 2: time_ns: 'soon' is not a whole number",
    ),
    Damage(
        "action the engine refuses",
        lambda t: _action(0, encode_action(Play(0, Rules(3).deck.card("AD")))),
        lambda t: r"action 0: the engine refuses it: .+",
    ),
    Damage(
        "rules not JSON",
        lambda t: _table("rules", '{"players": 3,'),
        lambda t: r"rules: not JSON \(",
        readable=False,
    ),
    Damage(
        "rules unplayable",
        lambda t: _table("rules", json.dumps({**RULES, "players": 9})),
        lambda t: r"rules: players: 9 is not 2, 3 or 4",
        readable=False,
    ),
    Damage(
        "rules of an unknown game",
        lambda t: _table("rules", json.dumps({**RULES, "game": "poker"})),
        lambda t: r"rules: game: 'poker' is not one of",
        readable=False,
    ),
    Damage(
        "seat of an unknown kind",
        lambda t: NO_CHECKS + _seat(1, "kind", "robot"),
        lambda t: r"seat 1: kind 'robot' is not empty, human or bot",
        readable=False,
    ),
    Damage(
        "seat out of range",
        lambda t: _seat(2, "seat", 7),
        lambda t: r"seat 7: no such seat \(3 players\)",
        readable=False,
    ),
    Damage(
        "seat missing",
        lambda t: [("DELETE FROM seats WHERE table_id = ? AND seat = 2", (DAMAGED,))],
        lambda t: r"seat 2 is missing",
        readable=False,
    ),
    Damage(
        "seat token of the wrong type",
        lambda t: _seat(0, "token_sha256", b"\x01"),
        lambda t: r"seat 0: token_sha256: a blob, not text",
        readable=False,
    ),
    Damage(
        "bot the server does not know",
        lambda t: _seat(1, "bot", "nosuchbot"),
        lambda t: r"seat 1: unknown bot 'nosuchbot'",
    ),
    Damage(
        "bot over the server's limits",
        lambda t: _seat(2, "bot", "strong:inf"),
        lambda t: r"seat 2: bot: 'strong:inf' thinks too long per decision",
    ),
    Damage(
        "stand-in bot the server does not know",
        lambda t: _table("stand_in_bot", "nosuchbot"),
        lambda t: r"stand_in_bot: unknown bot 'nosuchbot'",
    ),
    Damage(
        "stand-in time of the wrong type",
        lambda t: _table("stand_in_after", "soon"),
        lambda t: r"stand_in_after: 'soon' is not a number of seconds",
        readable=False,
    ),
    Damage(
        "first dealer out of range",
        lambda t: _table("first_dealer", 7),
        lambda t: r"first_dealer: 7 is not a seat \(0…2\)",
        readable=False,
    ),
    Damage(
        "name of the wrong type",
        lambda t: _table("name", b"\x00\xff"),
        lambda t: r"name: a blob, not text",
        readable=False,
    ),
    Damage(
        "seed of the wrong type",
        lambda t: _table("seed", b"\x00"),
        lambda t: r"seed: a blob, not text",
        readable=False,
    ),
    Damage(
        "password hash without its salt",
        lambda t: _table("password_hash", b"\x01\x02"),
        lambda t: r"password_hash: set without password_salt",
        readable=False,
    ),
    Damage(
        "created time NULL-like text",
        lambda t: _table("created_ns", "yesterday"),
        lambda t: r"created_ns: 'yesterday' is not a whole number",
        readable=False,
    ),
    Damage(
        "state unknown",
        lambda t: NO_CHECKS + _table("state", "paused"),
        lambda t: r"state: 'paused' is not waiting, playing or finished",
        readable=False,
    ),
    Damage(
        "waiting with actions",
        lambda t: _table("state", "waiting"),
        lambda t: rf"waiting to start, yet {t.actions} actions are stored",
    ),
    Damage(
        "finished hand not JSON",
        lambda t: _hand("record", "{"),
        lambda t: r"hand 1: record: not JSON \(",
    ),
    Damage(
        "finished hand not a record",
        lambda t: _hand("record", '{"rules": 5}'),
        lambda t: r"hand 1: record: dealer: missing",
    ),
    Damage(
        "finished hand's scores",
        lambda t: _hand("scores", '"x"'),
        lambda t: r"hand 1: scores: 'x' is not a list of whole numbers",
    ),
    Damage(
        "finished hand not the one played",
        _plays_reversed,
        lambda t: r"hand 1: record: plays differs from what the actions played",
    ),
    Damage(
        "finished hand's scores not the ones played",
        lambda t: _hand("scores", "[0, 0, 0]"),
        lambda t: r"hand 1: scores: \[0, 0, 0\], the actions score \[",
    ),
    Damage(
        "finished hand missing",
        lambda t: [("DELETE FROM hands WHERE table_id = ?", (DAMAGED,))],
        lambda t: r"hand 1 is missing \(the actions finish 1 hand\)",
    ),
]


def damage(template: Template, tmp_path: Path, case: Damage) -> Path:
    db = tmp_path / "tables.db"
    shutil.copy(template.path, db)
    with sqlite3.connect(db) as conn:
        for sql, params in case.sql(template):
            conn.execute(sql, params)
    return db


def lines_naming(text: str, table_id: str) -> list[str]:
    """The log lines about a table, but for the refusals of our own calls naming it."""
    return [line for line in text.splitlines() if table_id in line and "refused " not in line]


async def play_sound_table(stub) -> RemoteSeat:
    """SOUND is live: its human comes back with the token and plays it to the end."""
    seat = RemoteSeat(stub, SOUND, SOUND_TOKEN, 0, random_policy(1))
    await asyncio.wait_for(seat.play(from_sequence=0), 30)
    return seat


@pytest.mark.parametrize("case", DAMAGES, ids=[d.name for d in DAMAGES])
def test_a_damaged_table_is_skipped_and_the_others_are_served(template, tmp_path, case, caplog):
    db = damage(template, tmp_path, case)
    caplog.set_level(logging.INFO, logger="cursedbottle.server")

    async def serve():
        async with serving(store=Store(db)) as (running, stub):
            assert [t.table_id for t in running.restored] == [SOUND]
            live = await stub.ListTables(table_pb2.ListTablesRequest())
            assert [t.table_id for t in live.tables] == [SOUND]
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await stub.GetTable(table_pb2.GetTableRequest(table_id=DAMAGED))
            assert info.value.code() == grpc.StatusCode.NOT_FOUND
            seat = await play_sound_table(stub)
            assert seat.closed == "the game is over" and seat.actions > 0
            # Its finished hands: still listed when the table's own rows are readable
            # (the damage is in its actions), never a failed call.
            hands = await stub.ListHands(table_pb2.ListHandsRequest())
            listed = {(h.table_id, h.hand) for h in hands.hands}
            assert (SOUND, 1) in listed
            kept = case.readable and not case.name.startswith("finished hand")
            assert ((DAMAGED, 1) in listed) == kept
            last = Rules(3).tricks  # (the last trick only: quick to solve)
            review = stub.ReviewHand(
                table_pb2.ReviewHandRequest(table_id=DAMAGED, hand=1, from_trick=last)
            )
            if kept:
                assert (await review).hand.hand == 1
            else:
                with pytest.raises(grpc.aio.AioRpcError) as info:
                    await review
                assert info.value.code() == grpc.StatusCode.NOT_FOUND, info.value.details()

    run(serve())
    (line,) = lines_naming(caplog.text, DAMAGED)
    assert re.search(rf"table {DAMAGED} skipped: {case.says(template)}", line), line
    assert line.count("\n") == 0 and "Traceback" not in caplog.text


@pytest.mark.parametrize(
    "case",
    [d for d in DAMAGES if d.name in ("card code", "rules unplayable", "finished hand not JSON")],
    ids=lambda d: d.name,
)
def test_history_lists_the_rest_and_names_the_damaged_table_once(template, tmp_path, case, capsys):
    db = damage(template, tmp_path, case)
    code = main(["history", "--db", str(db)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert SOUND in out and (DAMAGED in out) == case.readable
    assert len(lines_naming(err, DAMAGED)) == (0 if case.readable else 1), err
    code = main(["history", "--db", str(db), "--jsonl"])
    out, err = capsys.readouterr()
    hands = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(err.splitlines()) <= 1, err
    assert ({h["table"] for h in hands} == {DAMAGED}) == (case.name == "card code")
    code = main(["history", "--db", str(db), DAMAGED, "--hand", "1"])
    out, err = capsys.readouterr()
    if case.name == "card code":  # the damage is in the actions: the hand is whole
        assert code == 0 and json.loads(out)["hand"] == 1
    else:
        assert code == 2 and out == ""
        (line,) = err.splitlines()
        assert re.search(rf"table {DAMAGED}(: hand 1)? skipped: ", line), line


# ------------------------------------------------------- real server process


def start(db: Path, log: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "cursedbottle.cli.main", "serve", "--host", "127.0.0.1"]
    command += ["--port", "0", "--db", str(db), "--bot-delay", "0"]
    return subprocess.Popen(command, stderr=log.open("w"))


def test_a_real_server_skips_the_damaged_table_and_serves_the_other(template, tmp_path):
    db = damage(template, tmp_path, DAMAGES[0])
    log = tmp_path / "server.log"
    server = start(db, log)
    try:
        deadline = time.monotonic() + 30
        while not (found := re.search(r"listening on 127\.0\.0\.1:(\d+)", log.read_text())):
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        port = int(found.group(1))

        async def play():
            target = f"127.0.0.1:{port}"
            async with grpc.aio.insecure_channel(target, options=CLIENT_OPTIONS) as channel:
                stub = table_pb2_grpc.CursedBottleStub(channel)
                live = await stub.ListTables(table_pb2.ListTablesRequest())
                assert [t.table_id for t in live.tables] == [SOUND]
                return await play_sound_table(stub)

        assert run(play()).closed == "the game is over"
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)
    text = log.read_text()
    assert server.returncode == 0, text
    (line,) = lines_naming(text, DAMAGED)
    card = template.plays[-1]
    says = f"table {DAMAGED} skipped: action {card}: 'ZZ' is not a card of the cursed-bottle deck"
    assert line.endswith(says), line
    assert "1 unfinished table(s) resumed" in text and "Traceback" not in text


def _garbage(db: Path) -> None:
    db.write_bytes(b"this is no database at all" * 100)


def _newer(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")


@pytest.mark.parametrize(
    ("spoil", "says"),
    [
        (_garbage, "not a cursed-bottle database"),
        (_newer, f"database schema version {SCHEMA_VERSION + 1}"),
    ],
    ids=["garbage", "newer schema"],
)
def test_a_damaged_file_still_stops_the_server_with_one_line(template, tmp_path, spoil, says):
    db = tmp_path / "tables.db"
    shutil.copy(template.path, db)
    spoil(db)
    log = tmp_path / "server.log"
    server = start(db, log)
    try:
        assert server.wait(30) == 2
    finally:
        if server.poll() is None:
            server.kill()
    (line,) = log.read_text().splitlines()
    assert line.startswith("cursed-bottle: database: ") and says in line, line


def test_a_finished_tables_hand_that_does_not_replay_costs_that_hand_only(template, tmp_path):
    """A finished table is not replayed at a restart, so its stored record is met first
    by ListHands and ReviewHand: that hand is left out, the list still comes back."""
    finished = Damage("finished, plays reversed", lambda t: [
        *_table("state", "finished"), *_plays_reversed(t)
    ], lambda t: "")
    db = damage(template, tmp_path, finished)

    async def serve():
        async with serving(store=Store(db)) as (_running, stub):
            await play_sound_table(stub)
            hands = await stub.ListHands(table_pb2.ListHandsRequest())
            listed = {(h.table_id, h.hand) for h in hands.hands}
            assert (SOUND, 1) in listed and (DAMAGED, 1) not in listed
            request = table_pb2.ReviewHandRequest(table_id=DAMAGED, hand=1, from_trick=11)
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await stub.ReviewHand(request)
            assert info.value.code() == grpc.StatusCode.NOT_FOUND, info.value.details()
            assert "damaged" in info.value.details()

    run(serve())
