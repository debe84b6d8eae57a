"""The play-out evaluator: ``W`` as the mean of play-outs to the end, with its standard error.

Every seat is played by one agent (``policy``: ``strategic`` by default, the
coach's; ``value`` plays stronger at about 20 times the cost), ``playouts`` per
outcome position at most, with common random numbers, added until the best
option is clear (:func:`pinastats.coach.win_advice`). It covers every game, and
its error is its own standard error, reported with every chance, plus the policy's
bias: play-outs by a weaker player misjudge a stronger one's position. The errors it
states (:data:`MEASURED`) were measured against the exact values of solved boards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pinastats.agents.network import ValueNetworks
from pinastats.coach.advice import DEFAULT_PLAYOUTS, WinAdvice, win_advice
from pinastats.coach.outcomes import OutcomeSet, Playouts, check_playouts, check_policy
from pinastats.evaluation.base import Valuation
from pinastats.game.config import GameConfig
from pinastats.game.game import Game

STRONG_PLAYOUTS = 256
"""Play-outs per outcome from which ``value`` play-outs grade better than the network."""

MEASURED: dict[tuple[str, bool], tuple[int, float, float]] = {
    ("value", True): (20, 0.022, 0.030),
    ("value", False): (8, 0.053, 0.077),
    ("strategic", True): (5, 0.056, 0.050),
    ("strategic", False): (5, 0.080, 0.098),
}
"""``(policy, at least STRONG_PLAYOUTS) -> (strength, error on a chance, on a difference)``,
measured against the exact values of solved boards with 256 and 32 play-outs
(``benchmarks/evaluator_errors.py``, ``studies/evaluator-errors-*.json``): 256 play-outs by
``value`` beat the network (0.022 and 0.030 against 0.040 and 0.048 on the same decisions),
32 do not; ``strategic`` play-outs are biased by the weaker player (0.056 at 256)."""


@dataclass(frozen=True)
class PlayoutEvaluator:
    """Play-outs by ``policy`` (at most ``playouts`` per outcome, seeded by ``seed``)."""

    policy: str = "strategic"
    playouts: int = DEFAULT_PLAYOUTS
    seed: int | None = 0
    networks: ValueNetworks | None = field(default=None, repr=False, compare=False)
    name: str = "playouts"
    strength: int = 5
    chance_error: float = 0.0
    difference_error: float = 0.0
    instant: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "policy", check_policy(self.policy))
        object.__setattr__(self, "playouts", check_playouts(self.playouts))
        measured = MEASURED.get((self.policy, self.playouts >= STRONG_PLAYOUTS))
        if measured is not None:
            strength, chance, difference = measured
            object.__setattr__(self, "strength", strength)
            object.__setattr__(self, "chance_error", chance)
            object.__setattr__(self, "difference_error", difference)

    @property
    def label(self) -> str:
        """``200 play-outs by strategic``."""
        return f"{self.playouts} play-outs by {self.policy}"

    def covers(self, config: GameConfig) -> str | None:
        """None: play-outs value any game (``value`` play-outs need a network that fits)."""
        if self.policy == "value":
            from pinastats.agents.network import fits

            return fits(config, self.networks)
        return None

    def values(self, outcomes: OutcomeSet) -> Valuation:
        """``playouts`` play-outs from each undecided outcome: their mean and covariance."""
        runner = Playouts(outcomes, policy=self.policy, seed=self.seed, networks=self.networks)
        runner.extend(self.playouts)
        return Valuation(runner.mean(), runner.covariance())

    def advise(self, game: Game, dice: tuple[int, ...], rolls_left: int) -> WinAdvice:
        """The coach's adaptive play-outs, the chosen option measured again on fresh ones."""
        return win_advice(game, dice, rolls_left, playouts=self.playouts, policy=self.policy,
                          seed=self.seed, networks=self.networks)  # fmt: skip

    def chances(self, game: Game) -> None:
        """None: play-outs value a turn's outcome positions, not a position between turns."""
        return None
