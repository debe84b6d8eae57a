"""Benchmark the game review: the rating ladder, its checks and its speed.

    python benchmarks/bench_review.py --ladder network    # each built-in agent's error rate
    python benchmarks/bench_review.py --checks     # strategic vs ev, seeds, seat bias, luck
    python benchmarks/bench_review.py --speed      # one game with the network and with play-outs
    python benchmarks/bench_review.py --exact-speed   # one game graded exactly, board solved

Ladder: each agent plays ``strategic`` (random first seat) and only its own
decisions are reviewed, by the network (checked by play-outs) or by play-outs;
the reviewer never grades itself: ``value`` plays by the network, so only the
play-out reviewer grades it.
Checks: over ``GAMES`` recorded ``strategic`` vs ``ev`` games, the two seats'
error rates with a 95% interval of their difference (paired by game); the same
games reviewed with another seed (correlation of the per-game error rates,
marks on the decisions clear in both); ``strategic`` vs ``strategic`` (no seat
bias); the luck-adjusted results against the raw ones (mean, variance).
Exact speed: one two-player base board is solved first (its time printed), then
each of ``GAMES_EXACT`` recorded ``strategic`` vs ``ev`` games on it is reviewed
by the solved game and, as the baseline in the same run, by the network.
Seeds are apart from every other benchmark's. Nothing is asserted; ``--json``
writes every figure.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from typing import Any

import numpy as np

GAMES = 200
SEED = 5_151_000
GAMES_EXACT = 10
LADDER_GAMES = {"random": 60, "greedy": 60, "ev": 60, "strategic": 60, "value": 60, "coach": 30}


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def reviews(agents: list[str], games: int, seed: int, review_seed: int = 0,
            seats: list[int] | None = None, evaluator: str = "network") -> list[Any]:  # fmt: skip
    from pinastats.records import record_games
    from pinastats.records.review import review_game

    t = time.perf_counter()
    records = record_games(agents, games, seed=seed)
    played = time.perf_counter() - t
    t = time.perf_counter()
    out = [review_game(r, seed=review_seed, seats=seats, evaluator=evaluator) for r in records]
    took = time.perf_counter() - t
    print(f"  {' vs '.join(agents)}: {games} games played in {played:.0f} s, reviewed in "
          f"{took:.0f} s ({took / games:.2f} s a game, {load()})", flush=True)  # fmt: skip
    return out


def ladder(report: dict[str, Any], evaluator: str) -> None:
    from pinastats.records.review import agent_table

    print(f"ladder by {evaluator}: each agent against strategic, its own decisions reviewed")
    rows = []
    for k, (agent, games) in enumerate(LADDER_GAMES.items()):
        if agent == "value" and evaluator == "network":
            print("  value: not graded by the network it plays by")
            continue
        done = reviews([agent, "strategic"], games, SEED + 10 + k, seats=[0],
                       evaluator=evaluator)  # fmt: skip
        table = agent_table(done)
        rows.append(table[table["agent"] == agent].iloc[0].to_dict())
    for r in rows:
        print(
            f"  {r['agent']:10s} {r['error_rate']:6.1f} [{r['error_low']:5.1f}, "
            f"{r['error_high']:5.1f}] milli-wins over {r['unforced']} unforced decisions; "
            f"marks per 100: ?! {r['doubtful']:.1f}, ? {r['bad']:.1f}, ?? {r['very_bad']:.1f}"
        )
    print("LADDER = (" + ", ".join(f'("{r["agent"]}", {r["error_rate"]:.1f})' for r in rows) + ")")
    report.setdefault("ladder", {})[evaluator] = rows


def _per_game(done: list[Any], seat: int) -> np.ndarray:
    return np.array([r.summary(seat).error_rate for r in done])


def checks(report: dict[str, Any]) -> None:
    from pinastats.records.review import agent_table

    print(f"checks over {GAMES} games")
    first = reviews(["strategic", "ev"], GAMES, SEED + 1, review_seed=0)
    print(agent_table(first).to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    a, b = _per_game(first, 0), _per_game(first, 1)
    ok = ~np.isnan(a) & ~np.isnan(b)
    diff = b[ok] - a[ok]
    half = 1.96 * diff.std(ddof=1) / math.sqrt(len(diff))
    print(
        f"  ev - strategic error rate, paired by game: {diff.mean():.1f} "
        f"[{diff.mean() - half:.1f}, {diff.mean() + half:.1f}] milli-wins ({ok.sum()} games)"
    )
    report["strategic_vs_ev"] = {"difference": diff.mean(), "low": diff.mean() - half,
                                 "high": diff.mean() + half}  # fmt: skip
    second = reviews(["strategic", "ev"], GAMES, SEED + 1, review_seed=1)
    x = np.concatenate([_per_game(first, s) for s in (0, 1)])
    y = np.concatenate([_per_game(second, s) for s in (0, 1)])
    ok = ~np.isnan(x) & ~np.isnan(y)
    corr = float(np.corrcoef(x[ok], y[ok])[0, 1])
    both = same = 0
    for r1, r2 in zip(first, second, strict=True):
        for d1, d2 in zip(r1.decisions, r2.decisions, strict=True):
            if d1.clear and d2.clear and d1.checked and d2.checked:
                both += 1
                same += d1.mark == d2.mark
    print(
        f"  seeds 0 and 1: per-seat error rates correlate at {corr:.4f}; of {both} checked "
        f"decisions clear in both reviews, {same} have the same mark"
    )
    report["seeds"] = {"correlation": corr, "clear_in_both": both, "same_mark": same}
    results = np.array([r.result(0) for r in first])
    adjusted = np.array([r.result(0) - r.luck(0) for r in first])
    print(
        f"  seat 0 result: mean {results.mean():.3f}, variance {results.var(ddof=1):.4f}; "
        f"luck-adjusted: mean {adjusted.mean():.3f}, variance {adjusted.var(ddof=1):.4f} "
        f"({results.var(ddof=1) / adjusted.var(ddof=1):.1f}x lower)"
    )
    report["luck"] = {
        "mean": results.mean(),
        "variance": results.var(ddof=1),
        "adjusted_mean": adjusted.mean(),
        "adjusted_variance": adjusted.var(ddof=1),
    }
    same_agent = reviews(["strategic", "strategic"], GAMES, SEED + 2)
    rows = []
    for seat in (0, 1):
        from pinastats.records.review import error_rate

        losses = np.array([d.loss for r in same_agent for d in r.decisions
                           if d.seat == seat and not d.forced])  # fmt: skip
        rate, low, high = error_rate(losses)
        rows.append((rate, low, high))
        print(f"  strategic vs strategic, seat {seat}: {rate:.1f} [{low:.1f}, {high:.1f}]")
    report["seat_bias"] = rows


def speed(report: dict[str, Any]) -> None:
    from pinastats.records import record_games
    from pinastats.records.review import review_game

    records = record_games(["strategic", "ev"], 5, seed=SEED + 3)
    review_game(records[0])
    for evaluator, playouts in (("network", 400), ("playouts", 200)):
        times = []
        for r in records:
            t = time.perf_counter()
            review_game(r, evaluator=evaluator, playouts=playouts)
            times.append(time.perf_counter() - t)
        print(f"  one game reviewed with {evaluator} ({playouts} play-outs most): median "
              f"{np.median(times):.2f} s (min {min(times):.2f}, max {max(times):.2f}; "
              f"{load()})")  # fmt: skip
        report.setdefault("speed", {})[evaluator] = float(np.median(times))


def exact_speed(report: dict[str, Any]) -> None:
    from pinastats.agents import make_agent
    from pinastats.game import Game, GameConfig
    from pinastats.records import record_game
    from pinastats.records.review import review_game
    from pinastats.solve import solve

    game = Game.new(config=GameConfig(players=2), seed=SEED + 4)
    t = time.perf_counter()
    solve(game, store=False)
    solved = time.perf_counter() - t
    print(f"  board solved in {solved:.1f} s ({load()})", flush=True)
    agents = [make_agent("strategic"), make_agent("ev")]
    records = [record_game(game.config, agents, np.random.default_rng([SEED + 4, g]), start=game)
               for g in range(GAMES_EXACT)]  # fmt: skip
    review_game(records[0], evaluator="exact")  # compiled once
    review_game(records[0], evaluator="network")
    report["exact_speed"] = {"solve_seconds": solved, "games": GAMES_EXACT}
    for evaluator in ("exact", "network"):
        times = []
        for r in records:
            t = time.perf_counter()
            review = review_game(r, evaluator=evaluator)
            times.append(time.perf_counter() - t)
        turns = len(review.starts)
        print(f"  one game reviewed by {evaluator}: median {np.median(times):.3f} s "
              f"(min {min(times):.3f}, max {max(times):.3f}; last game {turns} turns; "
              f"{load()})", flush=True)  # fmt: skip
        report["exact_speed"][evaluator] = float(np.median(times))
    ratio = report["exact_speed"]["network"] / report["exact_speed"]["exact"]
    print(f"  the exact review takes 1/{ratio:.1f} of the network review's time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ladder", choices=("network", "playouts"), default=None,
                        help="the ladder by this reviewer")  # fmt: skip
    parser.add_argument("--checks", action="store_true")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--exact-speed", action="store_true")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    report: dict[str, Any] = {}
    if args.speed:
        speed(report)
    if args.exact_speed:
        exact_speed(report)
    if args.ladder:
        ladder(report, args.ladder)
    if args.checks:
        checks(report)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1, default=float)


if __name__ == "__main__":
    main()
