r"""Playing to win as data: one decision worked through and where points and winning disagree.

:func:`run_playing_to_win` asks the win-probability coach (:mod:`pinastats.coach`)
about placement decisions sampled from ``strategic`` self-play of the report's
game (its catalogue, layout and rules):

1. :func:`~pinastats.coach.compare_objectives` samples ``positions`` decisions
   (final dice with at least two legal cells) and, for each, the cell that
   scores the most now and the cell of highest estimated win probability ``W``
   (``playouts`` play-outs per outcome position, ``strategic`` in every seat);
2. the worked example is one of these decisions, the first choice that applies:
   after the first round, at least :data:`EXAMPLE_MIN_CELLS` legal cells, the
   two objectives' cells differ, the largest win gain in its standard errors;
   it is asked again with up to :data:`EXAMPLE_PLAYOUTS_FACTOR` × ``playouts``
   play-outs (the first ``playouts`` are those of the comparison).

3. the calibration of the win probabilities
   (:func:`~pinastats.coach.reliability.calibration`): the coach's, with
   ``playouts`` play-outs, over ``positions`` sampled turn starts, and the learned
   network's over :data:`NETWORK_CALIBRATION_FACTOR` × ``positions`` (it costs
   little), when the shipped networks fit the game.

Per situation (block, race, last token, other, and all) the share of decisions
where the cells differ has a 95% Wilson interval; the mean win gain
``W(coach's cell) - W(points' cell)`` over those decisions a 95% normal
interval. The gain is an upper estimate: the coach takes the highest of several
noisy estimates, and the highest of noisy numbers is on average too high.
Everything is seeded from the report's seed (:func:`win_seed`), decision ``i``
by child ``i`` of its ``SeedSequence``: the numbers do not depend on ``workers``.
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pinastats.agents.advice import advise
from pinastats.agents.builtin import MAX_PLAYOUTS
from pinastats.agents.network import fits, outside_training
from pinastats.coach import win_advice
from pinastats.coach.objectives import (
    ObjectiveComparison,
    _sample,
    compare_objectives,
    situation,
)
from pinastats.coach.reliability import CalibrationResult, calibration
from pinastats.errors import PinastatsError
from pinastats.game import GameConfig
from pinastats.game.game import Game
from pinastats.report.designer_data import Estimate

WIN_POLICY = "strategic"
"""The agent of the sampled games and of every seat in the play-outs."""
DEFAULT_WIN_POSITIONS = 200
"""Default ``win_positions`` of a report: with :data:`DEFAULT_WIN_PLAYOUTS` the section took
49 s of CPU for 2 players and 127 s for 4 with Happy Hour (2 cores, load average 3-4)."""
DEFAULT_WIN_PLAYOUTS = 64
"""Default ``win_playouts``: play-outs per outcome position of each decision."""
MAX_WIN_POSITIONS = 20_000
"""Most sampled decisions a report accepts (over an hour of CPU at 64 play-outs)."""
MAX_WIN_PLAYOUTS = MAX_PLAYOUTS
"""Most play-outs per outcome position a report accepts: the one cap of every play-out count."""
EXAMPLE_MIN_CELLS = 3
"""Legal cells the worked example's final dice should have."""
EXAMPLE_PLAYOUTS_FACTOR = 4
"""The worked example may use this many times ``win_playouts`` (it stops once clear), up to
the cap of every play-out count."""
NETWORK_CALIBRATION_FACTOR = 10
"""The network's calibration uses this many times ``win_positions`` positions."""
EXTRA_DRAWS = 50
"""Decisions drawn after the sample when none of it has enough legal cells for the example."""


def win_seed(seed: int) -> int:
    """The seed of the section in a report seeded ``seed``.

    A 31-bit word of ``SeedSequence([seed, 0x717, 0])``, apart from the other runs' seeds.
    """
    words = np.random.SeedSequence([seed, 0x717, 0]).generate_state(1, np.uint32)
    return int(words[0]) >> 1


def check_win_positions(value: object, what: str = "win positions") -> int:
    """``value`` if it is a whole number from 0 (no section) to :data:`MAX_WIN_POSITIONS`."""
    if (isinstance(value, bool) or not isinstance(value, int)
            or not 0 <= value <= MAX_WIN_POSITIONS):  # fmt: skip
        raise PinastatsError(
            f"{what} must be a whole number from 0 (no playing-to-win section) to "
            f"{MAX_WIN_POSITIONS:,}, got {value!r}"
        )
    return value


def check_win_playouts(value: object, what: str = "win play-outs") -> int:
    """``value`` if it is a whole number from 2 (a standard error needs two) to the maximum."""
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= MAX_WIN_PLAYOUTS:
        raise PinastatsError(
            f"{what} must be a whole number from 2 to {MAX_WIN_PLAYOUTS:,} (play-outs per "
            f"outcome position), got {value!r}"
        )
    return value


@dataclass(frozen=True)
class ExampleCell:
    """One legal cell of the worked example's final dice.

    ``coach``: the coach's choice (highest ``W``); ``points_choice``: the points advice's;
    ``exact``: the game is over after the placement (``W`` is its result, no play-outs).
    """

    cell: int
    row: int
    col: int
    coaster: str
    points: int
    win_probability: float
    win_probability_se: float
    coach: bool
    points_choice: bool
    exact: bool


@dataclass(frozen=True)
class BoardCell:
    """One cell of the example's board: its place, coaster, side and the seat on each space."""

    cell: int
    row: int
    col: int
    coaster: str
    side: str
    spaces: tuple[int | None, ...]


@dataclass(frozen=True)
class WorkedExample:
    """The decision worked through.

    Attributes:
        decision: its index in the sample (``>= positions``: drawn after it).
        sample_agree: whether the comparison's play-outs chose the points' cell (None:
            drawn after the sample).
        turn, seat: the turn number and the seat to move; scores, reserves: per seat.
        dice: the final dice; situation: its situation (see :mod:`pinastats.coach.objectives`).
        board: every cell of the board; cells: every legal cell, most likely to win first.
        too_close_to_call, lead, lead_se: from :func:`~pinastats.coach.win_advice`.
        playouts: play-outs made per outcome position; seed: the play-outs' seed.
    """

    decision: int
    sample_agree: bool | None
    turn: int
    seat: int
    scores: tuple[int, ...]
    reserves: tuple[int, ...]
    dice: tuple[int, ...]
    situation: str
    board: tuple[BoardCell, ...]
    cells: tuple[ExampleCell, ...]
    too_close_to_call: bool
    lead: float
    lead_se: float
    playouts: int
    seed: int

    @property
    def coach_cell(self) -> ExampleCell:
        """The coach's choice."""
        return next(c for c in self.cells if c.coach)

    @property
    def points_cell(self) -> ExampleCell:
        """The points advice's choice."""
        return next(c for c in self.cells if c.points_choice)


@dataclass(frozen=True)
class SituationRow:
    """One situation: its decisions, how often the cells differ, what the coach's cell adds.

    ``gain`` is the mean win gain over the decisions that disagree, ``gain_per_decision``
    over all of them (0 where they agree); None with fewer than 2 decisions.
    """

    situation: str
    positions: int
    disagreements: int
    share: Estimate
    gain: Estimate | None
    gain_per_decision: Estimate | None


@dataclass(frozen=True)
class CalibrationRow:
    """The measures of one predictor over one phase (``all``: every position)."""

    predictor: str
    phase: str
    positions: int
    brier: float
    brier_constant: float
    log_loss: float
    ece: float
    ece_floor: float


@dataclass(frozen=True)
class Decile:
    """One decile of a predictor's reliability table: mean prediction, mean result, its CI."""

    predictor: str
    count: int
    predicted: float
    observed: float
    low: float
    high: float


@dataclass(frozen=True)
class Calibration:
    """How far the win probabilities can be taken at face value.

    Attributes:
        rows: per predictor (the coach, then the network when it fits the game), its
            measures by phase with positions, then over all of them.
        deciles: every predictor's reliability table.
        network_note: why the network was left out, or how the game differs from
            the games it was trained on; empty when it was trained on this game.
    """

    rows: tuple[CalibrationRow, ...]
    deciles: tuple[Decile, ...]
    network_note: str

    @property
    def predictors(self) -> tuple[str, ...]:
        """The predictors, in order."""
        return tuple(dict.fromkeys(r.predictor for r in self.rows))


def _calibration_of(runs: list[CalibrationResult], note: str) -> Calibration:
    """The section's numbers of the calibration runs (phases without a position left out)."""
    rows = tuple(
        CalibrationRow(str(r["evaluator"]), str(r["phase"]), int(r["positions"]),
                       float(r["brier"]), float(r["brier_constant"]), float(r["log_loss"]),
                       float(r["ece"]), float(r["ece_floor"]))
        for run in runs for r in run.summary().to_dict("records") if r["positions"]
    )  # fmt: skip
    deciles = tuple(
        Decile(run.predictor, int(d["count"]), float(d["predicted"]), float(d["observed"]),
               float(d["low"]), float(d["high"]))
        for run in runs for d in run.table.to_dict("records")
    )  # fmt: skip
    return Calibration(rows, deciles, note)


@dataclass(frozen=True)
class PlayingToWin:
    """The playing-to-win section of a report.

    Attributes:
        positions, playouts, policy, seed: the comparison's settings (``seed``: its
            ``SeedSequence`` entropy, :func:`win_seed` of the report's seed).
        situations: per situation present in the sample, then ``"all"``.
        example: the decision worked through.
        calibration: the reliability of the coach's and the network's win probabilities.
    """

    positions: int
    playouts: int
    policy: str
    seed: int
    situations: tuple[SituationRow, ...]
    example: WorkedExample
    calibration: Calibration

    @property
    def overall(self) -> SituationRow:
        """The row of every decision."""
        return self.situations[-1]


def _estimate(value: Any, low: Any, high: Any) -> Estimate | None:
    """An estimate with its interval; None when there were too few decisions for one."""
    return None if math.isnan(low) else Estimate(float(value), float(low), float(high))


def _situations(comparison: ObjectiveComparison) -> tuple[SituationRow, ...]:
    """The rows of :meth:`~pinastats.coach.ObjectiveComparison.by_situation`."""
    rows: list[Any] = list(comparison.by_situation().itertuples(index=False))
    return tuple(
        SituationRow(str(r.situation), int(r.positions), int(r.disagreements),
                     Estimate(float(r.share), float(r.share_low), float(r.share_high)),
                     _estimate(r.differ_gain, r.differ_gain_low, r.differ_gain_high),
                     _estimate(r.mean_gain, r.gain_low, r.gain_high))
        for r in rows
    )  # fmt: skip


def _pick(frame: pd.DataFrame, players: int) -> int | None:
    """The decision of the sample to work through (see the module docstring), or None."""
    wide = frame[frame["options"] >= EXAMPLE_MIN_CELLS]
    if wide.empty:
        return None
    later = wide[wide["turn"] >= players]
    pool = later if not later.empty else wide
    differ = pool[~pool["agree"].astype(bool)]
    if differ.empty:
        return int(pool.index[0])
    gain = differ["win_gain"].to_numpy(dtype=float)
    z = gain / np.maximum(differ["win_gain_se"].to_numpy(dtype=float), 1e-12)
    return int(differ.index[int(np.argmax(z))])


def _example_position(
    config: GameConfig, seed: int, positions: int, frame: pd.DataFrame
) -> tuple[int, Game, tuple[int, ...], np.random.SeedSequence]:
    """The worked example's decision: its index, position, final dice and seed child."""
    chosen = _pick(frame, config.players)
    children = np.random.SeedSequence(seed).spawn(positions + EXTRA_DRAWS)
    if chosen is not None:
        game, dice = _sample(children[chosen], config.players, config)
        return chosen, game, dice, children[chosen]
    best: tuple[int, Game, tuple[int, ...], np.random.SeedSequence] | None = None
    for i in range(positions, positions + EXTRA_DRAWS):
        game, dice = _sample(children[i], config.players, config)
        if best is None or len(game.legal_cells(dice)) > len(best[1].legal_cells(best[2])):
            best = (i, game, dice, children[i])
        if len(game.legal_cells(dice)) >= EXAMPLE_MIN_CELLS:
            break
    assert best is not None
    return best


def _example(
    config: GameConfig, seed: int, positions: int, playouts: int, frame: pd.DataFrame,
    workers: int | None,
) -> WorkedExample:  # fmt: skip
    """Work the chosen decision through with up to ``EXAMPLE_PLAYOUTS_FACTOR × playouts``."""
    index, game, dice, child = _example_position(config, seed, positions, frame)
    play_seed = int(child.generate_state(1)[0])  # the comparison's play-outs come first
    most = min(EXAMPLE_PLAYOUTS_FACTOR * playouts, MAX_PLAYOUTS)
    advice = win_advice(game, dice, 0, playouts=most,
                        policy=WIN_POLICY, seed=play_seed, batch=playouts,
                        workers=workers)  # fmt: skip
    points_cell = advise(game, dice, 0).placements[0].cell
    by_cell = {p.cell: p for p in advice.placements}
    coach_cell = points_cell if by_cell[points_cell].best else advice.placements[0].cell
    names = {c.id: c.name for c in config.catalogue.coasters}
    exact = {o.outcome.cell: o.exact for o in advice.outcomes if o.outcome.kind == "place"}
    cells = tuple(
        ExampleCell(p.cell, p.row, p.col, names.get(p.coaster, p.coaster), p.points,
                    p.win_probability, p.win_probability_se, coach=p.cell == coach_cell,
                    points_choice=p.cell == points_cell, exact=exact[p.cell])
        for p in advice.placements
    )  # fmt: skip
    board = tuple(
        BoardCell(v.cell, v.row, v.col, names.get(v.coaster, v.coaster), v.side, v.spaces)
        for v in game.cells
    )
    agree = bool(frame.loc[index, "agree"]) if index < positions else None
    return WorkedExample(
        decision=index, sample_agree=agree, turn=game.turn, seat=game.to_move, scores=game.scores,
        reserves=game.reserves, dice=tuple(dice), situation=situation(game, dice), board=board,
        cells=cells, too_close_to_call=advice.too_close_to_call, lead=advice.lead,
        lead_se=advice.lead_se, playouts=advice.playouts, seed=advice.seed,
    )  # fmt: skip


def run_playing_to_win(
    config: GameConfig, positions: int, playouts: int, seed: int, *,
    workers: int | None = None, progress: bool = False,
) -> PlayingToWin:  # fmt: skip
    """Compare the objectives over ``positions`` decisions and work one through.

    ``seed`` is the report's seed. The cost grows as ``positions × playouts``
    (see :data:`DEFAULT_WIN_POSITIONS` for the defaults' CPU time).
    """
    positions = check_win_positions(positions)
    playouts = check_win_playouts(playouts)
    if positions == 0:
        raise PinastatsError("win positions must be at least 1 for a playing-to-win section")
    threads = workers if workers is not None else os.cpu_count() or 1
    entropy = win_seed(seed)
    if progress:
        print(f"pinastats: {config.players} players, playing to win: {positions:,} decisions",
              file=sys.stderr, flush=True)  # fmt: skip
    comparison = compare_objectives(positions, players=config.players, playouts=playouts,
                                    policy=WIN_POLICY, seed=entropy, workers=threads,
                                    config=config)  # fmt: skip
    frame = comparison.frame
    example = _example(config, entropy, positions, playouts, frame, threads)
    return PlayingToWin(positions, playouts, WIN_POLICY, entropy, _situations(comparison),
                        example, _calibration(config, positions, playouts, entropy, threads,
                                              progress))  # fmt: skip


def _calibration(config: GameConfig, positions: int, playouts: int, seed: int, workers: int,
                 progress: bool) -> Calibration:  # fmt: skip
    """The coach's calibration, and the network's when the shipped networks fit the game."""
    if progress:
        print(f"pinastats: {config.players} players, calibration of the win probabilities",
              file=sys.stderr, flush=True)  # fmt: skip
    runs = [calibration(positions, playouts=playouts, policy=WIN_POLICY, seed=seed,
                        workers=workers, config=config)]  # fmt: skip
    why = fits(config)
    if why is not None:
        return _calibration_of(runs, f"The network was left out: {why}.")
    runs.append(
        calibration(
            NETWORK_CALIBRATION_FACTOR * positions,
            evaluator="network",
            policy=WIN_POLICY,
            seed=seed,
            workers=workers,
            config=config,
        )
    )
    differs = outside_training(config)
    note = ("The network was trained on other games: " + "; ".join(differs) + "."
            if differs else "")  # fmt: skip
    return _calibration_of(runs, note)
