"""The setup a person chooses at once, and what the seat is asked for now.

The server asks for the setup piece by piece (Devil's Eye: two pile cards, then
the pass for the opponent's first hand, then the one for its second, each pass a
stage of its own).  A `Plan` keeps the stage's pile cards and passes, staged and
then confirmed, and remembers what the server accepted, so that nothing is sent
twice and Esc takes back the last choice not sent (`undo`); `staged` is what a hint
must take as chosen.  `step` says what the seat is asked now.  Pure functions of
the client's model (its public API) and the plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from cursedbottle.v1 import game_pb2

Target = tuple[int, int | None]  # (receiving seat, its hand in Devil's Eye, else None)
SETUP_PHASES = (game_pb2.PHASE_PILE, game_pb2.PHASE_PASS)


class Step(StrEnum):
    """What the seat is asked now (equal to its name as a string)."""

    WATCH = "watch"  # a spectator
    OVER = "over"  # the game is over
    LOBBY = "lobby"  # not started yet
    PLAY = "play"
    OPEN = "open"  # the bright house: which hand to open
    PILE = "pile"  # stage a pile card
    PASS = "pass"  # stage a pass
    CONFIRM = "confirm"  # the stage's choices are staged: Enter sends them
    WAIT = "wait"


#: The steps where the seat chooses something (a hint ranks what it chooses there).
ASKED = frozenset({Step.PLAY, Step.OPEN, Step.PILE, Step.PASS})


class SetupModel(Protocol):
    """What the plan reads of the table's model."""

    me: int | None
    game_ended: object
    started: bool
    phase: int
    stage_hand: int | None

    def legal_kind(self) -> str | None: ...
    def find_action(self, kind: str, code: str = "",
                    to: int | None = None) -> game_pb2.Action | None: ...
    def stage_targets(self) -> list[Target]: ...
    def legal_codes(self) -> set[str]: ...
    def pile_needed(self) -> int: ...
    def plan_targets(self) -> list[Target]: ...
    def my_hands(self) -> list[tuple[int, list[game_pb2.Card]]]: ...


@dataclass
class Plan:
    """The pile cards and the passes chosen for one setup stage, sent after a confirmation."""

    stage: int
    pile_count: int
    targets: list[Target]
    pile: list[game_pb2.Card] = field(default_factory=list)
    passes: list[game_pb2.Card] = field(default_factory=list)  # one per target, in order
    confirmed: bool = False
    pile_sent: set[str] = field(default_factory=set)  # codes of the accepted pile cards
    passes_sent: set[Target] = field(default_factory=set)

    def codes(self) -> set[str]:
        return {c.code for c in self.passes} | {c.code for c in self.pile}

    def next_target(self) -> Target | None:
        """Whom the next pass to be chosen goes to (None: all are chosen)."""
        return self.targets[len(self.passes)] if len(self.passes) < len(self.targets) else None

    def card_for(self, target: Target) -> game_pb2.Card | None:
        for t, card in zip(self.targets, self.passes, strict=False):
            if t == target:
                return card
        return None

    def forget(self, pile: bool = True) -> None:
        """Take back the choices not sent yet (the passes; the pile cards too with `pile`),
        to be chosen again."""
        if pile:
            self.pile = [c for c in self.pile if c.code in self.pile_sent]
        kept = []
        for target, card in zip(self.targets, self.passes, strict=False):
            if target not in self.passes_sent:
                break
            kept.append(card)
        self.passes = kept
        self.confirmed = False

    def undo(self) -> bool:
        """Esc: take back the last choice not sent yet (a confirmed plan is open again);
        False when everything chosen was sent already."""
        unsent = [t for t in self.targets[: len(self.passes)] if t not in self.passes_sent]
        if unsent:
            self.passes.pop()
        elif any(c.code not in self.pile_sent for c in self.pile):
            self.pile.pop()
        else:
            return False
        self.confirmed = False
        return True

    def staged(self) -> list[game_pb2.Action]:
        """The choices made but not sent, as the server's actions (the pile cards, then
        the passes in the order asked): a hint ranks the step after them."""
        out = [game_pb2.Action(pile=game_pb2.PileCardAction(card=c))
               for c in self.pile if c.code not in self.pile_sent]
        for target, card in zip(self.targets, self.passes, strict=False):
            if target not in self.passes_sent:
                out.append(game_pb2.Action(
                    pass_card=game_pb2.PassCardAction(to=target[0], card=card)))
        return out

    def step(self) -> Step:
        """What this plan asks for next."""
        if len(self.pile) < self.pile_count:
            return Step.PILE
        if len(self.passes) < len(self.targets):
            return Step.PASS
        return Step.WAIT if self.confirmed else Step.CONFIRM

    def mark_sent(self, sent: str | Target) -> None:
        """The server took a pile card (its code) or the pass to a target."""
        if isinstance(sent, str):
            self.pile_sent.add(sent)
        else:
            self.passes_sent.add(sent)

    def retarget(self, named: list[Target]) -> None:
        """The server named receivers the plan had guessed otherwise: those sent are kept,
        the unsent passes are chosen again for `named`."""
        self.targets = [t for t in self.targets if t in self.passes_sent] + named
        self.forget(pile=False)


@dataclass
class Due:
    """What of a plan the server asks for now: the actions, what each one sends (a pile
    card's code or a pass's target), and whether the plan was taken back instead (a
    choice the server no longer takes, or receivers it named otherwise)."""

    actions: list[game_pb2.Action] = field(default_factory=list)
    sent: list[str | Target] = field(default_factory=list)
    taken_back: bool = False


def due(model: SetupModel, plan: Plan) -> Due:
    """The staged pile cards or passes the server asks for now (all of them: two pile
    cards in Devil's Eye, both passes with three or four players)."""
    kind = model.legal_kind()
    if kind == "pile":
        cards = [c for c in plan.pile if c.code not in plan.pile_sent]
        actions = [model.find_action("pile", c.code) for c in cards]
        if any(a is None for a in actions):
            plan.forget()
            return Due(taken_back=True)
        return Due(actions, [c.code for c in cards])
    if kind != "pass_card":
        return Due()
    todo = [t for t in model.stage_targets() if t not in plan.passes_sent]
    if any(t not in plan.targets for t in todo):
        # the neighbours were guessed before the server named them: choose again
        plan.retarget(todo)
        return Due(taken_back=True)
    actions = []
    for target in todo:
        card = plan.card_for(target)
        if card is None:
            return Due()  # not chosen yet (a hint's early sending stops here)
        action = model.find_action("pass_card", card.code, to=target[0])
        if action is None:
            plan.forget(pile=False)
            return Due(taken_back=True)
        actions.append(action)
    return Due(actions, list(todo))


def stage_plan(model: SetupModel, plan: Plan | None) -> Plan | None:
    """The plan of the stage being set up: `plan` while its stage lasts, a new one once
    the server first asks for the stage's pile card or pass (kept through the stage's
    pass stages: Devil's Eye passes to each of the opponent's hands in a stage of its
    own), None outside the setup or before the seat is asked."""
    if model.phase not in SETUP_PHASES:
        return None
    stage = model.stage_hand or 0
    if plan is not None and plan.stage == stage:
        return plan
    if model.legal_kind() not in ("pile", "pass_card"):
        return None
    return Plan(stage, pile_count=model.pile_needed(), targets=model.plan_targets())


def step(model: SetupModel, plan: Plan | None) -> Step:
    """What the seat is asked now: play, pile, pass, confirm, open, wait, …"""
    if model.me is None:
        return Step.WATCH
    if model.game_ended is not None:
        return Step.OVER
    if not model.started:
        return Step.LOBBY
    kind = model.legal_kind()
    if kind == "play":
        return Step.PLAY
    if kind == "choose_open":
        return Step.OPEN
    plan = stage_plan(model, plan)
    return Step.WAIT if plan is None else plan.step()


def active_hand(model: SetupModel) -> int | None:
    """The hand the setup takes from (the bright house's two hands), None in play."""
    return (model.stage_hand or 0) if model.phase in SETUP_PHASES else None


def selectable(model: SetupModel, plan: Plan | None) -> set[str]:
    """The cards that may be chosen now (legal, minus what is already staged)."""
    now = step(model, plan)
    if now == Step.PLAY:
        return model.legal_codes()
    if now in (Step.PILE, Step.PASS):
        plan = stage_plan(model, plan)
        hand = dict(model.my_hands()).get(model.stage_hand or 0, [])
        legal = model.legal_codes() if model.legal_kind() == "pile" or now == Step.PASS else set()
        codes = legal if legal else {c.code for c in hand}
        return codes - plan.codes()
    return set()


def pass_tags(targets: list[Target], names: list[str]) -> list[str]:
    """Three letters per target (`names` are the receivers'): the name's first three,
    the seat digit for equal names, or two letters and the receiver's hand number when
    passes go to hands."""
    if any(h is not None for _to, h in targets):
        return [n[:2] + ("" if h is None else str(h + 1))
                for n, (_to, h) in zip(names, targets, strict=True)]
    short = [n[:3] for n in names]
    if len(set(short)) < len(short):  # "rule bot 1", "rule bot 2": keep the seat digit
        short = [n[:2] + n[-1] for n in names]
    return short


def marks(plan: Plan | None, names: list[str]) -> dict[str, str]:
    """Staged choices drawn over their cards: ⚱ for the pile, →Bob for a pass (Devil's
    Eye: →Bo1 and →Bo2, for the opponent's first and second hand); `names` are the
    plan's receivers'."""
    if plan is None:
        return {}
    out = {c.code: "⚱" for c in plan.pile}
    for tag, c in zip(pass_tags(plan.targets, names), plan.passes, strict=False):
        out[c.code] = "→" + tag
    return out
