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

from pinastats._jit import jit, jit_flat, jit_inline
from pinastats.dice._kernels import _best_of_keeps, _expect_keeps
from pinastats.dice.hands import N_FACES, N_FOUR_DICE_KEEPS

TOLERANCE = 1e-13
"""Newton stops when a step changes the first player's chance by less than this."""

PLAIN_STEPS = 3
"""Secant steps on values alone before Newton's steps with slopes and reach take over."""

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
def _turn_value(final, passes, y, rolls, tables, hand_value, keep_value, scratch):
    """:func:`_turn`'s value alone (no slope, no reach): the dice layer's kernels as they are."""
    keep_levels, keep_plus, keep_scale, hand_as_keep, keep_minus, hand_p = tables
    for h in range(final.shape[0]):
        hand_value[0, h] = y if passes[h] else final[h]
    for r in range(1, rolls):
        _expect_keeps(hand_value[r - 1], hand_value[0], 1.0, keep_levels, keep_plus, keep_scale,
                      hand_as_keep, keep_value[r - 1])  # fmt: skip
        _best_of_keeps(keep_value[r - 1], keep_minus, hand_as_keep, scratch, hand_value[r])
    value = 0.0
    for h in range(final.shape[0]):
        value += hand_p[h] * hand_value[rolls - 1, h]
    return value


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


# ------------------------------------------------------------------ one board


@jit_inline
def _children(first, second, a, b, game, values, child_first, child_second):
    """Each open cell's value to the mover who places there; returns the open cells.

    ``child_first[c]`` is the first player's chance after her token on ``c``,
    ``child_second[c]`` the second player's after his.
    """
    (n_cells, tokens, target, start_first, start_second, points, neighbours, lines, binom,
     offset, final_turn) = game  # fmt: skip
    taken = first | second
    s_first = _score(first, start_first, points, neighbours)
    s_second = _score(second, start_second, points, neighbours)
    for c in range(n_cells):
        bit = 1 << c
        if taken & bit:
            continue
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
            j = _board_index(f2, second, a + 1, b, n_cells, binom, offset)
            child_first[c] = 1.0 - values[j, 1]
        # the second player places on c
        g2 = second | bit
        t2 = s_second + points[c] + _bit_count(neighbours[c] & second)
        if _has_line(g2, lines):
            child_second[c] = 1.0
        elif b + 1 >= tokens or t2 >= target:
            child_second[c] = 1.0 if t2 >= s_first else 0.0
        else:
            j = _board_index(first, g2, a, b + 1, n_cells, binom, offset)
            child_second[c] = 1.0 - values[j, 0]
    return ((1 << n_cells) - 1) & ~taken


@jit_inline
def _hand_finals(open_cells, hand_ptr, hand_cell, child, final, passes):
    """``final[h]``: the best of ``child`` over the open cells hand ``h`` shows; else a pass."""
    for h in range(final.shape[0]):
        best = -1.0
        for j in range(hand_ptr[h], hand_ptr[h + 1]):
            c = hand_cell[j]
            if (open_cells >> c) & 1:
                v = child[c]
                if v > best:
                    best = v
        passes[h] = best < 0.0
        final[h] = best


@jit_flat
def _solve_board(first, second, a, b, game, hands, rolls, tables, values, work, guess):
    """Both movers' chances on one board, ``(u, w, steps)``: the fixed point of the passes.

    A plain step of the fixed point from ``guess`` comes first, then up to
    :data:`PLAIN_STEPS` secant steps, values only (on the 4x4 grid they end 85
    to 96 boards in 100, by layer). Then each step evaluates both turns with their
    slopes and how far their pass values may move with the same policies, and
    takes Newton's step on ``g`` (inside the bisection bracket of the root).
    When the step stays within both reaches, both turns are linear on the way
    and the step lands on the root exactly: the values there follow without
    another evaluation. ``steps`` counts these Newton steps.
    """
    hand_ptr, hand_cell = hands
    (child_first, child_second, final_first, pass_first, final_second, pass_second, hv, hs, kv,
     ks, scratch, scratch_slope, reach) = work  # fmt: skip
    open_cells = _children(first, second, a, b, game, values, child_first, child_second)
    _hand_finals(open_cells, hand_ptr, hand_cell, child_first, final_first, pass_first)
    _hand_finals(open_cells, hand_ptr, hand_cell, child_second, final_second, pass_second)
    # plain steps (values only) with the secant through the last two points: on the
    # root's piece of g (nearly linear, slope about -1) a secant lands on the root
    x_prev = guess
    w = _turn_value(final_second, pass_second, 1.0 - x_prev, rolls, tables, hv, kv, scratch)
    x = _turn_value(final_first, pass_first, 1.0 - w, rolls, tables, hv, kv, scratch)
    if not pass_first.any():  # no pass: neither turn reads the other, both are exact
        return x, w, 0
    g_prev = x - x_prev
    lo, hi = (x_prev, 1.0) if g_prev > 0.0 else (0.0, x_prev)
    for _ in range(PLAIN_STEPS):
        w = _turn_value(final_second, pass_second, 1.0 - x, rolls, tables, hv, kv, scratch)
        ux = _turn_value(final_first, pass_first, 1.0 - w, rolls, tables, hv, kv, scratch)
        g = ux - x
        if abs(g) <= TOLERANCE:
            return ux, w, 0
        if g > 0.0:
            lo = max(lo, x)
        else:
            hi = min(hi, x)
        nxt = x - g * (x - x_prev) / (g - g_prev) if g != g_prev else 0.5 * (lo + hi)
        if not (lo < nxt < hi):
            nxt = 0.5 * (lo + hi)
        x_prev, g_prev, x = x, g, nxt
    u = x
    lo, hi = 0.0, 1.0
    steps = 0
    while True:
        steps += 1
        reach[0] = reach[1] = 1.0
        w, slope_s = _turn(final_second, pass_second, 1.0 - u, rolls, tables, hv, hs, kv, ks,
                           scratch, scratch_slope, reach)  # fmt: skip
        up_s, down_s = reach[0], reach[1]
        reach[0] = reach[1] = 1.0
        u2, slope_f = _turn(final_first, pass_first, 1.0 - w, rolls, tables, hv, hs, kv, ks,
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
def _solve_range(a, b, lo, hi, game, hands, rolls, tables, values, work, steps):
    """Solve the boards ``lo .. hi - 1`` of layer ``(a, b)`` into ``values``.

    Boards that no game reaches (a player at or past the target, or holding a
    line) get NaN. ``steps[0]`` counts the boards solved, ``steps[1]`` the Newton
    steps taken.
    """
    n_cells, target = game[0], game[2]
    start_first, start_second, points = game[3], game[4], game[5]
    neighbours, lines = game[6], game[7]
    binom, offset = game[8], game[9]
    guess = 0.5
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
        u, w, n = _solve_board(first, second, a, b, game, hands, rolls, tables, values, work, guess)
        values[j, 0] = u
        values[j, 1] = w
        guess = u
        steps[0] += 1
        steps[1] += n


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
    child = child_first if mover == 0 else child_second
    _hand_finals(open_cells, hand_ptr, hand_cell, child, final, passes)
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
