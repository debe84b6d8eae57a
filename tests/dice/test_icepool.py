"""icepool (an independent dice library) as a second oracle on single re-rolls."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import icepool
import pytest

from pinastats.dice import Combination, solve_turn, success_probability
from tests.dice import oracle


def _icepool_chance(comb: Combination, keep: Sequence[int]) -> Fraction:
    """P(comb) after keeping ``keep`` and rolling the other dice once, by icepool."""
    n = 5 - len(keep)
    if n == 0:
        return Fraction(int(oracle.holds(comb, tuple(sorted(keep)))))
    rolled = icepool.Pool([icepool.d6] * n).expand()
    hit = rolled.map(lambda dice: oracle.holds(comb, tuple(sorted((*keep, *dice)))))
    chance = hit.probability(True)
    assert isinstance(chance, Fraction)
    return chance


@pytest.mark.parametrize("comb", list(Combination), ids=lambda c: c.name)
def test_one_roll_probability(comb: Combination) -> None:
    assert success_probability(comb, rolls=1) == _icepool_chance(comb, ())


@pytest.mark.parametrize(
    ("comb", "keep"),
    [
        (Combination.FULL_HOUSE, (5, 5, 5)),
        (Combination.FULL_HOUSE, (2, 2, 3, 3)),
        (Combination.FULL_HOUSE, (4,)),
        (Combination.FIVE_OF_A_KIND, (6, 6)),
        (Combination.LARGE_STRAIGHT, (2, 3, 4)),
        (Combination.SMALL_STRAIGHT, (3, 4)),
        (Combination.SUM_GE_26, (6, 6, 5)),
        (Combination.SUM_12_14, (1, 2)),
        (Combination.ODDS, (1, 3, 5)),
        (Combination.DOUBLE_PAIR, (1, 1, 6)),
        (Combination.ALL_DIFFERENT, (1, 2, 6)),
        (Combination.THREE_4, (4, 4, 1, 2, 3)),
    ],
)
def test_single_keep(comb: Combination, keep: tuple[int, ...]) -> None:
    """``K_1(keep)``: one re-roll of the other dice, then the hand is final."""
    assert solve_turn(comb, rolls=2).keep_fraction(keep, 1) == _icepool_chance(comb, keep)


def test_full_house_keeping_three_fives() -> None:
    # Keep 5 5 5 and roll two dice once: they must match each other, 6 of 36
    # outcomes (5 5 makes five of a kind, which counts as a full house).
    assert _icepool_chance(Combination.FULL_HOUSE, (5, 5, 5)) == Fraction(1, 6)
    assert solve_turn("full house", rolls=2).keep_fraction((5, 5, 5), 1) == Fraction(1, 6)
