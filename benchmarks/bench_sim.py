"""Benchmark the game simulator (run on demand: ``python benchmarks/bench_sim.py``).

Measured in one run, with a warm numba cache:

* games per second of :func:`pinastats.simulate` for each built-in agent
  (``random``, ``greedy``, ``ev``, ``strategic``; the same agent in every seat)
  and 2, 3 and 4 players, on ``--workers`` threads (default 2). Wall-clock
  rates depend on what else the machine runs, so each row also gives the CPU
  time per game (all threads) and the rate one core reaches on CPU time;
* the fast engine (whole chunks of games in one kernel call, ``simulate`` on
  one thread) against the readable Python path (``play_game(fast=False)``:
  every decision a Python call) and the per-turn kernel path
  (``play_game(fast=True)``: one kernel call per turn), single-threaded;
* the fixed costs around the kernels: loading the compiled kernels (warm-up),
  a chunk's set-up, assembling the per-game table, and optionally (``--dask``)
  a local Dask cluster.

The issue's targets (2 players, two cores): ``ev`` >= 10,000 games/s and
``random`` >= 100,000 games/s. Nothing is asserted: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from pinastats.agents.builtin import make_agent
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.rules import EndReason, Trigger
from pinastats.simulation.chunk import ChunkSpec, run_chunk, warm_up
from pinastats.simulation.play import play_game
from pinastats.simulation.result import SimulationResult
from pinastats.simulation.runner import simulate

AGENTS = ("random", "greedy", "ev", "strategic")
PLAYERS = (2, 3, 4)
TARGETS = {"ev": 10_000.0, "random": 100_000.0}


def timed(func: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall seconds, process CPU seconds (every thread) and the result of ``func()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    out = func()
    return time.perf_counter() - wall, time.process_time() - cpu, out


def sized(rate_guess: float, seconds: float, least: int = 200) -> int:
    """Games for a run of about ``seconds`` at ``rate_guess`` games/s, rounded."""
    n = max(least, int(rate_guess * seconds))
    return int(float(f"{n:.2g}"))


# ---------------------------------------------------------------- throughput


def throughput(kind: str, players: int, workers: int, seconds: float) -> dict[str, Any]:
    """Best of two runs of ``simulate`` sized to about ``seconds`` each."""
    agents = [kind] * players
    pilot = simulate(agents, 400, seed=1, workers=workers)
    games = sized(pilot.games_per_second, seconds)
    best: dict[str, Any] = {}
    for seed in (2, 3):
        _, cpu, result = timed(partial(simulate, agents, games, seed=seed, workers=workers))
        row = {
            "agent": kind,
            "players": players,
            "games": games,
            "games/s": result.games_per_second,
            "cpu µs/game": 1e6 * cpu / games,
            "games/s/core (cpu)": games / cpu,
            "turns/game": float(result.games["turns"].mean()),
        }
        if not best or row["games/s"] > best["games/s"]:
            best = row
    return best


# ---------------------------------------------------------------- paths


def python_vs_kernel(kind: str, seconds: float) -> dict[str, Any]:
    """Single-thread games/s of the three paths for 2 players of ``kind``."""
    config = GameConfig(players=2)

    def games_per_second(fast: bool) -> float:
        n, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            play_game(Game.new(seed=n, config=config), [kind, kind], seed=n, fast=fast)
            n += 1
        return n / (time.perf_counter() - start)

    play_game(Game.new(seed=0, config=config), [kind, kind], seed=0, fast=False)  # warm
    python = games_per_second(fast=False)
    per_turn = games_per_second(fast=True)
    pilot = simulate([kind, kind], 400, seed=1, workers=1)
    engine = simulate([kind, kind], sized(pilot.games_per_second, seconds), seed=3, workers=1)
    rate = engine.games_per_second
    return {
        "agent": kind,
        "python path": python,
        "kernel per turn": per_turn,
        "engine (1 thread)": rate,
        "engine / python": rate / python,
        "engine / per turn": rate / per_turn,
    }


# ---------------------------------------------------------------- fixed costs


def old_from_arrays(a: dict[str, npt.NDArray[np.int64]], names: list[str]) -> pd.DataFrame:
    """The table as it was first assembled: Python loops over every game (for comparison)."""
    n, p = a["scores"].shape
    cols: dict[str, Any] = {"game": np.arange(n), "first_seat": a["first"]}
    for s in range(p):
        cols[f"agent_{s}"] = names[s]
    cols["winner"] = a["winner"]
    cols["winner_agent"] = [names[w] if w >= 0 else "" for w in a["winner"]]
    cols["end_reason"] = [EndReason(int(r)).name.lower() for r in a["reason"]]
    cols["trigger"] = [Trigger(int(t)).name.lower() for t in a["trigger"]]
    return pd.DataFrame(cols)


def fixed_costs(workers: int, with_dask: bool) -> list[tuple[str, str]]:
    """Warm-up, chunk set-up, table assembly and (optionally) Dask, as text rows."""
    rows = []
    code = (
        "import time; t = time.perf_counter(); from pinastats.simulation.chunk import warm_up; "
        "i = time.perf_counter(); warm_up(); w = time.perf_counter(); print(i - t, w - i)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    imports, load = (float(x) for x in out.stdout.split())
    rows.append(("new process: import pinastats.simulation", f"{imports * 1e3:.0f} ms"))
    rows.append(("new process: warm-up (load every compiled kernel)", f"{load * 1e3:.0f} ms"))
    config = GameConfig(players=2)
    agents = (make_agent("random"), make_agent("random"))

    def chunk(games: int) -> Callable[[], Any]:
        return lambda: run_chunk(ChunkSpec(0, games, np.random.SeedSequence(1), config, agents, -1))

    one = min(timed(chunk(1))[0] for _ in range(20))
    per_game = min(timed(chunk(2_000))[0] for _ in range(3)) / 2_000
    rows.append(
        (
            "chunk set-up (arrays, tables, kernel dispatch)",
            f"{(one - per_game) * 1e6:.0f} µs per chunk",
        )
    )
    arrays = run_chunk(ChunkSpec(0, 100_000, np.random.SeedSequence(2), config, agents, -1))
    names = [a.name for a in agents]
    new = (
        min(
            timed(
                lambda: SimulationResult.from_arrays(
                    arrays,
                    config=config,
                    agents=agents,
                    seed=0,
                    elapsed=1.0,
                    workers=1,
                    engine="local",
                )
            )[0]
            for _ in range(3)
        )
        / 100_000
    )
    old = min(timed(lambda: old_from_arrays(arrays, names))[0] for _ in range(3)) / 100_000
    rows.append(("per-game table, vectorised (categoricals)", f"{new * 1e6:.2f} µs per game"))
    rows.append(("per-game table, Python loops (before)", f"{old * 1e6:.2f} µs per game"))
    games = 20_000
    for size in (50, 500, 5_000):
        r = simulate(["random", "random"], games, seed=4, workers=workers, chunk_size=size)
        rows.append(
            (f"random, {games:,} games in chunks of {size:,}", f"{r.games_per_second:,.0f} games/s")
        )
    if with_dask:
        from dask.distributed import Client, LocalCluster

        wall, _, cluster = timed(
            lambda: LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            )
        )
        rows.append((f"Dask LocalCluster start, {workers} processes", f"{wall:.2f} s"))
        try:
            with Client(cluster) as client:
                wall, _, _ = timed(lambda: client.run(warm_up))
                rows.append(("Dask warm-up of every worker", f"{wall:.2f} s"))
            for kind, n in (("random", 100_000), ("ev", 20_000)):
                r = simulate([kind, kind], n, seed=5, scheduler=cluster.scheduler_address)
                rows.append(
                    (
                        f"{kind} on Dask ({r.workers} workers), {n:,} games",
                        f"{r.games_per_second:,.0f} games/s",
                    )
                )
        finally:
            cluster.close()
    return rows


# ---------------------------------------------------------------- report


def table(frame: pd.DataFrame, formats: dict[str, str]) -> str:
    """A DataFrame as aligned text with per-column number formats."""
    shown = frame.copy()
    for column, fmt in formats.items():
        shown[column] = [format(v, fmt) for v in frame[column]]
    return shown.to_string(index=False)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="threads (default 2)")
    parser.add_argument("--seconds", type=float, default=1.5, help="length of each run")
    parser.add_argument("--dask", action="store_true", help="also time a local Dask cluster")
    parser.add_argument("--quick", action="store_true", help="2 players only, short runs")
    args = parser.parse_args(argv)
    players = (2,) if args.quick else PLAYERS
    seconds = 0.5 if args.quick else args.seconds

    print(
        f"pinastats simulator benchmark — Python {platform.python_version()}, "
        f"numpy {np.__version__}, {os.cpu_count()} CPUs, {args.workers} workers"
    )
    load = os.getloadavg()[0]
    print(
        f"load average at start: {load:.2f}"
        + (
            "  (busy machine: wall-clock rates understate; see the CPU columns)"
            if load > 0.5
            else ""
        )
    )
    warm_up()

    rows = [throughput(k, p, args.workers, seconds) for p in players for k in AGENTS]
    frame = pd.DataFrame(rows)
    print(f"\nThroughput of simulate() on {args.workers} threads (same agent in every seat)")
    print(
        table(
            frame,
            {
                "games": ",",
                "games/s": ",.0f",
                "cpu µs/game": ".1f",
                "games/s/core (cpu)": ",.0f",
                "turns/game": ".1f",
            },
        )
    )
    print("\nTargets (2 players, two cores):")
    for kind, target in TARGETS.items():
        row = frame[(frame["agent"] == kind) & (frame["players"] == 2)].iloc[0]
        on_cpu = row["games/s/core (cpu)"] * args.workers
        verdict = "met" if row["games/s"] >= target else "missed"
        print(
            f"  {kind:7} {row['games/s']:>9,.0f} games/s measured ({verdict}; target "
            f"{target:,.0f}); {on_cpu:,.0f} games/s if {args.workers} cores were free"
        )

    paths = pd.DataFrame([python_vs_kernel(k, seconds) for k in AGENTS])
    print("\nFast engine vs readable Python path (2 players, one thread, games/s)")
    print(
        table(
            paths,
            {
                "python path": ",.0f",
                "kernel per turn": ",.0f",
                "engine (1 thread)": ",.0f",
                "engine / python": ".0f",
                "engine / per turn": ".1f",
            },
        )
    )

    print("\nFixed costs")
    for name, value in fixed_costs(args.workers, args.dask):
        print(f"  {name:62} {value}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
