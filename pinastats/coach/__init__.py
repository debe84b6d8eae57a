"""The win-probability coach: which keep and which placement give the best chance to win.

The points advice (:mod:`pinastats.agents.advice`) maximises this turn's
points. The coach maximises the probability of winning the game:

1. the turn ends in one of few *outcome positions* (a token on one of the
   cells still open to the mover, a pass, or a Happy Hour face); the mover's
   win probability ``W`` from each is exact where the game is over, else
   estimated by play-outs to the end with a fast built-in agent in every seat,
   with common random numbers across the outcomes (:mod:`.outcomes`);
2. each final hand is worth the best ``W`` over the cells it can take (the
   pass or the Happy Hour lottery when none), and the turn DP of the dice
   layer on these values ranks every keep exactly given ``W`` (:mod:`.solve`).

A turn costs ``M x N`` play-outs (``M <= cells + 7`` outcome positions,
``N`` play-outs each, added in batches until the best option is clear) and
one DP, whatever the 462 keeps.

>>> from pinastats.game import Game
>>> advice = win_advice(Game.new(2, seed=1), [1, 2, 3, 4, 5], 0, playouts=20, seed=0)
>>> 0.0 <= advice.win_probability <= 1.0
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinastats.coach.advice import (
    CLEAR_LEAD,
    DEFAULT_PLAYOUTS,
    KeepWin,
    OutcomeWin,
    PlacementWin,
    WinAdvice,
    win_advice,
)
from pinastats.coach.agent import Coach
from pinastats.coach.outcomes import POLICIES, CoachError, Outcome

if TYPE_CHECKING:
    from pinastats.coach.objectives import ObjectiveComparison, compare_objectives
    from pinastats.coach.reliability import CalibrationResult, calibration, calibration_summary

_LAZY = {
    "calibration": "reliability",
    "CalibrationResult": "reliability",
    "calibration_summary": "reliability",
    "compare_objectives": "objectives",
    "ObjectiveComparison": "objectives",
}


def __getattr__(name: str) -> Any:
    """The calibration and the objectives' comparison (they need pandas) load on first use."""
    if name in _LAZY:
        import importlib

        module = importlib.import_module(f"pinastats.coach.{_LAZY[name]}")
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CLEAR_LEAD",
    "DEFAULT_PLAYOUTS",
    "POLICIES",
    "CalibrationResult",
    "Coach",
    "CoachError",
    "KeepWin",
    "ObjectiveComparison",
    "Outcome",
    "OutcomeWin",
    "PlacementWin",
    "WinAdvice",
    "calibration",
    "calibration_summary",
    "compare_objectives",
    "win_advice",
]
