"""Benchmark the game engine against the previous engine and a pure-Python one.

    python benchmarks/bench_sim.py            # about ten minutes (cold compiles included)
    python benchmarks/bench_sim.py --quick    # under a minute, one run, no cold compile

Everything is measured in one run, 2 players, the same agent in every seat.
The two engines are measured ``--repeats`` times (3), one after the other in
turn; each figure is the median of its runs, printed with their range, and each
ratio the median of the ratios of runs taken side by side (the rate of a
two-core virtual machine drifts from minute to minute by more than a fifth):

* games/s of ``simulate`` for ``random``, ``ev``, ``strategic`` and ``rollout``
  (48 play-outs per placement) on ``--workers`` threads, and the CPU time per
  game (``time.process_time`` over every thread): on a shared machine the wall
  rate depends on the others, the CPU time much less;
* the same for the previous engine (a checkout at ``--baseline``, run in a
  subprocess with ``PYTHONPATH`` set to it and called only through
  ``pinastats.simulation.simulate``, which both have);
* the pure-Python reference engine (``tests/oracle/reference_engine.py``,
  ``random`` agent, the same games);
* 2 workers against 1 worker (``ev``; the median of ``SCALING_PAIRS`` pairs of
  runs in each run of an engine), and the cold compile of the engine
  (``warm_up`` in a fresh ``NUMBA_CACHE_DIR``), wall and CPU seconds;
* the readable Python turn, the per-turn kernel and the engine, one thread.

Each figure is printed with the 1-minute load average measured beside it; the
ratios compare figures of this run only. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TARGETS = {"random": 100_000.0, "ev": 12_000.0, "strategic": 10_000.0, "rollout": 60.0}
SCALING_TARGET = 1.85
SCALING_PAIRS = 2
"""1-worker and 2-worker ``ev`` runs timed one after the other, in each run of an engine."""
COLD_TARGET = 45.0
PILOT = {"random": 2_000, "ev": 400, "strategic": 400, "rollout": 2}
FLOOR = {"random": 2_000, "ev": 400, "strategic": 400, "rollout": 96}
"""Fewest games timed: ``rollout`` runs default to chunks of 16 games, and 96 games
give each of two workers three of them (fewer would leave a worker idle)."""


def load() -> float:
    """The 1-minute load average now."""
    return os.getloadavg()[0]


# ---------------------------------------------------------------- child process


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """Measure one engine (the one on ``sys.path``); runs in its own process."""
    from pinastats.simulation import simulate

    out: dict[str, Any] = {}
    workers, seconds = spec["workers"], spec["seconds"]
    for kind in spec["agents"]:
        agents = [kind, kind]
        pilot = simulate(agents, PILOT[kind], seed=1, workers=workers)  # also loads the kernels
        games = max(FLOOR[kind], int(pilot.games_per_second * seconds))
        cpu = time.process_time()
        result = simulate(agents, games, seed=2, workers=workers)
        cpu = time.process_time() - cpu
        out[kind] = {
            "games": games,
            "games/s": result.games_per_second,
            "cpu/game": cpu / games,
            "load": load(),
        }
    games = max(400, int(out.get("ev", {"games/s": 2_000})["games/s"] * seconds))
    ratios = []
    for _ in range(SCALING_PAIRS):
        one, two = (simulate(["ev", "ev"], games, seed=3, workers=w).games_per_second
                    for w in (1, 2))  # fmt: skip
        ratios.append(two / one)
    out["scaling"] = {"ratios": ratios, "load": load()}
    return out


def run_engine(path: Path, spec: dict[str, Any]) -> dict[str, Any]:
    """:func:`child` in a subprocess with ``PYTHONPATH=path``."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(spec)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def cold_compile(path: Path) -> dict[str, float]:
    """Wall and CPU seconds of a first ``simulate`` call with an empty numba cache."""
    code = "from pinastats.simulation import simulate; simulate(['random', 'random'], 1, workers=1)"
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(path), "NUMBA_CACHE_DIR": cache}
        before = os.times()
        wall = time.perf_counter()
        # in ``path``: ``-c`` puts the working folder first on ``sys.path``
        subprocess.run([sys.executable, "-c", code], env=env, cwd=path, check=True,
                       capture_output=True)  # fmt: skip
        wall = time.perf_counter() - wall
        after = os.times()
    cpu = after.children_user - before.children_user
    cpu += after.children_system - before.children_system
    return {"wall": wall, "cpu": cpu, "load": load()}


# ---------------------------------------------------------------- this process


def reference_rate(seconds: float) -> dict[str, float]:
    """Games per CPU second of the pure-Python engine, and whether it plays the same games."""
    sys.path.insert(0, str(HERE.parent))  # the repository: tests.oracle
    import numpy as np

    from pinastats.game.config import GameConfig
    from tests.oracle.reference_engine import check_same_games, play_random_games

    config = GameConfig(players=2)
    games = max(100, int(450 * seconds))
    cpu = time.process_time()
    play_random_games(config, games, np.random.SeedSequence(1))
    cpu = time.process_time() - cpu
    return {"games/s": games / cpu, "load": load(), "same": check_same_games(config, 300)}


PATH_GAMES = 50
"""Fewest games timed on each single-thread path."""


def paths(seconds: float) -> list[tuple[str, float, float, float, float]]:
    """Single-thread games/s of the Python turn, the per-turn kernel and the engine."""
    from pinastats.game.config import GameConfig
    from pinastats.game.game import Game
    from pinastats.simulation.play import play_game
    from pinastats.simulation.runner import simulate

    config = GameConfig(players=2)
    rows = []
    for kind in ("random", "ev"):
        rates = []
        for fast in (False, True):
            play_game(Game.new(seed=0, config=config), [kind, kind], seed=0, fast=fast)  # warm
            n, start = 0, time.process_time()
            # at least PATH_GAMES games: a short --quick budget must not give a rate of a
            # handful of games (or none) timed by a coarse CPU clock
            while n < PATH_GAMES or time.process_time() - start < seconds / 2:
                play_game(Game.new(seed=n, config=config), [kind, kind], seed=n, fast=fast)
                n += 1
            rates.append(n / max(time.process_time() - start, 1e-9))
        pilot = simulate([kind, kind], PILOT[kind], seed=1, workers=1)
        games = max(PILOT[kind], int(pilot.games_per_second * seconds))
        cpu = time.process_time()
        simulate([kind, kind], games, seed=3, workers=1)
        engine = games / (time.process_time() - cpu)
        rows.append((kind, rates[0], rates[1], engine, load()))
    return rows


def ratio(a: float, b: float) -> str:
    return f"{a / b:,.1f}x" if b > 0 else "n/a"


def spread(values: list[float]) -> str:
    """The range of ``values``, as ``low-high`` (empty for a single run)."""
    if len(values) < 2:
        return ""
    digits = 2 if max(values) < 10 else 0
    return f"{min(values):,.{digits}f}-{max(values):,.{digits}f}"


def paired(ours: list[float], base: list[float]) -> tuple[float, str]:
    """The median of the ratios ``ours[i] / base[i]`` and their range (``nan`` without base)."""
    ratios = [o / b for o, b in zip(ours, base, strict=False) if b > 0]
    if not ratios:
        return math.nan, ""
    low, high = min(ratios), max(ratios)
    return statistics.median(ratios), (f"{low:.1f}-{high:.1f}" if len(ratios) > 1 else "")


def median_of(runs: list[dict[str, Any]], kind: str, key: str) -> float:
    return statistics.median(r[kind][key] for r in runs) if runs else 0.0


def measure(args: argparse.Namespace, spec: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """``args.repeats`` runs of each engine, this one first, in turn."""
    ours, base = [], []
    for i in range(args.repeats):
        print(f"  run {i + 1}/{args.repeats}: this engine", file=sys.stderr, flush=True)
        ours.append(run_engine(HERE.parent, spec))
        if args.baseline.exists():
            print(f"  run {i + 1}/{args.repeats}: previous engine", file=sys.stderr, flush=True)
            base.append(run_engine(args.baseline, spec))
    return ours, base


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs, no cold compile")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, help="runs of each engine (3; 1 with --quick)")
    parser.add_argument("--baseline", type=Path, default=Path("/work/baseline"))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    if args.repeats is None:
        args.repeats = 1 if args.quick else 3
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {args.repeats}")
    seconds = 0.4 if args.quick else 2.0
    spec = {"agents": list(TARGETS), "workers": args.workers, "seconds": seconds}
    ours_path = HERE.parent
    print(f"engine benchmark, 2 players, {args.workers} workers, {os.cpu_count()} CPUs, "
          f"{args.repeats} run(s) of each engine; load at start {load():.2f}")  # fmt: skip
    runs, base_runs = measure(args, spec)
    base = base_runs[0] if base_runs else None
    ref = reference_rate(seconds)

    head = (f"{'figure (median of runs)':26} {'this engine':>11} {'range':>15} {'load':>5} "
            f"{'previous':>9} {'load':>5} {'target':>8}  {'/ previous':>10} {'range':>8} "
            f"{'CPU/game prev/this':>18}")  # fmt: skip
    print("\n" + head + "\n" + "-" * len(head))
    for kind, target in TARGETS.items():
        rates = [r[kind]["games/s"] for r in runs]
        base_rates = [r[kind]["games/s"] for r in base_runs]
        up, up_range = paired(rates, base_rates)
        cpu, _ = paired([r[kind]["cpu/game"] for r in base_runs],
                        [r[kind]["cpu/game"] for r in runs])  # fmt: skip
        print(f"{kind + ', games/s':26} {statistics.median(rates):11,.0f} {spread(rates):>15} "
              f"{median_of(runs, kind, 'load'):5.2f} {median_of(base_runs, kind, 'games/s'):9,.0f} "
              f"{median_of(base_runs, kind, 'load'):5.2f} {target:8,.0f}  {up:9.1f}x "
              f"{up_range:>8} {cpu:17.1f}x")  # fmt: skip
    for kind in TARGETS:
        print(f"  {kind:10} CPU per game {median_of(runs, kind, 'cpu/game') * 1e6:10,.1f} µs "
              f"(previous {median_of(base_runs, kind, 'cpu/game') * 1e6:10,.1f} µs)")  # fmt: skip
    scaling = [x for r in runs for x in r["scaling"]["ratios"]]
    base_scaling = [x for r in base_runs for x in r["scaling"]["ratios"]] or [0.0]
    print(f"{'ev, 2 workers / 1 worker':26} {statistics.median(scaling):11.2f} "
          f"{spread(scaling):>15} {statistics.median(r['scaling']['load'] for r in runs):5.2f} "
          f"{statistics.median(base_scaling):9.2f} {'':5} {SCALING_TARGET:8.2f}")  # fmt: skip
    ours = {kind: {"cpu/game": median_of(runs, kind, "cpu/game")} for kind in TARGETS}
    one_core = 1.0 / ours["random"]["cpu/game"]
    print(f"{'pure Python random, g/s/core':26} {ref['games/s']:11,.0f} {'':15} {ref['load']:5.2f}"
          f"  engine per core / pure Python: "
          f"{ratio(one_core, ref['games/s'])} (same games: {ref['same']})")  # fmt: skip
    if args.quick:
        print(f"{'cold compile (fresh cache)':26} {'skipped (--quick)':>17}")
    else:
        co = cold_compile(ours_path)
        cb = cold_compile(args.baseline) if base else {"wall": 0.0, "cpu": 0.0, "load": 0.0}
        print(f"{'cold compile, wall s':26} {co['wall']:11.1f} {'':15} {co['load']:5.2f} "
              f"{cb['wall']:9.1f} {cb['load']:5.2f} {COLD_TARGET:8.0f}  "
              f"{ratio(cb['wall'], co['wall']):>10} (previous / this)")  # fmt: skip
        print(f"{'cold compile, CPU s':26} {co['cpu']:11.1f} {'':15} {'':5} {cb['cpu']:9.1f} "
              f"{'':5} {'':8}  {ratio(cb['cpu'], co['cpu']):>10}")  # fmt: skip

    print("\nthis engine, one thread, games per CPU second")
    print(f"{'agent':8} {'Python turn':>12} {'kernel/turn':>12} {'engine':>10} {'load':>5} "
          f"{'engine/Python':>14} {'engine/per turn':>16}")  # fmt: skip
    for kind, python, per_turn, engine, at in paths(seconds):
        print(f"{kind:8} {python:12,.0f} {per_turn:12,.0f} {engine:10,.0f} {at:5.2f} "
              f"{ratio(engine, python):>14} {ratio(engine, per_turn):>16}")  # fmt: skip


if __name__ == "__main__":
    main()
