# mypy: disallow-untyped-defs=False, disallow-untyped-calls=False
"""Benchmark a kept table (run on demand: ``python benchmarks/bench_tables.py``).

Solves one 4×4 board in float64 (``--seed``, rulebook rules, ``store=False``),
then stores it as :mod:`pinastats._tables` does, in a temporary folder, and
prints with the 1-minute load average beside each figure:

* the file's size against the float32 table's (the target: at most 32 MB);
* the time to encode, checksum, compress and write it; to read, check and
  decode it (once per process);
* the largest difference between a value read back and the float64 solve,
  against the stated bound (``ERROR_BOUND``);
* a query on the table read back: one position's chance, one turn analysed.

``--values V.npy --final F.npy`` take a solve saved earlier instead of solving.
Nothing is asserted: timings depend on the machine.

    python benchmarks/bench_tables.py [--seed 1] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from pinastats import _tables
from pinastats.game import Game
from pinastats.solve import SolvedBoard, solve
from pinastats.solve.solution import Solution

SIZE_TARGET = 32e6
QUERY_TARGET_S = 1e-3


def load() -> str:
    return f"(load {os.getloadavg()[0]:.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--values", default=None)
    parser.add_argument("--final", default=None)
    args = parser.parse_args()
    game = Game.new(players=2, seed=args.seed)
    board = SolvedBoard.of(game)
    if args.values:
        values, final = np.load(args.values), np.load(args.final)
    else:
        solved = solve(game, store=False, workers=args.workers)
        values, final = solved.values, solved.final_turn
    extra = {"final_turn": ((1 << board.n_cells,), "<f8")}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{board.digest}{_tables.SUFFIX}"
        start = time.perf_counter()
        codes = _tables.encode(values)
        size = _tables.save_table(path, board=board.digest, solver="bench", codes=codes,
                                  extra={"final_turn": final}, about={}, stats=None)  # fmt: skip
        stored = time.perf_counter() - start
        float32 = values.size * 4 / 1e6
        print(f"table: {size / 1e6:.1f} MB ({size / 2**20:.1f} MiB) against {float32:.1f} MB "
              f"of float32; target {SIZE_TARGET / 1e6:.0f} MB")  # fmt: skip
        print(f"stored (encode, checksum, compress, write) in {stored:.2f} s {load()}")
        start = time.perf_counter()
        kept = _tables.load_table(path, board=board.digest, shape=values.shape, extra=extra)
        print(f"read back (read, decompress, check, decode) in "
              f"{time.perf_counter() - start:.2f} s {load()}")  # fmt: skip
    both = ~np.isnan(values)
    error = float(np.max(np.abs(kept.values[both].astype(np.float64) - values[both])))
    print(f"largest error against float64: {error:.3g} (bound {_tables.ERROR_BOUND:.3g})")
    solution = Solution(board, kept.values, kept.extra["final_turn"])
    rng = np.random.default_rng(0)
    positions: list[Game] = []
    while len(positions) < 200:
        g = game.copy()
        for _ in range(int(rng.integers(0, 6))):
            if g.is_over:
                break
            dice = tuple(int(d) for d in rng.integers(1, 7, 5))
            legal = list(g.legal_cells(dice))
            if legal:
                g.place(int(rng.choice(legal)), dice)
            else:
                g.end_turn_without_placement(dice)
        if not g.is_over:
            positions.append(g)
    for name, ask in (("a position's chance", solution.mover_chance),
                      ("a turn analysed", solution.analyse)):  # fmt: skip
        ask(positions[0])
        start = time.perf_counter()
        for g in positions:
            ask(g)
        each = (time.perf_counter() - start) / len(positions)
        print(f"query, {name}: {each * 1e6:.0f} µs (target {QUERY_TARGET_S * 1e3:.0f} ms) {load()}")


if __name__ == "__main__":
    main()
