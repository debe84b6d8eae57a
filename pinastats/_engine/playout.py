"""Numba kernels of play-outs and of the ``rollout`` agent, which plays to win (private).

:func:`_play_to_end` is the one play-out loop: the ``rollout`` agent and the
coach (:func:`_play_outs`, below) both call it. It scores the game for one
seat: 1 for a win, 1/2 for no winner (a draw or the turn limit), 0 for a loss.

The ``rollout`` agent's dice follow ``strategic``; where several placements are
legal it plays each one out: ``params[PARAM_ROLLOUTS]`` games to the end from
the position after that placement, every seat played by the one-turn agent
``params[PARAM_POLICY]``, and it takes the placement with the most wins
(Monte Carlo one-ply lookahead).
"""

from __future__ import annotations

from typing import Any

from pinastats._engine.decide import (
    _choose_cell,
    _pick_cell,
    _solves_turn,
)
from pinastats._engine.kinds import K_ROLLOUT, K_STRATEGIC, PARAM_POLICY, PARAM_ROLLOUTS
from pinastats._engine.net import _position_value, _result
from pinastats._engine.rules import _copy_game, _end_turn, _place, _row
from pinastats._engine.stream import _seed_stream
from pinastats._engine.turn import _PLACE, _play_turn, _turn_dice, _turn_ending, _turn_finish
from pinastats._jit import jit, jit_flat, jit_inline
from pinastats.dice._kernels import _best_keep


@jit_flat
def _policy_turn(kind, params, board, game, tables, work, rng):
    """:func:`~pinastats._engine.turn._play_turn` compiled once, as a kernel of its own.

    The play-outs and :func:`~pinastats.simulation.play.play_turn_fast` call it,
    so the turn compiles once for both; only the game loop inlines the turn, so
    that a fast game (``random``) pays no call per turn. Returns True when the
    game is over.
    """
    return _play_turn(kind, params, board, game, tables, work, rng)


@jit_inline
def _play_to_end(kind, params, board, game, tables, work, rng, seat):
    """Play the running ``game`` to its end, every seat with the one-turn agent ``kind``.

    Returns :func:`_result` for ``seat``. ``work`` is the agent's scratch memory.
    """
    over = False
    while not over:
        over = _policy_turn(kind, params, board, game, tables, work, rng)
    return _result(game, seat)


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
        return _choose_cell(K_STRATEGIC, params, board, game, seat, legal, 0.0, work.cell_value,
                            True)  # fmt: skip
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
            if _end_turn(board, playout):
                wins += _result(playout, seat)
            else:
                wins += _play_to_end(policy, params, board, playout, tables, work, rng, seat)
        if wins > best:
            best = wins
            best_cell = cell
    return best_cell


@jit_flat
def _agent_turn(kind, params, board, game, tables, work, rng):
    """Play the mover's turn with any built-in agent; return True when the game is over.

    ``rollout`` rolls and keeps as ``strategic`` and picks its cell by play-outs.
    The legal cells go in ``work.candidates``, which the play-outs' turns leave
    alone (they use ``work.legal``). One copy of the turn serves every kind. It
    is a kernel of its own, called by the game loop that has ``rollout`` seats:
    a call per turn is nothing beside a ``rollout`` turn's play-outs, and that
    loop then compiles without a second inlined copy of the turn.
    """
    rollout = kind == K_ROLLOUT
    dice_kind = K_STRATEGIC if rollout else kind
    hand, used = _turn_dice(dice_kind, params, board, game, tables, work, rng)
    seat = game.status[0].to_move
    ending = _turn_ending(board, game, seat, hand, used, work.candidates)
    cell = -1
    if ending == _PLACE:
        if rollout:
            cell = _rollout_cell(params, board, game, tables, work, rng, work.candidates)
        else:
            cell = _pick_cell(kind, params, board, game, seat, work.candidates, rng,
                              work.cell_value, _solves_turn(kind))  # fmt: skip
    return _turn_finish(dice_kind, params, board, game, work, rng, ending, cell)


@jit
def _play_outs(
    kind: int, params: Any, board: Any, start: Any, tables: Any, work: Any, rng: Any,
    seeds: Any, seat: int, depth: int, out: Any,
) -> None:  # fmt: skip
    """``out[i]``: the result for ``seat`` of play-out ``i`` of ``start`` (a game still running).

    Play-out ``i`` copies ``start`` into ``work.playout`` and draws from the
    stream of ``rng`` (an :class:`~pinastats._engine.stream.Rng` with
    ``use_stream``) reseeded with ``seeds[i]``: whatever the start, play-out
    ``i`` sees the same numbers. With ``depth == 0`` it plays to the end
    (:func:`_result`); with ``depth > 0`` it plays at most ``depth`` turns and
    then takes the network's value of the position (``work.net``,
    :func:`~pinastats._engine.net._position_value`): a truncated play-out.
    """
    game = work.playout
    for i in range(seeds.shape[0]):
        _seed_stream(rng.stream, seeds[i])
        _copy_game(start, game)
        if depth <= 0:
            out[i] = _play_to_end(kind, params, board, game, tables, work, rng, seat)
            continue
        over = False
        turns = 0
        while not over and turns < depth:
            over = _policy_turn(kind, params, board, game, tables, work, rng)
            turns += 1
        out[i] = _position_value(board, game, seat, work.net, over)


@jit
def _label_positions(
    kind: int, params: Any, board: Any, batch: Any, tables: Any, work: Any, rng: Any,
    seeds: Any, out: Any,
) -> None:  # fmt: skip
    """``out[i, r]``: the share of play-outs of position ``i`` that relative seat ``r`` wins.

    ``batch`` is a :class:`~pinastats._engine.state.StateBatch` of running
    games; relative seat ``r`` is ``r`` seats after the one to move in
    position ``i``, and ``out[i, n]`` is the share with no winner. Play-out
    ``j`` of every position draws from the stream reseeded with ``seeds[j]``
    (common random numbers), every seat played by the one-turn agent ``kind``.
    """
    game = work.playout
    n = game.players.shape[0]
    for i in range(out.shape[0]):
        for r in range(n + 1):
            out[i, r] = 0.0
        start = _row(batch, i)
        mover = start.status[0].to_move
        for j in range(seeds.shape[0]):
            _seed_stream(rng.stream, seeds[j])
            _copy_game(start, game)
            over = False
            while not over:
                over = _policy_turn(kind, params, board, game, tables, work, rng)
            winner = game.status[0].winner
            if winner < 0:
                out[i, n] += 1.0
            else:
                out[i, (winner - mover) % n] += 1.0
        for r in range(n + 1):
            out[i, r] /= seeds.shape[0]


@jit
def _best_keeps(
    keep_value: Any, hand_keep_ptr: Any, hand_keep: Any, keep_size: Any, out: Any
) -> None:
    """``out[h]``: the keep the dice layer's keep rule plays from hand ``h`` (``keep_value``)."""
    for h in range(out.shape[0]):
        out[h] = _best_keep(keep_value, hand_keep_ptr, hand_keep, keep_size, h)
