"""Solve a board in the background while a surface answers with an instant evaluator.

The board and ``table`` start :func:`solve_in_background` for a two-player base game
whose table is not kept; :func:`solve_status` tells how far it is (the page shows it)
and, once ``ready``, the policy picks the exact evaluator on its own (the table is
then kept). One solve per board, whatever the number of callers; the kernels release
the GIL, so the page stays usable while it runs. ``PINASTATS_BACKGROUND_SOLVE=0`` turns
background solves off (the status is then ``"off"`` and the instant answer stays).
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

from pinastats.game.game import Game


@dataclass
class SolveStatus:
    """How a background solve of one board stands.

    Attributes:
        state: ``"solving"``, ``"ready"``, ``"failed"`` or ``"off"`` (turned off).
        done, total: boards solved and in all.
        seconds: since it started.
        error: why it failed (``"failed"`` only).
    """

    state: str
    done: int = 0
    total: int = 0
    seconds: float = 0.0
    error: str = ""

    @property
    def share(self) -> float:
        """The share done, 0 to 1."""
        return 1.0 if self.state == "ready" else (self.done / self.total if self.total else 0.0)

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: state, share, seconds and error."""
        return {"state": self.state, "share": self.share, "seconds": round(self.seconds, 1),
                "error": self.error}  # fmt: skip


@dataclass
class _Job:
    status: SolveStatus
    started: float = field(default_factory=time.perf_counter)
    thread: threading.Thread | None = None


_LOCK = threading.Lock()
_JOBS: dict[str, _Job] = {}
SWITCH = "PINASTATS_BACKGROUND_SOLVE"
"""The environment variable that turns background solves off when ``0``."""


def solve_in_background(game: Game) -> SolveStatus:
    """Start solving ``game``'s board in a thread (once), and return how it stands."""
    from pinastats.solve import SolvedBoard, solve
    from pinastats.solve.solver import check_memory

    if os.environ.get(SWITCH, "").strip() == "0":
        return SolveStatus("off")
    board = SolvedBoard.of(game)
    with _LOCK:
        job = _JOBS.get(board.digest)
        if job is not None:
            return _snapshot(job)
        job = _Job(SolveStatus("solving", 0, board.positions))
        _JOBS[board.digest] = job

    def progress(done: int, total: int) -> None:
        job.status.done, job.status.total = done, total

    def run() -> None:
        try:
            check_memory(board)
            solve(board, progress=progress)
            job.status.state = "ready"
        except Exception as exc:  # reported on the page; the instant answer stays
            job.status.state, job.status.error = "failed", str(exc) or type(exc).__name__

    job.thread = threading.Thread(target=run, name=f"solve-{board.digest[:8]}", daemon=True)
    job.thread.start()
    return _snapshot(job)


def solve_status(game: Game) -> SolveStatus | None:
    """How the background solve of ``game``'s board stands (None: none was started)."""
    from pinastats.solve import SolvedBoard

    with _LOCK:
        job = _JOBS.get(SolvedBoard.of(game).digest)
    return None if job is None else _snapshot(job)


def _snapshot(job: _Job) -> SolveStatus:
    s = job.status
    return SolveStatus(s.state, s.done, s.total, time.perf_counter() - job.started, s.error)
