"""The setup plan without Textual: what the seat is asked (`step`), the plan kept through
a stage, what of it the server asks for (`due`), what Esc takes back, and the marks
drawn over staged cards."""

from __future__ import annotations

from dataclasses import dataclass, field

from cursedbottle.client.plan import (
    Plan,
    Step,
    active_hand,
    due,
    marks,
    pass_tags,
    selectable,
    stage_plan,
    step,
)
from cursedbottle.v1 import game_pb2

PILE, PASS, PLAY = game_pb2.PHASE_PILE, game_pb2.PHASE_PASS, game_pb2.PHASE_PLAY


def card(code: str) -> game_pb2.Card:
    return game_pb2.Card(code=code)


def pile(code: str) -> game_pb2.Action:
    return game_pb2.Action(pile=game_pb2.PileCardAction(card=card(code)))


def pass_to(code: str, to: int) -> game_pb2.Action:
    return game_pb2.Action(pass_card=game_pb2.PassCardAction(card=card(code), to=to))


@dataclass
class Seat:
    """The part of the client's model the plan reads, set by hand."""

    me: int | None = 0
    game_ended: object = None
    started: bool = True
    phase: int = PILE
    stage_hand: int | None = None
    legal: list[game_pb2.Action] = field(default_factory=list)
    needed: int = 1
    targets: list = field(default_factory=lambda: [(1, None), (2, None)])
    asked: list = field(default_factory=list)  # the passes the server asks for now
    hands: list = field(default_factory=lambda: [(0, [card(c) for c in ("1H", "2H", "3H")])])

    def legal_kind(self) -> str | None:
        return self.legal[0].WhichOneof("kind") if self.legal else None

    def legal_codes(self) -> set[str]:
        return {getattr(a, a.WhichOneof("kind")).card.code for a in self.legal}

    def pile_needed(self) -> int:
        return self.needed

    def plan_targets(self) -> list:
        return list(self.targets)

    def stage_targets(self) -> list:
        return list(self.asked)

    def my_hands(self) -> list:
        return self.hands

    def find_action(self, kind: str, code: str = "", to: int | None = None):
        for a in self.legal:
            if a.WhichOneof("kind") != kind:
                continue
            moved = getattr(a, kind)
            if moved.card.code == code and (kind != "pass_card" or to is None or moved.to == to):
                return a
        return None


def test_steps_compare_as_their_names():
    assert Step.PILE == "pile" and {Step.PLAY} == {"play"} and f"{Step.CONFIRM}" == "confirm"


def test_what_is_asked_outside_the_setup():
    assert step(Seat(me=None), None) == "watch"
    assert step(Seat(game_ended=object()), None) == "over"
    assert step(Seat(started=False), None) == "lobby"
    assert step(Seat(phase=PLAY, legal=[game_pb2.Action(play=game_pb2.PlayCardAction())]),
                None) == "play"
    opening = game_pb2.Action(choose_open=game_pb2.ChooseOpenAction(hand=0))
    assert step(Seat(legal=[opening]), None) == "open"
    assert step(Seat(), None) == "wait"  # the setup, but the server asks someone else


def test_the_plan_is_made_when_the_server_asks_and_kept_through_its_stage():
    seat = Seat(legal=[pile("1H"), pile("2H")])
    plan = stage_plan(seat, None)
    assert plan.stage == 0 and plan.pile_count == 1 and plan.targets == [(1, None), (2, None)]
    seat.legal = []  # sent: the server asks the others meanwhile
    assert stage_plan(seat, plan) is plan
    assert stage_plan(Seat(), None) is None  # not asked yet: no plan
    assert stage_plan(Seat(phase=PLAY, legal=[pile("1H")]), plan) is None
    seat.stage_hand, seat.legal = 1, [pile("2H")]  # Devil's Eye's second stage
    assert stage_plan(seat, plan) is not plan


def test_pile_then_passes_then_confirm():
    seat = Seat(legal=[pile("1H"), pile("2H"), pile("3H")])
    plan = stage_plan(seat, None)
    assert step(seat, plan) == "pile"
    plan.pile.append(card("1H"))
    assert step(seat, plan) == "pass" and plan.next_target() == (1, None)
    plan.passes.append(card("2H"))
    assert plan.next_target() == (2, None)
    plan.passes.append(card("3H"))
    assert step(seat, plan) == "confirm" and plan.next_target() is None
    plan.confirmed = True
    assert step(seat, plan) == "wait"


def test_what_may_be_chosen_leaves_out_what_is_staged():
    seat = Seat(legal=[pile("1H"), pile("2H"), pile("3H")])
    plan = stage_plan(seat, None)
    assert selectable(seat, plan) == {"1H", "2H", "3H"}
    plan.pile.append(card("1H"))
    # the pass is not asked yet: any card of the stage's hand but the staged one
    assert selectable(seat, plan) == {"2H", "3H"}
    seat.legal = []  # the pile card sent, the passes are chosen before they are asked
    assert selectable(seat, plan) == {"2H", "3H"}
    assert selectable(Seat(), None) == set()  # nothing asked of this seat yet


def test_due_sends_the_pile_then_the_passes_the_server_names():
    seat = Seat(legal=[pile("1H"), pile("2H"), pile("3H")])
    plan = stage_plan(seat, None)
    plan.pile, plan.passes = [card("1H")], [card("2H"), card("3H")]
    now = due(seat, plan)
    assert now.actions == [pile("1H")] and now.sent == ["1H"] and not now.taken_back
    plan.mark_sent("1H")
    seat.phase, seat.asked = PASS, [(1, None), (2, None)]
    seat.legal = [pass_to(c, to) for c in ("2H", "3H") for to in (1, 2)]
    now = due(seat, plan)
    assert now.actions == [pass_to("2H", 1), pass_to("3H", 2)]
    assert now.sent == [(1, None), (2, None)]
    for sent in now.sent:
        plan.mark_sent(sent)
    assert plan.pile_sent == {"1H"} and plan.passes_sent == {(1, None), (2, None)}
    assert due(seat, plan).actions == []  # nothing twice


def test_due_waits_for_a_pass_not_chosen_yet():
    seat = Seat(phase=PASS, asked=[(1, None)], legal=[pass_to("2H", 1)], needed=0,
                targets=[(1, None)])
    plan = stage_plan(seat, None)
    assert due(seat, plan).actions == [] and not due(seat, plan).taken_back


def test_due_takes_back_what_the_server_no_longer_takes():
    seat = Seat(legal=[pile("2H")])
    plan = Plan(0, 1, [(1, None)], pile=[card("1H")], passes=[card("3H")], confirmed=True)
    now = due(seat, plan)
    assert now.taken_back and now.actions == []
    assert plan.pile == [] and plan.passes == [] and not plan.confirmed


def test_receivers_named_otherwise_are_chosen_again():
    seat = Seat(phase=PASS, asked=[(2, None)], legal=[pass_to("2H", 2)], needed=0)
    plan = Plan(0, 0, [(1, None)], passes=[card("2H")], confirmed=True)
    now = due(seat, plan)
    assert now.taken_back and plan.targets == [(2, None)] and plan.passes == []


def test_esc_takes_back_only_what_was_not_sent():
    plan = Plan(0, 2, [(1, 0), (1, 1)], pile=[card("1H"), card("2H")],
                passes=[card("3H"), card("4H")], confirmed=True)
    plan.mark_sent("1H")
    plan.mark_sent((1, 0))
    plan.forget()
    assert [c.code for c in plan.pile] == ["1H"] and [c.code for c in plan.passes] == ["3H"]
    assert not plan.confirmed and plan.next_target() == (1, 1)
    assert plan.codes() == {"1H", "3H"} and plan.card_for((1, 0)).code == "3H"
    assert plan.card_for((1, 1)) is None


def test_pass_tags_and_marks():
    assert pass_tags([(1, None), (2, None)], ["Bob", "Cleo"]) == ["Bob", "Cle"]
    assert pass_tags([(1, None), (2, None)], ["rule bot 1", "rule bot 2"]) == ["ru1", "ru2"]
    assert pass_tags([(1, 0), (1, 1)], ["Bob", "Bob"]) == ["Bo1", "Bo2"]
    plan = Plan(0, 1, [(1, None), (2, None)], pile=[card("1H")], passes=[card("2H")])
    assert marks(plan, ["Bob", "Cleo"]) == {"1H": "⚱", "2H": "→Bob"}
    assert marks(None, []) == {}


def test_the_setup_takes_from_the_stage_hand():
    assert active_hand(Seat(stage_hand=1)) == 1
    assert active_hand(Seat(phase=PASS)) == 0
    assert active_hand(Seat(phase=PLAY, stage_hand=1)) is None
