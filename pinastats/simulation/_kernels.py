"""Numba kernel that plays a chunk of whole games with built-in agents (private)."""

from __future__ import annotations

from pinastats._jit import jit
from pinastats.agents._rollout import _agent_turn
from pinastats.game._kernels import _deal, _start_game, _winning_line
from pinastats.game._slots import (
    P_SCORE,
    S_FIRST,
    S_PLACEMENTS,
    S_REASON,
    S_TO_MOVE,
    S_TRIGGER,
    S_TURN,
    S_WINNER,
)


@jit
def _play_games(
    B,
    G,
    T,
    W,
    kinds,
    params,
    rng,
    first_seat,
    sides,
    start_scores,
    tokens_each,
    rolls,
    first,
    winner,
    reason,
    trigger,
    turns,
    line,
    scores,
    placed,
    owners,
):
    """Play ``first.shape[0]`` games in a row, writing one row of each output per game.

    ``kinds[p]``/``params[p]`` is the agent in seat ``p``; ``first_seat`` < 0
    draws the first player at random, else fixes it. ``owners[g, i]`` is a
    bitmask of the seats with a token on catalogue coaster ``i`` at the end
    (-1 when the coaster was not dealt).
    """
    n_cat = B[0].shape[0]
    for g in range(first.shape[0]):
        _deal(rng, G, n_cat, sides, start_scores, tokens_each)
        if first_seat >= 0:
            _start_game(G, first_seat, start_scores, tokens_each)
        status = G[4]
        over = False
        while not over:
            mover = status[S_TO_MOVE]
            before = status[S_PLACEMENTS]
            over = _agent_turn(kinds[mover], params[mover], B, G, T, W, rng, rolls)
            if status[S_PLACEMENTS] > before:
                placed[g, mover] += 1
        first[g] = status[S_FIRST]
        winner[g] = status[S_WINNER]
        reason[g] = status[S_REASON]
        trigger[g] = status[S_TRIGGER]
        turns[g] = status[S_TURN]
        line[g] = _winning_line(B, G, status[S_WINNER]) if reason[g] == 1 else -1
        for p in range(G[3].shape[0]):
            scores[g, p] = G[3][p, P_SCORE]
        owners[g, :] = -1
        for c in range(G[0].shape[0]):
            mask = 0
            for s in range(2):
                if G[2][c, s] >= 0:
                    mask |= 1 << G[2][c, s]
            owners[g, G[0][c]] = mask
