"""Hand records: JSON shape, round trips, and replay naming the first illegal step.

Records come from random legal games played by the engine.  The expected
outcomes are recomputed here from RULES.md by a deliberately naive scorer
(`rules_md_outcome`), so a replay that agreed with a broken engine would
still fail; the expected counts and wordings are written out, not read from
the engine's tables.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections import Counter

import pytest
from cursedbottle.engine.cards import CURSED_BOTTLE
from cursedbottle.engine.events import CardPlayed, Phase, TrickWon
from cursedbottle.engine.game import Game
from cursedbottle.engine.hand import Hand, random_deal
from cursedbottle.engine.records import (
    DealerError,
    HandRecord,
    RecordError,
    ReplayError,
    ReplayResult,
    record_of,
    replay,
    replay_hand,
)
from cursedbottle.engine.rules import Edition, Rules
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DECK = CURSED_BOTTLE

CONFIGS = {
    "3p": Rules(3),
    "3p-hot": Rules(3, hot_bottle=True),
    "4p": Rules(4),
    "4p-hot": Rules(4, hot_bottle=True),
    "lopaka": Rules(2),
    "lopaka-hot": Rules(2, hot_bottle=True),
    "bright": Rules(2, bright_house=True),
    "bright-hot": Rules(2, bright_house=True, hot_bottle=True),
}
MAIN = ("3p", "4p", "lopaka", "bright")

#: RULES.md, written out again: cards per trick, tricks, cards dealt per hand.
TRICK_SIZE = {3: 3, 4: 4, "lopaka": 3, "bright": 4}
TRICKS = {3: 11, 4: 8, "lopaka": 11, "bright": 8}
DEAL_SIZE = {3: 12, 4: 9, "lopaka": 11, "bright": 9}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")
SUITS = ("D", "H", "S")
SUIT_NAMES = {"D": "diamonds", "H": "hearts", "S": "spades"}
RANK_POINTS = dict(zip(RANKS, (1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3), strict=True))
JOKER_PRICE = 17.5  # 6½: between 6♠ (index 17) and 7♦ (index 18)


def kind(rules: Rules) -> int | str:
    if rules.bright_house:
        return "bright"
    return "lopaka" if rules.players == 2 else rules.players


# ---------------------------------------------------------------- generation


def play_out(hand: Hand, rng: random.Random) -> Hand:
    while not hand.is_over:
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


def game_hands(rules: Rules, seed: int, count: int = 2) -> list[Hand]:
    """The first `count` finished hands of a random legal game (dealers rotate)."""
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    while not game.is_over and sum(h.is_over for h in game.hands) < count:
        game.apply(rng.choice(game.legal_actions()))
    return [h for h in game.hands if h.is_over]


def dealt_hand(rules: Rules, seed: int, dealer: int) -> Hand:
    """A fresh hand with any dealer (Game always seats a Lopaka game's dealer at 0)."""
    rng = random.Random(seed)
    deal, undealt = random_deal(rules, rng)
    return Hand(rules, dealer, deal, undealt)


@functools.cache
def finished(name: str, seed: int = 1) -> tuple[Hand, dict]:
    hand = game_hands(CONFIGS[name], seed, 1)[0]
    return hand, record_of(hand).to_json()


def fresh(name: str, seed: int = 1) -> dict:
    return copy.deepcopy(finished(name, seed)[1])


def replay_json(obj: dict) -> ReplayResult:
    return replay(HandRecord.from_json(json.loads(json.dumps(obj))))


# ------------------------------------------------------- RULES.md, naively


def order(card: str) -> int:
    return RANKS.index(card[:-1]) * 3 + SUITS.index(card[-1])


def rules_md_outcome(record: dict, tricks: list[dict]) -> dict:
    """Scores, owner and price from the record and the printed tricks, by RULES.md.

    A naive referee: it follows every holder's cards from the deal through the
    pile and the passes, checks that each play is held and follows suit, that
    Lopaka plays his policy's card, the leaders and the seats' order, recomputes
    every winner and purchase, and scores the hand.  Nothing here comes from
    the engine.
    """
    rules = record["rules"]
    bright = rules.get("bright_house", False)
    seats = 2 if bright else 3 if rules["players"] == 2 else rules["players"]
    lopaka = record.get("lopaka")
    held = holdings_after_passes(record, seats)
    price, price_card, owner = JOKER_PRICE, None, None
    taken: list[list[str]] = [[] for _ in range(seats)]
    leader = (record["dealer"] + 1) % seats
    for trick in tricks:
        assert trick["leader"] == leader
        if bright:
            opened = record["open"]
            other = 1 - leader
            holders = [2 * leader + opened[leader], 2 * other + opened[other]]
            holders += [2 * leader + 1 - opened[leader], 2 * other + 1 - opened[other]]
            seat_of = [h // 2 for h in holders]
        else:
            holders = seat_of = [(leader + i) % seats for i in range(seats)]
        cards = trick["cards"]
        for pos, (holder, card) in enumerate(zip(holders, cards, strict=True)):
            assert card in held[holder], f"{card} is not held by holder {holder}"
            led = cards[0][-1]
            if pos and card[-1] != led:
                assert all(c[-1] != led for c in held[holder]), f"{card} revokes"
            if holder == lopaka and seat_of[pos] == lopaka:
                assert card == lopaka_policy(held[holder], cards[:pos], price)
            held[holder].remove(card)
        below = [c for c in cards if order(c) < price]
        best = max(below or cards, key=order)
        winner = seat_of[cards.index(best)]
        assert (trick["winner"], trick["bought"]) == (winner, bool(below))
        won = list(cards)
        if below:
            won.remove(best)
            if price_card is not None:
                taken[owner].append(price_card)
            price, price_card, owner = order(best), best, winner
        taken[winner].extend(won)
        leader = winner
    assert not any(held), "cards left over at the end of the hand"
    points = [sum(RANK_POINTS[c[:-1]] for c in t) for t in taken]
    pile_points = sum(RANK_POINTS[c[:-1]] for c in record["pile"])
    if owner is not None:
        hot = points[owner] if rules["hot_bottle"] else 0
        points[owner] = -pile_points - hot
    return {"scores": points, "owner": owner, "price": price_card or "JOKER"}


def holdings_after_passes(record: dict, seats: int) -> list[list[str]]:
    """Each holder's cards once the pile cards are laid and the passes exchanged."""
    held = [list(cards) for cards in record["deal"]]
    passes = record["passes"]
    if record.get("lopaka") is None:  # 3-4 players and the bright house lay a pile card
        for h, card in enumerate(record["pile"]):
            held[h].remove(card)
    moves = []  # (card, giver, receiver): chosen at once, so all leave before any arrive
    for h, entry in enumerate(passes):
        if entry is None:
            continue
        if "other" in entry:  # to the opponent's hand of the same number (or the other player)
            others = [r for r, e in enumerate(passes) if e is not None and r != h]
            moves.append((entry["other"], h, h ^ 2 if len(passes) == 4 else others[0]))
        else:
            moves.append((entry["left"], h, (h + 1) % seats))
            moves.append((entry["right"], h, (h - 1) % seats))
    for card, giver, _ in moves:
        held[giver].remove(card)
    for card, _, receiver in moves:
        held[receiver].append(card)
    return held


def lopaka_policy(held: list[str], trick: list[str], price: float) -> str:
    """RULES.md: lead the highest; else the highest legal card that would win the
    trick as it stands; else the lowest legal card."""
    if not trick:
        return max(held, key=order)
    led = trick[0][-1]
    legal = [c for c in held if c[-1] == led] or held

    def wins(card: str) -> bool:
        cards = [*trick, card]
        below = [c for c in cards if order(c) < price]
        return max(below or cards, key=order) == card

    winning = [c for c in legal if wins(c)]
    return max(winning, key=order) if winning else min(legal, key=order)


def assert_same_as_engine(result: ReplayResult, hand: Hand) -> None:
    assert result.scores == hand.scores()
    assert result.owner == hand.owner
    assert result.price == (None if hand.price_card is None else DECK.cards[hand.price_card])
    assert result.tricks == tuple(hand.tricks)


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_round_trip_of_game_hands(name: str) -> None:
    for hand in game_hands(CONFIGS[name], seed=7, count=3):
        record = record_of(hand)
        text = json.dumps(record.to_json())
        again = HandRecord.from_json(json.loads(text))
        assert again == record
        assert again.to_json() == json.loads(text)
        result = replay(again)
        assert_same_as_engine(result, hand)
        out = result.to_json()
        assert out == json.loads(json.dumps(out))
        assert {k: out[k] for k in ("scores", "owner", "price")} == rules_md_outcome(
            record.to_json(), out["tricks"]
        )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(CONFIGS)), seed=st.integers(0, 10**9), dealer=st.integers(0, 3))
def test_round_trip_property(name: str, seed: int, dealer: int) -> None:
    rules = CONFIGS[name]
    hand = play_out(dealt_hand(rules, seed, dealer % rules.seats), random.Random(seed))
    record = HandRecord.loads(record_of(hand).dumps(indent=seed % 3 or None))
    result = replay(record)
    assert_same_as_engine(result, hand)
    out = result.to_json()
    assert [c for t in out["tricks"] for c in t["cards"]] == record.to_json()["plays"]
    expected = rules_md_outcome(record.to_json(), out["tricks"])
    assert {k: out[k] for k in ("scores", "owner", "price")} == expected


def test_format_matches_formats_md() -> None:
    hand, obj = finished("3p")
    assert list(obj) == ["rules", "dealer", "deal", "pile", "passes", "plays"]
    assert obj["rules"] == {"players": 3, "hot_bottle": False}
    assert [len(d) for d in obj["deal"]] == [12, 12, 12]
    assert len(obj["pile"]) == 3 and len(obj["plays"]) == 33
    assert all(set(p) == {"left", "right"} for p in obj["passes"])
    # seat s's left pass is what seat s+1 received from its right neighbour
    for giver, to, card, _ in hand.pass_log:
        key = "left" if to == (giver + 1) % 3 else "right"
        assert obj["passes"][giver][key] == DECK.cards[card].ascii
    for seat in range(3):
        assert obj["pile"][seat] == DECK.cards[hand.pile_by_seat[seat][0]].ascii


def test_lopaka_format() -> None:
    hand, obj = finished("lopaka")
    assert obj["lopaka"] == (obj["dealer"] - 1) % 3
    assert [len(d) for d in obj["deal"]] == [11, 11, 11]
    assert sorted(obj["pile"], key=order) == sorted(
        (DECK.cards[c].ascii for c in hand.pile), key=order
    )
    assert obj["passes"][obj["lopaka"]] is None
    assert all(set(p) == {"other"} for p in obj["passes"] if p is not None)
    assert len(obj["plays"]) == 33


def test_bright_house_format() -> None:
    hand, obj = finished("bright")
    assert obj["rules"] == {"players": 2, "hot_bottle": False, "bright_house": True}
    assert "lopaka" not in obj
    assert [len(d) for d in obj["deal"]] == [9, 9, 9, 9]
    assert len(obj["pile"]) == 4 and len(obj["plays"]) == 32
    assert obj["open"] == list(hand.open_hand)
    for seat in (0, 1):
        for nth in (0, 1):
            card = DECK.cards[hand.pile_by_seat[seat][nth]].ascii
            assert obj["pile"][2 * seat + nth] == card
            assert card in obj["deal"][2 * seat + nth]
    for giver, _, card, stage_hand in hand.pass_log:
        assert obj["passes"][2 * giver + stage_hand] == {"other": DECK.cards[card].ascii}


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_lopaka_with_every_dealer(dealer: int) -> None:
    hand = play_out(dealt_hand(Rules(2), 3, dealer), random.Random(3))
    obj = record_of(hand).to_json()
    assert obj["dealer"] == dealer and obj["lopaka"] == (dealer + 2) % 3
    assert_same_as_engine(replay_json(obj), hand)


def test_replay_result_json_shape() -> None:
    _, obj = finished("4p")
    out = replay_json(obj).to_json()
    assert set(out) == {"scores", "owner", "price", "tricks"}
    assert len(out["scores"]) == 4 and len(out["tricks"]) == 8
    assert all(set(t) == {"leader", "cards", "winner", "bought"} for t in out["tricks"])
    nobody = ReplayResult((1, 2, 3), None, None, ())
    assert nobody.to_json() == {"scores": [1, 2, 3], "owner": None, "price": "JOKER", "tricks": []}


def test_game_end_rules_are_not_part_of_a_record() -> None:
    hand = game_hands(Rules(4, hot_bottle=True, hands=2), seed=2, count=1)[0]
    record = record_of(hand)
    assert record.rules == Rules(4, hot_bottle=True)
    assert HandRecord.loads(record.dumps()) == record


def test_save_and_load(tmp_path) -> None:
    record = HandRecord.from_json(fresh("bright"))
    path = tmp_path / "hand.json"
    record.save(path)
    assert HandRecord.load(path) == record
    assert json.loads(path.read_text()) == record.to_json()


def test_cards_may_be_written_with_symbols_and_t() -> None:
    obj = fresh("3p")
    plain = replay_json(obj)
    obj["plays"] = [c.replace("10", "T") for c in obj["plays"]]
    obj["deal"] = [[c[:-1] + "♦♥♠"["DHS".index(c[-1])] for c in d] for d in obj["deal"]]
    assert replay_json(obj) == plain


# --------------------------------------------------------- hands in progress


@pytest.mark.parametrize("name", MAIN)
def test_record_of_hand_in_progress_rebuilds_the_same_state(name: str) -> None:
    rules = CONFIGS[name]
    rng = random.Random(11)
    hand = dealt_hand(rules, 11, 0)
    seen_phases = set()
    while True:
        record = HandRecord.loads(record_of(hand).dumps())
        again = replay_hand(record)
        seen_phases.add(hand.phase)
        assert state(again) == state(hand)
        if hand.is_over:
            break
        hand.apply(rng.choice(hand.legal_actions()))
    assert Phase.PLAY in seen_phases and Phase.PASS in seen_phases


def state(hand: Hand) -> tuple:
    return (
        tuple(hand.holdings),
        tuple(sorted(hand.pile)),  # laid at once: the order is not part of the hand
        tuple(sorted((s, tuple(v)) for s, v in hand.pile_by_seat.items())),
        tuple(sorted((g, tuple(sorted(v.items()))) for g, v in hand.passes.items())),
        tuple(sorted(hand.pass_log)),
        tuple(hand.open_hand),
        tuple(hand.trick),
        tuple(hand.tricks),
        tuple(hand.taken),
        hand.price_card,
        hand.owner,
        hand.phase,
        hand.stage_hand,
        hand.to_act(),
    )


def test_in_progress_record_has_nulls() -> None:
    hand = dealt_hand(Rules(3), 5, 0)
    hand.apply(hand.legal_actions(1)[0])
    obj = record_of(hand).to_json()
    assert obj["pile"][0] is None and obj["pile"][1] is not None and obj["pile"][2] is None
    assert obj["passes"] == [{"left": None, "right": None}] * 3
    assert obj["plays"] == []
    with pytest.raises(ReplayError) as err:
        replay(HandRecord.from_json(obj))
    assert str(err.value) == "pile[0]: null, the record stops before the hand is complete"


def test_step_after_a_null_is_named() -> None:
    obj = fresh("3p")
    obj["pile"][1] = obj["pile"][2] = None  # the first null is named
    with pytest.raises(ReplayError) as err:
        replay_json(obj)
    assert err.value.step == "passes[0].left"
    assert str(err.value) == (
        "passes[0].left: recorded although pile[1] is null (the hand is still in the pile phase)"
    )


def test_play_after_a_null_open_hand_is_named() -> None:
    obj = fresh("bright")
    obj["open"][1] = None
    with pytest.raises(ReplayError) as err:
        replay_json(obj)
    assert err.value.step == "plays[0]"
    assert "open[1] is null" in str(err.value)


# ------------------------------------------------------- malformed records


def drop_two_from(obj: dict, h: int) -> dict:
    obj["deal"][h] = obj["deal"][h][:-2]
    return obj


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("3p", "deal[2]: 10 cards, 3-player hands are dealt 12"),
        ("4p", "deal[2]: 7 cards, 4-player hands are dealt 9"),
        ("lopaka", "deal[2]: 9 cards, 2-player hands are dealt 11"),
        ("bright", "deal[2]: 7 cards, bright-house hands are dealt 9"),
    ],
)
def test_wrong_card_count(name: str, message: str) -> None:
    with pytest.raises(RecordError) as err:
        HandRecord.from_json(drop_two_from(fresh(name), 2))
    assert str(err.value) == message
    assert not isinstance(err.value, ReplayError)


@pytest.mark.parametrize("name", MAIN)
def test_moving_a_card_between_hands_is_a_wrong_count(name: str) -> None:
    obj = fresh(name)
    obj["deal"][1].append(obj["deal"][0].pop())
    with pytest.raises(RecordError, match=r"^deal\[0\]: (\d+) cards, .* dealt (\d+)$") as err:
        HandRecord.from_json(obj)
    want = DEAL_SIZE[kind(CONFIGS[name])]
    assert str(err.value).startswith(f"deal[0]: {want - 1} cards")


@pytest.mark.parametrize("name", MAIN)
def test_card_dealt_twice(name: str) -> None:
    obj = fresh(name)
    card = obj["deal"][0][3]
    obj["deal"][1][5] = card
    with pytest.raises(RecordError) as err:
        HandRecord.from_json(obj)
    assert str(err.value) == f"deal[1]: {card} is dealt twice (also in deal[0])"


def test_lopaka_pile_card_also_dealt() -> None:
    obj = fresh("lopaka")
    card = obj["deal"][2][0]
    obj["pile"][1] = card
    with pytest.raises(RecordError) as err:
        HandRecord.from_json(obj)
    assert str(err.value) == f"pile: {card} is dealt twice (also in deal[2])"


def set_path(obj: dict, path: tuple, value: object) -> dict:
    target = obj
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return obj


DELETE = object()

MALFORMED = [
    ("3p", ("plays", 5), "XX", "plays[5]: 'XX' is not a card (write e.g. AD, 10H, QS)"),
    ("3p", ("plays", 0), 12, "plays[0]: expected a card, got a number"),
    ("3p", ("plays", 0), "JOKER", "plays[0]: 'JOKER' is not a card (write e.g. AD, 10H, QS)"),
    ("3p", ("plays",), "7D 9D", "plays: expected a list of cards, got a string"),
    ("3p", ("plays",), DELETE, "plays: missing"),
    ("3p", ("deal",), DELETE, "deal: missing"),
    ("3p", ("deal",), {"0": []}, "deal: expected a list of 3 hands, got an object"),
    ("3p", ("deal", 1, 0), "KH", "deal[1][0]: 'KH' is not a card (write e.g. AD, 10H, QS)"),
    ("3p", ("rules",), DELETE, "rules: missing"),
    ("3p", ("rules",), 3, "rules: expected an object, got a number"),
    ("3p", ("rules", "players"), DELETE, "rules.players: missing"),
    ("3p", ("rules", "players"), "3", "rules.players: '3' is not 2, 3 or 4"),
    ("3p", ("rules", "players"), 5, "rules.players: 5 is not 2, 3 or 4 in cursed-bottle"),
    ("3p", ("rules", "hot_bottle"), "no", "rules.hot_bottle: 'no' is not true or false"),
    (
        "3p",
        ("rules", "bright_house"),
        True,
        "rules.bright_house: the bright house is a two-player variant",
    ),
    ("3p", ("dealer",), 3, "dealer: 3 is not a seat (seats are 0 to 2)"),
    ("3p", ("dealer",), True, "dealer: expected a seat number, got a boolean"),
    ("3p", ("dealer",), DELETE, "dealer: missing"),
    (
        "3p",
        ("lopaka",),
        2,
        "lopaka: only two players without the bright house have Lopaka, got seat 2",
    ),
    (
        "3p",
        ("pile",),
        ["2D", "3D"],
        "pile: 2 cards, a 3-player pile has 3 (one per seat)",
    ),
    ("3p", ("pile", 0), 7, "pile[0]: expected a card, got a number"),
    ("3p", ("passes",), [], "passes: 0 entries, a 3-player record has 3 (one per seat)"),
    ("3p", ("passes", 1), None, "passes[1]: expected an object with left and right, got null"),
    ("3p", ("passes", 1, "right"), DELETE, "passes[1].right: missing"),
    (
        "3p",
        ("passes", 1, "other"),
        "AD",
        "passes[1]: unexpected key 'other' (3-player passes are 'left' and 'right')",
    ),
    (
        "3p",
        ("passes", 2, "left"),
        "ZZ",
        "passes[2].left: 'ZZ' is not a card (write e.g. AD, 10H, QS)",
    ),
    ("3p", ("open",), [0, 1], "open: only the bright house has open hands"),
    ("lopaka", ("lopaka",), DELETE, "lopaka: missing (two players play with Lopaka, here seat 2)"),
    (
        "lopaka",
        ("lopaka",),
        1,
        "lopaka: seat 1 is not the dealer's right neighbour (the dealer "
        "is seat 0, so Lopaka is seat 2)",
    ),
    ("lopaka", ("lopaka",), "2", "lopaka: expected a seat number, got a string"),
    ("lopaka", ("passes", 2), {"other": "AD"}, "passes[2]: Lopaka passes nothing, expected null"),
    ("lopaka", ("pile", 0), None, "pile[0]: expected a card, got null"),
    ("lopaka", ("pile",), ["AD"], "pile: 1 cards, a 2-player pile has 3 (the undealt cards)"),
    ("bright", ("pile",), ["AD"], "pile: 1 cards, a bright-house pile has 4 (one per hand)"),
    ("lopaka", ("passes",), [None], "passes: 1 entries, a 2-player record has 3 (one per seat)"),
    ("bright", ("open",), DELETE, "open: missing (the bright house records each seat's open hand)"),
    ("bright", ("open",), [0], "open: 1 entries, expected 2 (one per seat)"),
    ("bright", ("open", 1), 2, "open[1]: expected 0 (first hand) or 1 (second hand), got 2"),
    ("bright", ("open", 0), True, "open[0]: expected 0 (first hand) or 1 (second hand), got True"),
    (
        "bright",
        ("passes", 3),
        {"left": "AD", "right": "2D"},
        "passes[3]: unexpected key 'left' (bright-house passes are 'other')",
    ),
    ("bright", ("deal",), [[], [], []], "deal: 3 hands, bright-house records deal 4"),
]


@pytest.mark.parametrize(("name", "path", "value", "message"), MALFORMED)
def test_malformed_record_names_the_field(name, path, value, message) -> None:
    obj = set_path(fresh(name), path, value)
    with pytest.raises(RecordError) as err:
        HandRecord.from_json(obj)
    assert str(err.value) == message
    assert not isinstance(err.value, ReplayError)


@pytest.mark.parametrize("text", ["", "[1, 2]", '"hand"', "{", "null"])
def test_not_a_record(text: str) -> None:
    with pytest.raises(RecordError, match=r"^(not JSON: .* at line \d+ column \d+|record: .*)$"):
        HandRecord.loads(text)


def test_not_utf8(tmp_path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(RecordError, match="not UTF-8"):
        HandRecord.load(path)


def test_extra_fields_are_allowed() -> None:
    obj = fresh("4p")
    obj["comment"] = "a lively hand"
    obj["rules"]["target"] = 100
    assert HandRecord.from_json(obj) == HandRecord.from_json(fresh("4p"))


# --------------------------------------------------- the dealer in team mode

#: RULES.md, written out again: "Dealer is always an individual player when
#: there are individuals": who may deal when some play alone.
TEAM_DEALERS = {
    "5-teams": (Rules(5, edition=Edition.BOTTLE_IMP, teams=True), (0,)),
    "6-2211": (Rules(6, edition=Edition.BOTTLE_IMP, teams=True, singles=True), (0, 3)),
}


def team_hand(rules: Rules, dealer: int, seed: int) -> Hand:
    """A whole random hand with any dealer (a Game only lets an individual deal)."""
    rng = random.Random(seed)
    deal, undealt = random_deal(rules, rng, dealer)
    return play_out(Hand(rules, dealer, deal, undealt), rng)


def team_record_json(hand: Hand) -> dict:
    """The hand's record as FORMATS.md lays it out, written here without
    `record_of` (which builds a `HandRecord`, and so checks the dealer)."""
    deck, rules = hand.deck, hand.rules
    n = rules.players
    passes: list[dict] = [{"left": None, "right": None} for _ in range(n)]
    for giver, to, card, _ in hand.all_passes():
        passes[giver]["left" if to == (giver + 1) % n else "right"] = deck.cards[card].ascii
    return {
        "rules": rules.to_json(),
        "dealer": hand.dealer,
        "deal": [[c.ascii for c in deck.cards_of(m)] for m in hand.dealt],
        "pile": [deck.cards[hand.pile_by_seat[s][0]].ascii for s in rules.pile_seats(hand.dealer)],
        "passes": passes,
        "plays": [c.ascii for t in hand.tricks for c in t.cards],
    }


@pytest.mark.parametrize("name", sorted(TEAM_DEALERS))
def test_an_individual_dealer_replays(name: str) -> None:
    rules, individuals = TEAM_DEALERS[name]
    for dealer in individuals:
        hand = team_hand(rules, dealer, seed=dealer)
        obj = team_record_json(hand)
        assert obj == record_of(hand).to_json()  # the helper writes what the engine writes
        assert replay_json(obj).scores == hand.scores()


@pytest.mark.parametrize("name", sorted(TEAM_DEALERS))
def test_a_team_hand_dealt_by_a_team_member_is_refused(name: str) -> None:
    rules, individuals = TEAM_DEALERS[name]
    here = " or ".join(f"seat {s}" for s in individuals)
    for dealer in sorted(set(range(rules.players)) - set(individuals)):
        obj = team_record_json(team_hand(rules, dealer, seed=dealer))
        with pytest.raises(DealerError) as err:
            HandRecord.from_json(obj)
        assert str(err.value) == (
            f"dealer: seat {dealer} plays in a team, but the dealer is always an "
            f"individual when some play alone (here {here})"
        )
        assert err.value.field == "dealer"
        assert err.value.rule == "the dealer is always an individual"
        assert (err.value.dealer, err.value.individuals) == (dealer, individuals)
        assert not isinstance(err.value, ReplayError)


def test_without_individuals_any_seat_deals_a_team_hand() -> None:
    for rules in (Rules(4, edition=Edition.BOTTLE_IMP, teams=True),
                  Rules(6, edition=Edition.BOTTLE_IMP, teams=True)):
        for dealer in range(rules.players):
            hand = team_hand(rules, dealer, seed=dealer)
            assert replay_json(record_of(hand).to_json()).scores == hand.scores()


# ------------------------------------------------------------ illegal steps


def expect_replay_error(obj: dict, step: str, message: str) -> ReplayError:
    with pytest.raises(ReplayError) as err:
        replay_json(obj)
    assert str(err.value) == message
    assert err.value.step == step
    return err.value


@pytest.mark.parametrize("name", ["3p", "4p"])
def test_pile_card_not_held(name: str) -> None:
    obj = fresh(name)
    card = next(c for c in obj["deal"][0] if c != obj["pile"][0])
    obj["pile"][1] = card
    expect_replay_error(
        obj,
        "pile[1]",
        f"pile[1]: seat 1 put {card} into the pile but does not hold it (seat 0 holds it)",
    )


def test_same_pile_card_twice() -> None:
    obj = fresh("3p")
    card = obj["pile"][0]
    obj["pile"][2] = card
    expect_replay_error(
        obj,
        "pile[2]",
        f"pile[2]: seat 2 put {card} into the pile but does not hold it "
        "(seat 0 put it into the pile)",
    )


def test_bright_pile_card_from_the_wrong_hand() -> None:
    obj = fresh("bright")
    card = next(c for c in obj["deal"][0] if c not in (obj["pile"][0], obj["passes"][0]["other"]))
    obj["pile"][1] = card
    expect_replay_error(
        obj,
        "pile[1]",
        f"pile[1]: seat 0 put {card} into the pile from its second hand but does "
        "not hold it (seat 0's first hand holds it)",
    )


@pytest.mark.parametrize("name", ["3p", "4p"])
def test_pass_of_the_pile_card(name: str) -> None:
    obj = fresh(name)
    card = obj["pile"][0]
    obj["passes"][0]["left"] = card
    expect_replay_error(
        obj,
        "passes[0].left",
        f"passes[0].left: seat 0 passed {card} to seat 1 but does not "
        "hold it (seat 0 put it into the pile)",
    )


def test_pass_of_a_card_held_by_another_seat() -> None:
    obj = fresh("4p")
    card = next(c for c in obj["deal"][3] if c not in obj["pile"])
    obj["passes"][1]["right"] = card
    expect_replay_error(
        obj,
        "passes[1].right",
        f"passes[1].right: seat 1 passed {card} to seat 0 but does not hold it (seat 3 holds it)",
    )


def test_same_card_passed_both_ways() -> None:
    obj = fresh("3p")
    card = obj["passes"][2]["left"]
    obj["passes"][2]["right"] = card
    expect_replay_error(
        obj,
        "passes[2].right",
        f"passes[2].right: seat 2 cannot pass {card} twice: it is already chosen for "
        "seat 0, and each neighbour gets a card of its own",
    )


def test_lopaka_pass_of_a_pile_card_or_lopakas_card() -> None:
    obj = fresh("lopaka")
    pile_card = obj["pile"][0]
    obj["passes"][1]["other"] = pile_card
    expect_replay_error(
        obj,
        "passes[1].other",
        f"passes[1].other: seat 1 passed {pile_card} to seat 0 but does "
        "not hold it (it lies in the bottle pile)",
    )
    obj = fresh("lopaka")
    lopakas = obj["deal"][2][0]
    obj["passes"][0]["other"] = lopakas
    expect_replay_error(
        obj,
        "passes[0].other",
        f"passes[0].other: seat 0 passed {lopakas} to seat 1 but does "
        "not hold it (seat 2 holds it)",
    )


def test_bright_pass_of_a_card_received_in_the_same_step() -> None:
    """The passes are simultaneous: a card on its way to you cannot be passed on."""
    obj = fresh("bright")
    incoming = obj["passes"][2]["other"]  # seat 1's first hand → seat 0's first hand
    obj["passes"][0]["other"] = incoming
    expect_replay_error(
        obj,
        "passes[0].other",
        f"passes[0].other: seat 0 passed {incoming} to seat 1 from its "
        "first hand but does not hold it (seat 1's first hand holds it)",
    )
    obj = fresh("bright")
    incoming = obj["passes"][1]["other"]  # seat 0's second hand → seat 1's second hand
    obj["passes"][3]["other"] = incoming
    expect_replay_error(
        obj,
        "passes[3].other",
        f"passes[3].other: seat 1 passed {incoming} to seat 0 from its "
        "second hand but does not hold it (seat 0 passes it to seat 1)",
    )


def prefix_state(obj: dict, i: int) -> Hand:
    """The engine's hand just before plays[i] (the test's oracle for who holds what)."""
    head = dict(obj, plays=obj["plays"][:i])
    return replay_hand(HandRecord.from_json(head))


def seat_and_position(hand: Hand, i: int) -> tuple[int, int]:
    """(seat, place in its trick) of plays[i] in the finished hand."""
    size = TRICK_SIZE[kind(hand.rules)]
    trick = hand.tricks[i // size]
    return trick.plays[i % size][0], i % size


def revoke_candidates(name: str) -> list[tuple[int, str, str]]:
    """(index, a card that revokes, the led suit's letter) for every place a revoke fits."""
    hand, obj = finished(name)
    out = []
    for i in range(len(obj["plays"])):
        seat, pos = seat_and_position(hand, i)
        if pos == 0 or seat == hand.lopaka:
            continue
        led = obj["plays"][i - pos][-1]
        before = prefix_state(obj, i)
        held = [c.ascii for c in DECK.cards_of(before.holdings[before.holder_to_play()])]
        off = [c for c in held if c[-1] != led]
        if off and any(c[-1] == led for c in held):
            out.append((i, off[0], led))
    return out


@pytest.mark.parametrize("name", MAIN)
def test_revoke_names_trick_seat_and_suit(name: str) -> None:
    hand, _ = finished(name)
    candidates = revoke_candidates(name)
    assert candidates, "the sample hand has no place to revoke"
    for i, card, led in candidates[:3] + candidates[-2:]:
        obj = fresh(name)
        obj["plays"][i] = card
        seat, pos = seat_and_position(hand, i)
        suit = SUIT_NAMES[led]
        trick = i // TRICK_SIZE[kind(hand.rules)] + 1
        where = ""
        if name == "bright":
            where = " in its open hand" if pos < 2 else " in its hidden hand"
        err = expect_replay_error(
            obj,
            f"plays[{i}]",
            f"trick {trick}, seat {seat} played {card} but holds {suit}"
            f"{where} and {suit} were led (plays[{i}])",
        )
        assert err.rule is not None and err.rule.name == "FOLLOW_SUIT"


@pytest.mark.parametrize("name", MAIN)
def test_play_out_of_turn(name: str) -> None:
    hand, _ = finished(name)
    size = TRICK_SIZE[kind(hand.rules)]
    checked = 0
    for i in range(len(hand.tricks) * size - 1):
        (s1, p1), (s2, _) = seat_and_position(hand, i), seat_and_position(hand, i + 1)
        if p1 == size - 1 or hand.lopaka in (s1, s2) or s1 == s2:
            continue
        obj = fresh(name)
        obj["plays"][i], obj["plays"][i + 1] = obj["plays"][i + 1], obj["plays"][i]
        card = obj["plays"][i]
        expect_replay_error(
            obj,
            f"plays[{i}]",
            f"trick {i // size + 1}, seat {s1} is to play but {card} is held "
            f"by seat {s2}: a play out of turn (plays[{i}])",
        )
        checked += 1
    assert checked >= 5


def test_play_of_lopakas_card_out_of_turn() -> None:
    hand, obj = finished("lopaka")
    i = next(
        i
        for i in range(33)
        if seat_and_position(hand, i)[0] != hand.lopaka
        and prefix_state(obj, i).holdings[hand.lopaka]
    )
    before = prefix_state(obj, i)
    card = DECK.cards_of(before.holdings[hand.lopaka])[0].ascii
    seat, _ = seat_and_position(hand, i)
    obj["plays"][i] = card
    expect_replay_error(
        obj,
        f"plays[{i}]",
        f"trick {i // 3 + 1}, seat {seat} is to play but {card} is held by "
        f"seat {hand.lopaka}: a play out of turn (plays[{i}])",
    )


@pytest.mark.parametrize("name", MAIN)
def test_card_played_twice(name: str) -> None:
    hand, _ = finished(name)
    size = TRICK_SIZE[kind(hand.rules)]
    j = next(j for j in range(size * 3, size * 6) if seat_and_position(hand, j)[0] != hand.lopaka)
    obj = fresh(name)
    obj["plays"][j] = obj["plays"][1]
    seat, _ = seat_and_position(hand, j)
    expect_replay_error(
        obj,
        f"plays[{j}]",
        f"trick {j // size + 1}, seat {seat} played {obj['plays'][1]} but it "
        f"was already played in trick 1 (plays[{j}])",
    )


def test_play_of_a_pile_card() -> None:
    hand, _ = finished("3p")
    obj = fresh("3p")
    seat, _ = seat_and_position(hand, 0)
    obj["plays"][0] = obj["pile"][2]
    expect_replay_error(
        obj,
        "plays[0]",
        f"trick 1, seat {seat} played {obj['pile'][2]} but seat 2 put it into the pile (plays[0])",
    )


def test_bright_play_from_the_hidden_hand_when_the_open_is_due() -> None:
    hand, obj = finished("bright")
    i = 8  # trick 3, the leader plays from the open hand
    seat, _ = seat_and_position(hand, i)
    before = prefix_state(obj, i)
    hidden = 2 * seat + 1 - hand.open_hand[seat]
    card = DECK.cards_of(before.holdings[hidden])[0].ascii
    obj["plays"][i] = card
    expect_replay_error(
        obj,
        f"plays[{i}]",
        f"trick 3, seat {seat} must play from its open hand but {card} is "
        f"in its hidden hand (plays[{i}])",
    )


def lopaka_indices(name: str = "lopaka") -> list[int]:
    hand, _ = finished(name)
    return [i for i in range(33) if seat_and_position(hand, i)[0] == hand.lopaka]


def test_lopaka_play_that_is_not_his_policys_card() -> None:
    hand, _ = finished("lopaka")
    for i in lopaka_indices()[:4]:
        obj = fresh("lopaka")
        policy = obj["plays"][i]
        other = next(c for c in obj["deal"][hand.lopaka] if c != policy)
        obj["plays"][i] = other
        expect_replay_error(
            obj,
            f"plays[{i}]",
            f"trick {i // 3 + 1}, seat {hand.lopaka} (Lopaka) played {other} "
            f"but his policy plays {policy} (plays[{i}])",
        )


def test_lopakas_card_left_out() -> None:
    i = lopaka_indices()[2]
    obj = fresh("lopaka")
    hand, _ = finished("lopaka")
    skipped = obj["plays"].pop(i)
    following = obj["plays"][i]
    expect_replay_error(
        obj,
        f"plays[{i}]",
        f"trick {i // 3 + 1}, seat {hand.lopaka} (Lopaka) played {following} "
        f"but his policy plays {skipped} (plays[{i}])",
    )


def test_lopakas_last_card_left_out() -> None:
    for seed in range(1, 40):
        hand, obj = finished("lopaka", seed)
        if hand.tricks[-1].plays[-1][0] == hand.lopaka:
            break
    else:
        pytest.fail("no sample hand where Lopaka plays the last card")
    obj = copy.deepcopy(obj)
    last = obj["plays"].pop()
    expect_replay_error(
        obj,
        "plays",
        f"plays: the record ends after 32 plays, without the {last} seat "
        f"{hand.lopaka} (Lopaka) played in trick 11; a complete hand has 33",
    )


@pytest.mark.parametrize("name", MAIN)
def test_too_few_plays(name: str) -> None:
    hand, _ = finished(name)
    total = TRICK_SIZE[kind(hand.rules)] * TRICKS[kind(hand.rules)]
    obj = fresh(name)
    keep = total - 2 if hand.tricks[-1].plays[-2][0] != hand.lopaka else total - 3
    obj["plays"] = obj["plays"][:keep]
    seat, _ = seat_and_position(hand, keep)
    expect_replay_error(
        obj,
        "plays",
        f"plays: the record ends after {keep} plays, in trick "
        f"{TRICKS[kind(hand.rules)]} with seat {seat} to play; a complete hand "
        f"has {total}",
    )


@pytest.mark.parametrize("name", MAIN)
def test_too_many_plays(name: str) -> None:
    hand, _ = finished(name)
    total = TRICK_SIZE[kind(hand.rules)] * TRICKS[kind(hand.rules)]
    obj = fresh(name)
    obj["plays"].append(obj["plays"][0])
    expect_replay_error(
        obj,
        f"plays[{total}]",
        f"plays[{total}]: {obj['plays'][0]} is one play too many, the "
        f"hand is over after {total} plays",
    )


def test_first_illegal_step_wins() -> None:
    name = "3p"
    i, card, _ = revoke_candidates(name)[0]
    obj = fresh(name)
    obj["plays"][i] = card
    obj["plays"].append("AD")  # also one too many, later
    obj["plays"][-3] = obj["plays"][0]  # also a card twice, later
    with pytest.raises(ReplayError) as err:
        replay_json(obj)
    assert err.value.step == f"plays[{i}]"


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(MAIN),
    seed=st.integers(1, 4),
    i=st.integers(0, 35),
    card=st.sampled_from([c.ascii for c in DECK.cards]),
)
def test_any_replaced_play_fails_there_or_later(name: str, seed: int, i: int, card: str) -> None:
    """Replacing one play: a card the engine would refuse at that point is named
    at exactly that step; a card it allows can only fail later (or be legal)."""
    hand, original = finished(name, seed)
    i %= len(original["plays"])
    obj = copy.deepcopy(original)
    obj["plays"][i] = card
    before = prefix_state(obj, i)
    played = sum(len(t.plays) for t in before.tricks) + len(before.trick)
    if played > i:  # Lopaka's turn: the engine played his card already
        legal = {original["plays"][i]}
    else:
        legal = {c.ascii for c in DECK.cards_of(before.legal_play_mask())}
    try:
        result = replay_json(obj)
    except ReplayError as err:
        step = int(err.step[6:-1]) if err.step.startswith("plays[") else len(obj["plays"])
        if card in legal:
            assert step > i
        else:
            assert step == i, str(err)
    else:
        assert card in legal
        assert len(result.tricks) == len(hand.tricks)


@pytest.mark.parametrize("name", MAIN)
def test_replay_hand_emits_the_events_of_the_hand(name: str) -> None:
    """A table rebuilt from a record tells its clients what the original told them."""
    rules = CONFIGS[name]
    original: list = []
    deal, undealt = random_deal(rules, random.Random(5))
    hand = play_out(Hand(rules, 1, deal, undealt, original.append), random.Random(5))
    rebuilt: list = []
    replay_hand(record_of(hand), emit=rebuilt.append)
    # simultaneous choices may come in another order; everything else in the same order
    assert Counter(rebuilt) == Counter(original)
    in_play = (CardPlayed, TrickWon)
    assert [e for e in rebuilt if isinstance(e, in_play)] == [
        e for e in original if isinstance(e, in_play)
    ]


def test_engine_hand_refuses_a_dealer_that_is_not_a_seat() -> None:
    deal, undealt = random_deal(Rules(3), random.Random(1))
    with pytest.raises(ValueError):
        Hand(Rules(3), 7, deal, undealt)
