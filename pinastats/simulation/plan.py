"""A run planned: its settings checked, and its games cut into seeded chunks.

The run's seed feeds a ``numpy.random.SeedSequence`` whose ``spawn`` gives one
child per chunk of ``chunk_size`` games; chunk ``i`` always plays the same
games, whoever plays it. :func:`plan_run` is the one reading of a run's
arguments that :func:`~pinastats.simulation.simulate`, the recorded runs of
:mod:`pinastats.records` and the traced games of :mod:`pinastats.balance` share,
so that the same arguments give them the same chunks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from pinastats.agents.builtin import Agent, AgentKind, check_plays, is_built_in
from pinastats.agents.loading import resolve_agent
from pinastats.agents.protocol import AgentProtocol
from pinastats.errors import PinastatsError, expect_instance
from pinastats.game.config import GameConfig
from pinastats.simulation.chunk import ChunkSpec, plays_rollout
from pinastats.simulation.limits import check_run

DEFAULT_CHUNK = 500
"""Games per chunk, unless a ``rollout`` agent plays (a game then takes tens of milliseconds)."""
ROLLOUT_CHUNK = 16
"""Games per chunk with a ``rollout`` seat: a few dozen games keep every core busy."""
VALUE_CHUNK = 50
"""Games per chunk with a ``value`` seat (some hundreds of games a second)."""
COACH_CHUNK = 2
"""Games per chunk with a ``coach`` seat (a second or more a game): every core plays."""


def default_chunk_size(agents: Sequence[object]) -> int:
    """The chunk size of a run of ``agents`` when none is given.

    :data:`COACH_CHUNK` with a ``coach`` seat, :data:`ROLLOUT_CHUNK` with a
    ``rollout`` seat, :data:`VALUE_CHUNK` with a ``value`` seat, else
    :data:`DEFAULT_CHUNK`: small chunks where games are slow, so that a run of
    a few hundred games keeps every core busy. The chunk size is part of what
    a run's seed plays, like the agents.
    """
    if any(is_built_in(a) and not isinstance(a, Agent) for a in agents):  # the coach
        return COACH_CHUNK
    if plays_rollout(agents):
        return ROLLOUT_CHUNK
    if any(isinstance(a, Agent) and a.kind is AgentKind.VALUE for a in agents):
        return VALUE_CHUNK
    return DEFAULT_CHUNK


@dataclass(frozen=True)
class RunPlan:
    """A run's checked settings: who sits where, how many games, and how they are seeded.

    ``first_seat`` None draws the first player of each game. Made by :func:`plan_run`.
    """

    agents: tuple[AgentProtocol, ...]
    games: int
    seed: int
    config: GameConfig
    chunk_size: int
    first_seat: int | None

    def chunks(self) -> Iterator[ChunkSpec]:
        """The run's chunks in order, planned as they are consumed (constant memory).

        Chunk ``i`` holds games ``i * chunk_size`` onwards (the last one may be
        short) and gets the ``i``-th child of ``SeedSequence(seed)``: ``spawn``
        numbers its children in order, so spawning them one at a time gives the
        same children as ``spawn(n_chunks)`` at once.
        """
        root = np.random.SeedSequence(self.seed)
        size, first = self.chunk_size, -1 if self.first_seat is None else self.first_seat
        for i in range(-(-self.games // size)):
            (child,) = root.spawn(1)
            games = min(size, self.games - i * size)
            yield ChunkSpec(i, games, child, self.config, self.agents, first, i * size)


def plan_run(
    agents: Sequence[AgentProtocol | str],
    games: int,
    *,
    seed: int = 0,
    config: GameConfig | None = None,
    players: int | None = None,
    first_seat: int | None = None,
    chunk_size: int | None = None,
) -> RunPlan:
    """Check a run's arguments (as :func:`~pinastats.simulation.simulate` takes them); its plan.

    ``agents[p]`` sits in seat ``p`` (resolved by
    :func:`~pinastats.agents.loading.resolve_agent`); ``config`` defaults to the
    standard game for ``players`` (default: one per agent); ``chunk_size`` to
    :func:`default_chunk_size`.
    """
    seats = tuple(resolve_agent(a) for a in agents)
    if chunk_size is None:
        chunk_size = default_chunk_size(seats)
    if config is None:
        config = GameConfig(players=len(seats) if players is None else players)
    expect_instance(config, GameConfig, "config", "GameConfig(...)")
    if players is not None and players != config.players:
        raise PinastatsError(f"players={players} disagrees with the config's {config.players}")
    target = config.rules.target_score
    if int(config.start_scores.max()) >= target:
        raise PinastatsError(
            f"starting scores {tuple(int(x) for x in config.start_scores)}: each must be from "
            f"0 to {target - 1:,}, below the target score {target:,} (one at it ends every game "
            "in its first round; a position may start there, a run of games may not)"
        )
    games, seed, chunk_size = check_run(len(seats), games, seed, chunk_size, first_seat, config)
    for seat in seats:
        check_plays(seat, config)
    return RunPlan(seats, games, seed, config, chunk_size, first_seat)
