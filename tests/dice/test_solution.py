"""The public behaviour of ``TurnSolution``: keeps, policies and validation."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pinastats.dice import solve_turn


def test_keep_options_rank_every_distinct_keep() -> None:
    options = solve_turn("full house").keep_options([2, 2, 5, 4, 1], 2)
    keeps = list(options["keep"])
    assert len(keeps) == len(set(keeps)) == 24  # 2 x 2 x 2 x 3 sub-multisets
    assert keeps[0] == (2, 2)
    assert list(options["best"]) == [True] + [False] * 23
    assert options["fraction"].iloc[0] == Fraction(89, 324)
    assert list(options["value"]) == sorted(options["value"], reverse=True)
    assert (1, 2, 2, 4, 5) in keeps  # stop is an option


def test_ties_are_all_marked_best() -> None:
    # five different dice toward five of a kind: keep any one die or none at all
    options = solve_turn("five of a kind").keep_options([1, 2, 3, 4, 6], 2)
    best = options.loc[options["best"], "keep"].tolist()
    assert sorted(best) == [(), (1,), (2,), (3,), (4,), (6,)]


def test_made_hand_stops() -> None:
    solution = solve_turn("full house")
    assert solution.best_keeps([3, 3, 6, 6, 6], 2) == [(3, 3, 6, 6, 6)]
    assert solution.hand_value([3, 3, 6, 6, 6], 1) == 1.0
    assert solution.hand_value([3, 3, 6, 6, 5], 0) == 0.0


def test_policy_covers_every_hand() -> None:
    policy = solve_turn("three of a kind").policy(2)
    assert len(policy) == 252
    assert policy["probability"].sum() == pytest.approx(1.0)
    row = policy.loc[policy["hand"] == (1, 1, 4, 5, 6)].iloc[0]
    assert row["keep"] == (1, 1)


def test_sticky_policy_only_before_anything_is_locked() -> None:
    solution = solve_turn("full house", sticky=True)
    assert len(solution.policy(2)) == 252
    with pytest.raises(ValueError, match="locked"):
        solution.policy(1)


def test_locked_dice_limit_the_keeps() -> None:
    solution = solve_turn("five of a kind", sticky=True)
    keeps = solution.keep_options([1, 1, 6, 6, 6], 1, locked=[1, 1])["keep"].tolist()
    assert all(k[:2] == (1, 1) for k in keeps)
    with pytest.raises(ValueError, match="not part of the hand"):
        solution.keep_options([1, 2, 3, 4, 5], 1, locked=[6])
    with pytest.raises(ValueError, match="sticky"):
        solve_turn("five of a kind").keep_options([1, 1, 6, 6, 6], 1, locked=[1])


def test_large_integer_values_stay_exact() -> None:
    """``2**40 * 6**15`` overflows int64: Python integers take over, still exact."""
    solution = solve_turn(np.full(252, 2**40), rolls=3)
    assert solution.fraction == 2**40
    assert solution.value == 2**40
    mixed = np.arange(252) * 2**40
    exact = solve_turn(mixed, rolls=3)
    small = solve_turn(np.arange(252), rolls=3)
    assert exact.fraction is not None
    assert small.fraction is not None
    assert exact.fraction == small.fraction * 2**40


def test_non_integer_values_have_no_fractions() -> None:
    solution = solve_turn(np.full(252, 0.5), rolls=3)
    assert solution.fraction is None
    assert solution.keep_fraction((1,), 2) is None
    assert solution.value == 0.5
