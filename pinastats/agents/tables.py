"""The dice tables and workspaces the agent kernels read (built once per process)."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from pinastats.dice.combinations import Combination
from pinastats.dice.hands import N_HANDS, N_KEEPS, dice_tables
from pinastats.dice.solver import solve_turn

DEFAULT_ROLLS = 3


@cache
def key_to_hand() -> np.ndarray:
    """``(6**6,)`` hand index of each base-6 face-count key (-1 where no hand)."""
    t = dice_tables()
    table = np.full(6**6, -1, dtype=np.int64)
    keys = t.hand_counts @ (6 ** np.arange(5, -1, -1))
    table[keys] = np.arange(N_HANDS)
    return table


@cache
def turn_tables(rolls: int = DEFAULT_ROLLS) -> tuple[Any, ...]:
    """The tuple ``T`` of :mod:`pinastats.agents._kernels` for turns of ``rolls`` rolls."""
    t = dice_tables()
    scale = (6.0 ** -(5 - t.keep_size)).astype(np.float64)
    targets = np.stack([solve_turn(c.value, rolls=rolls).keep_value for c in Combination])
    return (
        t.keep_ptr,
        t.keep_hand,
        t.keep_weight,
        scale,
        t.hand_keep_ptr,
        t.hand_keep,
        t.keep_counts,
        key_to_hand(),
        t.hand_as_keep,
        t.keep_size,
        np.ascontiguousarray(targets, dtype=np.float64),
    )


def workspace(n_cells: int, rolls: int = DEFAULT_ROLLS) -> tuple[Any, ...]:
    """A fresh scratch tuple ``W`` for one thread of play."""
    return (
        np.zeros(N_HANDS),
        np.zeros((rolls, N_HANDS)),
        np.zeros((rolls, N_KEEPS)),
        np.zeros(n_cells, dtype=np.bool_),
        np.zeros(2 * n_cells * n_cells + 1, dtype=np.int64),
        np.zeros(n_cells),
        np.zeros(N_KEEPS),
    )
