"""Numba kernels of one turn, in phases (private).

The turn, as the rules order it and as every path plays it (the readable
Python turn of :func:`pinastats.simulation.play.play_turn` calls the same
phase kernels in the same order, so both draw the same random numbers):

1. :func:`_turn_dice`: the agent prepares its turn, the five dice are rolled,
   then before each of the ``rolls - 1`` re-rolls the agent keeps some dice
   (keeping all five stops);
2. :func:`_turn_finish`: the token goes on the chosen legal cell; with no
   legal cell, the Happy Hour die is rolled when the variant is played and
   every roll of the turn was used, else the turn passes; then the end check.
"""

from __future__ import annotations

from pinastats._engine.decide import (
    _choose_keep,
    _pick_cell,
    _pick_happy_hour,
    _prepare_turn,
    _solves_turn,
)
from pinastats._engine.happy_hour import _apply_happy_hour, _draw_happy_hour, _happy_hour_options
from pinastats._engine.rules import _end_turn, _legal_cells, _place, _roll
from pinastats._jit import jit_inline


@jit_inline
def _turn_dice(kind, params, board, game, tables, work, rng):
    """Roll and keep for the mover; return ``(final hand index, rolls used)``."""
    seat = game.status[0].to_move
    if _solves_turn(kind):
        _prepare_turn(kind, params, board, game, tables, work, seat)
    hand = _roll(rng, tables.keep_counts, tables.key_to_hand, 0)
    used = 1
    for rolls_left in range(board.rolls - 1, 0, -1):
        keep = _choose_keep(kind, params, board, game, tables, work, seat, hand, rolls_left)
        if keep == tables.hand_as_keep[hand]:
            break
        hand = _roll(rng, tables.keep_counts, tables.key_to_hand, keep)
        used += 1
    return hand, used


@jit_inline
def _happy_hour(kind, params, board, game, work, rng):
    """Roll the Happy Hour die for the mover and apply the effect with the agent's choice.

    Return the effect rolled (1-6) and the option chosen (-1 when it cannot apply).
    """
    seat = game.status[0].to_move
    effect = _draw_happy_hour(rng)
    n = _happy_hour_options(board, game, seat, effect, work.options)
    option = -1
    if n > 0:
        option = _pick_happy_hour(
            kind, params, board, game, seat, effect, work.options, n, rng, work.saved
        )
        _apply_happy_hour(board, game, seat, effect, option)
    return effect, option


@jit_inline
def _turn_finish(kind, params, board, game, work, rng, cell, rolls_used):
    """Place on ``cell`` (-1: nothing legal), else Happy Hour or a pass; end check.

    Returns True when the game is over.
    """
    if cell >= 0:
        _place(board, game, game.status[0].to_move, cell)
    elif board.happy_hour and rolls_used == board.rolls:
        _happy_hour(kind, params, board, game, work, rng)
    return _end_turn(board, game)


@jit_inline
def _play_turn(kind, params, board, game, tables, work, rng):
    """Play the mover's turn with a one-turn agent (random, greedy, ev, strategic).

    Returns True when the game is over.
    """
    hand, used = _turn_dice(kind, params, board, game, tables, work, rng)
    seat = game.status[0].to_move
    cell = -1
    if _legal_cells(board, game, seat, hand, work.legal) > 0:
        cell = _pick_cell(kind, params, board, game, seat, work.legal, rng, work.cell_value,
                          _solves_turn(kind))  # fmt: skip
    return _turn_finish(kind, params, board, game, work, rng, cell, used)
