"""One chunk of games: the unit of work shipped to a thread, a process or a Dask worker.

Built-in agents play a chunk in the chunk kernel (:func:`play_chunk`); any other
agent meeting :class:`~pinastats.agents.protocol.AgentProtocol` plays it turn by
turn in Python (:func:`run_python_chunk`), with the readable turn of
:func:`pinastats.simulation.play.play_turn`. :func:`run_chunk` picks the path.
The Python path deals and draws exactly as the kernel chunk does (one generator
per chunk, seeded by the chunk's ``SeedSequence``: ``_deal``, then
``_start_game`` when the first seat is fixed, then each turn's draws in the
order of :mod:`pinastats._engine.turn`), so a chunk of built-in agents gives
the same games on both paths, and a chunk gives the same games on any worker.

Each chunk of the Python path plays with its own copies of the agents
(``copy.deepcopy``), as a process of a Dask cluster does with the unpickled
agents it receives: an agent that keeps state between turns sees the games of
its chunk only, whichever worker plays it.

Speed: the Python path pays for each decision in Python. Measured on one
shared core (load average ~4-7 on 2 cores): 60-90 games/s of a trivial agent
(:class:`~pinastats.agents.protocol.PythonAgent`'s defaults in both seats, 2
players, ~23 turns a game), against ~2,800 games/s of the kernel chunk for
``greedy`` in the same conditions; an agent's own decisions come on top.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeGuard

import numpy as np

from pinastats import _engine as E
from pinastats import _signals
from pinastats._arrays import IntArray
from pinastats._engine import (
    SPACES,
    EndReason,
    StateBatch,
    empty_state,
    generator_rng,
    state_batch,
    turn_tables,
)
from pinastats.agents.builtin import Agent, AgentKind
from pinastats.agents.protocol import AgentProtocol
from pinastats.agents.tables import workspace
from pinastats.errors import AgentFailedError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.simulation.play import play_turn

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


class ChunkSetup(NamedTuple):
    """How each game of a chunk is set up (read by the chunk kernel)."""

    sides: IntArray  # (n_cells,) side of each cell at setup
    start_scores: IntArray  # (n_players,) scores in turn order
    tokens_each: int  # tokens in each reserve
    first_seat: int  # -1: the first player is drawn


class ChunkOutput(NamedTuple):
    """One row per game of a chunk (see :data:`CHUNK_FIELDS`)."""

    first: IntArray
    winner: IntArray
    reason: IntArray
    trigger: IntArray
    turns: IntArray
    line: IntArray
    scores: IntArray  # (games, players)
    placed: IntArray  # (games, players) tokens placed
    owners: IntArray  # (games, n_coasters) seats bitmask, -1 not dealt


class PlacementLog(NamedTuple):
    """Per game of a chunk: the deal and, per token space, the token on it at the end.

    With no row (``games == 0``) the chunk kernel logs nothing.
    """

    coaster: IntArray  # (games, n_cells) catalogue index dealt to each cell
    turn: IntArray  # (games, n_cells, 2) turn of the placement (0-based), -1: empty
    seat: IntArray  # (games, n_cells, 2) seat of the token, -1: empty
    points: IntArray  # (games, n_cells, 2) points the placement scored


class Snapshots(NamedTuple):
    """Room for the positions at the start of each turn of a chunk's games.

    With no room (``game`` empty) the chunk kernel keeps none. ``offered[0]`` is
    the number of positions offered: more than the room means some were lost.
    """

    states: StateBatch  # the positions kept, in order of play
    game: IntArray  # (room,) the chunk's game number (from 0) of each position
    offered: IntArray  # (1,) positions offered


def snapshots(room: int, config: GameConfig) -> Snapshots:
    """Room for ``room`` positions of games of ``config`` (0: keep none)."""
    return Snapshots(
        state_batch(room, config.layout.n_cells, config.players),
        np.zeros(room, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
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
    agents: tuple[AgentProtocol, ...]
    first_seat: int  # -1: random first player
    first_game: int = 0  # the run's number of the chunk's first game (from 0)


PlayChunk = Callable[[ChunkSpec], dict[str, Any]]
"""What plays a chunk: :func:`~pinastats.simulation.chunk.run_chunk`, or a function
that returns its arrays and more (see ``play_chunk`` in :func:`~pinastats.simulation.simulate`)."""
ChunkSink = Callable[[int, dict[str, Any]], dict[str, Any]]
"""Takes chunk ``i``'s arrays as they come; returns what the run keeps of them."""

_stop = threading.local()
"""The stop of the run whose chunk this thread plays (``event``; none: no stop)."""


class RunStoppedError(Exception):
    """A chunk given up because its run was stopped (Ctrl-C, SIGTERM, an error elsewhere)."""


@contextmanager
def stoppable(stop: threading.Event) -> Iterator[None]:
    """A chunk this thread plays in the block stops once ``stop`` is set (:class:`RunStoppedError`).

    The Python path checks it before every turn (:func:`check_stop`), so a stopped
    run does not wait for its threads to finish their chunks; the kernel chunk
    (built-in agents) is not stopped, it is short.
    """
    previous = getattr(_stop, "event", None)
    _stop.event = stop
    try:
        yield
    finally:
        _stop.event = previous


def check_stop() -> None:
    """Raise :class:`RunStoppedError` if the run of the chunk this thread plays was stopped.

    A Ctrl-C noted by :func:`pinastats._signals.held` is raised here too
    (:class:`~pinastats._signals.Signalled`): a chunk played in the main thread stops at its
    next turn.
    """
    _signals.check()
    stop: threading.Event | None = getattr(_stop, "event", None)
    if stop is not None and stop.is_set():
        raise RunStoppedError


def _built_in(agents: tuple[AgentProtocol, ...]) -> TypeGuard[tuple[Agent, ...]]:
    """Whether every seat is a built-in agent (the chunk then runs in the kernel)."""
    return all(isinstance(a, Agent) for a in agents)


def plays_rollout(agents: Sequence[object]) -> bool:
    """Whether a seat is a ``rollout`` agent (its game loop is a kernel of its own)."""
    return any(isinstance(a, Agent) and a.kind is AgentKind.ROLLOUT for a in agents)


def chunk_output(games: int, config: GameConfig) -> ChunkOutput:
    """Zeroed per-game arrays for ``games`` games of ``config``."""
    p = config.players

    def per_game() -> IntArray:
        return np.zeros(games, dtype=np.int64)

    return ChunkOutput(
        first=per_game(),
        winner=per_game(),
        reason=per_game(),
        trigger=per_game(),
        turns=per_game(),
        line=per_game(),
        scores=np.zeros((games, p), dtype=np.int64),
        placed=np.zeros((games, p), dtype=np.int64),
        owners=np.zeros((games, len(config.catalogue)), dtype=np.int64),
    )


def placement_log(games: int, n_cells: int) -> PlacementLog:
    """Zeroed placement log for ``games`` games on ``n_cells`` cells (0 games: no log)."""
    return PlacementLog(
        np.zeros((games, n_cells), dtype=np.int64),
        *(np.zeros((games, n_cells, SPACES), dtype=np.int64) for _ in range(3)),
    )


def play_chunk(
    spec: ChunkSpec, *, log: bool = False, snaps: Snapshots | None = None
) -> tuple[ChunkOutput, PlacementLog]:
    """Play the chunk's games with built-in agents in the chunk kernel.

    With ``log`` the placement log has a row per game, else none; ``snaps``
    (:func:`snapshots`) gets the position at the start of every turn while it
    has room. The games are the same either way.
    """
    agents = spec.agents
    if not _built_in(agents):
        raise TypeError("the chunk kernel plays built-in agents only")
    config = spec.config
    n_cells = config.layout.n_cells
    out = chunk_output(spec.games, config)
    placements = placement_log(spec.games if log else 0, n_cells)
    rollout = plays_rollout(agents)  # which game loop: see E.play_games
    E.play_games(
        config.board,
        empty_state(n_cells, config.players),
        turn_tables(config.rules.rolls),
        workspace(config, memo=rollout),
        np.array([a.code for a in agents], dtype=np.int64),
        np.stack([a.param_vector() for a in agents]),
        generator_rng(np.random.default_rng(spec.seed)),
        ChunkSetup(config.sides, config.start_scores, config.rules.tokens, spec.first_seat),
        out,
        placements,
        snapshots(0, config) if snaps is None else snaps,
        None if rollout else True,
        True if rollout else None,
    )
    return out, placements


def run_chunk(spec: ChunkSpec) -> dict[str, IntArray]:
    """Play the chunk's games; return the per-game arrays of :data:`CHUNK_FIELDS`.

    Built-in agents play in the chunk kernel; a chunk with any other agent plays
    turn by turn in Python (:func:`run_python_chunk`), the same games.
    """
    if not _built_in(spec.agents):
        return run_python_chunk(spec)
    return play_chunk(spec)[0]._asdict()


def run_python_chunk(spec: ChunkSpec) -> dict[str, IntArray]:
    """Play the chunk's games on the Python path; the per-game arrays of :data:`CHUNK_FIELDS`."""
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
        E.deal(rng, state, n_coasters, config.sides, config.start_scores, tokens)
        if spec.first_seat >= 0:
            E.start_game(state, spec.first_seat, config.start_scores, tokens)
        game = Game(config, state)
        try:
            while not game.is_over:
                check_stop()
                record = play_turn(game, agents[game.to_move], rng)
                if record.cell is not None:
                    out["placed"][g, record.player] += 1
        except AgentFailedError as error:
            raise error.in_game(spec.first_game + g + 1) from error.__cause__
        status = state.status[0]
        for name in ("first", "winner", "reason", "trigger"):
            out[name][g] = status[name]
        out["turns"][g] = status["turn"]
        winner = int(status["winner"])
        out["line"][g] = (
            E.winning_line(board, state, winner)
            if status["reason"] == EndReason.PINA_COLADICE
            else -1
        )
        out["scores"][g] = state.players["score"]
        for c in range(config.layout.n_cells):
            seats = state.spaces[c]
            out["owners"][g, state.cell_coaster[c]] = sum(1 << int(t) for t in seats if t >= 0)
    return out


def warm_up(*, rollout: bool = False) -> bool:
    """Compile (or load from the numba cache) the chunk kernel, ``rollout`` agents or not.

    Without ``rollout`` the game loop of the one-turn agents (``random`` to
    ``strategic``); with it, the loop of every agent, which also compiles the
    ``rollout`` agent's play-outs.
    """
    kinds = (
        (AgentKind.ROLLOUT, AgentKind.RANDOM) if rollout else (AgentKind.RANDOM, AgentKind.GREEDY)
    )
    agents = tuple(Agent(k) for k in kinds)
    run_chunk(ChunkSpec(0, 1, np.random.SeedSequence(0), GameConfig(players=2), agents, -1))
    return True
