"""The hint at every setup step, by keys against a real server: it ranks only what can
be chosen at the step the player is at (never a staged card, only the next
receiver), sends nothing (Esc can still take the staged pile card back), Enter
takes its best choice or says why not, Esc takes back one step, and a seat that
has sent its pile card while the others still choose gets a hint for its passes."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses

import pytest
from client_support import SIZE, local_server, quick_app, run, screen_text, table_screen, until
from cursedbottle.client.popups import HintScreen
from cursedbottle.v1 import game_pb2

PLAY = game_pb2.PHASE_PLAY


def _three() -> game_pb2.Rules:
    return game_pb2.Rules(players=3, hands=1)


@contextlib.asynccontextmanager
async def _at_the_setup(lang: str, seed: str, bot_delay: float = 0.0):
    """A three-player table by keys, once the seat is asked its pile card (or pass):
    (the app, its pilot, the table screen)."""
    async with local_server(bot_delay=bot_delay) as target:
        app = quick_app(target, _three(), lang=lang, seed=f"{seed}-{lang}")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: table_screen(app) is not None)
            screen = table_screen(app)
            await until(pilot, lambda: screen._step() in ("pile", "pass"), timeout=30)
            yield app, pilot, screen


async def _hint(pilot, app, screen):
    await pilot.press("h")
    await until(pilot, lambda: isinstance(app.screen, HintScreen), timeout=30)
    await until(pilot, lambda: screen.hint is not None and app.screen.ready, timeout=60)
    await pilot.pause()
    return screen.hint


def _passes(hint) -> tuple[set[int], set[str]]:
    kinds = {a.action.WhichOneof("kind") for a in hint.actions}
    assert kinds == {"pass_card"}, kinds
    return ({a.action.pass_card.to for a in hint.actions},
            {a.action.pass_card.card.code for a in hint.actions})


@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_pass_step_ranks_only_what_can_be_chosen_and_enter_takes_it(lang):
    async def main():
        async with _at_the_setup(lang, "hint-steps") as (app, pilot, screen):
            m, tr = screen.model, screen.tr
            if screen._step() == "pile":
                await pilot.press("right", "enter")
                await pilot.pause()
            plan = screen.plan
            first, second = plan.targets
            hint = await _hint(pilot, app, screen)
            assert tr("hint_title") in screen_text(app)
            to, cards = _passes(hint)
            assert to == {first[0]} and not cards & plan.codes()
            assert not plan.pile_sent and not m.my_pile  # the hint sent nothing
            best = hint.actions[0].action.pass_card.card.code
            await pilot.press("enter")  # take the best pass
            await until(pilot, lambda: app.screen is screen)
            assert [c.code for c in plan.passes] == [best]
            assert screen._step() == "pass" and not screen.message
            # the second pass: the other neighbour, neither staged card
            hint = await _hint(pilot, app, screen)
            to, cards = _passes(hint)
            assert to == {second[0]} and not cards & plan.codes()
            await pilot.press("enter")
            await until(pilot, lambda: screen._step() == "confirm")
            # Esc: back one step (the second pass), not the whole choice
            await pilot.press("escape")
            await pilot.pause()
            assert screen._step() == "pass" and [c.code for c in plan.passes] == [best]
            await pilot.press("right", "enter")
            await until(pilot, lambda: screen._step() == "confirm")
            await pilot.press("h")
            await pilot.pause()
            assert screen.message == tr("hint_later")
            await pilot.press("enter")
            await until(pilot, lambda: m.phase == PLAY, timeout=30)
            assert not screen.message, screen.message

    run(main(), timeout=90)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_enter_on_a_hint_of_an_earlier_step_says_so(lang):
    async def main():
        async with _at_the_setup(lang, "hint-stale") as (app, pilot, screen):
            await _hint(pilot, app, screen)
            await pilot.press("escape")  # close it
            await until(pilot, lambda: app.screen is screen)
            await pilot.press("right", "enter")  # a choice by hand: a new step
            await pilot.pause()
            assert screen.hint is None
            screen._hint_closed("play")  # Enter on the old list
            await pilot.pause()
            assert screen.message == screen.tr("hint_stale")
            assert screen.tr("hint_stale") in screen_text(app)

    run(main(), timeout=60)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_seat_that_sent_its_pile_card_gets_a_hint_for_its_pass(lang):
    """The LAN case: the pile card is sent, the others are still choosing theirs (the
    server does not ask this seat now), the screen asks for a pass: the hint ranks it
    rather than say "not your turn"."""

    async def main():
        async with _at_the_setup(lang, "hint-wait", bot_delay=4.0) as (app, pilot, screen):
            m = screen.model
            await until(pilot, lambda: screen._step() == "pile", timeout=30)
            for _ in range(3):
                await pilot.press("right", "enter")
                await pilot.pause()
            assert screen._step() == "confirm"
            await pilot.press("enter")  # the pile card goes; the passes wait
            await until(pilot, lambda: bool(screen.plan.pile_sent))
            await pilot.press("escape")  # take back the second pass
            await pilot.pause()
            assert screen._step() == "pass" and m.me not in m.to_act
            hint = await _hint(pilot, app, screen)
            to, cards = _passes(hint)
            assert to == {screen.plan.targets[1][0]}
            assert not cards & screen.plan.codes()
            assert screen.tr("hint_none") not in screen_text(app)
            await pilot.press("enter")
            await until(pilot, lambda: screen._step() == "confirm")
            await pilot.press("enter")
            await until(pilot, lambda: m.phase == PLAY, timeout=40)
            assert not screen.message, screen.message

    run(main(), timeout=90)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_enter_while_the_hint_thinks_says_so_and_waits(lang):
    async def main():
        async with _at_the_setup(lang, "hint-think") as (app, pilot, screen):
            asked = screen.session.hint
            go = asyncio.Event()

            async def slow_hint(*args, **kwargs):  # the server thinks until told
                await go.wait()
                return await asked(*args, **kwargs)

            screen.session.hint = slow_hint
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, HintScreen))
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, HintScreen) and not app.screen.ready
            assert screen.tr("hint_wait_enter") in screen_text(app)
            go.set()
            await until(pilot, lambda: app.screen.ready, timeout=30)
            await pilot.press("enter")  # now it takes the best choice
            await until(pilot, lambda: app.screen is screen)
            assert not screen.message or screen.message != screen.tr("hint_stale")

    run(main(), timeout=60)


@pytest.mark.parametrize("refused", [False, True], ids=["answer", "refusal"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_hint_that_comes_after_its_pop_up_was_closed_is_dropped(lang, refused):
    """h, then Esc while the server still thinks: its answer, or its refusal (here
    of a wrong token), finds the pop-up gone and is dropped; it used to draw into
    the gone pop-up, fail its worker and end the app.  The next h asks again."""

    async def main():
        async with _at_the_setup(lang, "hint-closed") as (app, pilot, screen):
            asked = screen.session.hint
            go = asyncio.Event()

            async def slow_hint(seat, *args, **kwargs):  # the server thinks until told
                await go.wait()
                if refused:
                    seat = dataclasses.replace(seat, token="not-a-token")
                return await asked(seat, *args, **kwargs)

            screen.session.hint = slow_hint
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, HintScreen))
            closed = app.screen
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is screen and not closed.query("#hinttext"))
            fetching = [w for w in app.workers if w.group == "hint"]
            assert fetching
            go.set()
            for worker in fetching:
                await worker.wait()
                assert worker.error is None
            await pilot.pause()
            assert app.is_running and app.screen is screen
            screen.session.hint = asked
            hint = await _hint(pilot, app, screen)
            assert hint.actions

    run(main(), timeout=90)
