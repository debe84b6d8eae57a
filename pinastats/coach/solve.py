r"""The turn DP on the win probabilities of the outcome positions.

Given ``W(o)`` for the outcome positions of :mod:`pinastats.coach.outcomes`,
the value of a hand is a win probability:

* ``stop(h) = max over open cells c shown by h of W(c)``, else ``W(pass)``
  (stopping early with a hand that places nothing passes);
* ``final(h)`` is the same after the last roll, except that a hand placing
  nothing is worth the Happy Hour lottery ``(1/6) sum_e W(e)`` when the
  variant is played.

The dice layer's DP (through the engine's surface) on these values gives, with ``r``
rolls left, ``K_r(k)`` for every keep ``k`` (keeping all five dice is
stopping, worth ``stop(h)``) and ``V_r(h) = max_k K_r(k)``: exactly the
probability of winning after keep ``k`` when the mover plays the rest of the
turn to maximise it, given ``W``.

With the choices of that optimal play fixed (the cell of each hand, the keep
of each hand and stage), every value is linear in ``W``: ``K_r(k) = q_{r,k}
\cdot W`` where ``q_{r,k}(o)`` is the probability that the turn ends in
outcome ``o``. These weights give the standard errors: ``se^2 = q^T \Sigma q``
with ``\Sigma`` the covariance of the estimates of ``W``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from pinastats import _engine as E
from pinastats._arrays import BoolArray, FloatArray, IntArray
from pinastats._engine import best_keep, best_of_keeps, expect_keeps, turn_tables
from pinastats.dice.hands import N_HANDS, N_KEEPS


@dataclass(frozen=True)
class TurnWin:
    """The turn DP on ``W`` (see the module docstring).

    Attributes:
        stop_weights: ``(252, M)``: ``stop(h) = stop_weights[h] @ W``.
        final_weights: ``(252, M)``: ``final(h) = final_weights[h] @ W``.
        keep_value: ``(rolls_left, 462)``: ``K_r(k)``, ``r = 1 .. rolls_left``.
        keep_weights: ``(rolls_left, 462, M)``: ``K_r(k) = keep_weights[r-1, k] @ W``.
    """

    stop_weights: FloatArray
    final_weights: FloatArray
    keep_value: FloatArray
    keep_weights: FloatArray

    def keep_of(self, hand: int, rolls_left: int) -> int:
        """The keep played from ``hand`` with ``rolls_left`` rolls left (the dice layer's rule)."""
        t = turn_tables()
        return int(best_keep(self.keep_value[rolls_left - 1], t.hand_keep_ptr, t.hand_keep,
                              t.keep_size, hand))  # fmt: skip


@cache
def _transition(rolls: int) -> tuple[FloatArray, IntArray, IntArray]:
    """Dense keep -> hand probabilities, the five-dice keeps and their hands."""
    tables = turn_tables(rolls)
    p = np.zeros((N_KEEPS, N_HANDS))
    rows = np.repeat(np.arange(N_KEEPS), np.diff(tables.keep_ptr))
    np.add.at(p, (rows, tables.keep_hand), tables.keep_weight * tables.keep_scale[rows])
    five = np.flatnonzero(tables.keep_size == 5)
    hands = tables.keep_hand[tables.keep_ptr[five]].astype(np.int64)
    for a in (p, five, hands):
        a.setflags(write=False)
    return p, five, hands


def hand_weights(
    w: FloatArray, shows: BoolArray, pass_column: int, happy_columns: IntArray
) -> tuple[FloatArray, FloatArray]:
    """``(stop_weights, final_weights)``: each hand's outcome under the best cell for ``W``.

    A hand showing open cells takes the one of highest ``W`` (the first on a
    tie); a hand showing none passes when stopping early, and after the last
    roll plays the Happy Hour lottery (1/6 on each face) when there is one.
    """
    m = w.shape[0]
    n_open = shows.shape[1]
    stop = np.zeros((N_HANDS, m))
    placeable = shows.any(axis=1)
    if n_open:
        best = np.where(shows, w[:n_open], -np.inf).argmax(axis=1)
        rows = np.flatnonzero(placeable)
        stop[rows, best[rows]] = 1.0
    final = stop.copy()
    rest = np.flatnonzero(~placeable)
    if rest.size:
        stop[rest, pass_column] = 1.0
        if happy_columns.size:
            final[np.ix_(rest, happy_columns)] = 1.0 / happy_columns.size
        else:
            final[rest, pass_column] = 1.0
    return stop, final


def solve_win_turn(
    w: FloatArray,
    shows: BoolArray,
    pass_column: int,
    happy_columns: IntArray,
    rolls_left: int,
    rolls: int = 3,
) -> TurnWin:
    """The turn DP on ``W`` for ``rolls_left`` rolls left (see :class:`TurnWin`)."""
    t = turn_tables(rolls)
    p, five, five_hands = _transition(rolls)
    stop_w, final_w = hand_weights(w, shows, pass_column, happy_columns)
    stop_value = stop_w @ w
    hand_value = final_w @ w
    hand_w = final_w
    m = w.shape[0]
    keep_value = np.zeros((rolls_left, N_KEEPS))
    keep_weights = np.zeros((rolls_left, N_KEEPS, m))
    best = np.zeros(N_HANDS, dtype=np.int64)
    for r in range(1, rolls_left + 1):
        kv = keep_value[r - 1]
        expect_keeps(hand_value, stop_value, 1.0, t.keep_levels, t.keep_plus, t.keep_scale,
                      t.hand_as_keep, kv)  # fmt: skip
        kw = keep_weights[r - 1]
        kw[:] = p @ hand_w
        kw[five] = stop_w[five_hands]
        if r < rolls_left:
            E.best_keeps(kv, t.hand_keep_ptr, t.hand_keep, t.keep_size, best)
            hand_value = np.zeros(N_HANDS)
            best_of_keeps(kv, t.keep_minus, t.hand_as_keep, keep_value[r], hand_value)
            hand_w = kw[best]
    return TurnWin(stop_w, final_w, keep_value, keep_weights)


def hand_values(turn: TurnWin, w: FloatArray, rolls_left: int) -> FloatArray:
    """``V_r(h)`` of every hand, ``r = rolls_left``.

    ``final(h)`` for ``r = 0``, else the best ``K_r(k)`` over the keeps ``k`` of the hand
    (keeping all five: stopping, ``stop(h)``).
    """
    if rolls_left == 0:
        return np.asarray(turn.final_weights @ w, dtype=np.float64)
    t = turn_tables()
    out = np.zeros(N_HANDS)
    best_of_keeps(turn.keep_value[rolls_left - 1], t.keep_minus, t.hand_as_keep,
                   np.zeros(N_KEEPS), out)  # fmt: skip
    return out


def standard_error(q: FloatArray, covariance: FloatArray) -> float:
    """``sqrt(q^T Sigma q)``: the standard error of the estimate ``q @ W``."""
    return float(np.sqrt(max(float(q @ covariance @ q), 0.0)))
