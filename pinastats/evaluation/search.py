"""The search evaluator: plies of whole turns over the network (:mod:`pinastats._engine.search`).

``W(o)`` is the mover's chance after the outcome position ``o`` with the next
``depth - 1`` seats' whole turns solved exactly (every roll enumerated, each seat
maximising its own chance: max-n; ``paranoid`` and ``best-reply`` as options) down to
the network's values (:func:`pinastats.coach.search.search_values`). Depth 2 costs
about ten ``value`` decisions (under 50 ms on two cores) and is the strongest evaluator
an interactive surface can afford; depth 3 is for analysis (reviews).

Errors measured against the exact values of solved two-player boards (2,287 outcome
positions of 200 turns on boards 76 and 77, ``benchmarks/bench_search.py accuracy``):
depth 2: 0.027 on a chance, 0.030 on a difference (the network's on the same
positions: 0.032 and 0.042); depth 3: 0.019 and 0.019.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pinastats.agents.network import ValueNetworks, fits
from pinastats.agents.search import SEARCH_DEPTH, check_depth, check_variant
from pinastats.coach.advice import WinAdvice
from pinastats.coach.outcomes import OutcomeSet
from pinastats.coach.search import search_values
from pinastats.evaluation.base import Valuation
from pinastats.evaluation.network import NetworkEvaluator, estimated_advice
from pinastats.game.config import GameConfig
from pinastats.game.game import Game

MEASURED: dict[int, tuple[int, float, float]] = {
    1: (10, 0.052, 0.043),
    2: (15, 0.027, 0.030),
    3: (25, 0.019, 0.019),
}
"""``depth -> (strength, error on a chance, error on a difference)``, measured against the
exact values of solved boards (module docstring; depth 1 is the network, stated with the
network's larger figures). Depth 3 grades better than 256 play-outs by ``value`` (0.022 and
0.030 on the decisions of ``benchmarks/evaluator_errors.py``) at a sixtieth of the cost."""


@dataclass(frozen=True)
class SearchEvaluator:
    """``depth`` plies of whole turns over ``networks`` (default: the default networks)."""

    depth: int = SEARCH_DEPTH
    variant: str = "max-n"
    networks: ValueNetworks | None = field(default=None, repr=False, compare=False)
    name: str = "search"
    strength: int = 15
    chance_error: float = 0.027
    difference_error: float = 0.030
    instant: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "depth", check_depth(self.depth))
        object.__setattr__(self, "variant", check_variant(self.variant))
        strength, chance, difference = MEASURED[self.depth]
        object.__setattr__(self, "strength", strength)
        object.__setattr__(self, "chance_error", chance)
        object.__setattr__(self, "difference_error", difference)
        object.__setattr__(self, "instant", self.depth <= SEARCH_DEPTH)

    @property
    def label(self) -> str:
        """``search over the network, 2 turns deep``."""
        variant = "" if self.variant == "max-n" else f", {self.variant}"
        return f"search over the network, {self.depth} turns deep{variant}"

    def covers(self, config: GameConfig) -> str | None:
        """None where the networks fit the game."""
        return fits(config, self.networks)

    def values(self, outcomes: OutcomeSet) -> Valuation:
        """The search's ``W`` for the mover (no sampling: zero covariance)."""
        seats = search_values(outcomes, self.depth, self.variant, self.networks)
        m = outcomes.size
        return Valuation(np.ascontiguousarray(seats[:, outcomes.seat]), np.zeros((m, m)))

    def advise(self, game: Game, dice: tuple[int, ...], rolls_left: int) -> WinAdvice:
        """The turn DP on the search's ``W``; leads within its difference error are close."""
        return estimated_advice(self, game, dice, rolls_left, "the search's value")

    def chances(self, game: Game) -> tuple[float, ...]:
        """Each seat's chance between turns: the network's (a search values a turn's ends)."""
        return NetworkEvaluator(self.networks).chances(game)
