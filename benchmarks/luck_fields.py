"""Three- and four-player field ratings (:func:`pinastats.ratings.fields.field_ladder`).

    python benchmarks/luck_fields.py --players 3 --games 3000 --seed 800000
    python benchmarks/luck_fields.py --players 4 --games 3000 --seed 800000

``--field`` names the agents (comma-separated; any agent name, one's own as
FILE.py:Class); prints each agent's Plackett–Luce rating with its 95% interval,
its games and its win share, best first, with the time and the load average.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from pinastats.ratings.fields import field_ladder

FIELD = "strategic,value,ev,greedy"


def main(argv: list[str] | None = None) -> int:
    """Rate one field and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--field", default=FIELD)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=800_000)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    ratings = field_ladder(args.field.split(","), args.players, args.games, seed=args.seed)
    out = {
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "ratings": [r.as_dict() for r in ratings],
        "seconds": round(time.perf_counter() - started, 1),
        "loadavg": Path("/proc/loadavg").read_text().split()[:3],
    }
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
