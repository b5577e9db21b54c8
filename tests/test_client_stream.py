"""Following a stream across drops, without a server: what `resume` says, and from which
sequence it follows again."""

from __future__ import annotations

import asyncio

import grpc
from cursedbottle.client import stream
from cursedbottle.client.net import Seat
from cursedbottle.client.stream import Back, Lost, Refused, resume
from cursedbottle.v1 import table_pb2


def error(code: grpc.StatusCode) -> grpc.aio.AioRpcError:
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details="gone")


def update(sequence: int) -> table_pb2.TableUpdate:
    return table_pb2.TableUpdate(snapshot=table_pb2.Snapshot(sequence=sequence))


def closed(reason: str) -> table_pb2.TableUpdate:
    return table_pb2.TableUpdate(closed=table_pb2.StreamClosed(reason=reason))


class Session:
    """Plays one scripted stream per call: updates, then maybe an error."""

    def __init__(self, *scripts) -> None:
        self.scripts = list(scripts)
        self.asked: list[int] = []

    def follow(self, _seat, from_sequence: int):
        self.asked.append(from_sequence)
        script = self.scripts.pop(0)

        async def stream():
            for item in script:
                if isinstance(item, Exception):
                    raise item
                yield item

        return stream()


def follow(session: Session, next_seq=lambda: 0) -> list:
    async def main():
        return [item async for item in resume(session, Seat("t", 0, "tok"), next_seq)]

    return asyncio.run(main())


def test_a_drop_is_lost_then_back_and_follows_from_the_next_sequence(monkeypatch):
    slept = []

    async def sleep(delay):
        slept.append(delay)

    monkeypatch.setattr(stream.asyncio, "sleep", sleep)
    seqs = iter([0, 5, 5, 9])
    session = Session([update(1), error(grpc.StatusCode.UNAVAILABLE)],
                      [error(grpc.StatusCode.UNAVAILABLE)],
                      [closed("server shutting down")],
                      [update(9), closed("the table was closed")])
    got = follow(session, lambda: next(seqs))
    assert got == [update(1), Lost(), Lost(), Back(), closed("server shutting down"), Lost(),
                   Back(), update(9), closed("the table was closed")]
    assert session.asked == [0, 5, 5, 9]
    assert slept == [0.5, 1.0, 0.5]  # doubling while down, from the start once back


def test_a_final_refusal_ends_the_stream():
    got = follow(Session([update(1), error(grpc.StatusCode.NOT_FOUND)]))
    assert got == [update(1), Refused("gone")]
