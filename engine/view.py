"""What one seat knows: the observation a bot decides on and a client draws.

A view holds everything the seat may know under RULES.md ("What each seat may
know") and nothing more, including what it can infer with certainty: the cards
it passed are in the receiver's hand until played, a seat that did not follow
suit holds none of that suit, Lopaka's hand and the open hands (bright house, Devil's Eye)
lie face up.  `unseen` is the rest: the cards a sampler must distribute over
the hidden hands and the pile.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card, Suit, iter_bits
from .events import Phase
from .hand import Hand
from .rules import Rules
from .stages import Stage, stages
from .tricks import Trick


@dataclass(frozen=True, slots=True)
class PlayLimit:
    """Why some of the mover's cards may not be played now: `suit` was led and this
    hand holds `cards` of it, which rules out `blocked` (RULES.md: follow suit)."""

    suit: Suit
    cards: tuple[Card, ...]
    blocked: tuple[Card, ...]
    #: Two hands each (Devil's Eye, each hand follows on its own): the hand, else None.
    hand: int | None = None


@dataclass(frozen=True, slots=True)
class SeatView:
    #: The seat whose view this is; None: a spectator's, which shows what lies face up.
    seat: int | None
    rules: Rules
    hand_number: int
    dealer: int
    lopaka: int | None
    #: The player in each seat of this hand (None for Lopaka).
    seat_players: tuple[int | None, ...]
    phase: Phase
    #: Bright house: which of each seat's hands the pile/pass stage uses.
    stage_hand: int | None
    #: Two hands per seat: the receiver's hand this pass stage's cards join.
    pass_to_hand: int | None
    to_act: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    #: The seat each holder belongs to; holders are seats except in the bright
    #: house, where seat p holds hands 2p and 2p+1.
    holder_seat: tuple[int, ...]
    #: Cards of every holder this seat can see (its own, Lopaka's, open hands).
    visible: dict[int, tuple[Card, ...]]
    hand_sizes: tuple[int, ...]
    #: The seat's own holders' cards as dealt (before the pile and the passes).
    dealt: dict[int, tuple[Card, ...]]
    #: Bright house: the open hand of each seat once revealed.
    open_hand: tuple[int | None, ...]
    pile_size: int
    my_pile_cards: tuple[Card, ...]
    #: (receiver, card) this seat passed; (giver, card) it received.
    passes_given: tuple[tuple[int, Card], ...]
    passes_received: tuple[tuple[int, Card], ...]
    #: Per holder: cards known to be there though not visible (passed to it, unplayed).
    known: dict[int, tuple[Card, ...]]
    #: Per holder: suits it has shown it does not hold.
    voids: tuple[frozenset[Suit], ...]
    leader: int
    #: The holders in play order for the trick in progress (empty outside play).
    trick_order: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]
    #: The holder each card of `trick` came from.
    trick_holders: tuple[int, ...]
    tricks: tuple[Trick, ...]
    price: Card | None
    owner: int | None
    #: The second bottle: (price card, owner) of each bottle, the one on sale first.
    bottles: tuple[tuple[Card | None, int | None], ...]
    taken: tuple[tuple[Card, ...], ...]
    points_taken: tuple[int, ...]
    #: Cards whose place this seat does not know (hidden hands and the pile).
    unseen: tuple[Card, ...]
    #: Running totals per player.
    totals: tuple[int, ...]
    #: Pile cards the seat still lays in this pile stage (0 outside one).
    pile_owed: int = 0
    #: The passes the seat still chooses in this pass stage: (receiver, the receiver's
    #: hand where it must be told apart, else None), in the order they are asked.
    pass_targets: tuple[tuple[int, int | None], ...] = ()
    #: The receiver's hand of each pass in `passes_given` and `passes_received`, where
    #: it must be told apart (Devil's Eye), else None.
    passes_given_hands: tuple[int | None, ...] = ()
    passes_received_hands: tuple[int | None, ...] = ()
    #: Every pass the seat still chooses in this setup, in the order the stages ask for
    #: them: from the pile stage on, the passes of the pass stages that follow it
    #: (Devil's Eye: to the receiver's first hand, then to its second).
    pass_plan: tuple[tuple[int, int | None], ...] = ()
    #: The seat's turn in the play: what rules some of its cards out, per hand.
    play_limits: tuple[PlayLimit, ...] = ()

    @property
    def my_cards(self) -> tuple[Card, ...]:
        """The seat's own cards (both hands in the bright house)."""
        own = [h for h, s in enumerate(self.holder_seat) if s == self.seat]
        return tuple(sorted(c for h in own for c in self.visible.get(h, ())))

    @property
    def price_threshold(self) -> int:
        """A card is below the price exactly when its index is below this."""
        return self.rules.deck.joker_position if self.price is None else self.price.index

    @property
    def holder_to_play(self) -> int | None:
        """The holder whose card comes next in the trick (None outside play)."""
        return self.trick_order[len(self.trick)] if self.trick_order else None

    @property
    def legal_cards(self) -> tuple[Card, ...]:
        return tuple(a.card for a in self.legal_actions if hasattr(a, "card"))


def _stage_index(hand: Hand, order: tuple[Stage, ...]) -> int:
    """Where the hand is in its stages (each stage is one phase, hand and receiver's hand)."""
    return next(
        i
        for i, s in enumerate(order)
        if (s.phase, s.hand, s.to_hand) == (hand.phase, hand.stage_hand, hand.pass_to_hand)
    )


def _setup_facts(hand: Hand, seat: int | None) -> tuple[int, tuple, tuple]:
    """(pile cards owed, this stage's passes still to choose, the setup's passes still
    to choose) of `seat`, as the hand's stages ask for them."""
    phase = hand.phase
    if seat is None or seat == hand.lopaka or phase not in (Phase.PILE, Phase.PASS):
        return 0, (), ()
    order = stages(hand.rules)
    i = _stage_index(hand, order)
    told = hand.rules.devils_eye  # passes to both of the receiver's hands in one setup
    owed = 0
    now: tuple[tuple[int, int | None], ...] = ()
    if phase is Phase.PILE:
        if seat in hand.pile_seats:
            owed = max(0, order[i].piled - len(hand.pile_by_seat[seat]))
    else:
        given = hand.passes.get(seat, {})
        now = tuple(
            (to, hand.pass_to_hand if told else None)
            for to in hand.recipients(seat)
            if to not in given
        )
    later = []
    for stage in order[i + 1 :]:
        if stage.phase is not Phase.PASS:
            break
        later.extend((to, stage.to_hand if told else None) for to in hand.recipients(seat))
    return owed, now, (*now, *later)


def _play_limits(hand: Hand, seat: int | None) -> tuple[PlayLimit, ...]:
    """What rules out cards of `seat` when it is to play: the suit led, per hand that
    holds it (Devil's Eye plays from either hand, and each follows on its own)."""
    if seat is None or hand.phase is not Phase.PLAY or not hand.trick:
        return ()
    holder = hand.holder_to_play()
    if hand.holder_seat[holder] != seat:
        return ()
    deck = hand.deck
    first = hand.trick[0]
    led = deck.suit_masks[deck.suit_of[first]]
    holders = (holder, holder + 1) if hand.rules.devils_eye else (holder,)
    out = []
    for h in holders:
        follow = hand.holdings[h] & led
        blocked = hand.holdings[h] & ~led
        if follow and blocked:
            side = h % 2 if hand.rules.devils_eye else None
            out.append(PlayLimit(deck.cards[first].suit, tuple(deck.cards_of(follow)),
                                 tuple(deck.cards_of(blocked)), side))
    return tuple(out)


def observe(
    hand: Hand, seat: int | None, totals: tuple[int, ...] = (), seat_players=None
) -> SeatView:
    """The view of `seat` (never Lopaka's: he does not decide) on a hand; None: a
    spectator's view, which sees only what lies face up."""
    deck = hand.deck
    cards = deck.cards
    cards_of = deck.cards_of
    rules = hand.rules
    holder_seat = hand.holder_seat
    two_hands = rules.two_hands
    holdings = hand.holdings

    seen = 0
    visible: dict[int, tuple[Card, ...]] = {}
    for h, owner_seat in enumerate(holder_seat):
        shown = owner_seat == seat or owner_seat == hand.lopaka
        if two_hands and hand.open_hand[owner_seat] is not None:
            shown = shown or h % 2 == hand.open_hand[owner_seat]
        if shown:
            visible[h] = tuple(cards_of(holdings[h]))
            seen |= holdings[h]

    given = [(to, card, to_hand) for giver, to, card, to_hand in hand.all_passes() if giver == seat]
    received = [(g, card, to_hand) for g, to, card, to_hand in hand.pass_log if to == seat]
    known: dict[int, tuple[Card, ...]] = {}
    for to, card, to_hand in given:
        seen |= 1 << card
        holder = to if not two_hands else 2 * to + (to_hand or 0)
        if holder not in visible and holdings[holder] >> card & 1:
            known[holder] = (*known.get(holder, ()), cards[card])

    for m in hand.taken:
        seen |= m
    for c in hand.trick:
        seen |= 1 << c
    my_pile = hand.pile_by_seat.get(seat, ())
    for c in my_pile:
        seen |= 1 << c
    if hand.price_card is not None:
        seen |= 1 << hand.price_card
    for _, c, _ in hand.shelf:
        if c is not None:
            seen |= 1 << c
    if hand.phase is Phase.OVER:
        for c in hand.pile:
            seen |= 1 << c
    pile_owed, pass_targets, pass_plan = _setup_facts(hand, seat)
    told = rules.devils_eye  # a pass names the receiver's hand (see `_setup_facts`)

    return SeatView(
        seat=seat,
        rules=rules,
        hand_number=hand.number,
        dealer=hand.dealer,
        lopaka=hand.lopaka,
        seat_players=tuple(range(hand.seats) if seat_players is None else seat_players),
        phase=hand.phase,
        stage_hand=hand.stage_hand,
        pass_to_hand=hand.pass_to_hand,
        to_act=hand.to_act(),
        legal_actions=(
            tuple(hand.legal_actions(seat)) if seat not in (None, hand.lopaka) else ()
        ),
        holder_seat=holder_seat,
        visible=visible,
        hand_sizes=tuple(m.bit_count() for m in holdings),
        dealt={h: tuple(cards_of(hand.dealt[h])) for h, s in enumerate(holder_seat) if s == seat},
        open_hand=tuple(hand.open_hand),
        pile_size=len(hand.pile),
        my_pile_cards=tuple(cards[c] for c in my_pile),
        passes_given=tuple((to, cards[c]) for to, c, _ in given),
        passes_received=tuple((g, cards[c]) for g, c, _ in received),
        known=known,
        voids=tuple(frozenset(hand.deck.suits[s] for s in iter_bits(v)) for v in hand.voids),
        leader=hand.leader,
        trick_order=hand.trick_order(hand.leader) if hand.phase is Phase.PLAY else (),
        trick=tuple(
            (holder_seat[h], cards[c]) for h, c in zip(hand.trick_holders, hand.trick, strict=True)
        ),
        trick_holders=tuple(hand.trick_holders),
        tricks=tuple(hand.tricks),
        price=None if hand.price_card is None else cards[hand.price_card],
        owner=hand.owner,
        bottles=hand.bottle_states(),
        taken=tuple(tuple(cards_of(m)) for m in hand.taken),
        points_taken=hand.points_taken(),
        unseen=tuple(cards_of(deck.full_mask & ~seen)),
        totals=tuple(totals),
        pile_owed=pile_owed,
        pass_targets=pass_targets,
        pass_plan=pass_plan,
        play_limits=_play_limits(hand, seat),
        passes_given_hands=tuple(h if told else None for *_, h in given),
        passes_received_hands=tuple(h if told else None for *_, h in received),
    )
