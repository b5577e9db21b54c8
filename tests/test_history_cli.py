"""`cursed-bottle history`: lists what a server kept and exports records that
`cursed-bottle replay` (and `review`) accept."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys

import pytest
from cursedbottle.cli.main import main
from cursedbottle.engine.records import HandRecord, replay
from cursedbottle.server.store import SCHEMA_VERSION, Store
from cursedbottle.v1 import game_pb2, table_pb2
from test_server_support import add_bots, run, serving

SEED = "s3cr3t-seed"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """A database with finished games of three kinds and one table still waiting."""
    path = tmp_path_factory.mktemp("history") / "tables.db"

    async def fill():
        async with serving(store=Store(path)) as (running, stub):
            games = (
                ("evening", game_pb2.Rules(players=3, hands=2)),
                ("duel", game_pb2.Rules(players=2, hands=2)),
                ("bright", game_pb2.Rules(players=2, hands=1, bright_house=True)),
            )
            for name, rules in games:
                made = await stub.CreateTable(
                    table_pb2.CreateTableRequest(name=name, rules=rules, seed=SEED)
                )
                await add_bots(stub, made.table.table_id, made.host_token, rules.players)
                await stub.Start(
                    table_pb2.StartRequest(table_id=made.table.table_id, token=made.host_token)
                )
            await stub.CreateTable(
                table_pb2.CreateTableRequest(name="later", rules=game_pb2.Rules(players=4))
            )
            for _ in range(1000):
                started = [t.game for t in running.lobby.tables.values() if t.game]
                if all(g.is_over for g in started):
                    break
                await asyncio.sleep(0.01)

    run(fill())
    return path


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def games(capsys, db) -> dict[str, dict]:
    code, out, _ = cli(capsys, "history", "--db", str(db), "--json")
    assert code == 0
    return {g["name"]: g for g in json.loads(out)}


def test_the_listing_shows_every_game_and_never_the_seed(capsys, db):
    code, out, err = cli(capsys, "history", "--db", str(db))
    assert code == 0 and not err
    by_name = games(capsys, db)
    assert set(by_name) == {"evening", "duel", "bright", "later"}
    for g in by_name.values():
        assert g["game"] in out
    assert by_name["later"]["state"] == "waiting" and by_name["later"]["hands_finished"] == 0
    assert by_name["evening"]["state"] == "finished"
    assert by_name["evening"]["hands_finished"] >= 2
    assert "3 players, 2 hands" in out and "2 players, Lopaka" in out and "bright house" in out
    game = by_name["evening"]["game"]
    code, hands_out, _ = cli(capsys, "history", "--db", str(db), game[:4])
    assert code == 0 and "HAND" in hands_out and "random bot (seat 0)" in hands_out
    for text in (out, hands_out):
        assert SEED not in text


def test_one_hand_exported_is_a_record_replay_accepts(capsys, db, tmp_path):
    with Store.reader(db) as store:
        hands = store.hands()
    assert {len(h.record["deal"]) for h in hands} == {3, 4}  # 3 seats / 4 bright-house hands
    by_name = games(capsys, db)
    for name in ("evening", "duel", "bright"):
        game = by_name[name]["game"]
        for number in (1, by_name[name]["hands_finished"]):
            target = tmp_path / f"{name}-{number}.json"
            code, _, err = cli(
                capsys, "history", "--db", str(db), game, "--hand", str(number), "-o", str(target)
            )
            assert code == 0, err
            code, out, err = cli(capsys, "replay", str(target))
            assert code == 0, err
            (stored,) = [h for h in hands if h.table_id == game and h.number == number]
            assert json.loads(out)["scores"] == stored.scores
            saved = json.loads(target.read_text())
            assert HandRecord.from_json(saved) == HandRecord.from_json(stored.record)
            assert saved["table"] == game and saved["hand"] == number
            assert SEED not in target.read_text()


def test_jsonl_exports_every_finished_hand(capsys, db, tmp_path):
    code, out, _ = cli(capsys, "history", "--db", str(db), "--jsonl")
    assert code == 0
    lines = out.splitlines()
    with Store.reader(db) as store:
        hands = store.hands()
        finished = sum(t.hands_finished for t in store.tables())
    assert len(lines) == len(hands) == finished
    for i, line in enumerate(lines):
        record = json.loads(line)
        assert (record["table"], record["hand"]) == (hands[i].table_id, hands[i].number)
        path = tmp_path / f"{i}.json"
        path.write_text(line)
        code, replayed, err = cli(capsys, "replay", str(path))
        assert code == 0, err
        assert json.loads(replayed)["scores"] == hands[i].scores
    game = games(capsys, db)["duel"]["game"]
    code, out, _ = cli(capsys, "history", "--db", str(db), game, "--jsonl")
    assert code == 0 and {json.loads(x)["table"] for x in out.splitlines()} == {game}


def test_the_commands_chain_as_processes(db):
    """history | replay and history | review, as a user types them."""
    listing = subprocess.run(
        [sys.executable, "-m", "cursedbottle.cli.main", "history", "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    game = next(g for g in json.loads(listing.stdout) if g["name"] == "duel")["game"]
    record = subprocess.run(
        [
            sys.executable,
            "-m",
            "cursedbottle.cli.main",
            "history",
            "--db",
            str(db),
            game,
            "--hand",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    ).stdout
    for command in (["replay", "-"], ["review", "-", "--from-trick", "10"]):
        done = subprocess.run(
            [sys.executable, "-m", "cursedbottle.cli.main", *command],
            input=record,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
    assert "Lopaka" in done.stdout and "random bot (seat 1)" in done.stdout
    assert replay(HandRecord.loads(record)).scores


def test_history_reads_the_default_database(capsys, db, monkeypatch, tmp_path):
    data = tmp_path / "xdg"
    (data / "cursed-bottle").mkdir(parents=True)
    (data / "cursed-bottle" / "cursed-bottle.db").write_bytes(db.read_bytes())
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    code, out, _ = cli(capsys, "history")
    assert code == 0 and "evening" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--db", "{tmp}/missing.db"], "no database at"),
        (["--db", "{db}", "zzzz"], "no game 'zzzz'"),
        (["--db", "{db}", "--hand", "1"], "--hand: which game?"),
        (["--db", "{db}", "{later}", "--hand", "1"], "has no finished hand 1"),
        (["--db", "{newer}"], f"schema version {SCHEMA_VERSION + 1}"),
    ],
)
def test_bad_requests_fail_with_one_line(capsys, db, tmp_path, args, message):
    later = games(capsys, db)["later"]["game"]
    newer = tmp_path / "newer.db"
    newer.write_bytes(db.read_bytes())
    with sqlite3.connect(newer) as conn:
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    args = [a.format(tmp=tmp_path, db=db, later=later, newer=newer) for a in args]
    code, out, err = cli(capsys, "history", *args)
    assert code == 2 and not out
    assert err.count("\n") == 1 and message in err, err
