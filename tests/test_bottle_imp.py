"""The original Bottle Imp (seeds/bottle-imp-original-*.txt, decks/bottle-imp-original.csv):
the deck as data, every worked example of the seed, and the deal shapes for 3–6
players.  The random-game properties run over these rule sets too
(tests/test_properties.py, CONFIGS)."""

from __future__ import annotations

import json
import random

import pytest
from conftest import COINS, HELL, fingerprint, play_random_game, points
from cursedbottle.engine.actions import PileCard
from cursedbottle.engine.cards import BOTTLE_IMP, BOTTLE_IMP_FULL, Suit
from cursedbottle.engine.errors import IllegalAction, Rule
from cursedbottle.engine.events import HandEnded, Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.hand import Hand
from cursedbottle.engine.records import HandRecord, RecordError, record_of, replay
from cursedbottle.engine.rules import Edition, Rules, RulesError
from cursedbottle.engine.tricks import trick_winner


def imp(players: int, **kw) -> Rules:
    return Rules(players, edition=Edition.BOTTLE_IMP, **kw)


# ------------------------------------------------------------------- the deck


def test_the_basic_deck_is_1_to_37_without_19_in_three_colours():
    numbers = sorted(float(c.rank) for c in BOTTLE_IMP.cards)
    assert numbers == [n for n in range(1, 38) if n != HELL]
    assert BOTTLE_IMP.suits == (Suit.YELLOW, Suit.BLUE, Suit.RED)
    for mask in BOTTLE_IMP.suit_masks:
        cards = BOTTLE_IMP.cards_of(mask)
        assert len(cards) == 12 and sum(c.points for c in cards) == 42  # decks/README.md
    assert sum(BOTTLE_IMP.points) == 126


def test_the_full_deck_adds_the_18_half_numbers():
    halves = [c for c in BOTTLE_IMP_FULL.cards if "." in c.rank]
    assert len(BOTTLE_IMP_FULL) == 54 and len(halves) == 18
    assert sorted(float(c.rank) for c in halves) == [n + 0.5 for n in range(2, 37, 2)]


@pytest.mark.parametrize("deck", [BOTTLE_IMP, BOTTLE_IMP_FULL], ids=lambda d: d.name)
def test_cards_are_ordered_by_number_and_score_their_coins(deck):
    numbers = [float(c.rank) for c in deck.cards]
    assert numbers == sorted(numbers)
    for c in deck.cards:
        assert c.points == COINS[c.ascii], c
    # the Hell card (19) is the starting price: exactly the cards below 19 buy
    below = [c for c in deck.cards if c.index < deck.joker_position]
    assert all(float(c.rank) < HELL for c in below)
    assert len(below) == sum(1 for n in numbers if n < HELL)
    assert deck.joker_name == "19"


def test_cards_are_written_number_then_colour_letter():
    c = BOTTLE_IMP_FULL.card("2.5y")
    assert (c.rank, c.suit, c.ascii) == ("2.5", Suit.YELLOW, "2.5Y")
    assert BOTTLE_IMP.card("37R").points == 6
    with pytest.raises(ValueError, match="1Y, 20B, 37R"):
        BOTTLE_IMP.card("19Y")
    with pytest.raises(ValueError):
        BOTTLE_IMP.card("2.5Y")  # a half number: only in 5–6 player games


# --------------------------------------------------------------- the examples


def _cards(deck, text: str):
    return [deck.card(t) for t in text.split()]


def test_seed_example_the_closest_card_below_the_price_wins_and_buys():
    """Price 19; Adam 24, Betty 15, Christian 17, Doris 32: Christian's 17 is the highest
    card below 19, so he takes the trick and the bottle, and the price becomes 17."""
    deck = BOTTLE_IMP
    trick = [c.index for c in _cards(deck, "24B 15Y 17B 32B")]
    assert trick_winner(trick, deck.joker_position) == (2, True)


def _table_of_four() -> Hand:
    """Four players: Adam (0) leads, Betty (1) has no blue, Christian (2), Doris (3)."""
    rules = imp(4)
    deck = rules.deck
    return Hand.at_position(
        rules,
        holdings=[_cards(deck, h) for h in ("24B 1Y", "15Y 2Y", "17B 3Y", "32B 5Y")],
        pile=_cards(deck, "36R 37R 35R 33R"),
        price_card=None,
        owner=None,
        taken=[[], [], [], []],
        leader=0,
        trick=[],
    )


def _play(hand: Hand, text: str) -> None:
    for c in _cards(hand.deck, text):
        hand.push_unchecked(c.index)


def test_seed_example_in_a_hand_the_buyer_keeps_the_trick_but_not_the_price_card():
    hand = _table_of_four()
    _play(hand, "24B 15Y 17B 32B")
    deck = hand.deck
    done = hand.tricks[-1]
    assert (done.winner, done.bought) == (2, True)
    assert hand.owner == 2 and hand.price_card == deck.card("17B").index
    # "He does not take the 19 card": the winning card becomes the price, the rest is his
    assert deck.cards_of(hand.taken[2]) == _cards(deck, "15Y 24B 32B")
    assert hand.leader == 2  # "Christian will lead the next trick"


def test_seed_example_the_old_price_card_goes_to_the_former_owner_and_the_owner_pays():
    hand = _table_of_four()
    _play(hand, "24B 15Y 17B 32B")  # Christian buys at 17
    _play(hand, "3Y 5Y 1Y 2Y")  # all below 17: Doris' 5 is closest, she buys at 5
    deck = hand.deck
    assert hand.is_over and hand.owner == 3
    assert hand.price_card == deck.card("5Y").index
    # the card that showed the old price (17) goes to its former owner, Christian
    assert deck.cards_of(hand.taken[2]) == _cards(deck, "15Y 17B 24B 32B")
    assert deck.cards_of(hand.taken[3]) == _cards(deck, "1Y 2Y 3Y")
    # coins for the tricks; the owner loses the Devil's Trick instead
    pile = points(_cards(deck, "36R 37R 35R 33R"))
    assert hand.scores() == (0, 0, points(_cards(deck, "15Y 17B 24B 32B")), -pile)
    assert pile == 6 + 6 + 5 + 5


def test_once_the_price_is_below_every_card_left_nobody_can_buy():
    hand = _table_of_four()
    _play(hand, "1Y 2Y 3Y 5Y")  # Doris buys at 5 in the first trick
    assert hand.owner == 3 and hand.price_card == hand.deck.card("5Y").index
    _play(hand, "32B 24B 15Y 17B")  # nothing below 5 is left: the highest card wins
    assert hand.tricks[-1].bought is False and hand.tricks[-1].winner == 3
    assert hand.owner == 3  # stuck with the bottle


# ------------------------------------------------------------ the deal shapes


@pytest.mark.parametrize(
    ("players", "deck", "dealt", "pile", "tricks"),
    [
        (3, 36, (12, 12, 12), 3, 11),
        (4, 36, (9, 9, 9, 9), 4, 8),
        (5, 54, (10, 11, 11, 11, 11), 4, 10),
        (6, 54, (9, 9, 9, 9, 9, 9), 6, 8),
    ],
)
def test_deal_for_each_table_size(players, deck, dealt, pile, tricks):
    """Seed, Setup 3–4: 36 cards, 12 / 9 each; 5–6: all 54, with 5 the dealer gets one
    fewer and does not discard; everyone passes one card to each neighbour."""
    rules = imp(players)
    game = Game(rules, seed=f"deal{players}", first_dealer=0)
    hand = game.hand
    assert len(rules.deck) == deck
    assert tuple(m.bit_count() for m in hand.dealt) == dealt
    assert set(game.to_act()) == set(range(players)) - ({0} if players == 5 else set())
    rng = random.Random(players)
    while hand.phase is not Phase.PLAY:
        game.apply(rng.choice(game.legal_actions()))
    assert len(hand.pile) == pile
    assert len(hand.pass_log) == 2 * players
    assert {m.bit_count() for m in hand.holdings} == {tricks}
    assert hand.leader == 1  # left of the dealer


def test_with_five_the_dealer_lays_no_card_away_and_is_told_why():
    game = Game(imp(5), seed="five", first_dealer=2)
    hand = game.hand
    card = hand.deck.cards_of(hand.holdings[2])[0]
    before = fingerprint(hand)
    with pytest.raises(IllegalAction) as info:
        game.apply(PileCard(2, card))
    assert info.value.rule is Rule.DEALER_KEEPS_CARDS
    assert "seat 2 deals" in str(info.value)
    assert fingerprint(hand) == before


def test_a_game_lets_each_player_deal_twice_unless_told_otherwise():
    assert imp(3).hands == 6 and imp(5).hands == 10
    assert imp(4, target=200).hands is None
    game = play_random_game(imp(5), "twice", random.Random(1))
    ended = [e for e in game.events if isinstance(e, HandEnded)]
    assert len(ended) >= 10 and game.is_over
    dealers = [h.dealer for h in game.hands[:10]]
    assert sorted(dealers) == sorted(list(range(5)) * 2)


def test_cursed_bottle_variants_are_refused_by_name():
    for field in ("hot_bottle", "bright_house"):
        with pytest.raises(RulesError, match=field):
            imp(3, **{field: True})
    with pytest.raises(RulesError, match=r"players: 7 is not 2, 3, 4, 5 or 6 in bottle-imp"):
        imp(7)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_records_of_bottle_imp_hands_round_trip_through_json(players):
    game = play_random_game(imp(players, hands=1), f"rec{players}", random.Random(players))
    hand = game.hands[0]
    record = record_of(hand)
    text = json.dumps(record.to_json())
    again = HandRecord.from_json(json.loads(text))
    assert again == record
    assert json.loads(text)["rules"] == {"players": players, "game": "bottle-imp"}
    assert len(json.loads(text)["pile"]) == players - (players == 5)
    assert list(replay(again).scores) == list(hand.scores())


def test_a_malformed_bottle_imp_record_names_the_field():
    game = play_random_game(imp(5, hands=1), "bad", random.Random(2))
    obj = record_of(game.hands[0]).to_json()
    obj["pile"] = obj["pile"] + [obj["pile"][0]]
    with pytest.raises(RecordError, match=r"pile: 5 cards, a 5-player pile has 4 \(one per seat "
                       r"but the dealer's\)"):
        HandRecord.from_json(obj)
    obj = record_of(game.hands[0]).to_json()
    obj["rules"]["game"] = "bottle-demon"
    with pytest.raises(RecordError, match=r"rules\.game: 'bottle-demon' is not one of"):
        HandRecord.from_json(obj)


# ------------------------------------------------------------------ team mode


def test_team_mode_seats_partners_opposite():
    assert imp(4, teams=True).sides == ((0, 2), (1, 3))
    assert imp(6, teams=True).sides == ((0, 3), (1, 4), (2, 5))
    assert imp(5, teams=True).sides == ((0,), (1, 3), (2, 4))
    assert imp(5).sides == ((0,), (1,), (2,), (3,), (4,))
    # "6 players (3 teams of 2 or 2-2-1-1)": the two alone sit opposite each other.
    assert imp(6, teams=True, singles=True).sides == ((0,), (1, 4), (2, 5), (3,))


def test_team_scoring_follows_the_seed():
    """Teammates add their points and both get the sum (a partner's bottle costs both);
    an individual's points, the bottle's loss included, count double."""
    four = imp(4, teams=True)
    assert four.team_scores((10, -20, 5, 7)) == (15, -13, 15, -13)
    five = imp(5, teams=True)
    assert five.team_scores((-9, 4, 6, 8, 1)) == (-18, 12, 7, 12, 7)
    assert five.team_scores((12, 4, -6, 8, 1)) == (24, 12, -5, 12, -5)
    six = imp(6, teams=True, singles=True)
    assert six.team_scores((3, 4, -9, 5, 6, 2)) == (6, 10, -7, 10, 10, -7)
    assert six.team_scores((3, 4, 1, -9, 6, 2)) == (6, 10, 3, -18, 10, 3)


def test_a_team_hand_scores_the_side_and_the_totals_follow():
    game = play_random_game(imp(4, teams=True, hands=1), "teams", random.Random(4))
    hand = game.hands[0]
    own = hand.own_scores()
    assert hand.scores() == (own[0] + own[2], own[1] + own[3]) * 2
    assert game.totals[0] == game.totals[2] and game.totals[1] == game.totals[3]
    assert game.is_over and game.totals[0] != game.totals[1]  # one side on top


def test_with_five_in_teams_the_individual_always_deals():
    game = play_random_game(imp(5, teams=True, hands=3), "solo", random.Random(5))
    assert [h.dealer for h in game.hands] == [0] * len(game.hands)
    assert all(m.bit_count() == 10 for m in game.hands[0].dealt[:1])


def test_with_two_alone_the_two_individuals_take_turns_to_deal():
    game = play_random_game(imp(6, teams=True, singles=True, hands=4), "2211", random.Random(6))
    dealers = [h.dealer for h in game.hands]
    assert dealers[:4] in ([0, 3, 0, 3], [3, 0, 3, 0])
    hand = game.hands[0]
    own = hand.own_scores()
    assert hand.scores() == (
        2 * own[0], own[1] + own[4], own[2] + own[5], 2 * own[3], own[1] + own[4], own[2] + own[5]
    )


def test_team_mode_is_refused_where_the_seed_has_none():
    with pytest.raises(RulesError, match="singles"):
        imp(4, teams=True, singles=True)
    with pytest.raises(RulesError, match="singles"):
        imp(6, singles=True)
    with pytest.raises(RulesError, match="teams"):
        imp(3, teams=True)
    with pytest.raises(RulesError, match="teams"):
        Rules(4, teams=True)


# -------------------------------------------------------------- the second bottle


def _five_with_two_bottles() -> Hand:
    rules = imp(5, second_bottle=True)
    deck = rules.deck
    return Hand.at_position(
        rules,
        holdings=[
            _cards(deck, h)
            for h in ("24B 1Y 37R", "15Y 2Y 31R", "17B 3Y 32B", "32.5B 5Y 33R", "34B 6B 35R")
        ],
        pile=_cards(deck, "36R 30B 36.5R 34.5B"),
        price_card=None,
        owner=None,
        taken=[[], [], [], [], []],
        leader=0,
        trick=[],
    )


def test_second_bottle_both_start_at_19_and_only_the_dearer_one_is_for_sale():
    hand = _five_with_two_bottles()
    deck = hand.deck
    _play(hand, "24B 15Y 17B 32.5B 34B")  # Christian (2) buys a bottle at 17
    assert hand.tricks[-1].bought and hand.tricks[-1].winner == 2
    # the other bottle still costs 19: it is the one for sale now
    assert hand.bottle_states() == ((None, None), (deck.card("17B"), 2))
    assert hand.price == deck.joker_position
    _play(hand, "3Y 5Y 6B 1Y 2Y")  # leader 2: 6 (seat 4) is the highest below 19
    # seat 4 buys the second bottle at 6; the 17-bottle (dearer) is for sale again
    assert hand.bottle_states() == ((deck.card("17B"), 2), (deck.card("6B"), 4))
    assert hand.price == deck.card("17B").index


def test_second_bottle_each_bottle_costs_its_owner_the_devils_trick():
    hand = _five_with_two_bottles()
    deck = hand.deck
    _play(hand, "24B 15Y 17B 32.5B 34B")  # seat 2 buys at 17
    _play(hand, "3Y 5Y 6B 1Y 2Y")  # seat 4 buys the other bottle at 6
    _play(hand, "35R 37R 31R 32B 33R")  # seat 4 leads; nothing below 17: 37 wins
    assert hand.is_over
    pile = points(_cards(deck, "36R 30B 36.5R 34.5B"))
    scores = hand.scores()
    assert scores[2] == scores[4] == -pile  # each owner pays, its tricks do not count
    assert scores[0] == points(_cards(deck, "35R 37R 31R 32B 33R"))  # no bottle: tricks count
    assert scores[1] == scores[3] == 0

    # one owner of both bottles loses the pile twice
    rules = imp(5, second_bottle=True)
    over = Hand.at_position(
        rules,
        holdings=[[]] * 5,
        pile=_cards(deck, "36R 30B 36.5R 34.5B"),
        price_card=deck.card("17B"),
        owner=2,
        taken=[_cards(deck, "35R"), [], _cards(deck, "37R"), [], []],
        leader=0,
        trick=[],
        shelf=[(deck.card("6B"), 2)],
    )
    assert over.is_over
    assert over.scores() == (points(_cards(deck, "35R")), 0, -2 * pile, 0, 0)


def test_second_bottle_is_for_five_or_six_players_of_the_bottle_imp():
    with pytest.raises(RulesError, match="second_bottle"):
        imp(4, second_bottle=True)
    with pytest.raises(RulesError, match="second_bottle"):
        Rules(3, second_bottle=True)
    assert imp(6, second_bottle=True, teams=True).bottles == 2
