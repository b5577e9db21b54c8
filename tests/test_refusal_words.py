"""Refusals reach the screen in the reader's language: the server sends the rule and
its facts (`ErrorInfo.facts`), the client words them; seats are counted from 1 and
the engine's English never stands on a German screen."""

from __future__ import annotations

import random

import grpc
import pytest
from cursedbottle.client.i18n import Tr
from cursedbottle.client.refusals import card_of, refusal, words
from cursedbottle.engine import Game, Phase, Rules
from cursedbottle.engine.actions import PassCard, PileCard, Play
from cursedbottle.engine.errors import IllegalAction
from cursedbottle.server.refusal_facts import engine_facts
from cursedbottle.server.seating import current_map
from cursedbottle.v1 import table_pb2
from test_server_support import create, rules, run, seat_humans, serving

ENGLISH = {"seat", "must", "follow", "suit", "the", "and", "it", "holds", "were", "led",
           "empty", "someone", "join", "bot", "added", "first", "not", "your", "turn"}


def _info(game: Game, action) -> table_pb2.ErrorInfo:
    with pytest.raises(IllegalAction) as caught:
        game.apply(action)
    exc = caught.value
    return table_pb2.ErrorInfo(rule=exc.rule.name, message=str(exc),
                               facts=engine_facts(exc, current_map(game)))


def _follow_suit_refusal() -> tuple[Game, table_pb2.ErrorInfo]:
    """A played hand stopped where the mover holds the suit led and another card."""
    rng = random.Random(5)
    game = Game(Rules(3), seed=5, first_dealer=0)
    while True:
        hand = game.hand
        if hand.phase is Phase.PLAY and hand.trick:
            view = game.view(game.player_at(game.to_act()[0]))
            wrong = [c for c in view.my_cards if c not in view.legal_cards]
            if wrong:
                return game, _info(game, Play(view.seat, wrong[0]))
        game.apply(rng.choice(game.legal_actions()))


def _words_of(text: str) -> set[str]:
    return {w.strip(".,:;()!?").lower() for w in text.split()}


def test_follow_suit_is_said_in_the_readers_words():
    _game, info = _follow_suit_refusal()
    assert info.rule == "FOLLOW_SUIT" and info.facts["suit"].startswith("SUIT_")
    en, de = Tr("en"), Tr("de")
    said_en, said_de = words(en, info), words(de, info)
    assert said_en.startswith("You must follow the suit led (")
    assert said_de.startswith("Du musst die ausgespielte Farbe bedienen (")
    assert any(s in said_de for s in ("Karo", "Herz", "Pik")), said_de
    assert not _words_of(said_de) & ENGLISH, said_de
    assert "seat" not in said_en


def test_a_refused_pass_names_the_neighbours_counted_from_one():
    game = Game(Rules(4), seed=2, first_dealer=0)
    while game.hand.phase is Phase.PILE:
        game.apply(game.legal_actions()[0])
    seat = game.to_act()[0]
    card = game.view(game.player_at(seat)).my_cards[0]
    far = next(s for s in range(4) if s != seat and s not in game.hand.recipients(seat))
    info = _info(game, PassCard(seat, far, card))
    table = current_map(game).to_wire
    first, second = (table[s] + 1 for s in game.hand.recipients(seat))
    assert words(Tr("en"), info) == f"You may pass only to seat {first} and seat {second}."
    assert words(Tr("de"), info) == (
        f"Du darfst nur an Platz {first} und Platz {second} weitergeben.")
    named = words(Tr("de"), info, name=lambda s: f"P{s}")
    assert named.startswith("Du darfst nur an P")


def test_a_card_not_held_and_a_rule_this_client_does_not_know():
    game = Game(Rules(3), seed=1, first_dealer=0)
    seat = game.to_act()[0]
    mine = set(game.view(game.player_at(seat)).my_cards)
    other = next(c for c in game.rules.deck.cards if c not in mine)
    info = _info(game, PileCard(seat, other))
    assert words(Tr("de"), info) == f"Du hast {Tr('de').card(card_of(other.ascii))} nicht."
    unknown = table_pb2.ErrorInfo(rule="SOMETHING_NEW", message="the server's own words")
    assert words(Tr("en"), unknown) == "the server's own words"
    assert words(Tr("de"), unknown) == "Der Server lehnt das ab."


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Seats 2 and 3 are empty: someone must join or bots be added first."),
    ("de", "Plätze 2 und 3 sind frei: erst müssen Leute beitreten oder Bots dazukommen."),
])
def test_start_with_empty_seats_counts_them_from_one(lang, expected):
    async def main():
        async with serving() as (_running, stub):
            table_id, host = await create(stub, rules(3))
            await seat_humans(stub, table_id, 1)
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            said = refusal(Tr(lang), caught.value)
            assert said == expected, said
            assert "seat(s)" not in said

    run(main())
