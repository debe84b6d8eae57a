"""Properties of the DP that hold for every value function (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pinastats.dice import Combination, solve_turn
from tests.dice import oracle

values_strategy = st.lists(st.integers(0, 4), min_size=252, max_size=252)
dice_strategy = st.lists(st.integers(1, 6), min_size=5, max_size=5)


@settings(max_examples=25)
@given(values=values_strategy, sticky=st.booleans())
def test_more_rolls_never_lower_the_value(values: list[int], sticky: bool) -> None:
    fractions = [solve_turn(values, rolls=r, sticky=sticky).fraction for r in (1, 2, 3, 4)]
    assert all(f is not None for f in fractions)
    assert fractions == sorted(fractions)  # type: ignore[type-var]


@settings(max_examples=25)
@given(values=values_strategy, rolls=st.integers(1, 3))
def test_free_holds_beat_sticky_holds(values: list[int], rolls: int) -> None:
    free = solve_turn(values, rolls=rolls)
    sticky = solve_turn(values, rolls=rolls, sticky=True)
    assert free.keep_numerator is not None
    assert sticky.keep_numerator is not None
    assert np.all(free.keep_numerator >= sticky.keep_numerator)
    if rolls == 1:  # nothing to hold: the same turn
        assert free.fraction == sticky.fraction


@settings(max_examples=25)
@given(
    values=values_strategy,
    extra=st.lists(st.integers(0, 2), min_size=252, max_size=252),
    sticky=st.booleans(),
)
def test_monotone_in_the_value_vector(values: list[int], extra: list[int], sticky: bool) -> None:
    """``v <= v'`` pointwise implies ``K_r(k) <= K'_r(k)`` for every keep and r."""
    low = solve_turn(values, rolls=3, sticky=sticky)
    high = solve_turn(np.add(values, extra), rolls=3, sticky=sticky)
    assert low.keep_numerator is not None
    assert high.keep_numerator is not None
    assert np.all(low.keep_numerator <= high.keep_numerator)


@settings(max_examples=25)
@given(
    values=values_strategy,
    scale=st.sampled_from([0.25, 1 / 3, 0.7, 2.5]),
    shift=st.sampled_from([0.5, -1 / 7, 0.1]),
    sticky=st.booleans(),
)
def test_float_mode_agrees_with_exact_mode(
    values: list[int], scale: float, shift: float, sticky: bool
) -> None:
    """Non-integer values run the float kernel; ``a v + b`` must give ``a K + b``."""
    exact = solve_turn(values, rolls=3, sticky=sticky)
    approx = solve_turn(np.asarray(values) * scale + shift, rolls=3, sticky=sticky)
    assert exact.keep_numerator is not None
    assert approx.keep_numerator is None
    assert approx.fraction is None
    np.testing.assert_allclose(
        approx.keep_value, exact.keep_value * scale + shift, rtol=1e-12, atol=1e-12
    )


@settings(max_examples=60)
@given(
    comb=st.sampled_from(list(Combination)),
    dice=dice_strategy,
    rolls_left=st.sampled_from([1, 2]),
)
def test_best_keeps_are_exactly_the_ties(
    comb: Combination, dice: list[int], rolls_left: int
) -> None:
    model = oracle.free_turn(comb)
    hand = tuple(sorted(dice))
    values = {k: model.keep(k, rolls_left) for k in oracle.sub_keeps(hand)}
    best = max(values.values())
    solution = solve_turn(comb, rolls=3)
    keeps = solution.best_keeps(dice, rolls_left)
    assert set(keeps) == {k for k, v in values.items() if v == best}
    assert len(keeps) == len(set(keeps))
    assert [len(k) for k in keeps] == sorted((len(k) for k in keeps), reverse=True)
    assert solution.hand_value(dice, rolls_left) == float(model.hand(hand, rolls_left))


@settings(max_examples=30)
@given(
    comb=st.sampled_from(list(Combination)),
    dice=dice_strategy,
    locked_count=st.integers(0, 5),
)
def test_sticky_best_keeps_respect_the_locked_dice(
    comb: Combination, dice: list[int], locked_count: int
) -> None:
    hand = tuple(sorted(dice))
    locked = hand[:locked_count]
    model = oracle.sticky_turn(comb)
    solution = solve_turn(comb, rolls=3, sticky=True)
    keeps = solution.best_keeps(dice, 1, locked=locked)
    choices = {oracle.merge(locked, e) for e in oracle.sub_keeps(oracle.minus(hand, locked))}
    best = max(model.keep(k, 1) for k in choices)
    assert set(keeps) == {k for k in choices if model.keep(k, 1) == best}
