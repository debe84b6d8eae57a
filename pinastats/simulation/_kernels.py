"""Numba kernel that plays a chunk of whole games with built-in agents (private)."""

from __future__ import annotations

from pinastats._jit import jit_flat
from pinastats.agents._rollout import _agent_turn
from pinastats.game._kernels import _PINA, _deal_into, _start_game, _winning_line


@jit_flat
def _play_games(board, game, tables, work, kinds, params, rng, setup, out):
    """Play ``out.first.shape[0]`` games in a row, writing one row of each output per game.

    ``kinds[p]``/``params[p]`` is the agent in seat ``p``; ``setup`` is a
    :class:`~pinastats.simulation.chunk.ChunkSetup` (``first_seat`` < 0 draws
    the first player at random, else fixes it) and ``out`` a
    :class:`~pinastats.simulation.chunk.ChunkOutput`: ``owners[g, i]`` is a
    bitmask of the seats with a token on catalogue coaster ``i`` at the end
    (-1 when the coaster was not dealt).
    """
    status = game.status[0]
    for g in range(out.first.shape[0]):
        _deal_into(rng, game, work.pool, setup.sides, setup.start_scores, setup.tokens_each)
        if setup.first_seat >= 0:
            _start_game(game, setup.first_seat, setup.start_scores, setup.tokens_each)
        over = False
        while not over:
            mover = status.to_move
            before = status.placements
            over = _agent_turn(kinds[mover], params[mover], board, game, tables, work, rng)
            if status.placements > before:
                out.placed[g, mover] += 1
        out.first[g] = status.first
        out.winner[g] = status.winner
        out.reason[g] = status.reason
        out.trigger[g] = status.trigger
        out.turns[g] = status.turn
        out.line[g] = _winning_line(board, game, status.winner) if status.reason == _PINA else -1
        for p in range(game.players.shape[0]):
            out.scores[g, p] = game.players[p].score
        for i in range(out.owners.shape[1]):
            out.owners[g, i] = -1
        for c in range(game.cell_coaster.shape[0]):
            mask = 0
            for s in range(2):
                if game.spaces[c, s] >= 0:
                    mask |= 1 << game.spaces[c, s]
            out.owners[g, game.cell_coaster[c]] = mask
