"""A finished hand, card by card, against double-dummy play: the review as data.

For every card played from `from_trick` on, the solver's value of every legal
card (`api.analyse`): a card's value is the seat's score for the hand if
everyone plays double-dummy from that card on, and its loss is the best
card's value minus its own.  Only the play is valued; the pile and the passes
are not.  The hand is over, so the review uses full information.

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


def record_names(obj: Any, record: HandRecord) -> list[str]:
    """Who sat where, by hand seat: the record's `names` (told apart by `distinct`; a
    seat without a name is called by its table seat), else "seat N" and "Lopaka"."""
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
        return distinct(named, where if valid else None)
    return ["Lopaka" if s == record.lopaka else f"seat {s}" for s in range(seats)]


def build_review(
    record: HandRecord, from_trick: int = 1, names: list[str] | None = None
) -> dict[str, Any]:
    """The review of a complete hand record as JSON-ready data.

    `tricks[i].cards[j]` holds `seat`, `card` and, for cards from `from_trick`
    on, `value` (the seat's double-dummy score after this card), `best` (the
    cards of top value), `best_value`, `loss` (best_value − value),
    `values` (every legal card) and `forced` (one legal card: no choice).
    `loss` per seat sums the cards' losses; `mistakes` counts cards that cost
    points; `analysed` counts the cards valued.  Raises RecordError (or its
    subclass ReplayError) for a malformed or illegal record.
    """
    from .api import analyse

    result = replay(record)
    rules = record.rules
    seats = rules.seats
    names = names or [f"seat {s}" for s in range(seats)]
    first = (from_trick - 1) * rules.holders
    steps = {s.index: s for s in analyse(record, first=first)}
    loss = [0] * seats
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
                    values={c.ascii: v for c, v in values.items()},
                    forced=len(values) == 1,
                )
                analysed[seat] += 1
                loss[seat] += step.loss
                mistakes[seat] += step.loss > 0
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
        "from_trick": from_trick,
        "tricks": tricks,
        "scores": outcome["scores"],
        "owner": outcome["owner"],
        "price": outcome["price"],
        "loss": loss,
        "mistakes": mistakes,
        "analysed": analysed,
    }
