# mypy: disallow-untyped-defs=False, disallow-untyped-calls=False
"""Where the solver's time goes: per layer of boards, and per kernel step.

    python benchmarks/bench_solve_profile.py [--tokens 4] [--workers 1]

Solves board ``--seed`` with ``--tokens`` tokens a player twice (the first loads
the kernels) and prints, for the second: the wall time, the time per board, the
Newton steps per board and each layer ``(a, b)``'s share (the layer kernel timed
around each block). Then the kernel steps of one set of 8 side-by-side boards,
timed alone on random finals: the lines of the first re-roll (both slopes and
constant: ``solve_turn_lines``), one turn evaluation of 8 boards
(``solve_turn_lanes``, 3 rolls) and one turn with slope and reach of one board
(``solve_turn``, Newton's step). With these, a board's cost is about
``(turn evaluations per 8 boards * turn_lanes + lines) / 8 + Newton steps *
2 * turn + placements``. Each figure is printed with the load average: on a shared
machine compare figures of one run only. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np

from pinastats import _engine as E
from pinastats.game import Game, GameConfig, Rules
from pinastats.solve import SolvedBoard
from pinastats.solve import solver as S


def per_call(func: Callable[[], object], n: int = 2000) -> float:
    """Best of 3 mean seconds per call over ``n`` calls."""
    func()
    best = np.inf
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(n):
            func()
        best = min(best, (time.perf_counter() - start) / n)
    return float(best)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    config = GameConfig(players=2, rules=Rules(tokens=args.tokens))
    board = SolvedBoard.of(Game.new(seed=args.seed, config=config))
    S.solve_values(board, workers=args.workers)  # loads the kernels
    kernel = E.solve_range
    spent: dict[tuple[int, int], float] = {}

    def timed(a, b, lo, hi, *rest):
        start = time.perf_counter()
        kernel(a, b, lo, hi, *rest)
        spent[(a, b)] = spent.get((a, b), 0.0) + time.perf_counter() - start

    E.solve_range = timed  # the solver calls it through the engine's surface
    try:
        before = os.getloadavg()[0]
        _, _, stats = S.solve_values(board, workers=args.workers)
        after = os.getloadavg()[0]
    finally:
        E.solve_range = kernel
    print(f"{args.tokens} tokens, seed {args.seed}, {args.workers} thread(s): "
          f"{stats.seconds:.2f} s, {stats.boards:,} boards, "
          f"{stats.seconds * args.workers / stats.boards * 1e6:.2f} µs a board a thread, "
          f"{stats.steps / stats.boards:.4f} Newton steps a board  "
          f"[load {before:.2f} before, {after:.2f} after]")  # fmt: skip
    total = sum(spent.values())
    for layer in sorted(spent, key=lambda k: -spent[k])[:6]:
        print(f"  layer {layer}: {spent[layer]:6.2f} s  {spent[layer] / total:4.0%}")

    tables = S.solver_tables()
    lanes, _, _ = S._range_work(16, 3)
    (ff, _, passes, fixed, per_pass, _, _, stop, hv, best, y, out, scratch) = lanes
    rng = np.random.default_rng(0)
    ff[:] = rng.random(ff.size)
    passes[:] = rng.random(passes.size) < 0.1
    y[:] = 0.4
    lines = per_call(lambda: E.solve_turn_lines(ff, passes, tables, fixed, per_pass, scratch))
    lanes_t = per_call(lambda: E.solve_turn_lanes(fixed, per_pass, y, 3, tables, stop, hv,
                                                  best, out))  # fmt: skip
    one_f, one_p = np.ascontiguousarray(ff[:: E.SOLVE_LANES]), passes[:: E.SOLVE_LANES].copy()
    work = S.turn_work(3)

    def newton_turn():
        work[6][:] = 1.0  # ask for the reach, as Newton's steps do
        E.solve_turn(one_f, one_p, 0.4, 3, tables, *work)

    turn = per_call(newton_turn)
    print(f"kernel steps [load {os.getloadavg()[0]:.2f}]: lines of 8 boards {lines * 1e6:.2f} µs, "
          f"a turn of 8 boards {lanes_t * 1e6:.2f} µs, one board's turn with slope and reach "
          f"{turn * 1e6:.2f} µs")  # fmt: skip


if __name__ == "__main__":
    main()
