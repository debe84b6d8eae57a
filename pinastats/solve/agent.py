"""The ``perfect`` agent: every decision the best by the exact solution of the game's board.

On its first turn of a board it solves the board (or reads the kept table;
:func:`~pinastats.solve.table.solve`), saying so in one line on stderr; each turn
is then one turn DP on the solved values (:meth:`Solution.analyse`): the keep of
the highest exact chance (ties to more dice, the dice layer's rule) and the
placement of the highest exact chance. It plays two-player games without Happy
Hour on layouts of one token space per coaster, and refuses any other game
before it starts (:meth:`PerfectAgent.refuses`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

import numpy as np

from pinastats.agents.builtin import AgentError
from pinastats.dice.hands import check_dice, dice_tables
from pinastats.dice.ranking import best_keep
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.rules import HappyHourEffect
from pinastats.solve.board import SolvedBoard, SolveError, uncovered
from pinastats.solve.solution import Solution, TurnAnalysis
from pinastats.solve.table import cached, solve


class PerfectAgent:
    """Plays by the exact solution (see the module text)."""

    def __init__(self, notices: TextIO | None = None) -> None:
        self._notices = notices
        self._turn: tuple[bytes, TurnAnalysis] | None = None
        self._solution: Solution | None = None

    @property
    def name(self) -> str:
        """``perfect``."""
        return "perfect"

    def __repr__(self) -> str:
        return "<agent perfect>"

    def __getstate__(self) -> dict[str, Any]:
        return {"_notices": None, "_turn": None, "_solution": None}

    def refuses(self, config: GameConfig) -> str | None:
        """Why this agent cannot play games of ``config`` (None when it can)."""
        return uncovered(config)

    def solution(self, game: Game) -> Solution:
        """The solution of ``game``'s board (solved on first use, with a notice)."""
        board = SolvedBoard.of(game)
        if self._solution is not None and self._solution.digest == board.digest:
            return self._solution
        found = cached(board)
        if found is None:
            out = self._notices if self._notices is not None else sys.stderr
            print(
                f"perfect: solving this board ({board.positions:,} boards), once; "
                "kept for next time",
                file=out,
                flush=True,
            )
            found = solve(board)
        self._solution = found
        return found

    def _analysis(self, game: Game) -> TurnAnalysis:
        key = b"".join(a.tobytes() for a in game.state)
        if self._turn is None or self._turn[0] != key:
            self._turn = (key, self.solution(game).analyse(game))
        return self._turn[1]

    def start_turn(self, game: Game) -> None:
        """Value this turn's outcomes once (one turn DP)."""
        self._analysis(game)

    def choose_keep(
        self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
    ) -> Sequence[int]:
        """The keep of the highest exact chance (all five dice: stop)."""
        dice = check_dice(dice)
        turn = self._analysis(game)
        t = dice_tables()
        row = turn.keep_value[rolls_left - 1]
        return t.keep_of(best_keep(row, t.hand_index(dice)))  # the dice layer's keep rule

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        """The legal cell of the highest exact chance."""
        turn = self._analysis(game)
        legal = game.legal_cells(dice)
        return max(legal, key=lambda c: (turn.cell_value[c], -c))

    def choose_happy_hour(
        self, game: Game, effect: HappyHourEffect, options: list[int], rng: np.random.Generator
    ) -> int:
        """Never asked: the agent plays no Happy Hour game."""
        raise SolveError("the perfect agent plays games without Happy Hour only")


def perfect_agent(spec: str, items: list[tuple[str, str]]) -> PerfectAgent:
    """The agent of the name ``perfect`` (it takes no parameters)."""
    if items:
        raise AgentError(f"agent {spec!r}: perfect takes no parameters, got {items[0][0]!r}")
    return PerfectAgent()
