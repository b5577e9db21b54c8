"""Saved seats: the seat tokens this client was given, so that a seat can be resumed.

A seat token is a bearer secret (whoever holds it plays the seat), so the file
is private to the user (mode 0600, in a 0700 directory):
`$XDG_STATE_HOME/cursed-bottle/seats.json` (default `~/.local/state/…`), keyed
by server target and table id, then by the player's name (two people sharing an
account, `join --name Ann` and `join --name Bob`, keep their own seats).  A token
the server refuses is dropped.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path


def state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or ""
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "state"
    return root / "cursed-bottle"


@dataclass
class SavedSeat:
    table_id: str
    seat: int
    token: str
    host_token: str = ""
    name: str = ""
    password: str = ""


class SeatStore:
    """The JSON file of saved seats; every call reads and writes it whole (it is tiny)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_dir() / "seats.json"

    def _read(self) -> dict[str, dict[str, dict[str, dict]]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        seats = data.get("seats") if isinstance(data, dict) else None
        return seats if isinstance(seats, dict) else {}

    def _write(self, seats: dict[str, dict[str, dict[str, dict]]]) -> None:
        seats = {
            target: kept
            for target, tables in seats.items()
            if (kept := {t: names for t, names in tables.items() if names})
        }
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"version": 1, "seats": seats}, f, indent=1, sort_keys=True)
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)

    def get(self, target: str, table_id: str, name: str) -> SavedSeat | None:
        names = self._read().get(target, {}).get(table_id)
        entry = names.get(name) if isinstance(names, dict) else None
        if not isinstance(entry, dict) or not entry.get("token"):
            return None
        try:
            return SavedSeat(table_id, int(entry["seat"]), str(entry["token"]),
                             str(entry.get("host_token", "")), name,
                             str(entry.get("password", "")))
        except (KeyError, TypeError, ValueError):
            return None

    def tables(self, target: str, name: str) -> set[str]:
        """Ids of the tables at `target` where `name` has a saved seat."""
        return {
            t for t, names in self._read().get(target, {}).items()
            if isinstance(names, dict) and isinstance(names.get(name), dict)
        }

    def save(self, target: str, saved: SavedSeat) -> None:
        seats = self._read()
        names = seats.setdefault(target, {}).setdefault(saved.table_id, {})
        names[saved.name] = {
            "seat": saved.seat, "token": saved.token, "host_token": saved.host_token,
            "password": saved.password, "saved": int(time.time()),
        }
        self._write(seats)

    def drop(self, target: str, table_id: str, name: str) -> None:
        seats = self._read()
        names = seats.get(target, {}).get(table_id)
        if isinstance(names, dict) and name in names:
            del names[name]
            self._write(seats)
