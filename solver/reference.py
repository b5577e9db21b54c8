"""The reference solver: plain minimax (and max-n) over the engine's own Hand.

It exists to be obviously right, not fast: every move goes through
`Hand.legal_actions()` and `Hand.apply()`, Lopaka moves through
`Hand.autoplay()`, and a finished hand is valued with `Hand.scores()`, so it
shares no rule code with the compiled search it checks.  The only additions to
the textbook searches are a memo keyed on the complete state of the hand (every
holding, the trick, the leader, price, owner, the other bottle's state and
every seat's taken cards): the rest of the hand is a function of exactly that,
so the memo cannot change a value, it only keeps the differential tests
affordable; and for the paranoid model textbook alpha-beta, whose memo keeps
only the values that came out strictly inside their window (exact ones).
`reference_solve(..., prune=False)` is the plain minimax, and the tests hold
the two equal on every rule set (tests/test_solver_reference.py): the
pruned one lets the full differential run reach six players in team mode.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ..engine.cards import Card
from ..engine.hand import Hand
from ..engine.tricks import lopaka_card
from .model import Model


def _key(hand: Hand) -> tuple:
    return (
        tuple(hand.holdings),
        tuple(hand.trick),
        hand.leader,
        hand.price_card,
        hand.owner,
        tuple(hand.taken),
        tuple(hand.shelf),  # the second bottle's state, when played
    )


def _children(hand: Hand, seat: int) -> Iterator[tuple[int, Hand]]:
    """(card, the hand after it) for each legal card of the seat, one at a time."""
    for action in hand.legal_actions(seat):
        child = hand.copy()
        child.apply(action)
        yield action.card.index, child


class _Search:
    """The tree walk every model shares: Lopaka by his policy, the memo, and the
    legal cards of every other seat, one child each; `leaf` values a
    finished hand and `choose` values the children (`self.value`) and picks.

    (alpha, beta) is the window of a pruning search (alpha-beta): a value on
    or outside it may be a bound only, so only those `exact` accepts are
    memoised.  The plain searches ignore it: every value of theirs is exact."""

    def __init__(self) -> None:
        self.nodes = 0
        self._memo: dict[tuple, object] = {}

    def value(self, hand: Hand, alpha: float = -math.inf, beta: float = math.inf):
        self.nodes += 1
        if hand.is_over:
            return self.leaf(hand)
        key = _key(hand)
        if key in self._memo:
            return self._memo[key]
        seat = hand.to_act()[0]
        if seat == hand.lopaka:
            child = hand.copy()
            child.autoplay()
            result = self.value(child, alpha, beta)
        else:
            result = self.choose(seat, _children(hand, seat), alpha, beta)
        if self.exact(result, alpha, beta):
            self._memo[key] = result
        return result

    def leaf(self, hand: Hand):
        raise NotImplementedError

    def choose(self, seat: int, children: Iterator[tuple[int, Hand]], alpha: float, beta: float):
        raise NotImplementedError

    def exact(self, result, alpha: float, beta: float) -> bool:
        return True


class ReferenceSolver(_Search):
    """Minimax for one root seat: it maximises its score, the others minimise it.

    In the Bottle Imp's team mode the score is the side's (`Hand.scores()`)
    and the root seat's partner maximises it too.
    """

    def __init__(self, root: int, side: tuple[int, ...] = ()) -> None:
        super().__init__()
        self.root = root
        self.side = frozenset(side) | {root}

    def leaf(self, hand: Hand) -> int:
        return hand.scores()[self.root]

    def choose(self, seat: int, children: Iterator[tuple[int, Hand]], alpha: float,
               beta: float) -> int:
        values = [self.value(child) for _, child in children]
        return max(values) if seat in self.side else min(values)


class ReferenceAlphaBeta(ReferenceSolver):
    """The same minimax by alpha-beta (fail-soft): a value strictly inside its
    window (alpha, beta) is the position's exact value, and only such values
    are memoised; one on or outside the window is only a bound, and a cut-off
    leaves the rest of a seat's cards unsearched."""

    def choose(self, seat: int, children: Iterator[tuple[int, Hand]], alpha: float,
               beta: float) -> int:
        maximise = seat in self.side
        result = -math.inf if maximise else math.inf
        for _, child in children:
            v = self.value(child, alpha, beta)
            if maximise:
                result = max(result, v)
                alpha = max(alpha, v)
            else:
                result = min(result, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return result

    def exact(self, result: int, alpha: float, beta: float) -> bool:
        return alpha < result < beta


class ReferenceMaxn(_Search):
    """Max-n for one root seat, word for word RULES.md's "each for itself".

    Every position has one vector of final scores (`Hand.scores()`, as they
    count); where seat s moves, the legal cards' vectors with the highest
    entry for s are kept, among them those with the lowest entry for the root
    seat, and among them the card lowest in the deck's order decides.
    """

    def __init__(self, root: int) -> None:
        super().__init__()
        self.root = root

    def leaf(self, hand: Hand) -> tuple[int, ...]:
        return hand.scores()

    def choose(self, seat: int, children: Iterator[tuple[int, Hand]], alpha: float,
               beta: float) -> tuple[int, ...]:
        valued = [(card, self.value(child)) for card, child in children]
        _, best = min(valued, key=lambda cv: (-cv[1][seat], cv[1][self.root], cv[0]))
        return best


def reference_solve(
    hand: Hand, model: Model | str = Model.PARANOID, prune: bool = True
) -> tuple[int, dict[Card, int], int]:
    """(seat to move, value of each legal card, nodes) for a hand in its play phase.

    With Lopaka to move, the one card his policy plays, valued for his own score.
    `prune`: the paranoid model by alpha-beta (else plain minimax; max-n is
    always searched in full).
    """
    model = Model(model)
    seat = hand.to_act()[0]
    rules = hand.rules
    if model is Model.MAXN:
        maxn = ReferenceMaxn(seat)

        def value(child: Hand) -> int:
            return maxn.value(child)[seat]

        counter: _Search = maxn
    else:
        side = rules.side_of[seat] if rules.teams else ()
        counter = ReferenceAlphaBeta(seat, side) if prune else ReferenceSolver(seat, side)
        value = counter.value
    values: dict[Card, int] = {}
    if seat == hand.lopaka:
        deck = hand.deck
        card = lopaka_card(
            hand.holdings[hand.holder_to_play()], hand.trick, hand.price,
            deck.suit_masks, deck.suit_of,
        )
        child = hand.copy()
        child.autoplay()
        values[deck.cards[card]] = value(child)
    else:
        for action in hand.legal_actions(seat):
            child = hand.copy()
            child.apply(action)
            values[action.card] = value(child)
    return seat, values, counter.nodes
