"""The engine's work types: the dice tables the kernels read and an agent's scratch memory.

:class:`TurnTables` is built once per process and number of rolls (read-only);
a :class:`Workspace` is the scratch memory of one agent playing on one thread,
allocated once and reused for every turn (kernels never allocate per turn),
with its :class:`TurnMemo` of prepared turns (:mod:`pinastats._engine.memo`).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from pinastats._arrays import BoolArray, FloatArray, IndexArray, IntArray
from pinastats._engine.happy_hour import option_capacity
from pinastats._engine.kinds import N_PARAMS
from pinastats._engine.memo import EMPTY, KEY_HEAD, KEY_PER_CELL
from pinastats._engine.net import Net
from pinastats._engine.state import GameState, empty_state
from pinastats.dice.combinations import Combination
from pinastats.dice.hands import N_HANDS, N_KEEPS, dice_tables, key_to_hand
from pinastats.dice.solver import solve_turn

DEFAULT_ROLLS = 3
"""Rolls in a turn unless the rules say otherwise."""

MEMO_SLOTS = 1024
"""Entries of the memo of a workspace that plays out (:func:`new_workspace` with a memo)."""


class TurnTables(NamedTuple):
    """The dice tables of a turn (see :class:`pinastats.dice.DiceTables`).

    Attributes:
        keep_ptr, keep_hand, keep_weight: CSR rows over keeps: re-rolling the dice
            not in keep ``k`` gives hand ``keep_hand[j]`` in ``keep_weight[j]`` of the
            ``6**(5-|k|)`` ordered outcomes, ``j`` in ``keep_ptr[k]:keep_ptr[k+1]``.
        keep_scale: ``6**-(5-|k|)``, turning weights into probabilities.
        hand_keep_ptr, hand_keep: CSR rows over hands: the distinct keeps of a hand.
        keep_levels, keep_plus, keep_minus: the keeps by size, with one die more
            and one die less, for the DP kernels' stages.
        keep_counts: ``(462, 6)`` face counts of each keep.
        key_to_hand: hand index of each base-6 face-count key (-1 where no hand).
        hand_as_keep: the keep index of keeping a whole hand (stopping).
        keep_size: dice in each keep.
        target_keep_value: ``(n_combinations, rolls, 462)``: ``K_r(k)`` for the
            single target ``comb``, ``r = 1 .. rolls``.
    """

    keep_ptr: IndexArray
    keep_hand: IndexArray
    keep_weight: IntArray
    keep_scale: FloatArray
    hand_keep_ptr: IndexArray
    hand_keep: IndexArray
    keep_levels: IndexArray
    keep_plus: IndexArray
    keep_minus: IndexArray
    keep_counts: IntArray
    key_to_hand: IntArray
    hand_as_keep: IntArray
    keep_size: IntArray
    target_keep_value: FloatArray


class TurnMemo(NamedTuple):
    """Prepared turns kept for reuse (:mod:`pinastats._engine.memo`); no entries: no memo.

    Attributes:
        keys: ``(slots, key_len)`` the position key of each entry (``-1`` first: empty).
        params: ``(slots, n_params)`` the agent's parameter vector of each entry.
        keep_value: ``(slots, rolls - 1, 462)`` each entry's ``K_r``, ``r = 1 .. rolls - 1``.
        cell_value: ``(slots, n_cells)`` each entry's value of placing on each open cell.
        key: ``(key_len,)`` the key of the position being prepared.
        counts: ``(2,)`` turns read back and turns solved and kept.
    """

    keys: IntArray
    params: FloatArray
    keep_value: FloatArray
    cell_value: FloatArray
    key: IntArray
    counts: IntArray


class Workspace(NamedTuple):
    """Scratch memory of one agent on one thread, for games of one config.

    Every array but the memo's is scratch, overwritten each turn. After a
    prepared turn (``_prepare_turn``) ``keep_value``'s rows ``K_r``,
    ``r = 1 .. rolls - 1``, and ``cell_value`` at the open cells are the turn's;
    ``final_value``, ``stop_value``, ``placeable`` and ``hand_value`` are only
    when the turn was solved, not read back from the memo.

    Attributes:
        final_value: ``(252,)`` value of ending the turn with a hand after the last roll.
        stop_value: ``(252,)`` value of stopping with a hand while rolls are left
            (differs from ``final_value`` only for hands that place nothing, when
            Happy Hour is played: stopping early passes, the last roll rolls the die).
        placeable: ``(252,)`` whether a hand shows a coaster open to the mover.
        hand_value: ``(rolls, 252)``: ``V_r`` of the turn DP, ``r = 0 .. rolls - 1``.
        keep_value: ``(rolls, 462)``: ``K_r``, ``r = 1 .. rolls``.
        legal: ``(n_cells,)`` legal cells of the final hand, in a play-out's turns.
        options: ``(2 n_cells**2 + 1,)`` choices of a Happy Hour effect.
        cell_value: ``(n_cells,)`` the agent's value of placing on each open cell.
        candidates: ``(n_cells,)`` legal cells of the final hand, in the game loop's turn
            (a ``rollout`` agent compares them by play-outs that use ``legal``).
        playout: a game state to play out on.
        saved: a game state to restore a position from (Happy Hour choices).
        line_own: ``(n_players, n_lines)`` each seat's tokens on each line.
        line_open: ``(n_players, n_lines)`` whether each line is still open to each seat.
        line_term: ``(n_players, n_lines)`` each line's term of each seat's line potential.
        pool: ``(n_coasters,)`` the catalogue's coaster indices, shuffled to deal a game.
        memo: the prepared turns kept for reuse (by play-outs; none for games).
        after: a game state to play the end of a turn on (the ``value`` agent's outcomes).
        net: the learned evaluator for games of this config, with its scratch
            memory (empty when none fits).
    """

    final_value: FloatArray
    stop_value: FloatArray
    placeable: BoolArray
    hand_value: FloatArray
    keep_value: FloatArray
    legal: BoolArray
    options: IntArray
    cell_value: FloatArray
    candidates: BoolArray
    playout: GameState
    saved: GameState
    line_own: IntArray
    line_open: BoolArray
    line_term: FloatArray
    pool: IntArray
    memo: TurnMemo
    after: GameState
    net: Net


def turn_memo(n_cells: int, rolls: int, slots: int) -> TurnMemo:
    """An empty :class:`TurnMemo` of ``slots`` entries (0, or a power of two).

    For games on ``n_cells`` cells with turns of ``rolls`` rolls.
    """
    if slots < 0 or slots & (slots - 1):
        raise ValueError(f"memo slots must be 0 or a power of two, got {slots}")
    key_len = KEY_HEAD + KEY_PER_CELL * n_cells
    return TurnMemo(
        keys=np.full((slots, key_len), EMPTY, dtype=np.int64),
        params=np.zeros((slots, N_PARAMS)),
        keep_value=np.zeros((slots, rolls - 1, N_KEEPS)),
        cell_value=np.zeros((slots, n_cells)),
        key=np.zeros(key_len, dtype=np.int64),
        counts=np.zeros(2, dtype=np.int64),
    )


@cache
def turn_tables(rolls: int = DEFAULT_ROLLS) -> TurnTables:
    """The :class:`TurnTables` for turns of ``rolls`` rolls (built once per process)."""
    t = dice_tables()
    scale = (6.0 ** -(5 - t.keep_size)).astype(np.float64)
    targets = np.stack([solve_turn(c.value, rolls=rolls).keep_value for c in Combination])
    return TurnTables(
        keep_ptr=t.keep_ptr,
        keep_hand=t.keep_hand,
        keep_weight=t.keep_weight,
        keep_scale=scale,
        hand_keep_ptr=t.hand_keep_ptr,
        hand_keep=t.hand_keep,
        keep_levels=t.keep_levels,
        keep_plus=t.keep_plus,
        keep_minus=t.keep_minus,
        keep_counts=t.keep_counts,
        key_to_hand=key_to_hand(),
        hand_as_keep=t.hand_as_keep,
        keep_size=t.keep_size,
        target_keep_value=np.ascontiguousarray(targets, dtype=np.float64),
    )


def new_workspace(
    *,
    n_cells: int,
    players: int,
    n_lines: int,
    n_coasters: int,
    rolls: int,
    net: Net,
    memo_slots: int = 0,
) -> Workspace:
    """A fresh :class:`Workspace` (one per agent and thread) with a memo of ``memo_slots``.

    For games of ``players`` on ``n_cells`` cells in ``n_lines`` lines, a
    catalogue of ``n_coasters`` and turns of ``rolls`` rolls; ``net`` is the
    network the ``value`` agent reads.
    """
    return Workspace(
        final_value=np.zeros(N_HANDS),
        stop_value=np.zeros(N_HANDS),
        placeable=np.zeros(N_HANDS, dtype=np.bool_),
        hand_value=np.zeros((rolls, N_HANDS)),
        keep_value=np.zeros((rolls, N_KEEPS)),
        legal=np.zeros(n_cells, dtype=np.bool_),
        options=np.zeros(option_capacity(n_cells), dtype=np.int64),
        cell_value=np.zeros(n_cells),
        candidates=np.zeros(n_cells, dtype=np.bool_),
        playout=empty_state(n_cells, players),
        saved=empty_state(n_cells, players),
        line_own=np.zeros((players, n_lines), dtype=np.int64),
        line_open=np.zeros((players, n_lines), dtype=np.bool_),
        line_term=np.zeros((players, n_lines)),
        pool=np.zeros(n_coasters, dtype=np.int64),
        memo=turn_memo(n_cells, rolls, memo_slots),
        after=empty_state(n_cells, players),
        net=net,
    )
