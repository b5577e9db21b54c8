"""Devil's Eye, the Bottle Imp for two (seeds/bottle-imp-original-overview.txt):
the deal of 6 and 12, the Devil's Trick and the passes from the second hand,
the open first hands, four-card tricks with a free choice of hand, and the
seed's example of following suit per hand.  The random-game properties, the
secrecy checks and the solver's differential test run over it too (CONFIGS)."""

from __future__ import annotations

import json
import random

import pytest
from conftest import fingerprint
from cursedbottle.engine.actions import PassCard, PileCard, Play
from cursedbottle.engine.cards import BOTTLE_IMP, Card
from cursedbottle.engine.errors import IllegalAction, Rule
from cursedbottle.engine.events import CardPassed, OpenHandRevealed, Phase
from cursedbottle.engine.hand import Hand, random_deal
from cursedbottle.engine.position import Position, PositionError
from cursedbottle.engine.records import HandRecord, ReplayError, record_of, replay
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.engine.view import observe
from cursedbottle.solver import solve
from cursedbottle.solver.reference import reference_solve

RULES = Rules(2, edition=Edition.BOTTLE_IMP)
FIRST, SECOND = 0, 1


def c(text: str) -> Card:
    return BOTTLE_IMP.card(text)


def cs(text: str) -> list[Card]:
    return [c(t) for t in text.split()]


def dealt_hand(seed: int = 1, dealer: int = 0, events: list | None = None) -> Hand:
    deal, undealt = random_deal(RULES, random.Random(seed), dealer)
    return Hand(RULES, dealer, deal, undealt, emit=None if events is None else events.append)


def held(hand: Hand, seat: int, which: int) -> list[Card]:
    return hand.deck.cards_of(hand.holdings[2 * seat + which])


def setup(hand: Hand, passes: dict[int, tuple[Card, Card]] | None = None) -> None:
    """Lay the two lowest second-hand cards of each seat into the pile, then pass
    the next two (for the opponent's first hand, then for its second)."""
    for seat in (0, 1):
        for card in held(hand, seat, SECOND)[:2]:
            hand.apply(PileCard(seat, card))
    for stage in (0, 1):
        for seat in (0, 1):
            card = (passes or {}).get(seat, held(hand, seat, SECOND)[:2])[stage]
            hand.apply(PassCard(seat, 1 - seat, card))


# ------------------------------------------------------------------- the deal


def test_two_players_play_devils_eye_with_the_36_basic_cards():
    assert RULES.devils_eye and RULES.two_hands and not RULES.lopaka
    assert len(RULES.deck) == 36 and RULES.seats == 2 and RULES.holders == 4
    assert RULES.deal_sizes(0) == (6, 12, 6, 12)
    assert (RULES.pile_size, RULES.tricks) == (4, 8)
    hand = dealt_hand()
    assert [m.bit_count() for m in hand.holdings] == [6, 12, 6, 12]
    assert sum(hand.holdings) == hand.deck.full_mask  # every card dealt, none twice


def test_the_devils_trick_takes_two_cards_of_the_second_hand_from_each():
    hand = dealt_hand()
    first = held(hand, 0, FIRST)[0]
    before = fingerprint(hand)
    with pytest.raises(IllegalAction) as info:
        hand.apply(PileCard(0, first))
    assert info.value.rule is Rule.CARD_NOT_HELD and "in hand 2" in str(info.value)
    assert fingerprint(hand) == before
    a, b, extra = held(hand, 0, SECOND)[:3]
    hand.apply(PileCard(0, a))
    assert hand.to_act() == (0, 1)  # a second card is still due from both
    hand.apply(PileCard(0, b))
    with pytest.raises(IllegalAction) as info:
        hand.apply(PileCard(0, extra))
    assert info.value.rule is Rule.ALREADY_CHOSEN
    assert hand.to_act() == (1,)


def test_the_passes_go_to_the_opponents_first_and_second_hand_together():
    events: list = []
    hand = dealt_hand(seed=2, events=events)
    for seat in (0, 1):
        for card in held(hand, seat, SECOND)[:2]:
            hand.apply(PileCard(seat, card))
    to_first = {s: held(hand, s, SECOND)[0] for s in (0, 1)}
    to_second = {s: held(hand, s, SECOND)[1] for s in (0, 1)}
    assert (hand.phase, hand.stage_hand, hand.pass_to_hand) == (Phase.PASS, SECOND, FIRST)
    for seat in (0, 1):
        hand.apply(PassCard(seat, 1 - seat, to_first[seat]))
    # Nothing is handed over before the second pass is chosen too.
    assert (hand.phase, hand.pass_to_hand) == (Phase.PASS, SECOND)
    assert [m.bit_count() for m in hand.holdings] == [6, 9, 6, 9]
    assert not [e for e in events if isinstance(e, CardPassed)]
    for seat in (0, 1):
        hand.apply(PassCard(seat, 1 - seat, to_second[seat]))
    assert hand.phase is Phase.PLAY
    assert [m.bit_count() for m in hand.holdings] == [7, 9, 7, 9]
    for seat in (0, 1):
        other = 1 - seat
        assert to_first[seat] in held(hand, other, FIRST)
        assert to_second[seat] in held(hand, other, SECOND)
    passed = [(e.seat, e.to, e.card, e.hand) for e in events if isinstance(e, CardPassed)]
    assert sorted(passed) == sorted(
        [(s, 1 - s, to_first[s], FIRST) for s in (0, 1)]
        + [(s, 1 - s, to_second[s], SECOND) for s in (0, 1)]
    )


def test_the_first_hands_lie_open_once_the_play_begins():
    events: list = []
    hand = dealt_hand(seed=3, events=events)
    setup(hand)
    revealed = [e for e in events if isinstance(e, OpenHandRevealed)]
    assert [(e.seat, e.hand, len(e.cards)) for e in revealed] == [(0, FIRST, 7), (1, FIRST, 7)]
    for seat in (0, 1):
        view = observe(hand, seat)
        other = 1 - seat
        assert view.visible[2 * other] == tuple(held(hand, other, FIRST))
        assert 2 * other + 1 not in view.visible  # the second hand stays hidden
        # the card it passed to the opponent's second hand is known to be there
        assert len(view.known[2 * other + 1]) == 1
        # the opponent's second hand but the card passed there, its two pile cards
        assert len(view.unseen) == 9 - 1 + 2


def test_tricks_are_four_cards_leader_other_leader_other_from_either_hand():
    hand = dealt_hand(seed=4, dealer=1)
    setup(hand)
    assert hand.leader == 0  # the non-dealer leads
    rng = random.Random(4)
    hands_used = set()
    while not hand.is_over:
        seat = hand.to_act()[0]
        hand.apply(rng.choice(hand.legal_actions(seat)))
    for t in hand.tricks:
        other = 1 - t.leader
        assert [s for s, _ in t.plays] == [t.leader, other, t.leader, other]
        hands_used |= {h % 2 for h in t.holders}
    assert len(hand.tricks) == 8 and hands_used == {FIRST, SECOND}


# ------------------------------------------------------ the seed's example


def follow_position(first: str, second: str) -> Hand:
    """Seat 0 has led 30B, two tricks left; seat 1 (to play) holds `first` and
    `second` (four cards together); the cards not named lie in the tricks taken."""
    hands = [cs("2Y 3Y"), cs("5Y"), cs(first), cs(second)]
    pile = cs("1Y 4B 6B 7Y")
    used = {x for h in hands for x in h} | set(pile) | {c("30B")}
    rest = [x for x in BOTTLE_IMP.cards if x not in used]
    return Position.build(
        RULES, hands, pile, None, None, [rest[:12], rest[12:]], leader=0, trick=cs("30B")
    ).to_hand()


def test_the_seeds_example_play_from_hand_one_follow_blue_or_another_colour_from_hand_two():
    """"If you play from hand 1 and must follow blue, you can play a non-blue
    from hand 2 instead": following suit binds only the hand played from."""
    hand = follow_position("25Y 27B", "29R 36R")
    assert {a.card.ascii for a in hand.legal_actions(1)} == {"27B", "29R", "36R"}
    before = fingerprint(hand)
    with pytest.raises(IllegalAction) as info:
        hand.apply(Play(1, c("25Y")))
    assert info.value.rule is Rule.FOLLOW_SUIT
    assert "first hand, which 25Y is in, holds blue" in str(info.value)
    assert fingerprint(hand) == before
    hand.apply(Play(1, c("36R")))  # a red card of hand 2, though hand 1 holds blue
    assert hand.trick_holders == [0, 3]
    assert hand.voids[3] and not hand.voids[2]  # hand 2 showed it has no blue


def test_with_blue_in_both_hands_only_blue_can_be_played():
    hand = follow_position("25Y 27B", "32B 36R")
    assert {a.card.ascii for a in hand.legal_actions(1)} == {"27B", "32B"}
    with pytest.raises(IllegalAction, match="second hand, which 36R is in, holds blue"):
        hand.apply(Play(1, c("36R")))


def test_without_the_led_suit_either_hand_plays_anything():
    hand = follow_position("25Y 28Y", "29R 36R")
    assert {a.card.ascii for a in hand.legal_actions(1)} == {"25Y", "28Y", "29R", "36R"}


# --------------------------------------------------- records and positions


def test_a_devils_eye_record_round_trips_and_replays():
    hand = dealt_hand(seed=5)
    setup(hand)
    rng = random.Random(5)
    while not hand.is_over:
        hand.apply(rng.choice(hand.legal_actions()))
    obj = json.loads(record_of(hand).dumps())
    assert obj["rules"] == {"players": 2, "game": "bottle-imp"}
    assert [len(d) for d in obj["deal"]] == [6, 12, 6, 12]
    assert len(obj["pile"]) == 4 and "open" not in obj
    assert [sorted(p) for p in obj["passes"]] == [["first", "second"]] * 2
    assert len(obj["plays"]) == 32
    assert replay(HandRecord.from_json(obj)).scores == hand.scores()


def test_a_record_that_passes_from_the_first_hand_is_refused_by_name():
    hand = dealt_hand(seed=6)
    setup(hand)
    obj = record_of(hand).to_json()
    obj["passes"][0]["second"] = obj["deal"][0][0]  # a first-hand card
    with pytest.raises(ReplayError) as info:
        replay(HandRecord.from_json(obj))
    assert info.value.step == "passes[0].second"
    assert "from its second hand but does not hold it" in str(info.value)
    obj["passes"] = [{"left": "1Y", "right": "2Y"}] * 2
    with pytest.raises(Exception, match=r"passes\[0\]: unexpected key 'left'"):
        HandRecord.from_json(obj)


def test_positions_count_cards_per_seat_and_solve_like_the_reference():
    hand = dealt_hand(seed=7)
    setup(hand)
    rng = random.Random(7)
    while len(hand.tricks) < 6 or len(hand.trick) < 1:
        hand.apply(rng.choice(hand.legal_actions()))
    pos = Position.from_hand(hand)
    again = Position.from_json(json.loads(json.dumps(pos.to_json())))
    assert again == pos and "open" not in pos.to_json()
    assert pos.tricks_left() == 2
    seat, want, _ = reference_solve(pos.to_hand())
    got = solve(pos)
    assert (got.seat, got.values) == (seat, want)
    # A seat's cards may lie in either hand in any number ...
    moved = pos.to_json()
    moved["hands"][0] += moved["hands"][1]
    moved["hands"][1] = []
    assert Position.from_json(moved).tricks_left() == 2
    # ... but both seats must have the cards of the tricks left.
    bad = pos.to_json()
    bad["hands"][2].append(bad["hands"][1].pop())
    with pytest.raises(PositionError, match="each seat plays two cards a trick"):
        Position.from_json(bad)


def test_a_hint_ranks_the_cards_of_both_hands_from_the_seats_view():
    from cursedbottle.bots.hints import hint

    hand = dealt_hand(seed=8)
    setup(hand)
    rng = random.Random(8)
    while len(hand.tricks) < 5 or len(hand.trick) != 1:
        hand.apply(rng.choice(hand.legal_actions()))
    seat = hand.to_act()[0]
    view = observe(hand, seat)
    h = hint(view, seed=1, budget=None, samples=4)
    assert {line.action for line in h.lines} == set(view.legal_actions)
    values = [line.value for line in h.lines]
    assert values == sorted(values, reverse=True)
    assert all(line.exact and line.samples == 4 for line in h.lines)  # 12 cards: exact
    # The view hides the opponent's second hand: the same view, the same hint.
    assert 2 * (1 - seat) + 1 not in view.visible
    assert hint(view, seed=1, budget=None, samples=4) == h
