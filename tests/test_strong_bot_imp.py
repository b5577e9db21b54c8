"""The strong bot's rules for the original Bottle Imp with three players."""

from __future__ import annotations

from cursedbottle.bots import search
from cursedbottle.bots.heuristic_bot import HeuristicBot
from cursedbottle.bots.strong_bot import StrongBot
from cursedbottle.engine import Game, Rules
from cursedbottle.engine.actions import Play
from cursedbottle.engine.rules import Edition


def _imp(players: int) -> Rules:
    return Rules(players, edition=Edition.BOTTLE_IMP, hands=1)


def test_three_player_bottle_imp_solves_exactly_later():
    """From 21 cards (7 tricks) instead of 24: a solve of 24 took 69 ms on average."""
    assert search.exact_cards_for(_imp(3)) == search.EXACT_CARDS_IMP3 == 21
    assert search.exact_cards_for(_imp(4)) == search.exact_cards_for(Rules(3)) == 24


def test_three_player_bottle_imp_setup_follows_the_tips_without_searching(monkeypatch):
    def no_search(*args, **kwargs):
        raise AssertionError("the setup must not search")

    monkeypatch.setattr("cursedbottle.bots.strong_bot.evaluate", no_search)
    game = Game(_imp(3), seed="imp3-tips")
    strong, tips = StrongBot(1, budget=None, samples=2), HeuristicBot(1)
    setup = 0
    while not isinstance(game.view(game.player_at(game.to_act()[0])).legal_actions[0], Play):
        for seat in game.to_act():
            view = game.view(game.player_at(seat))
            action = strong.act(view)
            assert action == tips.act(view)
            game.apply(action)
            setup += 1
    assert setup == 9  # three pile cards and six passes
