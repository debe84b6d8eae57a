# mypy: disallow-untyped-defs=False, disallow-untyped-calls=False
"""Benchmark the exact two-player solver (run on demand: ``python benchmarks/bench_solve.py``).

Prints, with the 1-minute load average beside each figure:

* the turn DP of one position (value and slope in the pass value, 3 rolls) in the
  solver's kernel, and the values-only DP of 8 boards side by side that the solve
  runs, against a plain loop over each hand's keeps and each keep's re-roll
  outcomes (the transition table, no shared sums) measured in the same run;
* a full solve of one 4x4 board (``--seed``, rulebook rules) on ``--workers``
  threads: wall time, boards per second, Newton steps per board, and the peak
  memory of the process (``ru_maxrss``);
* a query's time in a warm process: one table read, and one position's turn
  analysed (every keep and placement valued) from the solved table.

``--tokens 4`` (or 3) solves a smaller table of the same shape for a quick look.
Nothing is asserted: timings depend on the machine.

    python benchmarks/bench_solve.py [--seed 1] [--workers 2] [--tokens 6]
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections.abc import Callable

import numba
import numpy as np

from pinastats import _engine as E
from pinastats.dice.hands import N_HANDS, N_KEEPS, dice_tables
from pinastats.game import Game, GameConfig, Rules
from pinastats.solve import SolvedBoard, solve
from pinastats.solve.solver import solver_tables, turn_work

FULL_TARGET_S = 120.0
QUERY_TARGET_S = 1e-3


def load() -> str:
    """The 1-minute load average."""
    return f"load {os.getloadavg()[0]:.2f}"


def best_time(func: Callable[[], object], *, repeat: int = 5, min_time: float = 0.2) -> float:
    """Best over ``repeat`` runs of the mean time per call (calls batched to ``min_time``)."""
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            func()
        if time.perf_counter() - start >= min_time or number >= 1 << 20:
            break
        number *= 2
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            func()
        runs.append((time.perf_counter() - start) / number)
    return min(runs)


@numba.njit(cache=False)
def _plain_turn(final, passes, y, rolls, keep_ptr, keep_hand, keep_weight, keep_scale,
                hand_keep_ptr, hand_keep, hand_as_keep, hand_p, hv, kv):  # fmt: skip
    """The baseline: the turn DP as a plain loop over the transition table (value only)."""
    for h in range(final.shape[0]):
        hv[0, h] = y if passes[h] else final[h]
    for r in range(1, rolls):
        for k in range(keep_ptr.shape[0] - 1):
            s = 0.0
            for j in range(keep_ptr[k], keep_ptr[k + 1]):
                s += keep_weight[j] * hv[r - 1, keep_hand[j]]
            kv[r - 1, k] = s * keep_scale[k]
        for h in range(final.shape[0]):
            kv[r - 1, hand_as_keep[h]] = hv[0, h]
        for h in range(final.shape[0]):
            best = -1.0
            for j in range(hand_keep_ptr[h], hand_keep_ptr[h + 1]):
                v = kv[r - 1, hand_keep[j]]
                if v > best:
                    best = v
            hv[r, h] = best
    value = 0.0
    for h in range(final.shape[0]):
        value += hand_p[h] * hv[rolls - 1, h]
    return value


def bench_turn() -> None:
    """One position's turn: the solver's kernel against the plain loop."""
    rng = np.random.default_rng(0)
    final = rng.random(N_HANDS)
    passes = rng.random(N_HANDS) < 0.15
    tables = solver_tables()
    work = turn_work(3)
    t = dice_tables()
    scale = (6.0 ** -(5 - t.keep_size)).astype(np.float64)
    hv, kv = np.zeros((3, N_HANDS)), np.zeros((3, len(scale)))
    args = (t.keep_ptr, t.keep_hand, t.keep_weight.astype(np.float64), scale, t.hand_keep_ptr,
            t.hand_keep, t.hand_as_keep, tables[5], hv, kv)  # fmt: skip
    ours, _ = E.solve_turn(final, passes, 0.4, 3, tables, *work)
    plain = _plain_turn(final, passes, 0.4, 3, *args)
    assert abs(ours - plain) < 1e-12, (ours, plain)
    kernel = best_time(lambda: E.solve_turn(final, passes, 0.4, 3, tables, *work))
    baseline = best_time(lambda: _plain_turn(final, passes, 0.4, 3, *args))
    lanes = E.SOLVE_LANES
    finals = np.repeat(final, lanes)  # lane l of hand h at h * lanes + l
    lane_passes = np.repeat(passes, lanes)
    lines = [np.zeros(N_KEEPS * lanes) for _ in range(2)]
    y, out = np.full(lanes, 0.4), np.zeros(lanes)
    stop, hands, best = np.zeros(N_HANDS * lanes), np.zeros(2 * N_HANDS * lanes), lines[0].copy()
    E.solve_turn_lines(
        finals, lane_passes, tables, lines[0], lines[1], np.zeros(2 * N_HANDS * lanes)
    )
    E.solve_turn_lanes(lines[0], lines[1], y, 3, tables, stop, hands, best, out)
    assert np.allclose(out, plain, atol=1e-12), (out, plain)
    side = best_time(
        lambda: E.solve_turn_lanes(lines[0], lines[1], y, 3, tables, stop, hands, best, out)
    )
    print(f"turn DP, value and slope (solver kernel): {kernel * 1e6:6.2f} µs a call  [{load()}]")
    print(f"turn DP, value only (plain loop baseline): {baseline * 1e6:6.2f} µs a call  [{load()}]")
    print(
        f"turn DP, value only, {lanes} boards side by side (the solve's kernel): "
        f"{side / lanes * 1e6:6.2f} µs a board  [{load()}]"
    )
    print(f"  ratio baseline / kernel: {baseline / kernel:.2f}; baseline / side by side: "
          f"{baseline * lanes / side:.2f}")  # fmt: skip


def bench_full(seed: int, workers: int, tokens: int) -> None:
    """A whole board, solved in memory (nothing kept), then kept and queried."""
    config = GameConfig(players=2, rules=Rules(tokens=tokens))
    game = Game.new(config=config, seed=seed)
    board = SolvedBoard.of(game)
    before = load()
    solution = solve(game, workers=workers, store=False)
    stats = solution.stats
    assert stats is not None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    target = f" (target {FULL_TARGET_S:.0f} s)" if tokens == 6 else ""
    print(
        f"full solve, {board.positions:,} boards, {tokens} tokens, seed {seed}, {workers} threads: "
        f"{stats.seconds:.1f} s{target}, {stats.boards / stats.seconds:,.0f} boards/s, "
        f"{stats.steps / stats.boards:.2f} Newton steps a board, peak memory {peak:,.0f} MiB  "
        f"[{before} before, {load()} after]"
    )
    print(f"  first player's chance at the start: {solution.start_chance:.6%}")
    kept = solution  # the queries read the table as a kept one does (float64 here)
    read = best_time(lambda: kept.mover_chance(game))
    turn = best_time(lambda: kept.analyse(game))
    keeps = best_time(lambda: kept.keeps(game, (1, 2, 3, 3, 6), 2))
    print(f"query, one table read: {read * 1e6:.1f} µs  [{load()}]")
    print(
        f"query, one turn analysed: {turn * 1e6:.1f} µs; every keep of a hand as a table: "
        f"{keeps * 1e6:.1f} µs (target {QUERY_TARGET_S * 1e3:.0f} ms)  [{load()}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tokens", type=int, default=6)
    args = parser.parse_args()
    bench_turn()
    bench_full(args.seed, args.workers, args.tokens)


if __name__ == "__main__":
    main()
