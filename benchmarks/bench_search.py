"""The search over whole turns: its cost against ``value``, its error on solved boards, strength.

``python benchmarks/bench_search.py timing`` times one decision (a turn's
search, :meth:`SearchAgent.start_turn`) of ``search`` at each depth and
variant against ``value``'s (:meth:`Agent.start_turn`) on the same positions,
in the same run, and prints the ratio with the load average (a shared machine's
milliseconds are not a speed figure; the ratio is).

``python benchmarks/bench_search.py accuracy --boards 76,77`` values every way
each of ``--per-board`` turn starts can end on two-player solved boards (the
labelled positions of ``studies/perfect/labels``; each board solved in memory when
its table is not kept) exactly, by the network and by :func:`search_values`, and
prints the mean absolute error on a chance and on the difference from the exact
best way (the measure of :func:`pinastats.value.exact.decision_accuracy`).

``python benchmarks/bench_search.py strength --players 3 --games 300`` plays
one ``search`` seat and one ``value`` seat, each against ``strategic`` seats,
on the same seeds, and prints the win shares with 95% intervals (indicative:
a few hundred games resolve about ±5 points).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from pinastats.agents.builtin import make_agent
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.simulation.play import play_turn_fast

ROOT = Path(__file__).resolve().parent.parent


def _load() -> str:
    return open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"


def mid_game(players: int, seed: int, turns: int) -> Game:
    """The position after ``turns`` turns of ``strategic`` self-play from a dealt game."""
    game = Game.new(config=GameConfig(players=players), seed=seed)
    rng, agent = np.random.default_rng(seed), make_agent("strategic")
    for _ in range(turns):
        if game.is_over:
            break
        play_turn_fast(game, agent, rng)
    return game


def timing(args: argparse.Namespace) -> dict[str, object]:
    """Mean decision time of each search against ``value``'s, on the same positions."""
    out: dict[str, object] = {"load_before": _load()}
    for players in args.players:
        games = [mid_game(players, seed, turns) for seed in range(args.positions)
                 for turns in (0, 3 * players, 6 * players)]  # fmt: skip
        games = [g for g in games if not g.is_over]
        value = make_agent("value")
        for g in games[:1]:  # compile outside the clock
            value.start_turn(g)
        t0 = time.perf_counter()
        for _ in range(args.repeat):
            for g in games:
                value.start_turn(g)  # value solves its turn every time
        base = (time.perf_counter() - t0) / (args.repeat * len(games))
        rows = {"value_ms": 1000 * base}
        for spec in args.agents:
            agent = make_agent(spec)
            agent.start_turn(games[0])
            t0 = time.perf_counter()
            for _ in range(args.repeat):
                for g in games:
                    for entry in agent._scratch.values():  # forget the position searched
                        entry[1] = b""
                    agent.start_turn(g)
            took = (time.perf_counter() - t0) / (args.repeat * len(games))
            rows[spec] = {"ms": 1000 * took, "ratio": took / base}
        out[f"{players} players ({len(games)} positions)"] = rows
    out["load_after"] = _load()
    return out


def accuracy(args: argparse.Namespace) -> dict[str, object]:
    """Network and search against the exact values of every way a turn can end."""
    from pinastats.coach.outcomes import network_values, outcome_positions
    from pinastats.coach.search import search_values
    from pinastats.evaluation.exact import exact_values
    from pinastats.solve.table import cached, remember, solve
    from pinastats.value.exact import exact_positions

    positions = exact_positions(None, args.boards, labels=ROOT / "studies/perfect/labels")
    pick = np.random.default_rng(args.seed)
    names = ["network", *(f"search depth {d}" for d in args.depths)]
    chance: dict[str, list[float]] = {n: [] for n in names}
    diff: dict[str, list[float]] = {n: [] for n in names}
    loss: dict[str, list[float]] = {n: [] for n in names}
    seconds: dict[str, float] = dict.fromkeys(names, 0.0)
    boards = positions.game // 10**6
    decisions = 0
    for board in sorted(set(boards.tolist())):
        rows = np.flatnonzero(boards == board)
        take = sorted(pick.permutation(rows)[: args.per_board])
        first = Game.from_state(positions.config, positions.states.state(int(take[0])))
        remember(cached(first) or solve(first, store=False))
        for i in take:
            game = Game.from_state(positions.config, positions.states.state(int(i)))
            outcomes = outcome_positions(game)
            exact = exact_values(outcomes)
            best = int(np.argmax(exact))
            others = np.arange(len(exact)) != best
            open_ = np.isnan(outcomes.exact)
            decisions += 1
            for name in names:
                t0 = time.perf_counter()
                if name == "network":
                    w = network_values(outcomes)
                else:
                    w = search_values(outcomes, depth=int(name.split()[-1]))[:, outcomes.seat]
                seconds[name] += time.perf_counter() - t0
                chance[name] += np.abs(w - exact)[open_].tolist()
                loss[name].append(float(exact[best] - exact[int(np.argmax(w))]))
                if others.any():
                    gap = (w[others] - w[best]) - (exact[others] - exact[best])
                    diff[name].append(float(np.abs(gap).mean()))
    return {
        "boards": args.boards, "decisions": decisions, "seed": args.seed,
        "outcome_positions": len(chance["network"]),
        "load_after": _load(),
        **{name: {"chance_mae": float(np.mean(chance[name])),
                  "difference_error": float(np.mean(diff[name])),
                  "agree": float(np.mean(np.array(loss[name]) <= 1e-9)),
                  "loss_thousandths": 1000 * float(np.mean(loss[name])),
                  "ms_per_decision": 1000 * seconds[name] / max(decisions, 1)}
           for name in names},
    }  # fmt: skip


def strength(args: argparse.Namespace) -> dict[str, object]:
    """``search`` and ``value`` each in seat rotation against ``strategic``, on shared seeds."""
    from pinastats.simulation.play import play_turn

    out: dict[str, object] = {"load_before": _load(), "games": args.games}
    for spec in ["value", *args.agents]:
        wins = 0.0
        t0 = time.perf_counter()
        for k in range(args.games):
            seat = k % args.players
            config = GameConfig(players=args.players)
            game = Game.new(config=config, seed=10_000 + k // args.players)
            agents = [make_agent("strategic") for _ in range(args.players)]
            agents[seat] = make_agent(spec)
            rng = np.random.default_rng(20_000 + k)
            while not game.is_over:
                play_turn(game, agents[game.to_move], rng)
            winner = int(game.state.status[0]["winner"])
            wins += 1.0 if winner == seat else (0.5 if winner < 0 else 0.0)
        share = wins / args.games
        half = 1.96 * np.sqrt(share * (1 - share) / args.games)
        out[spec] = {"share": share, "interval": [share - half, share + half],
                     "seconds": time.perf_counter() - t0}  # fmt: skip
    out["load_after"] = _load()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    t = sub.add_parser("timing")
    t.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    t.add_argument("--positions", type=int, default=4)
    t.add_argument("--repeat", type=int, default=3)
    t.add_argument("--agents", nargs="+", default=["search(depth=1)", "search",
                   "search(variant=paranoid)", "search(variant=best-reply)"])  # fmt: skip
    a = sub.add_parser("accuracy")
    a.add_argument("--boards", type=lambda s: [int(x) for x in s.split(",")], default=[76, 77])
    a.add_argument("--per-board", type=int, default=100)
    a.add_argument("--depths", type=int, nargs="+", default=[2])
    a.add_argument("--seed", type=int, default=0)
    s = sub.add_parser("strength")
    s.add_argument("--players", type=int, default=3)
    s.add_argument("--games", type=int, default=300)
    s.add_argument("--agents", nargs="+", default=["search"])
    args = parser.parse_args()
    result = {"timing": timing, "accuracy": accuracy, "strength": strength}[args.what](args)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
