"""Bot-only tables for analysis: many hands or games, in parallel, reproducibly.

A unit of work is one deal (hands mode) or one game (games mode), identified
by its number; everything random in it is seeded from (seed, number,
rotation, player), so results do not depend on the process, the machine or
the number of workers that ran it.  In duplicate mode each deal is replayed
once per rotation of the bots through the seats (or in every seating), so
the luck of the cards cancels out.

A job is a table and a unit number.  A runner takes jobs and yields each
job's hands as it finishes, in any order: `run_local` on this machine's
processes here, `bots.ray_runner.run_on_ray` on a Ray cluster.  `in_order`
puts them back in job order, so output never depends on who finished first.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace

from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Rules

from .base import play_hand_with_bots
from .registry import make_bot
from .seeds import stable_seed

#: The key of the simulation's facts in a hand record written by a simulation
#: (hand records allow extra top-level fields; `replay` ignores it).
SIM_KEY = "simulation"


@dataclass(frozen=True, slots=True)
class TableSpec:
    """What to simulate: the bots by player, the rules, how much, how."""

    bots: tuple[str, ...]
    rules: Rules
    units: int
    games: bool = False
    duplicate: bool = False
    seed: int | str = 0
    records: bool = False
    #: Each deal in every order of the bots round the table, not only every
    #: rotation (three players: six seatings, each bot passing to each other).
    every_seating: bool = False

    @property
    def table(self) -> str:
        """A name for everything but the number of units: a run with more units
        extends this one (unit n is the same whatever the count)."""
        facts = [
            list(self.bots),
            self.rules.to_json(whole=True),
            self.games,
            self.duplicate,
            str(self.seed),
        ]
        if self.every_seating:
            facts.append("every seating")
        text = json.dumps(facts, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand, as the statistics need it (players, not seats)."""

    unit: int
    rotation: int
    hand: int
    #: The bot name of each player.
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    #: The player who ended with the bottle (with the second bottle: the one on
    #: sale last); None if nobody or Lopaka.
    owner: int | None
    #: The final price as a place in the order (the joker's place if unbought).
    price: float
    #: Games mode, on the last hand of a game: the winning player.
    winner: int | None = None
    #: The line of the records file: the hand record and, under SIM_KEY, the
    #: facts above with the table and the unit's number of hands.
    record: str | None = None

    @classmethod
    def from_line(cls, line: str) -> tuple[str, int, HandResult]:
        """(table, hands in the unit, result) of a records line; KeyError,
        TypeError or ValueError if the line is not one."""
        sim = json.loads(line)[SIM_KEY]
        result = cls(
            int(sim["unit"]),
            int(sim["rotation"]),
            int(sim["hand"]),
            tuple(str(b) for b in sim["bots"]),
            tuple(int(s) for s in sim["scores"]),
            None if sim["owner"] is None else int(sim["owner"]),
            float(sim["price"]),
            None if sim["winner"] is None else int(sim["winner"]),
            line,
        )
        return str(sim["table"]), int(sim["of"]), result


#: One piece of work: a table and the number of a unit of it.
Job = tuple[TableSpec, int]
#: What a runner yields: the index of a finished job and its hands.
Finished = tuple[int, list[HandResult]]
#: A runner: the jobs to run, then what finished, as it finishes.
Runner = Callable[[Sequence[Job]], Iterable[Finished]]


def seatings(spec: TableSpec) -> list[tuple[int, ...]]:
    """The orders a deal is played in: for each, the index in `spec.bots` of
    each player's bot."""
    n = len(spec.bots)
    if spec.every_seating:
        return list(itertools.permutations(range(n)))
    if spec.duplicate:
        return [tuple((p + rot) % n for p in range(n)) for rot in range(n)]
    return [tuple(range(n))]


def run_unit(spec: TableSpec, unit: int) -> list[HandResult]:
    """Play one deal (every rotation of it) or one game; pure given the spec."""
    players = spec.rules.players
    out: list[HandResult] = []
    records: list[dict] = []
    for rot, order in enumerate(seatings(spec)):
        names = tuple(spec.bots[i] for i in order)
        bots = {
            p: make_bot(name, stable_seed(spec.seed, unit, rot, p)) for p, name in enumerate(names)
        }
        rules = spec.rules if spec.games else replace(spec.rules, hands=1)
        game = Game(rules, seed=f"{spec.seed}:{unit}", first_dealer=unit % players)
        while True:
            play_hand_with_bots(game, bots)
            number = len(game.hands) - (not game.is_over)
            out.append(_hand_result(spec, game, number, unit, rot, names))
            if spec.records:
                from cursedbottle.engine.records import record_of

                records.append(record_of(game.hands[number - 1]).to_json())
            if game.is_over or not spec.games:
                break
    if spec.records:
        out = [_with_line(spec, r, obj, len(out)) for r, obj in zip(out, records, strict=True)]
    return out


def _hand_result(
    spec: TableSpec, game: Game, number: int, unit: int, rot: int, names: tuple[str, ...]
) -> HandResult:
    hand = game.hands[number - 1]
    seating = game.seatings[number - 1]
    scores = [0] * spec.rules.players
    for seat, player in enumerate(seating):
        if player is not None:
            scores[player] = hand.scores()[seat]
    owner = None if hand.owner is None else seating[hand.owner]
    deck = spec.rules.deck
    price = deck.joker_position - 0.5 if hand.price_card is None else float(hand.price_card)
    winner = game.winner if game.is_over and number == len(game.hands) else None
    return HandResult(unit, rot, number, names, tuple(scores), owner, price, winner)


def _with_line(spec: TableSpec, r: HandResult, record: dict, of: int) -> HandResult:
    sim = {
        "table": spec.table,
        "unit": r.unit,
        "rotation": r.rotation,
        "hand": r.hand,
        "of": of,
        "bots": list(r.bots),
        "scores": list(r.scores),
        "owner": r.owner,
        "price": r.price,
        "winner": r.winner,
    }
    return replace(r, record=json.dumps({**record, SIM_KEY: sim}, separators=(",", ":")))


def run_jobs(jobs: Sequence[Job]) -> list[list[HandResult]]:
    """The hands of each job, one after the other (what a worker does)."""
    return [run_unit(spec, unit) for spec, unit in jobs]


def chunks(count: int, slots: int) -> list[range]:
    """Jobs in batches: a few per worker slot for balance, at most 32 each so
    that a stopped run loses little and the progress bar moves."""
    size = max(1, min(32, count // (slots * 8) or 1))
    return [range(i, min(i + size, count)) for i in range(0, count, size)]


def run_local(jobs: Sequence[Job], workers: int | None = None) -> Iterator[Finished]:
    """The jobs on this machine: in this process (one worker) or a process pool."""
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        for i, job in enumerate(jobs):
            yield i, run_unit(*job)
        return
    # Workers from a fresh server process, not forks of this one: a fork of a
    # process that has used gRPC (a test run, a server) can crash in gRPC's
    # fork handlers (seen: a worker's segfault in cygrpc, a broken pool).
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending = {
            pool.submit(run_jobs, [jobs[i] for i in batch]): batch
            for batch in chunks(len(jobs), workers)
        }
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield from zip(pending.pop(future), future.result(), strict=True)
        finally:  # stopped early (Ctrl-C, an error): drop the batches not started
            pool.shutdown(cancel_futures=True)


def in_order(finished: Iterable[Finished], start: int = 0) -> Iterator[Finished]:
    """What finished, in job order from `start` (held back until its turn)."""
    waiting: dict[int, list[HandResult]] = {}
    following = start
    for i, hands in finished:
        waiting[i] = hands
        while following in waiting:
            yield following, waiting.pop(following)
            following += 1


def simulate(
    spec: TableSpec,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[HandResult]:
    """Every hand of the simulation, in unit order, whatever the number of workers."""
    jobs = [(spec, unit) for unit in range(spec.units)]
    for i, hands in in_order(run_local(jobs, workers)):
        if progress:
            progress(i + 1, spec.units)
        yield from hands
