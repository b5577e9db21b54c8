"""Seeds for bots made from a table's or a run's seed: the same in every process."""

from __future__ import annotations

import hashlib
from typing import Literal


def stable_seed(
    *parts: object, width: int = 8, byteorder: Literal["little", "big"] = "little"
) -> int:
    """A seed from parts, the same in every process (unlike `hash`): the first
    `width` bytes of the sha256 of the parts joined by ":", read in `byteorder`.

    Simulations and the text table take the default; the server's tables have
    always seeded their bots with `width=4, byteorder="big"`, and keep doing so
    that a stored table's bots play on as they did.
    """
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:width], byteorder)
