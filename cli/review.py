"""`cursed-bottle review RECORD.json`: a finished hand, card by card, against perfect play.

Like a bridge hand viewer: trick by trick, the card each seat played beside
the best card and what the difference cost, then each player's total loss.
The hand is over, so the review may use full information; the values are the
solver's under the `maxn` model (`solver.api.analyse`): a card's value is the
seat's score for the hand if, from that card on, everyone plays perfectly for
themself with all cards known; its cost is the best card's value minus its
own, and a card is called a mistake only when its cost is above 0.  The
paranoid worst case (the others all play against the seat) stands beside it.
The first tricks are too slow to solve under `maxn`: the review says which
tricks it valued.  Only the play is reviewed; the pile and pass choices are
not valued.

The numbers come from `cursedbottle.solver.review.build_review(record)`, the
review as JSON-ready data (`--json` prints it), which the server's
`ReviewHand` serves too, so every front end shows the same numbers.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from cursedbottle.cli.errors import fail
from cursedbottle.cli.files import BadInput, add_input, read_json, source, write_out

#: Best cards named per line before "…".
MAX_BEST_SHOWN = 3


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "review",
        help="a finished hand trick by trick against perfect play (each for themself)",
        description=(
            "Review a hand record (FORMATS.md; `cursed-bottle history GAME --hand N` exports "
            "one): trick by trick the card played beside the best card if everyone plays "
            "perfectly for themself with all cards known, what the difference cost, the worst "
            "case beside it, and each player's total loss."
        ),
    )
    add_input(p, "record", "RECORD.json", "the hand record")
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

    try:
        obj = read_json(args.record)
        record = HandRecord.from_json(obj)
        if not 1 <= args.from_trick <= record.rules.tricks:
            return fail(f"--from-trick: {args.from_trick} is not a trick (1…{record.rules.tricks})")
        from cursedbottle.solver.review import build_review

        review = build_review(record, args.from_trick, names=_names(obj, record))
    except BadInput as exc:
        return fail(str(exc))
    except RecordError as exc:
        return fail(f"{source(args.record)}: {exc}")
    except ImportError as exc:  # the compiled search is missing
        return fail(f"the solver is not available ({exc}); reinstall with `pip install .`")
    out = json.dumps(review, ensure_ascii=False) if args.json else render(review)
    write_out(out + "\n")
    return 0


def _names(obj: Any, record) -> list[str]:
    """Who sat where: the record's `names` (history exports them), else seat numbers."""
    from cursedbottle.solver.review import record_names

    return record_names(obj, record)


# -------------------------------------------------------------------- the text


def render(review: dict[str, Any]) -> str:
    """The review as a person reads it in a terminal."""
    from cursedbottle.solver.review import skipped

    names = review["names"]
    width = max(len(n) for n in names)
    rules = review["rules"]
    lines = [
        f"Hand review: {rules['players']} players"
        + (", hot bottle" if rules.get("hot_bottle") else "")
        + (", bright house" if rules.get("bright_house") else "")
        + f"; {names[review['dealer']]} deals.",
        *textwrap.wrap(review["meaning"], 79),
    ]
    if review["from_trick"] > 1:
        lines.append(f"(cards before trick {review['from_trick']} are not valued)")
    lines += textwrap.wrap(skipped(review), 79)
    worst = review.get("worst_case", False)
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
                line = f"{head}  {c['value']:>4}  best"
            else:
                line = (
                    f"{head}  {c['value']:>4}  best {shown} {c['best_value']}  cost {c['loss']}"
                    " (mistake)"
                )
            if worst and "worst_value" in c:
                line = f"{line:<{width + 48}}  worst case {c['worst_value']:>4}" + (
                    f"  cost {c['worst_loss']}" if c["worst_loss"] else ""
                )
            lines.append(line)
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
    lines.append(LOSS_HEADING)
    for seat, name in enumerate(names):
        if seat == review["lopaka"]:
            continue
        count = review["analysed"][seat]
        wrong = review["mistakes"][seat]
        detail = "no mistake" if wrong == 0 else f"{wrong} of {count} cards were mistakes"
        if worst:
            detail += f"; worst case {review['worst_loss'][seat]}"
        lines.append(f"  {name:<{width}}  {review['loss'][seat]:>4}  ({detail})")
    return "\n".join(lines)


#: The line above each player's total loss.
LOSS_HEADING = "Points given away against perfect play (each for themself):"
