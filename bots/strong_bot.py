"""The strong bot: the baseline `pimc` (bots/pimc_bot.py) with inference.

Its search is pimc's (bots.search: rollouts early, the double-dummy solver
late, the tips for the pile and the passes unless clearly beaten), but in the
play phase the guessed deals are no longer all alike: `bots.inference` weighs
each by how likely the other seats' plays this hand and the cards they passed
are under a model of how the bots play, and the search values deals in
proportion to those weights.  What was tried, and what paid, is in
bench/README.md ("Issue 14: strong vs pimc").
"""

from __future__ import annotations

import time

from cursedbottle.engine.events import Phase
from cursedbottle.engine.view import SeatView

from .heuristic_bot import rollout
from .inference import DealPool, Scorer
from .pimc_bot import PimcBot
from .policy import model_rollout
from .search import EXACT_MODEL, ActionValue, evaluate, exact_cards_for

#: Candidate deals drawn per deal the search values (a sample-count bot), and
#: the pool for a time-budgeted one.
CANDIDATES_PER_SAMPLE = 4
BUDGET_CANDIDATES = 96
#: The exponent of the likelihood (1: the model as fitted; below 1 trusts it
#: less, so that fewer deals carry all the weight).
TEMPER = 1.0


class StrongBot(PimcBot):
    """`budget` is seconds per decision (`strong:0.3`), `samples` guessed deals
    per decision (`strong:n64`, budget None: the same effort on a loaded
    machine as on an idle one); with both, whichever ends first.  `threads`:
    as pimc's (the exact solves of that many deals at once)."""

    name = "strong"

    def __init__(
        self,
        seed: int = 0,
        budget: float | None = 1.0,
        samples: int | None = None,
        temper: float = TEMPER,
        model: str = EXACT_MODEL,
        infer: bool = True,
        pool: int = CANDIDATES_PER_SAMPLE,
        maxn_cards: int = 0,
        rollouts: str = "model",
        exact_cards: int | None = None,
        name: str | None = None,
        threads: int = 1,
    ) -> None:
        super().__init__(seed, budget, samples, name, threads)
        self.temper = temper
        self.model = model
        self.infer = infer
        self.pool = pool
        self.maxn_cards = maxn_cards
        self.exact_cards = exact_cards
        self.policy = model_rollout if rollouts == "model" else rollout

    def rank(self, view: SeatView) -> list[ActionValue]:
        """Every legal action with its value, best first: pimc's search on deals
        weighed by inference, with the model's rollouts."""
        start = time.perf_counter()
        deals = None
        if view.phase is Phase.PLAY and self.infer:
            scorer = Scorer(view, temper=self.temper)
            if scorer.plays or scorer.passes:
                count = BUDGET_CANDIDATES if self.samples is None else self.pool * self.samples
                deals = DealPool(view, self.rng, count, scorer).draw
        model = "maxn" if sum(view.hand_sizes) <= self.maxn_cards else self.model
        exact_cards = self.exact_cards
        if exact_cards is None:
            exact_cards = exact_cards_for(view.rules, budgeted=self.budget is not None)
        budget = self.budget
        if budget is not None:  # the pool's time counts against the budget
            budget = max(0.0, budget - (time.perf_counter() - start))
        return evaluate(
            view,
            self.rng,
            budget,
            self.samples,
            exact_cards,
            deals=deals,
            model=model,
            policy=self.policy,
            threads=self.threads,
        )
