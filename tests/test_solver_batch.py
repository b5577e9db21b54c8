"""A batch of positions on several threads answers as solving them one by one (solver/batch.py)."""

from __future__ import annotations

import random
import threading
import time

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.bots.sampling import position_of, sample_deal
from cursedbottle.bots.search import evaluate
from cursedbottle.bots.strong_bot import StrongBot
from cursedbottle.engine.events import Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.hand import Hand, random_deal
from cursedbottle.engine.rules import Rules
from cursedbottle.solver import batch
from cursedbottle.solver.api import solve_hand
from cursedbottle.solver.batch import release_tables, solve_many, solve_within
from cursedbottle.solver.cancel import Cancelled, CancelToken, cancellable
from cursedbottle.solver.model import Model
from cursedbottle.solver.sampling import random_hand, random_position


def _hands(rules: Rules, count: int, seed: str) -> list[Hand]:
    """Engine hands by random legal play, 1-4 tricks left (fewer with many holders)."""
    rng = random.Random(f"batch:{seed}")
    most = 3 if rules.holders >= 5 or rules.devils_eye else 4
    out = []
    for i in range(count):
        left = rng.randint(1, most)
        out.append(random_hand(rules, rng, left, i % rules.holders))
    return out


def _answers(solutions):
    return [(s.seat, s.values, s.model) for s in solutions]


@pytest.mark.parametrize("model", list(Model), ids=str)
@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_the_batch_equals_solving_one_by_one(rules: Rules, model: Model) -> None:
    hands = _hands(rules, 8, config_id(rules))
    alone = [solve_hand(h, model=model) for h in hands]
    assert _answers(solve_many(hands, model=model, threads=2)) == _answers(alone)
    assert _answers(solve_many(hands, model=model, threads=1)) == _answers(alone)


def test_positions_and_more_threads_than_positions() -> None:
    rng = random.Random(3)
    positions = [random_position(Rules(3), rng, 3) for _ in range(3)]
    alone = [solve_hand(p.to_hand()) for p in positions]
    assert _answers(solve_many(positions, threads=8)) == _answers(alone)
    assert solve_many([], threads=2) == []
    with pytest.raises(ValueError):
        solve_many(positions, threads=0)


def _slow_batch() -> list[Hand]:
    """First leads of three players under max-n: each runs for many seconds."""
    rng = random.Random(11)
    return [random_position(Rules(3), rng, 11, in_trick=0).to_hand() for _ in range(4)]


def _batch_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("cb-batch")]


def test_cancelling_stops_every_thread() -> None:
    token = CancelToken()
    threading.Timer(0.3, token.cancel).start()
    t0 = time.monotonic()
    with pytest.raises(Cancelled):
        solve_many(_slow_batch(), model="maxn", threads=2, cancel=token)
    assert time.monotonic() - t0 < 5
    assert _batch_threads() == []


def test_the_current_token_cancels_a_batch() -> None:
    token = CancelToken()
    threading.Timer(0.3, token.cancel).start()
    with cancellable(token), pytest.raises(Cancelled):
        solve_many(_slow_batch(), model="maxn", threads=2)
    assert _batch_threads() == []


@pytest.mark.parametrize("threads", [1, 2])
def test_the_time_limit_is_honoured(threads: int) -> None:
    t0 = time.monotonic()
    with pytest.raises(TimeoutError):
        solve_many(_slow_batch(), model="maxn", threads=threads, time_limit=0.3)
    assert time.monotonic() - t0 < 5
    assert _batch_threads() == []


@pytest.mark.parametrize("model", list(Model), ids=str)
@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_solving_within_a_time_answers_as_solving_one_by_one(rules: Rules, model: Model) -> None:
    hands = _hands(rules, 8, config_id(rules))
    alone = _answers([solve_hand(h, model=model) for h in hands])
    for threads in (1, 2):
        assert _answers(solve_within(hands, None, model=model, threads=threads)) == alone
        # A time per position of a millisecond: whatever is answered is exact.
        got = solve_within(hands, 30.0, each=0.001, model=model, threads=threads)
        assert len(got) == len(hands)
        assert [a for a, s in zip(alone, got, strict=True) if s is not None] == _answers(
            [s for s in got if s is not None]
        )


def test_a_time_per_position_must_be_positive() -> None:
    hands = _hands(Rules(3), 1, "each")
    for each in (0, -1.0, float("nan")):
        with pytest.raises(ValueError, match=r"each: .* is not a positive number of seconds"):
            solve_within(hands, 1.0, each=each)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_position_past_its_own_time_is_given_up_and_the_others_answered(threads: int) -> None:
    quick = _hands(Rules(3), 4, "within")
    slow = _slow_batch()[:2]
    hands = [quick[0], slow[0], quick[1], quick[2], slow[1], quick[3]]
    t0 = time.monotonic()
    got = solve_within(hands, None, each=0.2, model="maxn", threads=threads)
    assert time.monotonic() - t0 < 5
    assert [s is None for s in got] == [False, True, False, False, True, False]
    alone = [solve_hand(h, model="maxn") for h in quick]
    assert _answers([s for s in got if s is not None]) == _answers(alone)
    assert _batch_threads() == []


@pytest.mark.parametrize("threads", [1, 2])
def test_past_the_deadline_what_was_solved_is_answered_and_the_rest_given_up(threads: int) -> None:
    quick = _hands(Rules(3), 3, "deadline")
    hands = [*quick, *_slow_batch()[:2], *quick]
    t0 = time.monotonic()
    got = solve_within(hands, 0.5, model="maxn", threads=threads)
    assert time.monotonic() - t0 < 5
    assert len(got) == len(hands)
    # Each worker solves the quick ones, then meets a slow one it cannot end.
    assert all(s is not None for s in got[:3])
    assert got[3] is None and got[4] is None
    alone = {id(h): solve_hand(h, model="maxn") for h in quick}
    for hand, solution in zip(hands, got, strict=True):
        if solution is not None:
            assert _answers([solution]) == _answers([alone[id(hand)]])
    assert _batch_threads() == []
    with pytest.raises(ValueError):
        solve_within(hands, 1.0, threads=0)


def test_an_error_is_raised_in_the_caller() -> None:
    rules = Rules(3)
    setup = Hand(rules, 0, *random_deal(rules, random.Random(1), 0))
    hands = [*_hands(rules, 3, "error"), setup]
    with pytest.raises(ValueError, match="phase"):
        solve_many(hands, threads=2)


def test_each_thread_keeps_its_tables_until_released() -> None:
    release_tables()
    hands = _hands(Rules(4), 6, "tables")
    first = solve_many(hands, threads=2)
    kept = list(batch._spare)
    # A worker that starts after another has ended takes the tables it left.
    assert 1 <= len(kept) <= 2
    assert _answers(solve_many(hands, threads=2)) == _answers(first)
    assert {id(t) for t in kept} <= {id(t) for t in batch._spare}
    assert len(batch._spare) <= 2
    release_tables()
    assert batch._spare == []


def test_at_most_keep_tables_are_kept(monkeypatch) -> None:
    release_tables()
    monkeypatch.setattr(batch, "KEEP_TABLES", 1)
    solve_many(_hands(Rules(3), 6, "keep"), threads=3)
    assert len(batch._spare) == 1
    release_tables()


def _exact_view(rules: Rules, seed: int):
    """A seat to move in the play phase with few enough cards left to be solved exactly."""
    rng = random.Random(seed)
    game = Game(rules, seed=seed, first_dealer=0)
    while True:
        view = game.view(game.player_at(game.to_act()[0]))
        if view.phase is Phase.PLAY and sum(view.hand_sizes) <= 15 and len(view.legal_actions) > 1:
            return view
        game.apply(rng.choice(view.legal_actions))


def test_the_bots_search_is_the_same_on_two_threads() -> None:
    view = _exact_view(Rules(3, hands=1), 7)
    one = evaluate(view, random.Random(5), budget=None, samples=12)
    two = evaluate(view, random.Random(5), budget=None, samples=12, threads=2)
    assert one == two and one[0].exact
    strong = [StrongBot(9, None, 8, threads=t).rank(view) for t in (1, 3)]
    assert strong[0] == strong[1]
    # The guessed deals themselves, solved as one batch, agree too.
    rng = random.Random(2)
    hands = [position_of(view, sample_deal(view, rng)) for _ in range(6)]
    assert _answers(solve_many(hands, threads=2)) == _answers([solve_hand(h) for h in hands])


def test_the_bots_search_on_two_threads_is_cancellable() -> None:
    view = _exact_view(Rules(3, hands=1), 7)
    token = CancelToken()
    token.cancel()
    with cancellable(token), pytest.raises(Cancelled):
        evaluate(view, random.Random(5), budget=None, samples=12, threads=2)
    assert _batch_threads() == []
