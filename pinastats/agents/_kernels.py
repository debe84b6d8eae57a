"""Numba kernels of the built-in agents' decisions (private).

An agent is a ``kind`` (the ``K_*`` constants) and a float parameter vector.
Decisions read the board and game tuples of :mod:`pinastats.game._slots`, the
dice tables tuple ``T`` and a workspace tuple ``W`` (see :mod:`.workspace`).

``T = (keep_ptr, keep_hand, keep_weight, keep_scale, hand_keep_ptr, hand_keep,
keep_counts, key_to_hand, hand_as_keep, keep_size, target_keep_value)`` where
``target_keep_value[comb, r-1, k]`` is ``K_r(k)`` for the single target ``comb``.

``W = (final_value (252,), hand_value (R, 252), keep_value (R, 462),
legal (C,), options (2 C^2 + 1,), cell_value (C,), top_keep (462,))``.
"""

from __future__ import annotations

from pinastats._jit import jit, jit_inline
from pinastats.dice._kernels import _best_of_keeps, _expect_keeps
from pinastats.game._kernels import (
    _apply_happy_hour,
    _cell_combination,
    _end_turn,
    _happy_hour_options,
    _has_line,
    _legal_cells,
    _open_to,
    _owns,
    _place,
    _placement_points,
    _roll,
)
from pinastats.game._slots import (
    P_RESERVE,
    P_SCORE,
    R_HAPPY_HOUR,
    R_TARGET,
    S_TO_MOVE,
    S_TRIGGER,
)

K_RANDOM, K_GREEDY, K_EV, K_STRATEGIC, K_ROLLOUT = 0, 1, 2, 3, 4
# strategic parameters
W_LINE, W_BLOCK, W_RACE, W_WIN, W_ROLLOUTS, W_POLICY = 0, 1, 2, 3, 4, 5

_EPS = 1e-12


# ------------------------------------------------------------------ position


@jit
def _line_potential(B, G, player):
    """Sum over the lines still open to ``player`` of ``(own tokens / line length)**2``.

    A line is open to ``player`` while each of its coasters is either theirs or
    still has a free space.
    """
    lines = B[3]
    total = 0.0
    for i in range(lines.shape[0]):
        own = 0
        length = 0
        open_line = True
        for j in range(lines.shape[1]):
            c = lines[i, j]
            if c < 0:
                break
            length += 1
            if _owns(G, c, player):
                own += 1
            elif not _room_for(G, c, player):
                open_line = False
                break
        if open_line and length > 0:
            total += (own * own) / (length * length)
    return total


@jit_inline
def _room_for(G, cell, player):
    """A free space on ``cell`` that ``player`` could still take."""
    tokens = G[2]
    for s in range(1 + G[1][cell]):
        if tokens[cell, s] < 0:
            return True
    return False


@jit
def _opponents_potential(B, G, player):
    total = 0.0
    for p in range(G[3].shape[0]):
        if p != player:
            total += _line_potential(B, G, p)
    return total


@jit
def _placement_value(kind, params, B, G, player, cell):
    """Value an agent gives to placing on ``cell`` now (points for ``ev``)."""
    points = _placement_points(B, G, player, cell)
    if kind != K_STRATEGIC:
        return float(points)
    tokens = G[2]
    space = 0 if tokens[cell, 0] < 0 else 1
    own_before = _line_potential(B, G, player)
    opp_before = _opponents_potential(B, G, player)
    tokens[cell, space] = player
    wins = _has_line(B, G, player)
    own_after = _line_potential(B, G, player)
    opp_after = _opponents_potential(B, G, player)
    tokens[cell, space] = -1
    if wins:
        return params[W_WIN]
    value = points + params[W_LINE] * (own_after - own_before)
    value += params[W_BLOCK] * (opp_before - opp_after)
    # race: once the end is near, points matter more than shape
    players = G[3]
    near_end = (
        G[4][S_TRIGGER] != 0
        or players[player, P_RESERVE] <= 2
        or (players[player, P_SCORE] + points >= B[5][R_TARGET])
    )
    if near_end:
        value += params[W_RACE] * points
    return value


@jit
def _final_values(kind, params, B, G, player, W):
    """``W[0][h]`` = best placement value over the coasters open to ``player`` matching ``h``.

    Hands matching no open coaster are worth 0.
    """
    f = W[0]
    cell_value = W[5]
    comb_ptr, comb_hands = B[6], B[7]
    f[:] = 0.0
    for c in range(G[0].shape[0]):
        if not _open_to(G, player, c):
            continue
        v = _placement_value(kind, params, B, G, player, c)
        cell_value[c] = v
        comb = _cell_combination(B, G, c)
        for j in range(comb_ptr[comb], comb_ptr[comb + 1]):
            h = comb_hands[j]
            if v > f[h]:
                f[h] = v


@jit
def _prepare_turn(kind, params, B, G, T, W, player, rolls):
    """Solve the stages of this turn's DP that do not depend on the dice (ev, strategic)."""
    if kind != K_EV and kind != K_STRATEGIC:
        return
    _final_values(kind, params, B, G, player, W)
    hand_value, keep_value = W[1], W[2]
    hand_value[0, :] = W[0]
    for r in range(1, rolls - 1):
        _expect_keeps(hand_value[r - 1], W[0], 1.0, T[0], T[1], T[2], T[3], keep_value[r - 1])
        _best_of_keeps(keep_value[r - 1], T[4], T[5], hand_value[r])


@jit_inline
def _argmax_keep(values, T, hand):
    """Best keep of ``hand`` under ``values[k]``; ties go to the keep with more dice."""
    ptr, keeps, size = T[4], T[5], T[9]
    best_k = keeps[ptr[hand]]
    best = values[best_k]
    for j in range(ptr[hand] + 1, ptr[hand + 1]):
        k = keeps[j]
        v = values[k]
        better = v > best + _EPS
        if not better and v > best - _EPS:
            better = size[k] > size[best_k]
        if better:
            best_k = k
            best = v
    return best_k


@jit
def _dp_keep(T, W, hand, rolls_left, rolls):
    """Optimal keep for the prepared value function with ``rolls_left`` rolls left."""
    if rolls_left <= rolls - 2:
        return _argmax_keep(W[2][rolls_left - 1], T, hand)
    # top stage: expectations only for the keeps of this hand
    top = W[6]
    prev = W[1][rolls_left - 1]
    for j in range(T[4][hand], T[4][hand + 1]):
        k = T[5][j]
        s = 0.0
        for i in range(T[0][k], T[0][k + 1]):
            s += T[2][i] * prev[T[1][i]]
        top[k] = s * T[3][k]
    top[T[8][hand]] = W[0][hand]  # keeping all five dice ends the turn
    return _argmax_keep(top, T, hand)


@jit_inline
def _choose_keep(kind, params, B, G, T, W, player, hand, rolls_left, rolls, rng):
    """Keep index chosen with ``rolls_left`` rolls left (the whole hand = stop)."""
    if kind == K_RANDOM:
        return T[8][hand]
    if kind == K_GREEDY:
        best_c = -1
        best = -1.0
        for c in range(G[0].shape[0]):
            if _open_to(G, player, c):
                comb = _cell_combination(B, G, c)
                k = _argmax_keep(T[10][comb, rolls_left - 1], T, hand)
                v = T[10][comb, rolls_left - 1, k]
                if v > best + _EPS:
                    best = v
                    best_c = c
        if best_c < 0:
            return T[8][hand]
        return _argmax_keep(T[10][_cell_combination(B, G, best_c), rolls_left - 1], T, hand)
    return _dp_keep(T, W, hand, rolls_left, rolls)


@jit_inline
def _choose_cell(kind, params, B, G, W, player, legal, rng):
    """The legal cell chosen for the token (``legal`` is a boolean mask with a True)."""
    n_cells = legal.shape[0]
    if kind == K_RANDOM:
        n = 0
        for c in range(n_cells):
            n += legal[c]
        pick = int(rng.random() * n)
        for c in range(n_cells):
            if legal[c]:
                if pick == 0:
                    return c
                pick -= 1
    best_c = -1
    best = 0.0
    for c in range(n_cells):
        if legal[c]:
            v = _placement_value(kind if kind == K_STRATEGIC else K_EV, params, B, G, player, c)
            if best_c < 0 or v > best + _EPS:
                best_c = c
                best = v
    return best_c


@jit
def _choose_happy_hour(kind, params, B, G, player, effect, options, n, rng):
    """Pick one of ``n`` Happy Hour options.

    ``random`` picks uniformly. The others maximise own line potential minus the
    opponents' (never completing an opponent's line), trying each option on the
    board and undoing it.
    """
    if n == 1:
        return options[0]
    if kind == K_RANDOM:
        return options[int(rng.random() * n)]
    tokens, sides, players = G[2], G[1], G[3]
    best_i = 0
    best = -1e300
    saved_tokens = tokens.copy()
    saved_sides = sides.copy()
    saved_players = players.copy()
    for i in range(n):
        _apply_happy_hour(B, G, player, effect, options[i])
        value = _line_potential(B, G, player) - _opponents_potential(B, G, player)
        for p in range(players.shape[0]):
            if p != player and _has_line(B, G, p):
                value -= 1e6
        if value > best + _EPS:
            best = value
            best_i = i
        tokens[:] = saved_tokens
        sides[:] = saved_sides
        players[:] = saved_players
    return options[best_i]


@jit_inline
def _turn_rolls(kind, params, B, G, T, W, rng, rolls):
    """The dice part of a turn: roll all dice, then up to ``rolls - 1`` re-rolls.

    Before each re-roll the agent picks a keep; keeping the whole hand stops.
    Returns the final hand index.
    """
    player = G[4][S_TO_MOVE]
    if K_EV <= kind <= K_STRATEGIC:  # random and greedy need no DP
        _prepare_turn(kind, params, B, G, T, W, player, rolls)
    hand = _roll(rng, T[6], T[7], 0)
    for rolls_left in range(rolls - 1, 0, -1):
        keep = _choose_keep(kind, params, B, G, T, W, player, hand, rolls_left, rolls, rng)
        if keep == T[8][hand]:
            break
        hand = _roll(rng, T[6], T[7], keep)
    return hand


@jit_inline
def _turn_end(kind, params, B, G, W, rng, cell):
    """The rest of a turn: place on ``cell`` (-1: nothing legal), else Happy Hour; end check.

    Returns True when the game is over.
    """
    player = G[4][S_TO_MOVE]
    if cell >= 0:
        _place(B, G, player, cell)
    elif B[5][R_HAPPY_HOUR]:
        effect = int(rng.random() * 6.0) + 1
        n = _happy_hour_options(B, G, player, effect, W[4])
        if n > 0:
            option = _choose_happy_hour(kind, params, B, G, player, effect, W[4], n, rng)
            _apply_happy_hour(B, G, player, effect, option)
    return _end_turn(B, G)


@jit_inline
def _play_turn(kind, params, B, G, T, W, rng, rolls):
    """Play the mover's turn with a one-turn agent (random, greedy, ev, strategic).

    Dice (:func:`_turn_rolls`), then a compulsory placement on a legal coaster
    chosen by the agent, else the Happy Hour die when the variant is on, then
    the end check (:func:`_turn_end`). Returns True when the game is over.
    """
    hand = _turn_rolls(kind, params, B, G, T, W, rng, rolls)
    cell = -1
    if _legal_cells(B, G, G[4][S_TO_MOVE], hand, W[3]) > 0:
        cell = _choose_cell(kind, params, B, G, W, G[4][S_TO_MOVE], W[3], rng)
    return _turn_end(kind, params, B, G, W, rng, cell)
