"""The deck of RULES.md ("Cards") and the rule text's facts about it.

Every expectation is written out from the rule text: the order
A♦ A♥ A♠ 2♦ … Q♠, the price joker at 6½ with 18 cards below, the point
table (69 in all, 8♠ + Q♦ + 2♥ + 10♦ = 9), the ASCII and symbol notation,
and the German display (Ass, B, D; Karo, Herz, Pik).
"""

from __future__ import annotations

import pytest
from conftest import DECK_POINTS, JOKER_THRESHOLD, RANK_POINTS, RANKS, SUITS, card, cards, mask
from cursedbottle.engine.cards import CURSED_BOTTLE, JOKER, Suit
from cursedbottle.engine.tricks import trick_winner

DECK = CURSED_BOTTLE

ORDER_TEXT = (
    "AD AH AS 2D 2H 2S 3D 3H 3S 4D 4H 4S 5D 5H 5S 6D 6H 6S "
    "7D 7H 7S 8D 8H 8S 9D 9H 9S 10D 10H 10S JD JH JS QD QH QS"
)


def test_36_cards_no_clubs_no_kings():
    assert len(DECK) == 36
    assert len(DECK.cards) == 36
    assert {c.suit for c in DECK.cards} == {Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES}
    assert {c.rank for c in DECK.cards} == set(RANKS)
    assert len({(c.rank, c.suit) for c in DECK.cards}) == 36
    for bad in ("KS", "KH", "KD", "AC", "10C", "QC", "A♣", "K♠"):
        with pytest.raises(ValueError):
            DECK.card(bad)


def test_total_order_is_rank_first_then_suit():
    assert [c.ascii for c in DECK.cards] == ORDER_TEXT.split()
    assert [c.index for c in DECK.cards] == list(range(36))
    # the text: "the order runs A♦ A♥ A♠ 2♦ 2♥ 2♠ 3♦ … Q♦ Q♥ Q♠"
    assert [c.display() for c in DECK.cards[:7]] == ["A♦", "A♥", "A♠", "2♦", "2♥", "2♠", "3♦"]
    assert [c.display() for c in DECK.cards[-3:]] == ["Q♦", "Q♥", "Q♠"]
    assert DECK.cards[0] == card("AD") and DECK.cards[35] == card("QS")


def test_order_facts_of_the_rule_text():
    # "The 7♦ is higher than the 6♠, and the 5♥ is higher than the 5♦."
    assert card("7D") > card("6S")
    assert card("5H") > card("5D")
    assert not card("6S") > card("7D")
    assert card("5D") < card("5H") <= card("5H")
    assert sorted(cards("QS 7D AD 6S 5H 5D")) == cards("AD 5D 5H 6S 7D QS")
    # suit breaks ties only within a rank: the 2♠ is still below the 3♦
    assert card("2S") < card("3D")


def test_price_joker_counts_six_and_a_half():
    assert DECK.joker_position == JOKER_THRESHOLD == 18
    below = [c for c in DECK.cards if c.index < DECK.joker_position]
    above = [c for c in DECK.cards if c.index >= DECK.joker_position]
    assert len(below) == 18 and len(above) == 18
    assert {c.rank for c in below} == {"A", "2", "3", "4", "5", "6"}
    assert max(below) == card("6S") and min(above) == card("7D")
    # as a price: 6♠ buys against the joker, 7♦ does not
    assert trick_winner([card("6S").index], 18) == (0, True)
    assert trick_winner([card("7D").index], 18) == (0, False)


def test_point_table_and_total():
    for c in DECK.cards:
        assert c.points == RANK_POINTS[c.rank], c
        assert DECK.points[c.index] == RANK_POINTS[c.rank]
    assert sum(c.points for c in DECK.cards) == DECK_POINTS == 69
    assert DECK.points_of(DECK.full_mask) == 69


def test_point_example_of_the_rule_text():
    # "The bottle's pile holds the 8♠, Q♦, 2♥ and 10♦: 2 + 3 + 1 + 3 = 9 points."
    assert [c.points for c in cards("8S QD 2H 10D")] == [2, 3, 1, 3]
    assert DECK.points_of(mask("8S QD 2H 10D")) == 9


@pytest.mark.parametrize(
    "text, expected",
    [
        ("AD", "AD"), ("10H", "10H"), ("TH", "10H"), ("10♥", "10H"), ("T♥", "10H"),
        ("th", "10H"), ("10h", "10H"), (" QS ", "QS"), ("Q♠", "QS"), ("a♦", "AD"),
        ("JS", "JS"), ("9D", "9D"), ("2♥", "2H"), ("TS", "10S"), ("TD", "10D"),
    ],
)
def test_notation_parsing(text, expected):
    c = DECK.card(text)
    assert c.ascii == expected
    assert str(c) == expected
    assert c.index == ORDER_TEXT.split().index(expected)


@pytest.mark.parametrize("text", ["", "1H", "11H", "10", "H", "JOKER", "joker", "T", "QQ", "AX"])
def test_notation_rejects_non_cards(text):
    with pytest.raises(ValueError):
        DECK.card(text)


def test_notation_round_trips_for_every_card():
    for c in DECK.cards:
        assert DECK.card(c.ascii) is c
        assert DECK.card(c.display()) is c
        assert DECK.card(c.ascii.lower()) is c


def test_joker_notation():
    assert JOKER == "JOKER"
    assert DECK.price_name(None) == "JOKER"
    assert DECK.price_name(card("3H")) == "3H"


def test_display():
    """The engine's words are English; the client has its own German."""
    assert card("JS").display() == "J♠" and card("QD").display() == "Q♦"
    assert card("AH").display() == "A♥" and card("10H").display() == "10♥"
    assert [s.display() for s in DECK.suits] == ["diamonds", "hearts", "spades"]


def test_suits_and_masks():
    assert DECK.suits == (Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
    for i, (s, letter) in enumerate(zip(DECK.suits, SUITS, strict=True)):
        assert s.letter == letter
        members = DECK.cards_of(DECK.suit_masks[i])
        assert len(members) == 12
        assert all(c.suit == s for c in members)
    assert DECK.mask_of(DECK.cards_of(mask("9H 5H QH"))) == mask("9H 5H QH")
    assert DECK.cards_of(mask("QH 5H 9H")) == cards("5H 9H QH")
