"""Benchmark the learned evaluator: decisions, accuracy, speed and strength.

    python benchmarks/bench_value.py --make          # label the 2,000 positions (5,000 play-outs)
    python benchmarks/bench_value.py --positions     # error rates of every agent, network accuracy
    python benchmarks/bench_value.py --speed         # value decisions, self-play, advise
    python benchmarks/bench_value.py --strength      # games against strategic and the coach
    python benchmarks/bench_value.py --labelling     # what a round of policy iteration costs

Positions: ``benchmarks/value-positions.npz`` (:mod:`pinastats.value.benchmark`):
2,000 placement decisions of 2-4 players, all phases, each legal cell
labelled by the mover's win probability after it from 5,000 ``strategic``
play-outs; the games they come from use seeds no training run uses. Every
agent places on each; its error rate is the mean label lost against the best
cell, in thousandths of a win, with a 95% interval.

Speed: ratios of figures measured in this run, with the load average.
Labelling: the same positions of ``strategic`` self-play labelled by 64
play-outs played by ``strategic`` (today's labels) and by ``value`` (a round of
policy iteration), one worker each, in the same run: positions a second and
their ratio, for 2, 3 and 4 players.
Strength: games on seeds no tuning used (``STRENGTH_SEED``), wins plus half
the games without a winner, random first seat, 95% Wilson intervals. Nothing
is asserted; ``--json`` writes every figure.
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

import numpy as np

HERE = Path(__file__).resolve().parent
POSITIONS = HERE / "value-positions.npz"
STRENGTH_SEED = 4_242_000
AGENTS = ("random", "greedy", "ev", "strategic", "rollout", "coach", "value",
          "coach(leaf=value,depth=2)")  # fmt: skip


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def positions(report: dict[str, Any], agents: list[str]) -> None:
    from pinastats.coach.reliability import equal_mass_ece
    from pinastats.value.benchmark import (
        agent_errors,
        error_table,
        network_accuracy,
        read_benchmark,
    )

    parts = read_benchmark(POSITIONS)
    n = sum(len(p) for p in parts)
    print(f"{n} benchmark decisions, {parts[0].playouts} play-outs per candidate ({load()})")
    errors = {}
    for name in agents:
        t = time.perf_counter()
        errors[name] = agent_errors(parts, name, seed=1)
        took = time.perf_counter() - t
        e = errors[name]["error"]
        print(f"  {name:28s} {e.mean():7.1f} milli-wins  ({took:.1f} s, {load()})", flush=True)
    table = error_table(errors)
    print(table.to_string(index=False, float_format=lambda x: f"{x:.1f}"))
    report["errors"] = table.to_dict(orient="records")
    acc = network_accuracy(parts)
    mae = float(np.abs(acc["predicted"] - acc["label"]).mean())
    ece = equal_mass_ece(acc["predicted"].to_numpy(), acc["label"].to_numpy())
    print(f"network on {len(acc)} candidates: MAE {mae:.4f}, equal-mass ECE {ece:.4f}")
    by = acc.assign(err=(acc["predicted"] - acc["label"]).abs()).groupby(["players", "phase"])
    print(by["err"].mean().unstack().to_string(float_format=lambda x: f"{x:.4f}"))
    label_se = 0.5 / np.sqrt(parts[0].playouts)
    # how far the value agent's chosen cell's own estimate sits above its label (selection)
    if "value" in errors:
        v = errors["value"].merge(
            acc, on=["players", "decision", "cell", "happy_hour"], how="inner"
        )
        inflation = float((v["predicted"] - v["label_x"]).mean())
        print(f"value's chosen cells: network - label {inflation:+.4f} ({len(v)} decisions)")
        report["selection_inflation"] = inflation
    report["network"] = {"candidates": len(acc), "mae": mae, "ece": ece,
                         "label_se_at_most": label_se}  # fmt: skip
    # the typical error of the difference between two candidates of one decision
    diffs = []
    for (_, _, _), g in acc.groupby(["players", "happy_hour", "decision"]):
        if len(g) >= 2:
            p, y = g["predicted"].to_numpy(), g["label"].to_numpy()
            diffs.append(np.abs((p - p.mean()) - (y - y.mean())).mean())
    report["network"]["difference_mae"] = float(np.mean(diffs))
    print(f"error of differences between candidates of one decision: {np.mean(diffs):.4f}")


def speed(report: dict[str, Any]) -> None:
    from pinastats.agents.builtin import make_agent
    from pinastats.simulation import simulate
    from pinastats.value.benchmark import read_benchmark

    parts = read_benchmark(POSITIONS)
    agent = make_agent("value")
    times = []
    for b in parts:
        for i in range(len(b)):
            game = b.game(i)
            rng = np.random.default_rng(i)
            t = time.perf_counter()
            agent.start_turn(game)
            agent.choose_placement(game, [int(d) for d in b.dice[i]], rng)
            times.append(time.perf_counter() - t)
    med = statistics.median(times) * 1000
    print(f"value decision (prepare the turn + place), Python path: median {med:.3f} ms, "
          f"p90 {np.percentile(times, 90) * 1000:.3f} ms over {len(times)} ({load()})")  # fmt: skip
    report["value_decision_ms"] = med
    simulate(["value", "value"], 50, seed=1, workers=1)
    simulate(["strategic", "strategic"], 500, seed=1, workers=1)
    rates = {}
    for name, games in (("strategic", 40_000), ("value", 2_000)):
        t = time.perf_counter()
        simulate([name, name], games, seed=7, workers=2)
        rates[name] = games / (time.perf_counter() - t)
        print(f"  {name} self-play, 2 players, 2 workers: {rates[name]:,.0f} games/s ({load()})")
    report["self_play"] = rates
    print(f"value / strategic self-play: 1/{rates['strategic'] / rates['value']:.0f}")
    state = str(HERE.parent / "examples" / "state.json")
    base = ["pinastats", "advise", "--state", state, "--dice", "2", "2", "5", "4", "1",
            "--rolls-left", "2", "--objective", "win", "--format", "json"]  # fmt: skip
    points = [*base[: base.index("--objective")], "--format", "json"]
    # the start-up profile: what a process pays before any advice (medians of 5, in turn)
    steps: dict[str, list[str]] = {
        "python": [sys.executable, "-c", "pass"],
        "import numba": [sys.executable, "-c", "import numba"],
        "+ numba's array registries (scipy.linalg)": [
            sys.executable, "-c", "import numba, numba.np.arraymath"],
        "import the engine (no kernel loaded)": [
            sys.executable, "-c", "import pinastats.agents.builtin"],
        "advise, points objective (no network)": points,
        "advise --objective win (network)": base,
        "advise --objective win --playouts 200": [*base, "--playouts", "200"],
    }  # fmt: skip
    runs: dict[str, list[float]] = {k: [] for k in steps}
    for _ in range(5):
        for label, command in steps.items():
            t = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            runs[label].append(time.perf_counter() - t)
    for label, xs in runs.items():
        print(f"  {label:42s} whole process, warm: median {statistics.median(xs):.2f} s "
              f"(min {min(xs):.2f}, max {max(xs):.2f}) ({load()})")  # fmt: skip
    from pinastats.cli._advice import load_state
    from pinastats.evaluation import NetworkEvaluator

    game = load_state(state)
    network = NetworkEvaluator()
    network.advise(game, (2, 2, 5, 4, 1), 2)
    inside = []
    for _ in range(50):
        t = time.perf_counter()
        network.advise(game, (2, 2, 5, 4, 1), 2)
        inside.append(time.perf_counter() - t)
    print(f"  the network evaluator's advice inside a warm process: median "
          f"{statistics.median(inside) * 1000:.1f} ms ({load()})")  # fmt: skip
    report["advise_in_process_ms"] = statistics.median(inside) * 1000
    report["advise_s"] = {k: statistics.median(v) for k, v in runs.items()}


def match(agents: list[str], games: int, seed: int, seat: int = 0) -> dict[str, Any]:
    from pinastats.simulation import simulate

    t = time.perf_counter()
    result = simulate(agents, games, seed=seed, workers=2)
    took = time.perf_counter() - t
    g = result.games
    score = float((g["winner"] == seat).sum() + 0.5 * (g["winner"] < 0).sum())
    low, high = wilson(score, games)
    n = len(agents)
    print(f"  {' vs '.join(agents)}: seat {seat} scores {100 * score / games:.1f}% "
          f"[{100 * low:.1f}, {100 * high:.1f}] over {games} games (fair share "
          f"{100 / n:.1f}%; {took:.0f} s, {load()})", flush=True)  # fmt: skip
    return {"agents": agents, "games": games, "seed": seed, "score": score / games,
            "low": low, "high": high, "seconds": took}  # fmt: skip


def strength(report: dict[str, Any], quick: bool) -> None:
    k = 4 if quick else 1
    rows = [
        match(["value", "strategic"], 400 // k, STRENGTH_SEED + 1),
        match(["value", "coach"], 200 // k, STRENGTH_SEED + 2),
        match(["coach(leaf=value,depth=2)", "coach"], 200 // k, STRENGTH_SEED + 3),
        match(["value", "strategic", "strategic"], 600 // k, STRENGTH_SEED + 4),
        match(["value", "strategic", "strategic", "strategic"], 800 // k, STRENGTH_SEED + 5),
    ]
    report["strength"] = rows
    from pinastats.game.game import Game
    from pinastats.simulation.play import play_game

    # time per decision of the two coaches on the same games' positions
    for name in ("coach", "coach(leaf=value,depth=2)"):
        from pinastats.agents.builtin import make_agent

        agent = make_agent(name)
        t = time.perf_counter()
        turns = 0
        for s in range(3):
            game = play_game(Game.new(seed=STRENGTH_SEED + s), [agent, agent], seed=s)
            turns += int(game.state.status[0]["turn"])
        per = (time.perf_counter() - t) / turns
        print(f"  {name}: {per * 1000:.0f} ms a turn ({load()})")
        report.setdefault("coach_turn_ms", {})[name] = per * 1000


def labelling(report: dict[str, Any]) -> None:
    from pinastats.game import GameConfig
    from pinastats.value.data import make_positions

    for players in (2, 3, 4):
        config = GameConfig(players=players)
        agents = ["strategic"] * players
        make_positions(agents, 2, config=config, playouts=2, policy="value", workers=1)  # compile
        rates = {}
        for policy in ("strategic", "value"):
            t = time.perf_counter()
            made = make_positions(agents, 24 // players, seed=11, config=config, sample=0.25,
                                  playouts=64, policy=policy, workers=1)  # fmt: skip
            rates[policy] = len(made) / (time.perf_counter() - t)
        ratio = rates["strategic"] / rates["value"]
        print(f"  {players} players: {rates['strategic']:.1f} positions/s by strategic play-outs, "
              f"{rates['value']:.2f} by value ({ratio:.0f}x slower; 64 play-outs a position, "
              f"one worker, {load()})", flush=True)  # fmt: skip
        report.setdefault("labelling", {})[players] = {**rates, "ratio": ratio}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--make", action="store_true")
    parser.add_argument("--positions", action="store_true")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--strength", action="store_true")
    parser.add_argument("--quick", action="store_true", help="a quarter of the games")
    parser.add_argument("--labelling", action="store_true")
    parser.add_argument("--agents", default=",".join(AGENTS).replace("coach(leaf=value,depth=2)",
                        "coach(leaf=value;depth=2)"))  # fmt: skip
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    report: dict[str, Any] = {}
    if args.make:
        from pinastats.value.benchmark import make_benchmark

        make_benchmark(POSITIONS)
    if args.positions:
        positions(report, [a.replace(";", ",") for a in args.agents.split(",")])
    if args.speed:
        speed(report)
    if args.strength:
        strength(report, args.quick)
    if args.labelling:
        labelling(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, default=str))


if __name__ == "__main__":
    main()
