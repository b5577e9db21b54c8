"""A tournament of bots: every table of them in duplicate, paired differences
with 95% intervals, and a rating per bot with its interval.

The schedule.  With at least as many bots as players, every combination of
`players` different bots makes a table (four bots at three players: four
tables); with fewer bots, every pair fills the seats in every proportion
(A B B and A A B).  Every table plays the same deals, and each deal in every
rotation of its bots through the seats (duplicate), so each bot holds every
hand, against every set of opponents, on the same cards; with
`every_seating`, in every order round the table (at three players six, so
that each bot also passes to each other one from both sides).

The differences.  For bots A and B and one deal: over the tables where both
sat, the mean of (A's mean score per hand − B's).  The deal is the unit of
the interval: deals are independent, the tables of one deal are not (they
share its cards).

The rating: Bradley–Terry on paired results.  In each table and deal where
A and B both sat, the one with the higher mean score wins that pairing (a
tie is half each).  Bradley–Terry gives each bot a strength so that
P(A beats B) = 1 / (1 + 10^((r_B − r_A) / 400)) (the Elo scale), fitted by
maximum likelihood to all pairings at once.  Why this model: it puts every
pair on one scale although each table pits different bots, it needs no
assumption about how scores are spread (a hand stuck with the bottle costs
far more than a trick is worth, so points are heavy-tailed), and its
predictions are what a reader wants (how often A beats B).  Half a win and
half a loss against every other bot are added, so a bot that never lost
still gets a finite rating.  The interval is a bootstrap over deals (deals
drawn with replacement, the whole fit redone, the 2.5% and 97.5% points),
which keeps the correlation between tables that share a deal; it is seeded,
so the same results give the same text.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cursedbottle.engine.rules import Rules

from .simulation import HandResult, Job, TableSpec
from .stats import Interval

BOOTSTRAP = 400
ELO = 400 / math.log(10)


def tables(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The tables of the tournament, each its bots by player."""
    if len(set(bots)) != len(bots) or len(bots) < 2:
        raise ValueError("--bots: give at least two different bots")
    if len(bots) >= players:
        return list(itertools.combinations(bots, players))
    return [
        (a,) * k + (b,) * (players - k)
        for a, b in itertools.combinations(bots, 2)
        for k in range(1, players)
    ]


def jobs(
    bots: Sequence[str],
    rules: Rules,
    deals: int,
    seed: int | str,
    records: bool,
    every_seating: bool = False,
) -> list[Job]:
    """Every table, every deal: the tables share the deals (same seed)."""
    specs = [
        TableSpec(
            table,
            rules,
            deals,
            duplicate=True,
            seed=seed,
            records=records,
            every_seating=every_seating,
        )
        for table in tables(bots, rules.players)
    ]
    return [(spec, deal) for spec in specs for deal in range(deals)]


@dataclass(frozen=True, slots=True)
class PairLine:
    better: str
    worse: str
    #: better − worse per hand, by deal.
    difference: Interval
    #: Pairings (table and deal) the better one won, ties as half.
    wins: float
    pairings: int


@dataclass(frozen=True, slots=True)
class Rating:
    name: str
    rating: float
    low: float
    high: float
    score: Interval


@dataclass(frozen=True, slots=True)
class Standings:
    pairs: tuple[PairLine, ...]
    ratings: tuple[Rating, ...]
    tables: int
    deals: int
    #: Seatings of each deal at each table (rotations, or every order).
    seatings: int
    hands: int


def _means(results: Iterable[HandResult]) -> dict[int, dict[tuple, dict[str, float]]]:
    """By deal, by table: each bot's mean score per hand there."""
    scores: dict[int, dict[tuple, dict[str, list[int]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    for r in results:
        cell = scores[r.unit][tuple(sorted(r.bots))]
        for player, name in enumerate(r.bots):
            cell[name].append(r.scores[player])
    return {
        deal: {t: {n: statistics.fmean(v) for n, v in cell.items()} for t, cell in by_table.items()}
        for deal, by_table in scores.items()
    }


def _wins(means: dict, deals: Iterable[int], names: Sequence[str]) -> list[list[float]]:
    """wins[i][j]: pairings bot i won against bot j, ties as half."""
    idx = {n: i for i, n in enumerate(names)}
    wins = [[0.0] * len(names) for _ in names]
    for deal in deals:
        for cell in means[deal].values():
            for a, b in itertools.combinations(cell, 2):
                i, j = idx[a], idx[b]
                won = 1.0 if cell[a] > cell[b] else 0.0 if cell[a] < cell[b] else 0.5
                wins[i][j] += won
                wins[j][i] += 1.0 - won
    return wins


def bradley_terry(wins: list[list[float]], prior: float = 0.5) -> list[float]:
    """Ratings on the Elo scale (mean 0) by the MM algorithm (Hunter, 2004),
    with `prior` wins and losses added against every other bot."""
    n = len(wins)
    w = [[wins[i][j] + (prior if i != j else 0.0) for j in range(n)] for i in range(n)]
    p = [1.0] * n
    for _ in range(1000):
        new = []
        for i in range(n):
            games = sum((w[i][j] + w[j][i]) / (p[i] + p[j]) for j in range(n) if j != i)
            new.append(sum(w[i]) / games if games else p[i])
        centre = math.exp(statistics.fmean(math.log(x) for x in new))
        new = [x / centre for x in new]
        if max(abs(a - b) for a, b in zip(new, p, strict=True)) < 1e-10:
            p = new
            break
        p = new
    return [ELO * math.log(x) for x in p]


def standings(results: Sequence[HandResult], bootstrap: int = BOOTSTRAP) -> Standings:
    means = _means(results)
    deals = sorted(means)
    names = sorted({n for r in results for n in r.bots})
    per_bot: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for player, name in enumerate(r.bots):
            per_bot[name].append(r.scores[player])
    fit = bradley_terry(_wins(means, deals, names))
    rng = random.Random(0)
    draws: list[list[float]] = [[] for _ in names]
    for _ in range(bootstrap):
        sample = [rng.choice(deals) for _ in deals]
        for i, x in enumerate(bradley_terry(_wins(means, sample, names))):
            draws[i].append(x)
    ratings = []
    for i, name in enumerate(names):
        low, high = _percentiles(draws[i]) if bootstrap else (math.nan, math.nan)
        ratings.append(Rating(name, fit[i], low, high, Interval.of(per_bot[name])))
    ratings.sort(key=lambda r: -r.rating)
    pairs = []
    wins = _wins(means, deals, names)
    idx = {n: i for i, n in enumerate(names)}
    for i, a in enumerate(ratings):
        for b in ratings[i + 1 :]:
            diffs = []
            for deal in deals:
                both = [
                    c[a.name] - c[b.name]
                    for c in means[deal].values()
                    if a.name in c and b.name in c
                ]
                if both:
                    diffs.append(statistics.fmean(both))
            won = wins[idx[a.name]][idx[b.name]]
            pairings = won + wins[idx[b.name]][idx[a.name]]
            pairs.append(PairLine(a.name, b.name, Interval.of(diffs), won, round(pairings)))
    tables_seen = {t for cell in means.values() for t in cell}
    seatings = 1 + max((r.rotation for r in results), default=0)
    return Standings(
        tuple(pairs), tuple(ratings), len(tables_seen), len(deals), seatings, len(results)
    )


def _percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    cut = statistics.quantiles(ordered, n=40, method="inclusive")
    return cut[0], cut[-1]


def format_standings(s: Standings) -> str:
    """The tournament's tables, as text (the same bytes for the same results)."""
    rows = [
        f"{s.tables} tables × {s.deals} deals × {s.seatings} seatings: {s.hands} hands",
        "",
        f"{'pair':<24} {'difference/hand':>16} {'95% CI':>18}  {'pairings won':>12}",
    ]
    for p in s.pairs:
        d = p.difference
        ci = f"[{d.low:+.2f}, {d.high:+.2f}]" if d.n > 1 else "—"
        share = f"{p.wins / p.pairings:.0%} of {p.pairings}" if p.pairings else "—"
        rows.append(f"{p.better + ' − ' + p.worse:<24} {d.mean:>+16.2f} {ci:>18}  {share:>12}")
    rows += [
        "",
        "rating: Bradley–Terry on paired results (Elo scale, mean 0), "
        "95% bootstrap interval over deals",
        f"{'bot':<16} {'rating':>7} {'95% interval':>16} {'mean/hand':>10}",
    ]
    for r in s.ratings:
        ci = "—" if math.isnan(r.low) else f"[{r.low:+.0f}, {r.high:+.0f}]"
        rows.append(f"{r.name:<16} {r.rating:>+7.0f} {ci:>16} {r.score.mean:>+10.2f}")
    return "\n".join(rows)
