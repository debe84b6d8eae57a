"""Benchmark the fair-starting-score search for 2, 3 and 4 players.

    python benchmarks/bench_balance.py                      # budget 40,000 games a count
    python benchmarks/bench_balance.py --budget 100000 --first-round 2000

For each player count, ``search_starting_scores`` (strategic self-play, the
default candidates) runs at the stated budget on ``--workers`` threads, after a
warm-up that loads the kernels. Printed per player count: the games the search
played and its rounds, wall and CPU seconds (``time.process_time`` over every
thread), the 1-minute load average before and after, and the result: the
rulebook's and the fairest vector with each seat's win rate and 95% interval and
``D`` (the largest |seat win rate − 1/n|) with its jointly-95% interval. On a
shared machine the wall time depends on the others, the CPU time much less.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import time

from pinastats.balance import SearchResult, search_starting_scores
from pinastats.balance.search import Candidate


def load() -> float:
    """The 1-minute load average now."""
    return os.getloadavg()[0]


def vector_line(role: str, cand: Candidate) -> str:
    """One vector: seat rates with their intervals, then ``D`` with its interval."""
    c = cand.counts
    seats = "  ".join(
        f"{r:.1%} [{lo:.1%}, {hi:.1%}]" for r, (lo, hi) in zip(c.rates, c.intervals(), strict=True)
    )
    lo, hi = c.deviation_interval()
    return (
        f"  {role:<9} {c.starting_scores!s:<14} {c.games:>7,} games  seats {seats}  "
        f"D {c.deviation:.2%} [{lo:.2%}, {hi:.2%}]"
    )


def report(result: SearchResult, wall: float, cpu: float, before: float, after: float) -> str:
    """The lines of one player count."""
    head = (
        f"{result.players} players: {result.games:,} games in {result.rounds} round(s), "
        f"{len(result.candidates)} vectors; wall {wall:.1f} s, CPU {cpu:.1f} s "
        f"({result.games / wall:,.0f} games/s wall); load {before:.2f} -> {after:.2f}"
    )
    precise = "yes" if result.within_precision else "no"
    return "\n".join([
        head,
        vector_line("rulebook", result.rulebook),
        vector_line("fairest", result.fairest),
        f"  every seat's interval under the fairest holds 1/n: {precise}",
    ])  # fmt: skip


def main() -> None:
    """Parse the options, warm up, run the three searches, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=int, default=40_000, help="games per player count")
    parser.add_argument("--first-round", type=int, default=1_000, help="games per vector, round 0")
    parser.add_argument("--workers", type=int, default=2, help="threads (default 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agent", default="strategic")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args()
    print(
        f"search_starting_scores: budget {args.budget:,}, first round {args.first_round:,}, "
        f"{args.agent} self-play, {args.workers} workers, seed {args.seed}; "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()}"
    )
    for p in args.players:  # warm-up: kernels loaded (or compiled) outside the timing
        rulebook = [tuple(range(1, p + 1))]
        search_starting_scores(p, agent=args.agent, budget=20 * p, first_round=10, seed=1,
                               workers=args.workers, candidates=rulebook)  # fmt: skip
    for p in args.players:
        before, t0, c0 = load(), time.perf_counter(), time.process_time()
        result = search_starting_scores(
            p, agent=args.agent, budget=args.budget, first_round=args.first_round,
            seed=args.seed, workers=args.workers,
        )  # fmt: skip
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(report(result, wall, cpu, before, load()), flush=True)


if __name__ == "__main__":
    main()
