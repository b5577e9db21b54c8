"""Helpers shared by the engine tests.

The expectations in these helpers come from RULES.md, not from the engine:
the point table, the card order and the number of tricks are written out
here again on purpose, so that a mistake in the engine's tables shows up.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable

import pytest
from cursedbottle.engine.cards import CURSED_BOTTLE, Card
from cursedbottle.engine.events import (
    CardPassed,
    CardPlayed,
    CardsDealt,
    HandEnded,
    HandStarted,
    OpenHandChosen,
    OpenHandRevealed,
    PassChosen,
    PileCardPlaced,
)
from cursedbottle.engine.game import Game
from cursedbottle.engine.hand import Hand
from cursedbottle.engine.rules import Edition, Rules

DECK = CURSED_BOTTLE

#: RULES.md: ranks lowest first, suits ♦ < ♥ < ♠ within a rank.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")
SUITS = ("D", "H", "S")
#: RULES.md point table: A–4 one point, 5–9 two, 10–Q three.
RANK_POINTS = {
    "A": 1, "2": 1, "3": 1, "4": 1,
    "5": 2, "6": 2, "7": 2, "8": 2, "9": 2,
    "10": 3, "J": 3, "Q": 3,
}
#: 2 × 4 + ... : 12 cards per suit, three suits.
DECK_POINTS = 69
#: Cards below the price joker (6½): A..6 in three suits.
JOKER_THRESHOLD = 18

#: The Bottle Imp deck (decks/bottle-imp-original.csv, written out again): per
#: colour, number:coins; the half numbers are the 5–6 player cards.
BOTTLE_IMP_CARDS = {
    "Y": "1:1 2:1 2.5:1 3:2 5:2 7:3 9:3 12:4 12.5:4 15:4 18:5 18.5:5 22:5 22.5:5 25:6 28:6 28.5:6",
    "B": "4:1 4.5:1 6:1 6.5:1 8:2 8.5:2 10:2 10.5:2 13:3 17:3 20:4 20.5:4 24:4 24.5:4 27:5 "
    "30:5 30.5:5 32:6 32.5:6 34:6 34.5:6",
    "R": "11:1 14:1 14.5:1 16:2 16.5:2 21:2 23:3 26:3 26.5:3 29:4 31:4 33:5 35:5 36:6 36.5:6 37:6",
}
COINS = {
    f"{item.split(':')[0]}{colour}": int(item.split(":")[1])
    for colour, items in BOTTLE_IMP_CARDS.items()
    for item in items.split()
}
#: The Hell card: the Bottle Imp's price before the first purchase.
HELL = 19

#: Every variant the properties run over.
CONFIGS: tuple[Rules, ...] = (
    Rules(3),
    Rules(3, hot_bottle=True),
    Rules(4),
    Rules(4, hot_bottle=True),
    Rules(2),
    Rules(2, hot_bottle=True),
    Rules(2, bright_house=True),
    Rules(2, bright_house=True, hot_bottle=True),
    Rules(2, edition=Edition.BOTTLE_IMP),
    Rules(3, edition=Edition.BOTTLE_IMP),
    Rules(4, edition=Edition.BOTTLE_IMP),
    Rules(5, edition=Edition.BOTTLE_IMP),
    Rules(6, edition=Edition.BOTTLE_IMP),
    Rules(4, edition=Edition.BOTTLE_IMP, teams=True),
    Rules(5, edition=Edition.BOTTLE_IMP, teams=True),
    Rules(6, edition=Edition.BOTTLE_IMP, teams=True),
    Rules(6, edition=Edition.BOTTLE_IMP, teams=True, singles=True),
    Rules(5, edition=Edition.BOTTLE_IMP, second_bottle=True),
    Rules(6, edition=Edition.BOTTLE_IMP, second_bottle=True, teams=True),
)


def team_scores(rules: Rules, own: list[int]) -> list[int]:
    """The seed's team scoring, written out again: partners sit opposite and add
    their points, both get the sum; an individual's points count double (five
    players: seat 0 plays alone; six with two alone: seats 0 and 3)."""
    if not rules.teams:
        return own
    n = rules.players
    alone = {5: {0}, 6: {0, 3} if rules.singles else set()}.get(n, set())
    out = []
    for s in range(n):
        if s in alone:
            out.append(2 * own[s])
            continue
        partner = (s + 2 - 1) % 4 + 1 if n == 5 else (s + n // 2) % n
        out.append(own[s] + own[partner])
    return out


def config_id(rules: Rules) -> str:
    name = f"{rules.players}p"
    if rules.original:
        if rules.players == 2:
            return "imp-devils-eye"
        return (
            f"imp-{name}"
            + ("-teams" if rules.teams else "")
            + ("-2211" if rules.singles else "")
            + ("-2bottles" if rules.second_bottle else "")
        )
    if rules.players == 2:
        name += "-bright" if rules.bright_house else "-lopaka"
    if rules.hot_bottle:
        name += "-hot"
    return name


def card(text: str) -> Card:
    return DECK.card(text)


def cards(text: str) -> list[Card]:
    """`"9H 5H QH"` → the cards."""
    return [DECK.card(t) for t in text.split()]


def mask(text: str) -> int:
    return DECK.mask_of(cards(text))


def order_index(c: Card) -> float:
    """Where a card stands, computed from its face: its place in the total order
    of RULES.md, or a Bottle Imp card's number."""
    if c.suit.letter in BOTTLE_IMP_CARDS:
        return float(c.rank)
    return RANKS.index(c.rank) * 3 + SUITS.index(c.suit.letter)


def start_price(rules: Rules) -> float:
    """The price before the first purchase, on the scale of `order_index`."""
    return HELL if rules.original else JOKER_THRESHOLD


def points(cs) -> int:
    """Points of cards by the RULES.md table or the Bottle Imp's coins (not the engine's)."""
    return sum(COINS[c.ascii] if c.ascii in COINS else RANK_POINTS[c.rank] for c in cs)


def deck_points(rules: Rules) -> int:
    if not rules.original:
        return DECK_POINTS
    basic = [k for k in COINS if "." not in k]
    return sum(COINS[k] for k in (COINS if rules.players >= 5 else basic))


def expected_tricks(rules: Rules) -> int:
    """RULES.md: 11 tricks with 3 players, 8 with 4, 11 with Lopaka, 8 in the bright house.
    The Bottle Imp: 36 cards for 3–4 players, 54 for 5–6, one each to the pile but the
    dealer's with 5; Devil's Eye: 16 cards each after the pile, two per trick."""
    if rules.original:
        return {2: 8, 3: 11, 4: 8, 5: 10, 6: 8}[rules.players]
    if rules.bright_house:
        return 8
    if rules.players == 2:
        return 11
    return {3: 11, 4: 8}[rules.players]


def expected_pile_size(rules: Rules) -> int:
    if rules.original:
        if rules.players == 2:
            return 4  # Devil's Eye: two from each second hand
        return rules.players - (rules.players == 5)
    if rules.bright_house:
        return 4
    if rules.players == 2:
        return 3
    return rules.players


def fingerprint(hand: Hand) -> tuple:
    """Everything a refused action must leave as it was."""
    return (
        tuple(hand.holdings),
        tuple(hand.pile),
        tuple(sorted((s, tuple(v)) for s, v in hand.pile_by_seat.items())),
        tuple(hand.pending_passes()),
        tuple(hand.pass_log),
        tuple(hand.open_hand),
        tuple(sorted(hand._pending_open.items())),
        tuple(hand.trick),
        tuple(hand.trick_holders),
        tuple(hand.taken),
        hand.price,
        hand.price_card,
        hand.owner,
        tuple(hand.tricks),
        hand.leader,
        hand.phase,
        hand.stage_hand,
        hand.to_act(),
        tuple(getattr(hand, "voids", ())),
    )


def game_fingerprint(game: Game) -> tuple:
    return (
        fingerprint(game.hand),
        len(game.events),
        len(game.actions),
        len(game.hands),
        tuple(game.totals),
        game.winner,
    )


def card_places(hand: Hand) -> list[tuple[str, int]]:
    """Every place a card can be in, as (name, bit mask)."""
    places = [(f"holder {h}", m) for h, m in enumerate(hand.holdings)]
    places.append(("pile", sum(1 << c for c in hand.pile)))
    for giver, to, c, _ in hand.pending_passes():
        places.append((f"pass {giver}->{to}", 1 << c))
    places.append(("trick", sum(1 << c for c in hand.trick)))
    places.extend((f"taken {s}", m) for s, m in enumerate(hand.taken))
    if hand.price_card is not None:
        places.append(("price card", 1 << hand.price_card))
    for _, c, _ in hand.shelf:
        if c is not None:
            places.append(("the other bottle's price card", 1 << c))
    return places


def assert_every_card_once(hand: Hand) -> None:
    """Each card of the deck is in exactly one place; counted one by one."""
    deck = hand.deck
    seen: dict[int, str] = {}
    for name, m in card_places(hand):
        for c in deck.cards_of(m):
            assert c.index not in seen, f"{c} is in {seen[c.index]} and in {name}"
            seen[c.index] = name
        # a list-valued place must not hold a card twice either
    assert len(hand.pile) == len(set(hand.pile)), f"pile holds a card twice: {hand.pile}"
    assert len(hand.trick) == len(set(hand.trick)), f"trick holds a card twice: {hand.trick}"
    missing = [c for c in deck.cards if c.index not in seen]
    assert not missing, f"cards in no place: {missing}"
    assert len(seen) == (54 if hand.rules.original and hand.rules.players >= 5 else 36)


def play_random_game(
    rules: Rules,
    seed: int | str,
    rng: random.Random,
    after_action: Callable[[Game], None] | None = None,
    max_hands: int | None = None,
) -> Game:
    """A random legal game, to its end or until `max_hands` hands are finished.

    (With the hot bottle the totals can drift below zero for good, so a game to
    a target need not end at all: callers that want whole games cap it.)
    """
    game = Game(rules, seed=seed)
    if after_action:
        after_action(game)
    while not game.is_over:
        if max_hands is not None and len(game.hands) > max_hands:
            break
        game.apply(rng.choice(game.legal_actions()))
        if after_action:
            after_action(game)
    return game


# ------------------------------------------------------------------ secrecy


def cards_in(value) -> set[Card]:
    """Every card an event mentions (not descending into the rule set's deck)."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list):
        out: set[Card] = set()
        for v in value:
            out |= cards_in(v)
        return out
    if dataclasses.is_dataclass(value) and not isinstance(value, Rules):
        out = set()
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if not isinstance(v, Rules):
                out |= cards_in(v)
        return out
    return set()


def check_secrecy(game: Game, player: int | None) -> None:
    """What `player` (None = spectator) sees names only cards it may know.

    The seat's knowledge is rebuilt from the ground truth (the hands' deals,
    the unfiltered events): its own dealt cards and Lopaka's; the passes it
    gave and received, from the moment they are picked up; every card played;
    the open hands once revealed; the pile once the hand has ended.  Every card
    of every event in its stream must be in that set at that moment, the pile
    (but its own pile cards) never before the hand's end, and the parts it may
    see must not be blanked either.
    """
    stream = dict(game.events_for(player))
    assert list(stream) == sorted(stream)
    known: set[Card] = set()
    secret_pile: set[Card] = set()
    hand = seat = None
    for seq, raw in enumerate(game.events):
        if isinstance(raw, HandStarted):
            hand = game.hands[raw.number - 1]
            seat = None if player is None else raw.seat_players.index(player)
            deck = hand.deck
            mine = [h for h, s in enumerate(hand.holder_seat) if s == seat]
            known = set()
            for h in mine:
                known |= set(deck.cards_of(hand.dealt[h]))
            if hand.lopaka is not None:
                known |= set(deck.cards_of(hand.dealt[hand.lopaka]))
            own_pile = set() if seat is None else set(hand.pile_by_seat.get(seat, []))
            secret_pile = {deck.cards[c] for c in hand.pile if c not in own_pile}
        # what this event makes known to the seat, by the ground truth
        passed_here = isinstance(raw, CardPassed) and seat is not None and seat in (
            raw.seat, raw.to
        )
        if passed_here or isinstance(raw, CardPlayed):
            known.add(raw.card)
        elif isinstance(raw, OpenHandRevealed):
            known |= set(raw.cards)
        elif isinstance(raw, HandEnded):
            known |= set(raw.pile)
            secret_pile = set()
        seen = stream.get(seq)
        if seen is None:
            continue
        assert type(seen) is type(raw)
        mentioned = cards_in(seen)
        leaked = mentioned - known
        assert not leaked, f"player {player} sees {sorted(leaked)} in event {seq}: {seen}"
        assert not mentioned & secret_pile, f"player {player} sees the pile in {seen}"
        # the secret parts are blanked for everybody else
        if isinstance(seen, PileCardPlaced | PassChosen | OpenHandChosen) and raw.seat != seat:
            assert seen == dataclasses.replace(
                raw, **{"hand" if isinstance(raw, OpenHandChosen) else "card": None}
            ), seen
        if isinstance(seen, CardPassed) and seat not in (raw.seat, raw.to):
            assert seen.card is None
        # and what the seat may see is there (the filter does not hide everything)
        public_deal = isinstance(raw, CardsDealt) and (raw.seat == seat or raw.seat == hand.lopaka)
        if public_deal or isinstance(
            raw, CardPlayed | OpenHandRevealed | HandEnded | HandStarted
        ):
            assert seen == raw, (player, seen)
        if isinstance(raw, PileCardPlaced | PassChosen | OpenHandChosen) and raw.seat == seat:
            assert seen == raw
        if isinstance(raw, CardPassed) and seat in (raw.seat, raw.to):
            assert seen == raw




# ------------------------------------------------------------------ data dir


@pytest.fixture(autouse=True, scope="session")
def _temporary_data_dir(tmp_path_factory):
    """`cursed-bottle serve` keeps its database in the user's data directory by
    default; tests, and the servers they start as processes, must never touch the
    real one (nor share one with another test run: the database is locked)."""
    old = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("xdg-data"))
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.mktemp("xdg-state"))  # saved seats
    yield
    if old is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = old


@pytest.fixture
def tmux():
    """A private tmux server for a real-terminal test (tests/tmux_support.py)."""
    from tmux_support import Tmux

    t = Tmux()
    try:
        yield t
    finally:
        t.close()
