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
from pinastats.dice.hands import N_FACES, N_FOUR_DICE_KEEPS, TIE_TOL


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


@jit_flat
def _expect_keeps(hand_value, final_value, stop_scale, keep_levels, keep_plus, keep_scale,
                  hand_as_keep, out):  # fmt: skip
    """``out[k] = K_r(k)``: the value of keeping ``k`` and re-rolling the other dice.

    The dice re-rolled are independent, so they can be rolled one at a time:
    with ``S(h) = hand_value[h]`` for a hand and ``S(k) = sum_f S(k + f)`` over the
    six faces ``f`` of one more die for a keep of fewer dice, ``S(k)`` is the sum
    of ``hand_value`` over the ``6**(5-|k|)`` ordered re-rolls, and
    ``K_r(k) = keep_scale[k] * S(k)``: 6 additions per keep (1,260 in all)
    instead of a product per transition entry (4,368). ``keep_levels`` lists the
    keeps of four dice first (``keep_plus`` then holds hands), then three, ...,
    none, so each ``S`` is summed before the keeps one die smaller read it.

    Keeping all five dice re-rolls nothing: it ends the turn, so its value is the
    hand's final value, ``out[h] = stop_scale * final_value[h]`` (``stop_scale`` is 1,
    or ``6**(5 r)`` for the exact integer DP).
    """
    for i in range(N_FOUR_DICE_KEEPS):
        s = hand_value[keep_plus[i, 0]]
        for f in range(1, N_FACES):
            s += hand_value[keep_plus[i, f]]
        out[keep_levels[i]] = s
    for i in range(N_FOUR_DICE_KEEPS, keep_levels.shape[0]):
        s = out[keep_plus[i, 0]]
        for f in range(1, N_FACES):
            s += out[keep_plus[i, f]]
        out[keep_levels[i]] = s
    for i in range(keep_levels.shape[0]):
        k = keep_levels[i]
        out[k] *= keep_scale[k]
    for h in range(hand_as_keep.shape[0]):
        out[hand_as_keep[h]] = final_value[h] * stop_scale


@jit_flat
def _best_of_keeps(keep_value, keep_minus, hand_as_keep, best, out):
    """``out[h] = max over the keeps k of hand h of keep_value[k]``.

    ``best[k]`` becomes the best keep value inside ``k`` (``k`` itself
    included), one face at a time: for each pair ``(k, k - f)`` of
    ``keep_minus``, ``best[k] = max(best[k], best[k - f])``, the pairs of a face
    in increasing count of that face, so that after face ``f`` ``best[k]`` is the
    maximum over every way of dropping dice of faces ``1 .. f``. That is 1,260
    comparisons instead of one per keep of each hand (4,368); a maximum is exact,
    so the values are those of scanning each hand's keeps. ``best`` is scratch
    memory of 462 values.
    """
    for k in range(keep_value.shape[0]):
        best[k] = keep_value[k]
    for i in range(keep_minus.shape[0]):
        k, smaller = keep_minus[i, 0], keep_minus[i, 1]
        v, m = best[smaller], best[k]
        best[k] = v if v > m else m  # a select, not a branch
    for h in range(hand_as_keep.shape[0]):
        out[h] = best[hand_as_keep[h]]


@jit_inline
def _solve_stages(final_value, stop_value, stop_step, stages, keep_levels, keep_plus, keep_scale,
                  hand_as_keep, keep_minus, hand_value, keep_value):  # fmt: skip
    """The turn DP with free re-holding: the one driver of every solve.

    ``hand_value[0] = final_value``; for ``r = 1 .. stages``:
    ``keep_value[r-1] = K_r`` (:func:`_expect_keeps`, where stopping with a hand
    is worth ``stop_value`` times ``stop_step**r``) and, below the top stage,
    ``hand_value[r] = V_r``, the best ``K_r`` inside each hand
    (:func:`_best_of_keeps`, the row ``keep_value[r]``, not yet solved, as its
    scratch memory). The dice layer stops on the target itself with exact
    integer weights (``stop_step`` the scale of a five-dice keep); the agents
    stop on the best placement, in probabilities (``stop_step`` 1).
    """
    for h in range(final_value.shape[0]):
        hand_value[0, h] = final_value[h]
    stop = stop_step * 0 + 1
    for r in range(1, stages + 1):
        stop *= stop_step
        _expect_keeps(hand_value[r - 1], stop_value, stop, keep_levels, keep_plus, keep_scale,
                      hand_as_keep, keep_value[r - 1])  # fmt: skip
        if r < stages:
            _best_of_keeps(keep_value[r - 1], keep_minus, hand_as_keep, keep_value[r],
                           hand_value[r])  # fmt: skip


@jit_flat
def _solve_free(final_value, keep_levels, keep_plus, keep_scale, hand_as_keep, keep_minus,
                hand_value, keep_value):  # fmt: skip
    """Free re-holding on a target: fill ``hand_value[r] = V_r`` and ``keep_value[r-1] = K_r``.

    ``hand_value`` has shape ``(rolls, 252)`` and ``keep_value`` ``(rolls, 462)``;
    stopping is worth the target itself (:func:`_solve_stages`).
    """
    full = keep_scale[keep_scale.shape[0] - 1]  # scale of a five-dice keep: 1 or 6**5
    _solve_stages(final_value, final_value, full, hand_value.shape[0], keep_levels, keep_plus,
                  keep_scale, hand_as_keep, keep_minus, hand_value, keep_value)  # fmt: skip


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
