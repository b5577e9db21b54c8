"""`cursed-bottle review RECORD.json`: a finished hand, card by card, against perfect play.

Like a bridge hand viewer: trick by trick, the card each seat played beside
the double-dummy best and what the difference cost, then each player's total
loss against double-dummy play.  The hand is over, so the review may use full
information; the values are the solver's (`solver.api.analyse`): a card's
value is the seat's score for the hand if everyone plays double-dummy from
that card on, and its cost is the best card's value minus its own.  Only the
play is reviewed; the pile and pass choices are not valued.

`build_review(record)` returns the review as JSON-ready data (`--json`
prints it) so that other front ends (the Textual client's review screen, a
tutor) show the same numbers without parsing text.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from cursedbottle.cli.errors import fail

#: Best cards named per line before "…".
MAX_BEST_SHOWN = 3


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "review",
        help="a finished hand trick by trick against double-dummy play",
        description=(
            "Review a hand record (FORMATS.md; `cursed-bottle history GAME --hand N` exports "
            "one): trick by trick the card played beside the double-dummy best and what the "
            "difference cost, and each player's total loss against double-dummy play."
        ),
    )
    p.add_argument("record", metavar="RECORD.json", help="the hand record; - reads stdin")
    p.add_argument(
        "--from-trick",
        type=int,
        default=1,
        metavar="N",
        help="value the cards from trick N on (the first tricks are the slow ones to solve)",
    )
    p.add_argument("--json", action="store_true", help="the review as one JSON object")
    return p


def run(args: argparse.Namespace) -> int:
    from cursedbottle.engine.records import HandRecord, RecordError

    source = "<stdin>" if args.record == "-" else args.record
    try:
        text = sys.stdin.read() if args.record == "-" else _read(args.record)
        obj = json.loads(text)
        record = HandRecord.from_json(obj)
        if not 1 <= args.from_trick <= record.rules.tricks:
            return fail(f"--from-trick: {args.from_trick} is not a trick (1…{record.rules.tricks})")
        review = build_review(record, args.from_trick, names=_names(obj, record))
    except OSError as exc:
        return fail(f"{source}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        return fail(f"{source}: not JSON: the file is not UTF-8 text")
    except json.JSONDecodeError as exc:
        return fail(f"{source}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
    except RecordError as exc:
        return fail(f"{source}: {exc}")
    except ImportError as exc:  # the compiled search is missing
        return fail(f"the solver is not available ({exc}); reinstall with `pip install .`")
    out = json.dumps(review, ensure_ascii=False) if args.json else render(review)
    try:
        print(out, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _read(path: str) -> str:
    with open(path, "rb") as f:
        return f.read().decode("utf-8")


def _names(obj: Any, record) -> list[str]:
    """Who sat where: the record's `names` (history exports them), else seat numbers."""
    seats = record.rules.seats
    given = obj.get("names") if isinstance(obj, dict) else None
    if (
        isinstance(given, list)
        and len(given) == seats
        and all(isinstance(n, str) and n for n in given)
    ):
        from cursedbottle.cli.history import distinct

        seating = obj.get("seating")
        valid = isinstance(seating, list) and len(seating) == seats
        return distinct(given, seating if valid else None)
    return ["Lopaka" if s == record.lopaka else f"seat {s}" for s in range(seats)]


# -------------------------------------------------------------------- the data


def build_review(record, from_trick: int = 1, names: list[str] | None = None) -> dict[str, Any]:
    """The review of a complete hand record as JSON-ready data.

    `tricks[i].cards[j]` holds `seat`, `card` and, for cards from `from_trick`
    on, `value` (the seat's double-dummy score after this card), `best` (the
    cards of top value), `best_value`, `loss` (best_value − value),
    `values` (every legal card) and `forced` (one legal card: no choice).
    `loss` per seat sums the cards' losses; `mistakes` counts cards that cost
    points; `analysed` counts the cards valued.  Raises RecordError (or its
    subclass ReplayError) for a malformed or illegal record.
    """
    from cursedbottle.engine.records import replay
    from cursedbottle.solver.api import analyse

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


# -------------------------------------------------------------------- the text


def render(review: dict[str, Any]) -> str:
    """The review as a person reads it in a terminal."""
    names = review["names"]
    width = max(len(n) for n in names)
    rules = review["rules"]
    lines = [
        f"Hand review: {rules['players']} players"
        + (", hot bottle" if rules.get("hot_bottle") else "")
        + (", bright house" if rules.get("bright_house") else "")
        + f"; {names[review['dealer']]} deals.",
        "value = the seat's score for the hand if everyone plays double-dummy from that card",
        "on; cost = what the card played gave away against the best card.",
    ]
    if review["from_trick"] > 1:
        lines.append(f"(cards before trick {review['from_trick']} are not valued)")
    for trick in review["tricks"]:
        lines.append("")
        lines.append(f"Trick {trick['number']}, {names[trick['leader']]} leads")
        for c in trick["cards"]:
            head = f"  {names[c['seat']]:<{width}}  {c['card']:>5}"
            if "value" not in c:
                lines.append(head)
                continue
            if c["forced"]:
                note = "only card" if c["seat"] != review["lopaka"] else "his policy"
                lines.append(f"{head}  {c['value']:>4}  ({note})")
                continue
            best = c["best"]
            shown = "/".join(best[:MAX_BEST_SHOWN]) + ("/…" if len(best) > MAX_BEST_SHOWN else "")
            if c["loss"] == 0:
                lines.append(f"{head}  {c['value']:>4}  best")
            else:
                lines.append(
                    f"{head}  {c['value']:>4}  best {shown} {c['best_value']}  cost {c['loss']}"
                )
        winner = names[trick["winner"]]
        if trick["bought"]:
            lines.append(f"  {winner} wins the trick and buys the bottle at {trick['price']}")
        else:
            lines.append(f"  {winner} wins the trick")
    lines.append("")
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, review["scores"], strict=True))
    owner = review["owner"]
    bottle = (
        "nobody bought the bottle"
        if owner is None
        else (f"{names[owner]} keeps the bottle (price {review['price']})")
    )
    lines.append(f"Scores: {scores}; {bottle}.")
    lines.append("")
    lines.append("Loss against double-dummy play:")
    for seat, name in enumerate(names):
        if seat == review["lopaka"]:
            continue
        count = review["analysed"][seat]
        wrong = review["mistakes"][seat]
        detail = "every card best" if wrong == 0 else f"{wrong} of {count} cards cost points"
        lines.append(f"  {name:<{width}}  {review['loss'][seat]:>4}  ({detail})")
    return "\n".join(lines)
