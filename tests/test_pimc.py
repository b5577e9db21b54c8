"""The baseline bot `pimc` plays exactly as the strong bot did before issue 14.

tests/pimc_n8_baseline.json was recorded at 9b8ac21 (before the change) with
`strong:n8` in every seat of three seeded hands; `pimc:n8` must choose the
same action at every decision.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cursedbottle.bots import make_bot
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Edition, Rules

BASELINE = json.loads((Path(__file__).parent / "pimc_n8_baseline.json").read_text())
TABLES = {
    "cb3": Rules(3, hands=1),
    "imp3": Rules(3, edition=Edition.BOTTLE_IMP, hands=1),
    "cb2": Rules(2, hands=1),
}


def _play(name: str, key: str) -> list[str]:
    rules = TABLES[key]
    game = Game(rules, seed=f"pimc:{key}", first_dealer=0)
    bots = {p: make_bot(name, 100 + p) for p in range(rules.players)}
    acts = []
    while not game.is_over:
        for seat in game.to_act():
            player = game.player_at(seat)
            action = bots[player].act(game.view(player))
            acts.append(repr(action))
            game.apply(action)
    return acts


@pytest.mark.parametrize("key", TABLES)
def test_pimc_chooses_what_the_old_strong_bot_chose(key):
    assert _play("pimc:n8", key) == BASELINE[key]


def test_pimc_is_a_budgeted_bot_by_name():
    bot = make_bot("pimc:n16", 3)
    assert bot.name == "pimc:n16" and bot.samples == 16 and bot.budget is None
    assert make_bot("pimc:0.3").budget == 0.3
    assert make_bot("pimc").budget == 1.0
