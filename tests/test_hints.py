"""Hints rank every legal action from what the seat may know, and nothing else."""

from __future__ import annotations

import random

import pytest
from cursedbottle.bots import hint
from cursedbottle.bots.hints import Reason, reason
from cursedbottle.engine import Game, Hand, Phase, Play, Rules
from cursedbottle.engine.hand import random_deal


def _play_until(rules: Rules, seed: int, tricks: int, in_trick: int):
    """A hand with its actions, stopped at a play decision."""
    game = Game(rules, seed=seed, first_dealer=0)
    rng = random.Random(seed)
    while not (
        game.hand.phase is Phase.PLAY
        and len(game.hand.tricks) == tricks
        and len(game.hand.trick) == in_trick
    ):
        game.apply(rng.choice(game.legal_actions()))
    return game


def _swap_hidden_cards(game: Game, seat: int) -> Hand:
    """The same hand, replayed from a deal where two other seats' unplayed,
    never-shown cards of one suit changed places: the seat cannot tell."""
    hand = game.hand
    deck = hand.deck
    view = game.view(game.player_at(seat))
    hidden = set(view.unseen)
    others = [h for h in range(len(hand.holdings)) if h not in view.visible]
    for a in others:
        for b in others:
            if a >= b:
                continue
            for ca in deck.cards_of(hand.holdings[a]):
                for cb in deck.cards_of(hand.holdings[b]):
                    if ca.suit == cb.suit and ca in hidden and cb in hidden and ca != cb:
                        deal = [list(deck.cards_of(m)) for m in hand.dealt]
                        if ca not in deal[a] or cb not in deal[b]:
                            continue
                        deal[a][deal[a].index(ca)] = cb
                        deal[b][deal[b].index(cb)] = ca
                        undealt = [deck.cards[c] for c in hand.pile] if hand.rules.lopaka else []
                        twin = Hand(hand.rules, hand.dealer, deal, undealt, number=hand.number)
                        for action in game.hand_actions:
                            twin.apply(action)
                        return twin
    if hand.rules.lopaka:
        # With Lopaka the pile is the undealt cards: swap one with the opponent's.
        deal = [list(deck.cards_of(m)) for m in hand.dealt]
        undealt = [deck.cards[c] for c in hand.pile]
        (opponent,) = others
        for ca in deck.cards_of(hand.holdings[opponent]):
            for cb in undealt:
                if ca in hidden and ca.suit == cb.suit and ca in deal[opponent]:
                    deal[opponent][deal[opponent].index(ca)] = cb
                    undealt[undealt.index(cb)] = ca
                    twin = Hand(hand.rules, hand.dealer, deal, undealt, number=hand.number)
                    for action in game.hand_actions:
                        twin.apply(action)
                    return twin
    raise AssertionError("no two hidden cards of one suit to swap: choose another position")


@pytest.mark.parametrize(
    ("rules", "tricks", "in_trick"),
    [(Rules(3), 8, 1), (Rules(4), 5, 2), (Rules(2), 8, 0), (Rules(3), 2, 0)],
    ids=["3p-endgame", "4p-midgame", "2p-lopaka", "3p-rollouts"],
)
def test_a_hint_does_not_depend_on_cards_the_seat_cannot_see(rules, tricks, in_trick):
    from cursedbottle.engine.view import observe

    game = _play_until(rules, seed=21, tricks=tricks, in_trick=in_trick)
    seat = game.to_act()[0]
    twin = _swap_hidden_cards(game, seat)
    assert twin.holdings != game.hand.holdings  # the hidden cards really differ
    view = game.view(game.player_at(seat))
    twin_view = observe(twin, seat, tuple(game.totals), game.seatings[-1])
    assert twin_view == view
    a = hint(view, seed=5, budget=None, samples=6)
    b = hint(twin_view, seed=5, budget=None, samples=6)
    assert a == b
    assert {line.action for line in a.lines} == set(view.legal_actions)


def test_a_hint_ranks_every_legal_card_best_first_with_reasons():
    game = _play_until(Rules(3), seed=4, tricks=8, in_trick=0)
    view = game.view(game.player_at(game.to_act()[0]))
    h = hint(view, seed=1, budget=None, samples=8)
    values = [line.value for line in h.lines]
    assert values == sorted(values, reverse=True)
    assert all(line.samples == 8 and line.exact for line in h.lines)
    assert all(0.0 <= line.best_rate <= 1.0 for line in h.lines)
    assert max(line.best_rate for line in h.lines) > 0
    assert all(isinstance(line.reason, Reason) for line in h.lines)


def test_a_hint_with_one_legal_card_returns_at_once():
    rules = Rules(3)
    game = Game(rules, seed=0)
    rng = random.Random(0)
    while not game.is_over:
        if game.hand.phase is Phase.PLAY and len(game.legal_actions()) == 1:
            break
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(game.player_at(game.to_act()[0]))
    h = hint(view, seed=0, budget=1000.0)
    assert len(h.lines) == 1 and h.lines[0].samples == 0
    assert str(h.lines[0].reason) == "the only legal choice"


def test_reasons_say_what_a_card_plainly_does():

    # 3 players, the price is the joker; seat 1 leads the 9H, seat 2 to play.
    rules = Rules(3)
    deck = rules.deck
    c = deck.card
    hand = Hand.at_position(
        rules,
        [[c("AD")], [], [c("5H"), c("QH")]],
        [c("2D"), c("3D"), c("4D")],
        None,
        None,
        [[], [], []],
        1,
        [c("9H")],
    )
    # Seat 2 plays, then seat 0: the view of seat 2.
    from cursedbottle.engine.view import observe

    view = observe(hand, 2)
    assert str(reason(view, Play(2, c("5H")))) == (
        "buys the bottle at 5♥, unless a later card in this trick is higher and still below"
        " the price"
    )
    assert reason(view, Play(2, c("5H"))) == Reason("buys_unless", c("5H"))
    # the QH wins for now, but seat 0 plays after it and may still buy: nothing is plain
    assert str(reason(view, Play(2, c("QH")))) == ""


def test_a_deal_helper_is_consistent():
    deal, undealt = random_deal(Rules(2), random.Random(0))
    assert len(undealt) == 3 and all(len(h) == 11 for h in deal)


def _decisions(rules: Rules, seed: int, count: int):
    """`count` play decisions of random games (each a game and the seat to act)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = Game(rules, seed=rng.randrange(1 << 30), first_dealer=0)
        while not game.is_over and len(out) < count:
            if game.hand.phase is Phase.PLAY and rng.random() < 0.3:
                out.append((game, game.to_act()[0]))
                break
            game.apply(rng.choice(game.legal_actions()))
    return out


#: Words a beginner would not understand (the old reasons used them).
JARGON = ("shed", "dump", "safely", "undercut")


@pytest.mark.parametrize("rules", [Rules(3), Rules(4), Rules(2)], ids=["3p", "4p", "2p-lopaka"])
def test_every_reason_is_plainly_true_or_absent(rules):
    """Each card's reason against what then happens: the card is played and the trick
    finished in every way the others may (randomly, many times)."""
    rng = random.Random(3)
    kinds = set()
    for game, seat in _decisions(rules, seed=11, count=120):
        view = game.view(game.player_at(seat))
        for action in view.legal_actions:
            why = reason(view, action)
            kinds.add(why.kind)
            text = str(why)
            assert not any(word in text for word in JARGON), text
            outcomes = set()  # (the seat takes the trick, the trick buys the bottle)
            for _ in range(6):
                hand = game.hand.copy()
                hand.apply(action)
                while len(hand.tricks) == len(game.hand.tricks) and not hand.is_over:
                    (s,) = hand.to_act()
                    hand.apply(rng.choice(hand.legal_actions(s)))
                last = hand.tricks[-1]
                outcomes.add((last.winner == seat, last.bought))
                if why.kind.startswith("takes"):
                    assert why.points == sum(c.points for _, c in last.plays)
            if why.kind.startswith("takes"):
                assert outcomes == {(True, False)}, text
                # The points count for the seat unless it holds the bottle.
                owns = seat == game.hand.owner
                hot = rules.hot_bottle
                owned = "takes_hot" if hot else "takes_owned"
                assert why.kind == (owned if owns else "takes"), text
            if why.kind == "buys":
                assert outcomes == {(True, True)}, text
            if why.kind == "buys_unless":  # bought by the seat, or by a later card
                assert all(bought for _, bought in outcomes), (text, outcomes)
            if why.kind in ("loses", "loses_free"):
                assert not any(took for took, _ in outcomes), (text, outcomes)
                assert (why.kind == "loses") == (action.card.points > 0)
    assert {"loses", ""} <= kinds and kinds & {"takes", "buys", "buys_unless"}, kinds


def test_the_owner_is_told_its_trick_points_do_not_count():
    """A trick the bottle's owner takes brings it points that count for nothing
    (the hot bottle: against it) while it holds the bottle; the reason says so."""
    for rules, kind in ((Rules(3), "takes_owned"), (Rules(3, hot_bottle=True), "takes_hot")):
        found = False
        for game, seat in _decisions(rules, seed=5, count=400):
            view = game.view(game.player_at(seat))
            if view.owner != seat or len(view.trick) != len(view.trick_order) - 1:
                continue
            for action in view.legal_actions:
                why = reason(view, action)
                assert why.kind != "takes", str(why)
                found |= why.kind == kind
            if found:
                break
        assert found, f"no owner taking a last-card trick in 400 decisions ({rules})"


def test_shares_add_up_and_close_lines_are_marked():
    game = _play_until(Rules(3), seed=4, tricks=8, in_trick=0)
    view = game.view(game.player_at(game.to_act()[0]))
    h = hint(view, seed=1, budget=None, samples=8)
    assert abs(sum(line.best_rate for line in h.lines) - 1.0) < 1e-9
    assert h.lines[0].close
    # Eight guesses from the weighed pool: the different deals among them.
    assert h.basis.kind == "exact" and 1 <= h.basis.deals <= 8
    assert h.basis.model in ("paranoid", "maxn")
    assert f"averaged over {h.basis.deals} deal" in h.basis.meaning
    assert "with all cards face up" in h.basis.meaning
    # one guessed deal cannot tell any two lines apart
    one = hint(view, seed=1, budget=None, samples=1)
    assert all(line.close for line in one.lines)


def test_the_deals_a_hint_names_are_the_different_ones_it_guessed():
    """With the others' plays to weigh them by, the strong bot's guesses come
    from a pool of candidates, drawn again and again until the budget ends:
    the hint names the different deals (at most the pool), not the draws."""
    from cursedbottle.bots.strong_bot import BUDGET_CANDIDATES

    # (Three players: the strong bot would solve this exactly; a hint keeps to
    # the measured thresholds, bots/hints.py.)
    game = _play_until(Rules(3), seed=4, tricks=2, in_trick=2)
    view = game.view(game.player_at(game.to_act()[0]))
    h = hint(view, seed=1, budget=0.5)
    assert h.basis.kind == "rollouts"
    assert 1 <= h.basis.deals <= min(BUDGET_CANDIDATES, h.lines[0].samples)
    assert f"averaged over {h.basis.deals} deal" in h.basis.meaning


def test_the_meaning_follows_what_was_computed():
    early = _play_until(Rules(3), seed=4, tricks=1, in_trick=0)
    view = early.view(early.player_at(early.to_act()[0]))
    h = hint(view, seed=1, budget=None, samples=5)
    assert h.basis.kind == "rollouts" and not any(line.exact for line in h.lines)
    assert 1 <= h.basis.deals <= 5
    assert h.basis.meaning.startswith(
        "Points: what you score this hand if everyone then plays by simple rules of thumb,"
        f" averaged over {h.basis.deals} deal"
    )
    game = Game(Rules(3), seed=2, first_dealer=0)
    view = game.view(game.player_at(game.to_act()[0]))
    assert view.phase is Phase.PILE
    h = hint(view, seed=1, budget=None, samples=3)
    assert h.basis.kind == "setup" and "pile and pass by the tips" in h.basis.meaning
    assert {line.reason.kind for line in h.lines} == {"pile"}
    assert str(h.lines[0].reason).endswith("into the bottle's pile")


def test_the_hint_over_the_wire_says_what_it_computed():
    """A real server's Hint for the first seat at the pile: the basis and its sentence,
    shares that add up, the best line marked close to itself, reasons as data and in
    English, all agreeing with the engine asked directly with the same seed."""
    from cursedbottle.server.hints import compute_hint
    from cursedbottle.v1 import table_pb2
    from test_server_support import create, rules, run, seat_humans, serving, table_of

    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1), seed="wire-hint")
            seats = await seat_humans(stub, table_id, 3)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            reply = await stub.Hint(table_pb2.HintRequest(
                table_id=table_id, token=seats[0].token, seed=3, budget_ms=300))
            assert reply.basis.kind == "setup" and reply.basis.deals == reply.samples >= 1
            assert reply.meaning.startswith("Points: what you score this hand if the others")
            assert f"over {reply.basis.deals} deal" in reply.meaning
            assert abs(sum(a.best_share for a in reply.actions) - 1) < 1e-9
            assert reply.actions[0].close_to_best
            assert {a.why.kind for a in reply.actions} == {"pile"}
            assert all(a.reason.endswith("into the bottle's pile") for a in reply.actions)
            view = table_of(running, table_id).game.view(seats[0].seat)
            assert {a.action.pile.card.code for a in reply.actions} == {
                a.card.ascii for a in view.legal_actions
            }
            assert compute_hint(view, 3, 300).basis.kind == "setup"

    run(main())
