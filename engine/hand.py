"""One hand (Cursed Bottle or the Bottle Imp) as a state machine you push actions onto.

deal → bottle pile → passes → (bright house: open hand) → tricks → scoring; the
bright house and Devil's Eye take the pile and the passes in several stages
(engine.stages), and Devil's Eye lays the first hands open when the play begins.

Cards are held as bit masks per *holder*: a holder is a seat, except in the
bright house and Devil's Eye, where player p holds two hands, holders 2p and
2p+1 (the first and the second dealt).  In Devil's Eye a seat plays each card
from either hand, so the holder of a play is the hand that holds the card.
`apply` validates an action completely (engine.refusals) before it changes
anything, so a refused action leaves the hand exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from .actions import Action, ChooseOpen, PassCard, PileCard, Play, action_table
from .cards import Card, Deck, iter_bits
from .events import (
    CardPassed,
    CardPlayed,
    CardsDealt,
    Event,
    OpenHandChosen,
    OpenHandRevealed,
    PassChosen,
    Phase,
    PhaseStarted,
    PileCardPlaced,
    TrickWon,
)
from .refusals import check_deal, check_open, check_pass, check_pile, check_play
from .rules import Rules
from .stages import stages
from .tricks import Trick, legal_cards, lopaka_card, trick_winner

Emit = Callable[[Event], None]


#: (seats, Lopaka's seat or None) -> the other seats, made once.
_SEATS_BUT = {
    (n, skip): tuple(s for s in range(n) if s != skip)
    for n in range(2, 7)
    for skip in (None, *range(n))
}


def _ignore(event: Event) -> None:
    pass


def random_deal(
    rules: Rules, rng: random.Random, dealer: int = 0
) -> tuple[list[list[Card]], list[Card]]:
    """Shuffle and deal: (cards per holder, undealt cards that form the pile)."""
    cards = list(rules.deck.cards)
    rng.shuffle(cards)
    deal, start = [], 0
    for size in rules.deal_sizes(dealer):
        deal.append(sorted(cards[start : start + size]))
        start += size
    return deal, sorted(cards[start:])


class Hand:
    """The state of one hand.  Seats are this hand's seats, numbered clockwise."""

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        deal: Sequence[Sequence[Card]],
        undealt: Sequence[Card] = (),
        emit: Emit | None = None,
        number: int = 1,
    ) -> None:
        self.rules = rules
        self.deck: Deck = rules.deck
        self.number = number
        self.seats = rules.seats
        self.dealer = dealer
        self.lopaka: int | None = (dealer - 1) % self.seats if rules.lopaka else None
        self._emit = emit or _ignore
        check_deal(rules, dealer, deal, undealt)
        self.dealt: tuple[int, ...] = tuple(self.deck.mask_of(cards) for cards in deal)
        self.holdings: list[int] = list(self.dealt)
        self.holder_seat: tuple[int, ...] = (
            (0, 0, 1, 1) if rules.two_hands else tuple(range(self.seats))
        )
        #: Pile cards in the order they were laid (seat order within a stage).
        self.pile: list[int] = [c.index for c in undealt]
        self.pile_by_seat: dict[int, list[int]] = {s: [] for s in range(self.seats)}
        #: giver -> {receiver: card}, filled while the passes are chosen.
        self.passes: dict[int, dict[int, int]] = {}
        #: Devil's Eye: passes chosen in an earlier stage, handed over with the
        #: last stage's: (giver, receiver, card, receiver's hand).
        self._sealed: list[tuple[int, int, int, int | None]] = []
        #: Every pass handed over: (giver, receiver, card, the receiver's hand
        #: with two hands per seat, else None).
        self.pass_log: list[tuple[int, int, int, int | None]] = []
        self.open_hand: list[int | None] = [None] * (2 if rules.two_hands else 0)
        self._pending_open: dict[int, int] = {}
        self.taken: list[int] = [0] * self.seats
        #: The bottle on sale: the one with the highest price (the only one).
        self.price: int = self.deck.joker_position
        self.price_card: int | None = None
        self.owner: int | None = None
        #: The second bottle variant: the other bottle as (price, price card, owner).
        self.shelf: list[tuple[int, int | None, int | None]] = [
            (self.deck.joker_position, None, None)
        ] * (rules.bottles - 1)
        self.tricks: list[Trick] = []
        self.leader: int = (dealer + 1) % self.seats
        self.trick: list[int] = []
        self.trick_holders: list[int] = []
        #: Per holder, a bit per suit it has shown it lacks (by not following).
        self.voids: list[int] = [0] * rules.holders
        self._order: tuple[int, ...] = ()
        self._stages = stages(rules)
        self._stage = -1
        for h, mask in enumerate(self.dealt):
            seat = self.holder_seat[h]
            cards = tuple(self.deck.cards_of(mask))
            self._emit(
                CardsDealt(
                    seat,
                    h % 2 if rules.two_hands else 0,
                    cards,
                    len(cards),
                    public=seat == self.lopaka,
                )
            )
        self._next_stage()

    @classmethod
    def at_position(
        cls,
        rules: Rules,
        holdings: Sequence[Sequence[Card]],
        pile: Sequence[Card],
        price_card: Card | None,
        owner: int | None,
        taken: Sequence[Sequence[Card]],
        leader: int,
        trick: Sequence[Card],
        open_hand: Sequence[int] = (),
        lopaka: int | None = None,
        shelf: Sequence[tuple[Card | None, int | None]] | None = None,
    ) -> Hand:
        """A hand in the middle of its play phase, every card known (a FORMATS.md
        position): the solver's starting point.  Validation of the position
        itself is the caller's (engine.position); this only lays the cards out.
        With Lopaka, `lopaka` names his seat (the dealer is the seat after him).
        """
        hand: Hand = cls.__new__(cls)
        deck = rules.deck
        hand.rules, hand.deck, hand.number = rules, deck, 1
        hand.seats = rules.seats
        hand.lopaka = lopaka if rules.lopaka else None
        hand.dealer = (
            (lopaka + 1) % hand.seats if hand.lopaka is not None else (leader - 1) % hand.seats
        )
        hand._emit = _ignore
        hand.holder_seat = (0, 0, 1, 1) if rules.two_hands else tuple(range(hand.seats))
        if rules.devils_eye:
            open_hand = (0, 0)
        hand.open_hand = list(open_hand) if rules.two_hands else []
        hand._pending_open = {}
        hand.holdings = [deck.mask_of(cards) for cards in holdings]
        hand.dealt = tuple(hand.holdings)
        hand.pile = [c.index for c in pile]
        hand.pile_by_seat = {s: [] for s in range(hand.seats)}
        hand.passes, hand.pass_log, hand._sealed = {}, [], []
        hand.taken = [deck.mask_of(cards) for cards in taken]
        hand.price_card = None if price_card is None else price_card.index
        hand.price = deck.joker_position if price_card is None else price_card.index
        hand.owner = owner
        if shelf is None:
            shelf = [(None, None)] * (rules.bottles - 1)
        hand.shelf = [
            (deck.joker_position if c is None else c.index, None if c is None else c.index, o)
            for c, o in shelf
        ]
        hand.tricks = []
        hand.leader = leader
        hand._stages = stages(rules)
        hand._enter(next(i for i, st in enumerate(hand._stages) if st.phase is Phase.PLAY))
        hand._order = hand.trick_order(leader)
        hand.trick, hand.trick_holders = [], []
        hand.voids = [0] * rules.holders
        for card in trick:
            holder = hand._order[len(hand.trick)]
            if rules.devils_eye and hand.trick:
                led = hand.deck.suit_masks[hand.deck.suit_of[hand.trick[0]]]
                if not card.mask & led and hand.holdings[holder] & led:
                    holder += 1  # off suit: from the hand without the led suit
            hand.holdings[holder] |= card.mask  # _put takes it out of the hand again
            hand._put(holder, card.index)
        if not any(hand.holdings) and not hand.trick:
            hand._enter(len(hand._stages) - 1)
        return hand

    def copy(self) -> Hand:
        """An independent copy that emits nothing (for search and what-if)."""
        other: Hand = Hand.__new__(Hand)
        other.__dict__.update(self.__dict__)
        other._emit = _ignore
        other.holdings = list(self.holdings)
        other.pile = list(self.pile)
        other.pile_by_seat = {s: list(v) for s, v in self.pile_by_seat.items()}
        other.passes = {s: dict(v) for s, v in self.passes.items()}
        other.pass_log = list(self.pass_log)
        other._sealed = list(self._sealed)
        other.open_hand = list(self.open_hand)
        other._pending_open = dict(self._pending_open)
        other.taken = list(self.taken)
        other.shelf = list(self.shelf)
        other.tricks = list(self.tricks)
        other.trick = list(self.trick)
        other.trick_holders = list(self.trick_holders)
        other.voids = list(self.voids)
        return other

    # ----------------------------------------------------------------- reading

    def _enter(self, stage: int) -> None:
        # Plain attributes, not properties: the phase is read on every action.
        self._stage = stage
        current = self._stages[stage]
        #: The current phase of the hand.
        self.phase: Phase = current.phase
        #: Two hands per seat: which of each seat's hands the current pile/pass stage uses.
        self.stage_hand: int | None = current.hand
        #: Two hands per seat: the receiver's hand the current stage's passes go to.
        self.pass_to_hand: int | None = current.to_hand
        self._piled = current.piled

    @property
    def pending_open(self) -> dict[int, int]:
        """Bright house: open hands chosen but not yet revealed (seat -> hand)."""
        return dict(self._pending_open)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def pile_seats(self) -> tuple[int, ...]:
        """Seats that lay a pile card (five Bottle Imp players: not the dealer)."""
        return self.rules.pile_seats(self.dealer)

    def setup_seats(self) -> tuple[int, ...]:
        """Seats that take part in the pile and passing (everyone but Lopaka)."""
        return _SEATS_BUT[self.seats, self.lopaka]

    def recipients(self, seat: int) -> tuple[int, ...]:
        """Who `seat` passes to: left then right neighbour, or the one other player."""
        if self.rules.players == 2:
            return tuple(s for s in self.setup_seats() if s != seat)
        n = self.seats
        return ((seat + 1) % n, (seat - 1) % n)

    def to_act(self) -> tuple[int, ...]:
        """Seats that must act now (several at once while choosing in secret)."""
        phase = self.phase
        if phase is Phase.PLAY:
            return (self.holder_seat[self._order[len(self.trick)]],)
        if phase is Phase.PILE:
            done, want = self.pile_by_seat, self._piled
            return tuple(s for s in self.pile_seats if len(done[s]) < want)
        if phase is Phase.PASS:
            return tuple(
                s
                for s in self.setup_seats()
                if len(self.passes.get(s, ())) < len(self.recipients(s))
            )
        if phase is Phase.OPEN:
            return tuple(s for s in range(self.seats) if s not in self._pending_open)
        return ()

    def holder_to_play(self) -> int:
        """The holder whose card comes next (in Devil's Eye: the mover's first
        hand, though the card may come from either; see `holder_of_card`)."""
        return self._order[len(self.trick)]

    def holder_of_card(self, card: int) -> int:
        """The holder the next play of card index `card` comes from (in Devil's
        Eye the mover's hand that holds it)."""
        holder = self._order[len(self.trick)]
        if self.rules.devils_eye and not self.holdings[holder] >> card & 1:
            return holder + 1
        return holder

    def setup_holder(self, seat: int) -> int:
        """The holder a seat's pile card or pass comes from in this stage."""
        hand = self.stage_hand
        return seat if hand is None else 2 * seat + hand

    def holder_of(self, seat: int, hand: int = 0) -> int:
        return 2 * seat + hand if self.rules.two_hands else seat

    def all_passes(self) -> Iterator[tuple[int, int, int, int | None]]:
        """Every pass chosen so far, handed over or not: (giver, receiver, card,
        the receiver's hand or None), as in `pass_log`."""
        yield from self.pass_log
        yield from self.pending_passes()

    def pending_passes(self) -> list[tuple[int, int, int, int | None]]:
        """Passes chosen but not handed over yet (Devil's Eye's earlier stage first)."""
        return self._sealed + [
            (giver, to, card, self.pass_to_hand)
            for giver in sorted(self.passes)
            for to, card in sorted(self.passes[giver].items())
        ]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action of `seat`, or of every seat that must act now."""
        phase = self.phase
        table = action_table(self.deck.cards, self.seats)
        if phase is Phase.PLAY:
            mover = self.holder_seat[self._order[len(self.trick)]]
            if seat is not None and seat != mover:
                return []
            plays = table.play[mover]
            return [plays[c] for c in iter_bits(self.legal_play_mask())]
        seats = self.to_act() if seat is None else (seat,) if seat in self.to_act() else ()
        out: list[Action] = []
        for s in seats:
            if phase is Phase.PILE:
                piles = table.pile[s]
                out.extend(piles[c] for c in iter_bits(self.holdings[self.setup_holder(s)]))
            elif phase is Phase.PASS:
                mask = self.holdings[self.setup_holder(s)]
                given = self.passes.get(s, {})
                for to in self.recipients(s):
                    if to not in given:
                        passes = table.passes[s][to]
                        out.extend(passes[c] for c in iter_bits(mask))
            elif phase is Phase.OPEN:
                out.extend(table.choose_open[s])
        return out

    def legal_play_mask(self) -> int:
        """Cards the mover may play: follow the led suit if the hand holds it
        (in Devil's Eye, per hand: a hand without the suit plays anything)."""
        led = self.trick[0] if self.trick else None
        suit_masks, suit_of = self.deck.suit_masks, self.deck.suit_of
        holder = self._order[len(self.trick)]
        mask = legal_cards(self.holdings[holder], led, suit_masks, suit_of)
        if self.rules.devils_eye:
            mask |= legal_cards(self.holdings[holder + 1], led, suit_masks, suit_of)
        return mask

    # ---------------------------------------------------------------- changing

    def apply(self, action: Action) -> None:
        """Carry out one action, or raise IllegalAction and change nothing."""
        if isinstance(action, Play):
            self._play(action)
        elif isinstance(action, PileCard):
            self._pile(action)
        elif isinstance(action, PassCard):
            self._pass(action)
        elif isinstance(action, ChooseOpen):
            self._choose_open(action)
        else:
            raise TypeError(f"not an action: {action!r}")

    def _pile(self, action: PileCard) -> None:
        holder = check_pile(self, action)
        seat, card = action.seat, action.card
        self.holdings[holder] &= ~card.mask
        self.pile.append(card.index)
        self.pile_by_seat[seat].append(card.index)
        self._emit(PileCardPlaced(seat, card))
        if not self.to_act():
            self._next_stage()

    def _pass(self, action: PassCard) -> None:
        holder = check_pass(self, action)
        seat, to, card = action.seat, action.to, action.card
        self.holdings[holder] &= ~card.mask
        self.passes.setdefault(seat, {})[to] = card.index
        self._emit(PassChosen(seat, to, card, self.pass_to_hand))
        if not self.to_act():
            if self._stages[self._stage + 1].phase is Phase.PASS:
                self._sealed, self.passes = self.pending_passes(), {}
            else:
                self._exchange_passes()
            self._next_stage()

    def _exchange_passes(self) -> None:
        for giver, to, card, hand in self.pending_passes():
            receiver = to if hand is None else 2 * to + hand
            self.holdings[receiver] |= 1 << card
            self.pass_log.append((giver, to, card, hand))
            self._emit(CardPassed(giver, to, self.deck.cards[card], hand))
        self.passes, self._sealed = {}, []

    def _choose_open(self, action: ChooseOpen) -> None:
        check_open(self, action)
        seat = action.seat
        self._pending_open[seat] = action.hand
        self._emit(OpenHandChosen(seat, action.hand))
        if not self.to_act():
            for s, hand in sorted(self._pending_open.items()):
                self.open_hand[s] = hand
                cards = tuple(self.deck.cards_of(self.holdings[2 * s + hand]))
                self._emit(OpenHandRevealed(s, hand, cards))
            self._next_stage()

    def _play(self, action: Play) -> None:
        holder = check_play(self, action)
        self._put(holder, action.card.index)
        self.autoplay()

    def _put(self, holder: int, card: int) -> None:
        self.holdings[holder] &= ~(1 << card)
        if self.trick:
            led = self.deck.suit_of[self.trick[0]]
            if self.deck.suit_of[card] != led:
                self.voids[holder] |= 1 << led
        self.trick.append(card)
        self.trick_holders.append(holder)
        hand = holder % 2 if self.rules.two_hands else 0
        self._emit(CardPlayed(self.holder_seat[holder], self.deck.cards[card], hand))
        if len(self.trick) == len(self._order):
            self._finish_trick()

    def push_unchecked(self, card: int, autoplay: bool = True) -> None:
        """Play card index `card` for the holder to move, without the checks of
        `apply`: for search, rollouts and analysis, whose caller knows the card
        legal.  Lopaka then moves if it is his turn, unless `autoplay` is off
        (an analysis wants the position before each of his cards too)."""
        self._put(self.holder_of_card(card), card)
        if autoplay:
            self.autoplay()

    def autoplay(self) -> None:
        """Lopaka plays whenever it is his turn: he is not a player.  (A position
        laid out with `at_position` may leave him to move; this moves him.)"""
        lopaka = self.lopaka
        while self.phase is Phase.PLAY and lopaka is not None:
            holder = self._order[len(self.trick)]
            if holder != lopaka:
                return
            card = lopaka_card(
                self.holdings[holder],
                self.trick,
                self.price,
                self.deck.suit_masks,
                self.deck.suit_of,
            )
            self._put(holder, card)

    def _open_first_hands(self) -> None:
        """Devil's Eye: the first hands (now 7 cards) are laid out face up."""
        for seat in range(self.seats):
            self.open_hand[seat] = 0
            cards = tuple(self.deck.cards_of(self.holdings[2 * seat]))
            self._emit(OpenHandRevealed(seat, 0, cards))

    def _finish_trick(self) -> None:
        cards = self.deck.cards
        trick, holders = self.trick, self.trick_holders
        pos, bought = trick_winner(trick, self.price)
        winner = self.holder_seat[holders[pos]]
        price_before = self.price_card
        returned = returned_to = None
        won = 0
        for c in trick:
            won |= 1 << c
        if bought:
            new = trick[pos]
            won &= ~(1 << new)
            if self.price_card is not None:
                returned, returned_to = self.price_card, self.owner
                self.taken[returned_to] |= 1 << returned
            self.price_card, self.price, self.owner = new, new, winner
        self.taken[winner] |= won
        bought_price, bought_owner = self.price_card, self.owner
        if bought and self.shelf:
            # Only the bottle with the highest price is for sale.
            top = max(range(len(self.shelf)), key=lambda i: self.shelf[i][0])
            if self.shelf[top][0] > self.price:
                on_sale = (self.price, self.price_card, self.owner)
                self.price, self.price_card, self.owner = self.shelf[top]
                self.shelf[top] = on_sale
        number = len(self.tricks) + 1
        done = Trick(
            number,
            self.leader,
            tuple((self.holder_seat[h], cards[c]) for h, c in zip(holders, trick, strict=True)),
            tuple(holders),
            winner,
            bought,
            None if price_before is None else cards[price_before],
            None if bought_price is None else cards[bought_price],
        )
        self.tricks.append(done)
        self._emit(
            TrickWon(
                number,
                self.leader,
                done.plays,
                winner,
                bought,
                done.price_after,
                bought_owner,
                None if returned is None else cards[returned],
                returned_to,
                self.bottle_states(),
            )
        )
        self.trick, self.trick_holders = [], []
        self.leader = winner
        if not any(self.holdings):
            self._next_stage()
        else:
            self._order = self.trick_order(winner)

    def trick_order(self, leader: int) -> tuple[int, ...]:
        """The holders in the order they play to a trick led by `leader` (Devil's
        Eye: each seat's first hand, standing for either of its hands)."""
        n = self.seats
        if self.rules.devils_eye:
            other = 2 * (1 - leader)
            return (2 * leader, other, 2 * leader, other)
        if not self.rules.bright_house:
            return tuple((leader + i) % n for i in range(n))
        other = 1 - leader
        lo, oo = self.open_hand[leader], self.open_hand[other]
        return (2 * leader + lo, 2 * other + oo, 2 * leader + 1 - lo, 2 * other + 1 - oo)

    def _next_stage(self) -> None:
        self._enter(self._stage + 1)
        phase, hand = self.phase, self.stage_hand
        if phase is Phase.PLAY:
            if self.rules.devils_eye:
                self._open_first_hands()
            self._order = self.trick_order(self.leader)
        if phase is not Phase.OVER:
            self._emit(PhaseStarted(phase, hand, self.to_act(), self.pass_to_hand))
        if phase is Phase.PLAY:
            self.autoplay()

    # ------------------------------------------------------------------ scores

    def pile_points(self) -> int:
        points = self.deck.points
        return sum(points[c] for c in self.pile)

    def points_taken(self) -> tuple[int, ...]:
        return tuple(self.deck.points_of(m) for m in self.taken)

    def scores(self) -> tuple[int, ...]:
        """Each seat's score for the hand as it counts (Lopaka's too, though it never
        counts; in team mode the side's, see `Rules.team_scores`)."""
        return self.rules.team_scores(self.own_scores())

    def bottle_states(self) -> tuple[tuple[Card | None, int | None], ...]:
        """With the second bottle: (price card, owner) of every bottle, the one on
        sale first; empty with one bottle (its state is `price_card`, `owner`)."""
        if not self.shelf:
            return ()
        cards = self.deck.cards
        bottles = [(self.price_card, self.owner)] + [(c, o) for _, c, o in self.shelf]
        return tuple((None if c is None else cards[c], o) for c, o in bottles)

    def own_scores(self) -> tuple[int, ...]:
        """Each seat's own score: its tricks' points, or the pile's loss for the owner
        (for each bottle it owns)."""
        taken = self.points_taken()
        if self.shelf:
            owners = [self.owner] + [o for *_, o in self.shelf]
            pile = self.pile_points()
            return tuple(-pile * owners.count(s) if s in owners else t for s, t in enumerate(taken))
        if self.owner is None:
            return taken
        pile = self.pile_points()
        hot = self.rules.hot_bottle
        return tuple(
            (-pile - (t if hot else 0)) if s == self.owner else t for s, t in enumerate(taken)
        )
