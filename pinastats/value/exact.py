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

import gzip
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pinastats import _engine as E
from pinastats._engine import stack_states
from pinastats.agents.network import evaluate_states
from pinastats.coach.outcomes import network_values, outcome_positions
from pinastats.errors import PinastatsError
from pinastats.evaluation.exact import exact_values
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.notation import parse_position
from pinastats.solve.study import read_labels, read_study
from pinastats.solve.survey import read_survey
from pinastats.solve.table import cached, remember, solve
from pinastats.value.data import Positions

CALIBRATION_BINS = 10
"""Equal-mass bins of the calibration error (the project's ECE, as the benchmark's)."""

BOARD_GAMES = 10**6
"""A position's ``game`` is ``board * BOARD_GAMES + g``, ``g`` the game's number on the board."""
TEST_BOARDS = (16, 17, 18, 19, 76, 77, 78, 79)
"""The solved boards of the two-player studies no network is fitted or stopped on."""
VALID_BOARDS = (14, 15, 74, 75)
"""The solved boards whose positions stop the training of networks fitted on exact labels."""
DECISION_BOARDS = (76, 77, 78, 79)
"""The test boards whose turns' choices are valued (:func:`decision_accuracy`)."""


def game_number(board: int, game: int) -> int:
    """The number of game ``game`` of board ``board``: ``board * BOARD_GAMES + game``."""
    if not 0 <= game < BOARD_GAMES:
        raise PinastatsError(f"a board's game number is from 0 to {BOARD_GAMES - 1}, got {game!r}")
    return board * BOARD_GAMES + game


def board_of(number: Any) -> Any:
    """The board of a game number (or of an array of them): ``number // BOARD_GAMES``."""
    return number // BOARD_GAMES


def exact_positions(
    survey: pd.DataFrame | str | Path | None,
    boards: Sequence[int] | None = None,
    *,
    labels: str | Path | None = None,
) -> Positions:
    """The turn starts of ``boards`` (all by default), each with its exact label.

    ``survey``: the rows of a surveyed run with its studies, or its log file
    (the graded games' turn starts); ``labels``: a folder of labelled boards
    (:func:`~pinastats.records.yardstick.label_board`'s ``board-007.json.gz``
    files). A position's ``game`` is :func:`game_number` of the board and the
    game's number on it (labelled games from :data:`LABELLED_GAMES` on), its ``source`` the
    agent to move.
    """
    wanted = None if boards is None else {int(b) for b in boards}
    rows = turn_starts(survey, labels, wanted)
    config = rows[0][0].config
    states = stack_states([game.state for game, *_ in rows])
    values = np.array([(chance, 1.0 - chance, 0.0) for _, chance, _, _ in rows])
    provenance = {"players": 2, "labels": "exact (perfect play, solved boards)",
                  "boards": sorted(wanted) if wanted is not None else "all"}  # fmt: skip
    return Positions(config, states, values, np.array([r[2] for r in rows], dtype=object),
                     np.array([r[3] for r in rows], dtype=np.int64), provenance)  # fmt: skip


def on_boards(positions: Positions, boards: Sequence[int]) -> Positions:
    """The positions of :func:`exact_positions` that lie on ``boards``, in the same order."""
    wanted = sorted({int(b) for b in boards})
    rows = np.flatnonzero(np.isin(board_of(positions.game), wanted))
    return positions.take(rows, boards=wanted)


def turn_starts(
    survey: pd.DataFrame | str | Path | None, labels: str | Path | None, wanted: set[int] | None
) -> list[tuple[Game, float, str, int]]:
    """``(game, the mover's exact chance, agent, game number)`` of every position not over."""
    rows: list[tuple[str, float, str, int]] = []
    if survey is not None:
        frame = read_survey(survey) if isinstance(survey, str | Path) else survey
        for row in frame.to_dict("records"):
            board = int(row["board"])
            if wanted is not None and board not in wanted:
                continue
            study = read_study(row.get("study") or {}, f"board {board}'s study")
            for agent, games in study.errors.items():
                for g, graded in enumerate(games):
                    rows += [(p.line, p.chance, agent, game_number(board, g))
                             for p in graded.positions]  # fmt: skip
    if labels is not None:
        rows += _labelled(Path(labels), wanted)
    config: GameConfig | None = None
    out: list[tuple[Game, float, str, int]] = []
    for line, chance, agent, number in rows:
        game = parse_position(line, config=config)
        config = config or game.config
        if not game.is_over:
            out.append((game, chance, agent, number))
    if not out:
        raise PinastatsError("the survey holds no graded positions of the boards asked for")
    return out


def decision_accuracy(
    survey: pd.DataFrame | str | Path | None,
    boards: Sequence[int],
    *,
    labels: str | Path | None = None,
    paths: Sequence[str | Path | None] = (None,),
    per_board: int = 200,
    seed: int = 0,
) -> pd.DataFrame:
    """Networks against perfect play on the choices themselves: each turn's ways to end.

    For ``per_board`` turn starts drawn (by ``seed``) from each of ``boards``'
    positions (:func:`exact_positions`' sources), every way the mover's turn can
    end (a token on each open cell, or a pass) is valued exactly
    (:func:`~pinastats.coach.advice.exact_values`; a board whose table is not
    kept is solved in memory, once for all the networks) and by each network of
    ``paths`` (``None``: the one the tools play with). With ``b`` the exact
    best way and ``W``, ``N`` the exact and network values, ``difference`` is
    the mean over positions of the mean over the other ways ``j`` of
    ``|(N_j - N_b) - (W_j - W_b)|`` (what choosing depends on). One row a
    network: ``network``, ``positions``, ``difference``, ``agree`` (the share
    of positions where the network's best way is exactly best, ties within
    1e-9 counted) and ``loss`` (the mean ``W_b - W_n`` of the network's best way
    ``n``, in thousandths of a win).
    """
    rows = turn_starts(survey, labels, {int(b) for b in boards})
    pick = np.random.default_rng(seed)
    losses: list[list[float]] = [[] for _ in paths]
    differences: list[list[float]] = [[] for _ in paths]
    for board in sorted({board_of(number) for *_, number in rows}):
        games = [game for game, _, _, number in rows if board_of(number) == board]
        take = sorted(pick.permutation(len(games))[: min(per_board, len(games))])
        remember(cached(games[0]) or solve(games[0], store=False))
        for k in take:
            outcomes = outcome_positions(games[int(k)])
            exact = exact_values(outcomes)
            best = int(np.argmax(exact))
            others = np.arange(len(exact)) != best
            for n, path in enumerate(paths):
                network = network_values(outcomes, path)
                losses[n].append(float(exact[best] - exact[int(np.argmax(network))]))
                if others.any():
                    gap = (network[others] - network[best]) - (exact[others] - exact[best])
                    differences[n].append(float(np.abs(gap).mean()))
    return pd.DataFrame([
        {"network": "in use" if path is None else str(path), "positions": len(losses[n]),
         "difference": float(np.mean(differences[n])),
         "agree": float(np.mean(np.array(losses[n]) <= 1e-9)),
         "loss": 1000 * float(np.mean(losses[n]))}
        for n, path in enumerate(paths)
    ])  # fmt: skip


LABELLED_GAMES = 500_000
"""Where a labelled board's game numbers start (the graded games' come first)."""


def _labelled(folder: Path, wanted: set[int] | None) -> list[tuple[str, float, str, int]]:
    """The positions of the labelled boards in ``folder`` (``board-NNN.json.gz``)."""
    if not folder.is_dir():
        raise PinastatsError(f"no folder of labelled boards at {str(folder)!r}")
    rows: list[tuple[str, float, str, int]] = []
    for path in sorted(folder.glob("board-*.json.gz")):
        try:
            data = json.loads(gzip.decompress(path.read_bytes()))
            board = int(data["board"])
        except (OSError, EOFError, ValueError, TypeError, KeyError) as exc:
            raise PinastatsError(f"{path} is not a file of labelled positions ({exc})") from None
        if wanted is not None and board not in wanted:
            continue
        rows += [(p.line, p.chance, p.agent, game_number(board, LABELLED_GAMES + p.game))
                 for p in read_labels(data, str(path))]  # fmt: skip
    return rows


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
