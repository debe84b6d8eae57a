"""Benchmark the ``coach`` agent: its strength, its speed and the CLI's (run on demand).

Strength: ``simulate`` games with the coach in seat 0 and a random first seat,
the coach's score (wins + half the games without a winner) over the games with
a 95% Wilson interval: heads-up against ``strategic`` (target >= 60%) and
``rollout`` (target: interval above 50%), and one coach against ``strategic``
opponents at 3 and 4 players (a fair share is 1/3, 1/4), and heads-up against the
default ``coach`` (``--coach "coach(policy=value,playouts=10)" --fields coach``: a
coach whose play-outs ``value`` plays, at the play-outs that take as long).

Speed (``--speed``): coach turns on positions of ``strategic`` self-play, timed
directly: decisions (keeps and placements) per second and play-outs per second
(``--policy value``: play-outs played by ``value``).

CLI (``--cli``): wall time of ``pinastats advise --objective win`` with default
settings on ``examples/state.json`` (warm numba cache; target <= 2 s).

Each figure is printed with the 1-minute load average. Nothing is asserted.

    python benchmarks/bench_coach.py [--games 200] [--workers 2] [--seed 11] \
        [--fields strategic,rollout,3p,4p,coach]
    python benchmarks/bench_coach.py --speed [--playouts 64] [--policy value] | --cli
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from pinastats.agents.builtin import Agent, AgentKind
from pinastats.coach.agent import Coach
from pinastats.game.game import Game
from pinastats.simulation import simulate
from pinastats.simulation.play import play_turn, play_turn_fast
from pinastats.simulation.stats import wilson_interval

ROOT = Path(__file__).resolve().parent.parent


def _load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


FIELDS = ("strategic", "rollout", "3p", "4p", "coach")
"""The fields of :func:`strength`, by ``--fields`` name."""


def strength(
    games: int,
    workers: int,
    coach: str,
    rollouts: int,
    only: tuple[str, ...] = FIELDS,
    seed: int = 11,
) -> None:
    """The coach's score in seat 0 against each field of ``only`` (random first seat)."""
    fields = [
        (label, others, target)
        for name, (label, others, target) in zip(FIELDS, [
            ("strategic", ["strategic"], 0.60),
            ("rollout", [f"rollout(rollouts={rollouts})"], 0.50),
            ("3p strategic", ["strategic"] * 2, 1 / 3),
            ("4p strategic", ["strategic"] * 3, 1 / 4),
            ("coach", ["coach"], 0.50),
        ], strict=True)
        if name in only
    ]  # fmt: skip
    print(f"{'field':<14} {'games':>6} {'score':>7} {'95% interval':>17} {'target':>7} "
          f"{'s/game':>7}  load")  # fmt: skip
    for label, others, target in fields:
        t = time.perf_counter()
        result = simulate([coach, *others], games, seed=seed, workers=workers, chunk_size=4)
        elapsed = time.perf_counter() - t
        winner = result.games["winner"]
        score = float((winner == 0).sum() + 0.5 * (winner < 0).sum())
        lo, hi = wilson_interval(score, games)
        print(f"{label:<14} {games:>6} {score / games:>7.1%} {f'[{lo:.1%}, {hi:.1%}]':>17} "
              f"{target:>7.0%} {elapsed / games:>7.2f}  {_load()}", flush=True)  # fmt: skip


def speed(turns: int, playouts: int, policy: str = "strategic") -> None:
    """Decisions and play-outs per second of coach turns from ``strategic`` self-play."""
    strategic = Agent(AgentKind.STRATEGIC)
    decisions = outs = 0
    elapsed = 0.0
    for seed in range(turns):
        game = Game.new(2, seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(seed % 10):
            if play_turn_fast(game, strategic, rng):
                break
        if game.is_over:
            continue
        coach = Coach(playouts=playouts, policy=policy)
        t = time.perf_counter()
        record = play_turn(game, coach, rng)
        elapsed += time.perf_counter() - t
        decisions += record.rolls_used - 1 + (record.cell is not None)
        assert coach._outcomes is not None
        outs += playouts * coach._outcomes.undecided.size
    print(f"coach(playouts={playouts},policy={policy}): {decisions / elapsed:.1f} decisions/s, "
          f"{outs / elapsed:,.0f} play-outs/s, {elapsed / turns:.2f} s/turn  "
          f"{_load()}")  # fmt: skip


def cli(repeats: int) -> None:
    """Wall time of ``pinastats advise --objective win`` (defaults) on the example position."""
    main = "from pinastats.cli.main import run; run()"
    command = [sys.executable, "-c", main, "advise", "--state",
               str(ROOT / "examples" / "state.json"), "--dice", "1", "2", "3", "5", "5",
               "--rolls-left", "1", "--objective", "win", "--seed", "1"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # in ROOT: ``-c`` puts the working folder first on ``sys.path``
    subprocess.run(command, check=True, capture_output=True, env=env, cwd=ROOT)  # warm the cache
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env, cwd=ROOT)
        times.append(time.perf_counter() - t)
    print(f"advise --objective win: median {statistics.median(times):.2f} s wall, "
          f"min {min(times):.2f} s over {repeats} (target <= 2 s)  {_load()}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--coach", default="coach", help="the coach's agent name")
    parser.add_argument("--rollouts", type=int, default=48, help="play-outs of rollout")
    parser.add_argument("--speed", action="store_true", help="time coach turns only")
    parser.add_argument("--playouts", type=int, default=64, help="with --speed")
    parser.add_argument("--policy", default="strategic", help="with --speed: the play-outs'")
    parser.add_argument("--seed", type=int, default=11, help="the strength games' seed")
    parser.add_argument("--cli", action="store_true", help="time the advise CLI only")
    parser.add_argument(
        "--fields", default=",".join(FIELDS), help=f"strength fields, of {', '.join(FIELDS)}"
    )
    args = parser.parse_args()
    fields = tuple(args.fields.split(","))
    if unknown := sorted(set(fields) - set(FIELDS)):
        parser.error(f"unknown field {unknown[0]!r}: choose from {', '.join(FIELDS)}")
    if args.cli:
        cli(5)
    elif args.speed:
        speed(30, args.playouts, args.policy)
    else:
        strength(args.games, args.workers, args.coach, args.rollouts, fields, args.seed)


if __name__ == "__main__":
    main()
