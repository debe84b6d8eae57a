"""One place that values a position: the evaluators, their registry and the policy that chooses.

pinastats values a position three ways and a fourth on the way — the exact solution
(two players, no Happy Hour), the learned network, play-outs — and every surface
asks this package the same way (:func:`advise`, :func:`chances`) with the evaluator
:func:`choose` picks for it: the strongest that answers within the surface's
budget (:mod:`pinastats.evaluation.policy`). Every answer names its evaluator and
its measured error (:class:`Evaluator`); ``docs/evaluation.md`` shows the table.

>>> from pinastats.game import Game
>>> game = Game.new(players=3, seed=1)
>>> choose(game, "advise").evaluator.label
'search over the network, 2 turns deep'
>>> choose(game, "review").evaluator.label
'search over the network, 3 turns deep'
"""

from __future__ import annotations

from collections.abc import Sequence

from pinastats.coach.advice import WinAdvice
from pinastats.evaluation.background import SolveStatus, solve_in_background, solve_status
from pinastats.evaluation.base import EvaluationError, Evaluator, Valuation
from pinastats.evaluation.exact import ExactEvaluator, exact_values
from pinastats.evaluation.network import NetworkEvaluator
from pinastats.evaluation.playouts import PlayoutEvaluator
from pinastats.evaluation.policy import SURFACES, Budget, Choice, choose, exact_note
from pinastats.evaluation.registry import EVALUATORS, evaluator_names, make_evaluator
from pinastats.evaluation.search import SearchEvaluator
from pinastats.game.game import Game

__all__ = [
    "EVALUATORS",
    "SURFACES",
    "Budget",
    "Choice",
    "EvaluationError",
    "Evaluator",
    "ExactEvaluator",
    "NetworkEvaluator",
    "PlayoutEvaluator",
    "SearchEvaluator",
    "SolveStatus",
    "Valuation",
    "advise",
    "chances",
    "choose",
    "evaluator_names",
    "exact_note",
    "exact_values",
    "make_evaluator",
    "solve_in_background",
    "solve_status",
]


def advise(
    game: Game,
    dice: Sequence[int],
    rolls_left: int,
    *,
    surface: str = "python",
    evaluator: Evaluator | str | None = None,
) -> WinAdvice:
    """Every keep and placement of the mover, ranked by the chance to win.

    By ``evaluator`` (an :class:`Evaluator` or a registry name), else by the one
    :func:`choose` picks for ``surface``; the advice names it (``WinAdvice.evaluator``).
    """
    if evaluator is None:
        chosen = choose(game, surface).evaluator
    elif isinstance(evaluator, str):
        chosen = choose(game, surface, asked=evaluator).evaluator
    else:
        chosen = evaluator
    return chosen.advise(game, tuple(int(d) for d in dice), rolls_left)


def chances(game: Game, evaluator: Evaluator) -> tuple[float, ...] | None:
    """Each seat's chance to win the position ``game`` by ``evaluator``.

    None where it cannot tell between turns (play-outs value a turn's outcomes).
    """
    return evaluator.chances(game)
