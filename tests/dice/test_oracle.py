"""The numba DP against the brute-force oracle, exactly, for every combination."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pinastats.dice import Combination, solve_turn
from tests.dice import oracle

ALL = list(Combination)


@pytest.mark.parametrize("comb", ALL, ids=lambda c: c.name)
def test_free_holds_match_oracle_for_every_keep(comb: Combination) -> None:
    """Every ``K_r(k)`` (462 keeps, r = 1, 2, 3) and the turn values for 1-3 rolls."""
    model = oracle.free_turn(comb)
    solution = solve_turn(comb, rolls=3)
    for rolls_left in (1, 2, 3):
        for keep in oracle.all_keeps():
            assert solution.keep_fraction(keep, rolls_left) == model.keep(keep, rolls_left), (
                keep,
                rolls_left,
            )
    for rolls in (1, 2, 3):
        assert solve_turn(comb, rolls=rolls).fraction == model.turn(rolls)


@pytest.mark.parametrize("comb", ALL, ids=lambda c: c.name)
def test_sticky_holds_match_oracle(comb: Combination) -> None:
    model = oracle.sticky_turn(comb)
    for rolls in (1, 2, 3):
        assert solve_turn(comb, rolls=rolls, sticky=True).fraction == model.turn(rolls)


@pytest.mark.parametrize(
    "comb", [Combination.FULL_HOUSE, Combination.FIVE_OF_A_KIND, Combination.SUM_GE_26]
)
def test_sticky_keep_values_match_oracle(comb: Combination) -> None:
    """With locked dice ``k`` every sticky ``K_r(k)`` agrees (not only the turn value)."""
    model = oracle.sticky_turn(comb)
    solution = solve_turn(comb, rolls=3, sticky=True)
    for rolls_left in (1, 2):
        for keep in oracle.all_keeps():
            assert solution.keep_fraction(keep, rolls_left) == model.keep(keep, rolls_left)


def test_sticky_differs_from_free_where_taking_dice_back_helps() -> None:
    """The two oracles are not the same model: five of a kind gains from re-holding."""
    comb = Combination.FIVE_OF_A_KIND
    assert oracle.sticky_turn(comb).turn(3) < oracle.free_turn(comb).turn(3)


def test_points_value_function_matches_oracle() -> None:
    """A non-0/1 objective: the points of the best coaster shown (side A points)."""
    points = {Combination.FULL_HOUSE: 3, Combination.PAIR_6: 1, Combination.LARGE_STRAIGHT: 3}

    def final(hand: oracle.Dice) -> int:
        return max((p for c, p in points.items() if oracle.holds(c, hand)), default=0)

    model = oracle.FreeTurn(final)
    values = [final(hand) for hand in oracle.all_hands()]
    solution = solve_turn(values, rolls=3)
    assert solution.fraction == model.turn(3)
    assert solution.value == pytest.approx(float(model.turn(3)), rel=1e-12)
    assert isinstance(solution.fraction, Fraction)
