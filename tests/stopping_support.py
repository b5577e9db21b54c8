"""Solves stopped midway (tests/test_solver_share.py, tests/test_solver_split.py).

A search looks at its `CancelToken` every 4,096 nodes and then returns at
once from every node: whatever table it leaves behind must serve the next
solve truly.  To stop a search midway at all, the positions must be big
enough, on every rule set.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from conftest import config_id
from cursedbottle.engine.events import Phase
from cursedbottle.engine.hand import Hand, random_deal
from cursedbottle.engine.rules import Rules
from cursedbottle.solver import Model, _search, solve_hand
from cursedbottle.solver.cancel import Cancelled, CancelToken

#: Positions of at least this many nodes are stopped by a cancel a
#: millisecond or two after they start.
STOP_NODES = 200_000
#: Tricks left at which random positions of a rule set often reach STOP_NODES
#: in well under a second (otherwise 3-4 holders: 8; five or six, Devil's Eye: 5).
STOP_LEFT = {"2p-lopaka": 11, "2p-lopaka-hot": 11, "imp-5p": 7, "imp-5p-teams": 6, "imp-6p": 6}


def big_hands(rules: Rules, model: Model, count: int, seed: str,
              nodes: int = STOP_NODES) -> list[tuple[Hand, dict]]:
    """`count` hands by random play whose solve on a fresh table takes at
    least `nodes` nodes and at most 0.6 s (CPU), each with those values
    (engine hands: the second bottle's cases need them)."""
    wide = rules.holders >= 5 or rules.devils_eye
    left = STOP_LEFT.get(config_id(rules), 5 if wide else 8) - (model is Model.MAXN)
    rng = random.Random(f"{seed}:stop:{config_id(rules)}:{model.value}")
    alone = _search.ALL_OPTIONS & ~_search.OPTIONS["share"]
    out = []
    for _ in range(60):
        dealer = rng.randrange(rules.seats)
        hand = Hand(rules, dealer, *random_deal(rules, rng, dealer))
        while hand.phase is not Phase.OVER and (
            hand.phase is not Phase.PLAY or len(hand.tricks) < rules.tricks - left
        ):
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.phase is not Phase.PLAY:
            continue
        try:
            fresh = solve_hand(hand, opts=alone, model=model, tables=_search.SearchTables(),
                               time_limit=0.6)
        except TimeoutError:
            continue
        if fresh.nodes >= nodes:
            out.append((hand, fresh.values))
            if len(out) == count:
                break
    assert len(out) == count, f"only {len(out)} positions big enough to be stopped"
    return out


def stop_midway(hands: list[tuple[Hand, dict]],
                solver: Callable[[], Callable[[Hand, CancelToken | None], dict]]) -> None:
    """For each (hand, true values): `solver()` gives a solve (hand, token)
    -> values on one table; it is cancelled 1, 2, 3 ... ms after it starts,
    then asked again on what the stopped solve left, and must answer true.
    Most of the solves must really have been stopped."""
    stopped = 0
    for i, (hand, values) in enumerate(hands):
        solve = solver()
        token = CancelToken()
        timer = threading.Timer(0.001 * (1 + i), token.cancel)
        timer.start()
        try:
            solve(hand, token)
        except Cancelled:
            stopped += 1
        timer.join()
        assert solve(hand, None) == values
    assert stopped * 3 >= 2 * len(hands), f"only {stopped} of {len(hands)} were stopped midway"
