# mypy: disallow-untyped-calls=False
"""Numba kernels of the turn dynamic programme (private; arrays in, arrays out).

Notation (see :mod:`pinastats.dice.solver`): ``V_r`` is the value of a hand with
``r`` rolls left, ``K_r`` the value of a keep before a re-roll when ``r`` rolls
are left. Each kernel works for ``float64`` values and, when the final values
are integers, for ``int64`` values scaled by ``6**(5 r)`` so that every stage
is an exact integer (``keep_scale`` is then ``6**|keep|`` instead of
``6**-(5-|keep|)``).
"""

from __future__ import annotations

from numba import types
from numba.extending import overload

from pinastats._jit import jit_flat, jit_inline

TIE_TOL = 1e-12
"""Two float keep values within ``TIE_TOL`` of each other tie (integer values tie when equal)."""


def _beats(v, best, more_dice):  # pragma: no cover - only its numba overload runs
    """Whether a keep worth ``v`` replaces the best so far, worth ``best``."""
    raise NotImplementedError("compiled through numba only")


@overload(_beats, inline="always")
def _beats_overload(v, best, more_dice):
    """Exact comparison for integer values, ``TIE_TOL`` for floats (chosen at compile time)."""
    if isinstance(v, types.Integer):

        def exact(v, best, more_dice):
            return (v > best) | ((v == best) & more_dice)

        return exact

    def within(v, best, more_dice):
        # no short-circuit: inlined, an `or` leaves a phi variable numba warns about
        return (v > best + TIE_TOL) | ((v > best - TIE_TOL) & more_dice)

    return within


@jit_inline
def _best_keep(keep_value, hand_keep_ptr, hand_keep, keep_size, hand):
    """The keep played from ``hand``: the keep rule of :mod:`pinastats.dice.solver`.

    Scan the hand's keeps in keep-index order (the empty keep first); a keep
    replaces the best so far when it is worth more by more than ``TIE_TOL``, or
    ties with it (within ``TIE_TOL``; equal for integer values) and keeps more dice.
    """
    lo = hand_keep_ptr[hand]
    best_k = hand_keep[lo]
    best = keep_value[best_k]
    for j in range(lo + 1, hand_keep_ptr[hand + 1]):
        k = hand_keep[j]
        v = keep_value[k]
        if _beats(v, best, keep_size[k] > keep_size[best_k]):
            best_k = k
            best = v
    return best_k


@jit_inline
def _expect_keep(k, hand_value, keep_ptr, keep_hand, keep_weight, keep_scale):
    """``K(k) = keep_scale[k] * sum_j keep_weight[j] * hand_value[keep_hand[j]]`` for one keep."""
    s = hand_value[0] * 0
    for j in range(keep_ptr[k], keep_ptr[k + 1]):
        s += keep_weight[j] * hand_value[keep_hand[j]]
    return s * keep_scale[k]


@jit_flat
def _expect_keeps(hand_value, final_value, stop_scale, keep_ptr, keep_hand, keep_weight,
                  keep_scale, out):  # fmt: skip
    """``out[k] = keep_scale[k] * sum_j keep_weight[j] * hand_value[keep_hand[j]]``.

    Keeping all five dice re-rolls nothing: it ends the turn, so its value is the
    hand's final value, ``out[h] = stop_scale * final_value[h]`` (``stop_scale`` is 1,
    or ``6**(5 r)`` for the exact integer DP).
    """
    for k in range(keep_ptr.shape[0] - 1):
        lo, hi = keep_ptr[k], keep_ptr[k + 1]
        if hi - lo == 1:
            out[k] = final_value[keep_hand[lo]] * stop_scale
        else:
            out[k] = _expect_keep(k, hand_value, keep_ptr, keep_hand, keep_weight, keep_scale)


@jit_flat
def _best_of_keeps(keep_value, hand_keep_ptr, hand_keep, out):
    """``out[h] = max over the keeps k of hand h of keep_value[k]``."""
    for h in range(hand_keep_ptr.shape[0] - 1):
        best = keep_value[hand_keep[hand_keep_ptr[h]]]
        for j in range(hand_keep_ptr[h] + 1, hand_keep_ptr[h + 1]):
            v = keep_value[hand_keep[j]]
            best = v if v > best else best  # a select, not a branch
        out[h] = best


@jit_flat
def _solve_free(
    final_value, keep_ptr, keep_hand, keep_weight, keep_scale, hand_keep_ptr, hand_keep,
    hand_value, keep_value,
):  # fmt: skip
    """Free re-holding: fill ``hand_value[r] = V_r`` and ``keep_value[r-1] = K_r``.

    ``hand_value`` has shape ``(rolls, 252)`` and ``keep_value`` ``(rolls, 462)``.
    """
    rolls = hand_value.shape[0]
    for h in range(final_value.shape[0]):
        hand_value[0, h] = final_value[h]
    full = keep_scale[keep_scale.shape[0] - 1]  # scale of a five-dice keep: 1 or 6**5
    stop = full * 0 + 1
    for r in range(1, rolls + 1):
        stop *= full
        _expect_keeps(hand_value[r - 1], final_value, stop, keep_ptr, keep_hand, keep_weight,
                      keep_scale, keep_value[r - 1])  # fmt: skip
        if r < rolls:
            _best_of_keeps(keep_value[r - 1], hand_keep_ptr, hand_keep, hand_value[r])


@jit_flat
def _solve_sticky(
    final_value, keep_ptr, keep_hand, keep_weight, keep_scale, between_ptr, between_keep,
    state_value, keep_value,
):  # fmt: skip
    """Sticky holds: a state is a transition entry ``j = (locked keep, hand)``.

    ``S_0(j) = f(hand_j)``; ``K_r(k) = scale_k * sum_{j in row k} w_j S_{r-1}(j)``;
    ``S_r(j) = max of K_r(k')`` over the keeps between the locked keep and the
    hand (``between_keep[between_ptr[j]:between_ptr[j+1]]``).
    ``state_value`` has shape ``(rolls, 4368)``, ``keep_value`` ``(rolls, 462)``.
    """
    rolls = state_value.shape[0]
    for j in range(keep_hand.shape[0]):
        state_value[0, j] = final_value[keep_hand[j]]
    for r in range(1, rolls + 1):
        for k in range(keep_ptr.shape[0] - 1):
            s = state_value[0, 0] * 0
            for j in range(keep_ptr[k], keep_ptr[k + 1]):
                s += keep_weight[j] * state_value[r - 1, j]
            keep_value[r - 1, k] = s * keep_scale[k]
        if r < rolls:
            for j in range(keep_hand.shape[0]):
                best = keep_value[r - 1, between_keep[between_ptr[j]]]
                for i in range(between_ptr[j] + 1, between_ptr[j + 1]):
                    v = keep_value[r - 1, between_keep[i]]
                    if v > best:
                        best = v
                state_value[r, j] = best
