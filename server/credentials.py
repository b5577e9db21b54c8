"""How tokens and passwords are kept and compared.

Seat and host tokens are random, so a sha256 is enough to keep and compare
them by (what the database holds: a leaked file opens no seat).  A table's
password is a person's word, so it is kept as a salted PBKDF2 hash, slow on
purpose; comparing one is for a thread (`PasswordGate`), never the event loop.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

PBKDF2_ROUNDS = 50_000


def new_token() -> str:
    """A fresh seat or host token."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """How tokens are compared and stored: random tokens need no salt or slow hash."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_is(token: str, hashed: str | None) -> bool:
    """Whether `token` is the one known by the sha256 `hashed` (constant time)."""
    return bool(token) and hashed is not None and hmac.compare_digest(token_hash(token), hashed)


def _pbkdf2(password: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, PBKDF2_ROUNDS)


@dataclass(frozen=True)
class PasswordHash:
    """A table's password as it is kept: its salt and its PBKDF2 hash."""

    salt: bytes
    digest: bytes

    @classmethod
    def of(cls, password: str) -> PasswordHash:
        salt = secrets.token_bytes(16)
        return cls(salt, _pbkdf2(password, salt))

    @classmethod
    def stored(cls, salt: bytes | None, digest: bytes | None) -> PasswordHash | None:
        """The password of a stored table (None: it has none)."""
        return None if digest is None else cls(salt or b"", digest)

    def matches(self, password: str) -> bool:
        """The slow comparison (PBKDF2): off the event loop."""
        return bool(password) and hmac.compare_digest(_pbkdf2(password, self.salt), self.digest)


def token_opens(
    token: str, password: PasswordHash | bytes | None, token_hashes: Iterable[str | None]
) -> bool:
    """Whether a request may read a table's finished hands (ListHands, ReviewHand)
    without its password: a table without one is open to all, one with a password
    opens for one of its tokens (host or seat, known by their sha256).  Cheap."""
    if password is None:
        return True
    if token:
        hashed = token_hash(token)
        if any(h is not None and hmac.compare_digest(hashed, h) for h in token_hashes):
            return True
    return False


def password_opens(password: str, kept: PasswordHash | None) -> bool:
    """Whether `password` opens a table whose password is `kept` (None: open to all)."""
    return kept is None or kept.matches(password)
