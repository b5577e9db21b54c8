"""Following the game, in English and German, driven by keys against a real server:
the last trick beside the current one, every trick on `l`, each card's points on the
card and the point table first in `?`, unplayable cards struck through and refused in
the client in a player's words, a prompt whose cue never hides and whose messages go,
Enter out of turn naming whose move the table waits for,
the final standings with what comes next, `q` asking first, keys for all twelve cards."""

from __future__ import annotations

import re

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
from cursedbottle.client import cue
from cursedbottle.client.cards import points_mark
from cursedbottle.client.popups import AskQuitScreen, GameOverScreen, RulesScreen, TricksScreen
from cursedbottle.client.table import HandEndScreen
from cursedbottle.v1 import game_pb2

LANGS = ("en", "de")
CURSED = game_pb2.Rules(players=3, hands=1)
IMP = game_pb2.Rules(players=3, hands=1, game=game_pb2.GAME_BOTTLE_IMP)
WORDS = {
    "en": {"last": "Last trick", "short": "In short", "full": "Full rules", "point": "1 point:",
           "coin": "1 coin:", "follow": "You must follow suit: {suit} were led and you hold",
           "follow_imp": "You must follow the colour: {suit} was led and you hold",
           "standings": "Final standings", "again": "n: play again", "quit": "Quit this game?",
           "over_cue": "Enter: the final standings"},
    "de": {"last": "Letzter Stich", "short": "Kurz gefasst", "full": "Ausführliche Regeln",
           "point": "1 Punkt:", "coin": "1 Münze:",
           "follow": "Du musst Farbe bedienen: {suit} wurde ausgespielt, und du hast",
           "follow_imp": "Du musst Farbe bedienen: {suit} wurde ausgespielt, und du hast",
           "standings": "Endstand", "again": "n: noch einmal", "quit": "Dieses Spiel beenden?",
           "over_cue": "Enter: der Endstand"},
}


def _trick_and_my_turn(tricks: int):
    def done(screen) -> bool:
        return screen.model.tricks_played >= tricks and screen._step() == "play"

    return done


async def _at_the_pile(pilot, app):
    """The table screen once the seat is asked for its pile card."""
    await until(pilot, lambda: table_screen(app) is not None)
    screen = table_screen(app)
    await until(pilot, lambda: screen._step() == "pile")
    return screen


def _following(screen) -> bool:
    """My turn to play with a card the rules rule out (the server says which)."""
    return screen._step() == "play" and bool(screen.model.play_limits)


@pytest.mark.parametrize("lang", LANGS)
def test_the_last_trick_stays_beside_the_current_one_and_l_shows_every_trick(lang):
    async def main():
        async with local_server() as target:
            app = quick_app(target, CURSED, lang=lang)
            async with app.run_test(size=SIZE) as pilot:
                await play_by_keys(pilot, app, _trick_and_my_turn(2))
                screen = table_screen(app)
                await pilot.pause()
                m, tr = screen.model, screen.model.tr
                last = m.previous_trick()
                text = screen_text(app)
                assert f"{WORDS[lang]['last']} ({last.number})" in text
                for p in last.cards:  # each card beside its player, with its points
                    assert tr.card(p.card) + points_mark(p.card) in text
                # the log lists each trick's cards in play order beside their players
                cards = ", ".join(f"{m.name(p.seat)} {tr.card(p.card)}" for p in last.cards)
                assert "  " + cards in m.log
                # the current trick: its cards in play order, then who is to play
                lines = [ln for ln in text.splitlines() if "▶ " + m.name(m.me) in ln]
                assert lines, text
                await pilot.press("l")
                await until(pilot, lambda: isinstance(app.screen, TricksScreen))
                await pilot.pause()
                shown = screen_text(app)
                for t in m.tricks:
                    assert " · ".join(f"{m.name(p.seat)} {tr.card(p.card)}{points_mark(p.card)}"
                                      for p in t.cards) in shown
                await pilot.press("escape")
                await until(pilot, lambda: app.screen is screen)

    run(main())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules", [CURSED, IMP], ids=["cursed", "imp"])
def test_card_values_on_the_cards_and_the_summary_first_in_the_rules(lang, rules):
    async def main():
        async with local_server() as target:
            app = quick_app(target, rules, lang=lang)
            async with app.run_test(size=SIZE) as pilot:
                screen = await _at_the_pile(pilot, app)
                await pilot.pause()
                tr = screen.model.tr
                hand = screen.query_one("HandView")
                cards = screen.model.my_hands()[0][1]
                assert all(c.points > 0 for c in cards)  # the server gives every card's
                assert "v: " in str(hand.border_title)  # how to see them
                await pilot.press("v")  # under each card, its points
                await pilot.pause()
                lines = hand.render().plain.splitlines()
                assert lines[1].split() == [tr.card(c) for c in cards]
                assert lines[2].split() == [points_mark(c) for c in cards]
                unit = "coins" if rules.game == game_pb2.GAME_BOTTLE_IMP else "points"
                assert tr(f"f_values_{unit}") in str(hand.border_title)
                await pilot.press("v")
                await pilot.pause()
                assert len(hand.render().plain.splitlines()) == 2
                await pilot.press("question_mark")
                await until(pilot, lambda: isinstance(app.screen, RulesScreen))
                await pilot.pause()
                top = screen_text(app)
                words = WORDS[lang]
                assert words["short"] in top and words["full"] in top
                assert top.index(words["short"]) < top.rindex(words["full"])
                unit = words["coin"] if rules.game == game_pb2.GAME_BOTTLE_IMP else words["point"]
                assert unit in top  # the point table, from the server's deck
                assert "Esc" in top  # how to close it
                await pilot.press("escape")
                await until(pilot, lambda: app.screen is screen)

    run(main())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules", [CURSED, IMP], ids=["cursed", "imp"])
def test_an_unplayable_card_is_struck_and_refused_in_the_players_words(lang, rules):
    async def main():
        async with local_server() as target:
            seed = "follow" if rules is CURSED else "follow-imp"  # a hand that must follow
            app = quick_app(target, rules, lang=lang, seed=seed)
            async with app.run_test(size=SIZE) as pilot:
                await play_by_keys(pilot, app, _following)
                screen = table_screen(app)
                m, tr = screen.model, screen.model.tr
                limit = m.play_limits[0]
                hand = screen.query_one("HandView")
                flat = hand.flat()
                blocked = next(i for i, (_h, c) in enumerate(flat)
                               if c.code in {b.code for b in limit.blocked})
                assert "strike" in hand._style(hand.rows[0], flat[blocked][1], blocked)
                held = len(m.my_hands()[0][1])
                sent = m.acted_at
                screen.cursor = blocked
                await pilot.press("enter")
                suit = tr.suit(limit.suit)
                imp = rules.game == game_pb2.GAME_BOTTLE_IMP
                want = WORDS[lang]["follow_imp" if imp else "follow"].format(
                    suit=suit if lang == "en" else suit.title())
                assert want + " " + tr.cards(limit.cards) in screen.message
                assert m.acted_at == sent and len(m.my_hands()[0][1]) == held  # nothing sent
                await pilot.pause()
                # the refusal and, under it, what to do now
                assert screen.said[0].startswith(screen.message)
                assert tr("your_turn_play") in screen.said[2]

    run(main())


@pytest.mark.parametrize("lang", LANGS)
def test_while_others_are_to_move_the_prompt_waits_and_enter_says_for_whom(lang):
    """"Sent" only while the seat's own choices are pending; later, while others play,
    plain waiting; Enter out of turn names whose move the table waits for, sends
    nothing, and goes once it is the seat's turn."""

    async def main():
        async with local_server(bot_delay=0.6) as target:
            app = quick_app(target, CURSED, lang=lang)
            async with app.run_test(size=SIZE) as pilot:
                screen = await _at_the_pile(pilot, app)
                m, tr = screen.model, screen.model.tr
                await play_by_keys(pilot, app, lambda s: s._step() == "wait")
                assert m.phase in (game_pb2.PHASE_PILE, game_pb2.PHASE_PASS)
                assert screen.said[0] == tr("sent")
                others = [tr("err_not_your_turn")]  # the bots may have passed already
                if set(m.to_act) - {m.me}:
                    names = tr.joined([m.name(s) for s in m.to_act if s != m.me])
                    others.append(tr("not_your_turn_wait", names=names))
                # (What Enter says is read as it is said: the bots' next move may come
                # before the assert, and a refusal about an earlier moment then goes.)
                said: list[str] = []
                screen.watch(screen, "message", lambda text: said.append(text), init=False)
                await pilot.press("enter")
                assert said and said[0] in others, said

                def others_to_play(s) -> bool:
                    return (m.phase == game_pb2.PHASE_PLAY and s._step() == "wait"
                            and bool(m.to_act) and m.me not in m.to_act)

                await play_by_keys(pilot, app, others_to_play)
                assert screen.said[0] == tr("waiting")  # nothing of ours is pending
                turn = m.to_act[0]
                mine = sum(1 for p in m.played if p.seat == m.me)
                await pilot.press("enter")
                assert screen.message == tr("err_not_your_turn_turn", turn=m.name(turn))
                assert screen.said[0].startswith(screen.message)
                await until(pilot, lambda: screen._step() == "play")
                assert not screen.message  # nothing was sent out of turn
                assert sum(1 for p in m.played if p.seat == m.me) == mine
                assert screen.said[0] == tr("your_turn_play")

    run(main())


@pytest.mark.parametrize("lang", LANGS)
def test_messages_go_when_no_longer_true_or_after_a_few_seconds(lang, monkeypatch):
    monkeypatch.setattr(cue, "MESSAGE_SECONDS", 0.5)

    async def main():
        async with local_server() as target:
            app = quick_app(target, CURSED, lang=lang)
            async with app.run_test(size=SIZE) as pilot:
                screen = await _at_the_pile(pilot, app)
                tr = screen.model.tr
                # a note (a resumed seat) does not hide the cue, and goes by itself
                screen.note = tr("resumed", seat=1)
                await pilot.pause()
                assert screen.said[0].startswith(screen.note)
                assert tr("your_turn_pile") in screen.said[2]
                await until(pilot, lambda: not screen.note, timeout=5)
                assert screen.said[0] == tr("your_turn_pile")
                # Enter before any card is chosen says how to choose one, and sends nothing
                screen.cursor = None
                await pilot.press("enter")
                assert screen.message == tr("no_card_chosen")
                assert screen._step() == "pile" and not screen.plan.pile
                # a refusal goes once the step it was about has moved on
                screen.message = tr("refused", msg="seat(s) 2 empty")
                await pilot.press("right", "enter")
                await until(pilot, lambda: screen._step() != "pile")
                assert not screen.message
                # an error of an outage goes when the link is back
                screen.message = tr("refused", msg="Cannot reach the server")
                screen.reconnecting = False
                from cursedbottle.client.stream import Back

                async def once(*_a, **_k):
                    yield Back()

                monkeypatch.setattr("cursedbottle.client.table.resume", once)
                screen.follow()
                await until(pilot, lambda: not screen.message, timeout=5)
                assert tr("reconnected") in screen.model.log

    run(main())


@pytest.mark.parametrize("lang", LANGS)
def test_the_end_shows_the_standings_then_play_again_or_the_lobby(lang):
    async def main():
        async with local_server() as target:
            app = quick_app(target, CURSED, lang=lang)
            called: list[str] = []
            app.play_again = lambda: called.append("again")
            app.back_to_lobby = lambda: called.append("lobby")
            async with app.run_test(size=SIZE) as pilot:
                await play_by_keys(pilot, app, lambda s: s.model.game_ended is not None
                                   and isinstance(app.screen, GameOverScreen | HandEndScreen))
                screen = table_screen(app)
                if isinstance(app.screen, HandEndScreen):
                    await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
                await pilot.pause()
                text = screen_text(app)
                words = WORDS[lang]
                assert words["standings"] in text and words["again"] in text
                winner = screen.model.side_name(screen.model.game_ended.winner)
                assert re.search(rf"1\.\s+{re.escape(winner)}", text), text  # first
                await pilot.press("enter")  # a look at the table; the cue says how back
                await until(pilot, lambda: app.screen is screen)
                assert words["over_cue"] in screen.said[0]
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
                await pilot.press("l")
                await until(pilot, lambda: called == ["lobby"])
                await until(pilot, lambda: app.screen is screen)
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
                await pilot.press("n")
                await until(pilot, lambda: called == ["lobby", "again"])

    run(main())


@pytest.mark.parametrize("lang", LANGS)
def test_q_asks_before_leaving_a_game_in_progress(lang):
    async def main():
        async with local_server() as target:
            app = quick_app(target, CURSED, lang=lang)
            async with app.run_test(size=SIZE) as pilot:
                screen = await _at_the_pile(pilot, app)
                await pilot.press("q")
                await until(pilot, lambda: isinstance(app.screen, AskQuitScreen))
                assert WORDS[lang]["quit"] in screen_text(app)
                await pilot.press("n")
                await until(pilot, lambda: app.screen is screen)
                assert app.is_running
                await pilot.press("q")
                await until(pilot, lambda: isinstance(app.screen, AskQuitScreen))
                await pilot.press("y" if lang == "en" else "j")
                await until(pilot, lambda: app.return_code is not None or not app.is_running)

    run(main())


@pytest.mark.parametrize("lang", LANGS)
def test_number_keys_reach_all_twelve_cards(lang):
    async def main():
        async with local_server() as target:
            app = quick_app(target, CURSED, lang=lang)
            async with app.run_test(size=SIZE) as pilot:
                screen = await _at_the_pile(pilot, app)
                await pilot.pause()
                assert len(screen.model.my_hands()[0][1]) == 12
                text = screen_text(app)
                numbers = next(ln for ln in text.splitlines() if ln.split()[:3] == ["1", "2", "3"])
                assert numbers.split() == list("1234567890-=")
                assert "1–9 0 - =" in text  # the keys line says the scheme
                for key, index in (("0", 9), ("minus", 10), ("equals_sign", 11), ("1", 0)):
                    await pilot.press(key)
                    await pilot.pause()
                    assert screen.cursor == index, key

    run(main())


@pytest.mark.parametrize(("lang", "want"), [
    ("en", "You must follow the colour: yellow was led and your hand 2, which 30B is in, holds "
           "3Y 17Y (each hand follows on its own)."),
    ("de", "Du musst Farbe bedienen: Gelb wurde ausgespielt, und deine Hand 2, in der 30B "
           "liegt, hat 3G 17G (jede Hand bedient für sich)."),
])
def test_devils_eye_says_which_hand_must_follow(lang, want):
    """Devil's Eye: each hand follows on its own, and the words say which hand holds the suit."""
    from cursedbottle.client.i18n import Tr
    from cursedbottle.client.model import TableModel
    from cursedbottle.client.prompt import refusal_text

    def card(code, suit):
        return game_pb2.Card(code=code, rank=code[:-1], suit=suit)

    model = TableModel(0, Tr(lang))
    model.tr.use_rules(game_pb2.Rules(game=game_pb2.GAME_BOTTLE_IMP, players=2))
    limit = game_pb2.PlayLimit(rule=game_pb2.PLAY_RULE_FOLLOW_SUIT, suit=game_pb2.SUIT_YELLOW,
                               cards=[card("3Y", game_pb2.SUIT_YELLOW),
                                      card("17Y", game_pb2.SUIT_YELLOW)],
                               blocked=[card("30B", game_pb2.SUIT_BLUE)], hand=1)
    assert refusal_text(model, limit, card("30B", game_pb2.SUIT_BLUE)) == want


@pytest.mark.parametrize("lang", LANGS)
def test_a_large_terminal_shows_the_points_on_the_cards_and_every_key(lang):
    async def main():
        async with local_server() as target:
            app = quick_app(target, CURSED, lang=lang)
            async with app.run_test(size=(120, 40)) as pilot:
                await play_by_keys(pilot, app, _trick_and_my_turn(1))
                screen = table_screen(app)
                await pilot.pause()
                m, tr = screen.model, screen.model.tr
                lines = screen.query_one("HandView").render().plain.splitlines()
                edges = [e.strip("└┘─") for e in lines[3].split()]  # the boxes' bottom edges
                assert edges == [points_mark(c) for c in m.my_hands()[0][1]]
                keys = screen.keys[0]
                for shown in ("1–9 0 - =", "l ", "v ", "t "):
                    assert shown in keys, keys
                assert tr("f_last_all") in screen_text(app)

    run(main())
