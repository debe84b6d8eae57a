"""Benchmark one DP solve of the turn (run on demand: ``python benchmarks/bench_dp.py``).

Compares, in the same run and on the same 252-value vector (full house, 3 rolls,
free holds, float values):

* the numba kernel ``_solve_free`` called directly on preallocated arrays;
* the public ``solve_turn`` (validation, the exact integer pass, the result object);
* two memoised pure-Python DPs over the same state space (hands as sorted tuples,
  keeps as sub-multisets, every ``K_r`` of every keep computed, as the kernel
  does): one with the re-roll transitions aggregated by hand once, up front (the
  fair baseline), one averaging over every ordered re-roll (the textbook one);

and the wall time of the ``pinastats optimal-hold`` command with a warm numba cache.
Nothing is asserted: timings depend on the machine.
"""

from __future__ import annotations

import itertools
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import cache

import numpy as np

from pinastats.dice import Combination, dice_tables, solve_turn
from pinastats.dice._kernels import _solve_free

Hand = tuple[int, ...]
FACES = range(1, 7)
ROLLS = 3


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


def cli_wall_time(runs: int = 5) -> tuple[float, list[float]]:
    """Median wall time of ``pinastats optimal-hold --target "full house"`` (warm cache)."""
    exe = shutil.which("pinastats")
    cmd = [exe] if exe else [sys.executable, "-m", "pinastats.cli.main"]
    cmd += ["optimal-hold", "--target", "full house"]
    subprocess.run(cmd, check=True, capture_output=True)  # warm the numba cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def main() -> None:
    """Time the three DP paths and the CLI; print a small table."""
    t = dice_tables()
    final = Combination.FULL_HOUSE.mask().astype(np.float64)
    scale = (6.0 ** -(5 - t.keep_size)).astype(np.float64)
    hands = np.empty((ROLLS, 252))
    keeps = np.empty((ROLLS, 462))
    args = (final, t.keep_ptr, t.keep_hand, t.keep_weight, scale, t.hand_keep_ptr, t.hand_keep,
            hands, keeps)  # fmt: skip
    _solve_free(*args)  # compile, or load the cache
    solve_turn("full house")

    kernel = best_time(lambda: _solve_free(*args))
    public = best_time(lambda: solve_turn(final, rolls=ROLLS))
    dp = PythonDP()
    by_hand = {tuple(int(d) for d in h): float(v) for h, v in zip(t.hand_dice, final, strict=True)}
    python = best_time(lambda: dp.solve(by_hand, ROLLS), repeat=3)
    naive = best_time(lambda: naive_python_dp(by_hand, ROLLS), repeat=3, min_time=0.0)

    for table in (dp.solve(by_hand, ROLLS), naive_python_dp(by_hand, ROLLS)):
        for (keep, r), value in table.items():
            kernel_value = float(keeps[r - 1, t.keep_index(keep)])
            assert abs(value - kernel_value) < 1e-12, f"the DPs disagree on K_{r}{keep}"
    cli_median, cli_runs = cli_wall_time()

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
    print()
    runs = ", ".join(f"{x:.2f}" for x in cli_runs)
    print(f'pinastats optimal-hold --target "full house": median {cli_median:.2f} s '
          f"(warm numba cache; runs {runs} s)")  # fmt: skip


if __name__ == "__main__":
    main()
