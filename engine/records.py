"""Hand records and the engine's hands: `replay` hands a record's choices to the
engine's `Hand` one by one and reads the outcome from it, `record_of` writes
the record of a hand.

The engine is the single source of the rules: a refused step's `IllegalAction`
is put into the record's words, naming the first illegal step.  The record
itself (its fields, layout and JSON) is engine.hand_record's; its names are
here too, so one import gives records and their replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action, ChooseOpen, PassCard, PileCard, Play
from .cards import JOKER, Card
from .errors import IllegalAction, Rule
from .events import Phase
from .hand import Emit, Hand
from .hand_record import (
    DealerError,
    HandRecord,
    RecordError,
    holder_name,
    pass_keys,
    pile_slots,
)
from .rules import HAND_NAMES
from .stages import Stage, stages
from .tricks import Trick

__all__ = [
    "DealerError",
    "HandRecord",
    "RecordError",
    "ReplayError",
    "ReplayResult",
    "record_of",
    "replay",
    "replay_hand",
]


class ReplayError(RecordError):
    """A well-formed record with an illegal step; the message names the first one.

    `step` is the record field of that step (`plays[12]`, `passes[1].left`, or
    `plays` when the record stops short); `rule` is the engine's rule that
    refused it, when the engine refused it.
    """

    def __init__(self, message: str, step: str, rule: Rule | None = None) -> None:
        super().__init__(message)
        self.step = step
        self.rule = rule


# --------------------------------------------------------------------- replay


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of a complete hand, as `cursed-bottle replay` prints it."""

    #: Per seat (Lopaka's too, though it never counts).
    scores: tuple[int, ...]
    owner: int | None
    #: The final price card; None is the price joker.
    price: Card | None
    tricks: tuple[Trick, ...]
    #: What the starting price is called in this deck (JOKER, the Bottle Imp's 19).
    start_price: str = JOKER
    #: The second bottle: (price card, owner) of each bottle, the one on sale first.
    bottles: tuple[tuple[Card | None, int | None], ...] = ()

    @classmethod
    def of(cls, hand: Hand) -> ReplayResult:
        deck = hand.deck
        price = None if hand.price_card is None else deck.cards[hand.price_card]
        return cls(
            tuple(hand.scores()),
            hand.owner,
            price,
            tuple(hand.tricks),
            deck.joker_name,
            hand.bottle_states(),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "owner": self.owner,
            "price": self._price_name(self.price),
            "tricks": [
                {
                    "leader": t.leader,
                    "cards": [c.ascii for c in t.cards],
                    "winner": t.winner,
                    "bought": t.bought,
                }
                for t in self.tricks
            ],
        } | (
            {"bottles": [{"price": self._price_name(c), "owner": o} for c, o in self.bottles]}
            if self.bottles
            else {}
        )

    def _price_name(self, card: Card | None) -> str:
        return self.start_price if card is None else card.ascii


def replay(record: HandRecord) -> ReplayResult:
    """Check a complete record against the rules; ReplayError names the first illegal step."""
    hand = replay_hand(record)
    if not hand.is_over:
        raise _incomplete(hand, record)
    played = _cards_played(hand)
    if len(record.plays) < len(played):  # the engine played Lopaka's last card(s) itself
        number, seat, card = played[len(record.plays)]
        raise ReplayError(
            f"plays: the record ends after {len(record.plays)} plays, without the {card} "
            f"seat {seat} (Lopaka) played in trick {number}; a complete hand has {len(played)}",
            "plays",
        )
    return ReplayResult.of(hand)


def replay_hand(record: HandRecord, emit: Emit | None = None) -> Hand:
    """The engine's hand after every step of the record (complete or not).

    `emit` receives the engine's events, so a table can be rebuilt from a record.
    """
    try:
        undealt = record.pile if record.rules.lopaka else ()
        hand = Hand(record.rules, record.dealer, record.deal, undealt, emit)  # type: ignore[arg-type]
    except ValueError as exc:  # the constructor's shape checks make this unreachable
        raise ReplayError(f"deal: {exc}", "deal") from None
    missing: str | None = None
    for path, action in _setup_steps(record, hand):
        if action is None:
            missing = missing or path
            continue
        try:
            hand.apply(action)
        except IllegalAction as exc:
            raise _setup_error(hand, path, action, exc, missing) from None
    _replay_plays(record, hand, missing)
    return hand


def _setup_steps(record: HandRecord, hand: Hand) -> list[tuple[str, Action | None]]:
    """The record's pile, pass and open-hand choices as engine actions, in the
    engine's stage order; None where the record has null (not chosen yet)."""
    steps: list[tuple[str, Action | None]] = []
    piled = 0
    for stage in stages(record.rules):
        if stage.phase is Phase.PILE:
            steps.extend(_pile_steps(record, hand, range(piled, stage.piled)))
            piled = stage.piled
        elif stage.phase is Phase.PASS:
            steps.extend(_pass_steps(record, hand, stage))
        elif stage.phase is Phase.OPEN:
            steps.extend(_open_steps(record, hand))
    return steps


def _pile_steps(record: HandRecord, hand: Hand, nths: range) -> list[tuple[str, Action | None]]:
    """The pile cards of one stage: each seat's `nths` cards (with two hands per
    seat its slot 2s + k holds its k-th card)."""
    steps: list[tuple[str, Action | None]] = []
    order = pile_slots(record.rules, record.dealer)
    for seat in hand.pile_seats:
        for nth in nths:
            i = order.index(2 * seat + nth if record.rules.two_hands else seat)
            card = record.pile[i]
            steps.append((f"pile[{i}]", None if card is None else PileCard(seat, card)))
    return steps


def _pass_steps(record: HandRecord, hand: Hand, stage: Stage) -> list[tuple[str, Action | None]]:
    steps: list[tuple[str, Action | None]] = []
    rules = record.rules
    keys = pass_keys(rules)
    for seat in hand.setup_seats():
        recipients = hand.recipients(seat)
        if rules.devils_eye:
            entry_at, pairs = seat, [(keys[stage.to_hand or 0], recipients[0])]
        else:
            entry_at = hand.holder_of(seat, stage.hand or 0)
            pairs = list(zip(keys, recipients, strict=True))
        entry = record.passes[entry_at] or {}
        for key, to in pairs:
            card = entry.get(key)
            action = None if card is None else PassCard(seat, to, card)
            steps.append((f"passes[{entry_at}].{key}", action))
    return steps


def _open_steps(record: HandRecord, hand: Hand) -> list[tuple[str, Action | None]]:
    choices = record.open_hand or ()
    return [
        (f"open[{seat}]", None if choice is None else ChooseOpen(seat, choice))
        for seat, choice in enumerate(choices)
    ]


def _replay_plays(record: HandRecord, hand: Hand, missing: str | None) -> None:
    """Push the plays onto the hand; Lopaka's cards are compared with what the
    engine played for him (his policy), never pushed."""
    for i, card in enumerate(record.plays):
        path = f"plays[{i}]"
        played = _cards_played(hand)
        if i < len(played):
            number, seat, policy_card = played[i]
            if policy_card != card:
                raise ReplayError(
                    f"trick {number}, seat {seat} (Lopaka) played {card} but his policy plays "
                    f"{policy_card} ({path})",
                    path,
                    Rule.LOPAKA_PLAYS_HIMSELF,
                )
            continue
        if hand.is_over:
            total = record.rules.tricks * record.rules.holders
            raise ReplayError(
                f"{path}: {card} is one play too many, the hand is over after {total} plays",
                path,
                Rule.GAME_OVER,
            )
        if hand.phase is not Phase.PLAY:
            raise _too_early(hand, path, missing)
        seat = hand.to_act()[0]
        try:
            hand.apply(Play(seat, card))
        except IllegalAction as exc:
            raise _play_error(hand, path, seat, card, exc) from None


def _cards_played(hand: Hand) -> list[tuple[int, int, Card]]:
    """(trick number, seat, card) of every card played so far, in order."""
    out = [(t.number, seat, card) for t in hand.tricks for seat, card in t.plays]
    number = len(hand.tricks) + 1
    cards = hand.deck.cards
    out.extend(
        (number, hand.holder_seat[h], cards[c])
        for h, c in zip(hand.trick_holders, hand.trick, strict=True)
    )
    return out


# ------------------------------------------------------------- the messages


def _whereabouts(hand: Hand, card: Card) -> tuple[str, int | None]:
    """Where a card is now, in words, and the holder holding it (if any)."""
    i = card.index
    for holder, mask in enumerate(hand.holdings):
        if mask >> i & 1:
            return f"{holder_name(hand.rules, holder)} holds it", holder
    for giver, to, c, _ in hand.pending_passes():
        if c == i:
            return f"seat {giver} passes it to seat {to}", None
    for number, _, c in _cards_played(hand):
        if c == card:
            return f"it was already played in trick {number}", None
    for seat, cards in hand.pile_by_seat.items():
        if i in cards:
            return f"seat {seat} put it into the pile", None
    if i in hand.pile:
        return "it lies in the bottle pile", None
    return "it is nowhere in this hand", None


def _setup_error(
    hand: Hand, path: str, action: Action, exc: IllegalAction, missing: str | None
) -> ReplayError:
    if exc.rule is Rule.WRONG_PHASE:
        return _too_early(hand, path, missing)
    if exc.rule is Rule.CARD_NOT_HELD and isinstance(action, (PileCard, PassCard)):
        if isinstance(action, PileCard):
            doing = f"put {action.card} into the pile"
        else:
            doing = f"passed {action.card} to seat {action.to}"
        if hand.rules.two_hands:
            doing += f" from its {HAND_NAMES[hand.stage_hand or 0]} hand"
        where, _ = _whereabouts(hand, action.card)
        message = f"{path}: seat {action.seat} {doing} but does not hold it ({where})"
        return ReplayError(message, path, exc.rule)
    return ReplayError(f"{path}: {exc}", path, exc.rule)


def _too_early(hand: Hand, path: str, missing: str | None) -> ReplayError:
    """A step recorded while an earlier one is still null (a hand in progress)."""
    gap = f"{missing} is null" if missing else "an earlier step is missing"
    return ReplayError(
        f"{path}: recorded although {gap} (the hand is still in the {hand.phase.value} phase)",
        path,
        Rule.WRONG_PHASE,
    )


def _play_error(hand: Hand, path: str, seat: int, card: Card, exc: IllegalAction) -> ReplayError:
    number = len(hand.tricks) + 1
    holder = hand.holder_to_play()
    rules = hand.rules
    if exc.rule is Rule.FOLLOW_SUIT:
        suit = hand.deck.cards[hand.trick[0]].suit.display()
        from_hand = f" in its {_open_or_hidden(hand, holder)} hand" if rules.bright_house else ""
        if rules.devils_eye:
            holder = hand.holder_of_card(card.index)
            from_hand = f" in its {HAND_NAMES[holder % 2]} hand, which {card} is in,"
        message = (
            f"trick {number}, seat {seat} played {card} but holds {suit}{from_hand} and "
            f"{suit} were led"
        )
    elif exc.rule is Rule.CARD_NOT_HELD:
        where, other = _whereabouts(hand, card)
        if other is not None and hand.holder_seat[other] == seat:
            message = (
                f"trick {number}, seat {seat} must play from its "
                f"{_open_or_hidden(hand, holder)} hand but {card} is in its "
                f"{_open_or_hidden(hand, other)} hand"
            )
        elif other is not None:
            message = (
                f"trick {number}, seat {seat} is to play but {card} is held by seat "
                f"{hand.holder_seat[other]}: a play out of turn"
            )
        else:
            message = f"trick {number}, seat {seat} played {card} but {where}"
    else:
        message = f"trick {number}: {exc}"
    return ReplayError(f"{message} ({path})", path, exc.rule)


def _open_or_hidden(hand: Hand, holder: int) -> str:
    return "open" if hand.open_hand[holder // 2] == holder % 2 else "hidden"


def _incomplete(hand: Hand, record: HandRecord) -> ReplayError:
    for path, action in _setup_steps(record, hand):
        if action is None:
            return ReplayError(f"{path}: null, the record stops before the hand is complete", path)
    done = len(_cards_played(hand))
    total = record.rules.tricks * record.rules.holders
    return ReplayError(
        f"plays: the record ends after {done} plays, in trick {len(hand.tricks) + 1} with seat "
        f"{hand.to_act()[0]} to play; a complete hand has {total}",
        "plays",
    )


# ------------------------------------------------------------ engine → record


def record_of(hand: Hand) -> HandRecord:
    """The record of a hand started from a deal (`Hand(...)`), finished or not.

    Choices not made yet are null.  Choices made but still secret (passes not
    yet exchanged, an open hand not yet revealed) are included: a record knows
    every card.  (A hand laid out with `Hand.at_position` has no deal and so no
    record.)
    """
    rules, deck = hand.rules, hand.deck
    return HandRecord(
        rules=rules,
        dealer=hand.dealer,
        deal=tuple(tuple(deck.cards_of(mask)) for mask in hand.dealt),
        pile=_pile_of(hand),
        passes=_passes_of(hand),
        plays=tuple(card for _, _, card in _cards_played(hand)),
        lopaka=hand.lopaka,
        open_hand=_open_of(hand) if rules.bright_house else None,
    )


def _open_of(hand: Hand) -> tuple[int | None, ...]:
    """Revealed open hands, and choices made but not revealed yet (the record knows all)."""
    pending: dict[int, int] = hand.pending_open
    return tuple(
        pending.get(seat) if choice is None else choice
        for seat, choice in enumerate(hand.open_hand)
    )


def _pile_of(hand: Hand) -> tuple[Card | None, ...]:
    cards = hand.deck.cards
    if hand.rules.lopaka:
        return tuple(cards[c] for c in hand.pile)
    out: list[Card | None] = []
    for slot in pile_slots(hand.rules, hand.dealer):
        seat = hand.holder_seat[slot]
        laid = hand.pile_by_seat[seat]
        nth = slot % 2 if hand.rules.two_hands else 0
        out.append(cards[laid[nth]] if nth < len(laid) else None)
    return tuple(out)


def _passes_of(hand: Hand) -> tuple[dict[str, Card | None] | None, ...]:
    """Every pass chosen so far (handed over or not: a record knows every card)."""
    rules, cards = hand.rules, hand.deck.cards
    keys = pass_keys(rules)
    out: list[dict[str, Card | None] | None] = [
        None if seat == hand.lopaka else dict.fromkeys(keys)
        for seat in (range(rules.seats) if rules.devils_eye else hand.holder_seat)
    ]
    for giver, to, card, to_hand in hand.all_passes():
        if rules.devils_eye:
            entry, key = out[giver], keys[to_hand or 0]
        else:
            entry = out[hand.holder_of(giver, to_hand or 0)]
            key = keys[hand.recipients(giver).index(to)]
        entry[key] = cards[card]  # type: ignore[index]
    return tuple(out)
