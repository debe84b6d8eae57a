"""Fingerprints of simulated games: one SHA-256 per agent, player count and Happy Hour setting.

Run before and after a change to the engine that must not change the games::

    python benchmarks/game_hashes.py --games 10000

The hash covers the whole per-game arrays (first seat, winner, end reason,
trigger, turns, winning line, scores, tokens placed, coaster owners), so any
difference in any game changes it.
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np

from pinastats.game.config import GameConfig
from pinastats.game.rules import Rules
from pinastats.simulation import simulate

AGENTS = ("random", "greedy", "ev", "strategic", "rollout")


CHUNK = 500
"""The chunk size of every fingerprint (the default of most runs; ``rollout`` runs default
to smaller chunks, which play other games): engines compare on the same games."""


def fingerprint(agent: str, players: int, games: int, happy_hour: bool) -> str:
    """SHA-256 of the per-game table of ``games`` self-play games (seed 1, chunks of 500)."""
    config = GameConfig(players=players, rules=Rules(happy_hour=happy_hour))
    seats = [agent] * players
    result = simulate(seats, games, seed=1, config=config, workers=1, chunk_size=CHUNK)
    digest = hashlib.sha256()
    frame = result.games
    for column in ("first_seat", "winner", "turns", "line"):
        digest.update(np.ascontiguousarray(frame[column].to_numpy(np.int64)).tobytes())
    for column in ("end_reason", "trigger"):
        digest.update(",".join(frame[column].astype(str)).encode())
    for s in range(players):
        for prefix in ("score_", "placed_"):
            digest.update(frame[f"{prefix}{s}"].to_numpy(np.int64).tobytes())
    digest.update(np.ascontiguousarray(result.owners).tobytes())
    return digest.hexdigest()[:16]


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
