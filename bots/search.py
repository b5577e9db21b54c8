"""Determinized search: what each legal action is worth to the seat, on average
over deals consistent with what it knows.

Bridge programs (GIB and after) play this way: guess the hidden cards many
times, solve each guess with every card known, and average.  Here:
- in the play phase, each guess is solved exactly by the double-dummy solver
  (under the model asked for: paranoid or max-n) once few enough cards are
  left for it to be quick (`exact_cards_for`: by players, holders, the second
  bottle, Devil's Eye; under a time budget, three players of Cursed Bottle
  from the first lead); earlier, each legal card is played out to the end of
  the hand by a rollout policy (Lopaka's for everyone unless the caller gives
  another), which is cheap and already far better than rules of thumb;
- the pile, pass and open-hand choices are searched the same way: each guess
  deals the hidden cards afresh, the other seats choose by the tips (lowest
  cards, short suits), the seat's own earlier choices stand as made, and the
  hand is played out.
The guessed deals are uniform among the consistent ones unless the caller
weighs them (bots/inference.py).  The search is anytime: it stops after
`samples` guesses, or when the next one would overrun the time budget (at
least one guess is always made).  An exact solve is ended by the budget
(solver.batch.solve_within): a guess whose solve takes more than a share of
it is given up for the next, and a decision that solves none in half of it
plays its guesses out instead, so a dear position costs guesses, not time.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from cursedbottle.engine.actions import Action, ChooseOpen, PassCard, PileCard
from cursedbottle.engine.cards import Card
from cursedbottle.engine.events import Phase
from cursedbottle.engine.hand import Hand
from cursedbottle.engine.rules import Rules
from cursedbottle.engine.view import SeatView

from .heuristic_bot import rollout, shedding_order
from .sampling import Deal, position_of, sample_deal

# The exact-solve thresholds: the most cards left in the hands at which a
# guessed deal is solved exactly rather than played out, each chosen so that
# a decision still sees enough deals (the measurements: bench/README.md, "The
# bots' exact-solve thresholds").
#: The default: up to four holders, and team mode (the partner maximises too,
#: and the search loses `avoid` and its bounds).
EXACT_CARDS = 24
#: Five and six Bottle Imp players (no teams), by holders: five tricks each.
EXACT_CARDS_BY_HOLDERS = {5: 25, 6: 30}
#: The second bottle: the search loses `avoid`, its bounds and the pattern key.
EXACT_CARDS_SECOND_BOTTLE = 20
#: Devil's Eye: each card may come from either hand, so the tree is wider.
EXACT_CARDS_DEVILS_EYE = 16
#: The Bottle Imp with three players (36 cards, 11 tricks): 7 tricks left.
EXACT_CARDS_IMP3 = 21


#: A time-budgeted strong bot's threshold for a three-player Cursed Bottle
#: hand: every card, exact from the first lead (issue 17): its solves end with
#: the budget (`EXACT_DEAL_SHARE`, `EXACT_GIVE_UP`), so a dear first lead
#: costs deals, not time (the ladder: bench/README.md, "Exact from the first
#: lead").
EXACT_CARDS_BUDGETED_3P = 64


def exact_cards_for(rules: Rules, budgeted: bool = False) -> int:
    """The exact-solve threshold of `evaluate` for a rule set (measured);
    `budgeted`: the strong bot's under a time budget."""
    if budgeted and rules.players == 3 and rules.holders == 3 and not rules.original:
        return EXACT_CARDS_BUDGETED_3P
    if rules.devils_eye:
        return EXACT_CARDS_DEVILS_EYE
    if rules.original and rules.players == 3:
        return EXACT_CARDS_IMP3
    if rules.second_bottle:
        return EXACT_CARDS_SECOND_BOTTLE
    if rules.teams:
        return EXACT_CARDS
    return EXACT_CARDS_BY_HOLDERS.get(rules.holders, EXACT_CARDS)


#: Weight of the rollout score beside an exact value when ranking (a tie-breaker:
#: exact values are whole points, and 1/100 of a rollout score stays below one).
TIE_WEIGHT = 0.01
#: Deals drawn and solved together per thread when the exact solves run on
#: several threads: enough to keep every thread busy while the solves' lengths
#: differ, few enough for a time budget to stop in time.
DEALS_PER_THREAD = 8
#: The share of a time budget one guessed deal's exact solve may take: a deal
#: dearer than that is given up for the next (a first lead's solves run from
#: milliseconds to seconds, and a decision is better made on many deals).
EXACT_DEAL_SHARE = 0.25
#: The share of a time budget after which a decision without one exact deal
#: values its deals by rollouts instead (a few exact deals would do; none
#: would leave it nothing).
EXACT_GIVE_UP = 0.5
#: The model of the exact solves in `_deals_values` (ActionValue.model): change
#: both together, the hint's sentence says it to the player.
EXACT_MODEL = "paranoid"


@dataclass(frozen=True, slots=True)
class ActionValue:
    action: Action
    #: Mean final score of the hand for the seat after this action.
    value: float
    #: Share of the guesses in which this action was (one of) the best.
    best_rate: float
    samples: int
    #: Whether the values are exact double-dummy values (else rollouts).
    exact: bool
    #: The value on each guessed deal, in the order the deals were drawn (the
    #: same deals for every action, so two actions compare deal by deal).
    per_deal: tuple[float, ...] = ()
    #: The solver's model behind exact values ("paranoid" or "maxn"; "" for
    #: rollouts): the hint tells the player in words what the values assume.
    model: str = ""
    #: How many different deals the `samples` guesses were (a weighed pool,
    #: bots.inference, is drawn from again and again: its guesses repeat, and
    #: the repeats are the weights); 0: as many as the guesses.
    deals: int = 0


def clearly_better(a: ActionValue, b: ActionValue, z: float = 2.0) -> bool:
    """Whether `a` beats `b` by more than `z` standard errors, paired by deal."""
    diffs = [x - y for x, y in zip(a.per_deal, b.per_deal, strict=True)]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * (var / n) ** 0.5


def evaluate(
    view: SeatView,
    rng: random.Random,
    budget: float | None = 1.0,
    samples: int | None = None,
    exact_cards: int | None = None,
    deals: Callable[[], Deal] | None = None,
    model: str = EXACT_MODEL,
    policy: Callable[[Hand], tuple[int, ...]] = rollout,
    threads: int = 1,
) -> list[ActionValue]:
    """Every legal action of the view with its mean value, best first.

    `deals` hands out the guessed deals of the play phase (default: uniform
    among the consistent ones, `sample_deal`; bots.inference weighs them);
    the same deal drawn again is valued once.  `model` is the solver's model
    for the exact values ("paranoid" or "maxn"), `policy` plays the play
    phase's rollouts out (default: Lopaka's policy for every seat).
    `threads`: the exact solves of up to that many deals at a time run on as
    many threads (solver/batch.py); the deals are drawn in the same order
    whatever the number, so a sample-count search gives the same values.
    """
    actions = list(view.legal_actions)
    if not actions:
        return []
    play = view.phase is Phase.PLAY
    if exact_cards is None:
        exact_cards = exact_cards_for(view.rules)
    exact = play and sum(view.hand_sizes) <= exact_cards
    # The valued deals (exact, or played out).
    kept = _Tally(len(actions))
    start = time.perf_counter()
    slowest = 0.0
    seen: dict[Deal, _Row] = {}
    # With a budget an exact solve stops at its end (`solve_within`), and one
    # deal's solve after a share of it (`EXACT_DEAL_SHARE`: the deal is given
    # up, never solved again); the loop runs until the budget is spent.  If
    # not one solve ends in time (`EXACT_GIVE_UP`), the deals are played out
    # instead, those given up included.
    # Within the measured thresholds every solve is quick and is awaited, as
    # before (a hint's short budget on a loaded machine must not turn a
    # late hand's exact values into play-outs).
    bounded = exact and budget is not None and sum(view.hand_sizes) > exact_cards_for(view.rules)
    given_up: set[Deal] = set()
    unsolved: dict[Deal, _Row] = {}
    while True:
        t0 = time.perf_counter()
        if bounded and not kept.done and t0 - start > budget * EXACT_GIVE_UP:
            # Not one deal solved in that much of the budget: the rest of it
            # plays deals out, beside those given up.
            exact = bounded = False
            kept, slowest = _Tally(len(actions), unsolved.values()), 0.0
            if deals is not None:  # a pool's deal drawn again counts again
                seen.update(unsolved)
            given_up.clear()
        # Exact solves gain from threads; rollouts are Python (one at a time).
        chunk = DEALS_PER_THREAD * threads if exact and threads > 1 else 1
        if samples is not None:
            chunk = min(chunk, samples - kept.done)
        if play:
            drawn = [deals() if deals is not None else sample_deal(view, rng) for _ in range(chunk)]
            fresh = [d for d in dict.fromkeys(drawn) if d not in seen and d not in given_up]
            rows_of = _deals_values(
                view, actions, fresh, exact, model, policy, threads,
                (start + budget - t0, budget * EXACT_DEAL_SHARE) if bounded else None,
            )
            found = dict(zip(fresh, rows_of, strict=True))
            given_up.update(d for d, row in found.items() if row[0] is None)
            unsolved.update(
                {d: (r, r) for d, (v, r) in found.items() if v is None and r is not None}
            )
            if deals is not None:
                seen.update({d: row for d, row in found.items() if row[0] is not None})
            rows = [found.get(d) or seen.get(d, (None, None)) for d in drawn]
        else:
            values = _setup_values(view, actions, rng)
            rows = [(values, values)]
        kept.add(row for row in rows if row[0] is not None)
        slowest = max(slowest, time.perf_counter() - t0)
        if samples is not None and kept.done >= samples:
            break
        # A bounded solve needs no margin: it ends with the budget.
        ahead = 0.0 if bounded else slowest
        if budget is not None and time.perf_counter() - start + ahead > budget:
            break
        if samples is None and budget is None:
            break
    if not kept.done:
        # Not one guessed deal solved within the budget: the rollouts say.
        kept, exact = _Tally(len(actions), unsolved.values()), False
        seen = unsolved
    distinct = len(seen) if play and deals is not None else kept.done
    out = [
        ActionValue(
            a, sum(kept.per_deal[i]) / kept.done, kept.best[i] / kept.done, kept.done, exact,
            tuple(kept.per_deal[i]), model if exact else "", distinct,
        )
        for i, a in enumerate(actions)
    ]
    order = {
        av.action: (-(av.value + TIE_WEIGHT * kept.tie[i] / kept.done), _tiebreak(av.action))
        for i, av in enumerate(out)
    }
    out.sort(key=lambda av: order[av.action])
    return out


#: A guessed deal's values of the actions (None: its solve did not end in
#: time) and the rollout scores beside them (None: not played out in time).
_Row = tuple[list[float] | None, list[float] | None]


class _Tally:
    """The valued deals' sums so far, added up as they come (a weighed pool's
    deals are drawn again and again: tens of thousands of rows a second)."""

    def __init__(self, actions: int, rows: Iterable[_Row] = ()) -> None:
        self.done = 0
        self.per_deal: list[list[float]] = [[] for _ in range(actions)]
        # Rollout scores beside exact values, to order what the solver values alike.
        self.tie = [0.0] * actions
        self.best = [0] * actions
        self.add(rows)

    def add(self, rows: Iterable[_Row]) -> None:
        for values, rollouts in rows:
            top = max(values)  # type: ignore[type-var]
            for i, v in enumerate(values):  # type: ignore[arg-type]
                self.per_deal[i].append(v)
                self.tie[i] += rollouts[i] if rollouts is not None else 0.0
                self.best[i] += v == top
            self.done += 1


def _tiebreak(action: Action) -> int:
    return action.card.index if hasattr(action, "card") else getattr(action, "hand", 0)


def _deals_values(
    view: SeatView,
    actions: list[Action],
    deals: list[Deal],
    exact: bool,
    model: str,
    policy: Callable[[Hand], tuple[int, ...]],
    threads: int,
    limits: tuple[float, float] | None = None,
) -> list[_Row]:
    """(values, rollout scores) of each action on each deal of `deals`.
    `limits`: (seconds for them all, seconds for one deal's solve); the exact
    solves and the rollouts beside them stop at the first, a solve at the
    second, and what they did not reach is None."""
    hands = [position_of(view, deal) for deal in deals]
    if not exact:
        return [(r, r) for r in _rollouts(view, actions, hands, policy)]
    from cursedbottle.solver.batch import solve_within
    from cursedbottle.solver.cancel import CancelToken, current_token

    deadline = None if limits is None else time.perf_counter() + limits[0]
    each = None if limits is None else limits[1]

    def solve() -> list:
        left = None if deadline is None else deadline - time.perf_counter()
        return solve_within(hands, left, each=each, model=model, threads=threads, cancel=token)

    # The exact value decides; the rollouts only order the cards the solver
    # values alike (often all of them, when the seat is doomed whatever it
    # does against opponents who all play against it).
    outer = current_token()
    if threads == 1:
        token = outer
        rows = _rollouts(view, actions, hands, policy, deadline)
        solutions = solve()
    else:
        # The solves run without the GIL: the rollouts (Python) run meanwhile.
        # A caller without a token (Ctrl-C) gets one, so the solves stop with it.
        token = outer if outer is not None else CancelToken()
        with ThreadPoolExecutor(1, thread_name_prefix="cb-solve") as pool:
            pending = pool.submit(solve)
            try:
                rows = _rollouts(view, actions, hands, policy, deadline)
            except BaseException:
                if outer is None:
                    token.cancel()
                raise
            solutions = pending.result()
    return [
        (None if s is None else [float(s.values[a.card]) for a in actions], r)
        for s, r in zip(solutions, rows, strict=True)
    ]


def _rollouts(
    view: SeatView,
    actions: list[Action],
    hands: list[Hand],
    policy: Callable[[Hand], tuple[int, ...]],
    deadline: float | None = None,
) -> list[list[float] | None]:
    """The seat's rollout score after each action, on each hand (past the
    `deadline`, a `time.perf_counter()` time, None for the hands left: the
    first is always played out)."""
    rows: list[list[float] | None] = []
    for hand in hands:
        if rows and deadline is not None and time.perf_counter() > deadline:
            rows.append(None)
            continue
        rollouts = []
        for action in actions:
            child = hand.copy()
            child.push_unchecked(action.card.index)
            rollouts.append(float(policy(child)[view.seat]))
        rows.append(rollouts)
    return rows


def _setup_values(view: SeatView, actions: list[Action], rng: random.Random) -> list[float]:
    deal, undealt = _sample_original_deal(view, rng)
    out = []
    for action in actions:
        hand = Hand(view.rules, view.dealer, deal, undealt)
        _finish_setup(hand, view, action)
        out.append(rollout(hand)[view.seat])
    return out


def _sample_original_deal(
    view: SeatView, rng: random.Random
) -> tuple[list[list[Card]], list[Card]]:
    """The cards as they may have been dealt: the seat's own and the face-up
    hands as they were, the cards it received in the givers' hands, the rest
    shuffled over the other hands and the undealt pile."""
    rules = view.rules
    deck = rules.deck
    holders = rules.holders
    deal: list[list[Card] | None] = [None] * holders
    for h, cards in view.dealt.items():
        deal[h] = list(cards)
    if view.lopaka is not None:
        # Lopaka's hand lies open from the deal and he never gives a card away.
        deal[view.lopaka] = list(view.visible[view.lopaka])
    placed = {c for cards in deal if cards for c in cards}
    fixed: dict[int, list[Card]] = {}
    for giver, card in view.passes_received:
        holder = giver
        if rules.devils_eye:
            holder = 2 * giver + 1  # every pass leaves the second hand
        elif rules.bright_house:
            stage = next(h % 2 for h, cards in view.visible.items() if card in cards)
            holder = 2 * giver + stage
        fixed.setdefault(holder, []).append(card)
        placed.add(card)
    rest = [c for c in deck.cards if c not in placed]
    rng.shuffle(rest)
    sizes = rules.deal_sizes(view.dealer)
    for h in range(holders):
        if deal[h] is None:
            mine = fixed.get(h, [])
            take = sizes[h] - len(mine)
            deal[h] = sorted(mine + rest[:take])
            rest = rest[take:]
    return deal, sorted(rest)  # type: ignore[return-value]


def _finish_setup(hand: Hand, view: SeatView, decision: Action) -> None:
    """Run the setup: the seat's earlier choices as made, `decision` at its
    turn, every other choice by the tips."""
    seat = view.seat
    my_piles = list(view.my_pile_cards)
    my_passes = list(view.passes_given)
    pending = decision
    while hand.phase in (Phase.PILE, Phase.PASS, Phase.OPEN):
        for s in hand.to_act():
            if s != seat:
                hand.apply(_tip_choice(hand, s))
                continue
            phase = hand.phase
            if phase is Phase.PILE and my_piles:
                hand.apply(PileCard(seat, my_piles.pop(0)))
            elif phase is Phase.PASS and my_passes:
                to, card = my_passes.pop(0)
                hand.apply(PassCard(seat, to, card))
            elif pending is not None and _fits(pending, hand, seat):
                hand.apply(pending)
                pending = None
            else:
                hand.apply(_tip_choice(hand, s))


def _fits(action: Action, hand: Hand, seat: int) -> bool:
    return action in hand.legal_actions(seat)


def _tip_choice(hand: Hand, seat: int) -> Action:
    actions = hand.legal_actions(seat)
    first = actions[0]
    if isinstance(first, ChooseOpen):
        return first
    holder = hand.setup_holder(seat)
    cards = hand.deck.cards_of(hand.holdings[holder])
    return min(actions, key=lambda a: shedding_order(cards, a.card, hand.deck.joker_position))
