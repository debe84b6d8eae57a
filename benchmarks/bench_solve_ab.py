# mypy: disallow-untyped-defs=False, disallow-untyped-calls=False
"""The solver against another checkout of it, side by side (A/B, in turn, same machine).

    python benchmarks/bench_solve_ab.py --baseline /tmp/base --tokens 5 --repeats 3
    python benchmarks/bench_solve_ab.py --baseline /tmp/base --tokens 6 --repeats 1

Each run is a fresh process with ``PYTHONPATH`` set to its checkout (this one or
``--baseline``, e.g. ``git worktree add /tmp/base main``), which first solves a
3-token board (loading, or on the first run compiling, the kernels: not timed),
then solves board ``--seed`` with ``--tokens`` tokens a player on ``--workers``
threads (``solve_values``, nothing kept): its wall time, Newton steps, the peak
memory of the process (``ru_maxrss``) and the 1-minute load average before and
after. The two checkouts run in turn ``--repeats`` times; the ratio printed is
the median of the ratios of runs taken side by side (a shared machine's rate
drifts; the ratio, not the seconds, is what a loaded run can tell), and the
largest difference between the two tables' values (NaN where both are NaN).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _own_data(root: Path) -> None:
    """Read ``pinastats.data`` from ``root/data`` (an editable install maps it to its own tree)."""
    import importlib.util

    init = root / "data" / "__init__.py"
    spec = importlib.util.spec_from_file_location(
        "pinastats.data", init, submodule_search_locations=[str(init.parent)]
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"no data package in {root}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["pinastats.data"] = module
    spec.loader.exec_module(module)


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """Solve one board with the solver on ``sys.path`` (its own process)."""
    _own_data(Path.cwd())
    import numpy as np

    from pinastats.game import Game, GameConfig, Rules
    from pinastats.solve import SolvedBoard
    from pinastats.solve.solver import solve_values

    def board(tokens: int) -> SolvedBoard:
        config = GameConfig(players=2, rules=Rules(tokens=tokens))
        return SolvedBoard.of(Game.new(config=config, seed=spec["seed"]))

    solve_values(board(3), workers=spec["workers"])  # loads (or compiles) the kernels
    before = os.getloadavg()[0]
    values, _, stats = solve_values(board(spec["tokens"]), workers=spec["workers"])
    after = os.getloadavg()[0]
    if spec.get("save"):
        np.save(spec["save"], values)
    return {
        "seconds": stats.seconds, "boards": stats.boards, "newton": stats.steps,
        "peak MiB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "load": (before + after) / 2,
    }  # fmt: skip


def run(path: Path, spec: dict[str, Any]) -> dict[str, Any]:
    """:func:`child` in a subprocess with ``PYTHONPATH=path``."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(spec)]
    done = subprocess.run(cmd, env=env, cwd=path, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="the other checkout (required)")
    parser.add_argument("--tokens", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {args.repeats}")
    if args.baseline is None or not (args.baseline / "pinastats").is_dir():
        parser.error(f"--baseline {args.baseline} holds no pinastats checkout")
    import numpy as np

    spec = {"tokens": args.tokens, "seed": args.seed, "workers": args.workers}
    print(f"solve A/B: {args.tokens} tokens, seed {args.seed}, {args.workers} threads; "
          f"baseline {args.baseline}; load {os.getloadavg()[0]:.2f}", flush=True)  # fmt: skip
    ours, base = [], []
    with tempfile.TemporaryDirectory() as tmp:
        mine, theirs = Path(tmp, "this.npy"), Path(tmp, "base.npy")
        for i in range(args.repeats):  # in turn: a drift of the machine hits both alike
            first = i == 0
            ours.append(run(HERE.parent, {**spec, "save": str(mine) if first else ""}))
            base.append(run(args.baseline, {**spec, "save": str(theirs) if first else ""}))
            o, b = ours[-1], base[-1]
            print(f"  run {i + 1}: this {o['seconds']:7.2f} s (load {o['load']:.2f}, "
                  f"{o['peak MiB']:.0f} MiB, {o['newton']} Newton steps)   baseline "
                  f"{b['seconds']:7.2f} s (load {b['load']:.2f}, {b['peak MiB']:.0f} MiB, "
                  f"{b['newton']} Newton steps)   baseline / this "
                  f"{b['seconds'] / o['seconds']:.2f}",
                  flush=True)  # fmt: skip
            started = time.perf_counter()
            if first:
                a, c = np.load(mine), np.load(theirs)
                both = ~(np.isnan(a) & np.isnan(c))
                diff = float(np.max(np.abs(a[both] - c[both]))) if both.any() else 0.0
                print(
                    f"  largest difference between the two tables: {diff:.2e} "
                    f"({time.perf_counter() - started:.1f} s to compare)",
                    flush=True,
                )
    ratios = [b["seconds"] / o["seconds"] for o, b in zip(ours, base, strict=True)]
    print(f"median baseline / this: {statistics.median(ratios):.2f} "
          f"(range {min(ratios):.2f}-{max(ratios):.2f}); median seconds this "
          f"{statistics.median(o['seconds'] for o in ours):.2f}, baseline "
          f"{statistics.median(b['seconds'] for b in base):.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
