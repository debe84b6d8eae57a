"""The retrograde solve of one board: every layer of the table, on every core.

Layers are solved from the most tokens down (:mod:`pinastats._engine.solve`), each
split into blocks that threads solve side by side (the kernels release the GIL);
a layer starts when the layers it reads are done. The table of the second
player's last turn, ``W[mask]`` over every set of winning cells, is solved first.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache

import numpy as np

from pinastats import _engine as E
from pinastats._arrays import FloatArray
from pinastats.dice.hands import N_HANDS, N_KEEPS, dice_tables
from pinastats.solve.board import SolvedBoard, SolveError

BLOCK = 8192
"""Boards a thread solves at a time (progress is reported per block)."""

Progress = Callable[[int, int], None]
"""Called with ``(boards done, boards in all)`` as the solve goes on: the boards of the
table's blocks done, reachable or not, so that the count ends at the total."""


@cache
def solver_tables() -> tuple[np.ndarray, ...]:
    """The dice tables of the turn DP, and each hand's chance on a roll of five dice."""
    t = dice_tables()
    scale = (6.0 ** -(5 - t.keep_size)).astype(np.float64)
    hand_p = t.hand_weight.astype(np.float64) / 6.0**5
    return (t.keep_levels, t.keep_plus, scale, t.hand_as_keep, t.keep_minus, hand_p)


def turn_work(rolls: int) -> tuple[np.ndarray, ...]:
    """Scratch arrays of one turn DP.

    Values and slopes of hands and keeps, and the reach of the pass value (how far
    it may move with the same policy).
    """
    rows = max(rolls, 1)
    return (
        np.zeros((rows, N_HANDS)), np.zeros((rows, N_HANDS)), np.zeros((rows, N_KEEPS)),
        np.zeros((rows, N_KEEPS)), np.zeros(N_KEEPS), np.zeros(N_KEEPS), np.zeros(2),
    )  # fmt: skip


def _range_work(n_cells: int, rolls: int) -> tuple[tuple[np.ndarray, ...], ...]:
    """Scratch arrays of :func:`~pinastats._engine.solve._solve_range`: ``(lanes, state, work)``.

    ``lanes`` holds the turns of :data:`~pinastats._engine.LANES` boards side by
    side (entry ``k`` of lane ``l`` at ``k * LANES + l``), ``state`` each lane's
    fixed-point iteration, ``work`` one board's placements and one turn DP.
    """
    lanes, hands, keeps = E.SOLVE_LANES, N_HANDS * E.SOLVE_LANES, N_KEEPS * E.SOLVE_LANES
    lane_arrays = (
        np.zeros(hands), np.zeros(hands), np.zeros(hands, dtype=np.bool_),
        np.zeros(keeps), np.zeros(keeps), np.zeros(keeps), np.zeros(keeps),
        np.zeros(hands), np.zeros(2 * hands), np.zeros(keeps), np.zeros(lanes), np.zeros(lanes),
        np.zeros(2 * hands),
    )  # fmt: skip
    state = (
        np.zeros((7, lanes)), np.zeros(lanes, dtype=np.int64), np.zeros(lanes, dtype=np.bool_),
        np.zeros(lanes, dtype=np.bool_),
    )  # fmt: skip
    work = (
        np.zeros(n_cells), np.zeros(n_cells), np.zeros(N_HANDS), np.zeros(N_HANDS),
        np.zeros(N_HANDS, dtype=np.bool_), *turn_work(rolls),
    )  # fmt: skip
    return lane_arrays, state, work


@dataclass(frozen=True)
class SolveStats:
    """How a solve went.

    Attributes:
        boards: boards solved (reachable ones; the others hold NaN).
        positions: boards in the table (each with two movers).
        steps: Newton steps taken in all (by the few boards the secant steps leave).
        seconds: wall time of the solve.
        workers: threads that solved.
    """

    boards: int
    positions: int
    steps: int
    seconds: float
    workers: int


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _available_memory() -> int | None:
    """Bytes this process may still take now, or None if unknown.

    The least of the memory free on the machine (Linux ``MemAvailable``), what
    the process's control group may still take (``memory.max`` less
    ``memory.current``, or cgroup v1's limit less its usage) and what its
    address-space limit (``ulimit -v``) leaves above what it maps already.
    """
    found = [x for x in (_meminfo(), _cgroup_room(), _address_room()) if x is not None]
    return max(min(found), 0) if found else None


def _meminfo() -> int | None:
    """Linux's ``MemAvailable`` in bytes, or None."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _read_int(path: str) -> int | None:
    """The whole number a control-group file holds, or None (absent, ``max``, unreadable)."""
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def _cgroup_room() -> int | None:
    """Bytes the process's control group may still take, or None without a limit."""
    try:
        with open("/proc/self/cgroup") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, where = line.split(":", 2)
        if controllers == "":  # cgroup v2
            base = f"/sys/fs/cgroup{where.rstrip('/')}"
            limit, used = _read_int(f"{base}/memory.max"), _read_int(f"{base}/memory.current")
        elif "memory" in controllers.split(","):
            base = f"/sys/fs/cgroup/memory{where.rstrip('/')}"
            limit = _read_int(f"{base}/memory.limit_in_bytes")
            used = _read_int(f"{base}/memory.usage_in_bytes")
        else:
            continue
        if limit is not None and used is not None and limit < 2**60:
            return limit - used
    return None


def _address_room() -> int | None:
    """Bytes the address-space limit (``ulimit -v``) leaves above the process's mappings."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/statm") as f:
            mapped = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, OSError, ValueError, IndexError):
        return None
    return soft - mapped


def check_memory(board: SolvedBoard, copies: int = 1) -> None:
    """Refuse ``copies`` solves like ``board``'s at once if they do not fit in memory now.

    What fits is what this process may still take (:func:`_available_memory`).
    """
    need, free = board.memory_needed() * copies, _available_memory()
    if free is not None and need > free:
        what = "this board" if copies == 1 else f"{copies} boards like this one at once"
        raise SolveError(
            f"solving {what} needs about {need / 2**30:.1f} GiB "
            f"({board.positions:,} boards of {board.n_cells} cells each), "
            f"but {free / 2**30:.1f} GiB is free to this process"
            + ("" if copies == 1 else ": give fewer --workers")
        )


def _blocks(n: int, size: int) -> list[tuple[int, int]]:
    return [(lo, min(lo + size, n)) for lo in range(0, n, size)]


def solve_values(
    board: SolvedBoard, *, workers: int | None = None, progress: Progress | None = None
) -> tuple[FloatArray, FloatArray, SolveStats]:
    """Solve ``board``: ``(values, final_turn, stats)`` in float64.

    ``values[i, 0]`` is the first player's chance to win with her to move on
    board ``i`` (the index of :mod:`pinastats._engine.solve`), ``values[i, 1]``
    the second player's with him to move; ``final_turn[m]`` the second
    player's chance on his last turn when the cells of ``m`` win for him.
    """
    workers = default_workers() if workers is None else workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SolveError(f"workers must be a whole number of at least 1, got {workers!r}")
    check_memory(board)
    started = time.perf_counter()
    tables = solver_tables()
    n, rolls = board.n_cells, board.rolls
    _offset, total = board.layers
    values = np.full((total, 2), np.nan)
    final_turn = np.zeros(1 << n)
    ptr, cells, hand_masks = board.hand_cells
    hands = (ptr, cells)
    steps = np.zeros(2, dtype=np.int64)
    done = 0

    def final_block(lo: int, hi: int) -> None:
        work = (np.zeros(N_HANDS), np.zeros(N_HANDS, dtype=np.bool_), *turn_work(rolls))
        E.solve_final_turn_table(hand_masks, rolls, tables, lo, hi, final_turn, work)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(lambda span: final_block(*span), _blocks(1 << n, BLOCK)))
        game = board.game_tuple(final_turn)

        def block(a: int, b: int, lo: int, hi: int) -> np.ndarray:
            counts = np.zeros(2, dtype=np.int64)
            lanes, state, work = _range_work(n, rolls)
            E.solve_range(a, b, lo, hi, game, hands, rolls, tables, values, lanes, state, work,
                          counts)  # fmt: skip
            return counts

        for a in reversed(range(board.tokens)):
            for b in reversed(range(board.tokens)):
                size = int(board.binom[n, a] * board.binom[n - a, b]) if a + b <= n else 0
                spans = _blocks(size, BLOCK)
                jobs = [pool.submit(block, a, b, lo, hi) for lo, hi in spans]
                for job, (lo, hi) in zip(jobs, spans, strict=True):
                    steps += job.result()
                    done += hi - lo
                    if progress is not None:
                        progress(done, total)
    stats = SolveStats(
        boards=int(steps[0]),
        positions=total,
        steps=int(steps[1]),
        seconds=time.perf_counter() - started,
        workers=workers,
    )
    return values, final_turn, stats
