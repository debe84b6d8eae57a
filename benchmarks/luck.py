"""Luck-adjusted, paired strength measurements (:mod:`pinastats.ratings.luck`).

    python benchmarks/luck.py --players 3 --games 2000 --seed 500000 --workers 2 --out luck-3p.json
    python benchmarks/luck.py --players 2 --evaluator exact --tokens 3 --board-seed 4 \
        --field value,strategic --games 2000 --seed 700000 --workers 2

Plays ``--field`` (default: ``value`` against ``strategic`` in every other seat),
every deal once per rotation of the field, and prints (and writes to ``--out``)
the raw and luck-adjusted shares of the first member with their 95% intervals
and the variance ratios, with the load average and the time taken.
``--evaluator exact`` solves one two-player board (``--board-seed``) and plays
every deal from it: the exact table values the luck.
"""

from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # small products: one BLAS thread a process

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from pinastats.game import Game, GameConfig, Rules  # noqa: E402
from pinastats.ratings.luck import luck_match  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Run one measurement and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--field", default=None, help="agents, comma-separated (member 0 measured)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=500_000)
    parser.add_argument("--margin", type=float, default=None)
    parser.add_argument("--evaluator", default="network", choices=("network", "exact"))
    parser.add_argument("--tokens", type=int, default=6)
    parser.add_argument(
        "--board-seed", type=int, default=None, help="play every deal from this board"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    field = (args.field or ",".join(["value"] + ["strategic"] * (args.players - 1))).split(",")
    config = GameConfig(players=len(field), rules=Rules(tokens=args.tokens))
    start = None
    started = time.perf_counter()
    if args.evaluator == "exact" or args.board_seed is not None:
        start = Game.new(config=config, seed=args.board_seed or 0)
        if args.evaluator == "exact":
            from pinastats.solve import solve

            solve(start)
    solved = time.perf_counter() - started
    result = luck_match(field, args.games, seed=args.seed, config=config, evaluator=args.evaluator,
                        margin=args.margin, start=start, workers=args.workers,
                        batch=args.batch)  # fmt: skip
    out = result.as_dict()
    out["command"] = "python benchmarks/luck.py " + " ".join(sys.argv[1:] if argv is None else argv)
    out["tokens"] = args.tokens
    out["board_seed"] = args.board_seed
    out["seconds"] = round(time.perf_counter() - started, 1)
    out["solve_seconds"] = round(solved, 1)
    out["loadavg"] = Path("/proc/loadavg").read_text().split()[:3]
    text = json.dumps(out, indent=1)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
