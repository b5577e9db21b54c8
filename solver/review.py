"""A finished hand, card by card, against perfect play: the review as data.

For every card played from the first valued trick on, the solver's value of
every legal card (`api.analyse`; solved as a batch, solver/batch.py) under
the `maxn` model: a card's value is the seat's score for the hand if, from
that card on, every seat plays perfectly for itself with all cards known;
its loss is the best card's value minus its own, and a card is a mistake
exactly when its loss is above zero.
Beside it, the paranoid worst case (the others all play against the seat) is
shown for the same cards.  Only the play is valued; the pile and the passes
are not.  The hand is over, so the review uses full information.

`maxn` searches without alpha-beta: the first tricks of a hand are too slow
to solve under it (bench/review_bench.py, figures in docs/protocol.md), so a
review values the cards from `first_affordable_trick` on at the earliest, and
says so (`valued_from`, and the sentence `skipped`).

`build_review` returns JSON-ready data that every front end shows as it is:
`cursed-bottle review` (text or `--json`) and the server's `ReviewHand`
(which turns it into a `HandReview` message).  `record_names` gives the names
a review shows, from a record's `names`/`seating` (history exports and the
server's hand records carry them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.records import HandRecord, replay


def distinct(names: Sequence[str], seating: Sequence[int | None] | None = None) -> list[str]:
    """Names a reader can tell apart: three "random bot"s become "random bot (seat 0)" …,
    by table seat (`seating`: the table seat of each hand seat, as stored)."""
    seats = list(seating) if seating is not None else list(range(len(names)))
    return [
        f"{n} (seat {seats[i]})" if names.count(n) > 1 and seats[i] is not None else n
        for i, n in enumerate(names)
    ]


def record_names(obj: Any, record: HandRecord, told_apart: bool = True) -> list[str]:
    """Who sat where, by hand seat: the record's `names` (told apart by `distinct` for a
    text; a client tells them apart in its own words; a seat without a name is called
    by its table seat), else "seat N" and "Lopaka"."""
    seats = record.rules.seats
    given = obj.get("names") if isinstance(obj, dict) else None
    if isinstance(given, list) and len(given) == seats and all(isinstance(n, str) for n in given):
        seating = obj.get("seating")
        valid = (
            isinstance(seating, list)
            and len(seating) == seats
            and all(s is None or (isinstance(s, int) and not isinstance(s, bool)) for s in seating)
        )
        where = seating if valid else list(range(seats))
        named = [
            n or ("Lopaka" if where[i] is None else f"seat {where[i]}") for i, n in enumerate(given)
        ]
        return distinct(named, where if valid else None) if told_apart else named
    return ["Lopaka" if s == record.lopaka else f"seat {s}" for s in range(seats)]


#: Under `maxn` a review values the cards from the first trick at whose start at
#: most this many cards are left in the hands: from there on the slowest position
#: measured took about a second (bench/review_bench.py; docs/protocol.md has the
#: figures).  Keyed by (the Bottle Imp, holders, teams, the second bottle): the
#: bright house is (False, 4, False, False), six in teams with two alone count as
#: teams; Lopaka's games and Devil's Eye apart.
MAXN_CARDS = {
    (False, 3, False, False): 24,
    (False, 4, False, False): 24,
    (True, 3, False, False): 24,
    (True, 4, False, False): 24,
    (True, 5, False, False): 25,
    (True, 6, False, False): 24,
    (True, 4, True, False): 20,
    (True, 5, True, False): 25,
    (True, 6, True, False): 24,
    (True, 5, False, True): 25,
    (True, 6, False, True): 24,
    (True, 5, True, True): 20,
    (True, 6, True, True): 24,
}
MAXN_CARDS_LOPAKA = 27
MAXN_CARDS_DEVILS_EYE = 16
#: A rule set not measured: a trick below the measured ones.  Every rule set the
#: engine plays has an entry (tests/test_review_cli.py); this is for one added later.
MAXN_CARDS_DEFAULT = 21
MEANING = (
    "Value: the points the player ends this hand with if, from that card on, everyone"
    " plays perfectly for themself with all cards face up; cost: the points the card"
    " played gave away against the best card (a mistake when above 0); worst case: the"
    " same if the others all played against them."
)


def maxn_cards(rules) -> int:
    """The most cards left in the hands at which a review values a trick (MAXN_CARDS)."""
    if rules.lopaka:
        return MAXN_CARDS_LOPAKA
    if rules.devils_eye:
        return MAXN_CARDS_DEVILS_EYE
    return MAXN_CARDS.get(maxn_cards_key(rules), MAXN_CARDS_DEFAULT)


def maxn_cards_key(rules) -> tuple[bool, int, bool, bool]:
    """A rule set's key in MAXN_CARDS: what the max-n search's speed depends on."""
    return (rules.original, rules.holders, rules.teams, rules.second_bottle)


def first_affordable_trick(record: HandRecord) -> int:
    """The first trick of the hand whose cards a `maxn` review values (`maxn_cards`),
    counted on the hand's own tricks (the cards left before each)."""
    tricks = replay(record).tricks
    left = sum(len(t.plays) for t in tricks)
    limit = maxn_cards(record.rules)
    for number, trick in enumerate(tricks, start=1):
        if left <= limit:
            return number
        left -= len(trick.plays)
    return len(tricks)


def skipped(review: dict[str, Any]) -> str:
    """The sentence that says which tricks were not valued, and why ("" when none)."""
    first, valued = review["from_trick"], review["valued_from"]
    if valued <= first:
        return ""
    tricks = f"trick {first}" if valued == first + 1 else f"tricks {first}–{valued - 1}"
    return (
        f"Cards of {tricks} are not valued: solving them exactly for every player takes"
        " too long."
    )


def build_review(
    record: HandRecord,
    from_trick: int = 1,
    names: list[str] | None = None,
    worst_case: bool = True,
    threads: int = 1,
) -> dict[str, Any]:
    """The review of a complete hand record as JSON-ready data.

    `valued_from` is the first trick valued: `from_trick`, or later where the
    tricks before it are too slow under `maxn` (`first_affordable_trick`).
    `tricks[i].cards[j]` holds `seat`, `card` and, for cards from `valued_from`
    on, `value` (the seat's score after this card under `maxn`), `best` (the
    cards of top value), `best_value`, `loss` (best_value − value), `mistake`
    (loss > 0), `values` (every legal card), `forced` (one legal card: no
    choice) and, with `worst_case`, `worst_value`, `worst_best_value` and
    `worst_loss`, the same under `paranoid`.  Per seat `loss` sums the cards'
    losses, `mistakes` counts the mistakes, `analysed` the cards valued,
    `worst_loss` the paranoid losses.  `meaning` says in one sentence what the
    numbers are.  Raises RecordError (or its subclass ReplayError) for a
    malformed or illegal record.  `threads`: the positions are solved on that
    many threads at once (solver/batch.py; the same values).
    """
    from .batch import analyse_many

    result = replay(record)
    rules = record.rules
    seats = rules.seats
    names = names or [f"seat {s}" for s in range(seats)]
    valued_from = max(from_trick, first_affordable_trick(record))
    first = sum(len(t.plays) for t in result.tricks[: valued_from - 1])
    steps = {s.index: s for s in analyse_many(record, first, "maxn", threads=threads)}
    worst = (
        {s.index: s for s in analyse_many(record, first, "paranoid", threads=threads)}
        if worst_case
        else {}
    )
    loss = [0] * seats
    worst_loss = [0] * seats
    mistakes = [0] * seats
    analysed = [0] * seats
    tricks = []
    index = 0
    for trick in result.tricks:
        cards = []
        for seat, card in trick.plays:
            entry: dict[str, Any] = {"play": index, "seat": seat, "card": card.ascii}
            step = steps.get(index)
            if step is not None:
                assert step.seat == seat and step.played == card, (step, seat, card)
                values = step.solution.values
                top = max(values.values())
                entry.update(
                    value=values[card],
                    best=[c.ascii for c in step.solution.best],
                    best_value=top,
                    loss=step.loss,
                    mistake=step.loss > 0,
                    values={c.ascii: v for c, v in values.items()},
                    forced=len(values) == 1,
                )
                analysed[seat] += 1
                loss[seat] += step.loss
                mistakes[seat] += step.loss > 0
                other = worst.get(index)
                if other is not None:
                    entry.update(
                        worst_value=other.solution.values[card],
                        worst_best_value=max(other.solution.values.values()),
                        worst_loss=other.loss,
                    )
                    worst_loss[seat] += other.loss
            cards.append(entry)
            index += 1
        tricks.append(
            {
                "number": trick.number,
                "leader": trick.leader,
                "winner": trick.winner,
                "bought": trick.bought,
                "price": None if trick.price_after is None else trick.price_after.ascii,
                "cards": cards,
            }
        )
    outcome = result.to_json()
    return {
        "rules": rules.to_json(),
        "dealer": record.dealer,
        "lopaka": record.lopaka,
        "names": names,
        "model": "maxn",
        "worst_case": worst_case,
        "meaning": MEANING if worst_case else MEANING[: MEANING.index("; worst case")] + ".",
        "from_trick": from_trick,
        "valued_from": valued_from,
        "tricks": tricks,
        "scores": outcome["scores"],
        "owner": outcome["owner"],
        "price": outcome["price"],
        "loss": loss,
        "mistakes": mistakes,
        "analysed": analysed,
        "worst_loss": worst_loss,
    }
