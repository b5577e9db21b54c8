"""Secrecy over the wire: every message each seat and a spectator receive, checked.

The expectations come from RULES.md ("What each seat may know"), tracked here
independently of the engine's filter: while a hand runs, a seat may be told
of a card only if it was dealt to it, passed to it, is Lopaka's, lies in a
revealed open hand, or has been played; the pile becomes known when the hand
ends.  A spectator knows only what lies face up, and the whole deal once the
hand is over.  Besides card identities, the places of hidden cards are
checked: no other seat's pile card, pass or open-hand choice is ever named.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from cursedbottle.engine.view import SeatView
from cursedbottle.server.remote import RemoteSeat, watch
from cursedbottle.server.table_msgs import turn_msg
from cursedbottle.v1 import game_pb2, table_pb2
from test_server_support import (
    create,
    play_out,
    rules,
    run,
    seat_humans,
    serving,
    table_of,
)


def cards_in(msg, skip=("unseen",)) -> set[str]:
    """Every card code anywhere in a message, except in the listed fields."""
    found: set[str] = set()
    for field, value in msg.ListFields():
        if field.name in skip:
            continue
        if field.message_type is None:
            continue
        values = value if field.is_repeated else [value]
        for v in values:
            if isinstance(v, game_pb2.Card):
                found.add(v.code)
            else:
                found |= cards_in(v, skip)
    return found


class Knowledge:
    """What one seat (None: a spectator) may know, built up message by message."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.allowed: set[str] = set()
        self.hand_number = 0
        self.lopaka: int | None = None
        self.open_revealed: set[tuple[int, int]] = set()
        self.passed_by_me: set[str] = set()

    def _new_hand(self, number: int) -> None:
        if number != self.hand_number:
            self.hand_number = number
            self.allowed = set()
            self.open_revealed = set()
            self.passed_by_me = set()

    def check_event(self, e: game_pb2.GameEvent) -> None:
        if e.hand_number:
            self._new_hand(e.hand_number)
        me = self.seat
        kind = e.WhichOneof("kind")
        m = getattr(e, kind)
        if kind == "hand_started":
            self.lopaka = m.lopaka if m.HasField("lopaka") else None
        elif kind == "cards_dealt":
            if m.seat == me or m.seat == self.lopaka:
                assert len(m.cards) == m.count
                self.allowed |= {c.code for c in m.cards}
            else:
                assert not m.cards, f"seat {me} sees seat {m.seat}'s hidden hand"
        elif kind == "pile_card_placed":
            assert m.HasField("card") == (m.seat == me), f"seat {me}: pile card of {m.seat}"
        elif kind == "pass_chosen":
            assert m.HasField("card") == (m.seat == me), f"seat {me}: pass {m.seat}->{m.to}"
            if m.seat == me:
                self.passed_by_me.add(m.card.code)
        elif kind == "card_passed":
            involved = me in (m.seat, m.to)
            assert m.HasField("card") == involved, f"seat {me}: pass {m.seat}->{m.to}"
            if involved:
                self.allowed.add(m.card.code)
        elif kind == "open_hand_chosen":
            assert m.HasField("hand") == (m.seat == me), f"seat {me}: choice of {m.seat}"
        elif kind == "open_hand_revealed":
            self.allowed |= {c.code for c in m.cards}
            self.open_revealed.add((m.seat, m.hand))
        elif kind == "card_played":
            self.allowed.add(m.card.code)
        elif kind == "hand_ended":
            self.allowed |= {c.code for c in m.pile}
            if me is None:
                self.allowed |= cards_in(m.deal)
            else:
                assert not m.HasField("deal"), "the whole deal is for spectators"
        leaked = cards_in(e) - self.allowed
        assert not leaked, f"seat {me} was told of {sorted(leaked)} in {kind}"

    def check_view(self, view: game_pb2.SeatView) -> None:
        assert view.spectator == (self.seat is None)
        if self.seat is not None:
            assert view.seat == self.seat
        self._new_hand(view.hand_number)
        self.lopaka = view.lopaka if view.HasField("lopaka") else None
        opened = {(o.seat, o.hand) for o in view.open_hands}
        # What the seat itself did and received is its own knowledge.
        self.allowed |= {c.code for c in view.my_pile_cards}
        self.allowed |= {p.card.code for p in (*view.passes_given, *view.passes_received)}
        self.passed_by_me |= {p.card.code for p in view.passes_given}
        for h in view.holdings:
            shown = h.seat in (self.seat, self.lopaka) or (h.seat, h.hand) in opened
            assert h.visible == shown, f"seat {self.seat} sees holding {h.seat}/{h.hand}"
            if shown:
                self.allowed |= {c.code for c in h.cards}
            else:
                assert not h.cards
                assert {c.code for c in h.known} <= self.passed_by_me
        for t in view.tricks:
            self.allowed |= {p.card.code for p in t.cards}
        self.allowed |= {p.card.code for p in view.trick}
        leaked = cards_in(view) - self.allowed
        assert not leaked, f"seat {self.seat}'s snapshot names {sorted(leaked)}"

    def check(self, update: table_pb2.TableUpdate) -> None:
        kind = update.WhichOneof("kind")
        if kind == "batch":
            for event in update.batch.events:
                self.check_event(event)
            leaked = cards_in(update.batch.turn) - self.allowed
            assert not leaked, f"seat {self.seat}: turn names {sorted(leaked)}"
            if update.batch.HasField("turn"):
                # The turn's view (a spectator's too) holds only what the events told.
                allowed = set(self.allowed)
                self.check_view(update.batch.turn.view)
                assert self.seat is not None or self.allowed == allowed, "spectator view"
        elif kind == "snapshot" and update.snapshot.HasField("view"):
            assert self.seat is not None, "a spectator gets no seat's view"
            self.check_view(update.snapshot.view)
        else:
            leaked = cards_in(getattr(update, kind)) - self.allowed
            assert not leaked, f"seat {self.seat}: {kind} names {sorted(leaked)}"


GAMES = [
    pytest.param(rules(3, hands=2), id="3p"),
    pytest.param(rules(4, hands=1), id="4p"),
    pytest.param(rules(2, hands=2), id="lopaka"),
    pytest.param(rules(2, hands=1, bright_house=True), id="bright"),
    pytest.param(rules(2, hands=1, game=game_pb2.GAME_BOTTLE_IMP), id="imp-devils-eye"),
    pytest.param(rules(5, hands=1, game=game_pb2.GAME_BOTTLE_IMP), id="imp-5p"),
    pytest.param(
        rules(6, hands=1, game=game_pb2.GAME_BOTTLE_IMP, teams=True, singles=True),
        id="imp-6p-2211",
    ),
    pytest.param(rules(6, hands=1, game=game_pb2.GAME_BOTTLE_IMP), id="imp-6p"),
    pytest.param(
        rules(5, hands=1, game=game_pb2.GAME_BOTTLE_IMP, teams=True, second_bottle=True),
        id="imp-5p-teams-2bottles",
    ),
]


async def record_game(rules_msg: game_pb2.Rules):
    """Play a whole game of people; (the game, each seat's updates, a spectator's)."""
    async with serving() as (running, stub):
        table_id, host = await create(stub, rules_msg, seed="secrets")
        seats = await seat_humans(stub, table_id, rules_msg.players)
        spectator = asyncio.create_task(watch(stub, table_id))

        async def start():
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))

        await play_out(seats, start)
        spectator_updates = await asyncio.wait_for(spectator, 30)
        game = table_of(running, table_id).game
        return game, {s.seat: s.updates for s in seats}, spectator_updates


def check_all(seat_updates, spectator_updates) -> None:
    for seat, updates in seat_updates.items():
        knowledge = Knowledge(seat)
        for update in updates:
            knowledge.check(update)
    knowledge = Knowledge(None)
    for update in spectator_updates:
        knowledge.check(update)


@pytest.mark.parametrize("rules_msg", GAMES)
def test_no_stream_reveals_what_its_seat_may_not_know(rules_msg):
    game, seat_updates, spectator_updates = run(record_game(rules_msg))
    assert game.is_over
    check_all(seat_updates, spectator_updates)


def test_the_checker_catches_a_leaking_server(monkeypatch):
    """Without the engine's filter the same game must fail the checks."""
    from cursedbottle.engine.game import Game

    def unfiltered(self, player, start=0):
        for seq in range(start, len(self.events)):
            yield seq, self.events[seq]

    monkeypatch.setattr(Game, "events_for", unfiltered)
    _game, seat_updates, spectator_updates = run(record_game(rules(3, hands=1)))
    with pytest.raises(AssertionError, match=r"hidden hand|sees|told of|pile card|pass"):
        check_all({0: seat_updates[0]}, [])
    with pytest.raises(AssertionError):
        check_all({}, spectator_updates)


def test_a_resumed_snapshot_mid_hand_reveals_nothing():
    """Snapshots taken mid-hand (every trick of a hand, every seat) stay within bounds."""

    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1), seed="snap")
            seats = await seat_humans(stub, table_id, 3)
            snapshots: list[tuple[int, table_pb2.Snapshot]] = []
            stop = asyncio.Event()

            async def snapper(seat: RemoteSeat):
                while not stop.is_set():
                    call = stub.Subscribe(
                        table_pb2.SubscribeRequest(table_id=table_id, token=seat.token)
                    )
                    async for update in call:
                        snapshots.append((seat.seat, update.snapshot))
                        break
                    call.cancel()
                    await asyncio.sleep(0.005)

            snappers = [asyncio.create_task(snapper(s)) for s in seats]

            async def start():
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))

            await play_out(seats, start)
            stop.set()
            await asyncio.gather(*snappers)
            game = table_of(running, table_id).game
            assert len(snapshots) > 10
            for seat_number, snap in snapshots:
                if not snap.HasField("view"):
                    continue
                view = snap.view
                hidden = set()
                for other in range(3):
                    if other != seat_number:
                        hand = game.hands[view.hand_number - 1]
                        hidden |= {c.ascii for c in hand.deck.cards_of(hand.dealt[other])}
                played = {c.code for t in view.tricks for c in (p.card for p in t.cards)}
                played |= {p.card.code for p in view.trick}
                received = {p.card.code for p in view.passes_received}
                leaked = cards_in(view) & (hidden - played - received)
                assert not leaked, f"seat {seat_number}'s snapshot names {sorted(leaked)}"
                for h in view.holdings:
                    assert h.visible == (h.seat == seat_number)

    run(main())


def test_hints_see_only_the_seat_view_and_name_only_its_moves(monkeypatch):
    import cursedbottle.bots as bots
    from cursedbottle.bots.hints import Reason

    received: list[SeatView] = []

    def fake_hint(view, seed, budget):
        received.append(view)
        lines = tuple(
            bots.HintLine(a, 1.0, 0.5, 2, False, Reason("loses", a.card))
            for a in view.legal_actions
        )
        return bots.Hint(view.seat, lines)

    monkeypatch.setattr(bots, "hint", fake_hint, raising=False)

    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1), seed="hints")
            seats = await seat_humans(stub, table_id, 3)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            game = table_of(running, table_id).game
            for seat in seats:
                reply = await stub.Hint(
                    table_pb2.HintRequest(table_id=table_id, token=seat.token, budget_ms=50)
                )
                view = game.view(seat.seat)
                assert received[-1] == view, "the hint engine gets the seat's view, nothing else"
                assert isinstance(received[-1], SeatView)
                assert len(reply.actions) == len(view.legal_actions)
                mine = {c.ascii for c in view.my_cards}
                assert {a.action.pile.card.code for a in reply.actions} <= mine
                assert all(a.action.seat == seat.seat for a in reply.actions)
                knowledge = Knowledge(seat.seat)
                knowledge.allowed = mine
                assert cards_in(reply) <= mine

    run(main())


def test_hints_from_the_real_engine_rank_exactly_the_seats_moves():
    import cursedbottle.bots as bots

    if getattr(bots, "hint", None) is None:
        pytest.skip("the bots layer has no hint engine")

    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1), seed="real hints")
            seats = await seat_humans(stub, table_id, 3)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            table = table_of(running, table_id)
            game = table.game
            rng = random.Random(3)
            while not (game.hand.phase.value == "play" and len(game.hand.tricks) == 2):
                player = game.player_at(rng.choice(game.to_act()))
                legal = turn_msg(table, player).legal_actions
                await stub.Act(
                    table_pb2.ActRequest(
                        table_id=table_id, token=seats[player].token, action=rng.choice(legal)
                    )
                )
            player = game.player_at(game.to_act()[0])
            reply = await stub.Hint(
                table_pb2.HintRequest(
                    table_id=table_id, token=seats[player].token, seed=1, budget_ms=300
                )
            )
            legal = {a.play.card.code for a in turn_msg(table, player).legal_actions}
            assert {a.action.play.card.code for a in reply.actions} == legal
            view = game.view(player)
            mine = {c.ascii for c in view.my_cards}
            public = {c.ascii for t in view.tricks for c in t.cards}
            public |= {c.ascii for _, c in view.trick}
            assert cards_in(reply) <= mine | public
            if len(legal) > 1:
                assert reply.samples > 0
                assert all(a.HasField("expected_value") for a in reply.actions)

    run(main())
