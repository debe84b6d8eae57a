"""Numba kernels of one turn, in phases (private).

The turn, as the rules order it and as every path plays it (the readable
Python turn of :func:`pinastats.simulation.play.play_turn` calls the same
phase kernels in the same order, so both draw the same random numbers):

1. :func:`_turn_dice`: the agent prepares its turn, the five dice are rolled,
   then before each of the ``rolls - 1`` re-rolls the agent keeps some dice
   (keeping all five stops);
2. :func:`_turn_ending` says how the turn ends with the final dice: a token
   goes on a legal cell if there is one; else the Happy Hour die is rolled when
   the variant is played and every roll of the turn was used
   (:func:`_happy_hour_due`); else the turn passes;
3. :func:`_turn_finish` plays that ending with the agent's choices, then the end check.

Paths that take their decisions from Python (the :class:`~pinastats.game.Game`
object, replays, OpenSpiel, the coach's outcomes) ask :func:`turn_ending` and
apply the end of the turn with :func:`_finish_turn`: the same kernels.
"""

from __future__ import annotations

import numpy as np

from pinastats._engine.codes import TurnEnding
from pinastats._engine.decide import (
    _choose_keep,
    _pick_cell,
    _pick_happy_hour,
    _prepare_turn,
    _solves_turn,
)
from pinastats._engine.happy_hour import _apply_happy_hour, _draw_happy_hour, _happy_hour_options
from pinastats._engine.rules import _end_turn, _legal_cells, _place, _roll
from pinastats._engine.state import Board, GameState
from pinastats._jit import jit, jit_inline

_PLACE = int(TurnEnding.PLACE)
_HAPPY_HOUR = int(TurnEnding.HAPPY_HOUR)
_PASS = int(TurnEnding.PASS)


@jit_inline
def _happy_hour_due(board, rolls_used):
    """Whether a turn that places nothing rolls the Happy Hour die.

    It does when the variant is played and the turn used every one of its rolls.
    """
    return board.happy_hour and rolls_used == board.rolls


@jit_inline
def _turn_ending(board, game, seat, hand, rolls_used, legal):
    """How ``seat``'s turn ends with final hand ``hand`` after ``rolls_used`` rolls.

    A :class:`~pinastats._engine.codes.TurnEnding` code; ``legal[c]`` is left
    saying whether cell ``c`` takes a token.
    """
    if _legal_cells(board, game, seat, hand, legal) > 0:
        return _PLACE
    if _happy_hour_due(board, rolls_used):
        return _HAPPY_HOUR
    return _PASS


@jit
def _ending_of(board, game, hand, rolls_used, legal):
    """:func:`_turn_ending` for the mover, as a kernel of its own (for calls from Python)."""
    return _turn_ending(board, game, game.status[0].to_move, hand, rolls_used, legal)


def turn_ending(board: Board, state: GameState, hand: int, rolls_used: int) -> TurnEnding:
    """How the mover's turn ends with final hand index ``hand`` after ``rolls_used`` rolls."""
    legal = np.zeros(len(state.cell_coaster), dtype=np.bool_)
    return TurnEnding(int(_ending_of(board, state, hand, rolls_used, legal)))


@jit
def _finish_turn(board, game, cell, effect, option):
    """End the mover's turn as decided; return the points placed; then the end check.

    ``cell >= 0``: place a token there (legality checked by the caller); else
    ``effect > 0``: the Happy Hour die showed ``effect``, applied with ``option``
    (-1: the effect cannot apply); else the turn passes.
    """
    points = 0
    if cell >= 0:
        points = _place(board, game, game.status[0].to_move, cell)
    elif effect > 0 and option >= 0:
        _apply_happy_hour(board, game, game.status[0].to_move, effect, option)
    _end_turn(board, game)
    return points


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
def _turn_finish(kind, params, board, game, work, rng, ending, cell):
    """Play the turn's :func:`_turn_ending`: place on ``cell``, roll Happy Hour, or pass.

    Then the end check; returns True when the game is over.
    """
    if ending == _PLACE:
        _place(board, game, game.status[0].to_move, cell)
    elif ending == _HAPPY_HOUR:
        _happy_hour(kind, params, board, game, work, rng)
    return _end_turn(board, game)


@jit_inline
def _play_turn(kind, params, board, game, tables, work, rng):
    """Play the mover's turn with a one-turn agent (random, greedy, ev, strategic).

    Returns True when the game is over.
    """
    hand, used = _turn_dice(kind, params, board, game, tables, work, rng)
    seat = game.status[0].to_move
    ending = _turn_ending(board, game, seat, hand, used, work.legal)
    cell = -1
    if ending == _PLACE:
        cell = _pick_cell(kind, params, board, game, seat, work.legal, rng, work.cell_value,
                          _solves_turn(kind))  # fmt: skip
    return _turn_finish(kind, params, board, game, work, rng, ending, cell)
