"""Numba kernel that plays a chunk of games and logs when each token space was filled (private)."""

from __future__ import annotations

from pinastats._jit import jit_flat
from pinastats.agents._rollout import _agent_turn
from pinastats.game._kernels import _deal_into, _start_game


@jit_flat
def _play_logged(board, game, tables, work, kinds, params, rng, setup, out, log):
    """:func:`pinastats.simulation._kernels._play_games`, the same games, with a placement log.

    ``out`` is a :class:`~pinastats.simulation.chunk.ChunkOutput` (only ``first``,
    ``winner``, ``reason``, ``turns``, ``scores`` and ``owners`` are written);
    ``log`` a :class:`~pinastats.balance.trace.PlacementLog`: per game, the
    coaster dealt to each cell, and per token space the turn (0-based, -1: empty
    at the end) and seat of the token on it at the end, and the points of that
    placement (0 for a token Happy Hour moved there).
    """
    status = game.status[0]
    spaces = game.spaces
    for g in range(out.first.shape[0]):
        _deal_into(rng, game, work.pool, setup.sides, setup.start_scores, setup.tokens_each)
        if setup.first_seat >= 0:
            _start_game(game, setup.first_seat, setup.start_scores, setup.tokens_each)
        for c in range(spaces.shape[0]):
            log.coaster[g, c] = game.cell_coaster[c]
            for s in range(spaces.shape[1]):
                log.turn[g, c, s] = -1
                log.seat[g, c, s] = -1
                log.points[g, c, s] = 0
        over = False
        while not over:
            mover = status.to_move
            turn = status.turn
            before = status.placements
            score = game.players[mover].score
            over = _agent_turn(kinds[mover], params[mover], board, game, tables, work, rng)
            placed = status.placements > before
            for c in range(spaces.shape[0]):
                for s in range(spaces.shape[1]):
                    seat = spaces[c, s]
                    if seat < 0:  # free, or emptied by Happy Hour this turn
                        log.turn[g, c, s] = -1
                        log.seat[g, c, s] = -1
                        log.points[g, c, s] = 0
                    elif log.turn[g, c, s] < 0 or log.seat[g, c, s] != seat:
                        # filled this turn: the mover's placement, or a token Happy Hour moved
                        log.turn[g, c, s] = turn
                        log.seat[g, c, s] = seat
                        log.points[g, c, s] = (
                            game.players[mover].score - score if placed and seat == mover else 0
                        )
        out.first[g] = status.first
        out.winner[g] = status.winner
        out.reason[g] = status.reason
        out.trigger[g] = status.trigger
        out.turns[g] = status.turn
        for p in range(game.players.shape[0]):
            out.scores[g, p] = game.players[p].score
        for i in range(out.owners.shape[1]):
            out.owners[g, i] = -1
        for c in range(spaces.shape[0]):
            mask = 0
            for s in range(2):
                if spaces[c, s] >= 0:
                    mask |= 1 << spaces[c, s]
            out.owners[g, game.cell_coaster[c]] = mask
