"""Every board the solver solves on the 4x4 grid is the fixed point of its own two turns.

The solve finds each board's pass fixed point with eight boards side by side
(SIMD lanes, secant steps on values alone); this checks the answer with the
one-board turn DP (:func:`~pinastats._engine.solve._turn`, the queries' path),
which shares none of that code: for every live board, with its children read
from the solved table, ``u = T_F(1 - w)`` and ``w = T_S(1 - u)``. The fixed
point is unique (``g`` is strictly decreasing), so agreeing with it on every
board, layer by layer, is agreeing with the exact solve.
"""

from __future__ import annotations

import numpy as np

from pinastats import _engine as E
from pinastats.dice.hands import N_HANDS
from pinastats.game import Game, GameConfig, Rules
from pinastats.solve import SolvedBoard
from pinastats.solve.solver import solve_values, solver_tables, turn_work

BOUND = 1e-12
"""Largest miss of either mover's turn allowed (the solve stops at |g| <= 1e-13)."""


def _misses(board: SolvedBoard, values: np.ndarray, final_turn: np.ndarray) -> tuple[float, int]:
    """The largest ``|u - T_F(1 - w)|`` or ``|w - T_S(1 - u)|`` of the live boards; their count."""
    n, rolls = board.n_cells, board.rolls
    offset, _ = board.layers
    game = board.game_tuple(final_turn)
    ptr, cells, _ = board.hand_cells
    tables = solver_tables()
    final, passes = np.zeros(N_HANDS), np.zeros(N_HANDS, dtype=np.bool_)
    child_first, child_second = np.zeros(n), np.zeros(n)
    worst, live = 0.0, 0
    for a in range(board.tokens):
        for b in range(board.tokens):
            if a + b > n:
                continue
            for i in range(int(board.binom[n, a] * board.binom[n - a, b])):
                j = int(offset[a, b]) + i
                u, w = values[j]
                if np.isnan(u):
                    continue
                live += 1
                first, second = E.solve_board_masks(i, a, b, n, board.binom)
                for mover, mine, other in ((0, u, w), (1, w, u)):
                    E.solve_mover_finals(first, second, a, b, game, (ptr, cells), values, mover,
                                         final, passes, child_first, child_second)  # fmt: skip
                    work = turn_work(rolls)
                    turn, _ = E.solve_turn(final, passes, 1.0 - other, rolls, tables, *work)
                    worst = max(worst, abs(turn - mine))
    return worst, live


def test_every_board_of_a_4x4_solve_is_its_turns_fixed_point() -> None:
    game = Game.new(config=GameConfig(players=2, rules=Rules(tokens=3)), seed=5)
    board = SolvedBoard.of(game)
    values, final_turn, stats = solve_values(board, workers=2)
    worst, live = _misses(board, values, final_turn)
    assert live == stats.boards > 1000
    assert worst <= BOUND


def test_a_wrong_value_is_found() -> None:
    """The check can fail: one board's value moved by 1e-9 is caught."""
    game = Game.new(config=GameConfig(players=2, rules=Rules(tokens=2)), seed=5)
    board = SolvedBoard.of(game)
    values, final_turn, _ = solve_values(board, workers=1)
    live = np.flatnonzero(~np.isnan(values[:, 0]))
    values[live[-1], 0] += 1e-9
    worst, _ = _misses(board, values, final_turn)
    assert worst > BOUND
