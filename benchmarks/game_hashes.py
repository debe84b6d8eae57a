"""Print fingerprints of simulated games: one per agent, player count and Happy Hour setting.

Run before and after a change to the engine that must not change the games::

    python benchmarks/game_hashes.py --games 10000

The fingerprint (:func:`tests.oracle.fingerprints.fingerprint`) hashes the whole
per-game table, so any difference in any game changes it; the test
``tests/oracle/test_game_fingerprints.py`` pins it at small sizes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: tests.oracle

from tests.oracle.fingerprints import AGENTS, fingerprint


def main() -> None:
    """Print one line per agent, player count and Happy Hour setting."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rollout-games", type=int, default=100)
    parser.add_argument("--agents", default=",".join(AGENTS))
    args = parser.parse_args()
    for agent in args.agents.split(","):
        n = args.rollout_games if agent == "rollout" else args.games
        for happy_hour in (False, True):
            for players in (2, 3, 4):
                print(
                    f"{agent:10s} players={players} happy_hour={int(happy_hour)} games={n:6d} "
                    f"{fingerprint(agent, players, n, happy_hour)}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
