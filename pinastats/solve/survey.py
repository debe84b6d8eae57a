"""Many boards solved: the first player's exact chance on each, on local cores or a cluster.

:func:`survey` deals ``boards`` boards from one seed (board ``i`` from the
``i``-th child of ``SeedSequence(seed)``: the same seed deals the same boards,
whatever runs them), solves each (:func:`~pinastats.solve.table.solve`) and
returns one row per board. ``executor=`` takes any
:class:`concurrent.futures.Executor` or a ``dask.distributed`` client, as
:func:`~pinastats.simulation.simulate` does; each task solves one board on one
thread (on Dask, a board whose worker is lost is solved again elsewhere), and
at most :data:`IN_FLIGHT` boards wait at once, so a survey of
:data:`MAX_BOARDS` makes nothing per board before the work. With ``log=`` the
file starts with a header line (:data:`LOG_FORMAT`, :data:`LOG_VERSION`, the
seed and the game) and every finished board is appended to it as one JSON
line; a run given the same file starts where the last one stopped, and a file
that is not such a log, or a line that is not a board's row, is refused with
one line naming the file and the line (:func:`read_survey`).

Each row also gives the first player's chance after her opening token on each
cell (what a coaster is worth at the start, under perfect play), and ``study=``
runs more work on each board while its solution is at hand (games graded
exactly, :mod:`pinastats.records.yardstick`): what it returns is kept in the row.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, wait
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pinastats._executors import is_dask_client
from pinastats._files import check_output, claimed, written_whole
from pinastats._stats import Z95, half_width
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.solve.board import SolvedBoard, SolveError, uncovered
from pinastats.solve.solution import Solution
from pinastats.solve.solver import check_memory
from pinastats.solve.table import cached, remember, solve

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


MAX_BOARDS = 1_000_000
"""The most boards one survey deals (a million boards is about 40,000 core-hours)."""

LOG_FORMAT = "pinastats survey log"
"""The ``format`` of a survey log's first line (:func:`read_survey`)."""

LOG_VERSION = 1
"""The version of the survey log this code writes and reads (a log without a first
line of :data:`LOG_FORMAT`, as the first ones were written, is read as version 1)."""

IN_FLIGHT = 256
"""Boards handed to an executor at once, at least (a Dask cluster gets two a worker
when that is more): the rest wait, so a survey's bookkeeping does not grow with its size."""

RETRIES = 3
"""Times a Dask cluster solves a board again when the worker solving it is lost."""

_FIELDS = {f.name for f in fields(BoardResult)}
_REQUIRED = _FIELDS - {"openings", "study"}


def board_seed(seed: int, board: int) -> int:
    """The seed of board ``board``: child ``board`` of ``SeedSequence(seed)``, a whole number.

    The child is built directly (``spawn_key=(board,)``), as ``spawn`` builds it:
    nothing is made for the boards before it.
    """
    child = np.random.SeedSequence(seed, spawn_key=(board,))
    return int(child.generate_state(1, dtype=np.uint64)[0])


def board_seeds(seed: int, boards: int) -> list[int]:
    """The seed of each board: ``SeedSequence(seed)``'s children, as whole numbers."""
    return [board_seed(seed, k) for k in range(boards)]


def check_boards(boards: object) -> int:
    """``boards`` if it is a whole number from 1 to :data:`MAX_BOARDS`, else a one-line error."""
    if isinstance(boards, bool) or not isinstance(boards, int) or not 1 <= boards <= MAX_BOARDS:
        raise PinastatsError(
            f"boards must be a whole number from 1 to {MAX_BOARDS:,}, got {boards!r}"
        )
    return boards


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
    """The boards a survey's log holds, one row each in board order (:class:`BoardResult`).

    A log is JSON Lines: a first line ``{"format": LOG_FORMAT, "version": 1, ...}``,
    then one line a finished board (:class:`BoardResult`'s fields). A line that is
    not a board's row is refused with one line naming the file and the line, and
    so is a file whose first line is neither (game records, say) or a version
    this code does not read; only a last line cut short by a stop is passed over.
    """
    where = Path(path)
    if not where.is_file():
        raise SolveError(f"no survey log at {str(path)!r}")
    done = _read_log(where).boards
    return pd.DataFrame([asdict(done[k]) for k in sorted(done)])


@dataclass
class _Log:
    """What a log holds: its header (None without one), the boards, the bytes to keep."""

    header: dict[str, Any] | None
    boards: dict[int, BoardResult]
    whole: int
    """Bytes up to the end of the last whole line (a last line cut short comes after)."""


def _bad_line(path: Path, number: int, why: str) -> SolveError:
    return SolveError(
        f"{path}, line {number}: {why}; a survey log holds one board a line as a survey "
        "writes it (fix or remove the line, or use another log)"
    )


def _number(value: object, low: float, high: float) -> bool:
    """Whether ``value`` is a finite JSON number from ``low`` to ``high`` (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value) and low <= value <= high


def _board_row(data: object) -> BoardResult | str:
    """A log line's board (:class:`BoardResult`), or what is wrong with it."""
    if not isinstance(data, dict):
        return f"a board's row is a JSON object, not {type(data).__name__}"
    missing = sorted(_REQUIRED - data.keys())
    if missing:
        return f"no {', '.join(repr(m) for m in missing)} field"
    unknown = sorted(str(k) for k in data.keys() - _FIELDS)
    if unknown:
        return f"unknown field {unknown[0]!r}"
    board, seed, digest = data["board"], data["seed"], data["digest"]
    coasters, openings = data["coasters"], data.get("openings", [])
    checks = (
        (isinstance(board, int) and not isinstance(board, bool) and 0 <= board < MAX_BOARDS,
         f"board must be a whole number from 0 to {MAX_BOARDS - 1:,}, got {board!r}"),
        (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**64,
         f"seed must be a whole number from 0 to 2**64 - 1, got {seed!r}"),
        (isinstance(digest, str) and len(digest) == 64
         and all(c in "0123456789abcdef" for c in digest),
         f"digest must be 64 hexadecimal digits, got {digest!r:.80}"),
        (isinstance(coasters, list) and all(isinstance(c, str) for c in coasters),
         "coasters must be a list of names"),
        (_number(data["first_chance"], 0.0, 1.0),
         f"first_chance must be a number from 0 to 1, got {data['first_chance']!r:.80}"),
        (_number(data["seconds"], 0.0, math.inf),
         f"seconds must be a number of at least 0, got {data['seconds']!r:.80}"),
        (isinstance(openings, list) and all(_number(v, 0.0, 1.0) for v in openings),
         "openings must be a list of numbers from 0 to 1"),
        (isinstance(data.get("study", {}), dict), "study must be a JSON object"),
    )  # fmt: skip
    for ok, why in checks:
        if not ok:
            return why
    return BoardResult(board, seed, digest, tuple(coasters), float(data["first_chance"]),
                       float(data["seconds"]), tuple(float(v) for v in openings),
                       data.get("study", {}))  # fmt: skip


def _header(data: object) -> dict[str, Any] | None:
    """``data`` if it is a survey log's first line (of a version read here), else None."""
    if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
        return None
    return data


def _read_log(path: Path) -> _Log:
    """The boards a log holds (a last line cut short by a stop is passed over).

    Any other line that is not a board's row is a :class:`SolveError` naming the
    file and the line; so is a first line that is neither a header nor a board
    (a file some other program wrote), and a header of another version.
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SolveError(f"cannot read the survey log {path}: {exc.strerror}") from None
    lines = raw.split(b"\n")
    last = lines.pop()  # after the last newline: b"", or a line cut short
    header: dict[str, Any] | None = None
    done: dict[int, BoardResult] = {}
    whole = len(raw) - len(last)
    for number, line in enumerate([*lines, last], start=1):
        cut_short = number == len(lines) + 1
        if not line.strip():
            continue
        try:
            data = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            if cut_short and number > 1:
                break
            what = "not text" if b"\0" in line or not _utf8(line) else "not JSON"
            if number == 1:
                raise SolveError(f"{path} is not a survey log (its first line is {what})") from None
            raise _bad_line(path, number, what) from None
        if number == 1 and (found := _header(data)) is not None:
            version = found.get("version")
            if version != LOG_VERSION:
                raise SolveError(
                    f"{path} is a survey log of version {version!r}; this pinastats reads "
                    f"version {LOG_VERSION} (a newer pinastats wrote it?)"
                )
            header = found
            continue
        row = _board_row(data)
        if isinstance(row, str):
            if cut_short and number > 1:
                break
            if number == 1:
                raise SolveError(
                    f"{path} is not a survey log: its first line is neither a survey's "
                    f"header nor a board ({row}); give a new file or a survey's log"
                )
            raise _bad_line(path, number, row)
        if cut_short:  # whole, but for its newline
            whole = len(raw)
        done[row.board] = row
    if header is None and not done and raw.strip():
        raise SolveError(f"{path} is not a survey log (no survey header, no board)")
    return _Log(header, done, whole)


def _utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _describe(config: GameConfig) -> str:
    """What a survey's boards are dealt as, in its log's header: layout, tokens, target, scores."""
    rules = config.rules
    scores = ",".join(str(int(s)) for s in config.start_scores)
    return (
        f"{config.layout.name} ({config.layout.n_cells} cells), {rules.tokens} tokens, "
        f"target {rules.target_score}, {rules.rolls} rolls, starting scores {scores}"
    )


def _open_log(path: Path, seed: int, config: GameConfig, boards: int) -> dict[int, BoardResult]:
    """The boards ``path`` holds of this survey, ready for more lines (a header when new).

    Refused, before any work: a log of another survey (another seed or game), a
    file that is not a survey log, a path that cannot be written.
    """
    game = _describe(config)
    if path.exists() and not path.is_file():
        raise SolveError(f"{path} is not a regular file: give the path of a survey's log")
    if not path.exists() or path.stat().st_size == 0:
        check_output(path)
        header = {"format": LOG_FORMAT, "version": LOG_VERSION, "seed": seed, "game": game}
        with written_whole(path, encoding="utf-8") as f:
            f.write(json.dumps(header) + "\n")
        return {}
    log = _read_log(path)
    if log.header is not None and (log.header.get("seed"), log.header.get("game")) != (seed, game):
        raise SolveError(
            f"{path} holds another survey (seed {log.header.get('seed')!r}, "
            f"{log.header.get('game')}): give the same seed and game, or another file"
        )
    done = {k: r for k, r in log.boards.items() if k < boards}
    for k, result in done.items():
        if result.seed != board_seed(seed, k):
            raise SolveError(
                f"{path} holds board {k} of another survey (seed {result.seed}, "
                f"expected {board_seed(seed, k)}): give the same seed or another file"
            )
    try:  # drop a line cut short by a stop; end a whole last line with its newline
        with path.open("r+b") as f:
            f.truncate(log.whole)
            if log.whole:
                f.seek(log.whole - 1)
                if f.read(1) != b"\n":
                    f.write(b"\n")
    except OSError as exc:
        raise SolveError(f"cannot write the survey log {path}: {exc.strerror}") from None
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
    many processes as cores keeps every core busy through ``study`` too). With a
    ``dask.distributed`` client each board is one task, solved again elsewhere
    when its worker is lost (:data:`RETRIES` times). A board whose table is kept
    is read back, not solved again. ``study`` must pickle for a process pool or a
    cluster (a module's function, or a :func:`functools.partial` of one). One log
    holds one survey (:func:`read_survey`): its rows are taken as done, whatever
    ``study`` made them. ``progress(done, boards)`` is called once before the
    work (with the boards the log holds already) and after each board.
    At most :data:`MAX_BOARDS` boards; the boards are dealt and handed out as the
    work goes, so nothing is made per board before it starts.
    """
    check_boards(boards)
    config = config or GameConfig(players=2)
    why = uncovered(config)
    if why is not None:
        raise SolveError(why)
    first = SolvedBoard.of(Game.new(config=config, seed=board_seed(seed, 0)))  # a bad config
    if executor is None:
        check_memory(first)  # on a pool or a cluster, each solve checks where it runs
    path = None if log is None else Path(log)
    done: dict[int, BoardResult] = {}
    with contextlib.ExitStack() as stack:
        if path is not None:
            stack.enter_context(claimed(path))
            done = _open_log(path, seed, config, boards)
        if progress is not None:
            progress(len(done), boards)
        todo = (k for k in range(boards) if k not in done)

        def finished(result: BoardResult) -> None:
            done[result.board] = result
            if path is not None:
                with path.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(asdict(result)) + "\n")
            if progress is not None:
                progress(len(done), boards)

        if executor is None:
            for k in todo:
                finished(solve_board(config, k, board_seed(seed, k), workers=None, study=study))
        else:
            _run(executor, todo, config, seed, study, finished)
    return pd.DataFrame([asdict(done[k]) for k in range(boards)])


def _is_dask(executor: object) -> bool:
    """Whether ``executor`` is a ``dask.distributed`` client (:func:`is_dask_client`)."""
    return is_dask_client(executor)


def _run(
    executor: Any,
    todo: Iterator[int],
    config: GameConfig,
    seed: int,
    study: Study | None,
    finished: Callable[[BoardResult], None],
) -> None:
    """Solve the boards of ``todo`` on ``executor``, a bounded number in flight at once."""
    dask = _is_dask(executor)
    window = IN_FLIGHT
    if dask:
        window = max(IN_FLIGHT, 2 * len(executor.scheduler_info().get("workers", {})))
    pending: dict[Any, int] = {}

    def submit(k: int) -> None:
        args = (solve_board, config, k, board_seed(seed, k), 1, study)
        job = (
            executor.submit(*args, retries=RETRIES, pure=False) if dask else executor.submit(*args)
        )
        pending[job] = k

    for k in itertools.islice(todo, window):
        submit(k)
    while pending:
        for job in _first_done(executor, list(pending), dask):
            k = pending.pop(job)
            finished(_result(job, k, dask))
            for more in itertools.islice(todo, 1):
                submit(more)


def _first_done(executor: Any, jobs: list[Any], dask: bool) -> set[Any]:
    """The jobs that have finished, once one has."""
    if dask:
        from distributed import wait as dask_wait

        return set(dask_wait(jobs, return_when="FIRST_COMPLETED").done)
    return wait(jobs, return_when=FIRST_COMPLETED).done


def _result(job: Any, board: int, dask: bool) -> BoardResult:
    """A finished job's board; a board whose workers all died is a :class:`SolveError`."""
    if dask:
        from distributed import KilledWorker

        try:
            result: BoardResult = job.result()
        except KilledWorker:
            raise SolveError(
                f"the Dask cluster lost every worker that solved board {board} "
                f"({RETRIES + 1} tries); boards finished so far are kept in the log"
            ) from None
        return result
    done: BoardResult = job.result()
    return done


def first_player_summary(frame: pd.DataFrame) -> dict[str, float]:
    """The first player's chance over the boards: mean, its 95% interval, spread, extremes."""
    x = frame["first_chance"].to_numpy(dtype=float)
    n = x.size
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    half = half_width(x)
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
