"""Perfect play as the yardstick: every agent's loss per decision, and its games against perfect.

    python benchmarks/perfect_yardstick.py --boards 20 --games 10 --out data/yardstick.json
    python benchmarks/perfect_yardstick.py --tokens 3 --boards 4 --games 4   # a quick look

Solves ``--boards`` boards dealt from ``--seed`` (one at a time, nothing kept on
disk), plays ``--games`` self-play games of each agent on each from its start,
grades every decision exactly (:func:`pinastats.records.yardstick.error_rates`),
then plays ``perfect`` against each of ``--opponents`` (``--h2h-games`` a board,
seats swapped every other game). Prints the tables with the load average, and
writes them with the command, seed and time to ``--out`` when given.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict

from pinastats.game import GameConfig, Rules
from pinastats.records.yardstick import error_rates, head_to_head

AGENTS = "random,greedy,ev,strategic,rollout,value,coach,coach(leaf=value,depth=2),perfect"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", default=AGENTS)
    parser.add_argument("--opponents", default="strategic,value,coach")
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--games", type=int, default=10, help="self-play games a board an agent")
    parser.add_argument("--h2h-games", type=int, default=20, help="games a board an opponent")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--tokens", type=int, default=6)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    config = GameConfig(players=2, rules=Rules(tokens=args.tokens))
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        print(f"  {done}/{total}", file=sys.stderr, flush=True)

    agents = [a for a in args.agents.split(",") if a]
    table = error_rates(agents, boards=args.boards, games=args.games, seed=args.seed,
                        config=config, progress=progress)  # fmt: skip
    print(f"Loss per decision against perfect play, thousandths of a win "
          f"[load {os.getloadavg()[0]:.2f}]")  # fmt: skip
    print(table.to_string(index=False, float_format=lambda x: f"{x:.2f}"))
    duels = []
    for o in filter(None, args.opponents.split(",")):
        duels.append(head_to_head(o, boards=args.boards, games=args.h2h_games, seed=args.seed,
                                  config=config, progress=progress))  # fmt: skip
    print(f"perfect against each opponent [load {os.getloadavg()[0]:.2f}]")
    for d in duels:
        print(f"  perfect vs {d.opponent}: {d.score:.1%} [{d.low:.1%}, {d.high:.1%}] over "
              f"{d.games} games (perfect vs perfect from the same seats: "
              f"{d.perfect_vs_perfect:.1%})")  # fmt: skip
    seconds = time.perf_counter() - started
    print(f"{seconds:.0f} s")
    if args.out:
        data = {
            "command": "python benchmarks/perfect_yardstick.py " + " ".join(sys.argv[1:]),
            "seed": args.seed, "boards": args.boards, "tokens": args.tokens,
            "seconds": round(seconds), "load": os.getloadavg()[0],
            "error_rates": table.to_dict("records"), "head_to_head": [asdict(d) for d in duels],
        }  # fmt: skip
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)


if __name__ == "__main__":
    main()
