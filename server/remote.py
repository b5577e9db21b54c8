"""A reference client of the wire contract: plays one seat, or watches a table.

It knows nothing of the engine: it reads `TurnUpdate`s and the snapshot's
legal actions and answers with one of them, which makes it the smallest
complete client.  Tests, the load benchmark and scripts use it; run it in a
process of its own with `python -m cursedbottle.server.remote`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import grpc
from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc

from .app import CLIENT_OPTIONS

Choose = Callable[[Sequence[game_pb2.Action]], game_pb2.Action]


def random_policy(seed: int = 0) -> Choose:
    rng = random.Random(seed)
    return lambda legal: legal[rng.randrange(len(legal))]


@dataclass
class RemoteSeat:
    """One seat played over gRPC by a policy; every message received is kept."""

    stub: table_pb2_grpc.CursedBottleStub
    table_id: str
    token: str
    seat: int
    choose: Choose = field(default_factory=random_policy)
    updates: list[table_pb2.TableUpdate] = field(default_factory=list)
    #: The game events received, in order (up to a `stop`).
    events: list[game_pb2.GameEvent] = field(default_factory=list)
    actions: int = 0
    #: Log length after our last action: turn updates older than this are stale.
    acted_at: int = -1
    closed: str | None = None
    refusals: list[grpc.aio.AioRpcError] = field(default_factory=list)

    async def play(
        self,
        from_sequence: int | None = None,
        stop: Callable[[game_pb2.GameEvent], bool] | None = None,
    ) -> None:
        """Follow the seat's stream and act whenever it is this seat's turn, until the
        server closes the stream or `stop(event)` says so (after that event)."""
        request = table_pb2.SubscribeRequest(table_id=self.table_id, token=self.token)
        if from_sequence is not None:
            request.from_sequence = from_sequence
        call = self.stub.Subscribe(request)
        try:
            async for update in call:
                self.updates.append(update)
                kind = update.WhichOneof("kind")
                if kind == "snapshot" and update.snapshot.HasField("view"):
                    view = update.snapshot.view
                    await self._consider(view.to_act, view.legal_actions, update.snapshot.sequence)
                elif kind == "batch":
                    for event in update.batch.events:
                        self.events.append(event)
                        if stop is not None and stop(event):
                            return
                    if update.batch.HasField("turn"):
                        turn = update.batch.turn
                        await self._consider(turn.to_act, turn.legal_actions, turn.sequence)
                elif kind == "closed":
                    self.closed = update.closed.reason
                    return
        finally:
            call.cancel()

    async def _consider(self, to_act, legal, sequence: int) -> None:
        if sequence < self.acted_at or self.seat not in to_act or not legal:
            return
        action = self.choose(list(legal))
        try:
            reply = await self.stub.Act(
                table_pb2.ActRequest(
                    table_id=self.table_id, token=self.token, action=action, turn_sequence=sequence
                )
            )
        except grpc.aio.AioRpcError as exc:
            # E.g. the seat was left meanwhile: the stream says what comes next.
            self.refusals.append(exc)
            return
        self.acted_at = reply.sequence
        self.actions += 1


async def watch(
    stub: table_pb2_grpc.CursedBottleStub,
    table_id: str,
    password: str = "",
    from_sequence: int = 0,
) -> list[table_pb2.TableUpdate]:
    """Every message of a spectator's stream until the server closes it."""
    out = []
    request = table_pb2.WatchRequest(
        table_id=table_id, password=password, from_sequence=from_sequence
    )
    async for update in stub.Watch(request):
        out.append(update)
        if update.WhichOneof("kind") == "closed":
            break
    return out


async def _main(args: argparse.Namespace) -> dict:
    async with grpc.aio.insecure_channel(args.target, options=CLIENT_OPTIONS) as channel:
        stub = table_pb2_grpc.CursedBottleStub(channel)
        seat = RemoteSeat(stub, args.table, args.token, args.seat, random_policy(args.seed))
        hands_ended = 0

        def stop(event: game_pb2.GameEvent) -> bool:
            nonlocal hands_ended
            if event.HasField("hand_ended"):
                hands_ended += 1
            return args.hands is not None and hands_ended >= args.hands

        await seat.play(stop=stop)
        return {
            "seat": args.seat,
            "actions": seat.actions,
            "events": len(seat.events),
            "hands_ended": hands_ended,
            "closed": seat.closed,
            "refusals": [exc.details() for exc in seat.refusals],
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="play one seat of a table with random moves")
    parser.add_argument("--target", required=True, help="host:port of the server")
    parser.add_argument("--table", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--seat", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(_main(args))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
