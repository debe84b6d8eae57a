# mypy: disallow-untyped-defs=False, disallow-untyped-calls=False
"""The engine's self-play speed against the code of a week before, side by side.

    python benchmarks/bench_engine_week.py                 # a few minutes (+ the old compile)
    python benchmarks/bench_engine_week.py --before 2026-12-01 --repeats 3 --seconds 1

The older engine is the last commit on ``main`` before ``--before`` (``git log
--before=DATE -1 main``), checked out once as a detached worktree in ``--where``
and run in a subprocess with ``PYTHONPATH`` set to it (its kernels compile into
its own folder on the first run, which is not timed). Both engines play
``simulate`` self-play games of ``random``, ``ev`` and ``strategic`` on
``--workers`` threads, this engine and the old one in turn ``--repeats`` times;
each ratio is the median of the ratios of runs taken side by side, and each
figure is printed with the 1-minute load average measured beside it (the
machine may be shared: the ratios, not the rates, are what a run can tell).

Then, in this process, one thread, games per CPU second: the readable Python
turn (``play_game(..., fast=False)``: the agents' Python decisions, the
pure-Python path) against the engine (``simulate``, one worker) for each
agent, and for ``random`` the pure-Python reference engine of
``tests/oracle`` as ``benchmarks/bench_sim.py`` measures it; the targets are
random >= 100x, ev >= 12x, strategic >= 10x. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
AGENTS = ("random", "ev", "strategic")
TARGET_OVER_PYTHON = {"random": 100.0, "ev": 12.0, "strategic": 10.0}
PILOT = {"random": 2_000, "ev": 400, "strategic": 400}
PATH_GAMES = 30


def load() -> float:
    """The 1-minute load average now."""
    return os.getloadavg()[0]


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """Games/s of each agent's self-play with the engine on ``sys.path`` (its own process)."""
    _own_data(Path.cwd())
    from pinastats.simulation import simulate

    out: dict[str, Any] = {}
    for kind in spec["agents"]:
        pilot = simulate([kind, kind], PILOT[kind], seed=1, workers=spec["workers"])
        games = max(PILOT[kind], int(pilot.games_per_second * spec["seconds"]))
        before = load()
        cpu = time.process_time()
        result = simulate([kind, kind], games, seed=2, workers=spec["workers"])
        cpu = time.process_time() - cpu
        out[kind] = {"games/s": result.games_per_second, "cpu/game": cpu / games,
                     "load": (before + load()) / 2}  # fmt: skip
    return out


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


def run_engine(path: Path, spec: dict[str, Any]) -> dict[str, Any]:
    """:func:`child` in a subprocess with ``PYTHONPATH=path``."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(spec)]
    done = subprocess.run(cmd, env=env, cwd=path, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def week_checkout(before: str, where: Path) -> tuple[Path, str]:
    """The worktree of the last commit on ``main`` before ``before`` (made if missing)."""
    repo = HERE.parent
    commit = subprocess.run(
        ["git", "-C", str(repo), "log", f"--before={before}", "-1", "--format=%H %cs", "main"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    if not commit:
        raise SystemExit(f"no commit on main before {before!r}")
    sha = commit.split()[0]
    if not (where / "pinastats").exists():
        subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", str(where), sha],
                       check=True, capture_output=True)  # fmt: skip
    return where, commit


def python_paths(seconds: float) -> list[tuple[str, float, float, float]]:
    """One thread, games per CPU second: the readable Python turn and the engine, per agent."""
    from pinastats.game.config import GameConfig
    from pinastats.game.game import Game
    from pinastats.simulation.play import play_game
    from pinastats.simulation.runner import simulate

    config = GameConfig(players=2)
    rows = []
    for kind in AGENTS:
        play_game(Game.new(seed=0, config=config), [kind, kind], seed=0, fast=False)  # warm
        n, start = 0, time.process_time()
        while n < PATH_GAMES or time.process_time() - start < seconds:
            play_game(Game.new(seed=n, config=config), [kind, kind], seed=n, fast=False)
            n += 1
        python = n / max(time.process_time() - start, 1e-9)
        pilot = simulate([kind, kind], PILOT[kind], seed=1, workers=1)
        games = max(PILOT[kind], int(pilot.games_per_second * seconds))
        cpu = time.process_time()
        simulate([kind, kind], games, seed=3, workers=1)
        engine = games / (time.process_time() - cpu)
        rows.append((kind, python, engine, load()))
    return rows


def reference_rate(seconds: float) -> float:
    """Games per CPU second of the pure-Python reference engine (``random`` agent)."""
    sys.path.insert(0, str(HERE.parent))  # the repository: tests.oracle
    import numpy as np

    from pinastats.game.config import GameConfig
    from tests.oracle.reference_engine import play_random_games

    games = max(100, int(450 * seconds))
    cpu = time.process_time()
    play_random_games(GameConfig(players=2), games, np.random.SeedSequence(1))
    return games / (time.process_time() - cpu)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="2026-12-01", help="the older engine: main before")
    parser.add_argument("--where", type=Path, default=Path("/tmp/pinastats-week"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0, help="timed seconds per figure")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {args.repeats}")
    old, commit = week_checkout(args.before, args.where)
    spec = {"agents": list(AGENTS), "workers": args.workers, "seconds": args.seconds}
    print(f"self-play, 2 players, {args.workers} workers; older engine: {commit} ({old}); "
          f"load at start {load():.2f}", flush=True)  # fmt: skip
    print("  warming both engines (compiles, not timed)", file=sys.stderr, flush=True)
    warm = {**spec, "seconds": 0.0}
    run_engine(HERE.parent, warm)
    run_engine(old, warm)
    ours, base = [], []
    for i in range(args.repeats):  # in turn: a drift of the machine's rate hits both alike
        print(f"  run {i + 1}/{args.repeats}", file=sys.stderr, flush=True)
        ours.append(run_engine(HERE.parent, spec))
        base.append(run_engine(old, spec))
    head = (f"{'agent':10} {'this g/s':>10} {'load':>5} {'week-old g/s':>12} {'load':>5} "
            f"{'this / old':>10} {'range':>11} {'CPU/game old/this':>17}")  # fmt: skip
    print("\n" + head + "\n" + "-" * len(head))
    for kind in AGENTS:
        rates = [r[kind]["games/s"] for r in ours]
        old_rates = [r[kind]["games/s"] for r in base]
        ratios = [a / b for a, b in zip(rates, old_rates, strict=True)]
        cpu = [b[kind]["cpu/game"] / a[kind]["cpu/game"] for a, b in zip(ours, base, strict=True)]
        print(f"{kind:10} {statistics.median(rates):10,.0f} "
              f"{statistics.median(r[kind]['load'] for r in ours):5.2f} "
              f"{statistics.median(old_rates):12,.0f} "
              f"{statistics.median(r[kind]['load'] for r in base):5.2f} "
              f"{statistics.median(ratios):9.2f}x {min(ratios):5.2f}-{max(ratios):4.2f} "
              f"{statistics.median(cpu):16.2f}x")  # fmt: skip
    print("\nthis engine, one thread, games per CPU second")
    print(f"{'agent':10} {'Python turn':>12} {'engine':>10} {'load':>5} {'engine/Python':>14} "
          f"{'target':>7}")  # fmt: skip
    rows = python_paths(args.seconds)
    for kind, python, engine, at in rows:
        print(f"{kind:10} {python:12,.0f} {engine:10,.0f} {at:5.2f} {engine / python:13.1f}x "
              f"{TARGET_OVER_PYTHON[kind]:6.0f}x")  # fmt: skip
    reference, engine = reference_rate(args.seconds), rows[0][2]
    print(f"pure-Python reference engine (tests/oracle), random: {reference:,.0f} games "
          f"per CPU second; the engine's random {engine / reference:,.1f}x "
          f"(load {load():.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
