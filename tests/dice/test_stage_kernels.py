"""The DP's two stage kernels against the plain transition sums and hand-by-hand maxima.

The kernels roll one die at a time (:func:`pinastats.dice._kernels._expect_keeps`)
and take maxima one face at a time (:func:`~pinastats.dice._kernels._best_of_keeps`);
the oracle here is the textbook form: each keep's weighted sum over its
transition row, each hand's maximum over its own keeps.
"""

from __future__ import annotations

import numpy as np
import pytest

from pinastats.dice import N_HANDS, N_KEEPS, dice_tables
from pinastats.dice._kernels import _best_of_keeps, _expect_keeps


def _row_sums(hand_value: np.ndarray, final_value: np.ndarray, stop_scale: float | int,
              scale: np.ndarray) -> list[float | int]:  # fmt: skip
    """Each keep's weighted sum over its transition row (Python numbers, exact for ints)."""
    t = dice_tables()
    out: list[float | int] = []
    for k in range(N_KEEPS):
        lo, hi = int(t.keep_ptr[k]), int(t.keep_ptr[k + 1])
        if t.keep_size[k] == 5:
            out.append(final_value[t.keep_hand[lo]].item() * stop_scale)
            continue
        s = hand_value[0].item() * 0
        for j in range(lo, hi):
            s += int(t.keep_weight[j]) * hand_value[t.keep_hand[j]].item()
        out.append(s * scale[k].item())
    return out


def _values(exact: bool, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float | int]:
    t = dice_tables()
    rng = np.random.default_rng(seed)
    if exact:
        hand_value = rng.integers(0, 6**5, N_HANDS).astype(np.int64)
        final_value = rng.integers(0, 6, N_HANDS).astype(np.int64)
        return hand_value, final_value, 6 ** t.keep_size.astype(np.int64), 6**5
    scale = 6.0 ** -(5 - t.keep_size.astype(np.float64))
    return rng.random(N_HANDS), rng.random(N_HANDS), scale, 1.0


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_exact_expectations_are_the_transition_sums(seed: int) -> None:
    """Integer values: one die at a time gives the transition sums exactly."""
    t = dice_tables()
    hand_value, final_value, scale, stop = _values(True, seed)
    out = np.zeros(N_KEEPS, dtype=np.int64)
    _expect_keeps(hand_value, final_value, stop, t.keep_levels, t.keep_plus, scale,
                  t.hand_as_keep, out)  # fmt: skip
    assert out.tolist() == _row_sums(hand_value, final_value, stop, scale)


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_float_expectations_match_the_transition_sums(seed: int) -> None:
    """Float values: the same sums, added in another order (a few units in the last place)."""
    t = dice_tables()
    hand_value, final_value, scale, stop = _values(False, seed)
    out = np.zeros(N_KEEPS)
    _expect_keeps(hand_value, final_value, stop, t.keep_levels, t.keep_plus, scale,
                  t.hand_as_keep, out)  # fmt: skip
    expected = np.array(_row_sums(hand_value, final_value, stop, scale))
    np.testing.assert_allclose(out, expected, rtol=4e-15, atol=0)
    five = t.keep_size == 5
    assert out[five].tolist() == expected[five].tolist()  # stopping: no sum at all


@pytest.mark.parametrize("exact", [False, True])
def test_best_of_keeps_is_each_hands_maximum(exact: bool) -> None:
    t = dice_tables()
    rng = np.random.default_rng(6)
    keep_value = rng.integers(0, 50, N_KEEPS) if exact else rng.random(N_KEEPS)
    out = np.zeros(N_HANDS, dtype=keep_value.dtype)
    scratch = np.full(N_KEEPS, -1, dtype=keep_value.dtype)
    _best_of_keeps(keep_value, t.keep_minus, t.hand_as_keep, scratch, out)
    expected = [
        max(keep_value[t.hand_keep[t.hand_keep_ptr[h] : t.hand_keep_ptr[h + 1]]].tolist())
        for h in range(N_HANDS)
    ]
    assert out.tolist() == expected


def test_best_of_keeps_finds_a_best_keep_anywhere_inside_the_hand() -> None:
    """One keep worth more than all others: every hand containing it, and only those, see it."""
    t = dice_tables()
    for k in (0, 1, 57, 300, N_KEEPS - 1):
        keep_value = np.zeros(N_KEEPS)
        keep_value[k] = 1.0
        out = np.zeros(N_HANDS)
        _best_of_keeps(keep_value, t.keep_minus, t.hand_as_keep, np.zeros(N_KEEPS), out)
        inside = (t.hand_counts >= t.keep_counts[k]).all(axis=1)
        assert out.tolist() == inside.astype(float).tolist()
