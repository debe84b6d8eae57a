r"""Is the coach's win probability a probability? Its reliability over sampled positions.

:func:`calibration` samples positions from ``strategic`` self-play (a game
played to the end, then one of its turn starts drawn uniformly), asks the
coach for the mover's chance to win before the first roll,

.. math::

    \hat p = K_R(\varnothing) = \sum_h P(h)\, V_{R-1}(h)

(the turn DP on the estimated ``W`` of :mod:`pinastats.coach.solve`, ``R`` the
rolls of a turn), then plays the turn as the coach does and the rest of the
game with the play-out policy in every seat, and records the mover's result
``y`` (1 win, 1/2 no winner, 0 loss). The coach is calibrated when, among the
positions with ``\hat p`` near ``p``, the mean result is near ``p``. The Brier
score ``mean((\hat p - y)^2)`` is compared with that of the constant predictor
``\bar y`` (the base rate), ``mean((\bar y - y)^2)``.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pinastats.agents.builtin import Agent, AgentKind
from pinastats.coach.agent import Coach
from pinastats.coach.outcomes import check_playouts, check_policy, check_workers
from pinastats.dice.errors import at_least, is_whole
from pinastats.errors import PinastatsError
from pinastats.game.game import Game
from pinastats.simulation.play import play_turn, play_turn_fast
from pinastats.simulation.stats import wilson_interval

DECILES = 10
"""Bins of the predicted probability in the reliability table."""


@dataclass(frozen=True)
class CalibrationResult:
    r"""The predictions, the results and their reliability table.

    Attributes:
        table: one row per decile of predicted probability with positions:
            ``bin`` (``"0.0-0.1"``...), ``count``, ``predicted`` (mean), ``observed``
            (mean result), ``low``/``high`` (95% Wilson interval of ``observed``).
        predicted, result: per position, the coach's ``\hat p`` and the mover's ``y``.
        brier: ``mean((predicted - result)^2)``.
        brier_constant: the Brier score of predicting the mean result everywhere.
        playouts, policy, players, seed: the settings.
    """

    table: pd.DataFrame
    predicted: np.ndarray
    result: np.ndarray
    brier: float
    brier_constant: float
    playouts: int
    policy: str
    players: int
    seed: int


def _score(game: Game, seat: int) -> float:
    winner = game.winner
    return 0.5 if winner is None else float(winner == seat)


def _one(
    child: np.random.SeedSequence, players: int, coach: Coach, policy: Agent
) -> tuple[float, float]:
    """Sample one position, predict the mover's chance, play it on; ``(p_hat, y)``."""
    game_seed, pick_seed, play_seed = child.spawn(3)
    game = Game.new(players, seed=np.random.default_rng(game_seed))
    strategic = Agent(AgentKind.STRATEGIC)
    rng = np.random.default_rng(game_seed.spawn(1)[0])
    starts = []
    while not game.is_over:
        starts.append(game.copy())
        play_turn_fast(game, strategic, rng)
    position = starts[int(np.random.default_rng(pick_seed).integers(len(starts)))]
    seat = position.to_move
    predicted = coach.turn_win_probability(position)
    rng = np.random.default_rng(play_seed)
    play_turn(position, coach, rng)
    while not position.is_over:
        play_turn_fast(position, policy, rng)
    return predicted, _score(position, seat)


def reliability_table(predicted: np.ndarray, result: np.ndarray) -> pd.DataFrame:
    """The reliability table by decile of ``predicted`` (the last bin includes 1)."""
    bins = np.minimum((predicted * DECILES).astype(int), DECILES - 1)
    rows = []
    for b in range(DECILES):
        mask = bins == b
        n = int(mask.sum())
        if not n:
            continue
        observed = float(result[mask].mean())
        low, high = wilson_interval(observed * n, n)
        rows.append(
            {"bin": f"{b / DECILES:.1f}-{(b + 1) / DECILES:.1f}", "count": n,
             "predicted": float(predicted[mask].mean()), "observed": observed,
             "low": low, "high": high}
        )  # fmt: skip
    return pd.DataFrame(rows, columns=["bin", "count", "predicted", "observed", "low", "high"])


def calibration(
    positions: int = 2000,
    *,
    playouts: int = 64,
    policy: str = "strategic",
    players: int = 2,
    seed: int = 0,
    workers: int = 1,
) -> CalibrationResult:
    """Predict and play out ``positions`` sampled positions (see the module docstring).

    Position ``i`` uses child ``i`` of ``SeedSequence(seed)``, so the result does
    not depend on ``workers`` (threads; the kernels release the GIL).
    """
    positions = at_least(positions, "positions", 1)
    playouts = check_playouts(playouts)
    policy = check_policy(policy)
    if not is_whole(players) or players not in (2, 3, 4):
        raise PinastatsError(f"players must be 2, 3 or 4, got {players!r}")
    seed = at_least(seed, "seed", 0)
    workers = check_workers(workers) or 1
    children = np.random.SeedSequence(seed).spawn(positions)

    def run(chunk: list[np.random.SeedSequence]) -> list[tuple[float, float]]:
        coach = Coach(playouts=playouts, policy=policy, seed=seed)
        agent = Agent(AgentKind(policy))
        return [_one(c, players, coach, agent) for c in chunk]

    chunks = [children[k::workers] for k in range(workers)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(run, chunks))
    pairs: list[tuple[float, float]] = [(0.0, 0.0)] * positions
    for k, part in enumerate(parts):
        for j, pair in enumerate(part):
            pairs[k + j * workers] = pair
    data = np.array(pairs, dtype=np.float64)
    predicted, result = data[:, 0], data[:, 1]
    brier = float(np.mean((predicted - result) ** 2))
    constant = float(np.mean((result.mean() - result) ** 2))
    return CalibrationResult(reliability_table(predicted, result), predicted, result, brier,
                             constant, playouts, policy, players, seed)  # fmt: skip
