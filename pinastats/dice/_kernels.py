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


@jit_inline
def _expect_four_keeps(hand_value, keep_ptr, keep_hand, keep_weight, keep_scale,
                       k0, k1, k2, k3, n, out):  # fmt: skip
    """``out[k]`` as :func:`_expect_keep` for four keeps whose rows have ``n`` entries.

    The four sums are added side by side, each in the order of its own row: the
    processor overlaps four chains of additions instead of waiting on one, and
    every sum is bit for bit the one of a row-by-row loop.
    """
    a0, a1, a2, a3 = keep_ptr[k0], keep_ptr[k1], keep_ptr[k2], keep_ptr[k3]
    s0 = s1 = s2 = s3 = hand_value[0] * 0
    for j in range(n):
        s0 += keep_weight[a0 + j] * hand_value[keep_hand[a0 + j]]
        s1 += keep_weight[a1 + j] * hand_value[keep_hand[a1 + j]]
        s2 += keep_weight[a2 + j] * hand_value[keep_hand[a2 + j]]
        s3 += keep_weight[a3 + j] * hand_value[keep_hand[a3 + j]]
    out[k0] = s0 * keep_scale[k0]
    out[k1] = s1 * keep_scale[k1]
    out[k2] = s2 * keep_scale[k2]
    out[k3] = s3 * keep_scale[k3]


@jit_flat
def _expect_keeps(hand_value, final_value, stop_scale, keep_ptr, keep_hand, keep_weight,
                  keep_scale, keep_order, keep_groups, out):  # fmt: skip
    """``out[k] = keep_scale[k] * sum_j keep_weight[j] * hand_value[keep_hand[j]]``.

    Keeping all five dice re-rolls nothing: it ends the turn, so its value is the
    hand's final value, ``out[h] = stop_scale * final_value[h]`` (``stop_scale`` is 1,
    or ``6**(5 r)`` for the exact integer DP).

    The keeps are visited by group of equal row length
    (``keep_order[keep_groups[g]:keep_groups[g + 1]]``), four at a time
    (:func:`_expect_four_keeps`); the values do not depend on the order of visit.
    """
    for g in range(keep_groups.shape[0] - 1):
        lo, hi = keep_groups[g], keep_groups[g + 1]
        first = keep_order[lo]
        n = keep_ptr[first + 1] - keep_ptr[first]
        if n == 1:  # five dice kept: the row is the hand itself
            for i in range(lo, hi):
                k = keep_order[i]
                out[k] = final_value[keep_hand[keep_ptr[k]]] * stop_scale
            continue
        quads = lo + (hi - lo) // 4 * 4
        for i in range(lo, quads, 4):
            _expect_four_keeps(hand_value, keep_ptr, keep_hand, keep_weight, keep_scale,
                               keep_order[i], keep_order[i + 1], keep_order[i + 2],
                               keep_order[i + 3], n, out)  # fmt: skip
        for i in range(quads, hi):
            k = keep_order[i]
            out[k] = _expect_keep(k, hand_value, keep_ptr, keep_hand, keep_weight, keep_scale)


@jit_inline
def _expect_hand_keeps(hand, hand_value, keep_ptr, keep_hand, keep_weight, keep_scale,
                       hand_keep_ptr, hand_keep_by_rows, out):  # fmt: skip
    """``out[k]`` as :func:`_expect_keeps`, for the keeps of ``hand`` only.

    ``hand_keep_by_rows`` lists each hand's keeps longest row first, so keeps
    with rows of one length come together, four at a time (:func:`_expect_four_keeps`).
    """
    j, hi = hand_keep_ptr[hand], hand_keep_ptr[hand + 1]
    while j < hi:
        k0 = hand_keep_by_rows[j]
        n = keep_ptr[k0 + 1] - keep_ptr[k0]
        k3 = hand_keep_by_rows[j + 3] if j + 3 < hi else k0
        if j + 3 < hi and keep_ptr[k3 + 1] - keep_ptr[k3] == n:
            _expect_four_keeps(hand_value, keep_ptr, keep_hand, keep_weight, keep_scale, k0,
                               hand_keep_by_rows[j + 1], hand_keep_by_rows[j + 2], k3, n,
                               out)  # fmt: skip
            j += 4
        else:
            out[k0] = _expect_keep(k0, hand_value, keep_ptr, keep_hand, keep_weight, keep_scale)
            j += 1


@jit_inline
def _best_of_hand(keep_value, hand_keep_ptr, hand_keep, h):
    """``max over the keeps k of hand h of keep_value[k]`` (scanned in keep order)."""
    best = keep_value[hand_keep[hand_keep_ptr[h]]]
    for j in range(hand_keep_ptr[h] + 1, hand_keep_ptr[h + 1]):
        v = keep_value[hand_keep[j]]
        best = v if v > best else best  # a select, not a branch
    return best


@jit_flat
def _best_of_keeps(keep_value, hand_keep_ptr, hand_keep, hand_order, hand_groups, out):
    """``out[h] = max over the keeps k of hand h of keep_value[k]``.

    The hands are visited by group of equal number of keeps
    (``hand_order[hand_groups[g]:hand_groups[g + 1]]``), four side by side, each
    scanning its own keeps in order (as :func:`_best_of_hand`).
    """
    for g in range(hand_groups.shape[0] - 1):
        lo, hi = hand_groups[g], hand_groups[g + 1]
        first = hand_order[lo]
        n = hand_keep_ptr[first + 1] - hand_keep_ptr[first]
        quads = lo + (hi - lo) // 4 * 4
        for i in range(lo, quads, 4):
            h0, h1, h2, h3 = hand_order[i], hand_order[i + 1], hand_order[i + 2], hand_order[i + 3]
            a0, a1 = hand_keep_ptr[h0], hand_keep_ptr[h1]
            a2, a3 = hand_keep_ptr[h2], hand_keep_ptr[h3]
            b0, b1 = keep_value[hand_keep[a0]], keep_value[hand_keep[a1]]
            b2, b3 = keep_value[hand_keep[a2]], keep_value[hand_keep[a3]]
            for j in range(1, n):
                v0, v1 = keep_value[hand_keep[a0 + j]], keep_value[hand_keep[a1 + j]]
                v2, v3 = keep_value[hand_keep[a2 + j]], keep_value[hand_keep[a3 + j]]
                b0 = v0 if v0 > b0 else b0
                b1 = v1 if v1 > b1 else b1
                b2 = v2 if v2 > b2 else b2
                b3 = v3 if v3 > b3 else b3
            out[h0], out[h1], out[h2], out[h3] = b0, b1, b2, b3
        for i in range(quads, hi):
            h = hand_order[i]
            out[h] = _best_of_hand(keep_value, hand_keep_ptr, hand_keep, h)


@jit_flat
def _solve_free(
    final_value, keep_ptr, keep_hand, keep_weight, keep_scale, keep_order, keep_groups,
    hand_keep_ptr, hand_keep, hand_order, hand_groups, hand_value, keep_value,
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
                      keep_scale, keep_order, keep_groups, keep_value[r - 1])  # fmt: skip
        if r < rolls:
            _best_of_keeps(keep_value[r - 1], hand_keep_ptr, hand_keep, hand_order, hand_groups,
                           hand_value[r])  # fmt: skip


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
