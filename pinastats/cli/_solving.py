"""Solving a board from the command line: progress on one line, the compile announced.

Shared by the subcommands that solve before they answer (``solve``, ``advise
--evaluator exact``, ``review``): :func:`solve_with_progress` and the progress
line of a solve or a survey (:class:`Progress`).
"""

from __future__ import annotations

import math
import sys
import time
from typing import TYPE_CHECKING

from pinastats.cli._common import fail
from pinastats.errors import PinastatsError

if TYPE_CHECKING:
    from pinastats.game import Game
    from pinastats.solve import Solution


FIRST_ESTIMATE = 0.05
"""The share of a solve's work done before its first estimate of the time left."""


class ProgressLine:
    """Progress on stderr: one line redrawn in place on a terminal, sparse lines otherwise.

    On a terminal the line is redrawn (a carriage return) at most every
    ``every`` seconds; into a file or a pipe a line is written at most every
    ``sparse`` seconds. The last update (``final``) is always shown, and ends the line.
    """

    def __init__(self, every: float = 0.5, sparse: float = 30.0) -> None:
        self.tty = sys.stderr.isatty()
        self.every = every if self.tty else sparse
        self.last = -math.inf
        self.width = 0

    def show(self, text: str, final: bool = False) -> None:
        now = time.perf_counter()
        if now - self.last < self.every and not final:
            return
        self.last = now
        if self.tty:
            pad = " " * max(self.width - len(text), 0)
            self.width = len(text)
            sys.stderr.write("\r" + text + pad + ("\n" if final else ""))
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()


def duration(seconds: float) -> str:
    """``seconds`` for people: ``40 s``, ``12 min``, ``3.4 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class Progress:
    """A solve's or a survey's progress: done, the share, the time so far and left.

    The time left is the work left at the rate measured since the first update
    (work done by then, such as boards a log holds or a solve's first block,
    which may hold a compile, is not counted in the rate); none is given before
    ``share`` of the work (:data:`FIRST_ESTIMATE`) and ``settle`` seconds have
    passed, so the first estimate rests on measured work.
    """

    def __init__(
        self, what: str, unit: str, settle: float = 5.0, share: float = FIRST_ESTIMATE
    ) -> None:
        self.what, self.unit, self.settle, self.share = what, unit, settle, share
        self.line = ProgressLine()
        self.started = time.perf_counter()
        self.first: int | None = None
        self.first_at = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter() - self.started
        if self.first is None:
            self.first, self.first_at = done, now
        worked, spent = done - self.first, now - self.first_at
        share = worked / max(total - self.first, 1)
        if done >= total:
            when = f"done in {duration(now)}"
        elif worked > 0 and share >= self.share and spent >= self.settle:
            when = f"{duration(now)}, about {duration(spent * (total - done) / worked)} left"
        else:
            when = f"{duration(now)}, estimating the time left"
        self.line.show(
            f"{self.what}: {done:,}/{total:,} {self.unit} ({done / total:.0%}), {when}",
            final=done >= total,
        )


def prepare_kernels() -> None:
    """Compile the solver's kernels now if they are not in the cache, saying so and how long.

    A board of one token a player is solved in memory: it runs every kernel of
    a solve, so the real solve's progress and estimates measure solving only.
    """
    from pinastats import _engine as E
    from pinastats._jit import cache_is_warm
    from pinastats.game import Game, GameConfig
    from pinastats.game.rules import Rules
    from pinastats.solve import solve

    if cache_is_warm([E.solve_range, E.solve_final_turn_table]):
        return
    print(
        "compiling the solver's kernels (once; kept in the cache for the next runs)...",
        file=sys.stderr,
        flush=True,
    )
    started = time.perf_counter()
    solve(Game.new(config=GameConfig(players=2, rules=Rules(tokens=1)), seed=0), store=False)
    print(
        f"compiled the solver's kernels in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
        flush=True,
    )


def solve_with_progress(game: Game, workers: int | None) -> tuple[Solution, bool]:
    """The solution of ``game``'s board, and whether it was solved now.

    A solve checks the memory first, compiles the solver's kernels if they are
    not cached (saying so), and reports progress on stderr; any problem is one line.
    """
    from pinastats.solve import SolvedBoard, cached, solution_path, solve
    from pinastats.solve.solver import check_memory

    try:
        board = SolvedBoard.of(game)
        found = cached(board)
        if found is not None:
            return found, False
        check_memory(board)
        prepare_kernels()
        print(
            f"solving this board first: {board.positions:,} boards of a {board.n_cells}-cell "
            f"layout (about {board.memory_needed() / 2**20:,.0f} MiB of memory); its table is "
            f"kept in {solution_path(board).parent} for next time",
            file=sys.stderr,
            flush=True,
        )
        return solve(board, workers=workers, progress=Progress("solving", "boards")), True
    except PinastatsError as exc:
        fail(str(exc))
