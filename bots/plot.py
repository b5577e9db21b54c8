"""Pictures of bot-only runs: score distributions per bot, and a tournament
(needs the `plot` extra: matplotlib)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import matplotlib

matplotlib.use("Agg")  # files only: no display on a server or in CI
import matplotlib.pyplot as plt

from .simulation import HandResult


def plot_scores(results: Iterable[HandResult], path: str) -> None:
    """Each bot's scores as the share of its own hands per score, so bots that
    played different numbers of hands (a bot in two seats: twice as many)
    compare; its mean per hand is marked and named in the legend."""
    scores: dict[str, list[int]] = defaultdict(list)
    for r in results:
        for player, name in enumerate(r.bots):
            scores[name].append(r.scores[player])
    names = sorted(scores)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    low = min(min(v) for v in scores.values())
    high = max(max(v) for v in scores.values())
    bins = range(low, high + 2, max(1, (high - low) // 40 or 1))
    for i, name in enumerate(names):
        values = scores[name]
        mean = sum(values) / len(values)
        colour = f"C{i % 10}"
        ax.hist(
            values,
            bins=bins,
            weights=[100 / len(values)] * len(values),
            histtype="step",
            linewidth=1.5,
            color=colour,
            label=f"{name}: mean {mean:+.1f} per hand ({len(values)} hands)",
        )
        ax.axvline(mean, color=colour, linestyle="--", linewidth=1)
    ax.set_xlabel("score per hand (dashed: the bot's mean)")
    ax.set_ylabel("% of the bot's hands")
    ax.set_title("Cursed Bottle: how often each bot scored what, per hand")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_standings(standings, path: str) -> None:
    """A tournament (bots.tournament.Standings): the paired differences and the
    ratings, each with its 95% interval drawn."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), dpi=100)
    pairs = list(reversed(standings.pairs))
    means = [p.difference.mean for p in pairs]
    halves = [p.difference.half_width for p in pairs]
    left.errorbar(means, range(len(pairs)), xerr=halves, fmt="o", capsize=4)
    left.axvline(0, color="grey", linewidth=0.8)
    left.set_yticks(range(len(pairs)), [f"{p.better} − {p.worse}" for p in pairs])
    left.set_xlabel("score difference per hand (paired by deal, 95% interval)")
    left.set_title("paired differences")
    ratings = list(reversed(standings.ratings))
    values = [r.rating for r in ratings]
    errors = [[r.rating - r.low for r in ratings], [r.high - r.rating for r in ratings]]
    right.errorbar(values, range(len(ratings)), xerr=errors, fmt="s", capsize=4, color="C1")
    right.axvline(0, color="grey", linewidth=0.8)
    right.set_yticks(range(len(ratings)), [r.name for r in ratings])
    right.set_xlabel("Bradley–Terry rating, Elo scale (95% bootstrap interval)")
    right.set_title("ratings")
    fig.suptitle(
        f"Cursed Bottle tournament: {standings.tables} tables × {standings.deals} deals, duplicate"
    )
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
