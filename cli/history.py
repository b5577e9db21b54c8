"""`cursed-bottle history`: the games a server kept, and their hands as records.

Every hand played at a server with a database is material a player wants to
look back at, so the server stores each finished hand as a FORMATS.md hand
record.  This command lists games and hands and exports the records in the
one format the other commands read: `--hand N` writes a record that
`cursed-bottle replay` and `review` accept as it is; `--jsonl` writes every
hand, one record per line, for scripts.  It only reads the database (it may
run while the server does) and never shows a seed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from cursedbottle.cli.errors import fail
from cursedbottle.cli.files import write_out
from cursedbottle.solver.review import distinct


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "history",
        help="list the games and hands a server kept; export hand records",
        description=(
            "List the games kept in a server's database, or one game's hands, and export "
            "finished hands as hand records (FORMATS.md) for `cursed-bottle replay` and "
            "`cursed-bottle review`."
        ),
    )
    p.add_argument("game", nargs="?", metavar="GAME", help="a game's id (a unique prefix will do)")
    p.add_argument(
        "--db",
        metavar="PATH",
        default=None,
        help="the server's database (default: the one `cursed-bottle serve` uses)",
    )
    export = p.add_mutually_exclusive_group()
    export.add_argument(
        "--hand", type=int, metavar="N", help="export hand N of GAME as one JSON record"
    )
    export.add_argument(
        "--jsonl",
        action="store_true",
        help="export every finished hand (of GAME, or of all games), one record per line",
    )
    export.add_argument("--json", action="store_true", help="the listing as JSON, for scripts")
    p.add_argument(
        "-o", "--output", metavar="FILE", default=None, help="write to FILE instead of stdout"
    )
    return p


def run(args: argparse.Namespace) -> int:
    from cursedbottle.server.store import Store, StoreError, default_db_path

    path = args.db or default_db_path()
    if not os.path.exists(path):
        return fail(f"no database at {path} (`cursed-bottle serve` keeps one there)")
    if args.hand is not None and not args.game:
        return fail("--hand: which game? give its id first (`cursed-bottle history` lists them)")
    damaged = []  # tables (or hands) skipped: said on stderr, one line each
    try:
        with Store.reader(path, on_damage=damaged.append) as store:
            table_id = store.find_table(args.game) if args.game else None
            if args.hand is not None:
                text = _one_record(store, table_id, args.hand)
            elif args.jsonl:
                hands = store.hands(table_id)
                text = "".join(json.dumps(h.export(), ensure_ascii=False) + "\n" for h in hands)
            elif table_id is not None:
                text = _hands_listing(store, table_id, args.json)
            else:
                text = _games_listing(store, args.json)
    except StoreError as exc:
        return fail(str(exc))
    except _NoSuchHand as exc:
        return fail(str(exc))
    for damage in damaged:
        print(f"cursed-bottle: {damage}", file=sys.stderr)
    return _write(text, args.output)


class _NoSuchHand(Exception):
    pass


def _one_record(store, table_id: str, number: int) -> str:
    from cursedbottle.engine.records import HandRecord

    hands = {h.number: h for h in store.hands(table_id)}
    hand = hands.get(number)
    if hand is None:
        damage = store.damage_of(table_id, number)
        if damage is not None:
            raise _NoSuchHand(str(damage))
        have = ", ".join(map(str, sorted(hands))) or "none yet"
        raise _NoSuchHand(
            f"--hand {number}: game {table_id} has no finished hand {number} (finished: {have})"
        )
    # The same layout `HandRecord.save` writes, plus where the hand comes from.
    record = HandRecord.from_json(hand.record)
    fields = record.dumps(indent=2)[:-2]
    extra = {k: v for k, v in hand.export().items() if k not in hand.record}
    fields += "".join(f',\n  "{k}": {json.dumps(v, ensure_ascii=False)}' for k, v in extra.items())
    return fields + "\n}\n"


def _write(text: str, output: str | None) -> int:
    if output and output != "-":
        try:
            with open(output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            return fail(f"{output}: {exc.strerror or exc}")
        return 0
    write_out(text)
    return 0


# ------------------------------------------------------------------ listings


def _when(ns: int | None) -> str:
    from datetime import datetime

    if not ns:
        return "-"
    return datetime.fromtimestamp(ns / 1e9).strftime("%Y-%m-%d %H:%M")


def _rules_text(rules) -> str:
    parts = [f"{rules.players} players"]
    if rules.bright_house:
        parts.append("bright house")
    elif rules.lopaka:
        parts.append("Lopaka")
    if rules.hot_bottle:
        parts.append("hot bottle")
    if rules.hands:
        parts.append(f"{rules.hands} hand{'s' if rules.hands > 1 else ''}")
    else:
        parts.append(f"to {rules.target}")
    return ", ".join(parts)


def _game_json(table) -> dict[str, Any]:
    return {
        "game": table.table_id,
        "name": table.name,
        "rules": {
            "players": table.rules.players,
            "hot_bottle": table.rules.hot_bottle,
            "bright_house": table.rules.bright_house,
            "target": table.rules.target,
            "hands": table.rules.hands,
        },
        "state": table.state,
        "created_ns": table.created_ns,
        "finished_ns": table.finished_ns,
        "players": [s.name for s in table.seats],
        "hands_finished": table.hands_finished,
        "totals": table.totals,
        "winner": table.winner,
    }


def _outcome(table) -> str:
    if table.totals is None:
        return table.state
    names = distinct([s.name or f"seat {s.seat}" for s in table.seats])
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, table.totals, strict=True))
    winner = f"; {names[table.winner]} wins" if table.winner is not None else ""
    return totals + winner


def _games_listing(store, as_json: bool) -> str:
    tables = store.tables()
    if as_json:
        return json.dumps([_game_json(t) for t in tables], indent=2, ensure_ascii=False) + "\n"
    if not tables:
        return "no games yet\n"
    rows = [("GAME", "STARTED", "NAME", "RULES", "HANDS", "RESULT")]
    for t in tables:
        rows.append(
            (
                t.table_id,
                _when(t.started_ns or t.created_ns),
                t.name,
                _rules_text(t.rules),
                str(t.hands_finished),
                _outcome(t),
            )
        )
    return _columns(rows) + "`cursed-bottle history GAME` lists a game's hands.\n"


def _hands_listing(store, table_id: str, as_json: bool) -> str:
    from cursedbottle.engine.records import HandRecord, RecordError, replay

    (table,) = [t for t in store.tables() if t.table_id == table_id]
    hands = store.hands(table_id)
    out = []
    for h in hands:
        entry: dict[str, Any] = {
            "hand": h.number,
            "names": h.names,
            "seating": h.seating,
            "scores": h.scores,
        }
        try:
            record = HandRecord.from_json(h.record)
            result = replay(record)
            entry["dealer"] = record.dealer
            entry["owner"] = result.owner
            entry["price"] = result.to_json()["price"]
        except RecordError as exc:  # the engine changed its mind since: say so, go on
            entry["error"] = str(exc)
        out.append(entry)
    if as_json:
        return json.dumps({**_game_json(table), "hand_list": out}, indent=2) + "\n"
    head = f"game {table.table_id} {table.name!r}: {_rules_text(table.rules)}, {_outcome(table)}\n"
    if not out:
        return head + "no finished hands yet\n"
    rows = [("HAND", "DEALER", "BOTTLE", "SCORES")]
    for e in out:
        names = distinct(e["names"], e["seating"])
        if "error" in e:
            rows.append((str(e["hand"]), "-", "-", e["error"]))
            continue
        owner = e["owner"]
        bottle = "nobody" if owner is None else f"{names[owner]} ({e['price']})"
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, e["scores"], strict=True))
        rows.append((str(e["hand"]), names[e["dealer"]], bottle, scores))
    tail = f"`cursed-bottle history {table.table_id} --hand N` exports a hand's record.\n"
    return head + _columns(rows) + tail


def _columns(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for r in rows:
        cells = [c.ljust(w) for c, w in zip(r, widths, strict=False)] + [r[-1]]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"
