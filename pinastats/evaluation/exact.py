"""The exact evaluator: the solved game (two players, no Happy Hour), no error at all.

``W(o)`` is the mover's chance under perfect play by both players from the
outcome position ``o``, read from the board's table (:mod:`pinastats.solve`);
the table is solved first when it is not kept (minutes: the policy,
:mod:`pinastats.evaluation.policy`, decides whether a surface waits for it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pinastats._arrays import FloatArray
from pinastats.coach.advice import WinAdvice, valued_advice
from pinastats.coach.outcomes import OutcomeSet, outcome_positions
from pinastats.evaluation.base import Valuation
from pinastats.game.config import GameConfig
from pinastats.game.game import Game

EXACT_TIE = 1e-6
"""Options within this of each other are tied under the exact evaluator: the kept table
stores each chance within 7.6e-6 of the float64 solve (16-bit fixed point) or 6e-8
(float32), the same rounding for every option."""


def exact_values(outcomes: OutcomeSet) -> FloatArray:
    """``W`` of every outcome position: the mover's exact chance under perfect play.

    Raises :class:`~pinastats.solve.SolveError` for a game the solver does not cover.
    """
    from pinastats.solve import solve

    turn = solve(outcomes.game).analyse(outcomes.game)  # every outcome's value, at once
    w = outcomes.exact.copy()
    for j in outcomes.undecided:
        w[j] = turn.pass_value if j == outcomes.pass_column else turn.cell_value[outcomes.cells[j]]
    return w


@dataclass(frozen=True)
class ExactEvaluator:
    """The solved game's exact chances (:mod:`pinastats.solve`)."""

    name: str = "exact"
    label: str = "the exact solution of this board"
    strength: int = 100
    chance_error: float = 0.0
    difference_error: float = 0.0
    instant: bool = False

    def covers(self, config: GameConfig) -> str | None:
        """None for two players without Happy Hour on a layout the solver takes."""
        from pinastats.solve import uncovered

        return uncovered(config)

    def is_kept(self, game: Game) -> bool:
        """Whether the table of ``game``'s board is at hand (no solve needed)."""
        from pinastats.solve import cached

        return self.covers(game.config) is None and cached(game) is not None

    def values(self, outcomes: OutcomeSet) -> Valuation:
        """Exact ``W`` (solving the board first unless its table is kept)."""
        m = outcomes.size
        return Valuation(exact_values(outcomes), np.zeros((m, m)))

    def advise(self, game: Game, dice: tuple[int, ...], rolls_left: int) -> WinAdvice:
        """The exact advice: the turn DP on exact ``W`` (ties within :data:`EXACT_TIE`)."""
        outcomes = outcome_positions(game)
        return valued_advice(game, dice, rolls_left, outcomes, self.values(outcomes).w,
                             resolution=EXACT_TIE, evaluator=self.name,
                             check="the exact value of the chosen option")  # fmt: skip

    def chances(self, game: Game) -> tuple[float, ...]:
        """Each seat's exact chance under perfect play."""
        from pinastats.solve import solve

        return tuple(float(c) for c in solve(game).chances(game))
