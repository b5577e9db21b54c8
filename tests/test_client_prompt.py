"""The prompt line and the keys line without Textual: what the seat is asked, in words."""

from __future__ import annotations

from dataclasses import dataclass, field

from cursedbottle.client.i18n import Tr
from cursedbottle.client.plan import Plan
from cursedbottle.client.prompt import keys_line, prompt
from cursedbottle.v1 import game_pb2

PILE = game_pb2.PHASE_PILE


def card(code: str) -> game_pb2.Card:
    return game_pb2.Card(code=code, rank=code[:-1], suit=game_pb2.SUIT_YELLOW)


@dataclass
class Table:
    """The part of the client's model the prompt reads, set by hand."""

    me: int | None = 0
    tr: Tr = field(default_factory=lambda: Tr("en"))
    game_ended: object = None
    started: bool = True
    phase: int = PILE
    stage_hand: int | None = None
    kind: str | None = "pile"
    dealer: int | None = 2
    to_act: list[int] = field(default_factory=lambda: [0])
    hand_number: int = 1
    info: object = None

    def name(self, seat: int | None) -> str:
        return ["Ann", "Bob", "Cleo"][seat]

    def legal_kind(self) -> str | None:
        return self.kind

    def pile_needed(self) -> int:
        return 1

    def plan_targets(self) -> list:
        return [(1, None), (2, None)]


def test_refusals_and_notes_come_first():
    assert prompt(Table(), None, message="Refused: no") == ("Refused: no", "bold red")
    assert prompt(Table(), None, note="Tutor on") == ("Tutor on", "bold")


def test_the_setup_in_words():
    table = Table()
    plan = Plan(0, 1, [(1, None), (2, None)])
    assert prompt(table, plan) == ("Choose the card for the bottle's pile (Enter).", "")
    plan.pile.append(card("5Y"))
    assert prompt(table, plan)[0] == "Choose the card to pass to Bob (Enter)."
    plan.passes += [card("6Y"), card("7Y")]
    assert prompt(table, plan)[0] == (
        "Pile 5Y; pass 6Y to Bob, 7Y to Cleo. Enter: confirm · Esc: back one step.")
    plan.confirmed = True
    table.kind = None
    assert prompt(table, plan)[0] == "Sent. Waiting for the others…"


def test_devils_eye_names_the_receivers_hand():
    plan = Plan(0, 2, [(1, 0), (1, 1)], pile=[card("5Y"), card("6Y")], passes=[card("7Y")])
    assert prompt(Table(), plan)[0] == "Choose the card for Bob's hand 2 (hidden) (Enter)."
    assert prompt(Table(), Plan(0, 2, [(1, 0)]))[0] == (
        "Choose pile card 1 of 2 for the bottle's pile (Enter).")


def test_waiting_and_watching():
    assert prompt(Table(kind=None, to_act=[1]), None)[0] == "Waiting for the others…"
    assert prompt(Table(kind=None, to_act=[1], dealer=0), None)[0] == (
        "You deal: no card for the pile this hand. Waiting for the others…")
    assert prompt(Table(me=None), None, speed=0.0)[0] == (
        "Watching. +/− changes the speed (instant).")


def test_the_keys_line():
    assert keys_line(Table(me=None), online=True, tutor=False)[0] == "+/− speed · ? rules · q quit"
    assert "t tutor" not in keys_line(Table(), online=False, tutor=False)[0]
    assert "t tutor on" in keys_line(Table(), online=True, tutor=True)[0]
    assert "t tutor off" in keys_line(Table(), online=True, tutor=False)[0]
