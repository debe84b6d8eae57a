"""Numba kernels of the ``rollout`` agent, which plays to win (private).

Its dice follow ``strategic``; where several placements are legal it plays
each one out: ``params[W_ROLLOUTS]`` games to the end from the position after
that placement, every seat played by the one-turn agent ``params[W_POLICY]``,
and it takes the placement with the most wins (Monte Carlo one-ply lookahead).
"""

from __future__ import annotations

import numpy as np

from pinastats._jit import jit, jit_inline
from pinastats.agents._kernels import (
    K_ROLLOUT,
    K_STRATEGIC,
    W_POLICY,
    W_ROLLOUTS,
    _choose_cell,
    _play_turn,
    _turn_end,
    _turn_rolls,
)
from pinastats.game._kernels import _end_turn, _legal_cells, _place
from pinastats.game._slots import S_TO_MOVE, S_WINNER


@jit
def _rollout_cell(params, B, G, T, W, rng, rolls, legal):
    """The legal cell whose play-outs win most often for the player to move."""
    player = G[4][S_TO_MOVE]
    cells = np.flatnonzero(legal)
    if cells.shape[0] == 1:
        return cells[0]
    n_rollouts = int(params[W_ROLLOUTS])
    policy = int(params[W_POLICY])
    if n_rollouts <= 0:
        return _choose_cell(K_STRATEGIC, params, B, G, W, player, legal, rng)
    best_cell = cells[0]
    best = -1.0
    for cell in cells:
        wins = 0.0
        for _ in range(n_rollouts):
            H = (G[0].copy(), G[1].copy(), G[2].copy(), G[3].copy(), G[4].copy())
            _place(B, H, player, cell)
            over = _end_turn(B, H)
            while not over:
                over = _play_turn(policy, params, B, H, T, W, rng, rolls)
            winner = H[4][S_WINNER]
            if winner == player:
                wins += 1.0
            elif winner < 0:
                wins += 0.5
        if wins > best:
            best = wins
            best_cell = cell
    return best_cell


@jit_inline
def _agent_turn(kind, params, B, G, T, W, rng, rolls):
    """Play the mover's turn with any built-in agent; return True when the game is over."""
    if kind != K_ROLLOUT:
        return _play_turn(kind, params, B, G, T, W, rng, rolls)
    hand = _turn_rolls(K_STRATEGIC, params, B, G, T, W, rng, rolls)
    cell = -1
    legal = W[3].copy()
    if _legal_cells(B, G, G[4][S_TO_MOVE], hand, legal) > 0:
        cell = _rollout_cell(params, B, G, T, W, rng, rolls, legal)
    return _turn_end(K_STRATEGIC, params, B, G, W, rng, cell)
