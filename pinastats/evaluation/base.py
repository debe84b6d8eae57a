"""What every evaluator is: a turn's outcome positions in, the mover's chance to win out.

An evaluator values the *outcome positions* of a turn
(:func:`pinastats.coach.outcomes.outcome_positions`: a token on each open cell, a
pass, a Happy Hour face): ``W(o)``, the mover's chance to win from ``o`` plus half
the chance that nobody wins. The turn DP on ``W`` (:mod:`pinastats.coach.solve`)
then values every keep and placement, whoever valued ``W``: so an evaluator is
only its ``W``, its name, and its measured errors — on a chance (the mean
absolute error of ``W`` against the exact chance on solved boards) and on a
difference (the error on the lead of one option over another of the same
decision, which decides what is "too close to call").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from pinastats._arrays import FloatArray
from pinastats.coach.advice import WinAdvice
from pinastats.coach.outcomes import OutcomeSet
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game


class EvaluationError(PinastatsError):
    """An evaluator that cannot answer as asked (unknown, or not covering the game)."""


@dataclass(frozen=True)
class Valuation:
    """``W`` of a turn's outcome positions and its covariance (zero without sampling).

    Attributes:
        w: ``(M,)`` the mover's chance to win from each outcome position.
        covariance: ``(M, M)`` the covariance of the estimate (play-outs only).
    """

    w: FloatArray
    covariance: FloatArray


@runtime_checkable
class Evaluator(Protocol):
    """The protocol of :mod:`pinastats.evaluation`'s evaluators (module docstring).

    Each evaluator names itself, ranks its strength and states its measured errors;
    :meth:`values` is its ``W``, :meth:`advise` the turn DP on it.
    """

    @property
    def name(self) -> str:
        """The registry name (``exact``, ``search``, ``network``, ``playouts``)."""
        ...

    @property
    def label(self) -> str:
        """How a surface names it to a person ("the exact solution of this board")."""
        ...

    @property
    def strength(self) -> int:
        """Its rank: a larger one is the stronger evaluator (the exact solution highest).

        A review grades with one at least as strong as the one that advised.
        """
        ...

    @property
    def chance_error(self) -> float:
        """The measured mean absolute error of a chance (0 when exact)."""
        ...

    @property
    def difference_error(self) -> float:
        """The measured error on the lead of one option over another of one decision.

        A lead within it is too close to call (0 when exact).
        """
        ...

    @property
    def instant(self) -> bool:
        """Whether it answers within an interactive surface's budget (about a second).

        No solve and no play-out: a decision on two cores well inside a second.
        """
        ...

    def covers(self, config: GameConfig) -> str | None:
        """None when it can value positions of ``config``; else why not, in a sentence."""
        ...

    def values(self, outcomes: OutcomeSet) -> Valuation:
        """``W`` of every outcome position (exact where the game is over there)."""
        ...

    def advise(self, game: Game, dice: tuple[int, ...], rolls_left: int) -> WinAdvice:
        """Every keep and placement of the mover ranked by the chance to win."""
        ...

    def chances(self, game: Game) -> tuple[float, ...] | None:
        """Each seat's chance to win the position ``game`` (half of no winner added).

        None where it cannot tell without a turn's dice (play-outs).
        """
        ...
