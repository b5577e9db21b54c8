"""The tutor (ask before a poor card) and saved seats, through the Textual Pilot against
a real gRPC server on 127.0.0.1.

The tutor's position is found with the server's own Hint: a turn where the worst
legal card is worse than the best by clearly more than the threshold.
"""

from __future__ import annotations

import asyncio
import os
import stat

import grpc
import pytest
from client_support import (
    SIZE,
    local_server,
    play_by_keys,
    quick_app,
    run,
    screen_text,
    table_screen,
    until,
)
from cursedbottle.client import CursedBottleApp, QuickGame
from cursedbottle.client.app import LobbyScreen, QuitScreen
from cursedbottle.client.net import CLIENT_OPTIONS, Session
from cursedbottle.client.popups.game_over import AskQuitScreen
from cursedbottle.client.store import SeatStore
from cursedbottle.client.table import TutorScreen, tutor_loss
from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc
from textual.worker import WorkerState

THRESHOLD = 2.0
#: The hint samples guessed deals for a fixed time, so its values move a little from
#: one call to the next: the test's position is clearly past the threshold.
MARGIN = 3.0



def _mine(screen) -> list[str]:
    return [c.code for _h, cards in screen.model.my_hands() for c in cards]


def _my_plays(screen) -> int:
    return sum(1 for p in screen.model.played if p.seat == screen.model.me)


async def _cursor_to(pilot, screen, code: str) -> None:
    for _ in range(20):
        flat = screen._flat()
        if screen.cursor is not None and flat[screen.cursor][1].code == code:
            return
        await pilot.press("right")
    raise AssertionError(f"the cursor never reached {code}")


def _values(hint: table_pb2.HintResponse) -> dict[str, float]:
    return {a.action.play.card.code: a.expected_value for a in hint.actions
            if a.HasField("expected_value")}


def test_the_tutor_asks_before_a_poor_card_and_not_before_the_best():
    async def main():
        async with local_server() as target:
            quick = QuickGame(game_pb2.Rules(players=3, hands=1), bots="rule", name="Ann",
                              seed="tutor")
            app = CursedBottleApp(target, name="Ann", quick=quick, hint_budget_ms=200,
                                  tutor_threshold=THRESHOLD, remember_seats=False)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                assert not screen.tutor  # off by default
                # play (tutor off) up to a turn where a card loses clearly more than the
                # threshold, by the server's own hint
                for _ in range(11):
                    await play_by_keys(pilot, app, lambda s: s._step() == "play")
                    values = _values(await app.session.hint(screen.seat, 200))
                    if values and max(values.values()) - min(values.values()) > (
                        THRESHOLD + MARGIN
                    ):
                        break
                    plays = _my_plays(screen)
                    await pilot.press("right", "enter")
                    await until(pilot, lambda plays=plays: _my_plays(screen) > plays)
                else:
                    raise AssertionError("no turn with a poor card in this hand")
                worst = min(values, key=values.get)

                await pilot.press("t")  # the tutor on, as the key line says
                assert screen.tutor
                assert "t tutor on" in screen_text(app)
                held, plays, seq = _mine(screen), _my_plays(screen), screen.model.next_seq

                await _cursor_to(pilot, screen, worst)
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, TutorScreen), timeout=30)
                await pilot.pause()
                text = screen_text(app)
                assert "Are you sure?" in text and "y: play it anyway" in text, text
                # the tutor's own hint rates the card past the threshold; nothing was sent
                worst_action = screen.model.find_action("play", worst)
                assert tutor_loss(screen.hint, worst_action) > THRESHOLD
                assert _mine(screen) == held and _my_plays(screen) == plays
                assert screen.model.next_seq == seq

                await pilot.press("n")  # choose again
                await until(pilot, lambda: app.screen is screen)
                await pilot.pause(0.2)
                assert screen._step() == "play" and screen.model.my_turn()
                assert _mine(screen) == held and _my_plays(screen) == plays

                best = max(_values(screen.hint), key=_values(screen.hint).get)
                await _cursor_to(pilot, screen, best)
                await pilot.press("enter")
                prompted = False
                while _my_plays(screen) == plays:
                    prompted |= isinstance(app.screen, TutorScreen)
                    await pilot.pause(0.02)
                assert not prompted
                assert any(p.seat == screen.model.me and p.card.code == best
                           for p in screen.model.played)

                await pilot.press("t")
                assert not screen.tutor and "t tutor off" in screen_text(app)

    run(main())


def test_the_tutor_flags_reach_the_app_from_the_command_line(monkeypatch):
    from cursedbottle.cli.main import main

    seen = {}

    def fake_run(self):
        seen.update(tutor=self.tutor, threshold=self.tutor_threshold, seats=self.seats)

    monkeypatch.setattr(CursedBottleApp, "run", fake_run)
    monkeypatch.setattr("cursedbottle.cli.join.reach", lambda *a: None)  # no server here
    assert main(["play", "--tutor", "--tutor-threshold", "3.5", "--game-hands", "1"]) == 0
    assert seen == {"tutor": True, "threshold": 3.5, "seats": None}
    assert main(["join", "127.0.0.1:1", "--name", "Ann"]) == 0
    assert seen["tutor"] is False and seen["threshold"] == 2.0 and seen["seats"] is not None
    assert main(["join", "127.0.0.1:1", "--tutor"]) == 0 and seen["tutor"] is True
    assert main(["join", "127.0.0.1:1", "--tutor-threshold", "-1"]) == 2


# ------------------------------------------------------------------- saved seats


async def _lan_table(stub) -> tuple[str, str]:
    made = await stub.CreateTable(table_pb2.CreateTableRequest(
        name="LAN", rules=game_pb2.Rules(players=3, hands=1), seed="seats"))
    for seat in (1, 2):
        await stub.AddBot(table_pb2.AddBotRequest(
            table_id=made.table.table_id, token=made.host_token, seat=seat, bot="rule"))
    return made.table.table_id, made.host_token


def test_a_saved_seat_is_resumed_without_a_new_join(monkeypatch):
    joins = []
    real_join = Session.join

    async def counting_join(self, *args, **kw):
        joins.append(args)
        return await real_join(self, *args, **kw)

    monkeypatch.setattr(Session, "join", counting_join)

    async def main():
        async with local_server() as target:
            channel = grpc.aio.insecure_channel(target, options=CLIENT_OPTIONS)
            stub = table_pb2_grpc.CursedBottleStub(channel)
            table_id, host = await _lan_table(stub)
            store = SeatStore()
            assert store.path.is_relative_to(os.environ["XDG_STATE_HOME"])

            # as `join` runs it: quitting asks, and k keeps the seat
            app = CursedBottleApp(target, name="Ann", table_id=table_id, leave_on_quit=True)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                first = table_screen(app).seat
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
                await until(pilot, lambda: table_screen(app)._step() == "pile")
                held = _mine(table_screen(app))
                await pilot.press("q")
                await until(pilot, lambda: isinstance(app.screen, QuitScreen))
                await pilot.press("k")
            assert len(joins) == 1
            saved = store.get(target, table_id, "Ann")
            assert (saved.seat, saved.token) == (first.seat, first.token)
            assert stat.S_IMODE(store.path.stat().st_mode) == 0o600

            # a new app on the same table: the same seat, its cards, no Join
            app = CursedBottleApp(target, name="Ann", table_id=table_id)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                assert screen.seat.seat == first.seat and screen.seat.token == first.token
                await until(pilot, lambda: _mine(screen) == held and screen._step() == "pile")
                assert "Resumed your seat" in screen_text(app)
            assert len(joins) == 1
            info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
            assert [s.kind for s in info.seats].count(table_pb2.SEAT_KIND_HUMAN) == 1

            # the lobby marks the table; Enter resumes it there too
            app = CursedBottleApp(target, name="Ann")
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                await until(pilot, lambda: "★ LAN" in screen_text(app))
                await pilot.press("enter")
                await until(pilot, lambda: table_screen(app) is not None)
                assert table_screen(app).seat.token == first.token
            assert len(joins) == 1

            # the seat is Ann's: Bob, with the same state directory, holds none there
            app = CursedBottleApp(target, name="Bob")
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: "LAN" in screen_text(app))
                assert "★" not in screen_text(app)

            # a token the server no longer takes is dropped and the client joins anew
            await stub.Leave(table_pb2.LeaveRequest(table_id=table_id, token=first.token))
            app = CursedBottleApp(target, name="Ann", table_id=table_id)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                assert screen.seat.token != first.token and not screen.seat.resumed
                # Joined anew mid-hand: the seat is Ann's from the next hand (a bot
                # plays this one out, docs/protocol.md), and none of its cards show.
                await until(pilot, lambda: screen.model.info is not None
                            and screen.model.info.seats[screen.seat.seat].from_hand == 2)
                assert not _mine(screen)
            assert len(joins) == 2
            assert store.get(target, table_id, "Ann").token == screen.seat.token
            await channel.close()

    run(main())


@pytest.mark.parametrize("lang", ["en", "de"])
def test_q_while_the_tutor_thinks_drops_the_card(lang):
    """Enter with the tutor on, then q before its hint comes: the card is not sent,
    and no "are you sure?" comes up over the question of quitting.  Staying, the
    player is told the card was not played and chooses again."""

    async def main():
        async with local_server() as target:
            app = quick_app(target, game_pb2.Rules(players=3, hands=1), lang=lang,
                            seed=f"tutor-q-{lang}")
            async with app.run_test(size=SIZE) as pilot:
                await play_by_keys(
                    pilot, app, lambda s: s._step() == "play" and len(s.model.legal) > 1
                )
                screen = table_screen(app)
                await pilot.press("t")
                asked, go = screen.session.hint, asyncio.Event()

                async def slow_hint(*args, **kwargs):  # the server thinks until told
                    await go.wait()
                    return await asked(*args, **kwargs)

                screen.session.hint = slow_hint
                held, plays, seq = _mine(screen), _my_plays(screen), screen.model.next_seq
                await pilot.press("right", "enter")
                await until(pilot, lambda: screen._tutoring is not None)
                weighing = [w for w in app.workers if w.group == "tutor"]
                assert weighing
                await pilot.press("q")
                await until(pilot, lambda: isinstance(app.screen, AskQuitScreen))
                go.set()
                await until(pilot, lambda: all(w.is_finished for w in weighing))
                await pilot.pause(0.3)
                assert isinstance(app.screen, AskQuitScreen), app.screen_stack
                assert [w.state for w in weighing] == [WorkerState.CANCELLED] * len(weighing)
                assert app.is_running
                assert _mine(screen) == held and _my_plays(screen) == plays
                assert screen.model.next_seq == seq, "nothing was sent"

                await pilot.press("n")  # stay
                await until(pilot, lambda: app.screen is screen)
                said = {"en": "was not played", "de": "wurde nicht gespielt"}[lang]
                assert said in screen_text(app)
                screen.session.hint = asked
                await pilot.press("enter")  # the same card again: the tutor weighs it now
                await until(
                    pilot,
                    lambda: isinstance(app.screen, TutorScreen) or _my_plays(screen) > plays,
                    timeout=60,
                )

    run(main(), timeout=120)
