"""Positions labelled by perfect play: the turn starts of games on solved boards.

The yardstick's survey (:func:`pinastats.records.yardstick.study_board`) keeps,
for every game it grades, each turn's start as a position line
(:func:`~pinastats.game.notation_of`) with the mover's exact chance to win. Those
games are played by every agent from ``random`` to ``perfect``, so the positions
are those good and bad play reach, in every phase. :func:`exact_positions` reads
them as a data set (:class:`~pinastats.value.data.Positions`: the mover's exact
chance, the other seat's its complement, no game without a winner), of the
boards asked for, so that training, validation and test boards stay apart;
:func:`exact_accuracy` measures a network's chance for the mover against the
exact one.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from pinastats import _engine as E
from pinastats._engine import stack_states
from pinastats.agents.network import evaluate_states
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.notation import parse_position
from pinastats.solve.survey import read_survey
from pinastats.value.data import Positions

CALIBRATION_BINS = 10
"""Equal-mass bins of the calibration error (the project's ECE, as the benchmark's)."""


def exact_positions(
    survey: pd.DataFrame | str | Path, boards: Sequence[int] | None = None
) -> Positions:
    """The graded games' turn starts of ``boards`` (all by default), each with its exact label.

    ``survey``: the rows of a surveyed run with its studies, or its log file. A
    position's ``game`` is ``board * 10**6 +`` the game's number on the board,
    its ``source`` the agent that played it.
    """
    frame = read_survey(survey) if isinstance(survey, str | Path) else survey
    wanted = None if boards is None else {int(b) for b in boards}
    games, labels, sources, numbers = [], [], [], []
    config: GameConfig | None = None
    for row in frame.to_dict("records"):
        if wanted is not None and int(row["board"]) not in wanted:
            continue
        errors = (row.get("study") or {}).get("errors", {})
        for agent, rows in errors.items():
            for g, game_row in enumerate(rows):
                for line, chance in game_row.get("positions", []):
                    game = parse_position(line, config=config)
                    config = config or game.config
                    if game.is_over:
                        continue
                    games.append(game)
                    labels.append((float(chance), 1.0 - float(chance), 0.0))
                    sources.append(agent)
                    numbers.append(int(row["board"]) * 10**6 + g)
    if config is None:
        raise PinastatsError("the survey holds no graded positions of the boards asked for")
    states = stack_states([g.state for g in games])
    provenance = {"players": 2, "labels": "exact (perfect play, solved boards)",
                  "boards": sorted(wanted) if wanted is not None else "all"}  # fmt: skip
    return Positions(config, states, np.array(labels), np.array(sources, dtype=object),
                     np.array(numbers, dtype=np.int64), provenance)  # fmt: skip


def exact_accuracy(positions: Positions, path: str | Path | None = None) -> dict[str, float]:
    """A network's chance for the mover against the exact one: error, bias and calibration.

    ``path``: a weights file (default: the shipped networks). Returns
    ``positions``, ``mae`` (mean |network − exact|), ``bias`` (mean network −
    exact), ``rmse`` and ``ece`` (the mean |mean network − mean exact| over
    :data:`CALIBRATION_BINS` equal-mass bins of the network's chance, weighted
    by the bins' sizes).
    """
    if not len(positions):
        raise PinastatsError("no positions to measure the network on")
    chances = evaluate_states(positions.config, positions.states, path)
    network = E.seat_value(chances[:, 0], chances[:, -1])  # the mover's wins + half of none
    exact = positions.labels[:, 0]
    error = network - exact
    order = np.argsort(network, kind="stable")
    bins = np.array_split(order, min(CALIBRATION_BINS, len(order)))
    ece = sum(abs(network[b].mean() - exact[b].mean()) * len(b) for b in bins) / len(order)
    return {
        "positions": float(len(exact)),
        "mae": float(np.abs(error).mean()),
        "bias": float(error.mean()),
        "rmse": float(np.sqrt((error**2).mean())),
        "ece": float(ece),
    }
