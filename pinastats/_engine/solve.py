# mypy: disallow-untyped-calls=False
"""Numba kernels of the exact two-player solver (private; arrays in, arrays out).

The game solved: two players, no Happy Hour, one token space per coaster. A
score never falls and is a function of the board (the starting score, each own
token's space value, +1 per pair of neighbouring own tokens), so a position is
``(F, S, mover)``: the first player's cells ``F``, the second player's cells
``S`` (bit masks over the cells) and who moves. Before the last turn each
player holds at most ``tokens - 1`` tokens; ``V[i, 0]`` is the chance that the
first player wins with the first player to move on board ``i``, ``V[i, 1]`` the
chance that the second player wins with the second player to move.

**Index.** The boards of ``a`` first-player and ``b`` second-player tokens form
the layer ``(a, b)``; a board's index in it is
``rank(F) * C(n - a, b) + rank(S')``, where ``rank`` is the colex rank of a
subset in the combinatorial number system (``sum_i C(c_i, i + 1)`` over its
cells ``c_0 < c_1 < ...``) and ``S'`` is ``S`` renumbered among the cells
outside ``F``. A placement only adds a token, so layer ``(a, b)`` reads layers
``(a + 1, b)`` and ``(a, b + 1)`` only, and the layers are solved from the most
tokens down; ``offset[a, b]`` is where a layer starts in ``V``.

**A turn.** With the mover's value ``f(h)`` of ending the turn with hand ``h``
(the best legal placement's value; a hand that places nothing passes, worth
``y``), the turn is the dice layer's DP (:func:`~pinastats.dice._kernels._expect_keeps`):
``V_0 = f``, ``K_r(k) = E[V_{r-1}]`` over the re-rolls of the dice not kept
(keeping all five stops, worth ``f``), ``V_r(h) = max_k K_r(k)``, and the turn
is worth ``sum_h p(h) V_{R-1}(h)`` over the first roll. ``T(y)`` is convex and
piecewise linear in the pass value ``y``, with slope the chance of passing
under the optimal policy, below 1 (three rolls showing nothing force nothing,
but a placement is forced whenever the dice show an open coaster).

**The two movers of a board** read each other through passes:
``u = T_F(1 - w)`` and ``w = T_S(1 - u)``. ``g(u) = T_F(1 - T_S(1 - u)) - u`` is
strictly decreasing (slope ``p_F p_S - 1 < 0``), so it has one root. A plain
step of the fixed point from a guess, then secant steps on the values alone
(``g`` is piecewise linear with a slope near -1: a secant through two points of
the root's piece lands on it exactly), find it on nearly every board; each
step stays inside a bisection bracket of the root, and a board ends when
``|g| <= TOLERANCE``. Where :data:`PLAIN_STEPS` secant steps do not suffice,
Newton's method on the exact slopes takes over (a policy iteration); each of
its evaluations also says how far each pass value may move before a policy
changes (the smallest margin over slope gap of the maxima in the DP), and a
Newton step inside both reaches is exact without another evaluation. Boards
where every hand shows an open coaster have no pass and need one turn each.

**Eight boards at once.** The plain and secant steps run on :data:`LANES`
boards side by side, one SIMD lane each (:func:`_turn_lanes`, compiled with
LLVM's vectorizer by :func:`~pinastats._jit.jit_lanes`); the first re-roll's
keep values are lines in the pass value, computed once per board
(:func:`_turn_lines`; the lines' slopes depend on the passes alone, the same for
both movers, so they are computed once for both). The lanes step together until
each has ended, and the rare lane that needs Newton goes on alone.

**Terminal placements.** A line wins at once (1). The first player's placement
that triggers the end (``target`` points or the last token) leaves the second
player one last turn, which she wins when her final dice place on a coaster
that completes a line or reaches the first player's score (a tie goes to the
latest placement, hers), or when she already leads (then any placement wins
too): the chance of ending on a set of winning cells, ``W[mask]``, one 0/1 turn
DP per set of cells (:func:`_final_turn_table`). The second player's trigger
ends the game at once: she wins with at least the first player's score.
"""

from __future__ import annotations

import numpy as np

from pinastats._jit import jit, jit_flat, jit_inline, jit_lanes
from pinastats.dice._kernels import _best_of_keeps, _expect_keeps
from pinastats.dice.hands import N_FACES, N_FOUR_DICE_KEEPS

TOLERANCE = 1e-13
"""Newton stops when a step changes the first player's chance by less than this."""

PLAIN_STEPS = 4
"""Secant steps on values alone before Newton's steps with slopes and reach take over.

Measured on the 4x4 grid (4 tokens): after the plain step, 42% of boards end on the
second secant evaluation, 56% on the third and 2% need a fourth; a lane's secant
step costs an eighth of two side-by-side turns, a Newton step alone about twelve
times that, so a fourth secant step beats handing the last 2% to Newton."""

LANES = 8
"""Boards whose turns are solved side by side, one SIMD lane each (8 doubles: two AVX2
registers, one AVX-512 register)."""

_LOW = 0x3FFFFFFF
"""An index masked with this is known to be non-negative, so numba's check for a negative
index (and its select, which stops LLVM from packing the lanes' loads) folds away."""

MAX_STEPS = 200
"""Most Newton (or bisection) steps for one board (a bisection halves [0, 1] 47 times
to reach :data:`TOLERANCE`)."""


# ------------------------------------------------------------------ subsets


@jit_inline
def _bit_count(x):
    """Number of set bits of ``x``."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@jit_inline
def _rank(mask, binom):
    """Colex rank of the subset ``mask`` among the subsets of its size."""
    r = 0
    i = 0
    c = 0
    while mask:
        if mask & 1:
            i += 1
            r += binom[c, i]
        mask >>= 1
        c += 1
    return r


@jit_inline
def _unrank(r, k, binom):
    """The subset of ``k`` elements whose colex rank is ``r``, as a mask."""
    mask = 0
    for i in range(k, 0, -1):
        c = i - 1
        while binom[c + 1, i] <= r:
            c += 1
        mask |= 1 << c
        r -= binom[c, i]
    return mask


@jit_inline
def _compress(mask, taken):
    """``mask`` renumbered among the cells outside ``taken`` (which ``mask`` avoids)."""
    out = 0
    j = 0
    c = 0
    while (mask >> c) != 0:
        if not (taken >> c) & 1:
            if (mask >> c) & 1:
                out |= 1 << j
            j += 1
        c += 1
    return out


@jit_inline
def _expand(compressed, taken, n_cells):
    """The inverse of :func:`_compress`: cells outside ``taken`` picked by ``compressed``."""
    out = 0
    j = 0
    for c in range(n_cells):
        if not (taken >> c) & 1:
            if (compressed >> j) & 1:
                out |= 1 << c
            j += 1
    return out


@jit_inline
def _board_index(first, second, a, b, n_cells, binom, offset):
    """Where board ``(first, second)`` with ``a`` and ``b`` tokens sits in ``V``."""
    width = binom[n_cells - a, b]
    return offset[a, b] + _rank(first, binom) * width + _rank(_compress(second, first), binom)


@jit_inline
def _board_at(i, a, b, n_cells, binom):
    """The masks ``(first, second)`` of index ``i`` of layer ``(a, b)``."""
    width = binom[n_cells - a, b]
    first = _unrank(i // width, a, binom)
    second = _expand(_unrank(i % width, b, binom), first, n_cells)
    return first, second


# ------------------------------------------------------------------ board facts


@jit_inline
def _score(mask, start, points, neighbours):
    """``start`` + the points of the spaces in ``mask`` + 1 per neighbouring pair in it."""
    s = start
    pairs = 0
    c = 0
    m = mask
    while m:
        if m & 1:
            s += points[c]
            pairs += _bit_count(neighbours[c] & mask)
        m >>= 1
        c += 1
    return s + pairs // 2


@jit_inline
def _has_line(mask, lines):
    """Whether ``mask`` holds every cell of some line."""
    for i in range(lines.shape[0]):
        if mask & lines[i] == lines[i]:
            return True
    return False


@jit_inline
def _final_turn_mask(first, second, first_score, second_score, points, neighbours, lines,
                     n_cells):  # fmt: skip
    """The cells on which the second player's last turn wins (all cells: she leads already)."""
    taken = first | second
    wins = 0
    for c in range(n_cells):
        if (taken >> c) & 1:
            continue
        bit = 1 << c
        gain = points[c] + _bit_count(neighbours[c] & second)
        if second_score + gain >= first_score or _has_line(second | bit, lines):
            wins |= bit
    return wins


# ------------------------------------------------------------------ the turn DP


@jit_flat
def _best_of_keeps_dual(keep_value, keep_slope, keep_minus, hand_as_keep, best, best_slope,
                        out, out_slope, reach):  # fmt: skip
    """:func:`~pinastats.dice._kernels._best_of_keeps` carrying each maximum's slope along.

    ``out[h] = max_k keep_value[k]`` over the keeps inside hand ``h`` and
    ``out_slope[h]`` the slope of the keep that attains it (of the larger slope
    on an exact tie: the right derivative of the maximum). ``reach[0]`` and
    ``reach[1]`` shrink to how far the pass value may rise and fall before some
    comparison changes its winner: while it moves less, every maximum keeps its
    keep and every value moves by its slope times the change (exactly).
    """
    track = reach[0] > 0.0  # a reach of 0 asks for none
    # the smallest margin / gain so far as a fraction (no division in the loop); 1/0: none
    up_m, up_g, down_m, down_g = 1.0, 0.0, 1.0, 0.0
    for k in range(keep_value.shape[0]):
        best[k] = keep_value[k]
        best_slope[k] = keep_slope[k]
    for i in range(keep_minus.shape[0]):
        k, smaller = keep_minus[i, 0], keep_minus[i, 1]
        v, m = best[smaller], best[k]
        sv, sm = best_slope[smaller], best_slope[k]
        take = (v > m) | ((v == m) & (sv > sm))
        best[k] = v if take else m  # selects, not branches
        best_slope[k] = sv if take else sm
        if track:
            margin = v - m if take else m - v
            gain = sm - sv if take else sv - sm  # the loser gains on the winner as y rises
            rises = (gain > 0.0) & (margin * up_g < up_m * gain)
            up_m = margin if rises else up_m
            up_g = gain if rises else up_g
            falls = (gain < 0.0) & (margin * down_g < -down_m * gain)
            down_m = margin if falls else down_m
            down_g = -gain if falls else down_g
    up = up_m / up_g if up_g > 0.0 else np.inf
    down = down_m / down_g if down_g > 0.0 else np.inf
    if track:
        reach[0] = min(reach[0], up)
        reach[1] = min(reach[1], down)
    for h in range(hand_as_keep.shape[0]):
        out[h] = best[hand_as_keep[h]]
        out_slope[h] = best_slope[hand_as_keep[h]]


@jit_flat
def _expect_keeps_dual(hand_value, hand_slope, stop_value, stop_slope, keep_levels, keep_plus,
                       keep_scale, hand_as_keep, out, out_slope):  # fmt: skip
    """:func:`~pinastats.dice._kernels._expect_keeps` on values and their slopes at once.

    The expectation is linear, so the slopes follow the same sums; one pass over
    the keeps reads each index once for both.
    """
    for i in range(N_FOUR_DICE_KEEPS):
        s = hand_value[keep_plus[i, 0]]
        d = hand_slope[keep_plus[i, 0]]
        for f in range(1, N_FACES):
            s += hand_value[keep_plus[i, f]]
            d += hand_slope[keep_plus[i, f]]
        out[keep_levels[i]] = s
        out_slope[keep_levels[i]] = d
    for i in range(N_FOUR_DICE_KEEPS, keep_levels.shape[0]):
        s = out[keep_plus[i, 0]]
        d = out_slope[keep_plus[i, 0]]
        for f in range(1, N_FACES):
            s += out[keep_plus[i, f]]
            d += out_slope[keep_plus[i, f]]
        out[keep_levels[i]] = s
        out_slope[keep_levels[i]] = d
    for i in range(keep_levels.shape[0]):
        k = keep_levels[i]
        out[k] *= keep_scale[k]
        out_slope[k] *= keep_scale[k]
    for h in range(hand_as_keep.shape[0]):
        out[hand_as_keep[h]] = stop_value[h]
        out_slope[hand_as_keep[h]] = stop_slope[h]


@jit_flat
def _turn(final, passes, y, rolls, tables, hand_value, hand_slope, keep_value, keep_slope,
          scratch, scratch_slope, reach):  # fmt: skip
    """The turn's value and its slope in the pass value ``y``: ``(T(y), T'(y))``.

    Unless ``reach[0]`` is 0 on the call, ``reach`` is set to how far ``y`` may
    rise (``reach[0]``) and fall (``reach[1]``) with the same policy: within it,
    ``T`` is exactly linear.

    ``final[h]`` is the value of ending with hand ``h``; where ``passes[h]`` the
    hand places nothing and is worth ``y``. On return ``hand_value[r]`` is
    ``V_r`` and ``keep_value[r - 1]`` is ``K_r`` for ``r < rolls`` (the arrays
    of :class:`SolverTables` shapes), with their slopes beside them.
    """
    keep_levels, keep_plus, keep_scale, hand_as_keep, keep_minus, hand_p = tables
    if reach[0] != 0.0:  # 0 asks for no reach (cheaper); else find it
        reach[0] = np.inf
        reach[1] = np.inf
    any_pass = False
    for h in range(final.shape[0]):
        p = passes[h]
        hand_value[0, h] = y if p else final[h]  # selects, not branches
        hand_slope[0, h] = 1.0 if p else 0.0
        any_pass |= p
    for r in range(1, rolls):
        if any_pass:
            _expect_keeps_dual(hand_value[r - 1], hand_slope[r - 1], hand_value[0], hand_slope[0],
                               keep_levels, keep_plus, keep_scale, hand_as_keep, keep_value[r - 1],
                               keep_slope[r - 1])  # fmt: skip
            _best_of_keeps_dual(keep_value[r - 1], keep_slope[r - 1], keep_minus, hand_as_keep,
                                scratch, scratch_slope, hand_value[r], hand_slope[r],
                                reach)  # fmt: skip
        else:
            _expect_keeps(hand_value[r - 1], hand_value[0], 1.0, keep_levels, keep_plus,
                          keep_scale, hand_as_keep, keep_value[r - 1])  # fmt: skip
            keep_slope[r - 1, :] = 0.0
            _best_of_keeps(keep_value[r - 1], keep_minus, hand_as_keep, scratch, hand_value[r])
            hand_slope[r, :] = 0.0
    value = 0.0
    slope = 0.0
    top = rolls - 1
    for h in range(final.shape[0]):
        value += hand_p[h] * hand_value[top, h]
        slope += hand_p[h] * hand_slope[top, h]
    return value, slope


@jit_flat
def _final_turn_table(hand_cells, rolls, tables, lo, hi, out, work):
    """``out[m] = W(m)`` for ``m`` in ``[lo, hi)``: 0/1 turns on sets of winning cells.

    ``W(m)`` is the chance of ending a turn on a hand that shows a coaster of the
    cells of ``m`` (stopping as soon as one does).
    """
    final, passes, hv, hs, kv, ks, scratch, scratch_slope, reach = work
    for h in range(passes.shape[0]):
        passes[h] = False
    for m in range(lo, hi):
        for h in range(final.shape[0]):
            final[h] = 1.0 if hand_cells[h] & m else 0.0
        out[m], _ = _turn(final, passes, 0.0, rolls, tables, hv, hs, kv, ks, scratch,
                          scratch_slope, reach)  # fmt: skip


# ------------------------------------------------------------------ the turn DP, 8 boards at once
# A lane tuple holds one value per board; LLVM's SLP vectorizer (:func:`jit_lanes`) packs
# each tuple's arithmetic into SIMD instructions. Lane arrays are flat: entry ``k`` of
# lane ``l`` is at ``k * LANES + l``.


@jit_inline
def _load(a, i):
    """The :data:`LANES` values of ``a`` from ``i`` on."""
    i = i & _LOW
    return (a[i], a[i + 1], a[i + 2], a[i + 3], a[i + 4], a[i + 5], a[i + 6], a[i + 7])


@jit_inline
def _store(a, i, t):
    """Write the lanes ``t`` to ``a`` from ``i`` on."""
    i = i & _LOW
    a[i], a[i + 1], a[i + 2], a[i + 3] = t[0], t[1], t[2], t[3]
    a[i + 4], a[i + 5], a[i + 6], a[i + 7] = t[4], t[5], t[6], t[7]


@jit_inline
def _plus(s, t):
    """``s + t``, lane by lane."""
    return (s[0] + t[0], s[1] + t[1], s[2] + t[2], s[3] + t[3], s[4] + t[4], s[5] + t[5],
            s[6] + t[6], s[7] + t[7])  # fmt: skip


@jit_inline
def _times(s, c):
    """``s * c`` for one number ``c``."""
    return (s[0] * c, s[1] * c, s[2] * c, s[3] * c, s[4] * c, s[5] * c, s[6] * c, s[7] * c)


@jit_inline
def _line(a, b, y):
    """``a + b * y``, lane by lane."""
    return (a[0] + b[0] * y[0], a[1] + b[1] * y[1], a[2] + b[2] * y[2],
            a[3] + b[3] * y[3], a[4] + b[4] * y[4], a[5] + b[5] * y[5],
            a[6] + b[6] * y[6], a[7] + b[7] * y[7])  # fmt: skip


@jit_inline
def _larger(s, t):
    """``max(s, t)``, lane by lane (``s`` on a tie, as :func:`_best_of_keeps` keeps)."""
    return (t[0] if t[0] > s[0] else s[0], t[1] if t[1] > s[1] else s[1],
            t[2] if t[2] > s[2] else s[2], t[3] if t[3] > s[3] else s[3],
            t[4] if t[4] > s[4] else s[4], t[5] if t[5] > s[5] else s[5],
            t[6] if t[6] > s[6] else s[6], t[7] if t[7] > s[7] else s[7])  # fmt: skip


@jit_inline
def _six_faces(a, base, row):
    """The sum of ``a`` over the six entries ``base + row[f] * LANES``, lane by lane."""
    s = _plus(_load(a, base + row[0] * LANES), _load(a, base + row[1] * LANES))
    s = _plus(s, _load(a, base + row[2] * LANES))
    s = _plus(s, _load(a, base + row[3] * LANES))
    s = _plus(s, _load(a, base + row[4] * LANES))
    return _plus(s, _load(a, base + row[5] * LANES))


@jit_lanes
def _expect_lanes(hand_value, base, stop_value, tables, out):
    """:func:`~pinastats.dice._kernels._expect_keeps` on every lane (hands from ``base``)."""
    keep_levels, keep_plus, keep_scale, hand_as_keep = tables[0], tables[1], tables[2], tables[3]
    for i in range(N_FOUR_DICE_KEEPS):
        _store(out, keep_levels[i] * LANES, _six_faces(hand_value, base, keep_plus[i]))
    for i in range(N_FOUR_DICE_KEEPS, keep_levels.shape[0]):
        _store(out, keep_levels[i] * LANES, _six_faces(out, 0, keep_plus[i]))
    for i in range(keep_levels.shape[0]):
        k = keep_levels[i]
        _store(out, k * LANES, _times(_load(out, k * LANES), keep_scale[k]))
    for h in range(hand_as_keep.shape[0]):
        _store(out, hand_as_keep[h] * LANES, _load(stop_value, h * LANES))


@jit_lanes
def _best_lanes(best, tables, hand_value, base):
    """:func:`~pinastats.dice._kernels._best_of_keeps` on every lane, in place on ``best``.

    Each hand's best keep value goes to ``hand_value`` from ``base``.
    """
    hand_as_keep, keep_minus = tables[3], tables[4]
    for i in range(keep_minus.shape[0]):
        k = keep_minus[i, 0] * LANES
        _store(best, k, _larger(_load(best, k), _load(best, keep_minus[i, 1] * LANES)))
    for h in range(hand_as_keep.shape[0]):
        _store(hand_value, base + h * LANES, _load(best, hand_as_keep[h] * LANES))


@jit_lanes
def _turn_lines(final, passes, tables, fixed, per_pass, scratch):
    """The first re-roll's keep values as lines in the pass value: ``fixed + per_pass * y``.

    ``V_0(h)`` is ``final[h]`` or ``y`` (a pass), so ``K_1`` is linear in ``y``:
    one expectation of the finals with passes worth 0 (:func:`_finals_line`),
    one of the pass indicator. Each later evaluation of the turn starts from
    these lines; the keeps' stops (all five dice) are ``V_0`` itself.
    """
    n = passes.shape[0]
    one = scratch[n : 2 * n]
    for j in range(n):
        one[j] = 1.0 if passes[j] else 0.0
    _expect_lanes(one, 0, one, tables, per_pass)
    _finals_line(final, passes, tables, fixed, scratch)


@jit_lanes
def _finals_line(final, passes, tables, fixed, scratch):
    """The constant part ``fixed`` of :func:`_turn_lines`'s lines alone.

    The slopes ``per_pass`` depend on the passes only, which are the same for
    both movers of a board (the open cells are), so a board's second turn
    reuses the first's.
    """
    n = passes.shape[0]
    zero = scratch[:n]
    for j in range(n):
        zero[j] = 0.0 if passes[j] else final[j]
    _expect_lanes(zero, 0, zero, tables, fixed)


@jit_lanes
def _turn_lanes(fixed, per_pass, y, rolls, tables, stop, hand_value, best, out):
    """The turn's value on every lane at pass values ``y``: ``out[l] = T_l(y[l])``.

    From :func:`_turn_lines`'s lines, the DP of :func:`_turn` on values alone:
    ``K_1 = fixed + per_pass * y``, ``V_1(h) = max_k K_1(k)``, then
    ``V_r`` from ``V_{r-1}`` as the dice layer does, and ``sum_h p(h) V_{R-1}(h)``.
    ``hand_value`` holds two rows of hands (``V_{r-1}`` and ``V_r``).
    """
    hand_as_keep, hand_p = tables[3], tables[5]
    n_hands = hand_as_keep.shape[0]
    row = n_hands * LANES
    ys = _load(y, 0)
    for h in range(n_hands):  # V_0: the stops of every re-roll
        k = hand_as_keep[h] * LANES
        _store(stop, h * LANES, _line(_load(fixed, k), _load(per_pass, k), ys))
    if rolls == 1:
        top, values = 0, stop
    else:
        for k in range(0, per_pass.shape[0], LANES):
            _store(best, k, _line(_load(fixed, k), _load(per_pass, k), ys))
        _best_lanes(best, tables, hand_value, 0)
        for r in range(2, rolls):
            _expect_lanes(hand_value, ((r - 2) % 2) * row, stop, tables, best)
            _best_lanes(best, tables, hand_value, ((r - 1) % 2) * row)
        top, values = ((rolls - 2) % 2) * row, hand_value
    total = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for h in range(n_hands):
        total = _plus(total, _times(_load(values, top + h * LANES), hand_p[h]))
    _store(out, 0, total)


# ------------------------------------------------------------------ one board


@jit_inline
def _rank_with(mask, c, binom):
    """Colex rank of ``mask`` with the cell ``c`` (not in ``mask``) added."""
    r = 0
    i = 0
    x = 0
    placed = False
    while mask:
        if mask & 1:
            if not placed and x > c:
                i += 1
                r += binom[c, i]
                placed = True
            i += 1
            r += binom[x, i]
        mask >>= 1
        x += 1
    if not placed:
        r += binom[c, i + 1]
    return r


@jit_inline
def _rank_without(mask, c, binom):
    """Colex rank of ``mask`` renumbered once the cell ``c`` (not in ``mask``) is taken out."""
    r = 0
    i = 0
    x = 0
    while mask:
        if mask & 1:
            i += 1
            r += binom[x - 1 if x > c else x, i]
        mask >>= 1
        x += 1
    return r


@jit_inline
def _children(first, second, a, b, game, values, child_first, child_second):
    """Each open cell's value to the mover who places there; returns the open cells.

    ``child_first[c]`` is the first player's chance after her token on ``c``,
    ``child_second[c]`` the second player's after his (open cells only). A
    child's index follows from the board's own ranks: with ``c'`` the place of
    ``c`` among the cells outside ``F``, the first player's child ranks
    ``F + c`` and ``S'`` with ``c'`` taken out; the second player's ranks
    ``F`` and ``S' + c'`` (:func:`_rank_with`, :func:`_rank_without`).
    """
    (n_cells, tokens, target, start_first, start_second, points, neighbours, lines, binom,
     offset, final_turn) = game  # fmt: skip
    taken = first | second
    s_first = _score(first, start_first, points, neighbours)
    s_second = _score(second, start_second, points, neighbours)
    squeezed = _compress(second, first)  # S', the second player's cells among those outside F
    rank_first = _rank(first, binom)
    width_first = binom[n_cells - a - 1, b]  # of layer (a + 1, b)
    base_first = offset[a + 1, b] if a + 1 < tokens else 0
    base_second = offset[a, b + 1] + rank_first * binom[n_cells - a, b + 1] if b + 1 < tokens else 0
    for c in range(n_cells):
        bit = 1 << c
        if taken & bit:
            continue
        c_free = c - _bit_count(first & (bit - 1))  # c's place among the cells outside F
        # the first player places on c
        f2 = first | bit
        s2 = s_first + points[c] + _bit_count(neighbours[c] & first)
        if _has_line(f2, lines):
            child_first[c] = 1.0
        elif a + 1 >= tokens or s2 >= target:
            if s_second > s2:
                child_first[c] = 0.0
            else:
                wins = _final_turn_mask(f2, second, s2, s_second, points, neighbours, lines,
                                        n_cells)  # fmt: skip
                child_first[c] = 1.0 - final_turn[wins]
        else:
            j = (base_first + _rank_with(first, c, binom) * width_first
                 + _rank_without(squeezed, c_free, binom))  # fmt: skip
            child_first[c] = 1.0 - values[j, 1]
        # the second player places on c
        g2 = second | bit
        t2 = s_second + points[c] + _bit_count(neighbours[c] & second)
        if _has_line(g2, lines):
            child_second[c] = 1.0
        elif b + 1 >= tokens or t2 >= target:
            child_second[c] = 1.0 if t2 >= s_first else 0.0
        else:
            child_second[c] = 1.0 - values[base_second + _rank_with(squeezed, c_free, binom), 0]
    return ((1 << n_cells) - 1) & ~taken


@jit_inline
def _hand_finals(open_cells, n_cells, hand_ptr, hand_cell, child_first, child_second,
                 final_first, final_second, passes, lane, stride):  # fmt: skip
    """Each hand's best placement for each mover, at ``h * stride + lane``; True if any passes.

    ``final_first[h]`` is the best of ``child_first`` over the open cells hand
    ``h`` shows (likewise for the second player); ``passes[h]`` when it shows
    none (a hand passes for both movers alike: the open cells are the same).
    The children of the taken cells become -1, below every chance, so the
    maxima need no test of the cells.
    """
    for c in range(n_cells):
        if not (open_cells >> c) & 1:
            child_first[c] = -1.0
            child_second[c] = -1.0
    any_pass = False
    for h in range(hand_ptr.shape[0] - 1):
        best_first = -1.0
        best_second = -1.0
        for j in range(hand_ptr[h], hand_ptr[h + 1]):
            c = hand_cell[j]
            v = child_first[c]
            best_first = v if v > best_first else best_first
            v = child_second[c]
            best_second = v if v > best_second else best_second
        q = h * stride + lane
        final_first[q] = best_first
        final_second[q] = best_second
        passes[q] = best_first < 0.0
        any_pass |= best_first < 0.0
    return any_pass


@jit_flat
def _newton(final_first, final_second, passes, u, lo, hi, rolls, tables, work):
    """One board's fixed point by Newton's method from ``u``: ``(u, w, steps)``.

    Each step evaluates both turns with their slopes and how far their pass
    values may move with the same policies, and takes Newton's step on ``g``
    (inside the bisection bracket ``[lo, hi]`` of the root). When the step
    stays within both reaches, both turns are linear on the way and the step
    lands on the root exactly: the values there follow without another
    evaluation. ``steps`` counts the evaluations.
    """
    hv, hs, kv, ks, scratch, scratch_slope, reach = work
    steps = 0
    while True:
        steps += 1
        reach[0] = reach[1] = 1.0
        w, slope_s = _turn(final_second, passes, 1.0 - u, rolls, tables, hv, hs, kv, ks,
                           scratch, scratch_slope, reach)  # fmt: skip
        up_s, down_s = reach[0], reach[1]
        reach[0] = reach[1] = 1.0
        u2, slope_f = _turn(final_first, passes, 1.0 - w, rolls, tables, hv, hs, kv, ks,
                            scratch, scratch_slope, reach)  # fmt: skip
        up_f, down_f = reach[0], reach[1]
        g = u2 - u
        if slope_s == 0.0 or abs(g) <= TOLERANCE or steps >= MAX_STEPS:
            # no pass: w does not depend on u and both are exact; else w is T_S(1 - u)
            # with |u - u2| <= TOLERANCE
            return u2, w, steps
        step = g / (1.0 - slope_f * slope_s)  # Newton: u + step is the linear model's root
        move_s = -step  # the second player's pass value 1 - u moves by -step
        move_f = -slope_s * move_s  # the first player's, 1 - w, by -(change of w)
        if -down_s <= move_s <= up_s and -down_f <= move_f <= up_f:
            return u2 + slope_f * move_f, w + slope_s * move_s, steps
        if g > 0.0:
            lo = max(lo, u)
        else:
            hi = min(hi, u)
        nxt = u + step
        if not (lo < nxt < hi):
            nxt = 0.5 * (lo + hi)
        u = nxt


@jit_flat
def _solve_lanes(n, rolls, tables, values, lanes, state, work, steps):
    """The fixed points of the first ``n`` lanes' boards, written to ``values``.

    All lanes step together: a plain step of the fixed point from each lane's
    ``guess``, then up to :data:`PLAIN_STEPS` secant steps on the values alone
    (``g`` is piecewise linear with a slope near -1: a secant through two
    points of the root's piece lands on it), each inside a bisection bracket
    of the root; a lane ends when ``|g| <= TOLERANCE``. The few lanes left then
    go on alone with :func:`_newton`. A lane without passes ends after its
    first turns (neither reads the other).
    """
    # one pass line serves both movers: a hand passes for both alike (_finals_line)
    (final_first, final_second, passes, fixed_first, per_pass, fixed_second, _, stop,
     hand_value, best, y, out, scratch) = lanes  # fmt: skip
    lane, index, any_pass, done = state
    x, x_prev, g_prev, lo, hi, w, guess = (lane[0], lane[1], lane[2], lane[3], lane[4], lane[5],
                                           lane[6])  # fmt: skip
    final_one, final_other, passes_one = work[0], work[1], work[2]
    _turn_lines(final_first, passes, tables, fixed_first, per_pass, scratch)
    _finals_line(final_second, passes, tables, fixed_second, scratch)
    for k in range(LANES):
        y[k] = 1.0 - guess[k]
    _turn_lanes(fixed_second, per_pass, y, rolls, tables, stop, hand_value, best, out)
    for k in range(LANES):
        w[k] = out[k]
        y[k] = 1.0 - out[k]
    _turn_lanes(fixed_first, per_pass, y, rolls, tables, stop, hand_value, best, out)
    left = 0
    for k in range(LANES):
        x[k] = out[k]
        done[k] = k >= n or not any_pass[k]
        if not done[k]:
            left += 1
            x_prev[k] = guess[k]
            g_prev[k] = x[k] - guess[k]
            lo[k], hi[k] = (guess[k], 1.0) if g_prev[k] > 0.0 else (0.0, guess[k])
    for _ in range(PLAIN_STEPS):
        if left == 0:
            break
        for k in range(LANES):
            y[k] = 1.0 - x[k]
        _turn_lanes(fixed_second, per_pass, y, rolls, tables, stop, hand_value, best, out)
        for k in range(LANES):
            if not done[k]:
                w[k] = out[k]
            y[k] = 1.0 - out[k]
        _turn_lanes(fixed_first, per_pass, y, rolls, tables, stop, hand_value, best, out)
        for k in range(LANES):
            if done[k]:
                continue
            g = out[k] - x[k]
            if abs(g) <= TOLERANCE:
                x[k] = out[k]
                done[k] = True
                left -= 1
                continue
            if g > 0.0:
                lo[k] = max(lo[k], x[k])
            else:
                hi[k] = min(hi[k], x[k])
            nxt = x[k] - g * (x[k] - x_prev[k]) / (g - g_prev[k]) if g != g_prev[k] else -1.0
            if not (lo[k] < nxt < hi[k]):
                nxt = 0.5 * (lo[k] + hi[k])
            x_prev[k], g_prev[k], x[k] = x[k], g, nxt
    for k in range(n):
        if not done[k]:
            for h in range(final_one.shape[0]):
                q = h * LANES + k
                final_one[h] = final_first[q]
                final_other[h] = final_second[q]
                passes_one[h] = passes[q]
            x[k], w[k], taken = _newton(final_one, final_other, passes_one, x[k], lo[k], hi[k],
                                        rolls, tables, work[3:])  # fmt: skip
            steps[1] += taken
        values[index[k], 0] = x[k]
        values[index[k], 1] = w[k]
        guess[k] = x[k]
    steps[0] += n


@jit_flat
def _solve_range(a, b, lo, hi, game, hands, rolls, tables, values, lanes, state, work, steps):
    """Solve the boards ``lo .. hi - 1`` of layer ``(a, b)`` into ``values``.

    Boards go to the :data:`LANES` lanes in turn (their placements' values
    first, :func:`_children` and :func:`_hand_finals`); each full set of lanes
    is solved together (:func:`_solve_lanes`), each lane starting from the
    value of the board it solved last. Boards that no game reaches (a player
    at or past the target, or holding a line) get NaN. ``steps[0]`` counts the
    boards solved, ``steps[1]`` the Newton steps taken.
    """
    n_cells, target = game[0], game[2]
    start_first, start_second, points = game[3], game[4], game[5]
    neighbours, lines = game[6], game[7]
    binom, offset = game[8], game[9]
    hand_ptr, hand_cell = hands
    final_first, final_second, passes = lanes[0], lanes[1], lanes[2]
    lane, index, any_pass = state[0], state[1], state[2]
    child_first, child_second = work[0], work[1]
    for k in range(LANES):
        lane[6, k] = 0.5  # the first guesses
    n = 0
    for i in range(lo, hi):
        first, second = _board_at(i, a, b, n_cells, binom)
        j = offset[a, b] + i
        if (
            _score(first, start_first, points, neighbours) >= target
            or _score(second, start_second, points, neighbours) >= target
            or _has_line(first, lines)
            or _has_line(second, lines)
        ):
            values[j, 0] = np.nan
            values[j, 1] = np.nan
            continue
        open_cells = _children(first, second, a, b, game, values, child_first, child_second)
        any_pass[n] = _hand_finals(open_cells, n_cells, hand_ptr, hand_cell, child_first,
                                   child_second, final_first, final_second, passes, n,
                                   LANES)  # fmt: skip
        index[n] = j
        n += 1
        if n == LANES:
            _solve_lanes(n, rolls, tables, values, lanes, state, work[2:], steps)
            n = 0
    if n:
        _solve_lanes(n, rolls, tables, values, lanes, state, work[2:], steps)


@jit
def _board_masks(i, a, b, n_cells, binom):
    """:func:`_board_at` from Python (queries and tests)."""
    return _board_at(i, a, b, n_cells, binom)


@jit
def _index_of(first, second, a, b, n_cells, binom, offset):
    """:func:`_board_index` from Python."""
    return _board_index(first, second, a, b, n_cells, binom, offset)


@jit
def _mover_finals(first, second, a, b, game, hands, values, mover, final, passes, child_first,
                  child_second):  # fmt: skip
    """The mover's ``final`` values and ``passes`` of a board (a query's turn).

    Returns the open cells, and fills each open cell's value to each mover.
    """
    hand_ptr, hand_cell = hands
    open_cells = _children(first, second, a, b, game, values, child_first, child_second)
    other = np.empty_like(final)
    if mover == 0:
        _hand_finals(open_cells, game[0], hand_ptr, hand_cell, child_first, child_second, final,
                     other, passes, 0, 1)  # fmt: skip
    else:
        _hand_finals(open_cells, game[0], hand_ptr, hand_cell, child_first, child_second, other,
                     final, passes, 0, 1)  # fmt: skip
    return open_cells


@jit
def _query_turn(final, passes, y, rolls, tables, hand_value, hand_slope, keep_value, keep_slope,
                scratch, scratch_slope, reach):  # fmt: skip
    """:func:`_turn` from Python."""
    return _turn(final, passes, y, rolls, tables, hand_value, hand_slope, keep_value, keep_slope,
                 scratch, scratch_slope, reach)  # fmt: skip


@jit
def _score_of(mask, start, points, neighbours):
    """:func:`_score` from Python (a position's scores checked against its tokens)."""
    return _score(mask, start, points, neighbours)


@jit
def _final_turn_of(first, second, first_score, second_score, points, neighbours, lines, n_cells):
    """:func:`_final_turn_mask` from Python."""
    return _final_turn_mask(first, second, first_score, second_score, points, neighbours, lines,
                            n_cells)  # fmt: skip
