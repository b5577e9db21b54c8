"""The hint as a learner reads it: what the numbers mean, then each choice.

The server's `HintResponse` ranks every legal action; here it becomes, in the
table's language: one sentence saying what the values are (from `basis`:
exact solves under which model, or play-outs by simple rules, over how many
deals), then per action its points, how far it is from the best ("too close
to call" where the server says the best is not clearly better), its share
of the deals on which it was best (whole percentages that add up to 100), and
below it the reason the server gave — or nothing, where nothing is plainly
true.
"""

from __future__ import annotations

from cursedbottle.v1 import game_pb2, table_pb2
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from .cards import card_text
from .model import TableModel

#: A difference to the best below this shows as 0.0: "as good as the best".
SAME = 0.05
#: The sentence of each basis: `hint_means_<key>`.
_MEANING_KEYS = ("none", "maxn", "paranoid", "rollouts", "setup")


#: The action kind each step of the seat takes.
_KIND_OF_STEP = {"play": "play", "open": "choose_open", "pile": "pile", "pass": "pass_card"}


def best_now(hint: table_pb2.HintResponse | None, now: str,
             choosable: set[str]) -> game_pb2.Action | None:
    """The hint's best action if it can be taken at this step (`now`, a plan.Step) with
    these cards; None when the hint is of another step or its card is taken already."""
    if hint is None or not hint.actions:
        return None
    best = hint.actions[0].action
    kind = best.WhichOneof("kind")
    if kind != _KIND_OF_STEP.get(str(now)):
        return None
    if kind != "choose_open" and getattr(best, kind).card.code not in choosable:
        return None
    return best


def describe_action(model: TableModel, action: game_pb2.Action,
                    hand: int | None = None) -> Text:
    """The action in a few signs: "⚱ 5♥", "5♥ → Bob (hand 2)"; `hand` is the receiver's
    hand of a pass where the hint's reason names it (a pass ranked ahead of its stage)."""
    tr = model.tr
    kind = action.WhichOneof("kind")
    if kind == "choose_open":
        return Text(tr("hand_n", n=action.choose_open.hand + 1) + f" {tr('open')}")
    if kind == "pass_card":
        out = card_text(tr, action.pass_card.card)
        out.append(f" → {model.name(action.pass_card.to)}")
        if hand is None:
            hand = model.target_hand()  # Devil's Eye: which of the opponent's hands
        if hand is not None:
            out.append(f" ({tr('hand_n', n=hand + 1)})")
        return out
    if kind == "pile":
        return Text("⚱ ").append_text(card_text(tr, action.pile.card))
    return card_text(tr, getattr(action, kind).card)


def hint_reason(model: TableModel, line: table_pb2.ActionHint) -> str:
    """The reason in the table's language, from the server's `why`; the English text
    from a server that sends none (or a kind this client does not know), in English."""
    why, tr = line.why, model.tr
    key = "why_" + why.kind
    if not why.kind or not tr.has(key):
        return line.reason if tr.lang == "en" else ""  # no English on a German screen
    to = ""
    if why.HasField("to"):
        to = model.name(why.to)
        if why.HasField("hand"):
            to += f" ({tr('hand_n', n=why.hand + 1)})"
    n = why.hand + 1 if why.HasField("hand") else ""
    card = tr.card(why.card) if why.HasField("card") else ""
    return tr(key, card=card, points=why.points, pts=tr.count("points", why.points), to=to, n=n)


def meaning(model: TableModel, hint: table_pb2.HintResponse) -> str:
    """What the hint's values are, in one sentence ("" from a server that does not say)."""
    tr, basis = model.tr, hint.basis
    key = basis.model if basis.kind == "exact" else basis.kind
    if key not in _MEANING_KEYS:
        return hint.meaning if tr.lang == "en" else ""
    deals = basis.deals or hint.samples
    return tr(f"hint_means_{key}", deals=tr.count("deals", deals), n=deals)


def percentages(shares: list[float]) -> list[int]:
    """Whole percentages of `shares` that add up to 100 (largest remainders get the
    rounding), so that a learner's column sums as it should."""
    total = sum(shares)
    if total <= 0:
        return [0] * len(shares)
    exact = [100 * s / total for s in shares]
    out = [int(x) for x in exact]
    order = sorted(range(len(shares)), key=lambda i: (-(exact[i] - out[i]), i))
    for i in order[: 100 - sum(out)]:
        out[i] += 1
    return out


def gap_text(model: TableModel, line: table_pb2.ActionHint, best: float, first: bool) -> str:
    tr = model.tr
    if first:
        return tr("hint_gap_best")
    if best - line.expected_value < SAME:  # shows as 0.0: the same value
        return tr("hint_gap_same")
    gap = tr.number(best - line.expected_value)
    return tr("hint_gap_close" if line.close_to_best else "hint_gap", gap=gap)


def hint_lines(model: TableModel, hint: table_pb2.HintResponse) -> Group:
    """Every action: a row of numbers, its reason indented below (none where none is
    plain)."""
    tr = model.tr
    valued = [a for a in hint.actions if a.HasField("expected_value")]
    best = max((a.expected_value for a in valued), default=0.0)
    shares = dict(zip((id(a) for a in valued), percentages([a.best_share for a in valued]),
                      strict=True))
    described = [describe_action(model, line.action,
                                 line.why.hand if line.why.HasField("hand") else None)
                 for line in hint.actions]
    width = min(24, max([6] + [len(d.plain) for d in described]))
    points_w = max(len(tr("hint_col_points")), 13)
    gap_w = 28
    head = Text(" " * (width + 2), style="dim")
    head.append(tr("hint_col_points").rjust(points_w) + "  ")
    head.append(tr("hint_col_gap").ljust(gap_w))
    head.append(tr("hint_col_share"))
    rows: list[RenderableType] = [head] if valued else []  # no numbers: no headings
    for i, line in enumerate(hint.actions):
        row = Text()
        action = described[i]
        action.truncate(width, pad=True)
        action.stylize("bold green" if i == 0 else "")
        row.append_text(action)
        row.append("  ")
        if line.HasField("expected_value"):
            value = tr("hint_points", value=tr.number(line.expected_value, signed=True))
            row.append(value.rjust(points_w), style="bold green" if i == 0 else "")
            row.append("  ")
            row.append(gap_text(model, line, best, i == 0).ljust(gap_w),
                       style="" if i == 0 or not line.close_to_best else "yellow")
            row.append(f"{shares[id(line)]:>3}%")
        else:
            row.append("—".rjust(points_w))
        rows.append(row)
        why = hint_reason(model, line)
        if why:
            rows.append(Padding(Text(why, style="" if i == 0 else "dim"), (0, 0, 0, 4)))
    if any(a.close_to_best and best - a.expected_value >= SAME for a in valued[1:]):
        rows.append(Text(tr("hint_close_note"), style="dim italic"))
    return Group(*rows)


def hint_table(model: TableModel, hint: table_pb2.HintResponse) -> Group:
    """The whole pop-up: title, what the numbers mean, the lines, the keys."""
    tr = model.tr
    parts: list[RenderableType] = [Text(tr("hint_title"), style="bold")]
    sentence = meaning(model, hint)
    if sentence:
        parts.append(Text(sentence, style="italic"))
    parts += [hint_lines(model, hint), Text(tr("hint_close"), style="dim")]
    return Group(*parts)
