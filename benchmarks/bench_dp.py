"""Benchmark one DP solve of the turn (run on demand: ``python benchmarks/bench_dp.py``).

Compares, in the same run and on the same 252-value vector (full house, 3 rolls,
free holds, float values):

* the numba kernel ``_solve_free`` called directly on preallocated arrays;
* the public ``solve_turn`` (validation, the exact integer pass, the result object);
* two memoised pure-Python DPs over the same state space (hands as sorted tuples,
  keeps as sub-multisets, every ``K_r`` of every keep computed, as the kernel
  does): one with the re-roll transitions aggregated by hand once, up front (the
  fair baseline), one averaging over every ordered re-roll (the textbook one);

and the wall time of the ``pinastats optimal-hold`` command with a warm numba cache,
for this engine and for the previous one (a checkout at ``--baseline``, run through
its CLI with ``PYTHONPATH`` set to it). Each figure is printed with its target and
the 1-minute load average beside it. Nothing is asserted: timings depend on the machine.

    python benchmarks/bench_dp.py [--quick]
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np

from pinastats.dice import Combination, dice_tables, solve_turn
from pinastats.dice._kernels import _solve_free

Hand = tuple[int, ...]
FACES = range(1, 7)
ROLLS = 3
KERNEL_TARGET = 10e-6
CLI_TARGET = 0.6


def best_time(func: Callable[[], object], *, repeat: int = 7, min_time: float = 0.2) -> float:
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


# ---------------------------------------------------------------- pure Python


class PythonDP:
    """The turn DP in plain Python: dicts of transitions, memoised recursion."""

    def __init__(self) -> None:
        self.keeps = [
            k for n in range(6) for k in itertools.combinations_with_replacement(FACES, n)
        ]
        self.moves: dict[Hand, list[tuple[Hand, float]]] = {}
        for keep in self.keeps:
            n = 5 - len(keep)
            counts = Counter(
                tuple(sorted(keep + roll)) for roll in itertools.product(FACES, repeat=n)
            )
            self.moves[keep] = [(hand, w / 6**n) for hand, w in counts.items()]
        self.choices: dict[Hand, list[Hand]] = {
            hand: sorted({c for n in range(6) for c in itertools.combinations(hand, n)})
            for hand in itertools.combinations_with_replacement(FACES, 5)
        }

    def solve(self, final: dict[Hand, float], rolls: int) -> dict[tuple[Hand, int], float]:
        """Every ``K_r(k)``, r = 1..rolls, for a final value per hand."""

        @cache
        def hand_value(hand: Hand, r: int) -> float:
            if r == 0:
                return final[hand]
            return max(keep_value(k, r) for k in self.choices[hand])

        @cache
        def keep_value(keep: Hand, r: int) -> float:
            if len(keep) == 5:  # keeping all five ends the turn
                return final[keep]
            return sum(p * hand_value(h, r - 1) for h, p in self.moves[keep])

        return {(k, r): keep_value(k, r) for r in range(1, rolls + 1) for k in self.keeps}


def naive_python_dp(final: dict[Hand, float], rolls: int) -> dict[tuple[Hand, int], float]:
    """The textbook version: each ``K_r(k)`` averages over all ordered re-rolls."""
    keeps = [k for n in range(6) for k in itertools.combinations_with_replacement(FACES, n)]

    @cache
    def hand_value(hand: Hand, r: int) -> float:
        if r == 0:
            return final[hand]
        return max(keep_value(c, r) for n in range(6) for c in set(itertools.combinations(hand, n)))

    @cache
    def keep_value(keep: Hand, r: int) -> float:
        if len(keep) == 5:  # keeping all five ends the turn
            return final[keep]
        n = 5 - len(keep)
        outcomes = itertools.product(FACES, repeat=n)
        total: float = sum(hand_value(tuple(sorted(keep + o)), r - 1) for o in outcomes)
        return total / 6.0**n

    return {(k, r): keep_value(k, r) for r in range(1, rolls + 1) for k in keeps}


# ---------------------------------------------------------------- runs


def cli_wall_time(runs: int = 5, path: Path | None = None) -> tuple[float, list[float], float]:
    """Median wall time of ``pinastats optimal-hold --target "full house"`` (warm cache).

    ``path``: the checkout to run (``PYTHONPATH``, and the working folder: ``-m`` puts
    the working folder first on ``sys.path``), else this one. Also the load average.
    """
    cmd = [sys.executable, "-m", "pinastats.cli.main", "optimal-hold", "--target", "full house"]
    env = dict(os.environ)
    folder = Path(__file__).resolve().parent.parent if path is None else path
    env["PYTHONPATH"] = str(folder)
    run = functools.partial(subprocess.run, cmd, check=True, capture_output=True, env=env,
                            cwd=folder)  # fmt: skip
    run()  # warm the numba cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times, os.getloadavg()[0]


def main(argv: list[str] | None = None) -> None:
    """Time the three DP paths and the CLI; print a small table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer CLI runs")
    parser.add_argument("--baseline", type=Path, default=Path("/work/baseline"))
    opts = parser.parse_args(argv)
    t = dice_tables()
    final = Combination.FULL_HOUSE.mask().astype(np.float64)
    scale = (6.0 ** -(5 - t.keep_size)).astype(np.float64)
    hands = np.empty((ROLLS, 252))
    keeps = np.empty((ROLLS, 462))
    args = (final, t.keep_levels, t.keep_plus, scale, t.hand_as_keep, t.keep_minus, hands,
            keeps)  # fmt: skip
    _solve_free(*args)  # compile, or load the cache
    solve_turn("full house")

    kernel = best_time(lambda: _solve_free(*args))
    kernel_load = os.getloadavg()[0]
    public = best_time(lambda: solve_turn(final, rolls=ROLLS))
    dp = PythonDP()
    by_hand = {tuple(int(d) for d in h): float(v) for h, v in zip(t.hand_dice, final, strict=True)}
    python = best_time(lambda: dp.solve(by_hand, ROLLS), repeat=3)
    naive = best_time(lambda: naive_python_dp(by_hand, ROLLS), repeat=3, min_time=0.0)

    for table in (dp.solve(by_hand, ROLLS), naive_python_dp(by_hand, ROLLS)):
        for (keep, r), value in table.items():
            kernel_value = float(keeps[r - 1, t.keep_index(keep)])
            assert abs(value - kernel_value) < 1e-12, f"the DPs disagree on K_{r}{keep}"
    runs = 3 if opts.quick else 7
    cli_median, cli_runs, cli_load = cli_wall_time(runs)
    base = cli_wall_time(runs, opts.baseline) if opts.baseline.exists() else None

    rows = [
        ("numba kernel _solve_free", kernel),
        ("public solve_turn (float + exact)", public),
        ("pure Python, sparse transitions", python),
        ("pure Python, ordered re-rolls", naive),
    ]
    print(f"One DP solve: full house, {ROLLS} rolls, free holds, 252 hands x 462 keeps")
    print(f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)\n")
    print(f"{'path':36} {'time per solve':>16} {'/ kernel':>10}")
    for name, seconds in rows:
        print(f"{name:36} {seconds * 1e6:13.1f} µs {seconds / kernel:9.0f}x")
    print(f"\nkernel speed-up over the memoised pure-Python DP: {python / kernel:.0f}x "
          f"(sparse transitions), {naive / kernel:.0f}x (ordered re-rolls)")  # fmt: skip
    verdict = "met" if kernel <= KERNEL_TARGET else "missed"
    print(f"\n_solve_free: {kernel * 1e6:.1f} µs per solve (load {kernel_load:.2f}); target "
          f"{KERNEL_TARGET * 1e6:.0f} µs: {verdict}")  # fmt: skip
    shown = ", ".join(f"{x:.2f}" for x in cli_runs)
    print(f'\npinastats optimal-hold --target "full house", warm cache, median of {runs} runs:')
    print(f"  this engine     {cli_median:6.2f} s (load {cli_load:.2f}; runs {shown} s); target "
          f"{CLI_TARGET:.1f} s: {'met' if cli_median <= CLI_TARGET else 'missed'}")  # fmt: skip
    if base is not None:
        shown = ", ".join(f"{x:.2f}" for x in base[1])
        print(f"  previous engine {base[0]:6.2f} s (load {base[2]:.2f}; runs {shown} s); "
              f"previous / this: {base[0] / cli_median:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
