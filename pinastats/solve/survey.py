"""Many boards solved: the first player's exact chance on each, on local cores or a cluster.

:func:`survey` deals ``boards`` boards from one seed (board ``i`` from the
``i``-th child of ``SeedSequence(seed)``: the same seed deals the same boards,
whatever runs them), solves each (:func:`~pinastats.solve.table.solve`) and
returns one row per board. ``executor=`` takes any
:class:`concurrent.futures.Executor` or a ``dask.distributed`` client, as
:func:`~pinastats.simulation.simulate` does; each task solves one board on one
thread. With ``log=`` every finished board is appended to a JSON Lines file as
one line, and a run given the same file starts where the last one stopped.

Each row also gives the first player's chance after her opening token on each
cell (what a coaster is worth at the start, under perfect play), and ``study=``
runs more work on each board while its solution is at hand (games graded
exactly, :mod:`pinastats.records.yardstick`): what it returns is kept in the row.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from concurrent.futures import Executor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.solve.board import SolvedBoard, SolveError, uncovered
from pinastats.solve.solution import Solution
from pinastats.solve.table import cached, remember, solve

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

Study = Callable[[int, Game, Solution], dict[str, Any]]
"""Work on one board while its solution is at hand: called with the board's number, its
start and its solution; what it returns (JSON-ready) is kept in the board's row."""


@dataclass(frozen=True)
class BoardResult:
    """One surveyed board.

    Attributes:
        board: its number in the survey (0, 1, ...).
        seed: the entropy of the seed sequence that dealt it (``Game.new(seed=...)``).
        digest: the board's digest.
        coasters: the coaster on each cell, by name, row-major.
        first_chance: the first player's exact chance to win at the start.
        seconds: the solve's wall time (0 when the table was kept already).
        openings: the first player's chance after her first token on each cell,
            row-major (the value of an opening placement there).
        study: what the survey's ``study`` returned for this board.
    """

    board: int
    seed: int
    digest: str
    coasters: tuple[str, ...]
    first_chance: float
    seconds: float
    openings: tuple[float, ...] = ()
    study: dict[str, Any] = field(default_factory=dict)


def board_seeds(seed: int, boards: int) -> list[int]:
    """The seed of each board: ``SeedSequence(seed)``'s children, as whole numbers."""
    children = np.random.SeedSequence(seed).spawn(boards)
    return [int(c.generate_state(1, dtype=np.uint64)[0]) for c in children]


def solve_board(
    config: GameConfig,
    number: int,
    seed: int,
    workers: int | None = 1,
    study: Study | None = None,
) -> BoardResult:
    """Deal board ``number`` from ``seed``, solve it (on ``workers`` threads) and study it.

    A kept table is read back; a new solve is not kept on disk (a survey wants the
    chance at the start, not 74 MB a board in the cache folder), only in this
    process while ``study`` runs (the ``perfect`` agent and exact reviews find it).
    """
    game = Game.new(config=config, seed=seed)
    started = time.perf_counter()
    solution = cached(game)
    seconds = 0.0
    if solution is None:
        solution = solve(game, workers=workers, store=False)
        seconds = time.perf_counter() - started
        remember(solution)
    names = tuple(game.coaster(c).name for c in range(config.layout.n_cells))
    openings = tuple(round(float(v), 12) for v in solution.analyse(game).cell_value)
    extra = {} if study is None else study(number, game, solution)
    return BoardResult(number, seed, solution.digest, names, solution.start_chance, seconds,
                       openings, extra)  # fmt: skip


def read_survey(path: str | Path) -> pd.DataFrame:
    """The boards a survey's log holds, one row each in board order (:class:`BoardResult`)."""
    where = Path(path)
    if not where.is_file():
        raise SolveError(f"no survey log at {str(path)!r}")
    done = _read_log(where)
    return pd.DataFrame([asdict(done[k]) for k in sorted(done)])


def _read_log(path: Path) -> dict[int, BoardResult]:
    """The boards a log holds (a last line cut short by a stop is ignored)."""
    done: dict[int, BoardResult] = {}
    if not path.exists():
        return done
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
            row["coasters"] = tuple(row["coasters"])
            row["openings"] = tuple(row.get("openings", ()))
            result = BoardResult(**row)
        except (ValueError, TypeError, KeyError):
            continue
        done[result.board] = result
    return done


def survey(
    boards: int,
    *,
    seed: int = 0,
    config: GameConfig | None = None,
    executor: Executor | Any | None = None,
    log: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    study: Study | None = None,
) -> pd.DataFrame:
    """Solve ``boards`` dealt boards; one row per board (:class:`BoardResult`'s fields).

    Without ``executor`` the boards are solved one after the other, each on every
    core; with one, each task solves a board on one thread (a process pool of as
    many processes as cores keeps every core busy through ``study`` too). A board
    whose table is kept is read back, not solved again. ``study`` must pickle
    for a process pool or a cluster (a module's function, or a
    :func:`functools.partial` of one). One log holds one survey: its rows are
    taken as done, whatever ``study`` made them.
    """
    if isinstance(boards, bool) or not isinstance(boards, int) or boards < 1:
        raise PinastatsError(f"boards must be a whole number of at least 1, got {boards!r}")
    config = config or GameConfig(players=2)
    why = uncovered(config)
    if why is not None:
        raise SolveError(why)
    seeds = board_seeds(seed, boards)
    SolvedBoard.of(Game.new(config=config, seed=seeds[0]))  # refuse a bad config up front
    path = None if log is None else Path(log)
    done = {} if path is None else {k: r for k, r in _read_log(path).items() if k < boards}
    for k, result in done.items():
        if result.seed != seeds[k]:
            raise SolveError(
                f"{path} holds board {k} of another survey (seed {result.seed}, "
                f"expected {seeds[k]}): give the same seed or another file"
            )
    todo = [k for k in range(boards) if k not in done]

    def finished(result: BoardResult) -> None:
        done[result.board] = result
        if path is not None:
            with path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(asdict(result)) + "\n")
        if progress is not None:
            progress(len(done), boards)

    if executor is None:
        for k in todo:
            finished(solve_board(config, k, seeds[k], workers=None, study=study))
    else:
        jobs = [executor.submit(solve_board, config, k, seeds[k], 1, study) for k in todo]
        for job in _completed(executor, jobs):
            finished(job.result())
    frame = pd.DataFrame([asdict(done[k]) for k in range(boards)])
    return frame


def _completed(executor: Any, jobs: list[Any]) -> Any:
    """The jobs as they finish: Dask's ``as_completed`` for a client, else the standard one."""
    if hasattr(executor, "scheduler_info"):  # a dask.distributed Client
        from distributed import as_completed as dask_completed

        return dask_completed(jobs)
    return as_completed(jobs)


def first_player_summary(frame: pd.DataFrame) -> dict[str, float]:
    """The first player's chance over the boards: mean, its 95% interval, spread, extremes."""
    x = frame["first_chance"].to_numpy(dtype=float)
    n = x.size
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    half = Z95 * sd / math.sqrt(n) if n > 1 else math.nan
    return {
        "boards": n,
        "mean": float(x.mean()),
        "low": float(x.mean() - half),
        "high": float(x.mean() + half),
        "sd": sd,
        "min": float(x.min()),
        "max": float(x.max()),
        # boards needed for a 95% half-width of 0.3 percentage points at this spread
        "boards_for_0_3_points": math.ceil((Z95 * sd / 0.003) ** 2) if n > 1 else math.nan,
    }
