"""The solver's Python face: positions in, double-dummy values out.

`solve` answers RULES.md's double-dummy question for a position (or an engine
Hand in its play phase); `analyse` walks a played hand and asks the question
after every card.  The search itself is the compiled `_search` module; this
module only translates the engine's state into the `Problem` it takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..engine.cards import Card
from ..engine.events import Phase
from ..engine.hand import Hand
from ..engine.position import Position
from ..engine.records import HandRecord, replay_hand
from . import _search
from .cancel import CancelToken, current_token
from .model import Model
from .problem import Bottle, Problem


@dataclass(frozen=True)
class Solution:
    """The answer for one position: the seat to move and each legal card's value."""

    seat: int
    #: Legal card -> the seat's final score with double-dummy play after it (as
    #: it counts: in the Bottle Imp's team mode the side's, see `solve_hand`).
    values: dict[Card, int]
    nodes: int
    #: How the other seats are assumed to play (RULES.md's two models).
    model: Model = Model.PARANOID

    @property
    def best(self) -> list[Card]:
        top = max(self.values.values())
        return [c for c, v in self.values.items() if v == top]

    def to_json(self) -> dict:
        """The object `cursed-bottle solve` prints (FORMATS.md)."""
        return {
            "seat": self.seat,
            "model": self.model.value,
            "values": {c.ascii: v for c, v in self.values.items()},
            "best": [c.ascii for c in self.best],
            "nodes": self.nodes,
        }


def table_bits(cards_left: int, model: Model = Model.PARANOID) -> int:
    """The most a solve's table may grow to (2^bits entries; it starts small
    and grows as the search fills it): enough for the tree, and small for
    small endgames, whose tables are made afresh most often.  Max-n, which
    prunes little, visits nearly every position of the tree and keeps a
    result for each: from 21 cards in play its table may grow to 2^22
    entries (256 MB; solver/README.md, issue 17, twenty-third part)."""
    if cards_left <= 12:
        return 12
    if cards_left <= 20:
        return 16
    if model is Model.MAXN:
        return 22
    if cards_left <= 26:
        return 20
    return 22


def _count_matrix(hand: Hand) -> tuple[tuple[int, ...], ...]:
    """m[s][t]: what seat t's own score adds to seat s's as it counts, read off
    `Rules.team_scores` (linear: sides' sums, a seat alone doubled) so that
    the solver and the rules cannot disagree."""
    columns = []
    for seat in range(hand.seats):
        unit = [0] * hand.seats
        unit[seat] = 1
        columns.append(hand.rules.team_scores(tuple(unit)))
    return tuple(tuple(columns[t][s] for t in range(hand.seats)) for s in range(hand.seats))


def _side(hand: Hand, root: int) -> tuple[int | None, int]:
    """(partner, factor): who scores with the root seat in the Bottle Imp's team
    mode (None: nobody) and the factor of the side's score (2 for a seat alone
    there)."""
    weights = _count_matrix(hand)[root]
    factor = weights[root]
    others = [s for s, w in enumerate(weights) if w and s != root]
    if factor < 1 or len(others) > 1 or any(weights[s] != factor for s in others):
        raise ValueError(f"the solver cannot value these team scores: {weights}")
    return (others[0] if others else None), factor


def problem_of(hand: Hand, model: Model) -> tuple[Problem, int]:
    """The search's input for the holder to play, and the factor of its values
    (a seat alone in team mode counts double)."""
    if hand.phase is not Phase.PLAY:
        raise ValueError(f"the hand is in the {hand.phase.value} phase, not the play phase")
    shelf = list(hand.shelf)
    if len(shelf) > 1:
        raise ValueError(f"the solver plays at most two bottles, not {len(shelf) + 1}")
    deck = hand.deck
    holder = hand.holder_to_play()
    root = hand.holder_seat[holder]
    maxn = model is Model.MAXN
    partner, factor = (None, 1) if maxn else _side(hand, root)
    problem = Problem(
        hands=tuple(hand.holdings),
        holder_seat=tuple(hand.holder_seat),
        order=tuple(tuple(hand.trick_order(seat)) for seat in range(hand.seats)),
        leader=hand.leader,
        trick=tuple(hand.trick),
        trick_holders=tuple(hand.trick_holders),
        lopaka=hand.lopaka,
        root=root,
        taken=tuple(deck.points_of(m) for m in hand.taken),
        bottle=Bottle(price=hand.price, card=hand.price_card, owner=hand.owner),
        shelf=Bottle(price=shelf[0][0], card=shelf[0][1], owner=shelf[0][2]) if shelf else None,
        pile=hand.pile_points(),
        hot=hand.rules.hot_bottle,
        free=hand.rules.devils_eye,
        partner=partner,
        sides=_count_matrix(hand) if maxn and hand.rules.teams else None,
        points=tuple(deck.points),
        suits=tuple(deck.suit_of),
    )
    return problem, factor


def solve_hand(
    hand: Hand,
    opts: int | None = None,
    tt_bits: int | None = None,
    key_cap: int | None = None,
    time_limit: float | None = None,
    cancel: CancelToken | None = None,
    model: Model | str = Model.PARANOID,
    tables: _search.SearchTables | None = None,
    tt_start_bits: int | None = None,
    cards: Sequence[Card] | None = None,
    guess: int | None = None,
) -> Solution:
    """Solve an engine Hand in its play phase (Lopaka may be the one to move),
    under `model`: `paranoid` (the others play against the seat) or `maxn`
    (each seat for itself; RULES.md).

    The values are the seat's score as it counts: in the Bottle Imp's team
    mode the side's (RULES: partners both get their sum, a seat alone double).
    `key_cap` and `tt_start_bits` are for the tests (see `_search.solve_state`).  Past `time_limit`
    seconds of search it raises TimeoutError; Ctrl-C stops it in the main thread.
    Once `cancel` (by default the thread's current token, solver/cancel.py) is
    cancelled it raises `Cancelled`, before the search or within 4,096 nodes.
    `tables`: a thread's own transposition tables (`_search.SearchTables`,
    solver/batch.py) instead of the shared ones.  `cards`: value only these
    of `root_cards(hand)` and the cards equivalent to them (one solve shared
    among threads, `batch.solve_split`); `guess`: a value near the first
    card's, where its search starts.
    """
    model = Model(model)
    token = cancel if cancel is not None else current_token()
    if token is not None:
        token.check()
    problem, factor = problem_of(hand, model)
    if cards is not None:
        searched = _root_cards(problem, hand, opts)
        stray = [c for c in cards if c not in searched]
        if stray:
            raise ValueError(
                f"cards: {', '.join(c.ascii for c in stray)} not among the cards a solve"
                f" of this position searches ({', '.join(c.ascii for c in searched)})"
            )
    cards_left = sum(bin(m).count("1") for m in hand.holdings)
    values, nodes = _search.solve_state(
        problem,
        maxn=model is Model.MAXN,
        tt_bits=table_bits(cards_left, model) if tt_bits is None else tt_bits,
        opts=_search.ALL_OPTIONS if opts is None else opts,
        key_cap=_search.MAX_KEY_CARDS if key_cap is None else key_cap,
        time_limit=time_limit or 0,
        cancel=token,
        tables=tables,
        cards=None if cards is None else [c.index for c in cards],
        guess=None if guess is None else guess // factor,
        **({} if tt_start_bits is None else {"tt_start_bits": tt_start_bits}),
    )
    deck = hand.deck.cards
    return Solution(
        problem.root, {deck[c]: factor * v for c, v in sorted(values.items())}, nodes, model
    )


def root_cards(
    hand: Hand, model: Model | str = Model.PARANOID, opts: int | None = None
) -> list[Card]:
    """The cards a solve of `hand` searches, highest first: one of each group of
    equivalent cards (the others take its value), Lopaka's one card."""
    return _root_cards(problem_of(hand, Model(model))[0], hand, opts)


def _root_cards(problem: Problem, hand: Hand, opts: int | None) -> list[Card]:
    indices = _search.root_cards(problem, opts=_search.ALL_OPTIONS if opts is None else opts)
    return [hand.deck.cards[i] for i in indices]


def static_bounds(position: Position | Hand, opts: int | None = None) -> tuple[int, int]:
    """The bounds on the score of the seat to play that need no search (the
    search's `score_bounds`), in the paranoid model: for the tests of those
    bounds, which otherwise show only in the nodes they save."""
    hand = position.to_hand() if isinstance(position, Position) else position
    problem, factor = problem_of(hand, Model.PARANOID)
    lo, hi = _search.static_bounds(problem, opts=_search.ALL_OPTIONS if opts is None else opts)
    return factor * lo, factor * hi


def release_table() -> None:
    """Give back the memory of the transposition table the solver keeps between
    solves (it grows to the biggest search made; the next solve makes a new one)."""
    _search.release_table()


def solve(
    position: Position | Hand,
    opts: int | None = None,
    time_limit: float | None = None,
    model: Model | str = Model.PARANOID,
) -> Solution:
    """RULES.md's double-dummy question for the seat to move, one value per legal card."""
    hand = position.to_hand() if isinstance(position, Position) else position
    return solve_hand(hand, opts, time_limit=time_limit, model=model)


@dataclass(frozen=True)
class Step:
    """One card of an analysed hand: what was played and what every legal card was worth."""

    #: 0-based index into the record's plays.
    index: int
    seat: int
    played: Card
    solution: Solution

    @property
    def loss(self) -> int:
        """How much the played card gave away against the best card (0 = a best card)."""
        return max(self.solution.values.values()) - self.solution.values[self.played]

    def to_json(self) -> dict:
        return {
            "play": self.index,
            "seat": self.seat,
            "card": self.played.ascii,
            "loss": self.loss,
            **self.solution.to_json(),
        }


def analyse(
    record: HandRecord | dict, first: int = 0, model: Model | str = Model.PARANOID
) -> list[Step]:
    """Replay a hand record (FORMATS.md) and give, before every card played,
    the double-dummy value of each legal card (the played one included).

    The record is checked by the engine first (an illegal record raises
    RecordError).  Lopaka's cards are analysed too: his one policy card,
    valued for his own score.  A record of a hand still in progress is
    analysed as far as it goes.  `first` skips the plays before that index
    (the early positions are the expensive ones).  `model` is the model of
    every solve (`solve_hand`).
    """
    steps = []
    for index, card, hand in plays_of(record, first):
        solution = solve_hand(hand, model=model)
        steps.append(Step(index, solution.seat, card, solution))
    return steps


def plays_of(record: HandRecord | dict, first: int = 0) -> list[tuple[int, Card, Hand]]:
    """(index, card, the hand before it) for every play of the record from
    `first` on: what `analyse` solves (solver/batch.py solves them at once).
    The record is checked by the engine first (RecordError, ReplayError)."""
    if not isinstance(record, HandRecord):
        record = HandRecord.from_json(record)
    hand = replay_hand(replace(record, plays=()))
    replay_hand(record)  # raises ReplayError at the first illegal play
    out = []
    for index, card in enumerate(record.plays):
        if index >= first:
            out.append((index, card, hand))
        hand = _place(hand, card)
    return out


def _place(hand: Hand, card: Card) -> Hand:
    """The hand after `card` is played, Lopaka NOT moved on: the analysis
    wants the position before each of his cards as well.  The card is known
    legal (the record was replayed by the engine first)."""
    child = hand.copy()
    child.push_unchecked(card.index, autoplay=False)
    return child
