"""The table's log: the line each event says, in the table's language.

The log is written from the events alone (a replay from event 0 writes it whole
before any view arrives), so each line takes what it needs from them: who sat
where and Lopaka's seat from the hand's `HandStarted`, the names from the
table's seats, who scores together from the rules the server filled in.
"""

from __future__ import annotations

from cursedbottle.v1 import game_pb2, table_pb2

from .i18n import Tr

#: How the server labels a bot's seat ("rule bot", "strong:0.3 bot"): no person's
#: name ends so (the server refuses it), so the client may name the bot in its words.
BOT_SUFFIX = " bot"


def shown_name(tr: Tr, name: str) -> str:
    """A name as the reader sees it: a person's as given, a bot's in the reader's
    language ("rule bot", German "Regel-Bot"; the effort after the colon left out)."""
    if not name.endswith(BOT_SUFFIX):
        return name
    kind = name[: -len(BOT_SUFFIX)].partition(":")[0]
    return tr("bot_" + kind) if tr.has("bot_" + kind) else tr("bot_other", kind=kind)


def told_apart(name: str, names: list[str], seat: int) -> str:
    """`name`, with its seat counted from 1 when another seat of `names` has the same
    name (two "rule bot"s at one table: "rule bot 2" and "rule bot 3")."""
    return name if names.count(name) == 1 else f"{name} {seat + 1}"


def seat_name(tr: Tr, info: table_pb2.TableInfo | None, seat: int | None,
              lopaka: int | None) -> str:
    """A seat's name: its player's, "Lopaka", or "#3" for a seat nobody named (seats
    counted from 1, as people count them)."""
    if seat is None:
        return tr("nobody")
    if seat == lopaka:
        return tr("lopaka")
    if info is not None:
        names = [shown_name(tr, s.name) for s in info.seats]
        for s, name in zip(info.seats, names, strict=True):
            if s.seat == seat and name:
                return told_apart(name, names, seat)
    return f"#{seat + 1}"


def says_you(tr: Tr, name: str) -> bool:
    """The name is the pronoun itself ("You", "Du": `play`'s default name): a line
    about that player takes the forms addressed to "you"."""
    return name.casefold() == tr("you_name").casefold()


def table_name_of(tr: Tr, name: str) -> str:
    """The name a new table gets from its maker's: "Ann's table", "Your table"."""
    return tr("your_table") if says_you(tr, name) or not name else tr("table_of", name=name)


def addressed(tr: Tr, me: int | None, key: str, who: int | None = None,
              whom: int | None = None, **params: object) -> str:
    """The text of `key`; when `who` (the subject) is this seat, the one addressed to
    "you" if the language has it (English "You win", not "You wins"); when `whom` (the
    object) is, the one said to "you" (`_to_you`: "Bob passed 5♥ to you")."""
    if who is not None and who == me and tr.has(key + "_you"):
        key += "_you"
    elif whom is not None and whom == me and tr.has(key + "_to_you"):
        key += "_to_you"
    return tr(key, **params)


def side_of(rules: game_pb2.Rules | None, seat: int) -> tuple[int, ...]:
    """The seats that score with `seat` (itself included), as the server's rules say."""
    for side in rules.sides if rules is not None else ():
        if seat in side.seats:
            return tuple(side.seats)
    return (seat,)


class Narrator:
    """Turns events into log lines; it remembers only what the events said of the hand
    being told (its seat order and Lopaka's seat)."""

    def __init__(self, me: int | None, tr: Tr) -> None:
        self.me = me
        self.tr = tr
        self.info: table_pb2.TableInfo | None = None
        self.rules: game_pb2.Rules | None = None
        self.seat_order: list[int] = []
        self.lopaka: int | None = None

    def name(self, seat: int | None) -> str:
        return seat_name(self.tr, self.info, seat, self.lopaka)

    def side_name(self, seat: int) -> str:
        return " + ".join(self.name(s) for s in side_of(self.rules, seat))

    def _winner_line(self, key: str, winner: int) -> str:
        """"Ann wins", or with a partner the side's: "Bob + Dan win"."""
        if len(side_of(self.rules, winner)) == 2:
            return self.tr(key + "_team", name=self.side_name(winner))
        return addressed(self.tr, self.me, key, winner, name=self.name(winner))

    def game_over_line(self, end: game_pb2.GameEnded) -> str:
        return self._winner_line("game_over_line", end.winner)

    def lines(self, event: game_pb2.GameEvent) -> list[str]:
        """The log lines of one event (most events say nothing)."""
        kind = event.WhichOneof("kind")
        m = getattr(event, kind)
        tr, say = self.tr, self._say
        if kind == "game_started":
            self.rules = m.rules
        elif kind == "hand_started":
            self.seat_order = list(m.seat_order)
            self.lopaka = m.lopaka if m.HasField("lopaka") else None
            return [say("log_hand", who=m.dealer, n=m.number, name=self.name(m.dealer))]
        elif kind == "cards_dealt":
            if m.cards and m.public and m.seat != self.me:
                return [say("log_lopaka", cards=tr.cards(m.cards))]
        elif kind == "open_hand_revealed":
            return [say("log_open", who=m.seat, name=self.name(m.seat), n=m.hand + 1,
                        cards=tr.cards(m.cards))]
        elif kind == "card_passed":
            return self._passed(m)
        elif kind == "trick_won":
            if m.bought:
                won = say("log_buys", who=m.winner, name=self.name(m.winner), n=m.number,
                          price=tr.card(m.price))
            else:
                won = say("log_trick", who=m.winner, name=self.name(m.winner), n=m.number)
            return [won, self.trick_cards(m)]
        elif kind == "hand_ended":
            scores = ", ".join(
                f"{self.name(s)} {m.scores[s]:+d}"
                for s in self.seat_order if s < len(m.scores) and s != self.lopaka
            )
            return [say("log_hand_end", n=m.number, scores=scores)]
        elif kind == "game_ended":
            return [self._winner_line("log_game_end", m.winner)]
        return []

    def trick_cards(self, m: game_pb2.TrickWon) -> str:
        """The trick's cards in play order beside their players: "  Ann 5♥, Bob Q♠"."""
        cards = ", ".join(f"{self.name(p.seat)} {self.tr.card(p.card)}" for p in m.cards)
        return self.tr("f_log_cards", cards=cards)

    def _say(self, key: str, who: int | None = None, **params: object) -> str:
        return addressed(self.tr, self.me, key, who, **params)

    def _passed(self, m: game_pb2.CardPassed) -> list[str]:
        """A pass handed over, told to giver and receiver (Devil's Eye: to which hand)."""
        if not m.card.code or self.me not in (m.seat, m.to):
            return []
        told = self.told_hand(m)
        key = "log_passed" if told is None else "log_passed_hand"
        return [addressed(self.tr, self.me, key, m.seat, m.to, a=self.name(m.seat),
                          card=self.tr.card(m.card), b=self.name(m.to),
                          n="" if told is None else told + 1)]

    def told_hand(self, m: game_pb2.PassChosen | game_pb2.CardPassed) -> int | None:
        """The receiver's hand of a pass where it must be told (Devil's Eye), else None:
        in the bright house it is always the stage's hand and goes without saying."""
        told = self.rules is not None and self.rules.devils_eye
        return m.hand if told and m.HasField("hand") else None
