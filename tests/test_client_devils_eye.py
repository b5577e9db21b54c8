"""The Textual client at a Devil's Eye table (the Bottle Imp for two), against a real
server on 127.0.0.1 and one bot.

Each player holds two hands: from the second it lays two cards into the pile and
passes one card to each of the opponent's hands; the first hands are then laid open
and every card may come from either hand.  Every move goes through the keyboard.
"""

from __future__ import annotations

from client_support import (
    SIZE,
    create_and_list,
    first_hand_over,
    local_server,
    model_of,
    new_table_form,
    play_by_keys,
    quick_app,
    run,
    screen_text,
    scripted_table,
    table_screen,
    until,
)
from cursedbottle.client.table import TableScreen
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.v1 import game_pb2

IMP = game_pb2.GAME_BOTTLE_IMP
PLAY, PASS = game_pb2.PHASE_PLAY, game_pb2.PHASE_PASS


def _devils_eye(hands: int = 1) -> game_pb2.Rules:
    return game_pb2.Rules(players=2, hands=hands, game=IMP)


def _cursor_card(screen: TableScreen) -> tuple[int, game_pb2.Card] | None:
    flat = screen._flat()
    return flat[screen.cursor] if screen.cursor is not None else None


async def _choose(pilot, screen: TableScreen, want_hand: int | None = None) -> int:
    """Move the cursor with → as a person would, to a card of `want_hand` when one may
    be chosen there (else to any that may), press Enter; the hand the card was in."""
    selectable = screen._selectable_codes()
    in_hand = [c.code for h, c in screen._flat() if h == want_hand and c.code in selectable]
    for _ in range(len(screen._flat()) + 1):
        await pilot.press("right")
        picked = _cursor_card(screen)
        if picked is not None and (not in_hand or picked[0] == want_hand):
            break
    hand, _card = _cursor_card(screen)
    await pilot.press("enter")
    return hand


async def _set_up(pilot, app, screen: TableScreen) -> tuple[list, list]:
    """Choose two pile cards and both passes by keys, checking the prompts and marks;
    returns (pile cards, passes) as chosen, before the confirmation."""
    m = screen.model
    await until(pilot, lambda: screen._step() == "pile")
    await pilot.pause()
    assert "Choose pile card 1 of 2" in screen_text(app)
    assert screen._active_hand() == 1  # the setup takes from the second hand
    second = {c.code for c in dict(m.my_hands())[1]}
    assert screen._selectable_codes() == second
    for _ in range(2):
        assert await _choose(pilot, screen) == 1
    await pilot.pause()
    assert screen._step() == "pass"
    opponent = m.name(1 - m.me)
    assert f"Choose the card for {opponent}'s hand 1 (open)" in screen_text(app)
    assert await _choose(pilot, screen) == 1
    await pilot.pause()
    assert f"Choose the card for {opponent}'s hand 2 (hidden)" in screen_text(app)
    assert await _choose(pilot, screen) == 1
    await pilot.pause()
    plan = screen.plan
    assert screen._step() == "confirm" and len(plan.pile) == 2 and len(plan.passes) == 2
    # each staged card is marked over the hand: ⚱ twice, →Xy1 and →Xy2
    marks = screen._marks()
    tag = opponent[:2]
    assert sorted(marks.values()) == sorted(["⚱", "⚱", f"→{tag}1", f"→{tag}2"]), marks
    text = screen_text(app)
    assert f"→{tag}1" in text and f"→{tag}2" in text, text
    assert f"(hand 1), {screen.tr.card(plan.passes[1])} to {opponent} (hand 2)" in text, text
    return list(plan.pile), list(plan.passes)


def test_devils_eye_a_whole_hand_by_keys():
    """Two pile cards and two passes chosen by keys and sent as the server asks (nothing
    twice, nothing refused); the opponent's open hand shown; cards played from both hands;
    the hand scored."""

    async def main():
        async with local_server() as target:
            app = quick_app(target, _devils_eye(), bots="random", seed="devils-eye")
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                m = screen.model
                await until(pilot, lambda: m.hand_number == 1 and bool(m.my_hands()[1][1]))
                assert [len(cards) for _h, cards in m.my_hands()] == [6, 12]
                assert screen_text(app).startswith(" Devil's Eye · Hand 1 · Price 19")
                pile, passes = await _set_up(pilot, app, screen)
                opponent = 1 - m.me
                await pilot.press("enter")  # confirm: the plan goes out stage by stage
                await until(pilot, lambda: m.phase == PLAY and (
                    screen._step() == "play" or m.me not in m.to_act))
                await pilot.pause()
                assert not screen.message, screen.message  # nothing refused (or sent twice)
                assert sorted(c.code for c in m.my_pile) == sorted(c.code for c in pile)
                assert m.passes_given == {(opponent, 0): passes[0], (opponent, 1): passes[1]}
                assert set(screen.plan.passes_sent) == {(opponent, 0), (opponent, 1)}
                assert m.pile_size == 4
                # 7 in the open first hand, 9 in the hidden second, on both sides
                assert [len(cards) for _h, cards in m.my_hands()] == [7, 9]
                assert m.counts[(opponent, 0)] == 7 and m.counts[(opponent, 1)] == 9
                received = [c.code for c in m.passes_received.values()]
                assert len(received) == 2 and set(received) <= {
                    c.code for _h, cards in m.my_hands() for c in cards}
                text = screen_text(app)
                name = m.name(opponent)
                assert "Hand 1 open:" in text and "Hand 2 hidden:" in text, text
                shown = m.holdings[(opponent, 0)]
                assert len(shown) == 7 and passes[0].code in {c.code for c in shown}
                assert f"{name} shows (Hand 1):" in text, text
                assert "Your cards in the pile:" in text, text
                log = "\n".join(m.log)
                for n, card in enumerate(passes, start=1):  # said to the player as "you"
                    assert f"You passed {screen.tr.card(card)} to {name} (hand {n})" in log
                    assert f"{name} passed " in log and f" to you (hand {n})" in log
                assert "You lay hand 1 open:" in log and f"{name} lays hand 1 open:" in log
                # the tricks: alternate between the rows, as far as the cards allow
                hands_used = []
                while m.tricks_played < 8:
                    await until(pilot, lambda: screen._step() == "play" or m.tricks_played == 8
                                or bool(m.hand_results))
                    if screen._step() != "play":
                        break
                    before = len(m.played)
                    hands_used.append(await _choose(pilot, screen, want_hand=len(hands_used) % 2))
                    await until(pilot, lambda b=before: len(m.played) > b)
                    assert not screen.message, screen.message
                mine = [p.hand for p in m.played if p.seat == m.me]
                assert len(mine) == 16 and set(mine) == {0, 1}, mine
                assert mine == hands_used
                await play_by_keys(pilot, app, first_hand_over(app), timeout=20)
                result = m.hand_results[0]
                assert len(result.pile) == 4 and result.pile_points == sum(
                    c.points for c in result.pile)
                end = screen_text(app)
                assert "Hand 1 is over" in end and "The pile: " in end, end
                assert len(m.score_lines(result)) == 2
                if result.HasField("owner"):
                    assert result.scores[result.owner] == -result.pile_points

    run(main(), timeout=60)


def test_a_hint_at_the_second_pass_sends_nothing_and_esc_takes_back_one_step():
    """Asking for a hint on the pass for the opponent's second hand ranks only passes
    to that hand, without the staged cards, and sends nothing (the staged choices go
    with the hint); Esc then takes back the last choice only, and the setup still
    completes without a refusal."""

    async def main():
        async with local_server() as target:
            app = quick_app(target, _devils_eye(), bots="random", seed="devils-eye-esc")
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                m = screen.model
                await until(pilot, lambda: screen._step() == "pile")
                for _ in range(3):  # two pile cards, the pass for the first hand
                    await _choose(pilot, screen)
                await pilot.pause()
                opponent = 1 - m.me
                plan = screen.plan
                assert plan.next_target() == (opponent, 1)
                staged = plan.codes()
                await pilot.press("h")
                await until(pilot, lambda: screen.hint is not None, timeout=30)
                assert not plan.pile_sent and not plan.passes_sent  # nothing was sent
                assert m.phase != PASS
                kinds = {a.action.WhichOneof("kind") for a in screen.hint.actions}
                assert kinds == {"pass_card"}
                assert not staged & {a.action.pass_card.card.code for a in screen.hint.actions}
                assert all(a.why.hand == 1 for a in screen.hint.actions if a.why.kind)
                await until(pilot, lambda: app.screen.ready)
                assert f"→ {m.name(opponent)} (Hand 2" in screen_text(app)  # ahead of its stage
                await pilot.press("escape")  # close the hint
                await pilot.press("escape")  # take back the last choice: the first pass
                await pilot.pause()
                assert screen.plan is plan and len(plan.pile) == 2 and len(plan.passes) == 0
                assert screen._step() == "pass" and plan.next_target() == (opponent, 0)
                await pilot.press("escape")  # and the second pile card
                await pilot.pause()
                assert len(plan.pile) == 1 and screen._step() == "pile"
                for _ in range(3):
                    await _choose(pilot, screen)
                await pilot.press("enter")
                await until(pilot, lambda: m.phase == PLAY)
                await pilot.pause()
                assert not screen.message, screen.message
                assert set(m.passes_given) == {(opponent, 0), (opponent, 1)}

    run(main(), timeout=60)


def test_the_new_table_form_offers_devils_eye():
    """The Bottle Imp for two in the form is labelled Devil's Eye; the server takes it and
    the lobby names it."""
    from cursedbottle.client import CursedBottleApp
    from cursedbottle.client.app import rules_text

    async def main():
        async with local_server() as target:
            app = CursedBottleApp(target, name="Ann", hint_budget_ms=200)
            async with app.run_test(size=SIZE) as pilot:
                lobby, form = await new_table_form(pilot, app, "imp")
                players = form.query_one("#players")
                assert players._options[0] == ("2: Devil's Eye", 2), players._options
                players.value = 2
                form.query_one("#bots").value = ""
                await pilot.pause()
                screen, info = await create_and_list(pilot, app, lobby, form, IMP)
                assert screen.model.rules.game == IMP and screen.model.rules.players == 2
                assert screen.model.devils_eye
                assert rules_text(app.tr, info.rules) == "Bottle Imp, 2p, Devil's Eye, 4×"

    run(main())


def test_german_log_and_rules_name_the_hands():
    """German: the passes in the log name the receiver's hand; the rules screen has the
    Teufelsauge; the English rules no longer call Devil's Eye unplayed."""
    rules = Rules(players=2, hands=1, edition=Edition.BOTTLE_IMP)
    table = scripted_table(rules, names=("Ann", "Bob"),
                           until_event=lambda t: len(t.game.hand.tricks) >= 1)
    model = model_of(table, "de")
    passed = [line for line in model.log if " gab " in line or line.startswith("Du gabst ")]
    assert len(passed) == 4, model.log  # two each way, each for one hand
    assert sum(line.startswith("Du gabst ") for line in passed) == 2, passed  # Ann's own
    assert sum(" gab dir " in line for line in passed) == 2, passed  # to Ann
    assert sum(line.endswith("(Hand 1)") for line in passed) == 2, passed
    assert sum(line.endswith("(Hand 2)") for line in passed) == 2, passed
    assert model.open_hand == {0: 0, 1: 0}
    text = model.tr.rules_text()
    assert "Das Teufelsauge (2 Spieler)" in text and "Hier nicht gespielt" not in text
    english = model_of(table, "en").tr.rules_text()
    assert "Devil's Eye (2 players)" in english and "Not played here" not in english
    assert model_of(table, "en").log.count("— Hand 1: Bob deals —") == 1


def _both_rows_playable(table) -> bool:
    """Seat 0 to follow a led card with cards it may play in both hands."""
    hand = table.game.hand
    if hand.phase.value != "play" or 0 not in hand.to_act() or not hand.trick:
        return False
    legal = hand.legal_play_mask()
    return bool(legal & hand.holdings[0]) and bool(legal & hand.holdings[1])


def test_down_then_right_picks_a_card_of_the_second_hand():
    """Both rows hold cards that may follow: ↓ moves to the second hand and → stays in
    it, on the first card there that may be played (not back to the first row); the
    number keys then count in that row."""
    from cursedbottle.client import CursedBottleApp

    rules = Rules(players=2, hands=1, edition=Edition.BOTTLE_IMP)
    table = scripted_table(rules, names=("Ann", "Bob"), until_event=_both_rows_playable)
    model = model_of(table)

    async def main():
        app = CursedBottleApp(model=model)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert screen._step() == "play"
            text = screen_text(app)
            assert "Hand 1 open:" in text and "Hand 2 hidden:" in text, text
            assert "Bob shows (Hand 1):" in text, text
            legal = model.legal_codes()
            second = [c for c in dict(model.my_hands())[1] if c.code in legal]
            await pilot.press("down")
            await pilot.press("right")
            hand, card = screen._flat()[screen.cursor]
            assert hand == 1 and card.code == second[0].code, (hand, card.code)
            await pilot.press("1")
            assert screen._flat()[screen.cursor][1].code == dict(model.my_hands())[1][0].code

    run(main(), timeout=30)
