"""A hint at a setup step ranks only what can be chosen there: after the staged pile
card the passes to the first neighbour, after that pass the passes to the second,
never a staged card; a seat that has sent its pile card and waits for the others
still gets a hint for its passes."""

from __future__ import annotations

import pytest
from cursedbottle.bots import hint
from cursedbottle.bots.hint_step import StagedError, next_step
from cursedbottle.engine import Game, Phase, Rules
from cursedbottle.engine.actions import PassCard, PileCard
from cursedbottle.engine.rules import Edition


def _pile_phase(players: int = 3, seed: int = 4) -> tuple[Game, int]:
    game = Game(Rules(players), seed=seed, first_dealer=0)
    assert game.hand.phase is Phase.PILE
    seat = next(s for s in game.to_act())
    return game, seat


def _cards(view):
    return {a.card for a in view.legal_actions}


def test_after_the_staged_pile_card_the_passes_to_the_first_neighbour_without_it():
    game, seat = _pile_phase()
    view = game.view(game.player_at(seat))
    card = view.my_cards[0]
    step = next_step(view, [PileCard(seat, card)])
    first, second = view.pass_plan
    assert step.phase is Phase.PASS
    assert {a.to for a in step.legal_actions} == {first[0]}
    assert card not in _cards(step)
    assert _cards(step) == set(view.my_cards) - {card}
    # and after the first pass: the second neighbour, without either card
    other = sorted(_cards(step))[0]
    step2 = next_step(view, [PileCard(seat, card), PassCard(seat, first[0], other)])
    assert {a.to for a in step2.legal_actions} == {second[0]}
    assert not {card, other} & _cards(step2)
    # everything staged: nothing left to choose
    last = sorted(_cards(step2))[0]
    done = next_step(view, [PileCard(seat, card), PassCard(seat, first[0], other),
                            PassCard(seat, second[0], last)])
    assert done.legal_actions == ()


def test_the_hint_ranks_the_step_after_the_staged_choices():
    game, seat = _pile_phase()
    view = game.view(game.player_at(seat))
    card = view.my_cards[0]
    first = view.pass_plan[0][0]
    other = view.my_cards[1]
    step = next_step(view, [PileCard(seat, card), PassCard(seat, first, other)])
    result = hint(step, seed=1, samples=3)
    assert result.lines
    assert all(isinstance(line.action, PassCard) for line in result.lines)
    assert all(line.action.to == view.pass_plan[1][0] for line in result.lines)
    assert not {card, other} & {line.action.card for line in result.lines}


def test_a_seat_that_sent_its_pile_card_still_chooses_its_passes():
    game, seat = _pile_phase()
    view = game.view(game.player_at(seat))
    game.apply(PileCard(seat, view.my_cards[0]))
    assert game.hand.phase is Phase.PILE and seat not in game.to_act()
    waiting = game.view(game.player_at(seat))
    assert waiting.legal_actions == ()
    step = next_step(waiting)
    assert step.legal_actions and all(isinstance(a, PassCard) for a in step.legal_actions)
    assert {a.to for a in step.legal_actions} == {waiting.pass_plan[0][0]}


def test_in_the_pass_phase_only_the_next_receiver_is_ranked():
    game, _seat = _pile_phase()
    while game.hand.phase is Phase.PILE:
        game.apply(game.legal_actions()[0])
    seat = game.to_act()[0]
    view = game.view(game.player_at(seat))
    assert len({a.to for a in view.legal_actions}) == 2
    step = next_step(view)
    assert {a.to for a in step.legal_actions} == {view.pass_plan[0][0]}


def test_devils_eye_two_pile_cards_then_a_pass_to_each_hand():
    game = Game(Rules(2, edition=Edition.BOTTLE_IMP), seed=3, first_dealer=0)
    seat = game.to_act()[0]
    view = game.view(game.player_at(seat))
    assert view.pile_owed == 2
    mine = sorted(_cards(view))
    one = next_step(view, [PileCard(seat, mine[0])])
    assert one.phase is Phase.PILE and mine[0] not in _cards(one)
    two = next_step(view, [PileCard(seat, mine[0]), PileCard(seat, mine[1])])
    to, hand = view.pass_plan[0]
    assert two.phase is Phase.PASS and two.pass_to_hand == hand
    assert {a.to for a in two.legal_actions} == {to}
    three = next_step(view, [PileCard(seat, mine[0]), PileCard(seat, mine[1]),
                             PassCard(seat, to, mine[2])])
    assert three.pass_to_hand == view.pass_plan[1][1]
    assert not set(mine[:3]) & _cards(three)


def test_staged_choices_the_seat_cannot_make_are_refused():
    game, seat = _pile_phase()
    view = game.view(game.player_at(seat))
    card = view.my_cards[0]
    with pytest.raises(StagedError):
        next_step(view, [PileCard(seat, card), PileCard(seat, card)])
    with pytest.raises(StagedError):
        next_step(view, [PassCard(seat, view.pass_plan[1][0], card)])
    with pytest.raises(StagedError):
        next_step(view, [PassCard(seat, view.pass_plan[0][0], card)])  # the pile first
    not_mine = next(c for c in view.rules.deck.cards if c not in view.my_cards)
    with pytest.raises(StagedError):
        next_step(view, [PileCard(seat, not_mine)])


def test_the_hint_rpc_takes_the_staged_choices_and_a_waiting_seat():
    """Over gRPC: the staged pile card goes with the request (nothing is sent), a card
    not held is refused as MALFORMED, and a seat that has sent its pile card while the
    others still think gets its passes ranked (not NOT_YOUR_TURN)."""
    import grpc
    from cursedbottle.server.wire import card_msg
    from cursedbottle.v1 import game_pb2, table_pb2
    from test_server_support import (
        add_bots,
        create,
        refused,
        rules,
        run,
        seat_humans,
        serving,
        table_of,
    )

    async def main():
        async with serving(bot_delay=5.0) as (running, stub):
            table_id, host = await create(stub, rules(3))
            (me,) = await seat_humans(stub, table_id, 1)
            await add_bots(stub, table_id, host, 2)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            game = table_of(running, table_id).game
            player = me.seat
            view = game.view(player)
            if view.pile_owed == 0:
                pytest.skip("this seat deals and lays no pile card")
            card = view.my_cards[0]

            def ask(*staged):
                return stub.Hint(table_pb2.HintRequest(
                    table_id=table_id, token=me.token, budget_ms=100, staged=list(staged)))

            pile = game_pb2.Action(pile=game_pb2.PileCardAction(card=card_msg(card)))
            hint = await ask(pile)
            assert {a.action.WhichOneof("kind") for a in hint.actions} == {"pass_card"}
            assert card.ascii not in {a.action.pass_card.card.code for a in hint.actions}
            assert not game.view(player).my_pile_cards  # nothing was sent
            other = next(c for c in game.rules.deck.cards if c not in view.my_cards)
            bad = game_pb2.Action(pile=game_pb2.PileCardAction(card=card_msg(other)))
            await refused(ask(bad), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED")
            await stub.Act(table_pb2.ActRequest(table_id=table_id, token=me.token, action=pile))
            assert game.view(player).legal_actions == ()  # the bots are still thinking
            hint = await ask()
            assert {a.action.WhichOneof("kind") for a in hint.actions} == {"pass_card"}

    run(main())
