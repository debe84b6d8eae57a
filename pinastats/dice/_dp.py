"""Running the turn DP: the numba kernels (float64, exact int64) and exact Python ints.

See :mod:`pinastats.dice.solver` for the recurrence. The int64 pass scales
``V_r`` by ``6**(5 r)``; every value it computes, partial sums included, is at
most ``max|f| 6**(5 r)`` in magnitude, so it is exact when that bound fits an
int64 (:func:`fits_int64`). Beyond it, integer values run the same recurrence on
Python integers (NumPy object arrays), vectorised per roll.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from pinastats._arrays import FloatArray, IntArray
from pinastats.dice.hands import N_DICE, N_HANDS, N_KEEPS, dice_tables

INT64_MAX = 2**63 - 1


def fits_int64(max_abs: int, rolls: int) -> bool:
    """Whether the int64 DP is exact: ``max|f| * 6**(5 rolls) <= 2**63 - 1``.

    >>> fits_int64(1, 4), fits_int64(1, 5)
    (True, False)
    """
    return bool(max_abs * 6 ** (N_DICE * rolls) <= INT64_MAX)


@cache
def scales() -> tuple[FloatArray, IntArray]:
    """Per keep: ``6**-(5-|k|)`` (float DP) and ``6**|k|`` (scaled integer DP)."""
    size = dice_tables().keep_size
    return (6.0 ** -(N_DICE - size)).astype(np.float64), (6**size).astype(np.int64)


@cache
def between() -> tuple[IntArray, IntArray]:
    """For each transition entry (keep k, hand h): the keeps k' with k ⊆ k' ⊆ h."""
    t = dice_tables()
    ptr = [0]
    out: list[int] = []
    for k in range(N_KEEPS):
        kc = t.keep_counts[k]
        for j in range(t.keep_ptr[k], t.keep_ptr[k + 1]):
            free = t.hand_counts[t.keep_hand[j]] - kc
            for extra in itertools.product(*(range(int(x) + 1) for x in free)):
                dice = [f + 1 for f in range(6) for _ in range(int(kc[f]) + extra[f])]
                out.append(t.keep_index(dice))
            ptr.append(len(out))
    return np.array(ptr, dtype=np.int64), np.array(out, dtype=np.int64)


def run_kernel(values: FloatArray | IntArray, rolls: int, sticky: bool) -> npt.NDArray[Any]:
    """``K_r`` for r = 1..rolls, shape ``(rolls, 462)``: float64, or int64 scaled by 6**(5r)."""
    from pinastats.dice._kernels import _solve_free, _solve_sticky  # numba, imported on use

    t = dice_tables()
    exact = values.dtype == np.int64
    scale = scales()[1] if exact else scales()[0]
    keep_value = np.empty((rolls, N_KEEPS), dtype=values.dtype)
    if sticky:
        ptr, keeps = between()
        states = np.empty((rolls, t.keep_hand.shape[0]), dtype=values.dtype)
        _solve_sticky(
            values, t.keep_ptr, t.keep_hand, t.keep_weight, scale, ptr, keeps, states, keep_value
        )
    else:
        hands = np.empty((rolls, N_HANDS), dtype=values.dtype)
        _solve_free(values, t.keep_levels, t.keep_plus, scale, t.hand_as_keep, t.keep_minus,
                    hands, keep_value)  # fmt: skip
    return keep_value


def run_python_ints(values: list[int], rolls: int, sticky: bool) -> npt.NDArray[np.object_]:
    """The scaled integer DP of :func:`run_kernel` on Python integers (no overflow)."""
    t = dice_tables()
    final = np.array(values, dtype=object)
    weight = t.keep_weight.astype(object)
    scale = scales()[1].astype(object)
    stop = t.keep_size == N_DICE
    rows = t.keep_ptr[:-1]
    keep_value = np.empty((rolls, N_KEEPS), dtype=object)
    if sticky:
        ptr, keeps = between()
        state = final[t.keep_hand]
        for r in range(1, rolls + 1):
            keep_value[r - 1] = np.add.reduceat(weight * state, rows) * scale
            state = np.maximum.reduceat(keep_value[r - 1][keeps], ptr[:-1])
        return keep_value
    hand = final
    full = 6**N_DICE
    for r in range(1, rolls + 1):
        k = np.add.reduceat(weight * hand[t.keep_hand], rows) * scale
        k[stop] = final[t.keep_hand[t.keep_ptr[:-1][stop]]] * full**r
        keep_value[r - 1] = k
        hand = np.maximum.reduceat(k[t.hand_keep], t.hand_keep_ptr[:-1])
    return keep_value
