"""Numba kernels of the ``rollout`` agent, which plays to win (private).

Its dice follow ``strategic``; where several placements are legal it plays
each one out: ``params[PARAM_ROLLOUTS]`` games to the end from the position
after that placement, every seat played by the one-turn agent
``params[PARAM_POLICY]``, and it takes the placement with the most wins
(Monte Carlo one-ply lookahead).
"""

from __future__ import annotations

from pinastats._jit import jit_flat, jit_inline
from pinastats.agents._kernels import (
    K_ROLLOUT,
    K_STRATEGIC,
    PARAM_POLICY,
    PARAM_ROLLOUTS,
    _choose_cell,
)
from pinastats.agents._turn import _play_turn, _turn_dice, _turn_finish
from pinastats.game._kernels import _copy_game, _end_turn, _legal_cells, _place


@jit_flat
def _rollout_cell(params, board, game, tables, work, rng, legal):
    """The legal cell whose play-outs win most often for the player to move.

    ``legal`` must not be one of ``work``'s arrays that the play-outs overwrite
    (``work.candidates`` is reserved for it).
    """
    seat = game.status[0].to_move
    n_legal = 0
    only = -1
    for c in range(legal.shape[0]):
        if legal[c]:
            n_legal += 1
            only = c if only < 0 else only
    if n_legal == 1:
        return only
    n_rollouts = int(params[PARAM_ROLLOUTS])
    policy = int(params[PARAM_POLICY])
    if n_rollouts <= 0:
        return _choose_cell(K_STRATEGIC, params, board, game, seat, legal, rng)
    playout = work.playout
    best_cell = only
    best = -1.0
    for cell in range(legal.shape[0]):
        if not legal[cell]:
            continue
        wins = 0.0
        for _ in range(n_rollouts):
            _copy_game(game, playout)
            _place(board, playout, seat, cell)
            over = _end_turn(board, playout)
            while not over:
                over = _play_turn(policy, params, board, playout, tables, work, rng)
            winner = playout.status[0].winner
            if winner == seat:
                wins += 1.0
            elif winner < 0:
                wins += 0.5
        if wins > best:
            best = wins
            best_cell = cell
    return best_cell


@jit_inline
def _agent_turn(kind, params, board, game, tables, work, rng):
    """Play the mover's turn with any built-in agent; return True when the game is over."""
    if kind != K_ROLLOUT:
        return _play_turn(kind, params, board, game, tables, work, rng)
    hand, used = _turn_dice(K_STRATEGIC, params, board, game, tables, work, rng)
    cell = -1
    if _legal_cells(board, game, game.status[0].to_move, hand, work.candidates) > 0:
        cell = _rollout_cell(params, board, game, tables, work, rng, work.candidates)
    return _turn_finish(K_STRATEGIC, params, board, game, work, rng, cell, used)
