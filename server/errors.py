"""Refusals as values: a status code, the rule broken, and words a person can act on.

Everything below the servicer raises `ServiceError`; the servicer alone turns it
into a gRPC status (with an `ErrorInfo` in the trailing metadata), so the
mapping from a refusal to a status code lives in one place per kind of error.
"""

from __future__ import annotations

import grpc
from cursedbottle.engine.errors import Rule

#: The rules of the engine that a well-formed request can still break.
ENGINE_RULES = {rule: grpc.StatusCode.FAILED_PRECONDITION for rule in Rule}


class ServiceError(Exception):
    """A refused request; nothing was changed."""

    def __init__(self, code: grpc.StatusCode, rule: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message


def invalid(rule: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, rule, message)


def precondition(rule: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, rule, message)


def not_found(rule: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.NOT_FOUND, rule, message)


def unauthenticated(rule: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAUTHENTICATED, rule, message)


def denied(rule: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.PERMISSION_DENIED, rule, message)


def exhausted(rule: str, message: str) -> ServiceError:
    """A limit reached (docs/protocol.md, "Limits"): the message names it."""
    return ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, rule, message)


def shorten(text: object, limit: int = 24) -> str:
    """A bad value quoted back to its sender, never the whole of a huge one."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
