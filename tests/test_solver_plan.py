"""`exact`'s plan of probes for one card (`_search.ProbePlan`, the `Plan` the
search itself follows and solver/split.py drives): whatever fail-soft
answers the probes get, as long as each is true, the plan ends at the value,
from any guess, with every technique of the plan on or off."""

from __future__ import annotations

import itertools
import random

import pytest
from cursedbottle.solver import _search

OPTS = [
    _search.ALL_OPTIONS & ~sum(_search.OPTIONS[n] for n in off)
    for off in ([], ["more"], ["avoid"], ["avoid", "more"])
] + [_search.ALL_OPTIONS | _search.OPTIONS["gallop"]]


def _run(lo: int, hi: int, taken: int, guess: int, opts: int, value: int,
         rng: random.Random | None) -> tuple[int, list[int]]:
    """The plan answered by a card worth `value`: exactly at the bound
    (rng None), or anywhere a fail-soft answer may lie."""
    plan = _search.ProbePlan(lo, hi, taken, guess, opts)
    probes = []
    while plan.bound is not None:
        b = plan.bound
        assert lo < b <= hi + 1 and len(probes) < 200
        probes.append(b)
        if value >= b:
            g = b if rng is None else rng.randint(b, value)
        else:
            g = b - 1 if rng is None else rng.randint(value, b - 1)
        plan.answer(g)
    return plan.value, probes


@pytest.mark.parametrize("opts", OPTS)
def test_the_plan_ends_at_the_value(opts: int) -> None:
    rng = random.Random(opts)
    for lo, hi, taken in [(-8, 20, 0), (-30, 5, 3), (0, 12, 0), (2, 2, 2), (-5, 40, 7)]:
        for value, guess in itertools.product(range(lo, hi + 1), range(lo - 3, hi + 4, 3)):
            assert _run(lo, hi, taken, guess, opts, value, None)[0] == value
            assert _run(lo, hi, taken, guess, opts, value, rng)[0] == value


def test_the_bottle_question_comes_first_then_anything_more() -> None:
    """A guess above the points taken while the bottle is open: the first
    probe is at the points taken; answered exactly there, the next at one
    point more (`more`), and a card worth the points taken is done.  (A
    seat alone: `read_problem` leaves `gallop` to a side of two.)"""
    alone = _search.ALL_OPTIONS & ~_search.OPTIONS["gallop"]
    value, probes = _run(-10, 30, 4, 20, alone, 4, None)
    assert (value, probes) == (4, [4, 5])
    without = alone & ~_search.OPTIONS["more"]
    value, probes = _run(-10, 30, 4, 20, without, 4, None)
    assert (value, probes) == (4, [4, *range(20, 4, -1)])
    # a card that cannot avoid the bottle (the probe answers the owner's
    # score, the lowest bound): one probe
    plan = _search.ProbePlan(-10, 30, 4, 20, alone)
    assert plan.bound == 4
    plan.answer(-10)
    assert plan.bound is None and plan.value == -10
    # galloping (a side of two), down from 20: 20, 19, 17, 13, then back up
    assert _run(-10, 30, 4, 20, without | _search.OPTIONS["gallop"], 4, None)[1][:5] == [
        4, 20, 19, 17, 13]


def test_a_plan_is_used_as_it_is_meant() -> None:
    with pytest.raises(ValueError, match="bounds 3 > 2"):
        _search.ProbePlan(3, 2, 0, 0, _search.ALL_OPTIONS)
    plan = _search.ProbePlan(0, 1, 0, 0, _search.ALL_OPTIONS)
    with pytest.raises(ValueError, match="not known yet"):
        _ = plan.value
    plan.answer(plan.bound)
    assert plan.bound is None and plan.value == 1
    with pytest.raises(ValueError, match="already known"):
        plan.answer(1)


def test_the_estimate_stays_within_what_the_answers_allow() -> None:
    """`estimate` (where a split solve starts the next card's probes): the
    guess while only the bottle question is asked, else where the next
    probe goes, and the value once known; never outside the bounds the
    answers so far have left."""
    rng = random.Random("estimate")
    alone = _search.ALL_OPTIONS & ~_search.OPTIONS["gallop"]
    for _ in range(300):
        lo, taken = rng.randint(-20, 3), rng.randint(0, 6)
        hi = max(lo, taken + rng.randint(0, 25))
        value, guess = rng.randint(lo, hi), rng.randint(lo - 3, hi + 3)
        plan = _search.ProbePlan(lo, hi, taken, guess, alone)
        low, high = lo, hi
        if plan.bound == taken and min(max(guess, lo), hi) > taken:
            assert plan.estimate == min(max(guess, lo), hi)
        while plan.bound is not None:
            assert low <= plan.estimate <= high
            b = plan.bound
            g = rng.randint(b, value) if value >= b else rng.randint(value, b - 1)
            plan.answer(g)
            low, high = (max(low, g), high) if g >= b else (low, min(high, g))
            if plan.bound is not None and plan.bound != taken:
                assert plan.estimate == plan.bound
        assert plan.estimate == plan.value == value


@pytest.mark.parametrize("opts", OPTS)
def test_answers_at_other_bounds_keep_the_plan_true(opts: int) -> None:
    """A split solve's free threads probe a card beside its plan's own
    bound (`learn`, solver/split.py): whatever true answers come, at the
    plan's bound or at any other within its bounds, in any order, the bounds
    only close in on the value, the plan's bound stays between them, and it
    ends at the value."""
    rng = random.Random(f"learn:{opts}")
    for _ in range(400):
        lo, taken = rng.randint(-20, 0), rng.randint(0, 6)
        hi = taken + rng.randint(0, 25)
        value, guess = rng.randint(lo, hi), rng.randint(lo - 3, hi + 3)
        plan = _search.ProbePlan(lo, hi, taken, guess, opts)
        low, high, steps = lo, hi, 0
        while plan.bound is not None:
            steps += 1
            assert steps < 200
            b = plan.bound
            if plan.climbing is not None and rng.random() < 0.5 and plan.hi > plan.lo + 1:
                b = rng.randint(plan.lo + 1, plan.hi)
            g = rng.randint(b, value) if value >= b else rng.randint(value, b - 1)
            plan.learn(b, g)
            assert low <= plan.lo <= value <= plan.hi <= high
            low, high = plan.lo, plan.hi
            if plan.bound is not None:
                assert plan.lo < plan.bound <= plan.hi
        assert plan.value == value


def test_a_probe_beside_the_plan_waits_for_the_bottle_question() -> None:
    """Before the bottle question is answered the plan takes only its own
    probe's answer: beside it, the question's bound would be lost."""
    alone = _search.ALL_OPTIONS & ~_search.OPTIONS["gallop"]
    plan = _search.ProbePlan(-10, 30, 4, 20, alone)
    assert plan.bound == 4 and plan.climbing is None
    with pytest.raises(ValueError, match="bottle question"):
        plan.learn(10, 12)
    plan.learn(4, 6)
    assert plan.climbing == 0 and plan.lo == 6
    plan.learn(25, 22)
    assert (plan.lo, plan.hi, plan.bound) == (6, 22, 20)
