"""Every refusal: its status code, the rule it names, and nothing changed.

Each refused call is made between two fingerprints of the table (seats,
tokens, the engine's hand and log); they must be equal.  Garbage — random
characters and invalid bytes where a card belongs, huge strings, negative
seats — is refused as INVALID_ARGUMENT and the server keeps serving.
"""

from __future__ import annotations

import asyncio
import random

import grpc
import pytest
from cursedbottle.engine.cards import CURSED_BOTTLE
from cursedbottle.engine.events import Phase
from cursedbottle.server.table_msgs import turn_msg
from cursedbottle.v1 import game_pb2, table_pb2
from test_server_support import (
    add_bots,
    create,
    fingerprint,
    refused,
    rules,
    run,
    seat_humans,
    serving,
    table_of,
)

INVALID = grpc.StatusCode.INVALID_ARGUMENT
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION
UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
DENIED = grpc.StatusCode.PERMISSION_DENIED
NOT_FOUND = grpc.StatusCode.NOT_FOUND


def play(code: str, seat: int | None = None) -> game_pb2.Action:
    action = game_pb2.Action(play=game_pb2.PlayCardAction(card=game_pb2.Card(code=code)))
    if seat is not None:
        action.seat = seat
    return action


def pile(code: str) -> game_pb2.Action:
    return game_pb2.Action(pile=game_pb2.PileCardAction(card=game_pb2.Card(code=code)))


def act(table_id: str, token: str, action: game_pb2.Action | None) -> table_pb2.ActRequest:
    request = table_pb2.ActRequest(table_id=table_id, token=token)
    if action is not None:
        request.action.CopyFrom(action)
    return request


async def first(call):
    async for update in call:
        return update
    return None


class Table:
    """A started table of people, driven move by move through the stub."""

    def __init__(self, running, stub, table_id, host, seats) -> None:
        self.running, self.stub, self.id, self.host, self.seats = (
            running,
            stub,
            table_id,
            host,
            seats,
        )

    @property
    def table(self):
        return table_of(self.running, self.id)

    @property
    def game(self):
        return self.table.game

    def token(self, seat: int) -> str:
        return self.seats[seat].token

    async def refuse(self, call, code, rule=None) -> str:
        before = fingerprint(self.table)
        message = await refused(call, code, rule)
        assert fingerprint(self.table) == before, "a refused request changed the table"
        return message

    async def step(self, rng: random.Random) -> None:
        """One legal move of some seat that must act."""
        game = self.game
        player = game.player_at(rng.choice(game.to_act()))
        legal = turn_msg(self.table, player).legal_actions
        await self.stub.Act(act(self.id, self.token(player), rng.choice(legal)))

    def mover(self) -> int:
        game = self.game
        return game.player_at(game.to_act()[0])


async def started(running, stub, rules_msg=None, seed="refusals") -> Table:
    table_id, host = await create(stub, rules_msg or rules(3, hands=1), seed=seed)
    seats = await seat_humans(stub, table_id, (rules_msg or rules(3)).players)
    await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
    return Table(running, stub, table_id, host, seats)


def test_malformed_requests_are_invalid_arguments():
    async def main():
        async with serving() as (running, stub):
            t = await started(running, stub)
            token = t.token(0)
            mine = t.game.view(0).my_cards[0].ascii
            await t.refuse(t.stub.Act(act(t.id, token, None)), INVALID, "MALFORMED")
            await t.refuse(t.stub.Act(act(t.id, token, game_pb2.Action())), INVALID, "MALFORMED")
            await t.refuse(t.stub.Act(act(t.id, token, pile(""))), INVALID, "MALFORMED")
            await t.refuse(t.stub.Act(act(t.id, token, pile("ZZ"))), INVALID, "MALFORMED")
            await t.refuse(t.stub.Act(act(t.id, token, pile("11H"))), INVALID, "MALFORMED")
            bad_to = game_pb2.Action(
                pass_card=game_pb2.PassCardAction(to=-1, card=game_pb2.Card(code=mine))
            )
            await t.refuse(t.stub.Act(act(t.id, token, bad_to)), INVALID, "NO_SUCH_SEAT")
            bad_to.pass_card.to = 7
            await t.refuse(t.stub.Act(act(t.id, token, bad_to)), INVALID, "NO_SUCH_SEAT")
            bad_hand = game_pb2.Action(choose_open=game_pb2.ChooseOpenAction(hand=5))
            await t.refuse(t.stub.Act(act(t.id, token, bad_hand)), INVALID, "MALFORMED")
            await t.refuse(t.stub.Act(act(t.id, token, play(mine, seat=-1))), INVALID)
            await t.refuse(
                t.stub.Join(table_pb2.JoinRequest(table_id=t.id, seat=-1)), INVALID, "NO_SUCH_SEAT"
            )
            await t.refuse(
                t.stub.AddBot(table_pb2.AddBotRequest(table_id=t.id, token=t.host, seat=-5)),
                INVALID,
                "NO_SUCH_SEAT",
            )
            await t.refuse(
                t.stub.RemoveBot(table_pb2.RemoveBotRequest(table_id=t.id, token=t.host, seat=-1)),
                INVALID,
                "NO_SUCH_SEAT",
            )
            await t.refuse(
                t.stub.Join(table_pb2.JoinRequest(table_id=t.id, seat=9)), INVALID, "NO_SUCH_SEAT"
            )
            await t.refuse(
                t.stub.Hint(table_pb2.HintRequest(table_id=t.id, token=token, budget_ms=0)),
                INVALID,
            )
            await t.refuse(
                t.stub.Join(table_pb2.JoinRequest(table_id=t.id, name="a\x00b")), INVALID
            )
            await t.refuse(t.stub.Act(table_pb2.ActRequest(table_id=t.id)), INVALID, "MALFORMED")
            await t.refuse(t.stub.Act(table_pb2.ActRequest(token=token)), INVALID, "MALFORMED")

    run(main())


def test_garbage_is_refused_without_a_crash():
    async def main():
        async with serving() as (running, stub):
            t = await started(running, stub)
            token = t.token(0)
            rng = random.Random(5)
            for _ in range(40):
                text = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12)))
                code = text.decode("latin-1")
                with pytest.raises(ValueError):
                    CURSED_BOTTLE.card(code)
                await t.refuse(t.stub.Act(act(t.id, token, pile(code))), INVALID, "MALFORMED")
            huge = "Q" * 500_000
            message = await t.refuse(t.stub.Act(act(t.id, token, pile(huge))), INVALID)
            assert len(message) < 200, "the refusal does not echo a huge string"
            await t.refuse(t.stub.Act(table_pb2.ActRequest(table_id=t.id, token=huge)), INVALID)
            await t.refuse(t.stub.GetTable(table_pb2.GetTableRequest(table_id=huge)), INVALID)
            await t.refuse(t.stub.Join(table_pb2.JoinRequest(table_id=t.id, name=huge)), INVALID)
            # Over the server's message size limit: refused by gRPC itself.
            await t.refuse(
                t.stub.Act(act(t.id, token, pile("Q" * 2_000_000))),
                grpc.StatusCode.RESOURCE_EXHAUSTED,
            )
            # Bytes that are no protobuf message at all, or a string field holding
            # invalid UTF-8: refused at parsing, as INVALID_ARGUMENT.
            raw = t.stub.channel.unary_unary("/cursedbottle.v1.CursedBottle/Act")
            for data in (b"\x0a\x02\xff\xfe", b"\xff\xff\xff\xff", bytes(range(256))):
                await t.refuse(raw(data), INVALID, "MALFORMED")
            card_bytes = game_pb2.Card(code="AD").SerializeToString().replace(b"AD", b"\xc3\x28")
            request = act(t.id, token, None).SerializeToString()
            pile_action = b"\x12" + bytes([len(card_bytes) + 2, 0x0A, len(card_bytes)]) + card_bytes
            data = request + b"\x1a" + bytes([len(pile_action)]) + pile_action
            await t.refuse(raw(data), INVALID, "MALFORMED")
            # Still serving, and the game goes on.
            await t.step(rng)
            assert len(t.game.actions) == 1

    run(main())


def test_the_rules_refuse_with_failed_precondition():
    async def main():
        async with serving() as (running, stub):
            t = await started(running, stub)
            rng = random.Random(11)
            game = t.game
            view = game.view(0)
            mine = [c.ascii for c in view.my_cards]
            others = [c.ascii for c in game.view(1).my_cards]
            # pile phase
            await t.refuse(
                t.stub.Act(act(t.id, t.token(0), play(mine[0]))), PRECONDITION, "WRONG_PHASE"
            )
            await t.refuse(
                t.stub.Act(act(t.id, t.token(0), pile(others[0]))), PRECONDITION, "CARD_NOT_HELD"
            )
            await t.stub.Act(act(t.id, t.token(0), pile(mine[0])))
            message = await t.refuse(
                t.stub.Act(act(t.id, t.token(0), pile(mine[1]))), PRECONDITION, "ALREADY_CHOSEN"
            )
            assert "already" in message
            while game.hand.phase is Phase.PILE:
                await t.step(rng)
            # pass phase
            mine = [c.ascii for c in game.view(0).my_cards]
            await t.refuse(
                t.stub.Act(act(t.id, t.token(0), pile(mine[0]))), PRECONDITION, "WRONG_PHASE"
            )
            while game.hand.phase is not Phase.PLAY:
                await t.step(rng)
            # play phase: not your turn, follow suit
            mover = t.mover()
            idle = (mover + 1) % 3
            idle_card = game.view(idle).my_cards[0].ascii
            message = await t.refuse(
                t.stub.Act(act(t.id, t.token(idle), play(idle_card))), PRECONDITION, "NOT_YOUR_TURN"
            )
            assert "turn" in message
            tried_follow = False
            while not game.is_over and not tried_follow:
                hand = game.hand
                if hand.trick:
                    mover = t.mover()
                    led = hand.deck.cards[hand.trick[0]].suit
                    held = game.view(mover).my_cards
                    off = [c for c in held if c.suit != led]
                    if off and any(c.suit == led for c in held):
                        message = await t.refuse(
                            t.stub.Act(act(t.id, t.token(mover), play(off[0].ascii))),
                            PRECONDITION,
                            "FOLLOW_SUIT",
                        )
                        assert "follow suit" in message
                        tried_follow = True
                        continue
                await t.step(rng)
            assert tried_follow
            while not game.is_over:
                await t.step(rng)
            await t.refuse(t.stub.Act(act(t.id, t.token(0), play("AD"))), PRECONDITION, "GAME_OVER")

    run(main())


def test_passing_to_a_non_neighbour_and_table_preconditions(monkeypatch):
    import cursedbottle.bots as bots

    monkeypatch.delattr(bots, "hint", raising=False)

    async def main():
        # The bot waits before each move, so that nothing moves while a refusal is
        # checked (a refused call must leave the table exactly as it was).
        async with serving(bot_delay=0.3) as (running, stub):
            table_id, host = await create(stub, rules(4, hands=1))
            humans = await seat_humans(stub, table_id, 2)
            t = Table(running, stub, table_id, host, [])
            start = table_pb2.StartRequest(table_id=table_id, token=host)
            message = await t.refuse(stub.Start(start), PRECONDITION, "SEATS_EMPTY")
            assert "2, 3" in message
            joined = await stub.Join(table_pb2.JoinRequest(table_id=table_id, name="third"))
            await t.refuse(
                stub.Join(table_pb2.JoinRequest(table_id=table_id, seat=0)),
                PRECONDITION,
                "SEAT_TAKEN",
            )
            await t.refuse(
                stub.Act(act(table_id, joined.token, pile("AD"))), PRECONDITION, "NOT_STARTED"
            )
            await t.refuse(
                stub.RemoveBot(table_pb2.RemoveBotRequest(table_id=table_id, token=host, seat=0)),
                PRECONDITION,
                "NOT_A_BOT",
            )
            await add_bots(stub, table_id, host, 1)
            await t.refuse(
                stub.Join(table_pb2.JoinRequest(table_id=table_id)), PRECONDITION, "TABLE_FULL"
            )
            await t.refuse(
                stub.AddBot(table_pb2.AddBotRequest(table_id=table_id, token=host, bot="nobody")),
                INVALID,
                "UNKNOWN_BOT",
            )
            await stub.Start(start)
            await t.refuse(stub.Start(start), PRECONDITION, "ALREADY_STARTED")
            game = t.game
            player = 2
            tokens = {h.seat: h.token for h in humans} | {player: joined.token}
            for p, token in tokens.items():
                card = game.view(p).my_cards[0].ascii
                await stub.Act(act(table_id, token, pile(card)))
            for _ in range(1000):  # the bot in seat 3 piles in its own time
                if game.hand.phase is Phase.PASS:
                    break
                await asyncio.sleep(0.01)
            for _ in range(1000):  # and lays its passes: nothing moves while we check
                if 3 not in game.to_act():
                    break
                await asyncio.sleep(0.01)
            assert game.hand.phase is Phase.PASS and 3 not in game.to_act()
            opposite = (player + 2) % 4
            across = game_pb2.Action(
                pass_card=game_pb2.PassCardAction(
                    to=opposite, card=game_pb2.Card(code=game.view(player).my_cards[0].ascii)
                )
            )
            message = await t.refuse(
                stub.Act(act(table_id, joined.token, across)),
                PRECONDITION,
                "PASS_TO_NON_NEIGHBOUR",
            )
            assert "seat 1 and seat 3" in message or "seat 3 and seat 1" in message

    run(main())


def test_who_may_do_what():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1), password="open sesame")
            other_id, other_host = await create(stub, rules(3, hands=1))
            t = Table(running, stub, table_id, host, [])
            await t.refuse(
                stub.Join(table_pb2.JoinRequest(table_id=table_id, password="guess")),
                DENIED,
                "WRONG_PASSWORD",
            )
            await t.refuse(
                first(stub.Watch(table_pb2.WatchRequest(table_id=table_id))),
                DENIED,
                "WRONG_PASSWORD",
            )
            seats = await seat_humans(stub, table_id, 3, password="open sesame")
            (stranger,) = await seat_humans(stub, other_id, 1)
            t.seats = seats
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            mover = t.mover()
            card = t.game.view(mover).my_cards[0].ascii
            other = (mover + 1) % 3
            for_other = pile(card)
            for_other.seat = other
            message = await t.refuse(
                stub.Act(act(table_id, t.token(mover), for_other)), DENIED, "NOT_YOUR_SEAT"
            )
            assert f"seat {mover}" in message
            await t.refuse(stub.Act(act(table_id, "not-a-token", pile(card))), UNAUTHENTICATED)
            await t.refuse(
                first(stub.Subscribe(table_pb2.SubscribeRequest(table_id=table_id, token="x"))),
                UNAUTHENTICATED,
                "UNKNOWN_TOKEN",
            )
            await t.refuse(stub.Act(act(table_id, host, pile(card))), DENIED, "HOST_TOKEN")
            await t.refuse(
                stub.Act(act(table_id, stranger.token, pile(card))), DENIED, "OTHER_TABLE"
            )
            await t.refuse(
                stub.AddBot(table_pb2.AddBotRequest(table_id=table_id, token=other_host)),
                UNAUTHENTICATED,
            )
            await t.refuse(
                stub.Start(table_pb2.StartRequest(table_id=table_id, token=stranger.token)),
                DENIED,
                "OTHER_TABLE",
            )
            # A seat given up: its token stops working.
            await stub.Leave(table_pb2.LeaveRequest(table_id=table_id, token=t.token(other)))
            await t.refuse(
                stub.Act(act(table_id, t.token(other), pile(card))),
                UNAUTHENTICATED,
                "UNKNOWN_TOKEN",
            )
            for call in (
                stub.GetTable(table_pb2.GetTableRequest(table_id="nope")),
                stub.Join(table_pb2.JoinRequest(table_id="nope")),
                stub.Act(act("nope", t.token(mover), pile(card))),
                first(stub.Watch(table_pb2.WatchRequest(table_id="nope"))),
                first(stub.Subscribe(table_pb2.SubscribeRequest(table_id="nope", token="x"))),
            ):
                message = await t.refuse(call, NOT_FOUND, "NO_SUCH_TABLE")
                assert "ListTables" in message

    run(main())


def test_bad_rule_sets_are_refused():
    async def main():
        async with serving() as (running, stub):
            for bad in (
                game_pb2.Rules(players=5),
                game_pb2.Rules(players=3, bright_house=True),
                game_pb2.Rules(players=3, target=-4),
                game_pb2.Rules(players=3, hands=0),
                game_pb2.Rules(players=3, hands=10**6),
            ):
                message = await refused(
                    stub.CreateTable(table_pb2.CreateTableRequest(rules=bad)), INVALID, "BAD_RULES"
                )
                assert message.startswith("rules:")
            for request in (
                table_pb2.CreateTableRequest(first_dealer=-1),
                table_pb2.CreateTableRequest(first_dealer=3),
                table_pb2.CreateTableRequest(stand_in_after_seconds=-1),
                table_pb2.CreateTableRequest(stand_in_bot="nobody"),
                table_pb2.CreateTableRequest(name="x" * 1000),
            ):
                await refused(stub.CreateTable(request), INVALID)
            assert not running.lobby.tables

    run(main())


def test_devils_eye_refuses_setup_cards_from_the_first_hand_and_revokes_per_hand():
    """Devil's Eye: the pile and the passes come from the second hand, and a
    card must follow suit when the hand it comes from holds the led suit."""

    async def main():
        async with serving() as (running, stub):
            imp2 = rules(2, hands=1, game=game_pb2.GAME_BOTTLE_IMP)
            t = await started(running, stub, imp2, seed="devil")
            hand = t.game.hand
            deck = hand.deck
            first = deck.cards_of(hand.holdings[0])[0].ascii
            message = await t.refuse(
                t.stub.Act(act(t.id, t.token(0), pile(first))), PRECONDITION, "CARD_NOT_HELD"
            )
            assert "in hand 2" in message
            rng = random.Random(2)
            while t.game.hand.phase is not Phase.PLAY:
                await t.step(rng)
            # Play on until a seat holds the led suit in one hand only and
            # could revoke from it: the refusal names that hand.
            for _ in range(64):
                hand = t.game.hand
                if hand.trick and hand.phase is Phase.PLAY:
                    led = deck.suit_masks[deck.suit_of[hand.trick[0]]]
                    mover = hand.holder_to_play()
                    for h in (mover, mover + 1):
                        follow, other = hand.holdings[h] & led, hand.holdings[h] & ~led
                        if follow and other:
                            card = deck.cards_of(other)[0]
                            message = await t.refuse(
                                t.stub.Act(act(t.id, t.token(t.mover()), play(card.ascii))),
                                PRECONDITION,
                                "FOLLOW_SUIT",
                            )
                            assert "each hand follows suit on its own" in message
                            return
                await t.step(rng)
            raise AssertionError("no chance to revoke came up")

    run(main())
