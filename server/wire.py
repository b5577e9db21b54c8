"""Engine values ↔ wire messages.

Every seat number leaving the server goes through a `SeatMap`
(server/seating.py), which turns the engine's hand seats into the wire's
table seats (see game.proto).  Events are converted only after the engine's
secrecy filter (`Game.events_for`) and views only from `Game.view`, so this
module never decides what a seat may know; it only translates what it was
given.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from cursedbottle.engine import events as ev
from cursedbottle.engine.actions import Action, ChooseOpen, PassCard, PileCard, Play
from cursedbottle.engine.cards import Card, Deck, Suit
from cursedbottle.engine.events import Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.hand import Hand
from cursedbottle.engine.rules import Edition, Rules, RulesError
from cursedbottle.engine.view import SeatView
from cursedbottle.v1 import game_pb2 as pb

from .errors import invalid, shorten
from .seating import SeatMap, current_map, seat_map

MAX_CARD_TEXT = 8

_PHASES = {
    Phase.PILE: pb.PHASE_PILE,
    Phase.PASS: pb.PHASE_PASS,
    Phase.OPEN: pb.PHASE_OPEN,
    Phase.PLAY: pb.PHASE_PLAY,
    Phase.OVER: pb.PHASE_OVER,
}
#: engine Suit → wire Suit.
_SUITS = {
    Suit.DIAMONDS: pb.SUIT_DIAMONDS,
    Suit.HEARTS: pb.SUIT_HEARTS,
    Suit.SPADES: pb.SUIT_SPADES,
    Suit.YELLOW: pb.SUIT_YELLOW,
    Suit.BLUE: pb.SUIT_BLUE,
    Suit.RED: pb.SUIT_RED,
}
_GAMES = {Edition.CURSED_BOTTLE: pb.GAME_CURSED_BOTTLE, Edition.BOTTLE_IMP: pb.GAME_BOTTLE_IMP}
_EDITIONS = {v: k for k, v in _GAMES.items()} | {pb.GAME_UNSPECIFIED: Edition.CURSED_BOTTLE}


# ------------------------------------------------------------------- cards


@cache
def _card_bytes(card: Card) -> bytes:
    return pb.Card(
        code=card.ascii,
        order=card.index,
        rank=card.rank,
        suit=_SUITS[card.suit],
        points=card.points,
    ).SerializeToString()


def card_msg(card: Card) -> pb.Card:
    return pb.Card.FromString(_card_bytes(card))


def set_card(field: pb.Card, card: Card | None) -> None:
    """Fill a singular Card field (left unset for None: hidden, or the joker)."""
    if card is not None:
        field.MergeFromString(_card_bytes(card))


def add_cards(field, cards: Iterable[Card]) -> None:
    for card in cards:
        field.add().MergeFromString(_card_bytes(card))


def add_bottles(field, bottles, to_wire: tuple[int, ...]) -> None:
    """The second bottle's states (table seats for the owners)."""
    for card, owner in bottles:
        bottle = field.add()
        set_card(bottle.price, card)
        if owner is not None:
            bottle.owner = to_wire[owner]


def card_from_msg(msg: pb.Card, deck: Deck, what: str = "card") -> Card:
    """The card a request names, or INVALID_ARGUMENT saying how to write one."""
    code = msg.code
    examples = deck.examples
    if not code:
        raise invalid("MALFORMED", f"{what}: no card given (write rank then suit, e.g. {examples})")
    if len(code) > MAX_CARD_TEXT:
        raise invalid("MALFORMED", f"{what}: {shorten(code)} is not a card (e.g. {examples})")
    try:
        return deck.card(code)
    except ValueError:
        raise invalid(
            "MALFORMED",
            f"{what}: {shorten(code)} is not a card of this game "
            f"(write rank then suit: {examples})",
        ) from None


# ------------------------------------------------------------------- rules


def rules_msg(rules: Rules) -> pb.Rules:
    msg = pb.Rules(players=rules.players, hot_bottle=rules.hot_bottle)
    msg.bright_house = rules.bright_house
    msg.game = _GAMES[rules.edition]
    msg.teams = rules.teams
    msg.second_bottle = rules.second_bottle
    msg.singles = rules.singles
    msg.start_price = rules.deck.joker_name
    msg.pile_per_stage = rules.pile_per_stage
    add_rule_facts(msg, rules)
    if rules.hands is not None:
        msg.hands = rules.hands
    else:
        msg.target = rules.target or 100
    return msg


MAX_TARGET = 10_000
MAX_HANDS = 1_000


def rules_from_msg(msg: pb.Rules) -> Rules:
    players = msg.players or 3
    end = msg.WhichOneof("end")
    try:
        edition = _EDITIONS.get(msg.game)
        if edition is None:
            raise RulesError("game", f"{msg.game} is not a game this server knows")
        kw = {
            "edition": edition,
            "teams": msg.teams,
            "second_bottle": msg.second_bottle,
            "singles": msg.singles,
        }
        if end == "hands":
            if not 1 <= msg.hands <= MAX_HANDS:
                raise RulesError("hands", f"{msg.hands} is not between 1 and {MAX_HANDS}")
            kw["hands"] = msg.hands
        elif end == "target":
            if not 1 <= msg.target <= MAX_TARGET:
                raise RulesError("target", f"{msg.target} is not between 1 and {MAX_TARGET}")
            kw["target"] = msg.target
        return Rules(players, msg.hot_bottle, msg.bright_house, **kw)
    except RulesError as exc:
        raise invalid("BAD_RULES", f"rules: {exc}") from None


# ----------------------------------------------------------------- actions


def action_msg(action: Action, seats: SeatMap) -> pb.Action:
    msg = pb.Action(seat=seats.to_wire[action.seat])
    if isinstance(action, Play):
        set_card(msg.play.card, action.card)
    elif isinstance(action, PileCard):
        set_card(msg.pile.card, action.card)
    elif isinstance(action, PassCard):
        msg.pass_card.to = seats.to_wire[action.to]
        set_card(msg.pass_card.card, action.card)
    elif isinstance(action, ChooseOpen):
        msg.choose_open.hand = action.hand
    return msg


def action_from_msg(msg: pb.Action, player: int, game: Game) -> Action:
    """The engine action a request describes, for `player`'s seat of the current hand.

    Only the form is checked here (INVALID_ARGUMENT); whether the rules allow
    it is the engine's to say.
    """
    seats = current_map(game)
    seat = game.seat_of(player)
    deck = game.rules.deck
    kind = msg.WhichOneof("kind")
    if kind == "play":
        return Play(seat, card_from_msg(msg.play.card, deck))
    if kind == "pile":
        return PileCard(seat, card_from_msg(msg.pile.card, deck))
    if kind == "pass_card":
        to = msg.pass_card.to
        if to not in seats.to_hand:
            last = len(seats.to_wire) - 1
            raise invalid("NO_SUCH_SEAT", f"pass_card.to: there is no seat {to} (seats 0…{last})")
        return PassCard(seat, seats.to_hand[to], card_from_msg(msg.pass_card.card, deck))
    if kind == "choose_open":
        hand = msg.choose_open.hand
        if hand not in (0, 1):
            raise invalid("MALFORMED", f"choose_open.hand: {hand} is not 0 or 1")
        return ChooseOpen(seat, hand)
    raise invalid("MALFORMED", "action: say what to do (pile, pass_card, choose_open or play)")


# ------------------------------------------------------------------ events


def event_msg(
    seq: int,
    event: ev.Event,
    seats: SeatMap,
    time_ns: int,
    hand_number: int,
    deal: pb.HandDeal | None = None,
) -> pb.GameEvent:
    """One event (already filtered for its receiver) on the wire."""
    out = pb.GameEvent(sequence=seq, server_time_ns=time_ns, hand_number=hand_number)
    w = seats.to_wire
    if isinstance(event, ev.CardPlayed):
        m = out.card_played
        m.seat, m.hand = w[event.seat], event.hand
        set_card(m.card, event.card)
    elif isinstance(event, ev.TrickWon):
        m = out.trick_won
        m.number, m.leader, m.winner = event.number, w[event.leader], w[event.winner]
        m.bought = event.bought
        for seat, card in event.cards:
            played = m.cards.add(seat=w[seat])
            set_card(played.card, card)
        set_card(m.price, event.price)
        if event.owner is not None:
            m.owner = w[event.owner]
        set_card(m.returned, event.returned)
        if event.returned_to is not None:
            m.returned_to = w[event.returned_to]
        add_bottles(m.bottles, event.bottles, w)
    elif isinstance(event, ev.CardsDealt):
        m = out.cards_dealt
        m.seat, m.hand, m.count, m.public = w[event.seat], event.hand, event.count, event.public
        if event.cards is not None:
            add_cards(m.cards, event.cards)
    elif isinstance(event, ev.PhaseStarted):
        m = out.phase_started
        m.phase = _PHASES[event.phase]
        if event.hand is not None:
            m.stage_hand = event.hand
        if event.pass_to_hand is not None:
            m.pass_to_hand = event.pass_to_hand
        m.to_act.extend(w[s] for s in event.to_act)
    elif isinstance(event, ev.PileCardPlaced):
        m = out.pile_card_placed
        m.seat = w[event.seat]
        set_card(m.card, event.card)
    elif isinstance(event, (ev.PassChosen, ev.CardPassed)):
        m = out.pass_chosen if isinstance(event, ev.PassChosen) else out.card_passed
        m.seat, m.to = w[event.seat], w[event.to]
        set_card(m.card, event.card)
        if event.hand is not None:
            m.hand = event.hand
    elif isinstance(event, ev.OpenHandChosen):
        m = out.open_hand_chosen
        m.seat = w[event.seat]
        if event.hand is not None:
            m.hand = event.hand
    elif isinstance(event, ev.OpenHandRevealed):
        m = out.open_hand_revealed
        m.seat, m.hand = w[event.seat], event.hand
        add_cards(m.cards, event.cards)
    elif isinstance(event, ev.HandStarted):
        m = out.hand_started
        m.number, m.dealer = event.number, w[event.dealer]
        m.seat_order.extend(w)
        if event.lopaka is not None:
            m.lopaka = w[event.lopaka]
    elif isinstance(event, ev.HandEnded):
        m = out.hand_ended
        m.number, m.pile_points = event.number, event.pile_points
        add_cards(m.pile, event.pile)
        if event.owner is not None:
            m.owner = w[event.owner]
        set_card(m.price, event.price)
        m.points_taken.extend(seats.per_table_seat(event.points_taken))
        m.scores.extend(seats.per_table_seat(event.scores))
        m.totals.extend(event.totals)
        add_bottles(m.bottles, event.bottles, w)
        if deal is not None:
            m.deal.CopyFrom(deal)
    elif isinstance(event, ev.GameStarted):
        m = out.game_started
        m.rules.CopyFrom(rules_msg(event.rules))
        m.first_dealer = event.first_dealer
    elif isinstance(event, ev.GameEnded):
        m = out.game_ended
        m.totals.extend(event.totals)
        m.winner, m.hands_played = event.winner, event.hands_played
    else:  # pragma: no cover - a new engine event needs a wire message first
        raise TypeError(f"no wire message for {type(event).__name__}")
    return out


def deal_msg(hand: Hand, seats: SeatMap) -> pb.HandDeal:
    """The whole deal of a finished hand (for spectators, once it is over)."""
    cards = hand.deck.cards
    w = seats.to_wire
    bright = hand.rules.two_hands
    out = pb.HandDeal()
    for holder, mask in enumerate(hand.dealt):
        dealt = out.dealt.add(seat=w[hand.holder_seat[holder]], hand=holder % 2 if bright else 0)
        add_cards(dealt.cards, hand.deck.cards_of(mask))
    for seat, pile in sorted(hand.pile_by_seat.items()):
        if pile:
            add_cards(out.pile.add(seat=w[seat]).cards, (cards[c] for c in pile))
    if hand.lopaka is not None:
        contributed = {c for pile in hand.pile_by_seat.values() for c in pile}
        add_cards(out.undealt, (cards[c] for c in hand.pile if c not in contributed))
    for giver, to, card, stage in hand.pass_log:
        rec = out.passes.add(seat=w[giver], to=w[to], hand=stage or 0)
        set_card(rec.card, cards[card])
    return out


# -------------------------------------------------------------------- view


def add_rule_facts(msg: pb.Rules, rules: Rules) -> None:
    """What the rules imply, for clients that hold no rule (table seats are players)."""
    for side in rules.sides:
        msg.sides.add().seats.extend(side)
    msg.lopaka, msg.two_hands, msg.devils_eye = rules.lopaka, rules.two_hands, rules.devils_eye
    msg.tricks = rules.tricks
    # the point table (a CardValue has a Card's fields and numbers)
    msg.point_table.extend(pb.CardValue.FromString(_card_bytes(c)) for c in rules.deck.cards)


def _add_pass_targets(field, targets, to_wire: tuple[int, ...]) -> None:
    for to, hand in targets:
        target = field.add(to=to_wire[to])
        if hand is not None:
            target.hand = hand


def _add_passes(field, passes, hands, to_wire: tuple[int, ...]) -> None:
    """Passes seen (the other party, the card), with the receiver's hand where told."""
    for (seat, card), hand in zip(passes, hands, strict=True):
        seen = field.add(seat=to_wire[seat])
        set_card(seen.card, card)
        if hand is not None:
            seen.hand = hand


def view_msg(view: SeatView) -> pb.SeatView:
    """A seat's view (engine `Game.view`; a spectator's `observe(hand, None)`) on the wire."""
    seats = seat_map(view.seat_players, view.rules.players)
    w = seats.to_wire
    bright = view.rules.two_hands
    out = pb.SeatView(
        seat=0 if view.seat is None else w[view.seat],
        spectator=view.seat is None,
        pile_owed=view.pile_owed,
        hand_number=view.hand_number,
        dealer=w[view.dealer],
        phase=_PHASES[view.phase],
        pile_size=view.pile_size,
        leader=w[view.leader],
    )
    out.rules.CopyFrom(rules_msg(view.rules))
    if view.lopaka is not None:
        out.lopaka = w[view.lopaka]
    out.seat_order.extend(w)
    if view.stage_hand is not None:
        out.stage_hand = view.stage_hand
    if view.pass_to_hand is not None:
        out.pass_to_hand = view.pass_to_hand
    out.to_act.extend(w[s] for s in view.to_act)
    out.legal_actions.extend(action_msg(a, seats) for a in view.legal_actions)
    add_cards(out.my_cards, view.my_cards)
    for holder, seat in enumerate(view.holder_seat):
        h = out.holdings.add(
            seat=w[seat], hand=holder % 2 if bright else 0, size=view.hand_sizes[holder]
        )
        if holder in view.visible:
            h.visible = True
            add_cards(h.cards, view.visible[holder])
        add_cards(h.known, view.known.get(holder, ()))
        h.voids.extend(_SUITS[s] for s in sorted(view.voids[holder]))
    for seat, hand in enumerate(view.open_hand):
        if hand is not None:
            out.open_hands.add(seat=w[seat], hand=hand)
    add_cards(out.my_pile_cards, view.my_pile_cards)
    _add_passes(out.passes_given, view.passes_given, view.passes_given_hands, w)
    _add_passes(out.passes_received, view.passes_received, view.passes_received_hands, w)
    hand_of = (lambda holder: holder % 2) if bright else (lambda _holder: 0)
    for (seat, card), holder in zip(view.trick, view.trick_holders, strict=True):
        set_card(out.trick.add(seat=w[seat], hand=hand_of(holder)).card, card)
    for trick in view.tricks:
        t = out.tricks.add(
            number=trick.number, leader=w[trick.leader], winner=w[trick.winner], bought=trick.bought
        )
        for (seat, card), holder in zip(trick.plays, trick.holders, strict=True):
            set_card(t.cards.add(seat=w[seat], hand=hand_of(holder)).card, card)
        set_card(t.price_before, trick.price_before)
        set_card(t.price_after, trick.price_after)
    set_card(out.price, view.price)
    if view.owner is not None:
        out.owner = w[view.owner]
    add_bottles(out.bottles, view.bottles, w)
    for table_seat in range(len(w)):
        hand_seat = seats.to_hand[table_seat]
        taken = out.taken.add(seat=table_seat, points=view.points_taken[hand_seat])
        add_cards(taken.cards, view.taken[hand_seat])
    add_cards(out.unseen, view.unseen)
    out.totals.extend(view.totals)
    _add_pass_targets(out.pass_targets, view.pass_targets, w)
    _add_pass_targets(out.pass_plan, view.pass_plan, w)
    for limit in view.play_limits:
        lim = out.play_limits.add(rule=pb.PLAY_RULE_FOLLOW_SUIT, suit=_SUITS[limit.suit])
        add_cards(lim.cards, limit.cards)
        add_cards(lim.blocked, limit.blocked)
        if limit.hand is not None:
            lim.hand = limit.hand
    return out
