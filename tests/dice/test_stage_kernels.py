"""The DP's two stage kernels equal a plain row-by-row loop bit for bit (float and exact)."""

from __future__ import annotations

import numpy as np
import pytest

from pinastats.dice import N_HANDS, N_KEEPS, dice_tables
from pinastats.dice._kernels import _best_of_keeps, _expect_hand_keeps, _expect_keeps


def _row_by_row(hand_value: np.ndarray, final_value: np.ndarray, stop_scale: float | int,
                scale: np.ndarray) -> list[float | int]:  # fmt: skip
    """Each keep's sum in the order of its row, one keep after the other (Python numbers)."""
    t = dice_tables()
    out: list[float | int] = []
    for k in range(N_KEEPS):
        lo, hi = int(t.keep_ptr[k]), int(t.keep_ptr[k + 1])
        if hi - lo == 1:
            out.append(final_value[t.keep_hand[lo]].item() * stop_scale)
            continue
        s = hand_value[0].item() * 0
        for j in range(lo, hi):
            s += int(t.keep_weight[j]) * hand_value[t.keep_hand[j]].item()
        out.append(s * scale[k].item())
    return out


@pytest.mark.parametrize("exact", [False, True])
def test_expect_keeps_is_the_row_by_row_sum(exact: bool) -> None:
    t = dice_tables()
    rng = np.random.default_rng(5)
    stop: float | int
    hand_value: np.ndarray
    final_value: np.ndarray
    scale: np.ndarray
    if exact:
        hand_value = rng.integers(0, 6**5, N_HANDS).astype(np.int64)
        final_value = rng.integers(0, 6, N_HANDS).astype(np.int64)
        scale, stop = (6 ** t.keep_size.astype(np.int64)), 6**5
    else:
        hand_value, final_value = rng.random(N_HANDS), rng.random(N_HANDS)
        scale, stop = 6.0 ** -(5 - t.keep_size.astype(np.float64)), 1.0
    out = np.zeros(N_KEEPS, dtype=hand_value.dtype)
    _expect_keeps(hand_value, final_value, stop, t.keep_ptr, t.keep_hand, t.keep_weight,
                  scale, t.keep_order, t.keep_groups, out)  # fmt: skip
    assert out.tolist() == _row_by_row(hand_value, final_value, stop, scale)


def test_best_of_keeps_is_each_hands_maximum() -> None:
    t = dice_tables()
    keep_value = np.random.default_rng(6).random(N_KEEPS)
    out = np.zeros(N_HANDS)
    _best_of_keeps(keep_value, t.hand_keep_ptr, t.hand_keep, t.hand_order, t.hand_groups, out)
    expected = [
        max(keep_value[t.hand_keep[t.hand_keep_ptr[h] : t.hand_keep_ptr[h + 1]]].tolist())
        for h in range(N_HANDS)
    ]
    assert out.tolist() == expected


def test_one_hands_keeps_match_the_whole_stage() -> None:
    """``_expect_hand_keeps`` writes each keep of the hand as ``_expect_keeps`` does, no other."""
    t = dice_tables()
    rng = np.random.default_rng(7)
    hand_value = rng.random(N_HANDS)
    scale = 6.0 ** -(5 - t.keep_size.astype(np.float64))
    every = np.zeros(N_KEEPS)
    _expect_keeps(hand_value, hand_value, 1.0, t.keep_ptr, t.keep_hand, t.keep_weight, scale,
                  t.keep_order, t.keep_groups, every)  # fmt: skip
    for hand in (0, 1, 57, 200, N_HANDS - 1):
        out = np.full(N_KEEPS, np.nan)
        _expect_hand_keeps(hand, hand_value, t.keep_ptr, t.keep_hand, t.keep_weight, scale,
                           t.hand_keep_ptr, t.hand_keep_by_rows, out)  # fmt: skip
        keeps = t.hand_keep[t.hand_keep_ptr[hand] : t.hand_keep_ptr[hand + 1]]
        five = keeps[t.keep_size[keeps] == 5]  # a whole hand: the stage's own stop value
        rest = np.setdiff1d(keeps, five)
        assert out[rest].tolist() == every[rest].tolist()
        assert np.isnan(np.delete(out, keeps)).all()
