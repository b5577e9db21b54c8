"""The summary of a bot-only table: who is better, and how sure we are.

Pure functions over hand results, so they are tested on hand-made data.
Intervals are normal-approximation 95% intervals (1.96 standard errors).
The comparison of two bots is paired by unit (deal or game): in duplicate
mode both played every seat of the same cards, so the luck cancels.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from .simulation import HandResult

Z95 = 1.96


@dataclass(frozen=True, slots=True)
class Interval:
    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    @classmethod
    def of(cls, values: list[float]) -> Interval:
        n = len(values)
        if n == 0:
            return cls(math.nan, math.nan, 0)
        mean = statistics.fmean(values)
        half = Z95 * statistics.stdev(values) / math.sqrt(n) if n > 1 else math.inf
        return cls(mean, half, n)


@dataclass(frozen=True, slots=True)
class BotLine:
    name: str
    hands: int
    score: Interval
    games: int
    games_won: int
    bottle_rate: float
    #: Mean final price (place in the order) of the hands it ended with the bottle
    #: (with the second bottle: the one on sale last).
    price_when_stuck: float


@dataclass(frozen=True, slots=True)
class Comparison:
    better: str
    worse: str
    difference: Interval


@dataclass(frozen=True, slots=True)
class Summary:
    bots: tuple[BotLine, ...]
    comparisons: tuple[Comparison, ...]
    hands: int
    mean_final_price: float


def summarise(results: Iterable[HandResult]) -> Summary:
    results = list(results)
    scores: dict[str, list[float]] = defaultdict(list)
    stuck: dict[str, list[float]] = defaultdict(list)
    games: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    per_unit: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in results:
        for player, name in enumerate(r.bots):
            scores[name].append(r.scores[player])
            per_unit[r.unit][name].append(r.scores[player])
            if r.owner == player:
                stuck[name].append(r.price)
        if r.winner is not None:
            for name in set(r.bots):
                games[name] += r.bots.count(name)
            won[r.bots[r.winner]] += 1
    lines = tuple(
        sorted(
            (
                BotLine(
                    name,
                    len(values),
                    Interval.of(values),
                    games[name],
                    won[name],
                    len(stuck[name]) / len(values),
                    statistics.fmean(stuck[name]) if stuck[name] else math.nan,
                )
                for name, values in scores.items()
            ),
            key=lambda line: -line.score.mean,
        )
    )
    comparisons = []
    for i, a in enumerate(lines):
        for b in lines[i + 1 :]:
            diffs = [
                statistics.fmean(u[a.name]) - statistics.fmean(u[b.name])
                for u in per_unit.values()
                if u.get(a.name) and u.get(b.name)
            ]
            comparisons.append(Comparison(a.name, b.name, Interval.of(diffs)))
    prices = [r.price for r in results]
    return Summary(
        lines,
        tuple(comparisons),
        len(results),
        statistics.fmean(prices) if prices else math.nan,
    )


def format_summary(summary: Summary, price_name=None, unit: str = "deals") -> str:
    """The end-of-run table, as text (the same bytes for the same results), with a
    key that says what each column means; `unit`: what the comparisons pair over."""

    def price(p: float) -> str:
        if math.isnan(p):
            return "—"
        return f"{p:.1f}" + (f" ({price_name(p)})" if price_name else "")

    rows = [
        f"{'bot':<12} {'hands':>7} {'mean/hand':>10} {'95% CI':>18} {'games won':>10} "
        f"{'bottle':>7}  its final price"
    ]
    for line in summary.bots:
        s = line.score
        ci = f"[{s.low:+.2f}, {s.high:+.2f}]" if s.n > 1 else "—"
        won = f"{line.games_won}/{line.games}" if line.games else "—"
        rows.append(
            f"{line.name:<12} {line.hands:>7} {s.mean:>+10.2f} {ci:>18} {won:>10} "
            f"{line.bottle_rate:>6.1%}  {price(line.price_when_stuck)}"
        )
    rows += [
        "  mean/hand: points per hand; 95% CI: the true mean lies in this range, 95% sure;",
        "  bottle: the hands it ended holding the bottle; its final price: the bottle's mean",
        "  price in those hands (its place in the order of cards, and the card there).",
        f"the bottle's mean final price: {price(summary.mean_final_price)} over "
        f"{summary.hands} hands",
    ]
    for c in summary.comparisons:
        d = c.difference
        clear = d.n > 1 and (d.low > 0 or d.high < 0)
        verdict = f"{c.better} is better" if clear else "no clear difference"
        rows.append(
            f"{c.better} − {c.worse}: {d.mean:+.2f} ± {d.half_width:.2f} points per hand "
            f"(the same {d.n} {unit if d.n != 1 else unit.removesuffix('s')} for both; "
            f"{verdict})"
        )
    return "\n".join(rows)
