"""What a hand refuses: an action against the rules, a deal of the wrong shape.

Each action check raises the `IllegalAction` naming the rule broken, or returns
the holder the action's card comes from.  The checks only read the hand, so a
refused action leaves it exactly as it was; `Hand.apply` runs one before it
changes anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .actions import ChooseOpen, PassCard, PileCard, Play
from .cards import Card, Deck
from .errors import IllegalAction, Rule
from .events import Phase
from .rules import HAND_NAMES, Rules


class HandState(Protocol):
    """What the checks read of a hand (engine.hand.Hand)."""

    rules: Rules
    deck: Deck
    phase: Phase
    seats: int
    lopaka: int | None
    holdings: list[int]
    passes: dict[int, dict[int, int]]
    holder_seat: tuple[int, ...]
    trick: list[int]

    @property
    def pile_seats(self) -> tuple[int, ...]: ...

    @property
    def pending_open(self) -> dict[int, int]: ...

    def to_act(self) -> tuple[int, ...]: ...

    def recipients(self, seat: int) -> tuple[int, ...]: ...

    def setup_holder(self, seat: int) -> int: ...

    def holder_to_play(self) -> int: ...

    def holder_of_card(self, card: int) -> int: ...


def check_pile(hand: HandState, action: PileCard) -> int:
    seat, card = action.seat, action.card
    _require(hand, Phase.PILE, seat, "put a card into the pile")
    if seat not in hand.pile_seats:
        raise IllegalAction(
            Rule.DEALER_KEEPS_CARDS,
            "{seat} deals to five and so lays no card into the pile",
            seat=seat,
            card=card,
        )
    if seat not in hand.to_act():
        raise IllegalAction(
            Rule.ALREADY_CHOSEN,
            "{seat} has already put its card into the pile",
            seat=seat,
            card=card,
        )
    holder = hand.setup_holder(seat)
    _require_held(hand, seat, holder, card, "put into the pile")
    return holder


def check_pass(hand: HandState, action: PassCard) -> int:
    seat, to, card = action.seat, action.to, action.card
    _require(hand, Phase.PASS, seat, "pass a card")
    recipients = hand.recipients(seat)
    if to not in recipients:
        raise IllegalAction(
            Rule.PASS_TO_NON_NEIGHBOUR,
            "{seat} may pass only to {recipients}, not to {to}",
            seat=seat,
            card=card,
            to=to,
            recipients=tuple(recipients),
        )
    chosen = hand.passes.get(seat, {})
    if to in chosen:
        raise IllegalAction(
            Rule.ALREADY_CHOSEN,
            "{seat} has already chosen its card for {to}",
            seat=seat,
            card=card,
            to=to,
        )
    for other, index in chosen.items():
        if isinstance(card, Card) and index == card.index:
            raise IllegalAction(
                Rule.SAME_CARD_TWICE,
                "{seat} cannot pass {card} twice: it is already chosen for "
                "{other}, and each neighbour gets a card of its own",
                seat=seat,
                card=card,
                to=to,
                other=other,
            )
    holder = hand.setup_holder(seat)
    _require_held(hand, seat, holder, card, "pass")
    return holder


def check_open(hand: HandState, action: ChooseOpen) -> None:
    seat = action.seat
    _require(hand, Phase.OPEN, seat, "choose the open hand")
    if seat in hand.pending_open:
        raise IllegalAction(
            Rule.ALREADY_CHOSEN, "{seat} has already chosen its open hand", seat=seat
        )
    if action.hand not in (0, 1):
        raise IllegalAction(
            Rule.WRONG_HAND, "hand {hand!r} is not 0 or 1", seat=seat, hand=action.hand
        )


def check_play(hand: HandState, action: Play) -> int:
    seat, card = action.seat, action.card
    _require(hand, Phase.PLAY, seat, "play a card")
    holder = hand.holder_to_play()
    if seat != hand.holder_seat[holder]:
        raise IllegalAction(
            Rule.NOT_YOUR_TURN,
            "{seat} cannot play now: it is {turn}'s turn",
            seat=seat,
            card=card,
            turn=hand.holder_seat[holder],
        )
    if isinstance(card, Card):
        holder = hand.holder_of_card(card.index)
    _require_held(hand, seat, holder, card, "play")
    if hand.trick:
        deck, first = hand.deck, hand.trick[0]
        led = deck.cards[first]
        follow = hand.holdings[holder] & deck.suit_masks[deck.suit_of[first]]
        if follow and not follow >> card.index & 1:
            text = "{seat} must follow suit: {suit} were led and it holds {suit}"
            side = None
            if hand.rules.devils_eye:
                side = holder % 2
                text = (
                    "{seat} must follow suit: {suit} were led and its {hand_name} hand, "
                    "which {card} is in, holds {suit} (each hand follows suit on its own)"
                )
            raise IllegalAction(
                Rule.FOLLOW_SUIT,
                text,
                seat=seat,
                card=card,
                led=led,
                suit=led.suit.display(),
                hand=side,
                hand_name=None if side is None else HAND_NAMES[side],
            )
    return holder


def _require(hand: HandState, phase: Phase, seat: int, what: str) -> None:
    if hand.phase is Phase.OVER:
        raise IllegalAction(
            Rule.GAME_OVER, "the hand is over: no one can {what} now", seat=seat, what=what
        )
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < hand.seats:
        raise IllegalAction(Rule.NO_SUCH_SEAT, "there is no {seat} at this table", seat=seat)
    if hand.phase is not phase:
        raise IllegalAction(
            Rule.WRONG_PHASE,
            "{seat} cannot {what} now: the hand is in the {phase.value} phase",
            seat=seat,
            what=what,
            phase=hand.phase,
        )
    if seat == hand.lopaka:
        raise IllegalAction(
            Rule.LOPAKA_PLAYS_HIMSELF, "{seat} is Lopaka, who plays by his own policy", seat=seat
        )


def _require_held(hand: HandState, seat: int, holder: int, card: Card, what: str) -> None:
    if not isinstance(card, Card) or card.deck_name != hand.deck.name:
        raise IllegalAction(
            Rule.CARD_NOT_HELD, "{card!r} is not a card of this deck", seat=seat, card=card
        )
    if not hand.holdings[holder] >> card.index & 1:
        text = "{seat} cannot {what} {card}: it does not hold it"
        side = None
        if hand.rules.two_hands and not (hand.phase is Phase.PLAY and hand.rules.devils_eye):
            text, side = text + " in hand {hand_number}", holder % 2
        raise IllegalAction(
            Rule.CARD_NOT_HELD,
            text,
            seat=seat,
            card=card,
            what=what,
            hand=side,
            hand_number=None if side is None else side + 1,
        )


def check_deal(
    rules: Rules, dealer: int, deal: Sequence[Sequence[Card]], undealt: Sequence[Card]
) -> None:
    """A deal a hand can start from (ValueError naming the fault): a seat deals,
    each holder has the rules' count of cards, no card is dealt twice."""
    if not isinstance(dealer, int) or not 0 <= dealer < rules.seats:
        raise ValueError(f"dealer: {dealer!r} is not a seat of {rules.seats}")
    if len(deal) != rules.holders:
        raise ValueError(f"deal: {len(deal)} hands given, these rules deal {rules.holders}")
    for h, (cards, size) in enumerate(zip(deal, rules.deal_sizes(dealer), strict=True)):
        if len(cards) != size:
            raise ValueError(f"deal: hand {h} has {len(cards)} cards, these rules deal {size}")
    want_undealt = 3 if rules.lopaka else 0
    if len(undealt) != want_undealt:
        raise ValueError(f"pile: {len(undealt)} undealt cards, these rules leave {want_undealt}")
    seen: set[Card] = set()
    for c in [c for cards in deal for c in cards] + list(undealt):
        if c in seen:
            raise ValueError(f"deal: {c} is dealt twice")
        seen.add(c)
