"""The public behaviour of ``TurnSolution``: keeps, policies and validation."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pinastats.dice import check_dice, solve_turn


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


@pytest.mark.parametrize("rolls_left", [-1, 3, 0])
def test_bad_rolls_left(rolls_left: int) -> None:
    with pytest.raises(ValueError, match=r"rolls left|0 rolls left"):
        solve_turn("pair").keep_options([1, 2, 3, 4, 5], rolls_left)


@pytest.mark.parametrize(
    "dice", [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4], [1, 2, 3, 4, 7], [True] * 5]
)
def test_bad_dice(dice: list[int]) -> None:
    with pytest.raises(ValueError, match="dice"):
        check_dice(dice)


@pytest.mark.parametrize("rolls", [0, -2, 1.5, True])
def test_bad_rolls(rolls: object) -> None:
    with pytest.raises(ValueError, match="rolls"):
        solve_turn("pair", rolls=rolls)  # type: ignore[arg-type]


def test_bad_value_vectors() -> None:
    with pytest.raises(ValueError, match="252"):
        solve_turn(np.zeros(10))
    with pytest.raises(ValueError, match="finite"):
        solve_turn(np.full(252, np.nan))


def test_large_values_fall_back_to_floats() -> None:
    solution = solve_turn(np.full(252, 2**40), rolls=3)
    assert solution.fraction is None
    assert solution.value == pytest.approx(2**40)
