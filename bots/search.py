"""Determinized search: what each legal action is worth to the seat, on average
over deals consistent with what it knows.

Bridge programs (GIB and after) play this way: guess the hidden cards many
times, solve each guess with every card known, and average.  Here:
- in the play phase, each guess is solved exactly by the double-dummy solver
  (under the model asked for: paranoid or max-n) once few enough cards are
  left for it to be quick (`exact_cards_for`: by players, holders, the second
  bottle, Devil's Eye); earlier, each legal card is played out to the end of
  the hand by a rollout policy (Lopaka's for everyone unless the caller gives
  another), which is cheap and already far better than rules of thumb;
- the pile, pass and open-hand choices are searched the same way: each guess
  deals the hidden cards afresh, the other seats choose by the tips (lowest
  cards, short suits), the seat's own earlier choices stand as made, and the
  hand is played out.
The guessed deals are uniform among the consistent ones unless the caller
weighs them (bots/inference.py).  The search is anytime: it stops after
`samples` guesses, or when the next one would overrun the time budget (at
least one guess is always made).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
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


def exact_cards_for(rules: Rules) -> int:
    """The exact-solve threshold of `evaluate` for a rule set (measured)."""
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
    per_deal: list[list[float]] = [[] for _ in actions]
    # Rollout scores beside exact values, to order what the solver values alike.
    tie = [0.0] * len(actions)
    best = [0] * len(actions)
    done = 0
    start = time.perf_counter()
    slowest = 0.0
    seen: dict[Deal, tuple[list[float], list[float]]] = {}
    while True:
        t0 = time.perf_counter()
        # Exact solves gain from threads; rollouts are Python (one at a time).
        chunk = DEALS_PER_THREAD * threads if exact and threads > 1 else 1
        if samples is not None:
            chunk = min(chunk, samples - done)
        if play:
            drawn = [deals() if deals is not None else sample_deal(view, rng) for _ in range(chunk)]
            fresh = [d for d in dict.fromkeys(drawn) if deals is None or d not in seen]
            rows_of = _deals_values(view, actions, fresh, exact, model, policy, threads)
            found = dict(zip(fresh, rows_of, strict=True))
            if deals is not None:
                seen.update(found)
                found = seen
            rows = [found[d] for d in drawn]
        else:
            values = _setup_values(view, actions, rng)
            rows = [(values, values)]
        for values, rollouts in rows:
            top = max(values)
            for i, v in enumerate(values):
                per_deal[i].append(v)
                tie[i] += rollouts[i]
                best[i] += v == top
        done += len(rows)
        slowest = max(slowest, time.perf_counter() - t0)
        if samples is not None and done >= samples:
            break
        if budget is not None and time.perf_counter() - start + slowest > budget:
            break
        if samples is None and budget is None:
            break
    distinct = len(seen) if play and deals is not None else done
    out = [
        ActionValue(
            a, sum(per_deal[i]) / done, best[i] / done, done, exact, tuple(per_deal[i]),
            model if exact else "", distinct,
        )
        for i, a in enumerate(actions)
    ]
    order = {
        av.action: (-(av.value + TIE_WEIGHT * tie[i] / done), _tiebreak(av.action))
        for i, av in enumerate(out)
    }
    out.sort(key=lambda av: order[av.action])
    return out


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
) -> list[tuple[list[float], list[float]]]:
    """(values, rollout scores) of each action on each deal of `deals`."""
    hands = [position_of(view, deal) for deal in deals]
    if not exact:
        return [(r, r) for r in _rollouts(view, actions, hands, policy)]
    from cursedbottle.solver.batch import solve_many
    from cursedbottle.solver.cancel import CancelToken, current_token

    # The exact value decides; the rollouts only order the cards the solver
    # values alike (often all of them, when the seat is doomed whatever it
    # does against opponents who all play against it).
    if threads == 1:
        rows = _rollouts(view, actions, hands, policy)
        solutions = solve_many(hands, model=model, threads=1)
    else:
        # The solves run without the GIL: the rollouts (Python) run meanwhile.
        # A caller without a token (Ctrl-C) gets one, so the solves stop with it.
        outer = current_token()
        token = outer if outer is not None else CancelToken()
        with ThreadPoolExecutor(1, thread_name_prefix="cb-solve") as pool:
            pending = pool.submit(solve_many, hands, model=model, threads=threads, cancel=token)
            try:
                rows = _rollouts(view, actions, hands, policy)
            except BaseException:
                if outer is None:
                    token.cancel()
                raise
            solutions = pending.result()
    return [
        ([float(s.values[a.card]) for a in actions], r)
        for s, r in zip(solutions, rows, strict=True)
    ]


def _rollouts(
    view: SeatView,
    actions: list[Action],
    hands: list[Hand],
    policy: Callable[[Hand], tuple[int, ...]],
) -> list[list[float]]:
    """The seat's rollout score after each action, on each hand."""
    rows = []
    for hand in hands:
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
