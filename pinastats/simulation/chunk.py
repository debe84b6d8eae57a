"""One chunk of games: the unit of work shipped to a thread, a process or a Dask worker."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pinastats.agents.builtin import Agent
from pinastats.agents.tables import DEFAULT_ROLLS, turn_tables, workspace
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.simulation._kernels import _play_games

CHUNK_FIELDS = (
    "first",
    "winner",
    "reason",
    "trigger",
    "turns",
    "line",
    "scores",
    "placed",
    "owners",
)


@dataclass(frozen=True)
class ChunkSpec:
    """Everything needed to play one chunk reproducibly.

    ``seed`` is the chunk's own ``SeedSequence`` (spawned from the run's seed),
    so the games do not depend on which worker plays them.
    """

    index: int
    games: int
    seed: np.random.SeedSequence
    config: GameConfig
    agents: tuple[Agent, ...]
    first_seat: int  # -1: random first player


def run_chunk(spec: ChunkSpec) -> dict[str, npt.NDArray[np.int64]]:
    """Play the chunk's games; return the per-game arrays of :data:`CHUNK_FIELDS`."""
    config = spec.config
    n, p = spec.games, config.players
    out = {name: np.zeros(n, dtype=np.int64) for name in CHUNK_FIELDS[:6]}
    out["scores"] = np.zeros((n, p), dtype=np.int64)
    out["placed"] = np.zeros((n, p), dtype=np.int64)
    out["owners"] = np.zeros((n, len(config.catalogue)), dtype=np.int64)
    state = Game._empty_state(config)
    kinds = np.array([a.code for a in spec.agents], dtype=np.int64)
    params = np.stack([a.param_vector() for a in spec.agents])
    _play_games(
        config.board_arrays,
        state,
        turn_tables(),
        workspace(config.layout.n_cells),
        kinds,
        params,
        np.random.default_rng(spec.seed),
        spec.first_seat,
        config.sides,
        config.start_scores,
        config.rules.tokens,
        DEFAULT_ROLLS,
        *(out[name] for name in CHUNK_FIELDS),
    )
    return out


def warm_up() -> bool:
    """Compile (or load from the numba cache) every kernel a chunk needs."""
    from pinastats.agents.builtin import AgentKind

    agents = tuple(Agent(k) for k in AgentKind)[:2]
    run_chunk(ChunkSpec(0, 1, np.random.SeedSequence(0), GameConfig(players=2), agents, -1))
    return True
