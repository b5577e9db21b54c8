"""The review of a finished hand and the history of hands, through the Textual Pilot
against a real gRPC server on 127.0.0.1 (ListHands, ReviewHand).

A one-hand game is played by keys to its end; `r` on the end-of-hand pop-up opens
the review, which must show every trick of the server's HandReview and each seat's
loss against perfect play (each for themself), under one sentence saying what the
numbers mean.  The lobby's history lists the hand and opens it.
"""

from __future__ import annotations

import asyncio

import grpc
from client_support import (
    SIZE,
    local_server,
    play_by_keys,
    quick_app,
    refresh_when_bare,
    run,
    screen_text,
    table_screen,
    until,
)
from cursedbottle.client import CursedBottleApp
from cursedbottle.client.app import LobbyScreen
from cursedbottle.client.i18n import Tr
from cursedbottle.client.review import HistoryScreen, ReviewScreen, meaning
from cursedbottle.client.table import HandEndScreen
from cursedbottle.v1 import game_pb2, table_pb2


async def _review_text(pilot, app) -> str:
    """Every line of the review, scrolled through page by page as a person reads it."""
    box = app.screen.query_one("#reviewbox")
    await pilot.press("home")
    await pilot.pause()
    pages = []
    for _ in range(100):
        pages.append(screen_text(app))
        before = box.scroll_y
        await pilot.press("pagedown")
        await pilot.pause()
        if box.scroll_y == before:
            break
    return "\n".join(pages)


def _flat(text: str) -> str:
    """The review's words as one line: each screen line without the box's border, so
    that a sentence wrapped over lines reads as one."""
    inner = []
    for ln in text.splitlines():
        if ln.count("█") >= 2:  # inside the box (what shows around it is another screen)
            ln = ln[ln.index("█") + 1 : ln.rindex("█")].rstrip().rstrip("▁▂▃▄▅▆▇▔")  # scrollbar
        inner.append(" ".join(ln.split()))
    return " ".join(inner)


def _check_review_shown(text: str, review: table_pb2.HandReview, tr: Tr,
                        names: list[str]) -> None:
    """`names`: the seats as the table screen names them (the server sends the names as
    the table knows them; two rule bots are "rule bot 2" and "rule bot 3")."""
    lines = text.splitlines()
    assert f"Review: {review.hand.table_name}, hand {review.hand.hand}" in text, text
    flat = _flat(text)
    for trick in review.tricks:
        assert f"Trick {trick.number}" in text
        winner = names[trick.winner]
        if trick.bought:
            line = f"→ {winner} takes trick {trick.number} and buys the bottle at "
        else:
            line = f"→ {winner} takes trick {trick.number}"
        assert line in flat, (line, text)  # (a trick without values is one line, wrapped)
        for rc in trick.cards:
            if not rc.valued:
                continue
            # the card's row: name, card, value and (unless forced) its cost, as
            # the legend counts it (above 0 a mistake)
            cells = [tr.card(rc.card), f"{rc.value:+d}"]
            if not rc.forced:
                cells.append(str(rc.loss))
            assert any(names[rc.seat][:10] in ln and all(c in ln for c in cells)
                       for ln in lines), (names[rc.seat], cells, text)
    assert tr("review_summary") in text
    for sentence in meaning(tr, review):
        assert sentence in flat, (sentence, text)
    assert tr("review_means") in flat
    if review.worst_case:
        assert tr("review_means_worst") in flat
    for s in review.seats:
        row = [f"{s.score:+d}", str(s.loss), str(s.mistakes), str(s.analysed)]
        assert any(s.name[:10] in ln and all(c in ln.split() for c in row) for ln in lines), (
            s.name, row, text)


def test_review_of_the_hand_that_just_ended_and_from_the_history():
    async def main():
        async with local_server() as target:
            app = quick_app(target, game_pb2.Rules(players=3, hands=1), seed="review")
            app.remember_seats = False
            async with app.run_test(size=SIZE) as pilot:
                await play_by_keys(pilot, app, lambda s: bool(s.model.hand_results)
                                   and isinstance(app.screen, HandEndScreen))
                assert "r: review this hand" in screen_text(app)
                table = table_screen(app).seat
                await pilot.press("r")
                await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
                review_screen = app.screen
                await until(pilot, lambda: review_screen.review is not None
                            or review_screen.error is not None, timeout=60)
                assert review_screen.error is None, review_screen.error
                await pilot.pause()
                # the same review, asked of the server directly
                review = await app.session.review_hand(table.table_id, 1, token=table.token)
                assert review == review_screen.review
                assert len(review.tricks) == 11
                assert review.seats[0].name == "Ann" and len(review.seats) == 3
                assert sum(s.analysed for s in review.seats) > 0
                assert [s.name for s in review.seats] == ["Ann", "rule bot", "rule bot"]
                _check_review_shown(await _review_text(pilot, app), review, Tr("en"),
                                    ["Ann", "rule bot 2", "rule bot 3"])
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, HandEndScreen))

            # the lobby's history lists the hand; Enter opens the same review
            app = CursedBottleApp(target, name="Bob")
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                await until(pilot, lambda: "h: history" in screen_text(app))
                await pilot.press("h")
                await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
                history = app.screen
                await until(pilot, lambda: bool(history.hands))
                await pilot.pause()
                text = screen_text(app)
                hand = history.hands[0]
                assert hand.table_name == "Ann's table" and hand.hand == 1
                assert "Ann's table" in text and "Ann " in text, text
                assert f"Ann {hand.scores[0]:+d}" in text, text
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
                shown = app.screen
                await until(pilot, lambda: shown.review is not None or shown.error is not None,
                            timeout=60)
                assert shown.review == review
                await pilot.press("escape")
                await until(pilot, lambda: app.screen is history)
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))

    run(main())


def _built_review() -> table_pb2.HandReview:
    def card(code: str, order: int, suit: int, points: int) -> game_pb2.Card:
        return game_pb2.Card(code=code, order=order, rank=code[:-1], suit=suit, points=points)

    h, s, d = game_pb2.SUIT_HEARTS, game_pb2.SUIT_SPADES, game_pb2.SUIT_DIAMONDS
    review = table_pb2.HandReview(dealer=2, from_trick=1, valued_from=1, model="maxn",
                                  worst_case=True)
    review.hand.MergeFrom(table_pb2.HandSummary(table_id="t1", table_name="Ann's table", hand=1,
                                                names=["Ann", "Bob", "Cleo"], scores=[5, -7, 3]))
    review.seats.add(name="Ann", score=5, loss=4, mistakes=1, analysed=2)
    review.seats.add(name="Bob", score=-7, loss=0, mistakes=0, analysed=2)
    review.seats.add(name="Cleo", score=3, loss=0, mistakes=0, analysed=1)
    trick = review.tricks.add(number=1, leader=0, winner=1, bought=True,
                              price=card("5H", 13, h, 2))
    trick.cards.add(seat=0, card=card("9S", 26, s, 2), valued=True, value=3, best_value=7,
                    loss=4, best=[card("AS", 2, s, 1)], worst_value=-2, worst_best_value=0,
                    worst_loss=2)
    trick.cards.add(seat=1, card=card("5H", 13, h, 2), valued=True, value=-7, best_value=-7,
                    best=[card("5H", 13, h, 2)], worst_value=-9, worst_best_value=-9)
    trick.cards.add(seat=2, card=card("QD", 33, d, 3), valued=True, value=3, best_value=3,
                    forced=True)
    review.price.CopyFrom(card("5H", 13, h, 2))
    return review


def test_a_review_built_by_hand_and_a_refused_one_in_red():
    """The drawing alone (no server), and what a refusal looks like."""

    async def refused() -> table_pb2.HandReview:
        info = table_pb2.ErrorInfo(rule="NO_SUCH_HAND", message="no hand 7 at this table")
        raise grpc.aio.AioRpcError(grpc.StatusCode.NOT_FOUND, grpc.aio.Metadata(),
                                   grpc.aio.Metadata(("cb-error-bin", info.SerializeToString())),
                                   details="no hand 7 at this table")

    async def main():
        review = _built_review()
        app = CursedBottleApp(target="unused", lang="en")
        app.on_mount = lambda: None  # no connection: only the pop-ups
        async with app.run_test(size=SIZE) as pilot:
            app.push_screen(ReviewScreen(Tr("en"), review=review))
            await pilot.pause()
            text = await _review_text(pilot, app)
            _check_review_shown(text, review, Tr("en"), ["Ann", "Bob", "Cleo"])
            assert "→ Bob takes trick 1 and buys the bottle at 5♥" in text
            assert "forced" in text
            # the worst case beside: Ann's 9♠ at -2, which cost 2 there
            assert any("9♠" in ln and "-2 (cost 2)" in ln for ln in text.splitlines()), text
            # a mistake is named (the cost in red) only where the card cost points
            await pilot.press("home")
            await pilot.pause()
            strips = app.screen._compositor.render_strips()

            def on_red(seg) -> bool:
                bg = seg.style.bgcolor if seg.style else None
                colour = bg.get_truecolor() if bg else None
                return colour is not None and colour.red > 150 and colour.green < 100

            red = [seg.text.strip() for st in strips for seg in st if on_red(seg)]
            assert red == ["4"], red
            await pilot.press("escape")
            # tricks too slow to value are named, in German too
            later = _built_review()
            later.valued_from = 4
            for lang, words in (("en", "Cards of tricks 1–3 are not valued"),
                                ("de", "Karten der Stiche 1–3 werden nicht bewertet")):
                app.push_screen(ReviewScreen(Tr(lang), review=later))
                await pilot.pause()
                flat = _flat(await _review_text(pilot, app))
                assert words in flat, flat
                assert Tr(lang)("review_means") in flat
                await pilot.press("escape")
            await pilot.press("escape")
            app.push_screen(ReviewScreen(Tr("de"), refused))
            await until(pilot, lambda: app.screen.error is not None)
            await pilot.pause()
            # worded by the client from the refusal's rule: no English on a German screen
            assert "Keine Analyse: Diese Runde hat der Server nicht." in screen_text(app)
            # drawn in red: the colour of the segments that carry the message
            strips = app.screen._compositor.render_strips()
            line = next(st for st in strips if "Keine Analyse" in st.text)
            colours = [seg.style.color.get_truecolor() for seg in line if "Analyse" in seg.text]
            assert colours and all(c.red > 150 and c.green < 100 for c in colours), colours

    run(main())


def test_answers_on_their_way_when_the_screens_are_taken_down_are_dropped():
    """A review or a list of hands that arrives after its screen's widgets are
    gone (the screen closed, the app quitting) is dropped: a worker that looked
    for them would fail, and a failed worker ends the app."""

    async def main():
        async with local_server() as target:
            app = CursedBottleApp(target, name="Ann", remember_seats=False)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: app.tr("no_tables") in screen_text(app))
                await pilot.press("h")
                await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
                history = app.screen
                await until(pilot, lambda: app.tr("history_none") in screen_text(app))
                await refresh_when_bare(history)

                # a review whose answer the test holds back until the screen is bare
                release = asyncio.Event()

                async def held() -> table_pb2.HandReview:
                    await release.wait()
                    return _built_review()

                review = ReviewScreen(Tr("en"), held)
                app.push_screen(review)
                await until(pilot, lambda: app.screen is review and review.query("#reviewtext"))
                await review.remove_children()
                release.set()
                await until(pilot, lambda: not any(w.is_running for w in app.workers
                                                   if w.group == "review"))
                assert app.is_running and review.review is None and review.error is None
                await pilot.press("escape")

    run(main())
