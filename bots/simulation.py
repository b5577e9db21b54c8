"""Bot-only tables for analysis: many hands or games, in parallel, reproducibly.

A unit of work is one deal (hands mode) or one game (games mode), identified
by its number; everything random in it is seeded from (seed, number,
rotation, player), so results do not depend on the number of worker
processes.  In duplicate mode each deal is replayed once per rotation of the
bots through the seats, so the luck of the cards cancels out.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Rules

from .base import play_hand_with_bots
from .registry import make_bot
from .seeds import stable_seed


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
    record: str | None = None


def rotations(spec: TableSpec) -> int:
    return len(spec.bots) if spec.duplicate else 1


def run_unit(spec: TableSpec, unit: int) -> list[HandResult]:
    """Play one deal (every rotation of it) or one game; pure given the spec."""
    players = spec.rules.players
    out: list[HandResult] = []
    for rot in range(rotations(spec)):
        names = tuple(spec.bots[(p + rot) % players] for p in range(players))
        bots = {
            p: make_bot(name, stable_seed(spec.seed, unit, rot, p)) for p, name in enumerate(names)
        }
        rules = spec.rules if spec.games else replace(spec.rules, hands=1)
        game = Game(rules, seed=f"{spec.seed}:{unit}", first_dealer=unit % players)
        while True:
            play_hand_with_bots(game, bots)
            out.append(
                _hand_result(spec, game, len(game.hands) - (not game.is_over), unit, rot, names)
            )
            if game.is_over or not spec.games:
                break
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
    record = None
    if spec.records:
        from cursedbottle.engine.records import record_of

        record = json.dumps(record_of(hand).to_json(), separators=(",", ":"))
    winner = game.winner if game.is_over and number == len(game.hands) else None
    return HandResult(unit, rot, number, names, tuple(scores), owner, price, winner, record)


def _run_chunk(args: tuple[TableSpec, Sequence[int]]) -> list[HandResult]:
    spec, units = args
    return [r for u in units for r in run_unit(spec, u)]


def simulate(
    spec: TableSpec,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[HandResult]:
    """Every hand of the simulation, in unit order, whatever the number of workers."""
    workers = workers or os.cpu_count() or 1
    chunk = max(1, min(32, spec.units // (workers * 8) or 1))
    chunks = [range(i, min(i + chunk, spec.units)) for i in range(0, spec.units, chunk)]
    done = 0
    if workers == 1:
        results = (_run_chunk((spec, c)) for c in chunks)
        for c, hands in zip(chunks, results, strict=True):
            done += len(c)
            if progress:
                progress(done, spec.units)
            yield from hands
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for c, hands in zip(chunks, pool.map(_run_chunk, [(spec, c) for c in chunks]), strict=True):
            done += len(c)
            if progress:
                progress(done, spec.units)
            yield from hands
