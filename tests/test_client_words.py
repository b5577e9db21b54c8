"""The words on the table screen, by keys against a real server, in both languages:
the player is addressed as "you" ("You passed … to", "… passed … to you"; German
"Du gabst", "gab dir"), bots carry their name in the reader's language, a refusal
from the server is worded by the client from its facts, and no English word stands
on the German screen while a hand is played."""

from __future__ import annotations

import re

import pytest
from client_support import (
    SIZE,
    first_hand_over,
    local_server,
    play_by_keys,
    quick_app,
    run,
    screen_text,
    table_screen,
    until,
)
from cursedbottle.v1 import game_pb2
from test_words import ENGLISH, SHARED

PLAY = game_pb2.PHASE_PLAY


def _english_words(text: str) -> set[str]:
    words = {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß']+", text)}
    return words & ENGLISH - SHARED - {"ann"}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_hand_speaks_to_the_player_and_names_bots_in_the_readers_language(lang):
    async def main():
        async with local_server() as target:
            app = quick_app(target, game_pb2.Rules(players=3, hands=1), lang=lang,
                            seed="words-" + lang)
            async with app.run_test(size=(120, 40)) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                m, tr = screen.model, screen.tr
                await until(pilot, lambda: m.started and m.info is not None)
                bot = tr("bot_rule")
                assert bot in screen_text(app), screen_text(app)
                seen = []
                await play_by_keys(pilot, app, lambda s: s.model.phase == PLAY, timeout=40)
                await pilot.pause()
                seen.append(screen_text(app))
                await play_by_keys(pilot, app, first_hand_over(app), timeout=60)
                await pilot.pause()
                seen.append(screen_text(app))
                log = "\n".join(m.log)
                if lang == "en":
                    assert re.search(r"^You passed \S+ to " + bot, log, re.M), log
                    assert re.search(bot + r" \d passed \S+ to you$", log, re.M), log
                    assert "to Ann" not in log and "Ann passed" not in log
                else:
                    assert re.search(r"^Du gabst \S+ an " + bot, log, re.M), log
                    assert re.search(bot + r" \d gab dir \S+$", log, re.M), log
                    assert "rule bot" not in log
                    for text in seen:
                        assert not _english_words(text), (_english_words(text), text)
                    assert not _english_words(log), _english_words(log)

    run(main(), timeout=120)


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Refused: You do not hold "),
    ("de", "Abgelehnt: Du hast "),
])
def test_a_refusal_of_the_server_is_worded_by_the_client(lang, expected):
    async def main():
        async with local_server() as target:
            app = quick_app(target, game_pb2.Rules(players=3, hands=1), lang=lang,
                            seed="refusal-" + lang)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                m = screen.model
                await until(pilot, lambda: screen._step() == "pile", timeout=30)
                mine = {c.code for _h, cards in m.my_hands() for c in cards}
                other = next(c for c in ("AS", "AH", "AD", "QS", "QH") if c not in mine)
                card = game_pb2.Card(code=other)
                await screen._send([game_pb2.Action(pile=game_pb2.PileCardAction(card=card))])
                await pilot.pause()
                assert screen.message.startswith(expected), screen.message
                assert "seat" not in screen.message.lower().replace("seats", "")
                assert "card not held" not in screen.message
                assert expected.split(": ")[1] in screen_text(app)

    run(main(), timeout=60)
