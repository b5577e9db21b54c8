"""Every worked example of the rule text (seeds/cursed-bottle-rules-en.txt) as a test.

Each example is laid out as a play-phase position with `Hand.at_position`
and then played with `Play` actions, so the engine's own validation (turn,
follow suit, cards held) checks the example's plays as well.  The two trick
examples cannot come from one hand (Carla is void in hearts in the first and
plays the J♥ in the second, RULES.md), so each starts from its own state.
Seats: Anna 0, Ben 1, Carla 2, Dan 3 (clockwise).
"""

from __future__ import annotations

import pytest
from conftest import assert_every_card_once, card, cards, mask, points
from cursedbottle.engine.actions import Play
from cursedbottle.engine.events import Phase, TrickWon
from cursedbottle.engine.hand import Hand
from cursedbottle.engine.rules import Rules
from cursedbottle.engine.tricks import lopaka_card, trick_winner

ANNA, BEN, CARLA, DAN = range(4)
JOKER_PRICE = 18


def _hand(rules, holdings, pile, price, owner, taken, leader, lopaka=None):
    hand = Hand.at_position(
        rules,
        [cards(h) for h in holdings],
        cards(pile),
        None if price is None else card(price),
        owner,
        [cards(t) for t in taken],
        leader,
        [],
        lopaka=lopaka,
    )
    log: list = []
    hand._emit = log.append  # capture TrickWon (at_position emits nothing by default)
    return hand, log


def _taken(hand, seat):
    return set(hand.deck.cards_of(hand.taken[seat]))


# ------------------------------------------------------------ trick example 1


def _example_one():
    # Price: the joker.  Carla holds no hearts.  All 36 cards are placed.
    return _hand(
        Rules(4),
        holdings=[
            "9H 2D 8D JD 3S 4S 7S 10S",  # Anna
            "AH 5H 7H 3D 4D 6D QD 9S",  # Ben
            "AD 5D AS 2S 5S 6S 8S JS",  # Carla: no hearts
            "2H 3H 4H 6H 8H 10H JH QH",  # Dan
        ],
        pile="7D 9D 10D QS",
        price=None,
        owner=None,
        taken=["", "", "", ""],
        leader=ANNA,
    )


def test_trick_example_1_carla_buys_with_the_6s():
    hand, log = _example_one()
    assert_every_card_once(hand)
    assert hand.to_act() == (ANNA,)
    hand.apply(Play(ANNA, card("9H")))
    # Ben holds hearts and must follow; Carla has none and may play anything.
    assert {a.card for a in hand.legal_actions()} == set(cards("AH 5H 7H"))
    hand.apply(Play(BEN, card("5H")))
    assert {a.card for a in hand.legal_actions()} == set(cards("AD 5D AS 2S 5S 6S 8S JS"))
    hand.apply(Play(CARLA, card("6S")))
    hand.apply(Play(DAN, card("QH")))

    (trick,) = hand.tricks
    assert trick.cards == tuple(cards("9H 5H 6S QH"))
    # "The 5♥ and the 6♠ are below 6½; the 6♠ is higher, so Carla wins the trick and the bottle."
    assert trick.winner == CARLA
    assert trick.bought is True
    assert trick.price_before is None
    assert trick.price_after == card("6S")
    # "She lays the 6♠ in front of her with the bottle on it – the price is now 6♠"
    assert hand.owner == CARLA
    assert hand.price_card == card("6S").index
    # "– and takes the 9♥, 5♥ and Q♥ as her trick."
    assert _taken(hand, CARLA) == set(cards("9H 5H QH"))
    assert _taken(hand, ANNA) == _taken(hand, BEN) == _taken(hand, DAN) == set()
    # the price joker stays in the middle: nothing goes back to anyone
    (won,) = [e for e in log if isinstance(e, TrickWon)]
    assert won.returned is None and won.returned_to is None
    assert won.owner == CARLA and won.price == card("6S") and won.winner == CARLA
    # "Whoever won the trick leads the next one."
    assert hand.to_act() == (CARLA,)
    assert_every_card_once(hand)


# ------------------------------------------------------------ trick example 2


def _example_two():
    # "Later": the price is the 6♠, Carla owns the bottle.  Her 6♠ bought an
    # earlier diamond trick (she is void in diamonds here), which she took.
    return _hand(
        Rules(4),
        holdings=[
            "2H 7H AD 3D 4S 10S QS",  # Anna
            "10H AH 4H 2D 6D 8S 9S",  # Ben
            "JH QH 5H AS 2S 3S 5S",  # Carla
            "3H 6H 8H 4D 7D 7S JS",  # Dan
        ],
        pile="9H 8D 10D JD",
        price="6S",
        owner=CARLA,
        taken=["", "", "9D 5D QD", ""],
        leader=DAN,
    )


def test_trick_example_2_dan_buys_and_carla_gets_her_6s_back():
    hand, log = _example_two()
    assert_every_card_once(hand)
    assert hand.to_act() == (DAN,)
    hand.apply(Play(DAN, card("3H")))
    hand.apply(Play(ANNA, card("2H")))
    hand.apply(Play(BEN, card("10H")))
    hand.apply(Play(CARLA, card("JH")))

    (trick,) = hand.tricks
    assert trick.leader == DAN
    assert trick.plays == ((DAN, card("3H")), (ANNA, card("2H")), (BEN, card("10H")),
                           (CARLA, card("JH")))
    # "The 3♥ and 2♥ are below 6♠, and the 3♥ is higher: Dan buys the bottle,
    # and the 3♥ is the new price."
    assert trick.winner == DAN and trick.bought is True
    assert trick.price_before == card("6S") and trick.price_after == card("3H")
    assert hand.owner == DAN and hand.price_card == card("3H").index
    # "Carla gets her old price card, the 6♠, back into her tricks,"
    assert _taken(hand, CARLA) == set(cards("9D 5D QD 6S"))
    # "and Dan takes the 2♥, 10♥ and J♥."
    assert _taken(hand, DAN) == set(cards("2H 10H JH"))
    assert _taken(hand, ANNA) == _taken(hand, BEN) == set()
    (won,) = [e for e in log if isinstance(e, TrickWon)]
    assert won.returned == card("6S") and won.returned_to == CARLA
    assert won.price == card("3H") and won.owner == DAN
    assert hand.to_act() == (DAN,)
    assert_every_card_once(hand)


def test_buying_from_yourself_returns_the_old_price_card_to_your_own_tricks():
    # Same state as example 2, but Carla undercuts her own price with the 5♠.
    hand, log = _hand(
        Rules(4),
        holdings=[
            "2H 7H AD 3D 4S 10S QS",
            "10H AH 4H 2D 6D 8S 9S",
            "JH QH 5H AS 2S 3S 5S",
            "3H 6H 8H 4D 7D 7S JS",
        ],
        pile="9H 8D 10D JD",
        price="6S",
        owner=CARLA,
        taken=["", "", "9D 5D QD", ""],
        leader=DAN,
    )
    for seat, c in ((DAN, "7S"), (ANNA, "10S"), (BEN, "9S"), (CARLA, "5S")):
        hand.apply(Play(seat, card(c)))
    (trick,) = hand.tricks
    assert trick.winner == CARLA and trick.bought
    assert hand.owner == CARLA and hand.price_card == card("5S").index
    assert _taken(hand, CARLA) == set(cards("9D 5D QD 6S 7S 10S 9S"))
    (won,) = [e for e in log if isinstance(e, TrickWon)]
    assert won.returned == card("6S") and won.returned_to == CARLA
    assert_every_card_once(hand)


def test_no_card_below_the_price_highest_card_of_any_suit_wins():
    # "the highest card in the trick wins – whatever its suit, even if it didn't follow suit."
    hand, _ = _example_one()
    for seat, c in ((ANNA, "9H"), (BEN, "7H"), (CARLA, "JS"), (DAN, "10H")):
        hand.apply(Play(seat, card(c)))
    (trick,) = hand.tricks
    assert trick.winner == CARLA and not trick.bought
    assert hand.owner is None and hand.price_card is None
    assert _taken(hand, CARLA) == set(cards("9H 7H JS 10H"))


# ------------------------------------------------------------ scoring example


def _scoring_position(rules, owner="Dan"):
    # Last trick to play; Dan owns the bottle at the A♦ (nobody can undercut it).
    # pile 8♠ Q♦ 2♥ 10♦ = 9 points.
    taken = [
        "AH AS 2D 2S 3D 3H 3S",  # Anna: 7 points
        "4D 4H 4S 5D 5H 5S 6D 6H",  # Ben: 13
        "6S 7D 7H 8D 8H 9D",  # Carla: 12
        "9H 10H 10S JD JH QH",  # Dan: 17
    ]
    price, owner_seat = ("AD", DAN) if owner == "Dan" else (None, None)
    if owner_seat is None:
        taken[CARLA] += " AD"  # the A♦ was won in a trick instead
    return _hand(
        rules,
        holdings=["QS", "JS", "9S", "7S"],
        pile="8S QD 2H 10D",
        price=price,
        owner=owner_seat,
        taken=taken,
        leader=ANNA,
    )


def _play_last_trick(hand):
    for seat, c in ((ANNA, "QS"), (BEN, "JS"), (CARLA, "9S"), (DAN, "7S")):
        hand.apply(Play(seat, card(c)))
    assert hand.phase is Phase.OVER and hand.is_over
    assert_every_card_once(hand)


def test_scoring_example_dan_owns_and_scores_minus_9():
    hand, _ = _scoring_position(Rules(4))
    _play_last_trick(hand)
    assert hand.owner == DAN
    assert points(cards("8S QD 2H 10D")) == 9
    assert hand.pile_points() == 9
    # Anna won the last trick (Q♠ J♠ 9♠ 7♠ = 10 points): 7 + 10.
    assert hand.points_taken() == (17, 13, 12, 17)
    # "Dan scores −9. Anna, Ben and Carla score the points in their tricks."
    # His own tricks and the A♦ under the bottle score nothing.
    assert hand.scores() == (17, 13, 12, -9)


def test_scoring_example_with_the_hot_bottle():
    hand, _ = _scoring_position(Rules(4, hot_bottle=True))
    _play_last_trick(hand)
    # Hot bottle: the owner also loses his own tricks: −(9 + 17).
    assert hand.scores() == (17, 13, 12, -26)


@pytest.mark.parametrize("hot", [False, True])
def test_nobody_bought_everybody_scores_their_tricks(hot):
    hand, _ = _scoring_position(Rules(4, hot_bottle=hot), owner=None)
    _play_last_trick(hand)
    assert hand.owner is None
    # Carla has the A♦ too (1 point); the pile counts for nobody.
    assert hand.scores() == (17, 13, 13, 17)
    assert sum(hand.scores()) + 9 == 69


# ------------------------------------------------------------ Lopaka example

LOPAKA_CARDS = "2S 5S 9S JS AH 3H 6H 8H 10H QH"  # "the 2♠, 5♠, 9♠, J♠ and some hearts"


def test_lopaka_example_policy_function():
    deck = Rules(2).deck
    holding = mask(LOPAKA_CARDS)
    trick = [card("10S").index, card("7S").index]
    chosen = lopaka_card(holding, trick, JOKER_PRICE, deck.suit_masks, deck.suit_of)
    assert deck.cards[chosen] == card("JS")
    # "He can win with the 2♠, the 5♠ (both below the price) or the J♠ (higher
    # than the 10♠)": check that reading independently of the policy.
    winners = [
        c for c in cards("2S 5S 9S JS")
        if trick_winner([*trick, c.index], JOKER_PRICE)[0] == 2
    ]
    assert winners == cards("2S 5S JS")


def test_lopaka_example_in_a_hand_lopaka_autoplays():
    # Two players: Anna (seat 0, the dealer), Ben (1), Lopaka (2, at the
    # dealer's right).  A later trick: Anna won the first one, now she leads.
    hand, _ = _hand(
        Rules(2),
        holdings=[
            "10S AD 2D 3D 4D 5D 6D 7D 8D 9D",  # Anna
            "7S AS 3S 4S 2H 4H 5H 7H 9H JH",  # Ben
            LOPAKA_CARDS,  # Lopaka
        ],
        pile="10D JD QD",
        price=None,
        owner=None,
        taken=["6S 8S QS", "", ""],
        leader=ANNA,
        lopaka=2,
    )
    assert hand.lopaka == 2 and hand.dealer == ANNA
    assert_every_card_once(hand)
    hand.apply(Play(ANNA, card("10S")))
    hand.apply(Play(BEN, card("7S")))
    # Lopaka played by himself: the J♠.
    (trick,) = hand.tricks
    assert trick.plays == ((0, card("10S")), (1, card("7S")), (2, card("JS")))
    assert trick.winner == 2 and not trick.bought
    # He won, so he leads the next trick, again by himself: his highest card, the Q♥.
    assert [hand.deck.cards[c] for c in hand.trick] == [card("QH")]
    assert hand.to_act() == (ANNA,)
    assert_every_card_once(hand)


@pytest.mark.parametrize(
    "holding, trick, price, expected, why",
    [
        ("2S 5S 9S JS AH QH", "", None, "QH", "leading: his highest card"),
        ("2S 9S AH QH", "10S QS", None, "2S", "the 2♠ is below 6½ and buys"),
        ("8S 9S AH QH", "10S QS", None, "8S", "cannot win: lowest legal card"),
        ("8S 9S AH QH", "10H JH", None, "QH", "must follow: highest winning heart"),
        ("AD 3D 5D 10D", "4D", None, "5D", "below the price the highest below wins"),
        ("AD 3D 10D", "4D", None, "AD", "no diamond beats the 4♦: lowest"),
        ("AD 3D 10D", "JD", "4H", "3D", "price 4♥: the 3♦ buys, the A♦ too but lower"),
        ("AH 3H 5S", "QD", None, "5S", "void: any card; 5♠ below 6½ wins"),
    ],
)
def test_lopaka_policy_rules(holding, trick, price, expected, why):
    deck = Rules(2).deck
    threshold = JOKER_PRICE if price is None else card(price).index
    got = lopaka_card(
        mask(holding), [c.index for c in cards(trick)], threshold, deck.suit_masks, deck.suit_of
    )
    assert deck.cards[got] == card(expected), why
