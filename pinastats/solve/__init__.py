"""The two-player base game solved exactly: every position's chance to win under perfect play.

For two players without Happy Hour, on any layout whose coasters hold one token
each (the rulebook's 4×4 grid and the layout files), with any starting scores,
target, tokens and rolls, :func:`solve` computes the chance that the player to
move wins, with both players playing perfectly, for every position a game on
one dealt board can reach (about 9.2 million boards on the 4×4 grid), and
returns a :class:`Solution` to ask: each seat's chance, every keep of a hand and
every placement with its exact chance, best first. The method is in
:mod:`pinastats._engine.solve`; the tables are kept in the cache folder
(:mod:`pinastats.solve.table`).

>>> from pinastats.game import Game
>>> from pinastats.solve import uncovered
>>> uncovered(Game.new(players=3, seed=1).config)
'the exact solution covers two players, not 3'
"""

from pinastats.solve.board import SolvedBoard, SolveError, uncovered
from pinastats.solve.solution import Position, Solution, TurnAnalysis
from pinastats.solve.solver import SolveStats
from pinastats.solve.table import cached, remember, solution_path, solve

__all__ = [
    "Position",
    "Solution",
    "SolveError",
    "SolveStats",
    "SolvedBoard",
    "TurnAnalysis",
    "cached",
    "remember",
    "solution_path",
    "solve",
    "uncovered",
]
