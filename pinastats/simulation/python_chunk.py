"""A chunk of games played turn by turn in Python, for agents that are not built-in.

:func:`run_python_chunk` plays what :func:`pinastats._engine.loop._play_games`
plays, with the readable turn of :func:`pinastats.simulation.play.play_turn`
and any agents meeting :class:`~pinastats.agents.protocol.AgentProtocol`. It
deals and draws exactly as the kernel chunk does (one generator per chunk,
seeded by the chunk's ``SeedSequence``: ``_deal``, then ``_start_game`` when the
first seat is fixed, then each turn's draws in the order of
:mod:`pinastats._engine.turn`), so a chunk of built-in agents gives the same
games on both paths, and a chunk gives the same games on any worker.

Each chunk plays with its own copies of the agents (``copy.deepcopy``), as a
process of a Dask cluster does with the unpickled agents it receives: an agent
that keeps state between turns sees the games of its chunk only, whichever
worker plays it.

Speed: the Python path pays for each decision in Python. Measured on one
shared core (load average ~4-7 on 2 cores): 60-90 games/s of a trivial agent
(:class:`~pinastats.agents.protocol.PythonAgent`'s defaults in both seats, 2
players, ~23 turns a game), against ~2,800 games/s of the kernel chunk for
``greedy`` in the same conditions; an agent's own decisions come on top.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from pinastats._engine import rules as K
from pinastats._engine.state import empty_state
from pinastats.game.game import Game
from pinastats.simulation.play import play_turn

IntArray = npt.NDArray[np.int64]

if TYPE_CHECKING:
    from pinastats.simulation.chunk import ChunkSpec


def run_python_chunk(spec: ChunkSpec) -> dict[str, IntArray]:
    """Play the chunk's games on the Python path; the per-game arrays of ``CHUNK_FIELDS``."""
    from pinastats.simulation.chunk import chunk_output

    config = spec.config
    n, p = spec.games, config.players
    n_coasters = len(config.catalogue)
    out: dict[str, IntArray] = chunk_output(n, config)._asdict()
    out["owners"][:] = -1  # coasters not dealt
    agents = copy.deepcopy(spec.agents)
    rng = np.random.default_rng(spec.seed)
    tokens = config.rules.tokens
    board = config.board
    for g in range(n):
        state = empty_state(config.layout.n_cells, p)
        K._deal(rng, state, n_coasters, config.sides, config.start_scores, tokens)
        if spec.first_seat >= 0:
            K._start_game(state, spec.first_seat, config.start_scores, tokens)
        game = Game(config, state)
        while not game.is_over:
            record = play_turn(game, agents[game.to_move], rng)
            if record.cell is not None:
                out["placed"][g, record.player] += 1
        status = state.status[0]
        for name in ("first", "winner", "reason", "trigger"):
            out[name][g] = status[name]
        out["turns"][g] = status["turn"]
        winner = int(status["winner"])
        out["line"][g] = (
            K._winning_line(board, state, winner) if status["reason"] == K._PINA else -1
        )
        out["scores"][g] = state.players["score"]
        for c in range(config.layout.n_cells):
            seats = state.spaces[c]
            out["owners"][g, state.cell_coaster[c]] = sum(1 << int(t) for t in seats if t >= 0)
    return out
