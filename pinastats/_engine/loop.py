"""Numba kernel that plays a chunk of whole games with built-in agents (private)."""

from __future__ import annotations

from pinastats._engine.playout import _agent_turn
from pinastats._engine.rules import _PINA, _copy_game, _deal_into, _row, _start_game, _winning_line
from pinastats._engine.turn import _play_turn
from pinastats._jit import jit_flat, jit_inline


@jit_inline
def _clear_log(game, log, g):
    """Record game ``g``'s deal in the placement log; every token space empty."""
    for c in range(game.spaces.shape[0]):
        log.coaster[g, c] = game.cell_coaster[c]
        for s in range(game.spaces.shape[1]):
            log.turn[g, c, s] = -1
            log.seat[g, c, s] = -1
            log.points[g, c, s] = 0


@jit_flat
def _log_turn(game, log, g, turn, mover, gained, placed):
    """After turn ``turn`` of game ``g``: the spaces filled or emptied in it.

    A space filled this turn holds the mover's placement (``gained`` points when
    ``placed``) or a token Happy Hour moved there (0 points).
    """
    spaces = game.spaces
    for c in range(spaces.shape[0]):
        for s in range(spaces.shape[1]):
            seat = spaces[c, s]
            if seat < 0:  # free, or emptied by Happy Hour this turn
                log.turn[g, c, s] = -1
                log.seat[g, c, s] = -1
                log.points[g, c, s] = 0
            elif log.turn[g, c, s] < 0 or log.seat[g, c, s] != seat:
                log.turn[g, c, s] = turn
                log.seat[g, c, s] = seat
                log.points[g, c, s] = gained if placed and seat == mover else 0


@jit_flat
def _new_game(game, work, rng, setup, log, g):
    """Deal game ``g`` of the chunk and start it (the log's row cleared when logging)."""
    _deal_into(rng, game, work.pool, setup.sides, setup.start_scores, setup.tokens_each)
    if setup.first_seat >= 0:
        _start_game(game, setup.first_seat, setup.start_scores, setup.tokens_each)
    if log.turn.shape[0] > 0:
        _clear_log(game, log, g)


@jit_flat
def _record_game(board, game, out, g):
    """Write row ``g`` of each output from the finished game."""
    status = game.status[0]
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


@jit_flat
def _snapshot(game, snaps, g):
    """Keep the position at the start of this turn of game ``g`` in ``snaps`` (while room).

    ``snaps.offered[0]`` counts every position offered, kept or not, so that a
    caller sees when the room ran out.
    """
    i = snaps.offered[0]
    if i < snaps.game.shape[0]:
        _copy_game(game, _row(snaps.states, i))
        snaps.game[i] = g
    snaps.offered[0] = i + 1


@jit_flat
def _play_games(board, game, tables, work, kinds, params, rng, setup, out, log, snaps, plain,
                rollout):  # fmt: skip
    """Play ``out.first.shape[0]`` games in a row, writing one row of each output per game.

    ``kinds[p]``/``params[p]`` is the agent in seat ``p``; ``setup`` is a
    :class:`~pinastats.simulation.chunk.ChunkSetup` (``first_seat`` < 0 draws
    the first player at random, else fixes it) and ``out`` a
    :class:`~pinastats.simulation.chunk.ChunkOutput`: ``owners[g, i]`` is a
    bitmask of the seats with a token on catalogue coaster ``i`` at the end
    (-1 when the coaster was not dealt). ``log`` is a
    :class:`~pinastats.simulation.chunk.PlacementLog`, written when it has a row
    per game (with none, nothing is logged): per game the coaster dealt to each
    cell, per token space the turn (0-based, -1: empty at the end) and seat of
    the token on it at the end and the points of that placement. Logging draws
    nothing: the games are the same with and without it. ``snaps`` is a
    :class:`~pinastats.simulation.chunk.Snapshots`: with room for positions
    (``snaps.game`` not empty) the position at the start of every turn is kept
    (:func:`_snapshot`; it draws nothing either).

    Exactly one of ``plain`` and ``rollout`` is True, the other None, and numba
    drops the branch of the None one while it compiles (a test of a None
    argument is pruned; of a bool, not): with ``plain`` (no seat is a
    ``rollout`` agent) the loop inlines the one-turn agents' turn and compiles
    without the rollout agent's play-outs; with ``rollout`` every kind plays,
    through one call per turn of :func:`~pinastats._engine.playout._agent_turn`
    (the same turn and draws), and the loop holds no inlined turn. The start,
    the log and the record of a game are kernels of their own
    (:func:`_new_game`, :func:`_log_turn`, :func:`_record_game`) that both
    loops call, so each loop compiles little more than its turn.
    """
    status = game.status[0]
    logging = log.turn.shape[0] > 0
    snapping = snaps.game.shape[0] > 0
    for g in range(out.first.shape[0]):
        _new_game(game, work, rng, setup, log, g)
        over = False
        while not over:
            mover = status.to_move
            turn = status.turn
            before = status.placements
            score = game.players[mover].score
            if snapping:
                _snapshot(game, snaps, g)
            if plain is not None:  # kept only in the loop of the one-turn agents
                over = _play_turn(kinds[mover], params[mover], board, game, tables, work, rng)
            if rollout is not None:  # kept only in the loop of every agent
                over = _agent_turn(kinds[mover], params[mover], board, game, tables, work, rng)
            placed = status.placements > before
            if placed:
                out.placed[g, mover] += 1
            if logging:
                _log_turn(game, log, g, turn, mover, game.players[mover].score - score, placed)
        _record_game(board, game, out, g)
