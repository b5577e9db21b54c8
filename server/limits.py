"""Every bound a client meets on this server, in one place (docs/protocol.md, "Limits").

One person must not be able to spoil the evening for the others: each resource
a client can ask for has a ceiling here, and a refusal names the limit it hit.
A server can be given other values (`cursed-bottle serve --limit NAME=VALUE`),
e.g. for a load test with hundreds of spectators from one machine.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    #: Tables held at once; finished ones nobody follows are forgotten to make room.
    max_tables: int = 500
    #: Unfinished tables created by one client (its address).
    max_tables_per_client: int = 20
    #: An unstarted table with nobody at it (no open stream) goes away after this.
    idle_table_seconds: float = 600.0
    #: Open Subscribe/Watch streams: in all, per client address, per connection.
    max_streams: int = 4000
    max_streams_per_client: int = 200
    max_streams_per_connection: int = 32
    #: Password checks of one client being computed at once (the rest are refused).
    password_checks_per_client: int = 2
    #: Wrong passwords one client may send within the window before it must wait.
    wrong_passwords: int = 10
    wrong_password_window_seconds: float = 60.0

    def with_text(self, text: str) -> Limits:
        """`NAME=VALUE` (as `serve --limit` takes it) applied to these limits."""
        name, sep, value = text.partition("=")
        fields = {f.name: f for f in dataclasses.fields(self)}
        name = name.strip().replace("-", "_")
        if not sep or name not in fields:
            known = ", ".join(fields)
            raise ValueError(f"--limit {text!r}: NAME=VALUE with NAME one of {known}")
        kind = int if fields[name].type in ("int", int) else float
        try:
            number = kind(value)
        except ValueError:
            raise ValueError(f"--limit {text!r}: {value!r} is not a number") from None
        if not number > 0:
            raise ValueError(f"--limit {text!r}: the limit must be positive")
        return dataclasses.replace(self, **{name: number})
