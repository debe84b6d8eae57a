"""Numba kernels of the rules: the one implementation the Game object and the simulator share.

Every function takes the board tuple ``B`` and the game tuple ``G`` described in
:mod:`pinastats.game._slots` (plain arrays) and scalars; nothing here draws
random numbers except :func:`_roll`, which reads a ``numpy.random.Generator``
handed in by the caller.
"""

from __future__ import annotations

import numpy as np

from pinastats._jit import jit, jit_inline
from pinastats.game._slots import (
    P_LAST_PLACED,
    P_RESERVE,
    P_SCORE,
    R_MAX_TURNS,
    R_NEGATIVE,
    R_TARGET,
    S_FIRST,
    S_PLACEMENTS,
    S_REASON,
    S_TO_MOVE,
    S_TRIGGER,
    S_TRIGGER_TURN,
    S_TURN,
    S_WINNER,
)

# EndReason / Trigger / HappyHourEffect values (see rules.py)
_ONGOING, _PINA, _SCORE, _TOKENS, _TIE_BREAK, _DRAW, _TURN_LIMIT = 0, 1, 2, 3, 4, 5, 6
_TRIG_NONE, _TRIG_SCORE, _TRIG_TOKENS = 0, 1, 2
_HH_LOSE, _HH_REMOVE, _HH_OTHERS, _HH_MOVE, _HH_FLIP, _HH_GAIN = 1, 2, 3, 4, 5, 6


# ------------------------------------------------------------------ dice


@jit_inline
def _roll(rng, keep_counts, key_to_hand, keep):
    """Keep ``keep`` (a keep index), roll the other dice; return the new hand index.

    Each die is ``floor(6 u) + 1`` with ``u = rng.random()``, drawn in order.
    """
    key = 0
    counts = keep_counts[keep].copy()
    for _ in range(5 - counts.sum()):
        counts[int(rng.random() * 6.0)] += 1
    for f in range(6):
        key = key * 6 + counts[f]
    return key_to_hand[key]


# ------------------------------------------------------------------ cells


@jit_inline
def _owns(G, cell, player):
    """Whether ``player`` has a token on ``cell``."""
    tokens = G[2]
    return (tokens[cell, 0] == player) | (tokens[cell, 1] == player)


@jit_inline
def _free_space(G, cell):
    """First free space of a cell (0 or 1), or -1 if the coaster is full."""
    for s in range(1 + G[1][cell]):
        if G[2][cell, s] < 0:
            return s
    return -1


# why a placement is refused (0: it is legal), in the order the rules are checked
PLACE_OK, NO_RESERVE, NO_MATCH, OWN_TOKEN, COASTER_FULL = 0, 1, 2, 3, 4


@jit_inline
def _closed_reason(G, player, cell):
    """Why ``player`` could not place on ``cell`` even with matching dice (0: they could).

    Needs a token in reserve, no own token on the coaster and a free space.
    """
    tokens = G[2]
    free = False
    own = False
    for s in range(1 + G[1][cell]):
        t = tokens[cell, s]
        own |= t == player
        free |= t < 0
    reason = PLACE_OK
    if not free:
        reason = COASTER_FULL
    if own:
        reason = OWN_TOKEN
    if G[3][player, P_RESERVE] <= 0:
        reason = NO_RESERVE
    return reason


@jit_inline
def _open_to(G, player, cell):
    """Whether ``player`` could place on ``cell`` with matching dice."""
    return _closed_reason(G, player, cell) == PLACE_OK


@jit_inline
def _cell_combination(B, G, cell):
    return B[0][G[0][cell]]


@jit_inline
def _placement_error(B, G, player, cell, hand):
    """0 if ``player`` may place on ``cell`` with final hand ``hand``, else the rule broken.

    Checked in order: a token in reserve, dice showing the coaster's combination,
    no own token on it, a free space.
    """
    reason = _closed_reason(G, player, cell)
    if reason == NO_RESERVE:
        return reason
    masks, cat_comb, cell_coaster = B[4], B[0], G[0]
    shows = masks[cat_comb[cell_coaster[cell]], hand]
    return reason if shows else NO_MATCH


@jit_inline
def _legal_cells(B, G, player, hand, out):
    """``out[c]`` = placing on cell ``c`` is legal with final hand ``hand``; return the count."""
    n = 0
    for c in range(out.shape[0]):
        ok = _placement_error(B, G, player, c, hand) == PLACE_OK
        out[c] = ok
        n += ok
    return n


@jit_inline
def _placement_points(B, G, player, cell):
    """Points of placing on ``cell``: the free space's value + 1 per own neighbouring token."""
    space = _free_space(G, cell)
    points = B[1][G[0][cell], G[1][cell], space]
    neighbours = B[2]
    for i in range(neighbours.shape[1]):
        n = neighbours[cell, i]
        if n < 0:
            break
        points += _owns(G, n, player)
    return points


@jit_inline
def _place(B, G, player, cell):
    """Place a token of ``player`` on ``cell`` (legality checked by the caller); return points."""
    points = _placement_points(B, G, player, cell)
    G[2][cell, _free_space(G, cell)] = player
    G[3][player, P_SCORE] += points
    G[3][player, P_RESERVE] -= 1
    G[4][S_PLACEMENTS] += 1
    G[3][player, P_LAST_PLACED] = G[4][S_PLACEMENTS]
    return points


@jit_inline
def _winning_line(B, G, player):
    """Index of the first winning line (row, column, diagonal) ``player`` owns entirely, or -1."""
    lines = B[3]
    for i in range(lines.shape[0]):
        full = True
        for j in range(lines.shape[1]):
            c = lines[i, j]
            if c < 0:
                break
            if not _owns(G, c, player):
                full = False
                break
        if full:
            return i
    return -1


@jit_inline
def _has_line(B, G, player):
    """Whether ``player`` owns every cell of some winning line (PIÑA COLADICE)."""
    return _winning_line(B, G, player) >= 0


# ------------------------------------------------------------------ end of turn


@jit_inline
def _decide_by_score(G):
    """Set winner and reason at the end of the final round (highest score, then recency)."""
    players = G[3]
    best = players[0, P_SCORE]
    for p in range(players.shape[0]):
        best = max(best, players[p, P_SCORE])
    n_leaders = 0
    winner = -1
    latest = 0
    for p in range(players.shape[0]):
        if players[p, P_SCORE] == best:
            n_leaders += 1
            if players[p, P_LAST_PLACED] > latest:
                latest = players[p, P_LAST_PLACED]
                winner = p
    status = G[4]
    if n_leaders == 1:
        for p in range(players.shape[0]):
            if players[p, P_SCORE] == best:
                winner = p
        status[S_REASON] = _SCORE if status[S_TRIGGER] == _TRIG_SCORE else _TOKENS
    elif winner >= 0:
        status[S_REASON] = _TIE_BREAK
    else:
        status[S_REASON] = _DRAW
    status[S_WINNER] = winner


@jit_inline
def _end_turn(B, G):
    """End check after a turn, then pass the dice; return True if the game is over.

    A line wins at once (the player whose turn it was is checked first, then the
    others in turn order); a score >= target or an empty reserve triggers the
    end, which comes when the round is complete (every player had as many turns).
    """
    status, players = G[4], G[3]
    n = players.shape[0]
    mover = status[S_TO_MOVE]
    for i in range(n):
        p = (mover + i) % n
        if _has_line(B, G, p):
            status[S_WINNER] = p
            status[S_REASON] = _PINA
            status[S_TRIGGER] = _TRIG_NONE
            status[S_TURN] += 1
            return True
    if status[S_TRIGGER] == _TRIG_NONE:
        for i in range(n):
            p = (mover + i) % n
            if players[p, P_SCORE] >= B[5][R_TARGET]:
                status[S_TRIGGER] = _TRIG_SCORE
                break
        if status[S_TRIGGER] == _TRIG_NONE:
            for i in range(n):
                if players[(mover + i) % n, P_RESERVE] == 0:
                    status[S_TRIGGER] = _TRIG_TOKENS
                    break
        if status[S_TRIGGER] != _TRIG_NONE:
            status[S_TRIGGER_TURN] = status[S_TURN]
    status[S_TURN] += 1
    status[S_TO_MOVE] = (mover + 1) % n
    if status[S_TRIGGER] != _TRIG_NONE and status[S_TURN] % n == 0:
        _decide_by_score(G)
        return True
    if status[S_TURN] >= B[5][R_MAX_TURNS]:
        status[S_REASON] = _TURN_LIMIT
        status[S_WINNER] = -1
        return True
    return False


# ------------------------------------------------------------------ Happy Hour


@jit
def _happy_hour_options(B, G, player, effect, out):
    """Write the choices of a Happy Hour effect into ``out``; return their number.

    Effects without a choice (1, 3, 6) have the single option 0. Effect 2: the
    cells holding one of the player's tokens. Effect 4: ``(cell*2 + space)*C + to``
    for another player's token on ``(cell, space)`` and a cell ``to`` with a free
    space and no token of that owner. Effect 5: every cell. No option: cannot apply.
    ``out`` needs room for ``2 C**2`` options.
    """
    n_cells = G[0].shape[0]
    n = 0
    if effect == _HH_REMOVE:
        for c in range(n_cells):
            if _owns(G, c, player):
                out[n] = c
                n += 1
    elif effect == _HH_MOVE:
        for c in range(n_cells):
            for s in range(2):
                owner = G[2][c, s]
                if owner < 0 or owner == player:
                    continue
                for d in range(n_cells):
                    if d != c and _free_space(G, d) >= 0 and not _owns(G, d, owner):
                        out[n] = (c * 2 + s) * n_cells + d
                        n += 1
    elif effect == _HH_FLIP:
        for c in range(n_cells):
            out[n] = c
            n += 1
    else:
        out[0] = 0
        n = 1
    return n


@jit
def _apply_happy_hour(B, G, player, effect, option):
    """Apply a Happy Hour effect with a choice from :func:`_happy_hour_options`."""
    players, tokens = G[3], G[2]
    n_cells = G[0].shape[0]
    if effect == _HH_LOSE:
        score = players[player, P_SCORE] - 3
        if score < 0 and B[5][R_NEGATIVE] == 0:
            score = 0
        players[player, P_SCORE] = min(score, players[player, P_SCORE])
    elif effect == _HH_REMOVE:
        for s in range(2):
            if tokens[option, s] == player:
                tokens[option, s] = -1
                players[player, P_RESERVE] += 1
    elif effect == _HH_OTHERS:
        for p in range(players.shape[0]):
            if p != player:
                players[p, P_SCORE] += 1
    elif effect == _HH_MOVE:
        to = option % n_cells
        cell = option // n_cells // 2
        space = option // n_cells % 2
        owner = tokens[cell, space]
        tokens[cell, space] = -1
        tokens[to, _free_space(G, to)] = owner
    elif effect == _HH_FLIP:
        for s in range(2):
            owner = tokens[option, s]
            if owner >= 0:
                players[owner, P_RESERVE] += 1
                tokens[option, s] = -1
        G[1][option] = 1 - G[1][option]
    elif effect == _HH_GAIN:
        players[player, P_SCORE] += 4


@jit_inline
def _start_game(G, first, start_scores, tokens_each):
    """Reset tokens, scores (``start_scores[i]`` for the i-th player in turn order) and status."""
    G[2][:] = -1
    n = G[3].shape[0]
    for i in range(n):
        p = (first + i) % n
        G[3][p, P_SCORE] = start_scores[i]
        G[3][p, P_RESERVE] = tokens_each
        G[3][p, P_LAST_PLACED] = 0
    status = G[4]
    status[:] = 0
    status[S_FIRST] = first
    status[S_TO_MOVE] = first
    status[S_TRIGGER_TURN] = -1
    status[S_WINNER] = -1


@jit_inline
def _deal(rng, G, n_coasters, sides, start_scores, tokens_each):
    """Set up a game at random: coasters, sides, first player, scores and reserves.

    Cell ``c`` gets the ``c``-th coaster of a uniformly random arrangement of
    the catalogue (partial Fisher-Yates with ``rng.random()``); ``sides`` gives
    each cell's side; the first player is drawn uniformly.
    """
    pool = np.arange(n_coasters)
    cells = G[0]
    for c in range(cells.shape[0]):
        j = c + int(rng.random() * (n_coasters - c))
        pool[c], pool[j] = pool[j], pool[c]
        cells[c] = pool[c]
    G[1][:] = sides
    first = int(rng.random() * G[3].shape[0])
    _start_game(G, first, start_scores, tokens_each)
