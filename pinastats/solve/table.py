"""Solve a board, or read its solution back: the tables kept in the cache folder.

The :data:`KEPT_ON_DISK` most recently used tables stay. A solved board is kept as
three files under ``boards/`` of
:func:`pinastats._cache.cache_dir`, named by the board's digest
(:attr:`~pinastats.solve.board.SolvedBoard.digest`): ``<digest>.npy`` the table of
chances (float32, ``(boards, 2)``, about 74 MB for the 4×4 grid, memory-mapped on
load), ``<digest>.final.npy`` the last turn's table, and ``<digest>.json``, written
last, which says the solve is whole and how it went. Each file is written whole
(:func:`~pinastats._files.written_whole`); one that cannot be read is solved again.
Within a process, a board is solved once however many threads ask for it.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np

from pinastats._cache import cache_dir
from pinastats._files import written_whole
from pinastats.game.game import Game
from pinastats.solve.board import SolvedBoard, SolveError
from pinastats.solve.solution import Solution
from pinastats.solve.solver import Progress, SolveStats, solve_values

KEPT_ON_DISK = 8
"""Tables kept in the cache folder (about 74 MB each for the 4x4 grid): storing one more
removes the least recently used, so many random boards do not fill the disk."""

KEPT_IN_MEMORY = 4
"""Solutions a process keeps at hand (each maps its table from the disk; a solve kept in
memory only, ``store=False``, is not kept)."""

_LOCK = threading.Lock()
_BOARD_LOCKS: dict[str, threading.Lock] = {}
_SOLUTIONS: OrderedDict[str, Solution] = OrderedDict()


def _folder() -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / "boards"


def solution_path(board: SolvedBoard) -> Path | None:
    """Where the table of ``board`` is kept (None when no cache folder is writable)."""
    if not isinstance(board, SolvedBoard):
        raise SolveError(f"board must be a SolvedBoard (SolvedBoard.of(game)), got {board!r}")
    folder = _folder()
    return None if folder is None else folder / f"{board.digest}.npy"


def _paths(board: SolvedBoard) -> tuple[Path, Path, Path] | None:
    main = solution_path(board)
    if main is None:
        return None
    return main, main.with_suffix(".final.npy"), main.with_suffix(".json")


def load(board: SolvedBoard) -> Solution | None:
    """The kept solution of ``board``, memory-mapped, or None when none is kept whole."""
    paths = _paths(board)
    if paths is None or not paths[2].exists():
        return None
    main, final, meta = paths
    with contextlib.suppress(OSError):  # a folder one may not write is still read
        os.utime(meta)  # used now: the last to be pruned
    try:
        info = json.loads(meta.read_text())
        values = np.load(main, mmap_mode="r")
        final_turn = np.load(final)
        stats = SolveStats(**info["stats"]) if info.get("stats") else None
        return Solution(board, values, final_turn, stats, path=str(main))
    except (OSError, ValueError, KeyError, TypeError, SolveError):
        return None


def _store(
    board: SolvedBoard, values: np.ndarray, final_turn: np.ndarray, stats: SolveStats
) -> None:
    paths = _paths(board)
    if paths is None:
        return
    main, final, meta = paths
    with written_whole(main) as f:
        np.save(f, values.astype(np.float32))
    with written_whole(final) as f:
        np.save(f, final_turn)
    info: dict[str, Any] = {
        "format": "pinastats solution 1",
        "digest": board.digest,
        "dtype": "float32",
        "stats": stats.__dict__,
    }
    with written_whole(meta, encoding="utf-8") as f:
        f.write(json.dumps(info, indent=1) + "\n")
    _prune(meta.parent, KEPT_ON_DISK)


def _prune(folder: Path, keep: int = KEPT_ON_DISK) -> None:
    """Remove all but the ``keep`` most recently used tables of ``folder``."""
    metas = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for meta in metas[keep:]:
        for path in (meta, meta.with_suffix(".npy"), meta.with_suffix(".final.npy")):
            path.unlink(missing_ok=True)


def _board_of(position: Game | SolvedBoard) -> SolvedBoard:
    if isinstance(position, SolvedBoard):
        return position
    if isinstance(position, Game):
        return SolvedBoard.of(position)
    raise SolveError(
        f"solve takes a Game (Game.new(), a state file) or a SolvedBoard, got {position!r}"
    )


def cached(position: Game | SolvedBoard) -> Solution | None:
    """The solution of ``position``'s board if this process or the cache folder has it."""
    board = _board_of(position)
    with _LOCK:
        if board.digest in _SOLUTIONS:
            _SOLUTIONS.move_to_end(board.digest)
            return _SOLUTIONS[board.digest]
    solution = load(board)
    if solution is not None:
        _keep(solution)
    return solution


def remember(solution: Solution) -> None:
    """Keep ``solution`` at hand in this process, a solve made with ``store=False`` too.

    :func:`cached`, the ``perfect`` agent and exact advice then find it; nothing is written.
    """
    _keep(solution)


def _keep(solution: Solution) -> None:
    with _LOCK:
        _SOLUTIONS[solution.digest] = solution
        _SOLUTIONS.move_to_end(solution.digest)
        while len(_SOLUTIONS) > KEPT_IN_MEMORY:
            _SOLUTIONS.popitem(last=False)


def solve(
    position: Game | SolvedBoard,
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    store: bool = True,
) -> Solution:
    """The solution of the board ``position`` is played on: read back, or solved now.

    ``workers`` threads solve (every core by default); ``progress`` is called with
    ``(boards done, boards in all)``. With ``store`` (the default) the table is kept
    in the cache folder as float32 and the solution read back from it, so a fresh
    solve and a kept one answer alike; ``store=False`` solves in memory, in
    float64, and keeps nothing (for tests against a brute force).
    Raises :class:`~pinastats.solve.board.SolveError` for a game it does not cover.
    """
    board = _board_of(position)
    if not store:
        values, final_turn, stats = solve_values(board, workers=workers, progress=progress)
        return Solution(board, values, final_turn, stats)
    found = cached(board)
    if found is not None:
        return found
    with _LOCK:
        lock = _BOARD_LOCKS.setdefault(board.digest, threading.Lock())
    with lock:  # one solve per board, whatever the threads asking
        found = cached(board)
        if found is not None:
            return found
        values, final_turn, stats = solve_values(board, workers=workers, progress=progress)
        _store(board, values, final_turn, stats)
        kept = load(board)
        if kept is None:  # no cache folder: answer from memory, in the stored precision
            kept = Solution(board, values.astype(np.float32), final_turn, stats)
        del values
        _keep(kept)
        return kept


def forget() -> None:
    """Drop the solutions this process keeps at hand (the files stay)."""
    with _LOCK:
        _SOLUTIONS.clear()
