"""Load on the game server: many bot-only tables, each watched by several streams.

    python bench/server_load.py [--tables 50] [--subscribers 2] [--hands 3]

The server runs in a process of its own (as `cursed-bottle serve` would); this
process creates the tables (random bots in every seat, a fixed number of
hands), opens the spectator streams, starts every table at once and reads
every stream to its end.  It reports:

- events/s: game events logged by the server, and messages delivered to
  subscribers, per second of wall time from the first start to the last
  stream's end;
- delivery latency, p50/p99/max: receive time minus the event's
  `server_time_ns` (same machine, same clock), over every delivered event;
- peak memory (max RSS) of the server process;
- completeness: every subscriber received every event of its table exactly
  once and in order (sequence numbers 0…next_sequence-1).

Loopback only; the run is bounded by the number of hands and a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import resource
import statistics
import sys
import time


def _server_main(conn, bot_workers: int | None, bot_delay: float, profile: str | None) -> None:
    """The server process: serve until told to stop, then report its peak memory."""
    import logging

    from cursedbottle.server import start_server
    from cursedbottle.server.limits import Limits

    logging.basicConfig(level=logging.WARNING)
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()

    async def main() -> None:
        # One load client holds every table and stream: lift the per-client limits
        # (docs/protocol.md, "Limits"), which would refuse most of them.
        limits = Limits(
            max_tables_per_client=100_000,
            max_streams_per_client=100_000,
            max_streams_per_connection=100_000,
        )
        running = await start_server(
            "127.0.0.1", 0, bot_workers=bot_workers, bot_delay=bot_delay, limits=limits
        )
        conn.send(running.port)
        await asyncio.get_running_loop().run_in_executor(None, conn.recv)
        tables = len(running.lobby.tables)
        await running.stop(grace=1)
        peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        conn.send({"peak_rss_mib": peak_kib / 1024, "tables": tables})

    asyncio.run(main())
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)


def percentile(sorted_values: list[int], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[k]


async def load(port: int, args: argparse.Namespace) -> dict:
    import grpc
    from cursedbottle.server import CLIENT_OPTIONS
    from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc

    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=CLIENT_OPTIONS)
    stub = table_pb2_grpc.CursedBottleStub(channel)
    tables = []
    for i in range(args.tables):
        created = await stub.CreateTable(
            table_pb2.CreateTableRequest(
                name=f"load {i}",
                rules=game_pb2.Rules(players=args.players, hands=args.hands),
                seed=f"load-{i}",
            )
        )
        table_id, host = created.table.table_id, created.host_token
        for _ in range(args.players):
            await stub.AddBot(table_pb2.AddBotRequest(table_id=table_id, token=host))
        tables.append((table_id, host))

    async def subscriber(table_id: str) -> list[tuple[int, int, int]]:
        """(sequence, server time, receive time) of every event received."""
        got = []
        request = table_pb2.WatchRequest(table_id=table_id)
        async for update in stub.Watch(request):
            now = time.time_ns()
            kind = update.WhichOneof("kind")
            if kind == "batch":
                got.extend((e.sequence, e.server_time_ns, now) for e in update.batch.events)
            elif kind == "closed":
                break
        return got

    streams = [
        (table_id, asyncio.create_task(subscriber(table_id)))
        for table_id, _ in tables
        for _ in range(args.subscribers)
    ]
    await asyncio.sleep(0.5)  # every stream is open and waiting before the first deal
    started = time.perf_counter()
    for table_id, host in tables:
        await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
    results = await asyncio.wait_for(asyncio.gather(*(t for _, t in streams)), args.timeout)
    wall = time.perf_counter() - started

    logged = {}
    hands = 0
    for table_id, _ in tables:
        info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
        assert info.state == table_pb2.TABLE_STATE_FINISHED, f"table {table_id} did not finish"
        logged[table_id] = info.next_sequence
        hands += info.hands_played
    await channel.close()

    complete = 0
    latencies = []
    for (table_id, _), got in zip(streams, results, strict=True):
        if [seq for seq, _, _ in got] == list(range(logged[table_id])):
            complete += 1
        latencies.extend(recv - sent for _, sent, recv in got)
    latencies.sort()
    delivered = sum(len(got) for got in results)
    events = sum(logged.values())
    return {
        "tables": args.tables,
        "subscribers_per_table": args.subscribers,
        "hands_per_table": args.hands,
        "hands_played": hands,
        "wall_s": wall,
        "events_logged": events,
        "events_delivered": delivered,
        "events_logged_per_s": events / wall,
        "events_delivered_per_s": delivered / wall,
        "latency_ms_p50": percentile(latencies, 0.50) / 1e6,
        "latency_ms_p99": percentile(latencies, 0.99) / 1e6,
        "latency_ms_max": latencies[-1] / 1e6 if latencies else float("nan"),
        "latency_ms_mean": statistics.fmean(latencies) / 1e6 if latencies else float("nan"),
        "subscribers_complete_in_order": complete,
        "subscribers": len(streams),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--subscribers", type=int, default=2, help="spectator streams per table")
    parser.add_argument("--hands", type=int, default=3, help="hands per game (ties play on)")
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument(
        "--bot-workers", type=int, default=None, help="server's bot threads (default: its own)"
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.0,
        help="seconds each bot waits before acting (0: flat out, the server saturated)",
    )
    parser.add_argument("--profile", metavar="FILE", help="cProfile the server into FILE")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    ctx = multiprocessing.get_context("spawn")  # gRPC and fork do not mix
    parent, child = ctx.Pipe()
    server = ctx.Process(
        target=_server_main,
        args=(child, args.bot_workers, args.bot_delay, args.profile),
        daemon=True,
    )
    server.start()
    try:
        port = parent.recv()
        report = asyncio.run(load(port, args))
        parent.send("stop")
        report.update(parent.recv())
    finally:
        server.join(timeout=10)
        if server.is_alive():
            server.kill()
    report["client_peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    ok = report["subscribers_complete_in_order"] == report["subscribers"]
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(
            f"{report['tables']} bot tables × {report['subscribers_per_table']} subscribers, "
            f"{report['hands_played']} hands in {report['wall_s']:.2f} s\n"
            f"events logged     {report['events_logged']:>8}  "
            f"({report['events_logged_per_s']:,.0f}/s)\n"
            f"events delivered  {report['events_delivered']:>8}  "
            f"({report['events_delivered_per_s']:,.0f}/s)\n"
            f"delivery latency  p50 {report['latency_ms_p50']:.1f} ms, "
            f"p99 {report['latency_ms_p99']:.1f} ms, max {report['latency_ms_max']:.1f} ms\n"
            f"server peak RSS   {report['peak_rss_mib']:.0f} MiB "
            f"(client {report['client_peak_rss_mib']:.0f} MiB)\n"
            f"complete, in order: {report['subscribers_complete_in_order']}"
            f"/{report['subscribers']} subscribers"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
