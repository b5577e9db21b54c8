"""Floods from one client against a bystander: does one client starve everyone else?

    python bench/server_floods.py --scenario SCENARIO [--seconds 10] [--json]

The server runs in a process of its own (`cursed-bottle serve`, as people run
it), the flooding client in another and the bystander in this one, so that
neither client's own event loop skews the other's figures.  The bystander sits
alone at a table of random bots and plays as fast as it can (its `Act`
latency, p50/p99, and how many acts it made), and at a second table asks for
200 ms hints one after the other (their latency, and how many did not come
within 5 s).  While it plays, the flooding client:

- `none`: does nothing (the baseline);
- `hints`: one seat at a table of its own sends 200 hints of a 10 s budget at
  once, and each again when it ends (a refused one after a second);
- `reviews`: plays a game of 20 hands with random bots first, then sends 40
  ReviewHand requests for its hands at once, each given up after 1 s; the
  server's RSS (from /proc/PID/status) before, at its peak and at the end,
  and the CPU seconds the server spends in 10 s once the callers and the
  bystander have gone (work for nobody);
- `bots`: 8 tables of `strong:10` bots; and how long a table of random bots
  takes for one hand meanwhile;
- `passwords`: 600 Joins with wrong passwords at once, again every second;
- `spectators`: 600 watchers come to one table one after the other (the
  server's stream limits raised for it): the messages they receive in all;
- `tables`: 500 CreateTable calls, one after the other;
- `streams`: 1,500 Watch streams opened and held, over 50 connections;
- `acts`: a seat sends each act twice at once (with its `turn_sequence`) at a
  table of bots at zero delay: how many second copies are accepted.

Every scenario ends with SIGTERM and reports how long the server took to exit.
A scenario is a coroutine in `SCENARIOS` (name → coroutine taking a `Client`,
the server's pid and `go`, which it awaits once its setup is done and which
returns the wall-clock time the flood ends): add one there.  Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import grpc
from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc

GRACE = 1.0
HINT_BUDGET_MS = 200
HINT_TIMEOUT = 5.0
#: A flooding request that was refused is sent again after this long.
REFUSED_RETRY = 1.0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Client:
    """A client of the server: a stub and the few steps every scenario takes."""

    stub: table_pb2_grpc.CursedBottleStub
    #: host:port of the server (for scenarios that open channels of their own).
    target: str = ""

    async def table(self, name: str, bots: int, bot: str = "random", humans: int = 0, **rules):
        """A table with `humans` seats joined (their tokens) and `bots` bots; not started."""
        created = await self.stub.CreateTable(
            table_pb2.CreateTableRequest(
                name=name, rules=game_pb2.Rules(players=humans + bots, **rules), seed=name
            )
        )
        table_id, host = created.table.table_id, created.host_token
        tokens = []
        for i in range(humans):
            joined = await self.stub.Join(
                table_pb2.JoinRequest(table_id=table_id, name=f"{name} {i}")
            )
            tokens.append(joined.token)
        for _ in range(bots):
            await self.stub.AddBot(table_pb2.AddBotRequest(table_id=table_id, token=host, bot=bot))
        return table_id, host, tokens

    async def start(self, table_id: str, host: str) -> None:
        await self.stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))

    async def finish(self, table_id: str) -> None:
        """Until the table's game is over (its spectator stream closes)."""
        async for update in self.stub.Watch(table_pb2.WatchRequest(table_id=table_id)):
            if update.WhichOneof("kind") == "closed":
                return


@dataclass
class Bystander:
    """Someone else on the server, who only plays and asks for hints."""

    client: Client
    act_ms: list[float] = field(default_factory=list)
    hint_ms: list[float] = field(default_factory=list)
    hint_timeouts: int = 0

    async def run(self, until: float) -> dict:
        """Until `until` (time.time()): play seat 0 of a table of random bots as fast
        as possible, timing every Act, and beside it ask 200 ms hints for a seat of
        another table (which never acts, so it is always its turn), one by one."""
        await asyncio.gather(self._play(until), self._hints(until))
        return {
            "bystander_acts": len(self.act_ms),
            "act_ms_p50": percentile(self.act_ms, 0.50),
            "act_ms_p99": percentile(self.act_ms, 0.99),
            "hints": len(self.hint_ms),
            "hint_ms_p50": percentile(self.hint_ms, 0.50),
            "hint_ms_max": max(self.hint_ms, default=float("nan")),
            "hint_timeouts": self.hint_timeouts,
        }

    async def _play(self, until: float) -> None:
        stub = self.client.stub
        table_id, host, (token,) = await self.client.table(
            "bystander", bots=2, humans=1, hands=1000
        )
        await self.client.start(table_id, host)
        rng = random.Random(0)
        call = stub.Subscribe(table_pb2.SubscribeRequest(table_id=table_id, token=token))
        try:
            async for update in call:
                if time.time() >= until:
                    return
                kind = update.WhichOneof("kind")
                if kind == "snapshot" and update.snapshot.HasField("view"):
                    turn = update.snapshot.view
                elif kind == "batch" and update.batch.HasField("turn"):
                    turn = update.batch.turn
                else:
                    continue
                if 0 not in turn.to_act or not turn.legal_actions:
                    continue
                action = rng.choice(list(turn.legal_actions))
                t0 = time.perf_counter()
                with contextlib.suppress(grpc.aio.AioRpcError):  # (a stale turn)
                    request = table_pb2.ActRequest(table_id=table_id, token=token, action=action)
                    await stub.Act(request)
                    self.act_ms.append((time.perf_counter() - t0) * 1000)
        finally:
            call.cancel()

    async def _hints(self, until: float) -> None:
        table_id, host, (token,) = await self.client.table("bystander hints", bots=2, humans=1)
        await self.client.start(table_id, host)
        request = table_pb2.HintRequest(table_id=table_id, token=token, budget_ms=HINT_BUDGET_MS)
        while time.time() < until:
            t0 = time.perf_counter()
            try:
                await self.client.stub.Hint(request, timeout=HINT_TIMEOUT)
            except grpc.aio.AioRpcError as exc:
                if exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                    self.hint_timeouts += 1
                continue
            self.hint_ms.append((time.perf_counter() - t0) * 1000)


Go = Callable[[], Awaitable[float]]


# ------------------------------------------------------------------ scenarios


async def no_flood(client: Client, pid: int, go: Go) -> dict:
    until = await go()
    await asyncio.sleep(max(0.0, until - time.time()))
    return {}


async def flood_hints(client: Client, pid: int, go: Go) -> dict:
    table_id, host, (token,) = await client.table("hint flood", bots=2, humans=1)
    await client.start(table_id, host)
    request = table_pb2.HintRequest(table_id=table_id, token=token, budget_ms=10_000)
    counts = {"flood_hints_answered": 0, "flood_hints_refused": 0}

    async def one(until: float) -> None:
        while time.time() < until:
            try:
                await client.stub.Hint(request, timeout=max(0.1, until - time.time()))
                counts["flood_hints_answered"] += 1
            except grpc.aio.AioRpcError as exc:
                if exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                    return
                counts["flood_hints_refused"] += 1
                await asyncio.sleep(REFUSED_RETRY)

    until = await go()
    await asyncio.gather(*(one(until) for _ in range(200)))
    return counts


async def flood_reviews(client: Client, pid: int, go: Go) -> dict:
    table_id, host, _ = await client.table("reviewed", bots=3, hands=20)
    await client.start(table_id, host)
    await client.finish(table_id)
    info = (await client.stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
    await asyncio.sleep(1.0)
    out = {"rss_mib_before": rss_mib(pid), "reviews_refused": 0, "reviews_abandoned": 0}
    peak = out["rss_mib_before"]

    async def review(number: int) -> None:
        request = table_pb2.ReviewHandRequest(table_id=table_id, hand=number, from_trick=1)
        try:
            await client.stub.ReviewHand(request, timeout=1.0)
        except grpc.aio.AioRpcError as exc:
            gave_up = exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            out["reviews_abandoned" if gave_up else "reviews_refused"] += 1

    until = await go()
    calls = asyncio.gather(*(review(1 + i % info.hands_played) for i in range(40)))
    while not calls.done():
        peak = max(peak, rss_mib(pid))
        await asyncio.sleep(0.1)
    await calls
    # Every caller has gone; once the bystander has stopped too, the server
    # should be idle: the CPU it spends in the next 10 s is work for nobody.
    while time.time() < until + 0.5:
        peak = max(peak, rss_mib(pid))
        await asyncio.sleep(0.1)
    cpu0 = cpu_seconds(pid)
    for _ in range(100):
        peak = max(peak, rss_mib(pid))
        await asyncio.sleep(0.1)
    out["cpu_s_in_10_s_after_callers_left"] = cpu_seconds(pid) - cpu0
    out["rss_mib_peak"] = peak
    out["rss_mib_after"] = rss_mib(pid)
    return out


async def flood_bots(client: Client, pid: int, go: Go) -> dict:
    for i in range(8):
        table_id, host, _ = await client.table(f"strong {i}", bots=3, bot="strong:10", hands=100)
        await client.start(table_id, host)
    await asyncio.sleep(1.0)
    until = await go()
    table_id, host, _ = await client.table("cheap", bots=3, hands=1)
    t0 = time.perf_counter()
    await client.start(table_id, host)
    try:
        await asyncio.wait_for(client.finish(table_id), max(0.1, until - time.time()))
        return {"cheap_hand_s": time.perf_counter() - t0}
    except TimeoutError:
        return {"cheap_hand_s": "unfinished at the end of the flood"}


async def flood_passwords(client: Client, pid: int, go: Go) -> dict:
    created = await client.stub.CreateTable(
        table_pb2.CreateTableRequest(
            name="locked", rules=game_pb2.Rules(players=3), password="open sesame"
        )
    )
    table_id = created.table.table_id
    codes: dict[str, int] = {}

    async def guess(i: int) -> None:
        request = table_pb2.JoinRequest(table_id=table_id, name=f"guess {i}", password=f"{i}")
        try:
            await client.stub.Join(request)
            codes["OK"] = codes.get("OK", 0) + 1
        except grpc.aio.AioRpcError as exc:
            codes[exc.code().name] = codes.get(exc.code().name, 0) + 1

    until = await go()
    while time.time() < until:  # 600 wrong passwords at once, again every second
        await asyncio.gather(*(guess(i) for i in range(600)))
        await asyncio.sleep(1.0)
    return {f"guesses_{k}": v for k, v in sorted(codes.items())}


async def flood_spectators(client: Client, pid: int, go: Go) -> dict:
    """600 watchers come to one table one after the other: the messages they receive
    in all (linear: about one snapshot each; quadratic: a TableInfo per newcomer)."""
    created = await client.stub.CreateTable(
        table_pb2.CreateTableRequest(name="watched", rules=game_pb2.Rules(players=3))
    )
    table_id = created.table.table_id
    received = [0]
    calls = []

    async def follow(call) -> None:
        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.CancelledError):
            async for _ in call:
                received[0] += 1

    until = await go()
    tasks = []
    for _ in range(600):
        call = client.stub.Watch(table_pb2.WatchRequest(table_id=table_id))
        calls.append(call)
        tasks.append(asyncio.create_task(follow(call)))
        await asyncio.sleep(0.005)
    await asyncio.sleep(max(1.0, until - time.time()))
    for call in calls:
        call.cancel()
    await asyncio.gather(*tasks)
    return {"spectators": 600, "spectator_messages": received[0]}


async def flood_tables(client: Client, pid: int, go: Go) -> dict:
    """500 anonymous CreateTable calls: how many the server keeps for one client."""
    until = await go()
    made = refused = 0
    for i in range(500):
        try:
            await client.stub.CreateTable(
                table_pb2.CreateTableRequest(name=f"spam {i}", rules=game_pb2.Rules(players=3))
            )
            made += 1
        except grpc.aio.AioRpcError:
            refused += 1
    await asyncio.sleep(max(0.0, until - time.time()))
    return {"tables_made": made, "tables_refused": refused}


async def flood_streams(client: Client, pid: int, go: Go) -> dict:
    """1,500 Watch streams held from one client, over 50 connections."""
    created = await client.stub.CreateTable(
        table_pb2.CreateTableRequest(name="streamed", rules=game_pb2.Rules(players=3))
    )
    table_id = created.table.table_id
    until = await go()
    channels = [
        grpc.aio.insecure_channel(client.target, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(50)
    ]
    calls, held, refused = [], 0, 0
    for i in range(1500):
        call = table_pb2_grpc.CursedBottleStub(channels[i % 50]).Watch(
            table_pb2.WatchRequest(table_id=table_id)
        )
        try:
            async for _ in call:
                break
            held += 1
            calls.append(call)
        except grpc.aio.AioRpcError:
            refused += 1
    await asyncio.sleep(max(0.0, until - time.time()))
    for call in calls:
        call.cancel()
    for channel in channels:
        await channel.close()
    return {"streams_held": held, "streams_refused": refused}


def _rule(exc: grpc.aio.AioRpcError) -> str:
    """The rule a refusal names (its `ErrorInfo` in the trailing metadata)."""
    trailing = dict(exc.trailing_metadata() or ())
    data = trailing.get("cb-error-bin")
    return table_pb2.ErrorInfo.FromString(data).rule if data else ""


async def flood_double_acts(client: Client, pid: int, go: Go) -> dict:
    """A person who sends every act twice at once, with the turn it answers, at a
    table of bots at zero delay: how many second copies land (none may)."""
    table_id, host, (token,) = await client.table("twice", bots=2, humans=1, hands=1000)
    await client.start(table_id, host)
    until = await go()
    counts = {"acts_sent_twice": 0, "both_accepted": 0, "second_refused_stale": 0}
    call = client.stub.Subscribe(table_pb2.SubscribeRequest(table_id=table_id, token=token))
    try:
        async for update in call:
            if time.time() >= until:
                break
            if update.WhichOneof("kind") != "batch" or not update.batch.turn.legal_actions:
                continue
            turn = update.batch.turn
            request = table_pb2.ActRequest(
                table_id=table_id, token=token, action=turn.legal_actions[0],
                turn_sequence=turn.sequence,
            )
            results = await asyncio.gather(
                client.stub.Act(request), client.stub.Act(request), return_exceptions=True
            )
            ok = [r for r in results if not isinstance(r, BaseException)]
            if not ok:
                continue  # (a stale turn of the stream: both refused)
            counts["acts_sent_twice"] += 1
            counts["both_accepted"] += len(ok) == 2
            counts["second_refused_stale"] += any(
                isinstance(r, grpc.aio.AioRpcError) and _rule(r) == "STALE_TURN" for r in results
            )
    finally:
        call.cancel()
    return counts


SCENARIOS: dict[str, Callable[[Client, int, Go], Awaitable[dict]]] = {
    "none": no_flood,
    "hints": flood_hints,
    "reviews": flood_reviews,
    "bots": flood_bots,
    "passwords": flood_passwords,
    "spectators": flood_spectators,
    "tables": flood_tables,
    "streams": flood_streams,
    "acts": flood_double_acts,
}
#: Limits a scenario's server is given (`serve --limit`): the fan-out is measured,
#: not the stream limits that would refuse most of its 600 watchers from one address.
SERVER_LIMITS: dict[str, list[str]] = {
    "spectators": ["max_streams_per_client=1000", "max_streams_per_connection=1000"],
}


# ----------------------------------------------------------------------- main


def _flood_main(conn, scenario: str, port: int, pid: int) -> None:
    """The flooding client's process: set up, say so, flood until told when to stop."""

    async def main() -> dict:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            loop = asyncio.get_running_loop()

            async def go() -> float:
                conn.send("go")
                return await loop.run_in_executor(None, conn.recv)

            client = Client(table_pb2_grpc.CursedBottleStub(channel), f"127.0.0.1:{port}")
            return await SCENARIOS[scenario](client, pid, go)

    conn.send(asyncio.run(main()))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _run(scenario: str, seconds: float) -> dict:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "cursedbottle.cli.main", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--bot-delay", "0", "--grace", str(GRACE), "--quiet", "--no-db",
         *(arg for limit in SERVER_LIMITS.get(scenario, []) for arg in ("--limit", limit))],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    ctx = multiprocessing.get_context("spawn")  # gRPC and fork do not mix
    parent, child = ctx.Pipe()
    flooder = None
    loop = asyncio.get_running_loop()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            await asyncio.wait_for(channel.channel_ready(), 30)
            flooder = ctx.Process(target=_flood_main, args=(child, scenario, port, server.pid))
            flooder.start()
            assert await loop.run_in_executor(None, parent.recv) == "go"
            until = time.time() + seconds
            parent.send(until)
            bystander = Bystander(Client(table_pb2_grpc.CursedBottleStub(channel)))
            report = {"scenario": scenario, "seconds": seconds}
            report.update(await bystander.run(until))
            report.update(await loop.run_in_executor(None, parent.recv))
        t0 = time.perf_counter()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
            report["sigterm_to_exit_s"] = time.perf_counter() - t0
        except subprocess.TimeoutExpired:
            report["sigterm_to_exit_s"] = "> 60"
        report["grace_s"] = GRACE
        return report
    finally:
        if flooder is not None:
            flooder.join(timeout=5)
            if flooder.is_alive():
                flooder.kill()
        if server.poll() is None:
            server.kill()
            server.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), required=True)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of the flood")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    report = asyncio.run(_run(args.scenario, args.seconds))
    if args.json:
        print(json.dumps(report))
    else:
        width = max(map(len, report))
        for key, value in report.items():
            shown = f"{value:.1f}" if isinstance(value, float) else value
            print(f"{key:<{width}}  {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
