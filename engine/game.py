"""A whole game: hands one after another, running totals, the end of the game.

A game is fully determined by its rules, its seed (and optional first dealer)
and the list of actions it accepted: `Game.replay` rebuilds it exactly, which
is how the server persists tables.

Players are numbered 0…players-1.  A hand has its own seats; they are the
players' numbers except with Lopaka, where each hand seats the dealer at 0,
the other player at 1 and Lopaka at 2 (he sits at the dealer's right and so
moves every hand).  Actions name the seat of the current hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from .actions import Action
from .errors import IllegalAction, Rule
from .events import Event, GameEnded, GameStarted, HandEnded, HandStarted, Phase
from .hand import Hand, random_deal
from .rules import Rules
from .view import SeatView, observe


def _rng(seed: int | str, *parts: object) -> random.Random:
    # String seeds are hashed with SHA-512 by `random`: stable across runs and
    # platforms, whatever PYTHONHASHSEED says.
    return random.Random(":".join(["cursed-bottle", str(seed), *map(str, parts)]))


class Game:
    def __init__(self, rules: Rules, seed: int | str = 0, first_dealer: int | None = None) -> None:
        self.rules = rules
        self.seed = seed
        players = rules.players
        if first_dealer is None:
            first_dealer = rules.dealer_of(_rng(seed, "dealer").randrange(players), 1)
        elif not 0 <= first_dealer < players:
            raise ValueError(f"first_dealer: {first_dealer!r} is not a player of {players}")
        self.first_dealer = first_dealer
        self.totals: list[int] = [0] * players
        self.events: list[Event] = []
        #: For each event, the number of the hand it belongs to (0 before the first).
        self._event_hand: list[int] = []
        self.actions: list[Action] = []
        self.hands: list[Hand] = []
        self.seatings: list[tuple[int | None, ...]] = []
        self.winner: int | None = None
        self._hand_number = 0
        self._emit(GameStarted(rules, first_dealer))
        self._start_hand()

    # ----------------------------------------------------------------- reading

    @property
    def hand(self) -> Hand:
        return self.hands[-1]

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def dealer_player(self) -> int:
        return self.rules.dealer_of(self.first_dealer, len(self.hands))

    @property
    def hand_actions(self) -> list[Action]:
        """The actions accepted in the current hand so far."""
        return self.actions[self._hand_first_action :]

    def seat_of(self, player: int) -> int:
        """The seat `player` has in the current hand."""
        return self.seatings[-1].index(player)

    def player_at(self, seat: int) -> int | None:
        """The player in `seat` of the current hand (None for Lopaka)."""
        return self.seatings[-1][seat]

    def to_act(self) -> tuple[int, ...]:
        return () if self.is_over else self.hand.to_act()

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        return [] if self.is_over else self.hand.legal_actions(seat)

    def view(self, player: int) -> SeatView:
        """What `player` knows now (see engine.view)."""
        return observe(self.hand, self.seat_of(player), tuple(self.totals), self.seatings[-1])

    def hand_of_event(self, seq: int) -> int:
        """The number of the hand event `seq` belongs to (0: before the first)."""
        return self._event_hand[seq]

    def seating_at(self, seq: int) -> tuple[int | None, ...]:
        """The seating of the hand event `seq` belongs to (players by seat)."""
        hand = self._event_hand[seq]
        return self.seatings[hand - 1] if hand else tuple(range(self.rules.players))

    def events_for(self, player: int | None, start: int = 0) -> Iterator[tuple[int, Event]]:
        """(sequence number, event as `player` may see it); None = a spectator."""
        seatings = self.seatings
        for seq in range(start, len(self.events)):
            hand = self._event_hand[seq]
            seat = player
            if player is not None and hand:
                seat = seatings[hand - 1].index(player)
            seen = self.events[seq].seen_by(seat)
            if seen is not None:
                yield seq, seen

    # ---------------------------------------------------------------- changing

    def apply(self, action: Action) -> None:
        """Carry out one action of the current hand, or raise IllegalAction."""
        if self.is_over:
            raise IllegalAction(
                Rule.GAME_OVER, "the game is over", seat=getattr(action, "seat", None)
            )
        self.hand.apply(action)
        self.actions.append(action)
        if self.hand.phase is Phase.OVER:
            self._end_hand()

    @classmethod
    def replay(
        cls,
        rules: Rules,
        seed: int | str,
        actions: Iterable[Action],
        first_dealer: int | None = None,
    ) -> Game:
        """Rebuild a game from its seed and accepted actions."""
        game = cls(rules, seed, first_dealer)
        for action in actions:
            game.apply(action)
        return game

    def _emit(self, event: Event) -> None:
        self.events.append(event)
        self._event_hand.append(self._hand_number)

    def _seating(self, dealer: int) -> tuple[int | None, ...]:
        if self.rules.lopaka:
            return (dealer, 1 - dealer, None)
        return tuple(range(self.rules.players))

    def _start_hand(self) -> None:
        number = len(self.hands) + 1
        dealer_player = self.rules.dealer_of(self.first_dealer, number)
        seating = self._seating(dealer_player)
        dealer_seat = seating.index(dealer_player)
        deal, undealt = random_deal(self.rules, _rng(self.seed, "hand", number), dealer_seat)
        self.seatings.append(seating)
        self._hand_number = number
        self._hand_first_action = len(self.actions)
        lopaka = (dealer_seat - 1) % len(seating) if self.rules.lopaka else None
        self._emit(HandStarted(number, dealer_seat, seating, lopaka))
        self.hands.append(Hand(self.rules, dealer_seat, deal, undealt, self._emit, number))

    def _end_hand(self) -> None:
        hand = self.hand
        scores = hand.scores()
        for seat, player in enumerate(self.seatings[-1]):
            if player is not None:
                self.totals[player] += scores[seat]
        cards = hand.deck.cards
        self._emit(
            HandEnded(
                hand.number,
                tuple(cards[c] for c in hand.pile),
                hand.owner,
                None if hand.price_card is None else cards[hand.price_card],
                hand.points_taken(),
                hand.pile_points(),
                scores,
                tuple(self.totals),
                hand.bottle_states(),
            )
        )
        if self._game_decided():
            top = max(self.totals)
            self.winner = self.totals.index(top)
            self._emit(GameEnded(tuple(self.totals), self.winner, len(self.hands)))
        else:
            self._start_hand()

    def _game_decided(self) -> bool:
        """Target reached or hands played out, and nobody tied at the top."""
        rules = self.rules
        if rules.hands is not None:
            reached = len(self.hands) >= rules.hands
        else:
            reached = max(self.totals) >= rules.target or len(self.hands) >= rules.hand_limit
        top = max(self.totals)
        return reached and sum(self.totals[side[0]] == top for side in rules.sides) == 1
