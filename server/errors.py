"""Refusals as values: a status code, the rule broken, and words a person can act on.

Everything below the servicer raises `ServiceError`; the servicer alone turns it
into a gRPC status (with an `ErrorInfo` in the trailing metadata), so the
mapping from a refusal to a status code lives in one place per kind of error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

import grpc
from cursedbottle.engine.errors import Rule

log = logging.getLogger("cursedbottle.server")

#: The rules of the engine that a well-formed request can still break.
ENGINE_RULES = {rule: grpc.StatusCode.FAILED_PRECONDITION for rule in Rule}


class ServiceError(Exception):
    """A refused request; nothing was changed.  `facts` are its data by name (table
    seats, card codes, …: `ErrorInfo.facts`), from which a client words it in its own
    language; `message` is the English."""

    def __init__(self, code: grpc.StatusCode, rule: str, message: str,
                 facts: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message
        self.facts = {k: str(v) for k, v in (facts or {}).items() if v is not None}


def _refusal(code: grpc.StatusCode, doc: str) -> Callable[..., ServiceError]:
    def refuse(rule: str, message: str, **facts: object) -> ServiceError:
        return ServiceError(code, rule, message, facts)

    refuse.__doc__ = doc
    return refuse


invalid = _refusal(grpc.StatusCode.INVALID_ARGUMENT, "A request that is not well formed.")
precondition = _refusal(grpc.StatusCode.FAILED_PRECONDITION, "Not now, or not by the rules.")
not_found = _refusal(grpc.StatusCode.NOT_FOUND, "No such table, hand …")
unauthenticated = _refusal(grpc.StatusCode.UNAUTHENTICATED, "A token the server does not know.")
denied = _refusal(grpc.StatusCode.PERMISSION_DENIED, "A token or password that does not open it.")
exhausted = _refusal(
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    'A limit reached (docs/protocol.md, "Limits"): the message names it.',
)


def storage_failed(exc: Exception) -> ServiceError:
    """What could not be written to the database did not happen (the log says why)."""
    log.error("database: %s", exc)
    return ServiceError(
        grpc.StatusCode.UNAVAILABLE,
        "STORAGE",
        "the server could not save this to its database, so nothing changed (see its log)",
    )


def shorten(text: object, limit: int = 24) -> str:
    """A bad value quoted back to its sender, never the whole of a huge one."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
