"""Fingerprints of simulated games: one SHA-256 per agent, player count and Happy Hour setting.

The hash covers the whole per-game arrays (first seat, winner, end reason,
trigger, turns, winning line, scores, tokens placed, coaster owners), so any
difference in any game changes it. ``benchmarks/game_hashes.py`` prints them at
large sizes; ``tests/oracle/test_game_fingerprints.py`` pins them at small ones.
"""

from __future__ import annotations

import hashlib

import numpy as np

from pinastats.game.config import GameConfig
from pinastats.game.rules import Rules
from pinastats.simulation import simulate

AGENTS = ("random", "greedy", "ev", "strategic", "rollout")
"""The agents fingerprinted, each in every seat."""

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
