"""Limits of the turn DP: int64 while it cannot overflow, Python integers beyond, 20 rolls."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pinastats.dice import (
    EXACT_INT64_ROLLS,
    MAX_ROLLS,
    Combination,
    RollsError,
    solve_turn,
    success_probability,
)
from pinastats.dice._dp import fits_int64, run_kernel, run_python_ints


def test_int64_limit_is_the_largest_safe_number_of_rolls() -> None:
    # a 0/1 target scales by 6**(5 r): 6**20 < 2**63 <= 6**25
    assert EXACT_INT64_ROLLS == 4
    assert 6 ** (5 * EXACT_INT64_ROLLS) < 2**63 <= 6 ** (5 * (EXACT_INT64_ROLLS + 1))
    assert fits_int64(9, 3)
    assert not fits_int64(2**63 // 6**15 + 1, 3)
    assert MAX_ROLLS == 20


@pytest.mark.parametrize("sticky", [False, True])
@pytest.mark.parametrize("comb", [Combination.FULL_HOUSE, Combination.SUM_12_14])
def test_python_integers_agree_with_int64(comb: Combination, sticky: bool) -> None:
    values = comb.mask().astype(np.int64) * 7 - 3
    exact = run_kernel(values, EXACT_INT64_ROLLS, sticky)
    big = run_python_ints([int(v) for v in values], EXACT_INT64_ROLLS, sticky)
    assert exact.tolist() == big.tolist()


@pytest.mark.parametrize("rolls", [1, 4, 5, 9, 20])
def test_no_pair_needs_every_roll_to_be_all_different(rolls: int) -> None:
    # keeping a pair once seen, failing needs five different values on every roll
    assert success_probability("pair", rolls=rolls) == 1 - Fraction(5, 54) ** rolls
    assert success_probability("pair", rolls=rolls, sticky=True) == 1 - Fraction(5, 54) ** rolls


def test_long_turns_are_exact_and_increasing() -> None:
    chances = [success_probability("full house", rolls=r) for r in range(1, MAX_ROLLS + 1)]
    assert chances == sorted(chances)
    assert 0.99 < chances[-1] < 1
    sticky = success_probability("full house", rolls=MAX_ROLLS, sticky=True)
    assert sticky <= chances[-1]


def test_float_values_up_to_twenty_rolls() -> None:
    half = Combination.FULL_HOUSE.mask() * 0.5
    solution = solve_turn(half, rolls=MAX_ROLLS)
    assert solution.keep_numerator is None
    expected = success_probability("full house", rolls=MAX_ROLLS) / 2
    assert solution.value == pytest.approx(float(expected), rel=1e-12)


def test_beyond_the_limit_is_a_clear_error() -> None:
    with pytest.raises(RollsError, match=r"from 1 to 20, got 100"):
        success_probability("full house", rolls=100)
    with pytest.raises(RollsError, match=r"got 99999999"):
        solve_turn("full house", rolls=99999999)
