"""Hint mode: every legal action ranked by what it is worth to the seat.

Like GNU Backgammon's hint window: each action with its expected score for
the hand, its share of the guessed deals on which it was best (ties shared,
so the shares add up to one), whether the best line is clearly better than
it (paired by deal), and a reason only where one is plainly true.  `Basis`
says what the numbers are (exact solves under which model, or play-outs by
simple rules, over how many deals), so a front end can say it in one plain
sentence (`meaning`).  The values are the strong bot's (`StrongBot.rank`:
guessed deals weighed by what the others played, solved or played out), so
the hint is as good as the best bot; they are computed from the seat's view
alone, so a hint cannot depend on cards the seat may not know: two states
that look the same to the seat give the same hint for the same seed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from cursedbottle.engine.actions import Action, ChooseOpen, PassCard, PileCard, Play
from cursedbottle.engine.cards import Card
from cursedbottle.engine.events import Phase
from cursedbottle.engine.tricks import trick_winner
from cursedbottle.engine.view import SeatView

from .search import EXACT_MODEL, ActionValue, clearly_better, exact_cards_for
from .strong_bot import StrongBot


@dataclass(frozen=True, slots=True)
class HintLine:
    action: Action
    #: Expected final score of the hand for the seat (None: nothing to weigh).
    value: float | None
    #: Share of the guessed deals on which this action was best, a tie shared
    #: evenly among the tied actions: the shares of a hint add up to one.
    best_rate: float
    samples: int
    exact: bool
    reason: Reason
    #: The best line is not clearly better than this one (paired by deal,
    #: `bots.search.clearly_better`): the difference may be the deals' luck.
    #: True for the best line itself.
    close: bool = True


@dataclass(frozen=True, slots=True)
class Basis:
    """What a hint's values are, for the sentence that says what they mean.

    `kind`: "exact" (each guessed deal solved with every card known, under
    `model`: "maxn" each plays for itself, "paranoid" the others against the
    seat), "rollouts" (each deal played out by simple rules for everyone),
    "setup" (a pile, pass or open-hand choice: the others choose by the tips,
    then everyone plays by simple rules) or "none" (one legal action, nothing
    weighed); `deals` is how many deals were guessed."""

    kind: str = "none"
    model: str = ""
    deals: int = 0

    @property
    def meaning(self) -> str:
        """The one plain English sentence (a client says it in its own language)."""
        return _MEANING[self.key].format(n=self.deals, deals=_plural(self.deals, "deal"))

    @property
    def key(self) -> str:
        """Which sentence: "none", "rollouts", "setup", "maxn" or "paranoid"."""
        return self.model if self.kind == "exact" else self.kind


_MEANING = {
    "none": "There is only one choice: nothing to weigh.",
    "maxn": (
        "Points: what you score this hand if everyone then plays perfectly for themself"
        " with all cards face up, averaged over {deals} that fit what you have seen;"
        " best in: how often the choice was best on those deals (ties shared)."
    ),
    "paranoid": (
        "Points: what you score this hand if the others then all play against you"
        " with all cards face up (the worst case), averaged over {deals} that fit what"
        " you have seen; best in: how often the choice was best on those deals (ties"
        " shared)."
    ),
    "rollouts": (
        "Points: what you score this hand if everyone then plays by simple rules of"
        " thumb, averaged over {deals} that fit what you have seen; best in: how often"
        " the choice was best on those deals (ties shared)."
    ),
    "setup": (
        "Points: what you score this hand if the others pile and pass by the tips and"
        " everyone then plays by simple rules of thumb, averaged over {deals} that fit"
        " what you have seen; best in: how often the choice was best on those deals"
        " (ties shared)."
    ),
}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass(frozen=True, slots=True)
class Hint:
    seat: int
    lines: tuple[HintLine, ...]
    basis: Basis = Basis()

    @property
    def best(self) -> Action | None:
        return self.lines[0].action if self.lines else None


#: The threads a hint solves its guessed deals on at once (solver/batch.py): two
#: at most, the bound the server documents for a hint and a review (server/runner.py).
HINT_THREADS = min(2, os.cpu_count() or 1)


def hint(
    view: SeatView,
    seed: int = 0,
    budget: float | None = 1.0,
    samples: int | None = None,
    model: str = EXACT_MODEL,
    threads: int = HINT_THREADS,
) -> Hint:
    """The ranked actions of `view`; `samples` fixes the work (reproducible),
    `budget` bounds it in seconds (anytime); `model` is the solver's model of the
    exact values (the search's own by default); `threads` solve the guessed deals
    at once (the same values for a given `samples`)."""
    actions = view.legal_actions
    if len(actions) <= 1:
        return Hint(
            view.seat,
            tuple(HintLine(a, None, 1.0, 0, False, Reason("only")) for a in actions),
        )
    # Shown best value first; among equal values in the search's own order.
    # The strong bot's own valuation: its guessed deals, weighed by what the others
    # played, and its rollouts (computed from the seat's view alone).  Exact only
    # from the measured thresholds, as without a budget: a first lead's worst
    # case lies far below what the hand brings (-5 against +20 points) and its
    # cards' values close together, often all "as good as the best" (the bot
    # breaks such ties by its rollouts; a learner would read them as advice).
    exact_cards = exact_cards_for(view.rules)
    values = StrongBot(
        seed, budget, samples, model=model, threads=threads, exact_cards=exact_cards
    ).rank(view)
    ranked = sorted(values, key=lambda av: -av.value)
    shares = fair_shares(ranked)
    top = ranked[0]
    lines = tuple(
        HintLine(
            av.action,
            av.value,
            shares[i],
            av.samples,
            av.exact,
            reason(view, av.action),
            close=i == 0 or not clearly_better(top, av),
        )
        for i, av in enumerate(ranked)
    )
    return Hint(view.seat, lines, basis_of(view, ranked))


def basis_of(view: SeatView, values: list[ActionValue]) -> Basis:
    """What the search's values are, read from them (the search decides, not
    the hint); the deals are the different ones guessed, not the draws."""
    deals = max(av.deals or av.samples for av in values)
    if view.phase is not Phase.PLAY:
        return Basis("setup", "", deals)
    models = {av.model for av in values}
    if all(av.exact for av in values) and len(models) == 1 and "" not in models:
        return Basis("exact", models.pop(), deals)
    return Basis("rollouts", "", deals)


def fair_shares(values: list[ActionValue]) -> list[float]:
    """Each action's share of the deals on which it was best, a tie split evenly."""
    deals = min((len(av.per_deal) for av in values), default=0)
    if deals == 0:  # no values per deal: the search's own rates, scaled to add up
        total = sum(av.best_rate for av in values) or 1.0
        return [av.best_rate / total for av in values]
    shares = [0.0] * len(values)
    for d in range(deals):
        column = [av.per_deal[d] for av in values]
        top = max(column)
        best = [i for i, v in enumerate(column) if v == top]
        for i in best:
            shares[i] += 1 / len(best)
    return [s / deals for s in shares]


@dataclass(frozen=True, slots=True)
class Reason:
    """What an action plainly does, as data: `kind` names the sentence, the rest
    fills it in, so a client can say it in its own language (`str` is English).
    `to` is the receiver's seat of a pass and `hand` its hand where that must be
    told (Devil's Eye)."""

    kind: str = ""
    card: Card | None = None
    points: int = 0
    to: int | None = None
    hand: int | None = None

    def __str__(self) -> str:
        card = self.card.display() if self.card is not None else ""
        to = "" if self.to is None else f"seat {self.to}"
        if self.to is not None and self.hand is not None:
            to += f"'s {('first', 'second')[self.hand]} hand"
        n = "" if self.hand is None else self.hand + 1
        pts = _plural(self.points, "point")
        return ENGLISH[self.kind].format(card=card, points=self.points, pts=pts, to=to, n=n)


#: The sentence of each reason kind in English; "" says nothing (no plain reason).
ENGLISH = {
    "": "",
    "only": "the only legal choice",
    "pile": "puts {card} ({pts}) into the bottle's pile",
    "pass": "passes {card} to {to}",
    "open": "lays hand {n} open",
    "buys": "buys the bottle at {card}: it is yours until someone buys it with a lower card",
    "buys_unless": (
        "buys the bottle at {card}, unless a later card in this trick is higher and still"
        " below the price"
    ),
    "takes": "takes the trick and its {pts}",
    "takes_owned": (
        "takes the trick and its {pts}, which count for nothing while you hold the bottle"
    ),
    "takes_hot": (
        "takes the trick and its {pts}, which count against you while you hold the bottle"
    ),
    "loses": "cannot take the trick; the winner gets its {pts}",
    "loses_free": "cannot take the trick, and it carries no points",
}


def reason(view: SeatView, action: Action) -> Reason:
    """What the action plainly does (kind "" when nothing is plain: a card that
    leads, or wins the trick so far with more cards to come, may go either way)."""
    if isinstance(action, PileCard):
        return Reason("pile", action.card, action.card.points)
    if isinstance(action, PassCard):
        hand = view.pass_to_hand if view.rules.devils_eye else None
        return Reason("pass", action.card, to=action.to, hand=hand)
    if isinstance(action, ChooseOpen):
        return Reason("open", hand=action.hand)
    if not isinstance(action, Play):
        return Reason()
    card = action.card
    price = view.price_threshold
    trick = [c.index for _, c in view.trick] + [card.index]
    pos, buys = trick_winner(trick, price)
    wins = pos == len(trick) - 1
    last = len(trick) == len(view.trick_order)
    points = sum(view.rules.deck.points[c] for c in trick)
    if wins and buys:
        # Certain once no card that may still come in this trick lies between it and
        # the price (the highest card below the price wins, whatever its suit).
        later = _may_come(view, len(trick))
        sure = not any(card.index < c.index < price for c in later)
        return Reason("buys" if sure else "buys_unless", card)
    if wins and last:
        # The bottle's owner takes the points too, but they do not count for it.
        if view.seat in (view.owner, *(owner for _, owner in view.bottles)):
            return Reason("takes_hot" if view.rules.hot_bottle else "takes_owned", points=points)
        return Reason("takes", points=points)
    if wins:
        return Reason()
    # A card that does not win now cannot win later in the trick: a later card
    # either wins itself or leaves the winner as it is.
    if card.points:
        return Reason("loses", card, card.points)
    return Reason("loses_free", card)


def _may_come(view: SeatView, played: int) -> set[Card]:
    """The cards the holders after the first `played` cards of the trick may play: an
    open hand's cards, else every card whose place the seat does not know and the
    cards it knows are there."""
    out: set[Card] = set()
    for holder in view.trick_order[played:]:
        if holder in view.visible:
            out.update(view.visible[holder])
        else:
            out.update(view.unseen)
            out.update(view.known.get(holder, ()))
    return out
