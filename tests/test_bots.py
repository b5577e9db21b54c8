"""Every bot plays every variant to the end, legally, from its view alone."""

from __future__ import annotations

import pytest
from cursedbottle.bots import make_bot
from cursedbottle.bots.strong_bot import StrongBot
from cursedbottle.engine import Game, Rules

VARIANTS = {
    "3p": Rules(3, hands=1),
    "4p": Rules(4, hands=1),
    "2p-lopaka": Rules(2, hands=2),
    "bright-house": Rules(2, bright_house=True, hands=1),
    "3p-hot": Rules(3, hot_bottle=True, hands=1),
}


def _bot(name: str, seed: int):
    if name == "strong":
        return StrongBot(seed, budget=None, samples=2)
    if name == "pimc":
        return make_bot("pimc:n2", seed)
    return make_bot(name, seed)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", ["random", "rule", "heuristic", "model", "pimc", "strong"])
def test_a_bot_plays_a_whole_game_legally(name, variant):
    rules = VARIANTS[variant]
    game = Game(rules, seed=f"{name}-{variant}")
    bots = {p: _bot(name, p) for p in range(rules.players)}
    decisions = 0
    while not game.is_over:
        for seat in game.to_act():
            player = game.player_at(seat)
            view = game.view(player)
            action = bots[player].act(view)
            assert action in view.legal_actions
            game.apply(action)  # raises IllegalAction on an illegal one
            decisions += 1
    assert decisions >= rules.tricks


def test_unknown_bot_names_are_refused_with_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown bot 'genius'.*heuristic.*random.*rule.*strong"):
        make_bot("genius")


def test_the_rule_bot_plays_lopakas_policy():
    from cursedbottle.engine.tricks import lopaka_card

    game = Game(Rules(4), seed=3)
    bot = make_bot("rule")
    while not game.is_over and len(game.hands) == 1:
        seat = game.to_act()[0]
        view = game.view(game.player_at(seat))
        action = bot.act(view)
        if view.phase.value == "play":
            deck = game.hand.deck
            expected = lopaka_card(
                game.hand.holdings[seat],
                game.hand.trick,
                game.hand.price,
                deck.suit_masks,
                deck.suit_of,
            )
            assert action.card.index == expected
        game.apply(action)


def test_a_searching_bot_takes_its_budget_after_a_colon():
    bot = make_bot("strong:0.25")
    assert bot.name == "strong:0.25" and bot.budget == 0.25
    for bad, message in [
        ("rule:1", "takes no time budget"),
        ("strong:soon", "neither seconds"),
        ("strong:0", "must be positive"),
        ("strong:n0", "at least 1"),
        ("strong:nmany", "not a whole number of deals"),
        ("rule:n4", "takes no time budget"),
        ("pimc:0.3:x27", "only strong takes a threshold"),
        ("strong:0.3:27", "not a threshold of exact solves"),
        ("strong:0.3:xmany", "not a whole number of cards"),
        ("strong:0.3:x-1", "cannot be negative"),
    ]:
        with pytest.raises(ValueError, match=message):
            make_bot(bad)


def test_the_strong_bot_takes_its_threshold_of_exact_solves_after_its_effort():
    bot = make_bot("strong:0.3:x27")
    assert (bot.name, bot.budget, bot.exact_cards) == ("strong:0.3:x27", 0.3, 27)
    assert make_bot("strong:n8:x0").exact_cards == 0
    assert make_bot("strong:0.3").exact_cards is None


def test_a_searching_bot_takes_a_number_of_deals_instead_of_seconds():
    """`pimc:n3` guesses exactly three deals per decision, whatever the clock:
    its choice is the search's best over three deals from the same seed.
    (`strong:n3` weighs its deals first: tests/test_inference.py.)"""
    import random

    from cursedbottle.bots.search import evaluate
    from cursedbottle.engine.events import Phase
    from cursedbottle.engine.rules import Edition

    bot = make_bot("pimc:n3", 5)
    assert bot.name == "pimc:n3" and bot.budget is None and bot.samples == 3
    # The Bottle Imp at three takes its setup from the tips, so the bot's own
    # generator is untouched until its first card.
    game = Game(Rules(3, edition=Edition.BOTTLE_IMP, hands=1), seed="deals")
    tips = make_bot("heuristic", 1)
    seat = game.to_act()[0]
    while game.hand.phase is not Phase.PLAY or len(game.legal_actions(seat)) < 2:
        game.apply(tips.act(game.view(game.player_at(seat))))
        seat = game.to_act()[0]
    view = game.view(game.player_at(seat))
    ranked = evaluate(view, random.Random(5), budget=None, samples=3)
    assert ranked[0].samples == 3
    assert bot.act(view) == ranked[0].action
