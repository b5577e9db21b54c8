"""Screenshots of the client's main screens at 80×24, in English and German.

Each screen is drawn from a table played by a fixed policy on a fixed seed
(no network, no clock), then compared with the committed text under
tests/snapshots/ (and with the committed SVG when this is the Textual version
that recorded them).  `CB_UPDATE_SNAPSHOTS=1 pytest tests/test_client_snapshots.py`
rewrites them; look at the SVGs before committing.
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

import pytest
import textual
from client_support import SIZE, model_of, screen_text, scripted_table
from cursedbottle.client import CursedBottleApp
from cursedbottle.client.app import LobbyScreen
from cursedbottle.client.i18n import Tr
from cursedbottle.client.table import GameOverScreen, HandEndScreen, HintScreen, RulesScreen
from cursedbottle.engine import Rules
from cursedbottle.engine.rules import Edition
from cursedbottle.v1 import game_pb2, table_pb2
from textual.widgets import Input

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("CB_UPDATE_SNAPSHOTS") == "1"
VERSION_FILE = SNAPSHOTS / "TEXTUAL_VERSION"
DOCS = Path(__file__).parent.parent / "docs" / "screenshots"


def _check(app: CursedBottleApp, name: str) -> None:
    # A text field's cursor blinks with the clock: draw it steadily on.
    for field in app.screen.query(Input):
        field.cursor_blink = False
    text = screen_text(app) + "\n"
    svg = app.export_screenshot(title=name)
    txt_path, svg_path = SNAPSHOTS / f"{name}.txt", SNAPSHOTS / f"{name}.svg"
    if UPDATE:
        SNAPSHOTS.mkdir(exist_ok=True)
        txt_path.write_text(text, encoding="utf-8")
        svg_path.write_text(svg, encoding="utf-8")
        VERSION_FILE.write_text(textual.__version__ + "\n")
        return
    assert txt_path.exists(), f"no snapshot {txt_path.name}: run with CB_UPDATE_SNAPSHOTS=1"
    assert text == txt_path.read_text(encoding="utf-8"), f"{name} changed:\n{text}"
    if VERSION_FILE.exists() and VERSION_FILE.read_text().strip() == textual.__version__:
        assert svg == svg_path.read_text(encoding="utf-8"), f"{name}.svg changed"


def _snap(model, name: str, keys=(), push=None, lang: str = "en", size=SIZE) -> None:
    async def main():
        app = CursedBottleApp(model=model, lang=lang)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            if push is not None:
                app.push_screen(push(app))
                await pilot.pause()
            await pilot.pause()
            _check(app, name)

    asyncio.run(main())


def _my_turn_in_play(tricks: int):
    def until(table) -> bool:
        game = table.game
        hand = game.hand
        return (
            hand.phase.name == "PLAY"
            and len(hand.tricks) >= tricks
            and 0 in [game.player_at(s) for s in game.to_act()]
        )

    return until


def _my_turn_to_pile(table) -> bool:
    game = table.game
    return game.hand.phase.name == "PILE" and 0 in [game.player_at(s) for s in game.to_act()]


LANGS = ("en", "de")


@pytest.mark.parametrize("lang", LANGS)
def test_table_while_playing(lang):
    table = scripted_table(Rules(3, hands=1), until_event=_my_turn_in_play(3))
    _snap(model_of(table, lang), f"table-{lang}", lang=lang)


def test_table_in_a_large_terminal():
    """Boxed cards, a wider log: the same table at 120×36."""
    table = scripted_table(Rules(4, hands=1), until_event=_my_turn_in_play(2))
    _snap(model_of(table, "en"), "table-large-en", size=(120, 36))


@pytest.mark.parametrize("lang", LANGS)
def test_pile_and_passes_being_chosen(lang):
    table = scripted_table(Rules(3, hands=1), until_event=_my_turn_to_pile)
    keys = ("right", "enter", "right", "right", "enter")
    _snap(model_of(table, lang), f"passing-{lang}", keys=keys, lang=lang)


def _illustrative_hint(table):
    """Seat 0's hint at this table: the reasons the hint engine gives these cards, with
    fixed values (a real search's values move whenever the search changes)."""
    from cursedbottle.bots.hints import Basis, Hint, HintLine, reason
    from cursedbottle.server.hints import hint_msg

    game = table.game
    view = game.view(0)
    actions = list(view.legal_actions)[:5]
    values = (3.2, 2.9, 1.0, -1.5, -6.0)[: len(actions)]
    shares = (0.45, 0.35, 0.2, 0.0, 0.0)[: len(actions)]
    close = (True, True, False, False, False)
    lines = tuple(
        HintLine(a, values[i], shares[i], 40, True, reason(view, a), close=close[i])
        for i, a in enumerate(actions)
    )
    return hint_msg(Hint(view.seat, lines, Basis("exact", "maxn", 40)), view)


@pytest.mark.parametrize("lang", LANGS)
def test_hint(lang):
    def following(table) -> bool:  # seat 0 plays second: most of its cards have reasons
        return _my_turn_in_play(4)(table) and len(table.game.hand.trick) == 1

    rng = random.Random(1)
    table = scripted_table(Rules(3, hands=1), until_event=following,
                           choose=lambda _p, actions: rng.choice(actions))
    model = model_of(table, lang)
    hint = _illustrative_hint(table)

    def push(app):
        screen = HintScreen(model)
        app.call_after_refresh(screen.show, hint)
        return screen

    _snap(model, f"hint-{lang}", push=push, lang=lang)


def _review_of_first_hand(table) -> table_pb2.HandReview:
    """The server's review of the table's first hand, as ReviewHand sends it (the
    solver's real values: exact and deterministic)."""
    from cursedbottle.engine.records import HandRecord
    from cursedbottle.server.review import FinishedHand, review_msg, summary_msg
    from cursedbottle.solver.review import build_review

    obj = table.hand_record(1)
    record = HandRecord.from_json(obj)
    summary = summary_msg(FinishedHand(table.table_id, table.name, 1, obj, 0))
    return review_msg(build_review(record, 1, names=list(summary.names)), summary, record)


@pytest.mark.parametrize("lang", LANGS)
def test_review(lang):
    """A learner's review: what the numbers mean, the tricks too slow to value in one
    line each, then card by card against perfect play with the worst case beside."""
    from cursedbottle.client.review import ReviewScreen

    table = scripted_table(Rules(3, hands=1))
    review = _review_of_first_hand(table)
    assert review.valued_from > 1 and any(s.mistakes for s in review.seats)
    _snap(model_of(table, lang), f"review-{lang}", lang=lang, size=(80, 50),
          push=lambda app: ReviewScreen(Tr(lang), review=review))


@pytest.mark.parametrize("lang", LANGS)
def test_end_of_hand_and_game_over(lang):
    table = scripted_table(Rules(3, hands=2))
    model = model_of(table, lang)
    _snap(model, f"hand-end-{lang}", push=lambda app: HandEndScreen(model, model.hand_results[0]),
          lang=lang)
    _snap(model, f"game-over-{lang}", push=lambda app: GameOverScreen(model), lang=lang)


def test_lopaka_and_spectator():
    table = scripted_table(Rules(2, hands=1), until_event=_my_turn_in_play(4))
    _snap(model_of(table, "en"), "lopaka-en")
    _snap(model_of(table, "en", me=None), "spectator-en")


def test_bright_house():
    table = scripted_table(Rules(2, bright_house=True, hands=1), until_event=_my_turn_in_play(2))
    _snap(model_of(table, "de"), "bright-house-de", lang="de")


class _Lobby:
    """A session that only lists two tables."""

    target = "192.168.1.20:50051"

    async def list_tables(self):
        a = table_pb2.TableInfo(table_id="t1", name="Ann's table", state=1,
                                rules=game_pb2.Rules(players=3, target=100))
        a.seats.add(seat=0, kind=table_pb2.SEAT_KIND_HUMAN, name="Ann")
        a.seats.add(seat=1, kind=table_pb2.SEAT_KIND_EMPTY)
        a.seats.add(seat=2, kind=table_pb2.SEAT_KIND_BOT, name="strong bot")
        b = table_pb2.TableInfo(table_id="t2", name="Bots only", state=2,
                                rules=game_pb2.Rules(players=2, hands=4, hot_bottle=True,
                                                     lopaka=True))  # (as the server fills in)
        b.seats.add(seat=0, kind=table_pb2.SEAT_KIND_BOT, name="rule bot")
        b.seats.add(seat=1, kind=table_pb2.SEAT_KIND_BOT, name="strong bot")
        b.seats.add(seat=2, kind=table_pb2.SEAT_KIND_LOPAKA, name="Lopaka")
        return [a, b]


@pytest.mark.parametrize("lang", LANGS)
def test_lobby_and_rules(lang):
    table = scripted_table(Rules(3, hands=1), until_event=_my_turn_to_pile)
    model = model_of(table, lang)
    _snap(model, f"lobby-{lang}", lang=lang,
          push=lambda app: LobbyScreen(_Lobby(), Tr(lang), refresh_every=0))
    _snap(model, f"rules-{lang}", push=lambda app: RulesScreen(model.tr, model.rules), lang=lang)


NAMES6 = ("Ann", "Bob", "Cleo", "Dan", "Eve", "Finn")


def _imp(players: int, hands: int = 1, teams: bool = False) -> Rules:
    return Rules(players, edition=Edition.BOTTLE_IMP, hands=hands, teams=teams)


def test_bottle_imp_five_players():
    """The original game at five: numbers in colours, the dealer's short hand, 80×24."""
    table = scripted_table(_imp(5), names=NAMES6, until_event=_my_turn_in_play(2))
    _snap(model_of(table, "en"), "table-bottle-imp")


def test_bottle_imp_six_players_in_teams_large():
    """Six seats in three sides (German, 120×36): team letters, one total per side."""
    table = scripted_table(_imp(6, hands=2, teams=True), names=NAMES6,
                           until_event=lambda t: t.game.hand.number == 2 and _my_turn_in_play(1)(t))
    _snap(model_of(table, "de"), "table-bottle-imp-teams-de", lang="de", size=(120, 36))


def test_bottle_imp_second_bottle():
    """Six players, two bottles: both in the status line (the one for sale first)."""
    rules = Rules(6, edition=Edition.BOTTLE_IMP, hands=1, second_bottle=True)
    table = scripted_table(rules, names=NAMES6, until_event=_my_turn_in_play(3))
    _snap(model_of(table, "en"), "table-bottle-imp-two-bottles")


def test_bottle_imp_pile_phase_and_rules():
    """Before the first purchase the price is the Hell card, 19; `?` shows the Bottle Imp's
    rules."""
    table = scripted_table(_imp(5), names=NAMES6, until_event=_my_turn_to_pile)
    model = model_of(table, "en")
    _snap(model, "pile-bottle-imp")
    _snap(model, "rules-bottle-imp-de",
          push=lambda app: RulesScreen(model_of(table, "de").tr, model.rules), lang="de")


def test_bottle_imp_end_of_hand_in_teams():
    table = scripted_table(_imp(5, teams=True), names=NAMES6)
    model = model_of(table, "en")
    _snap(model, "hand-end-bottle-imp-teams",
          push=lambda app: HandEndScreen(model, model.hand_results[0]))


#: The README's screens at both sizes: the table (the last trick beside the current one,
#: each card's points), the hint, the review and the game-over screen.
README_SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
README_SCREENS = ("table", "hint", "review", "game-over")


@pytest.mark.parametrize("size", README_SIZES)
def test_readme_screens(size):
    def following(table) -> bool:  # seat 0 plays second: the last trick and the current
        return _my_turn_in_play(4)(table) and len(table.game.hand.trick) == 1

    rng = random.Random(1)
    table = scripted_table(Rules(3, hands=1), until_event=following,
                           choose=lambda _p, actions: rng.choice(actions))
    model = model_of(table, "en")
    hint = _illustrative_hint(table)

    def push_hint(app):
        screen = HintScreen(model)
        app.call_after_refresh(screen.show, hint)
        return screen

    cols_rows = README_SIZES[size]
    _snap(model, f"table-{size}-en", keys=("v",), size=cols_rows)  # v: the points shown
    _snap(model, f"hint-{size}-en", push=push_hint, size=cols_rows)
    from cursedbottle.client.review import ReviewScreen

    played = scripted_table(Rules(3, hands=1))
    review = _review_of_first_hand(played)
    over = model_of(scripted_table(Rules(3, hands=2)), "en")
    _snap(model_of(played, "en"), f"review-{size}-en", size=cols_rows,
          push=lambda app: ReviewScreen(Tr("en"), review=review))
    _snap(over, f"game-over-{size}-en", push=lambda app: GameOverScreen(over), size=cols_rows)


def test_docs_screenshots_are_the_snapshots():
    """docs/screenshots/ shows the table, a hint, a review and the game-over screen
    exactly as the snapshot tests draw them."""
    readme = [f"{screen}-{size}-en" for screen in README_SCREENS for size in README_SIZES]
    for name in [*(f"table-{lang}" for lang in [*LANGS, "bottle-imp"]), "hint-en", "review-en",
                 *readme]:
        doc = DOCS / f"{name}.svg"
        snap = SNAPSHOTS / f"{name}.svg"
        if UPDATE:
            DOCS.mkdir(parents=True, exist_ok=True)
            doc.write_text(snap.read_text(encoding="utf-8"), encoding="utf-8")
        assert doc.read_text(encoding="utf-8") == snap.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_new_table_form(lang):
    from cursedbottle.client.app import CreateScreen

    table = scripted_table(Rules(3, hands=1), until_event=_my_turn_to_pile)
    _snap(model_of(table, lang), f"create-{lang}", lang=lang,
          push=lambda app: CreateScreen(Tr(lang), "Ann"))


def test_new_table_form_for_the_bottle_imp():
    """The form with the Bottle Imp chosen: 3–6 players, teams and bottles instead of the
    Cursed Bottle's variants, "each player deals twice" as the end."""
    from cursedbottle.client.app import CreateScreen

    table = scripted_table(Rules(3, hands=1), until_event=_my_turn_to_pile)
    model = model_of(table, "de")

    async def main():
        app = CursedBottleApp(model=model, lang="de")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            form = CreateScreen(Tr("de"), "Ann")
            app.push_screen(form)
            await pilot.pause()
            form.query_one("#game").value = "imp"
            await pilot.pause()
            form.query_one("#players").value = 5
            await pilot.pause()
            await pilot.pause()
            _check(app, "create-bottle-imp-de")

    asyncio.run(main())
