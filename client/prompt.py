"""What the prompt line says (the step the seat is asked, a refusal, a note) and
which keys the bottom line offers.  Pure: (text, style) from the model and the plan."""

from __future__ import annotations

from cursedbottle.v1 import game_pb2, table_pb2

from .model import TableModel
from .plan import Plan, Step, Target, stage_plan, step

Said = tuple[str, str]  # (text, Rich style)


def speed_text(tr, speed: float) -> str:
    if not speed:
        return tr("speed_instant")
    return tr("speed_s", s=f"{speed:g}")


def pass_text(m: TableModel, target: Target, card: game_pb2.Card) -> str:
    """"5Y to Bob", or in Devil's Eye "5Y to Bob (hand 1)"."""
    tr = m.tr
    to, hand = target
    if hand is None:
        return tr("to_name", card=tr.card(card), name=m.name(to))
    return tr("to_name_hand", card=tr.card(card), name=m.name(to), n=hand + 1)


def _setup(m: TableModel, now: Step, plan: Plan) -> str:
    """The pile, pass and confirm questions of `plan`."""
    tr = m.tr
    if now == Step.PILE:
        if plan.pile_count > 1:
            return tr("your_turn_pile_n", i=len(plan.pile) + 1, n=plan.pile_count)
        return tr("your_turn_pile")
    if now == Step.PASS:
        to, hand = plan.next_target()
        if hand is None:
            return tr("your_turn_pass", name=m.name(to))
        return tr("your_turn_pass_hand", name=m.name(to), n=hand + 1,
                  which=tr("open") if hand == 0 else tr("hidden"))
    passes = ", ".join(pass_text(m, t, c) for t, c in zip(plan.targets, plan.passes, strict=False))
    if not plan.pile:
        return tr("confirm_pass_only", passes=passes)
    pile = " ".join(tr.card(c) for c in plan.pile)
    return tr("confirm_pass", pile=pile, passes=passes)


def _waiting(m: TableModel, plan: Plan | None) -> str:
    """Why nothing is asked: sent, the dealer without a pile card, a seat taken
    mid-hand, or waiting for the others."""
    tr = m.tr
    staged = stage_plan(m, plan)  # None once the setup is over: nothing of ours is pending
    if staged is not None and staged.confirmed:
        return tr("sent")
    if m.phase == game_pb2.PHASE_PILE and m.me == m.dealer and m.me not in m.to_act:
        return tr("dealer_no_pile")  # the five-player Bottle Imp's dealer
    from_hand = m.info.seats[m.me].from_hand if m.info and m.me < len(m.info.seats) else 0
    if from_hand > m.hand_number:  # a seat taken mid-hand: the server says from when
        return tr("seat_from_hand", n=from_hand)
    return tr("waiting")


def not_your_turn(m: TableModel) -> str:
    """What Enter says while the seat is not asked: whose move the table waits for."""
    tr = m.tr
    others = [s for s in m.to_act if s != m.me]
    if not others:
        return tr("err_not_your_turn")
    if m.phase == game_pb2.PHASE_PLAY and len(others) == 1:
        return tr("err_not_your_turn_turn", turn=m.name(others[0]))
    return tr("not_your_turn_wait", names=tr.joined([m.name(s) for s in others]))


def prompt(m: TableModel, plan: Plan | None, message: str = "", note: str = "",
           speed: float = 0.5) -> Said:
    """The prompt line: a refusal (red), a note, else what the seat is asked."""
    tr = m.tr
    if message:
        return message, "bold red"
    if note:
        return note, "bold"
    now = step(m, plan)
    if now in (Step.WATCH, Step.OVER):
        if m.game_ended is not None:
            return m.game_over_line() + " " + tr("f_over_cue"), ""
        return tr("spectating", speed=speed_text(tr, speed)), ""
    if now == Step.LOBBY:
        info = m.info
        free = sum(1 for s in info.seats if s.kind == table_pb2.SEAT_KIND_EMPTY) if info else 0
        return tr.count("waiting_start", free), ""
    if now == Step.PLAY:
        return tr("your_turn_play"), ""
    if now in (Step.PILE, Step.PASS, Step.CONFIRM):
        return _setup(m, now, stage_plan(m, plan)), ""
    if now == Step.OPEN:
        return tr("choose_open"), ""
    return _waiting(m, plan), ""


def refusal_text(m: TableModel, limit: game_pb2.PlayLimit, card: game_pb2.Card) -> str:
    """Why `card` may not be played, in a player's words, from the server's reason:
    "You must follow suit: spades were led and you hold 3♠ 7♠ 9♠ Q♠"."""
    tr = m.tr
    suit = tr.suit(limit.suit)
    key = "f_follow_colour" if tr.bottle_imp else "f_follow_suit"
    if limit.HasField("hand"):
        key += "_hand"
    return tr(key, suit=suit, Suit=suit[:1].upper() + suit[1:], cards=tr.cards(limit.cards),
              card=tr.card(card), n=limit.hand + 1)


def keys_line(m: TableModel, online: bool, tutor: bool, lan: bool = False,
              wide: bool = False) -> Said:
    """The keys the table offers in one line: a spectator's, an offline table's (no tutor
    to ask), a seat's with the tutor's state (at a LAN table also the seats, `o`).  A wide
    terminal has room for the number keys (1–9, 0, -, = reach twelve cards), `l` (the
    tricks) and `v` (the points); at 80 columns the hand's title and the last trick's
    say those."""
    tr = m.tr
    if m.me is None:
        return tr("keys_watch"), ""
    state = tr("on") if tutor else tr("off")
    if not wide:
        if not online:
            return tr("keys_table"), ""
        return tr("f_keys_lan_narrow" if lan else "keys_table_online", state=state), ""
    if not online:
        return tr("f_keys_table"), ""
    keys = tr("f_keys_table_online", state=state)
    return (keys.replace(" · ? ", f" · {tr('f_keys_seats')} · ? ", 1) if lan else keys), ""
