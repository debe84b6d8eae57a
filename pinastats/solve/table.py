"""Solve a board, or read its solution back: the tables kept in the user's cache folder.

A solved board is kept as one file, ``<digest>.table`` in
:func:`pinastats._cache.tables_dir` (``tables/`` of the user's cache folder,
``$PINASTATS_CACHE`` to move it), named by the board's digest
(:attr:`~pinastats.solve.board.SolvedBoard.digest`: the board and the solver's
own sources, nothing else, so an upgrade that leaves the solver alone keeps
the tables). The format is :mod:`pinastats._tables`'s: every chance as a 16-bit
code (within :data:`~pinastats._tables.ERROR_BOUND`, 7.66·10⁻⁶, of the float64
solve), byte-shuffled and compressed (about 26 MB for the 4×4 grid), with a
checksum. A table is read whole and decoded once per process; one that fails a
check (truncated, altered, another board's, another shape) is refused with one
line on stderr, removed and solved again. The folder keeps at most
:func:`~pinastats._tables.size_cap` bytes of tables (1 GiB by default), the least
recently used dropped first; a table that cannot be written (a full disk, a
read-only folder) is said in one line and the solve answers from memory.
Within a process, a board is solved once however many threads ask for it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections import OrderedDict
from dataclasses import fields
from pathlib import Path
from typing import Any

from pinastats import _tables
from pinastats._cache import tables_dir
from pinastats.errors import OutputError
from pinastats.game.game import Game
from pinastats.solve.board import SolvedBoard, SolveError, _source_digest
from pinastats.solve.solution import Solution
from pinastats.solve.solver import Progress, SolveStats, solve_values

KEPT_IN_MEMORY = 4
"""Solutions a process keeps at hand (each holds its decoded float32 table, about 74 MB
for the 4×4 grid; a solve kept in memory only, ``store=False``, is not kept)."""

_LOCK = threading.Lock()
_BOARD_LOCKS: dict[str, threading.Lock] = {}
_SOLUTIONS: OrderedDict[str, Solution] = OrderedDict()
_SAID: set[tuple[str, str]] = set()


def _say(path: Path, why: str) -> None:
    """One line on stderr about the table at ``path``, once per process."""
    if (str(path), why) not in _SAID:
        _SAID.add((str(path), why))
        print(f"pinastats: {why}", file=sys.stderr, flush=True)


def solution_path(board: SolvedBoard) -> Path:
    """Where the table of ``board`` is kept (the file may not exist)."""
    if not isinstance(board, SolvedBoard):
        raise SolveError(f"board must be a SolvedBoard (SolvedBoard.of(game)), got {board!r}")
    return tables_dir() / f"{board.digest}{_tables.SUFFIX}"


def _extra(board: SolvedBoard) -> dict[str, tuple[tuple[int, ...], str]]:
    return {"final_turn": ((1 << board.n_cells,), "<f8")}


def _stats(info: Any) -> SolveStats | None:
    """The stats of a header, None when they do not fit this version's :class:`SolveStats`."""
    names = {f.name for f in fields(SolveStats)}
    if isinstance(info, dict) and set(info) == names:
        with contextlib.suppress(TypeError, ValueError):
            return SolveStats(**info)
    return None


def load(board: SolvedBoard) -> Solution | None:
    """The kept solution of ``board``, read whole and checked, or None when none is kept.

    A table that fails a check is refused with one line on stderr and removed
    (the board is then solved again); it is never read as values.
    """
    path = solution_path(board)
    _, total = board.layers
    try:
        kept = _tables.load_table(path, board=board.digest, shape=(total, 2), extra=_extra(board))
    except FileNotFoundError:
        return None
    except (OSError, _tables.TableError) as exc:
        _say(path, f"the kept table {path} is refused ({exc}): the board is solved again")
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    with contextlib.suppress(OSError):  # a folder one may not write is still read
        os.utime(path)  # used now: the last to be pruned
    final_turn = kept.extra["final_turn"]
    return Solution(
        board, kept.values, final_turn, _stats(kept.header.get("stats")), path=str(path)
    )


def _about(board: SolvedBoard) -> dict[str, Any]:
    """What the board is, in words, for ``pinastats cache``."""
    config = board.config
    coasters = config.catalogue.coasters
    return {
        "layout": config.layout.name,
        "cells": board.n_cells,
        "tokens": board.tokens,
        "target": config.rules.target_score,
        "rolls": board.rolls,
        "start_scores": [int(s) for s in config.start_scores],
        "coasters": [coasters[c].name for c in board.coasters],
        "positions": board.positions,
    }


def _codes(values: Any) -> Any:
    """The 16-bit codes of a solve's ``values`` (:func:`pinastats._tables.encode`)."""
    try:
        return _tables.encode(values)
    except ValueError as exc:
        raise SolveError(f"the solve of this board gave a value that is no chance: {exc}") from None


def _store(board: SolvedBoard, codes: Any, final_turn: Any, stats: SolveStats) -> Solution:
    """Keep the table of ``board`` (its ``codes``); the solution a read of it would give.

    A table that cannot be written is said in one line; the solution then
    answers from memory (``path`` None), the same values.
    """
    path, kept_at = solution_path(board), None
    try:
        _tables.save_table(path, board=board.digest, solver=_source_digest()[:16], codes=codes,
                           extra={"final_turn": final_turn}, about=_about(board),
                           stats=stats.__dict__)  # fmt: skip
    except OutputError as exc:
        _say(path, f"the table is not kept ({exc}): this run answers from memory")
    else:
        kept_at = str(path)
        with contextlib.suppress(OSError):
            _tables.prune(path.parent, _tables.size_cap(), keep=path)
    return Solution(board, _tables.decode(codes), final_turn, stats, path=kept_at)


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
    in the cache folder (16-bit codes, within 7.66·10⁻⁶ of the solve) and the
    solution answers from the same codes, so a fresh solve and a kept one answer
    alike; ``store=False`` solves in memory, in float64, and keeps nothing (for
    tests against a brute force). Raises
    :class:`~pinastats.solve.board.SolveError` for a game it does not cover, or
    :class:`~pinastats.errors.PinastatsError` for a bad ``PINASTATS_CACHE_SIZE``
    (before solving).
    """
    board = _board_of(position)
    if not store:
        values, final_turn, stats = solve_values(board, workers=workers, progress=progress)
        return Solution(board, values, final_turn, stats)
    _tables.size_cap()  # a bad setting is refused before the work
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
        codes = _codes(values)
        del values  # the float64 table goes before the file is made
        kept = _store(board, codes, final_turn, stats)
        _keep(kept)
        return kept


def forget() -> None:
    """Drop the solutions this process keeps at hand (the files stay)."""
    with _LOCK:
        _SOLUTIONS.clear()
