"""Simulated games with a placement log: when each token was placed, by whom, for how much.

The per-game table of :func:`~pinastats.simulation.simulate` says which seats
hold each coaster at the end (``owners``), not when they took it.
:func:`play_traced` plays the very same games — the run's chunks and their
seeds — with the chunk kernel's placement log on: for every token space, the
turn its token was placed, the seat and the points that placement scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pinastats._arrays import IntArray
from pinastats.agents.builtin import Agent, AgentKind
from pinastats.agents.loading import resolve_agent
from pinastats.agents.protocol import AgentProtocol
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.rules import EndReason
from pinastats.simulation.chunk import PlacementLog, play_chunk
from pinastats.simulation.plan import plan_run

PLACEMENT_COLUMNS = (
    "game",
    "turn",
    "round",
    "seat",
    "position",
    "cell",
    "space",
    "coaster",
    "points",
)
"""Columns of :attr:`TracedGames.placements` (``coaster`` is the catalogue index)."""


@dataclass(frozen=True)
class TracedGames:
    """Games with their placements.

    Attributes:
        games: one row per game: ``game``, ``first_seat``, ``winner`` (-1: none),
            ``end_reason``, ``turns``, ``rounds``, ``score_<s>`` per seat.
        placements: one row per token placed: ``game``, ``turn`` (0-based turn of
            the game), ``round`` (1-based), ``seat``, ``position`` (1 = first in
            turn order), ``cell``, ``space`` (0 or 1), ``coaster`` (catalogue
            index) and ``points`` (the mover's score after the turn minus before).
        owners: ``(games, n_coasters)`` seat bitmask per catalogue coaster at the
            end, -1 where it was not dealt (as :attr:`SimulationResult.owners`).
        config, agents, seed: how they were played.
    """

    games: pd.DataFrame
    placements: pd.DataFrame
    owners: IntArray
    config: GameConfig
    agents: tuple[Agent, ...]
    seed: int


def _placements(log: PlacementLog, first: IntArray, players: int, offset: int) -> pd.DataFrame:
    """The log of one chunk as placement rows (see :data:`PLACEMENT_COLUMNS`)."""
    g, cell, space = np.nonzero(log.turn >= 0)
    turn, seat = log.turn[g, cell, space], log.seat[g, cell, space]
    return pd.DataFrame(
        {
            "game": g + offset,
            "turn": turn,
            "round": turn // players + 1,
            "seat": seat,
            "position": (seat - first[g]) % players + 1,
            "cell": cell,
            "space": space,
            "coaster": log.coaster[g, cell],
            "points": log.points[g, cell, space],
        }
    )


def play_traced(
    agents: Sequence[AgentProtocol | str],
    games: int,
    *,
    seed: int = 0,
    config: GameConfig | None = None,
    first_seat: int | None = None,
    chunk_size: int | None = None,
) -> TracedGames:
    """Play the games ``simulate(agents, games, seed=, config=, first_seat=)`` plays, traced.

    Same seed, chunk size and config: same games as :func:`simulate` (its winners,
    scores and owners), with every placement recorded. Kernel agents only (not ``coach``
    nor one's own: they play in Python, without the placement log).
    """
    resolved = tuple(resolve_agent(a) for a in agents)
    seats = tuple(a for a in resolved if isinstance(a, Agent))
    if len(seats) < len(resolved):
        own = next(a for a in resolved if not isinstance(a, Agent))
        raise PinastatsError(
            "traced games are played in the chunk kernel, which logs each placement, by its "
            f"agents only ({', '.join(k.value for k in AgentKind)}); {own.name!r} plays in Python"
        )
    plan = plan_run(
        seats, games, seed=seed, config=config, first_seat=first_seat, chunk_size=chunk_size
    )
    games, seed, config, chunk_size = plan.games, plan.seed, plan.config, plan.chunk_size
    outs, logs = [], []
    for spec in plan.chunks():
        out, log = play_chunk(spec, log=True)
        outs.append(out)
        logs.append(_placements(log, out.first, config.players, spec.index * chunk_size))
    first = np.concatenate([o.first for o in outs])
    turns = np.concatenate([o.turns for o in outs])
    table = pd.DataFrame(
        {
            "game": np.arange(games),
            "first_seat": first,
            "winner": np.concatenate([o.winner for o in outs]),
            "end_reason": pd.Categorical.from_codes(
                np.concatenate([o.reason for o in outs]) - 1,
                categories=pd.Index(
                    [r.name.lower() for r in EndReason if r is not EndReason.ONGOING]
                ),
            ),
            "turns": turns,
            "rounds": -(-turns // config.players),
        }
    )
    scores = np.concatenate([o.scores for o in outs])
    for s in range(config.players):
        table[f"score_{s}"] = scores[:, s]
    placements = pd.concat(logs, ignore_index=True)
    placements = placements.sort_values(["game", "turn", "cell", "space"], ignore_index=True)
    owners = np.concatenate([o.owners for o in outs])
    return TracedGames(table, placements, owners, config, seats, seed)
