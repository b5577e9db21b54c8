"""Score distributions per bot, as a picture (needs the `plot` extra: matplotlib)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import matplotlib

matplotlib.use("Agg")  # files only: no display on a server or in CI
import matplotlib.pyplot as plt

from .simulation import HandResult


def plot_scores(results: Iterable[HandResult], path: str) -> None:
    scores: dict[str, list[int]] = defaultdict(list)
    for r in results:
        for player, name in enumerate(r.bots):
            scores[name].append(r.scores[player])
    names = sorted(scores)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    low = min(min(v) for v in scores.values())
    high = max(max(v) for v in scores.values())
    bins = range(low, high + 2, max(1, (high - low) // 40 or 1))
    for name in names:
        ax.hist(
            scores[name],
            bins=bins,
            histtype="step",
            linewidth=1.5,
            label=f"{name} (n={len(scores[name])})",
        )
    ax.set_xlabel("score per hand")
    ax.set_ylabel("hands")
    ax.set_title("Cursed Bottle: score per hand by bot")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
