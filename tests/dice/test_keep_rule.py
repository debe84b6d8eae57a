"""The one keep rule: the numba ``_best_keep``, the agents' choice and the ranked keeps agree."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pinastats._engine import turn_tables
from pinastats.dice import TIE_TOL, Combination, dice_tables, solve_turn, tie_ranks
from pinastats.dice._kernels import _best_keep


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = dice_tables()
    return t.hand_keep_ptr, t.hand_keep, t.keep_size


def _reference_float_rule(row: np.ndarray, hand: int) -> int:
    """The agents' rule as it was before it moved to the dice layer, in plain Python.

    Scan the hand's keeps in order; a keep replaces the best when worth more by
    more than ``TIE_TOL``, or within ``TIE_TOL`` with more dice.
    """
    t = dice_tables()
    keeps = t.hand_keep[t.hand_keep_ptr[hand] : t.hand_keep_ptr[hand + 1]]
    best_k = int(keeps[0])
    best = float(row[best_k])
    for k in keeps[1:]:
        v = float(row[k])
        better = v > best + TIE_TOL
        if not better and v > best - TIE_TOL:
            better = t.keep_size[k] > t.keep_size[best_k]
        if better:
            best_k, best = int(k), v
    return best_k


def _reference_int_rule(row: np.ndarray, hand: int) -> int:
    """The rule for integer values, in Python: most value, then most dice, then first."""
    t = dice_tables()
    keeps = t.hand_keep[t.hand_keep_ptr[hand] : t.hand_keep_ptr[hand + 1]]
    return int(min(keeps, key=lambda k: (-int(row[k]), -int(t.keep_size[k]), int(k))))


@pytest.mark.parametrize("comb", list(Combination), ids=lambda c: c.name)
def test_same_keep_as_the_agents_for_every_hand(comb: Combination) -> None:
    """The agents' former rule (in plain Python) on the agents' own value rows."""
    tables = turn_tables()
    row_index = list(Combination).index(comb)
    solution = solve_turn(comb)
    for rolls_left in (1, 2):
        values = tables.target_keep_value[row_index, rolls_left - 1]
        exact = solution.keep_numerator[rolls_left - 1]  # type: ignore[index]
        for hand in range(252):
            ours = _best_keep(values, *_tables(), hand)
            assert ours == _reference_float_rule(values, hand)
            assert _best_keep(exact, *_tables(), hand) == ours
            played = solution.ranked_keeps(dice_tables().hand_of(hand), rolls_left)[0]
            assert dice_tables().keep_index(played.keep) == ours


@pytest.mark.parametrize("seed", range(6))
def test_same_keep_as_the_agents_on_near_ties(seed: int) -> None:
    """Rows built to sit on the tolerance: steps of TIE_TOL / 2, chains of ties."""
    rng = np.random.default_rng(seed)
    for _ in range(40):
        row = 0.5 + rng.integers(0, 6, size=462) * (TIE_TOL / 2)
        row[rng.random(462) < 0.2] += rng.choice([TIE_TOL, -TIE_TOL, 3 * TIE_TOL])
        for hand in range(0, 252, 7):
            assert _best_keep(row, *_tables(), hand) == _reference_float_rule(row, hand)


@pytest.mark.parametrize("seed", range(3))
def test_integer_values_compare_exactly(seed: int) -> None:
    """int64 rows: no tolerance, even where floats could not tell values apart."""
    rng = np.random.default_rng(seed)
    base = 2**60
    for _ in range(30):
        row = base + rng.integers(0, 3, size=462).astype(np.int64)
        for hand in range(0, 252, 5):
            assert _best_keep(row, *_tables(), hand) == _reference_int_rule(row, hand)
    row = np.full(462, base, dtype=np.int64)
    row[dice_tables().keep_index(())] += 1  # one more than every other keep: 2**60 + 1
    assert _best_keep(row, *_tables(), 0) == 0
    assert float(row[0]) == float(row[1])  # floats would call it a tie


def test_tie_ranks() -> None:
    assert tie_ranks([3, 2, 2, 1]) == [1, 2, 2, 4]
    assert tie_ranks([Fraction(1, 3), Fraction(1, 3) + Fraction(1, 10**20)]) == [2, 1]
    assert tie_ranks([0.25, 0.25 + 0.9 * TIE_TOL, 0.25 - 2 * TIE_TOL]) == [1, 1, 3]
    # a group is anchored on its best value: no chain of ties drifting down
    assert tie_ranks([1.0, 1.0 - 0.6 * TIE_TOL, 1.0 - 1.2 * TIE_TOL]) == [1, 1, 3]
    assert tie_ranks(np.array([5, 5, 7], dtype=np.int64)) == [2, 2, 1]
