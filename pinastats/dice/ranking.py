"""The one keep rule: which keeps tie, how keeps rank, which keep is played.

The rule (stated in :mod:`pinastats.dice.solver`): float values within
:data:`~pinastats.dice.hands.TIE_TOL` tie, integer and exact values tie only
when equal; a hand's keeps rank by value, tied keeps share a rank; the keep
played is the best one with the most dice, the earliest in keep-index order
among those. The numba side of the rule is
:func:`pinastats.dice._kernels._best_keep`; this module is its Python side
(same constant) for the tables people read.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from pinastats.dice.errors import TargetError, is_finite_number
from pinastats.dice.hands import TIE_TOL, check_hand_index, dice_tables
from pinastats.errors import PinastatsError

Value = float | int | Fraction


def _is_exact(values: Sequence[Value] | npt.NDArray[Any]) -> bool:
    if isinstance(values, np.ndarray):
        return values.dtype.kind in "iuO"
    return all(isinstance(v, numbers.Rational) and not isinstance(v, bool) for v in values)


def tie_ranks(values: Sequence[Value] | npt.NDArray[Any]) -> list[int]:
    """Competition rank of each value, 1 = best; tied values share a rank.

    Sorted best first, a value joins the rank of the first value of the current
    group when it is above that value minus ``TIE_TOL`` (floats) or equal to it
    (integers, fractions). The next group's rank counts the values before it.

    >>> tie_ranks([3, 2, 2, 1])
    [1, 2, 2, 4]
    >>> tie_ranks([0.5, 0.5 + 1e-15, 0.25])
    [1, 1, 3]
    """
    items = list(values)
    bad = [v for v in items if not is_finite_number(v)]
    if bad:
        raise PinastatsError(f"values to rank must be finite numbers, got {bad[0]!r} in {values!r}")
    exact = _is_exact(values)
    order = sorted(range(len(items)), key=lambda i: -items[i])
    ranks = [0] * len(items)
    top: Value = 0
    rank = 0
    for position, i in enumerate(order):
        v = items[i]
        joins = rank > 0 and (v == top if exact else v > top - TIE_TOL)
        if not joins:
            top, rank = v, position + 1
        ranks[i] = rank
    return ranks


def keep_order(
    values: Sequence[Value] | npt.NDArray[Any], sizes: Sequence[int], keep_ids: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Order a hand's candidate keeps best first; return ``(order, ranks)``.

    ``order`` lists positions by rank, then most dice kept, then keep index: its
    first entry is the keep the rule plays. ``ranks[i]`` is the rank of keep ``i``.
    """
    ranks = tie_ranks(values)
    order = sorted(range(len(ranks)), key=lambda i: (ranks[i], -sizes[i], keep_ids[i]))
    return order, ranks


def best_keep(keep_value: npt.NDArray[Any], hand: int) -> int:
    """Index of the keep the rule plays from hand ``hand`` (free holds), by the kernel.

    ``keep_value`` is one row of 462 values (float, or int64 numerators: exact).
    """
    t = dice_tables()
    row = np.asarray(keep_value)
    if row.shape != (t.keep_size.shape[0],) or row.dtype.kind not in "if":
        raise TargetError(f"keep values must be 462 int64 or float64 values, got {row.shape}")
    row = row.astype(np.int64 if row.dtype.kind == "i" else np.float64, copy=False)
    from pinastats.dice._kernels import _best_keep  # numba, imported on use

    return int(_best_keep(row, t.hand_keep_ptr, t.hand_keep, t.keep_size, check_hand_index(hand)))
