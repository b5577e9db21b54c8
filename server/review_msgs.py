"""Finished hands on the wire: a hand's HandSummary (for ListHands) and its HandReview.

Both are made in worker threads (a summary replays its record, a review is
the solver's), from a `FinishedHand`: the record of a hand that is over and
where it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cursedbottle.engine.records import HandRecord, replay_hand
from cursedbottle.solver.review import record_names
from cursedbottle.v1 import table_pb2

from . import wire
from .seating import seat_map


@dataclass(frozen=True)
class FinishedHand:
    table_id: str
    table_name: str
    number: int
    #: The hand record with `table`, `hand`, `names` and `seating` (what history exports).
    record: dict[str, Any]
    finished_ns: int


def summary_msg(hand: FinishedHand) -> table_pb2.HandSummary:
    """What a list of hands shows of one (replays the record: scores and the owner)."""
    record = HandRecord.from_json(hand.record)
    played = replay_hand(record)
    out = table_pb2.HandSummary(
        table_id=hand.table_id,
        table_name=hand.table_name,
        hand=hand.number,
        names=record_names(hand.record, record, told_apart=False),  # the client words them
        scores=list(played.scores()),
        finished_ns=hand.finished_ns,
    )
    out.rules.CopyFrom(wire.rules_msg(record.rules))
    seating = hand.record.get("seating")
    if isinstance(seating, list):
        out.table_seats.extend(seat_map(tuple(seating), record.rules.players).to_wire)
    if played.owner is not None:
        out.owner = played.owner
    return out


def review_msg(
    review: dict[str, Any], summary: table_pb2.HandSummary, record: HandRecord
) -> table_pb2.HandReview:
    """`build_review`'s data as the wire's HandReview (seats are hand seats)."""
    deck = record.rules.deck
    out = table_pb2.HandReview(
        dealer=review["dealer"],
        from_trick=review["from_trick"],
        valued_from=review["valued_from"],
        model=review["model"],
        worst_case=review["worst_case"],
        meaning=review["meaning"],
    )
    out.hand.CopyFrom(summary)
    for trick in review["tricks"]:
        t = out.tricks.add(
            number=trick["number"],
            leader=trick["leader"],
            winner=trick["winner"],
            bought=trick["bought"],
        )
        if trick["price"] is not None:
            t.price.CopyFrom(wire.card_msg(deck.card(trick["price"])))
        for c in trick["cards"]:
            card = t.cards.add(seat=c["seat"], valued="value" in c)
            card.card.CopyFrom(wire.card_msg(deck.card(c["card"])))
            if "value" in c:
                card.value = c["value"]
                card.best_value = c["best_value"]
                card.loss = c["loss"]
                card.forced = c["forced"]
                wire.add_cards(card.best, (deck.card(b) for b in c["best"]))
                if "worst_value" in c:
                    card.worst_value = c["worst_value"]
                    card.worst_best_value = c["worst_best_value"]
                    card.worst_loss = c["worst_loss"]
    for seat, name in enumerate(review["names"]):
        out.seats.add(
            name=name,
            lopaka=seat == review["lopaka"],
            score=review["scores"][seat],
            loss=review["loss"][seat],
            mistakes=review["mistakes"][seat],
            analysed=review["analysed"][seat],
            worst_loss=review["worst_loss"][seat],
        )
    if review["price"] != deck.joker_name:
        out.price.CopyFrom(wire.card_msg(deck.card(review["price"])))
    return out
