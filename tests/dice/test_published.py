"""Published values, pinned exactly (free holds unless said otherwise)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from pinastats.dice import Combination, dice_tables, solve_turn, success_probability
from tests.dice import oracle


def test_five_of_a_kind_in_three_rolls() -> None:
    # The well-known "probability of a Yahtzee in three rolls" with optimal
    # re-holding: 347897/7558272 ≈ 4.603% (Yahtzee probability literature).
    p = success_probability("five of a kind")
    assert p == Fraction(347897, 7558272)
    assert f"{float(p):.3%}" == "4.603%"  # the rounded figure as usually quoted


def test_five_of_a_kind_sticky() -> None:
    # Same with "sticky" dice (never take a kept die back): 690169/15116544
    # ≈ 4.566%, the other figure quoted alongside it in the Yahtzee literature.
    assert success_probability("five of a kind", sticky=True) == Fraction(690169, 15116544)


def test_large_straight_in_three_rolls() -> None:
    # Optimal chase of a (Yahtzee) large straight 1-5 or 2-6 in three rolls,
    # ≈ 26.11%, as tabulated in the Yahtzee probability literature.
    assert success_probability("large straight") == Fraction(319695199, 1224440064)


def test_small_straight_in_three_rolls() -> None:
    # Optimal chase of a small straight (four in a row) in three rolls, ≈ 61.54%,
    # from the same Yahtzee tables.
    assert success_probability("small straight") == Fraction(753572225, 1224440064)


def test_at_least_a_pair_in_three_rolls() -> None:
    # Failing needs five different values three times in a row when a pair,
    # once seen, is always kept: P(no pair in one roll) = 720/7776 = 5/54.
    assert success_probability("pair") == 1 - Fraction(5, 54) ** 3


def _one_roll_count(mask: np.ndarray) -> int:
    return int(dice_tables().hand_weight[mask].sum())


def test_single_roll_pattern_counts() -> None:
    # The classic partition of the 7,776 rolls of five dice by pattern (poker
    # dice / Yahtzee tables): 720 + 3600 + 1800 + 1200 + 300 + 150 + 6 = 7776.
    m = {c: c.mask() for c in Combination}
    pair, two_pairs = m[Combination.PAIR], m[Combination.TWO_DISTINCT_PAIRS]
    three, four = m[Combination.THREE_OF_A_KIND], m[Combination.FOUR_OF_A_KIND]
    five = m[Combination.FIVE_OF_A_KIND]
    counts = {
        "all different": _one_roll_count(m[Combination.ALL_DIFFERENT]),
        "one pair": _one_roll_count(pair & ~two_pairs & ~three),
        "two pairs": _one_roll_count(two_pairs & ~three),
        "three of a kind": _one_roll_count(three & ~two_pairs & ~four),
        "full house": _one_roll_count(m[Combination.STRICT_FULL_HOUSE]),
        "four of a kind": _one_roll_count(four & ~five),
        "five of a kind": _one_roll_count(five),
    }
    assert counts == {
        "all different": 720,
        "one pair": 3600,
        "two pairs": 1800,
        "three of a kind": 1200,
        "full house": 300,
        "four of a kind": 150,
        "five of a kind": 6,
    }
    assert sum(counts.values()) == 7776


def test_one_roll_equals_rolls_1() -> None:
    # With one roll there is nothing to decide: the share of the 7,776 ordered
    # outcomes showing the combination, counted by the oracle's own predicates.
    for comb in Combination:
        assert solve_turn(comb, rolls=1).fraction == oracle.one_roll(comb)
