"""Benchmark the game engine against the previous engine and a pure-Python one.

    python benchmarks/bench_sim.py            # a few minutes (cold compiles included)
    python benchmarks/bench_sim.py --quick    # under a minute, no cold compile

Everything is measured in one run, 2 players, the same agent in every seat:

* games/s of ``simulate`` for ``random``, ``ev``, ``strategic`` and ``rollout``
  (48 play-outs per placement) on ``--workers`` threads, and the CPU time per
  game (``time.process_time`` over every thread): on a shared machine the wall
  rate depends on the others, the CPU time much less;
* the same for the previous engine (a checkout at ``--baseline``, run in a
  subprocess with ``PYTHONPATH`` set to it and called only through
  ``pinastats.simulation.simulate``, which both have);
* the pure-Python reference engine (``reference_engine.py``, ``random`` agent,
  the same games);
* 2 workers against 1 worker (``ev``), and the cold compile of the engine
  (``warm_up`` in a fresh ``NUMBA_CACHE_DIR``), wall and CPU seconds;
* the readable Python turn, the per-turn kernel and the engine, one thread.

Each figure is printed with the 1-minute load average measured beside it; the
ratios compare figures of this run only. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TARGETS = {"random": 100_000.0, "ev": 12_000.0, "strategic": 10_000.0, "rollout": 60.0}
SCALING_TARGET = 1.85
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
    rates = {}
    for w in (1, 2):
        games = max(400, int(out.get("ev", {"games/s": 2_000})["games/s"] * seconds))
        rates[w] = simulate(["ev", "ev"], games, seed=3, workers=w).games_per_second
    out["scaling"] = {"ratio": rates[2] / rates[1], "load": load()}
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
    sys.path.insert(0, str(HERE))
    import numpy as np
    from reference_engine import check_same_games, play_random_games

    from pinastats.game.config import GameConfig

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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs, no cold compile")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--baseline", type=Path, default=Path("/work/baseline"))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    seconds = 0.4 if args.quick else 2.0
    spec = {"agents": list(TARGETS), "workers": args.workers, "seconds": seconds}
    ours_path = HERE.parent
    print(f"engine benchmark, 2 players, {args.workers} workers, {os.cpu_count()} CPUs; "
          f"load at start {load():.2f}")  # fmt: skip
    ours = run_engine(ours_path, spec)
    base = run_engine(args.baseline, spec) if args.baseline.exists() else None
    ref = reference_rate(seconds)

    head = (f"{'figure':34} {'this engine':>13} {'load':>5} {'previous':>11} {'load':>5} "
            f"{'target':>9}  {'/ previous':>10} {'CPU/game: prev/this':>20}")  # fmt: skip
    print("\n" + head + "\n" + "-" * len(head))
    for kind, target in TARGETS.items():
        o = ours[kind]
        b = base[kind] if base else {"games/s": 0.0, "cpu/game": 0.0, "load": 0.0}
        print(f"{kind + ' self-play, games/s':34} {o['games/s']:13,.0f} {o['load']:5.2f} "
              f"{b['games/s']:11,.0f} {b['load']:5.2f} {target:9,.0f}  "
              f"{ratio(o['games/s'], b['games/s']):>10} "
              f"{ratio(b['cpu/game'], o['cpu/game']):>20}")  # fmt: skip
    for kind in TARGETS:
        o = ours[kind]
        print(f"  {kind:10} CPU per game {o['cpu/game'] * 1e6:10,.1f} µs "
              f"(previous {base[kind]['cpu/game'] * 1e6 if base else 0:10,.1f} µs)")  # fmt: skip
    so, sb = ours["scaling"], base["scaling"] if base else {"ratio": 0.0, "load": 0.0}
    print(f"{'ev, 2 workers / 1 worker':34} {so['ratio']:13.2f} {so['load']:5.2f} "
          f"{sb['ratio']:11.2f} {sb['load']:5.2f} {SCALING_TARGET:9.2f}")  # fmt: skip
    one_core = 1.0 / ours["random"]["cpu/game"]
    print(f"{'pure Python random, games/s/core':34} {ref['games/s']:13,.0f} {ref['load']:5.2f}"
          f"{'':18} {'':9}  engine per core / pure Python: "
          f"{ratio(one_core, ref['games/s'])} (same games: {ref['same']})")  # fmt: skip
    if args.quick:
        print(f"{'cold compile (fresh cache)':34} {'skipped (--quick)':>13}")
    else:
        co = cold_compile(ours_path)
        cb = cold_compile(args.baseline) if base else {"wall": 0.0, "cpu": 0.0, "load": 0.0}
        print(f"{'cold compile, wall s':34} {co['wall']:13.1f} {co['load']:5.2f} "
              f"{cb['wall']:11.1f} {cb['load']:5.2f} {COLD_TARGET:9.0f}  "
              f"{ratio(cb['wall'], co['wall']):>10} (previous / this)")  # fmt: skip
        print(f"{'cold compile, CPU s':34} {co['cpu']:13.1f} {'':5} {cb['cpu']:11.1f} {'':5} "
              f"{'':9}  {ratio(cb['cpu'], co['cpu']):>10}")  # fmt: skip

    print("\nthis engine, one thread, games per CPU second")
    print(f"{'agent':8} {'Python turn':>12} {'kernel/turn':>12} {'engine':>10} {'load':>5} "
          f"{'engine/Python':>14} {'engine/per turn':>16}")  # fmt: skip
    for kind, python, per_turn, engine, at in paths(seconds):
        print(f"{kind:8} {python:12,.0f} {per_turn:12,.0f} {engine:10,.0f} {at:5.2f} "
              f"{ratio(engine, python):>14} {ratio(engine, per_turn):>16}")  # fmt: skip


if __name__ == "__main__":
    main()
