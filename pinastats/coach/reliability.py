r"""Are the win probabilities probabilities? Their reliability over sampled positions.

:func:`calibration` samples positions from ``strategic`` self-play (a game
played to the end, then one of its turn starts drawn uniformly), asks the
evaluator for the mover's chance to win before the first roll,

.. math::

    \hat p = K_R(\varnothing) = \sum_h P(h)\, V_{R-1}(h)

(the turn DP on the outcome positions' ``W``, ``R`` the rolls of a turn:
``W`` from play-outs for ``evaluator="coach"``, from the learned network for
``"network"``), then plays the turn as that evaluator's agent does (the coach,
or ``value``) and the rest of the game with the play-out policy in every
seat, and records the mover's result ``y`` (1 win, 1/2 no winner, 0 loss).
The prediction is calibrated when, among the positions with ``\hat p`` near
``p``, the mean result is near ``p``. The measures, over ``N`` positions:

* Brier score ``mean((p - y)^2)``, against that of the constant predictor
  ``\bar y`` (the base rate), ``mean((\bar y - y)^2)``;
* log loss ``-mean(y log p + (1 - y) log(1 - p))`` (``p`` clipped to
  ``[1e-6, 1 - 1e-6]``; a no-winner result counts half a win);
* equal-mass expected calibration error: the positions sorted by ``p`` in
  ten bins of equal count, ``sum_b (n_b / N) |mean p_b - mean y_b|``;
* the ECE a perfectly calibrated predictor would show on as many results
  (:func:`ece_floor`): with results of 0 or 1 each bin's mean result is noisy,
  so the ECE of a finite sample is never 0;
* each split by the game's phase (:func:`game_phase`: the share of all
  tokens placed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pinastats._arrays import FloatArray
from pinastats.agents.builtin import Agent, AgentKind
from pinastats.agents.network import fits
from pinastats.coach.agent import Coach
from pinastats.coach.outcomes import (
    CoachError,
    check_playouts,
    check_policy,
    check_workers,
    network_values,
    outcome_positions,
)
from pinastats.coach.solve import solve_win_turn
from pinastats.dice.errors import at_least
from pinastats.errors import PinastatsError, expect_instance
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.rules import Rules, check_players, game_points
from pinastats.simulation.play import play_turn, play_turn_fast
from pinastats.simulation.stats import wilson_interval

DECILES = 10
"""Bins of the predicted probability in the reliability table and in the ECE."""
EVALUATORS = ("coach", "network")
"""What predicts: the coach's play-outs, or the learned network (the ``value`` agent)."""
PHASES = ("early", "middle", "late")
"""The game's phases, by the share of all tokens placed: below 1/3, below 2/3, the rest."""
CLIP = 1e-6
"""Predictions are clipped to ``[CLIP, 1 - CLIP]`` in the log loss."""
FLOOR_DRAWS = 200
"""Simulated result sets behind :func:`ece_floor`."""


def game_phase(placed: int | np.ndarray, total: int) -> np.ndarray:
    """``early``/``middle``/``late``: ``placed`` tokens of ``total`` below 1/3, below 2/3, else."""
    share = np.asarray(placed) / total
    return np.where(share < 1 / 3, PHASES[0], np.where(share < 2 / 3, PHASES[1], PHASES[2]))


def brier_score(predicted: FloatArray, result: FloatArray) -> float:
    """``mean((p - y)^2)``."""
    return float(np.mean((predicted - result) ** 2))


def log_loss(predicted: FloatArray, result: FloatArray) -> float:
    """``-mean(y log p + (1 - y) log(1 - p))``, ``p`` clipped to ``[CLIP, 1 - CLIP]``."""
    p = np.clip(predicted, CLIP, 1 - CLIP)
    return float(-np.mean(result * np.log(p) + (1 - result) * np.log(1 - p)))


def equal_mass_ece(predicted: FloatArray, result: FloatArray, bins: int = DECILES) -> float:
    """Calibration error over ``bins`` bins of equal count: ``sum_b (n_b/N) |mean p - mean y|``."""
    order = np.argsort(predicted, kind="stable")
    total = 0.0
    for chunk in np.array_split(order, bins):
        if len(chunk):
            total += len(chunk) / len(order) * abs(predicted[chunk].mean() - result[chunk].mean())
    return float(total)


def ece_floor(predicted: FloatArray, bins: int = DECILES, draws: int = FLOOR_DRAWS) -> float:
    """The mean equal-mass ECE of a *perfect* predictor with these predictions.

    Results drawn as wins with chance ``p`` (seeded, ``draws`` times): the ECE that
    the results' own noise gives a calibrated predictor; a measured ECE near it
    is as good as the sample can show.
    """
    if not len(predicted):
        return float("nan")
    rng = np.random.default_rng(0)
    return float(np.mean([
        equal_mass_ece(predicted, (rng.random(len(predicted)) < predicted).astype(float), bins)
        for _ in range(draws)
    ]))  # fmt: skip


def scores(predicted: FloatArray, result: FloatArray) -> dict[str, float]:
    """Every measure of the module docstring for one set of predictions, as a dict.

    ``ece_floor``: :func:`ece_floor` of the predictions.
    """
    n = len(predicted)
    return {
        "positions": n,
        "mean_predicted": float(predicted.mean()) if n else float("nan"),
        "mean_result": float(result.mean()) if n else float("nan"),
        "brier": brier_score(predicted, result) if n else float("nan"),
        "brier_constant": brier_score(np.full(n, result.mean()), result) if n else float("nan"),
        "log_loss": log_loss(predicted, result) if n else float("nan"),
        "ece": equal_mass_ece(predicted, result) if n else float("nan"),
        "ece_floor": ece_floor(predicted),
    }


@dataclass(frozen=True)
class CalibrationResult:
    r"""The predictions, the results and their reliability.

    Attributes:
        table: one row per decile of predicted probability with positions:
            ``bin`` (``"0.0-0.1"``...), ``count``, ``predicted`` (mean), ``observed``
            (mean result), ``low``/``high`` (95% Wilson interval of ``observed``).
        predicted, result: per position, the predicted ``\hat p`` and the mover's ``y``.
        phase: per position, its phase (:func:`game_phase`).
        brier: ``mean((predicted - result)^2)``.
        brier_constant: the Brier score of predicting the mean result everywhere.
        log_loss, ece: the log loss and the equal-mass calibration error (ten bins).
        evaluator: ``"coach"`` (play-outs) or ``"network"`` (the learned evaluator).
        playouts: play-outs per outcome of the coach (0 for the network).
        policy, players, happy_hour, seed: the settings.
    """

    table: pd.DataFrame
    predicted: np.ndarray
    result: np.ndarray
    phase: np.ndarray
    brier: float
    brier_constant: float
    log_loss: float
    ece: float
    evaluator: str
    playouts: int
    policy: str
    players: int
    happy_hour: bool
    seed: int

    @property
    def predictor(self) -> str:
        """Who predicts, in words: ``coach (32 play-outs)`` or ``network (value)``."""
        if self.evaluator == "network":
            return "network (value)"
        return f"coach ({self.playouts} play-outs)"

    def summary(self) -> pd.DataFrame:
        """The measures by phase and over all positions (``phase`` = ``all``), one row each.

        Columns: ``evaluator``, ``players``, ``happy_hour``, ``phase`` and those of
        :func:`scores`.
        """
        rows = []
        for phase in (*PHASES, "all"):
            mask = np.ones(len(self.phase), bool) if phase == "all" else self.phase == phase
            rows.append({"evaluator": self.predictor, "players": self.players,
                         "happy_hour": self.happy_hour, "phase": phase,
                         **scores(self.predicted[mask], self.result[mask])})  # fmt: skip
        return pd.DataFrame(rows)


def calibration_summary(results: Sequence[CalibrationResult]) -> pd.DataFrame:
    """:meth:`CalibrationResult.summary` of several runs, one below the other."""
    return pd.concat([r.summary() for r in results], ignore_index=True)


def _score(game: Game, seat: int) -> float:
    return game_points(game.winner, seat)


def network_turn_probability(game: Game) -> float:
    """The mover's chance to win before the first roll by the network: ``K_R`` of the empty keep."""
    outcomes = outcome_positions(game)
    rolls = game.config.rules.rolls
    turn = solve_win_turn(network_values(outcomes), outcomes.shows, outcomes.pass_column,
                          outcomes.happy_columns, rolls, rolls)  # fmt: skip
    return float(turn.keep_value[rolls - 1, 0])


_Predictor = tuple[Callable[[Game], float], Agent | Coach]


def _one(child: np.random.SeedSequence, config: GameConfig, predictor: _Predictor,
         policy: Agent) -> tuple[float, float, int]:  # fmt: skip
    """Sample one position, predict the mover's chance, play it on; ``(p_hat, y, placed)``."""
    game_seed, pick_seed, play_seed = child.spawn(3)
    game = Game.new(config=config, seed=np.random.default_rng(game_seed))
    strategic = Agent(AgentKind.STRATEGIC)
    rng = np.random.default_rng(game_seed.spawn(1)[0])
    starts = []
    while not game.is_over:
        starts.append(game.copy())
        play_turn_fast(game, strategic, rng)
    position = starts[int(np.random.default_rng(pick_seed).integers(len(starts)))]
    seat = position.to_move
    placed = int(position.state.status[0]["placements"])
    predict, agent = predictor
    predicted = predict(position)
    rng = np.random.default_rng(play_seed)
    play_turn(position, agent, rng)
    while not position.is_over:
        play_turn_fast(position, policy, rng)
    return predicted, _score(position, seat), placed


def calibration(
    positions: int = 2000,
    *,
    evaluator: str = "coach",
    playouts: int = 64,
    policy: str = "strategic",
    players: int = 2,
    happy_hour: bool = False,
    seed: int = 0,
    workers: int = 1,
    config: GameConfig | None = None,
) -> CalibrationResult:
    """Predict and play out ``positions`` sampled positions (see the module docstring).

    ``evaluator``: ``"coach"`` (``playouts`` play-outs per outcome by ``policy``)
    or ``"network"`` (the shipped networks; ``playouts`` is not used).
    ``config``: the game (its catalogue, layout and rules); when given, it sets
    ``players`` and ``happy_hour``.
    Position ``i`` uses child ``i`` of ``SeedSequence(seed)``, so the result does
    not depend on ``workers`` (threads; the kernels release the GIL).
    """
    positions = at_least(positions, "positions", 1)
    if evaluator not in EVALUATORS:
        raise CoachError(f"evaluator must be one of {', '.join(EVALUATORS)}, got {evaluator!r}")
    playouts = check_playouts(playouts)
    policy = check_policy(policy)
    if config is not None:
        expect_instance(config, GameConfig, "config", "GameConfig(...)")
        players, happy_hour = config.players, config.rules.happy_hour
    check_players(players)
    if not isinstance(happy_hour, bool):
        raise PinastatsError(f"happy_hour must be True or False, got {happy_hour!r}")
    seed = at_least(seed, "seed", 0)
    workers = check_workers(workers) or 1
    if config is None:
        config = GameConfig(players=players, rules=Rules(happy_hour=happy_hour))
    why = fits(config) if evaluator == "network" else None
    if why is not None:  # before any work
        raise CoachError(f"{why}; calibrate the coach instead (evaluator='coach')")
    children = np.random.SeedSequence(seed).spawn(positions)

    def run(chunk: list[np.random.SeedSequence]) -> list[tuple[float, float, int]]:
        predictor: _Predictor
        if evaluator == "network":
            predictor = (network_turn_probability, Agent(AgentKind.VALUE))
        else:
            coach = Coach(playouts=playouts, policy=policy, seed=seed)
            predictor = (coach.turn_win_probability, coach)
        agent = Agent(AgentKind(policy))
        return [_one(c, config, predictor, agent) for c in chunk]

    chunks = [children[k::workers] for k in range(workers)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(run, chunks))
    triples: list[tuple[float, float, int]] = [(0.0, 0.0, 0)] * positions
    for k, part in enumerate(parts):
        for j, triple in enumerate(part):
            triples[k + j * workers] = triple
    data = np.array(triples, dtype=np.float64)
    predicted, result = data[:, 0], data[:, 1]
    phase = game_phase(data[:, 2].astype(np.int64), players * config.rules.tokens)
    measures = scores(predicted, result)
    return CalibrationResult(
        reliability_table(predicted, result), predicted, result, phase, measures["brier"],
        measures["brier_constant"], measures["log_loss"], measures["ece"], evaluator,
        0 if evaluator == "network" else playouts, policy, players, happy_hour, seed,
    )  # fmt: skip


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
