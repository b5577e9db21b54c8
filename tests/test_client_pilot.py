"""The Textual client driven by keys against a real server on 127.0.0.1 with bots.

Every move goes through the keyboard (`pilot.press`); the tests read the
screen's state only to decide which key a person would press next.
"""

from __future__ import annotations

import re

import pytest
from client_support import (
    SIZE,
    Proxy,
    click,
    first_hand_over,
    local_server,
    new_table_form,
    play_by_keys,
    quick_app,
    run,
    screen_text,
    table_screen,
    until,
)
from cursedbottle.client.table import GameOverScreen, HandEndScreen, HintScreen
from cursedbottle.v1 import game_pb2


def _over(app):
    def done(screen) -> bool:
        return screen.model.game_ended is not None and isinstance(
            app.screen, HandEndScreen | GameOverScreen
        )

    return done


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (game_pb2.Rules(players=3, hands=1), {"pile": 1, "pass": 2, "confirm": 1, "play": 11}),
        (game_pb2.Rules(players=2, hands=1), {"pile": 0, "pass": 1, "confirm": 1, "play": 11}),
        (
            game_pb2.Rules(players=2, bright_house=True, hands=1),
            {"pile": 2, "pass": 2, "confirm": 2, "open": 1, "play": 16},
        ),
    ],
    ids=["3p", "2p-lopaka", "bright-house"],
)
def test_a_whole_hand_through_the_keyboard(rules, expected):
    async def main():
        async with local_server() as target:
            app = quick_app(target, rules)
            async with app.run_test(size=SIZE) as pilot:
                steps = await play_by_keys(pilot, app, first_hand_over(app))
                model = table_screen(app).model
                for step, count in expected.items():
                    assert steps.count(step) == count, (step, steps)
                assert len(model.hand_results) == 1
                assert all(cards == [] for _h, cards in model.my_hands())
                text = screen_text(app)
                assert "Hand 1 is over" in text, text
                # the pile is revealed at the end and every seat has a score and a reason
                result = model.hand_results[0]
                assert len(result.pile) == model.pile_size
                assert len(model.score_lines(result)) == len(model.seats())

    run(main())


def test_a_hint_is_shown_and_the_hinted_card_played():
    async def main():
        async with local_server() as target:
            app = quick_app(target, game_pb2.Rules(players=3, hands=1))
            async with app.run_test(size=SIZE) as pilot:
                screen_of = table_screen
                await play_by_keys(
                    pilot, app,
                    lambda s: s.model.tricks_played >= 1 and s._step() == "play",
                )
                screen = screen_of(app)
                played_before = len(screen.model.log)
                await pilot.press("h")
                await until(pilot, lambda: isinstance(app.screen, HintScreen))
                await until(pilot, lambda: screen.hint is not None, timeout=60)
                await pilot.pause()
                best = screen.hint.actions[0].action.play.card.code
                assert best
                # the ranked list: every legal card with its value and share
                assert len(screen.hint.actions) == len(screen.model.legal)
                hint_text = screen_text(app)
                assert "Hint (best first)" in hint_text, hint_text
                hand = screen.query_one("HandView")
                assert hand.hint_code == best
                assert hand.flat()[hand.cursor][1].code == best
                await pilot.press("enter")  # "Enter: play the best card"
                await until(
                    pilot,
                    lambda: any(p.seat == 0 and p.card.code == best for p in _played(screen)),
                )
                assert len(screen.model.log) >= played_before

    run(main())


def _played(screen):
    return screen.model.played


NONSENSE = ["x", "z", "f5", "tab", "escape", "9", "0", "s", "plus", "minus", "up", "down",
            "ctrl+x", "space", "backspace", "home", "end", "pageup"]


def test_keys_that_make_no_sense_do_nothing_harmful():
    async def main():
        async with local_server() as target:
            app = quick_app(target, game_pb2.Rules(players=3, hands=1))
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                await until(pilot, lambda: screen._step() == "pile")
                for key in NONSENSE:
                    await pilot.press(key)
                await pilot.pause(0.1)
                assert screen.model.my_pile == []  # nothing was sent
                assert screen._step() == "pile"
                assert app.screen is screen
                # mid-hand: an illegal card is refused by the server and nothing changes
                await play_by_keys(
                    pilot, app, lambda s: s.model.trick and s._step() == "play"
                )
                legal = screen.model.legal_codes()
                illegal = [
                    i for i, (_h, c) in enumerate(screen.query_one("HandView").flat())
                    if c.code not in legal
                ]
                if illegal:
                    held = len(screen.model.my_hands()[0][1])
                    screen.cursor = illegal[0]
                    await pilot.press("enter")
                    await until(pilot, lambda: bool(screen.message))
                    assert "Refused" in screen.message
                    assert len(screen.model.my_hands()[0][1]) == held
                for key in NONSENSE:
                    await pilot.press(key)
                await play_by_keys(pilot, app, _over(app))

    run(main())


def test_german_labels():
    async def main():
        async with local_server() as target:
            app = quick_app(target, game_pb2.Rules(players=3, hands=1), lang="de")
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                await until(pilot, lambda: screen._step() == "pile")
                await pilot.pause()
                text = screen_text(app)
                assert "Verfluchte Flasche" in text
                assert "Wähle die Karte für den Flaschenstapel" in text
                assert "Stapel" in text and "gesamt" in text
                await pilot.press("question_mark")
                await pilot.pause()
                assert "Ausführliche Regeln" in screen_text(app)
                await pilot.press("escape")
                await until(pilot, lambda: app.screen is screen)
                # The server sends each hint reason as data (`why`): said in German here.
                await pilot.press("h")
                await until(pilot, lambda: isinstance(app.screen, HintScreen), timeout=30)
                await until(pilot, lambda: screen.hint is not None, timeout=60)
                assert {a.why.kind for a in screen.hint.actions} == {"pile"}
                await until(pilot, lambda: "in den Stapel der Flasche" in screen_text(app))
                assert "into the bottle's pile" not in screen_text(app)
                # the English text stays on the wire for clients that know no `why`
                assert all("into the bottle's pile" in a.reason for a in screen.hint.actions)

    run(main())


def test_lang_de_reaches_the_app_from_the_command_line(monkeypatch):
    """`cursed-bottle play --lang de` starts a local server and a German client."""
    from cursedbottle.cli.main import main
    from cursedbottle.client import CursedBottleApp

    seen = {}

    def fake_run(self):
        seen["lang"] = self.tr.lang
        seen["target"] = self.target
        seen["rules"] = self.quick.rules

    monkeypatch.setattr(CursedBottleApp, "run", fake_run)
    assert main(["play", "--lang", "de", "--players", "4", "--game-hands", "2"]) == 0
    assert seen["lang"] == "de"
    assert seen["target"].startswith("127.0.0.1:")
    assert seen["rules"].players == 4 and seen["rules"].hands == 2


def test_watching_a_bots_only_table_at_an_adjustable_speed():
    async def main():
        async with local_server() as target:
            app = quick_app(target, game_pb2.Rules(players=3, hands=1), bots="random")
            app.quick.watch = True
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                assert screen.model.me is None
                await until(pilot, lambda: screen.model.tricks_played >= 1)
                assert "Watching" in screen_text(app)
                assert screen.speed == 0.5
                await pilot.press("plus")
                await pilot.press("plus")
                assert screen.speed == 0.0
                assert "instant" in screen_text(app)
                await pilot.press("minus")
                assert screen.speed == 0.25
                await pilot.press("plus")
                await until(pilot, lambda: screen.model.game_ended is not None)
                # a spectator sees played cards, never a hidden hand
                assert all(seat == screen.model.lopaka for seat, _h in screen.model.holdings)

    run(main())


def test_a_dropped_connection_shows_a_banner_and_the_seat_resumes():
    async def main():
        async with local_server() as upstream:
            proxy = Proxy(upstream)
            target = await proxy.start()
            app = quick_app(target, game_pb2.Rules(players=3, hands=1))
            async with app.run_test(size=SIZE) as pilot:
                await play_by_keys(
                    pilot, app, lambda s: s.model.tricks_played >= 2 and s._step() == "play"
                )
                screen = table_screen(app)
                proxy.cut()
                await until(pilot, lambda: screen.reconnecting)
                await pilot.pause()
                assert "Connection lost, reconnecting" in screen_text(app)
                proxy.refusing = False
                await until(pilot, lambda: not screen.reconnecting, timeout=60)
                # the banner goes with the next refresh, which a loaded machine delays
                await until(pilot, lambda: "Connection lost" not in screen_text(app))
                await play_by_keys(pilot, app, first_hand_over(app))
                # every event once: 11 tricks logged, the hand ends with an empty hand
                model = screen.model
                won = [line for line in model.log if re.search(r"\bwins? trick \d+", line)]
                assert len(won) == 11
                # addressed as it should be: "You win trick 3", never "You wins"
                assert not any(line.startswith("You wins") for line in model.log)
                assert model.my_hands()[0][1] == []
                assert model.hand_results[0].number == 1 and len(model.hand_results) == 1
            await proxy.close()

    run(main())


def test_lobby_new_table_and_a_card_played_with_the_mouse():
    from cursedbottle.client import CursedBottleApp
    from cursedbottle.client.widgets import HandView

    async def main():
        async with local_server() as target:
            app = CursedBottleApp(target, name="Ann", hint_budget_ms=200)
            async with app.run_test(size=SIZE) as pilot:
                await new_table_form(pilot, app)
                app.screen.query_one("#value").value = "1"
                app.screen.query_one("#end").value = "hands"
                app.screen.query_one("#bots").value = "rule"
                await click(pilot, "#ok")
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                assert screen.seat.host_token
                await play_by_keys(pilot, app, lambda s: s._step() == "play")
                hand = screen.query_one(HandView)
                legal = screen.model.legal_codes()
                y, x0, _x1, index = next(
                    span for span in hand._spans if hand.flat()[span[3]][1].code in legal
                )
                code = hand.flat()[index][1].code
                offset = (x0 + 2 + 1, y + 1)  # padding and the border above the cards
                await pilot.click(HandView, offset=offset)
                assert screen.cursor == index
                await pilot.click(HandView, offset=offset)  # a second click plays it
                await until(pilot, lambda: any(
                    p.seat == screen.model.me and p.card.code == code for p in _played(screen)
                ))

    run(main())


def test_a_hint_while_passing_ranks_the_passes_and_keeps_the_pile_card_unsent():
    async def main():
        async with local_server() as target:
            app = quick_app(target, game_pb2.Rules(players=3, hands=1))
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                await until(pilot, lambda: screen._step() == "pile")
                await pilot.press("right", "enter")  # the pile card
                assert screen._step() == "pass"
                await pilot.press("h")
                await until(pilot, lambda: isinstance(app.screen, HintScreen), timeout=30)
                await until(pilot, lambda: screen.hint is not None, timeout=60)
                kinds = {a.action.WhichOneof("kind") for a in screen.hint.actions}
                assert kinds == {"pass_card"}
                # the pile card stays staged (Esc can take it back); the hint knows it
                assert not screen.model.my_pile and not screen.plan.pile_sent
                assert screen.plan.pile[0].code not in {
                    a.action.pass_card.card.code for a in screen.hint.actions}
                best = screen.hint.actions[0].action.pass_card.card.code
                await pilot.press("enter")  # stage the best card for the first pass
                await pilot.pause()
                assert screen.plan.passes[0].code == best
                await play_by_keys(pilot, app, lambda s: len(s.model.passes_given) == 2)
                assert best in {c.code for c in screen.model.passes_given.values()}
                await play_by_keys(pilot, app, _over(app))

    run(main())


def test_quitting_a_lan_game_gives_the_seat_up():
    import grpc
    from cursedbottle.client import CursedBottleApp
    from cursedbottle.client.app import LobbyScreen, QuitScreen
    from cursedbottle.client.net import CLIENT_OPTIONS
    from cursedbottle.v1 import table_pb2, table_pb2_grpc

    async def main():
        async with local_server() as target:
            channel = grpc.aio.insecure_channel(target, options=CLIENT_OPTIONS)
            stub = table_pb2_grpc.CursedBottleStub(channel)
            made = await stub.CreateTable(table_pb2.CreateTableRequest(
                name="LAN", rules=game_pb2.Rules(players=3, hands=1)))
            table_id = made.table.table_id
            for seat in (1, 2):
                await stub.AddBot(table_pb2.AddBotRequest(
                    table_id=table_id, token=made.host_token, seat=seat, bot="rule"))
            app = CursedBottleApp(target, name="Ann", table_id=table_id, leave_on_quit=True)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=made.host_token))
                await until(pilot, lambda: table_screen(app)._step() == "pile")
                info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
                assert info.seats[0].kind == table_pb2.SEAT_KIND_HUMAN
                await pilot.press("q")  # the question; Esc stays at the table
                await until(pilot, lambda: isinstance(app.screen, QuitScreen))
                assert "give my seat up" in screen_text(app)
                await pilot.press("escape")
                await until(pilot, lambda: table_screen(app) is app.screen)
                await pilot.press("q")
                await until(pilot, lambda: isinstance(app.screen, QuitScreen))
                await pilot.press("l")
                # the seat is given up before the lobby shows
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
            assert info.seats[0].kind == table_pb2.SEAT_KIND_EMPTY
            await channel.close()

    run(main())

