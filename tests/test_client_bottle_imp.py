"""The Textual client at Bottle Imp tables, against a real server on 127.0.0.1 with bots.

Five seats (the dealer is dealt a card fewer and lays no pile card), cards as
numbers in their colours, the Hell card 19 as the price before the first
purchase, team mode (partners marked, one total per side), and the lobby's
form for the game.  Every move goes through the keyboard.
"""

from __future__ import annotations

import re

from client_support import (
    SIZE,
    click,
    create_and_list,
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
from cursedbottle.client.table import RulesScreen
from cursedbottle.client.widgets import HandView
from cursedbottle.v1 import game_pb2
from tmux_support import SCRIPT, play_until_over, quit_cleanly, wait_for

IMP = game_pb2.GAME_BOTTLE_IMP
FACE = re.compile(r"^\d+(\.5)?[YBR]$")
COLOURS = {game_pb2.SUIT_YELLOW: "yellow", game_pb2.SUIT_BLUE: "bright_blue",
           game_pb2.SUIT_RED: "red"}




def _dealt(screen) -> bool:
    m = screen.model
    return m.hand_number >= 1 and bool(m.my_hands()[0][1]) and m.phase in (
        game_pb2.PHASE_PILE, game_pb2.PHASE_PASS)


def _check_cards_drawn_in_colour(screen) -> None:
    """Every card face is a number and a colour letter, drawn in that colour."""
    hand = screen.query_one(HandView)
    text = hand.render()
    faces = text.plain.splitlines()[1].split()
    cards = screen.model.my_hands()[0][1]
    assert faces == [screen.tr.card(c) for c in cards]
    assert all(FACE.match(f) for f in faces), faces
    for card in cards:
        face = screen.tr.card(card)
        start = text.plain.index(f" {face} " if f" {face} " in text.plain else face)
        styles = " ".join(str(s.style) for s in text.spans if s.start <= start + 1 < s.end)
        assert COLOURS[card.suit] in styles, (face, styles)


def test_five_players_a_whole_hand_by_keys():
    """You and four random bots: 11 cards each, the dealer 10; the price is 19 until the
    first purchase; a whole hand is played by keys and scored in coins."""

    async def main():
        async with local_server() as target:
            rules = game_pb2.Rules(players=5, hands=1, game=IMP)
            app = quick_app(target, rules, bots="random", seed="imp-five")
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                await until(pilot, lambda: _dealt(screen))
                await pilot.pause()
                m = screen.model
                assert m.rules.start_price == "19"
                mine = m.my_hands()[0][1]
                dealer = m.dealer
                assert len(mine) == (10 if dealer == m.me else 11)
                assert m.counts[(dealer, 0)] == 10
                assert all(m.counts[(s, 0)] >= 10 for s in range(5))
                text = screen_text(app)
                assert text.splitlines()[0].startswith(" Bottle Imp · Hand 1 · Price 19 "), text
                assert "joker" not in text
                _check_cards_drawn_in_colour(screen)
                # the five seats, the dealer marked
                for s in range(5):
                    assert m.name(s) in text
                assert f"{m.name(dealer)} · dealer" in text or m.name(dealer) == "Ann"
                # the rules screen is the Bottle Imp's
                await pilot.press("question_mark")
                await until(pilot, lambda: isinstance(app.screen, RulesScreen))
                await pilot.pause()
                rules_page = screen_text(app)
                assert "The Bottle Imp" in rules_page, rules_page
                await pilot.press("escape")
                await until(pilot, lambda: app.screen is screen)
                steps = await play_by_keys(pilot, app, first_hand_over(app), timeout=40)
                expected = {"pile": 0 if dealer == m.me else 1, "pass": 2, "confirm": 1,
                            "play": 10}
                for step, count in expected.items():
                    assert steps.count(step) == count, (step, steps)
                result = m.hand_results[0]
                assert len(result.pile) == 4  # everyone but the dealer laid one
                assert all(FACE.match(screen.tr.card(c)) for c in result.pile)
                end = screen_text(app)
                assert "Hand 1 is over" in end and "The pile: " in end, end
                assert all(cards == [] for _h, cards in m.my_hands())
                # coins: the scores add up from the cards' points
                coins = sum(c.points for c in result.pile)
                assert result.pile_points == coins
                if result.HasField("owner"):
                    assert result.scores[result.owner] == -coins

    run(main())


def test_five_player_teams_the_dealer_alone_keeps_his_cards():
    """Teams of five: seat 0 (you) plays alone and deals, so you get 10 cards and no pile
    card is asked of you; the seats table marks the sides."""

    async def main():
        async with local_server() as target:
            rules = game_pb2.Rules(players=5, hands=1, game=IMP, teams=True)
            app = quick_app(target, rules, bots="random", seed="imp-teams-five")
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                await until(pilot, lambda: _dealt(screen))
                m = screen.model
                assert m.dealer == 0 == m.me
                assert len(m.my_hands()[0][1]) == 10
                await pilot.pause()
                if m.phase == game_pb2.PHASE_PILE:
                    assert "You deal: no card for the pile this hand." in screen_text(app)
                await until(pilot, lambda: screen._step() == "pass")
                text = screen_text(app)
                labels = {}
                for s in range(5):
                    row = next(line for line in text.splitlines()[2:7] if m.name(s) in line)
                    labels[s] = re.search(r" (solo|[ABC]) +\d+ ", row).group(1)
                assert labels == {0: "solo", 1: "A", 2: "B", 3: "A", 4: "B"}, text
                steps = await play_by_keys(pilot, app, first_hand_over(app), timeout=40)
                assert "pile" not in steps and steps.count("play") == 10
                end = screen_text(app)
                assert "a player alone (solo) counts double" in end, end
                result = m.hand_results[0]
                assert result.scores[1] == result.scores[3]
                assert result.scores[2] == result.scores[4]
                assert result.scores[0] % 2 == 0

    run(main())


def test_four_player_teams_show_the_partner_and_one_total_per_side():
    """A larger terminal (boxed cards): the partner is named, partners share one total."""

    async def main():
        async with local_server() as target:
            rules = game_pb2.Rules(players=4, hands=2, game=IMP, teams=True)
            app = quick_app(target, rules, bots="random", seed="imp-teams-four")
            async with app.run_test(size=(120, 36)) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                await play_by_keys(pilot, app, first_hand_over(app), timeout=40)
                await pilot.press("enter")  # close the end-of-hand pop-up
                await until(pilot, lambda: app.screen is screen)
                m = screen.model
                assert m.totals[0] == m.totals[2] and m.totals[1] == m.totals[3]
                text = screen_text(app)
                lines = text.splitlines()
                seats = [line.split("│")[0] for line in lines[2:6]]
                rows = {m.name(s): next(row for row in seats if f" {m.name(s)} " in row)
                        for s in range(4)}
                assert "(partner)" in rows[m.name(2)], text
                assert "(partner)" not in rows[m.name(1)] + rows[m.name(3)]
                # the shared total is shown once per side: on seats 0 and 1, not 2 and 3
                assert rows[m.name(0)].rstrip().endswith(f" {m.totals[0]}"), rows
                assert rows[m.name(1)].rstrip().endswith(f" {m.totals[1]}"), rows
                for s in (2, 3):
                    cells = rows[m.name(s)].split()
                    assert cells[-1] == str(m.points_taken(s)), (rows[m.name(s)], cells)

    run(main())


def test_six_in_two_pairs_and_two_alone():
    """The seed's 2-2-1-1: you (seat 0) and seat 3 play alone, 1+4 and 2+5 are pairs."""

    async def main():
        async with local_server() as target:
            rules = game_pb2.Rules(players=6, hands=1, game=IMP, teams=True, singles=True)
            app = quick_app(target, rules, bots="random", seed="imp-2211")
            async with app.run_test(size=(120, 40)) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                await play_by_keys(pilot, app, first_hand_over(app), timeout=40)
                m = screen.model
                assert m.sides() == [(0,), (1, 4), (2, 5), (3,)]
                assert [m.team_label(s) for s in range(6)] == ["solo", "A", "B", "solo", "A", "B"]
                assert m.partner(0) is None and m.partner(1) == 4
                assert m.totals[1] == m.totals[4] and m.totals[2] == m.totals[5]
                result = m.hand_results[0]
                alone = [s for s in (0, 3) if not (result.HasField("owner") and result.owner == s)]
                for s in alone:  # who plays alone scores double
                    assert result.scores[s] == 2 * result.points_taken[s] == m.totals[s]
                assert "(partner)" not in screen_text(app)

    run(main())


def test_the_lobby_names_the_team_split():
    from cursedbottle.client.app import rules_text
    from cursedbottle.client.i18n import Tr

    two_alone = game_pb2.Rules(players=6, hands=12, game=IMP, teams=True, singles=True)
    assert rules_text(Tr("en"), two_alone) == "Bottle Imp, 6p, teams 2-2-1-1, 12×"


def test_the_second_bottle_shows_both_bottles():
    """Six players, two bottles: the status line names both, the one for sale first; once
    one is bought the other is for sale at 19."""

    async def main():
        async with local_server() as target:
            rules = game_pb2.Rules(players=6, hands=1, game=IMP, second_bottle=True)
            app = quick_app(target, rules, bots="random", seed="imp-two")
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                await until(pilot, lambda: _dealt(screen))
                await pilot.pause()
                assert "Price 19 · Bottles: nobody / nobody 19 ·" in screen_text(app)
                m = screen.model
                await play_by_keys(pilot, app, lambda s: any(
                    b.HasField("owner") for b in s.model.bottles), timeout=30)
                await pilot.pause()
                owners = m.bottle_owners()
                # one bought: the other, still at 19, is for sale (listed first)
                assert owners[0] is None and owners[1] is not None, owners
                assert m.price is None
                status = screen_text(app).splitlines()[0]
                assert f"Price 19 · Bottles: nobody / {m.name(owners[1])} " in status, status
                steps = await play_by_keys(pilot, app, first_hand_over(app), timeout=30)
                assert steps.count("play") >= 1
                end = screen_text(app)
                result = m.hand_results[0]
                assert len(result.bottles) == 2
                owned = [b for b in result.bottles if b.HasField("owner")]
                assert end.count("The bottle stays with") == len(owned), end

    run(main())


def test_the_new_table_form_offers_the_bottle_imp():
    """Bottle Imp: 2–6 players (two: Devil's Eye), teams, no Cursed Bottle variants;
    teams for three are refused with the server's message; a valid table appears in the
    lobby as the Bottle Imp."""
    from cursedbottle.client import CursedBottleApp
    from cursedbottle.client.app import rules_text

    async def main():
        async with local_server() as target:
            app = CursedBottleApp(target, name="Ann", hint_budget_ms=200)
            async with app.run_test(size=SIZE) as pilot:
                lobby, form = await new_table_form(pilot, app, "imp")
                players = form.query_one("#players")
                assert [v for _label, v in players._options] == [2, 3, 4, 5, 6]
                assert not form.query_one("#teamsrow").has_class("hidden")
                assert form.query_one("#variantrow").has_class("hidden")
                text = screen_text(app)
                assert "Teams (4–6 players)" in text and "Variant" not in text, text
                players.value = 3
                form.query_one("#teams").value = "on"
                form.query_one("#bots").value = ""
                await pilot.pause()
                await click(pilot, "#ok")
                await until(pilot, lambda: app.screen is lobby)
                await until(pilot, lambda: "Refused:" in screen_text(app))
                assert "team" in screen_text(app).split("Refused:")[1].lower()
                # now a valid one: five players, no bots (it waits in the lobby's list)
                _, form = await new_table_form(pilot, app, "imp")
                form.query_one("#players").value = 5
                form.query_one("#bots").value = ""
                await pilot.pause()
                screen, info = await create_and_list(pilot, app, lobby, form, IMP)
                assert screen.model.rules.game == IMP and screen.model.rules.players == 5
                assert "Bottle Imp" in screen_text(app).splitlines()[0]
                assert rules_text(app.tr, info.rules) == "Bottle Imp, 5p, 10×"

    run(main())


# ------------------------------------------------------------ a real terminal


def test_five_players_in_a_real_terminal(tmux):
    """`cursed-bottle play --game bottle-imp --players 5` in tmux, to the end of the hand."""
    command = (f"{SCRIPT} play --game bottle-imp --players 5 --bots random --game-hands 1 "
               "--bot-delay 0 --lang en --seed 5")
    tmux.start("main", command)
    wait_for(tmux, "main", "Bottle Imp · Hand 1 · Price 19")
    text = tmux.screen("main")
    lines = [line for line in text.splitlines() if line.strip()]
    faces = lines[-2].split()
    assert len(faces) in (10, 11), text
    assert all(FACE.match(f) for f in faces), text
    assert "joker" not in text
    deals = [line for line in lines if " · dealer " in line]
    assert len(deals) == 1 and deals[0].split("│")[0].split()[-3] == "10", text  # short hand
    steps = play_until_over(tmux, ["main"])["main"]
    assert steps.count("play") == 10, steps
    assert "pass" in steps and "confirm" in steps
    assert steps.count("pile") == (0 if len(faces) == 10 else 1), steps
    end = tmux.screen("main")
    assert "Game over:" in end and "Bottle Imp · Hand 1" in end, end
    quit_cleanly(tmux, "main")


def test_devils_eye_in_a_real_terminal(tmux):
    """Two players: two pile cards and two passes from the second hand, then 16 cards
    from either row, typed as a person would."""
    command = (f"{SCRIPT} play --game bottle-imp --players 2 --lang en --bots rule "
               "--bot-delay 0 --seed 3 --game-hands 1")
    tmux.start("eye", command)
    wait_for(tmux, "eye", "Devil's Eye")
    steps = play_until_over(tmux, ["eye"])["eye"]
    assert steps.count("pile") >= 2 and steps.count("pass") >= 2, steps
    assert steps.count("play") >= 16, steps
    text = tmux.screen("eye")
    assert "Game over:" in text
    # the player is addressed as "you": never "You takes it" / "You wins"
    assert "You takes" not in text and "You wins" not in text and "You buys" not in text
    quit_cleanly(tmux, "eye")
