"""Seat win rates under given starting scores: candidates, self-play counts and intervals.

A *starting-score vector* gives the scores at setup in turn order (seat 1 moves
first). The search of :mod:`pinastats.balance.search` compares such vectors by
the largest deviation of a seat's win rate from the fair share ``1/n``:

    D(v) = max_k |w_k / N - 1/n|

for ``w_k`` wins of the ``k``-th seat in turn order over ``N`` games.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
from scipy.stats import norm

from pinastats._arrays import IntArray
from pinastats.agents.loading import resolve_agent
from pinastats.dice.errors import at_least, at_least_or_none
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.rules import check_players as check_game_players
from pinastats.game.rules import players_text
from pinastats.simulation.runner import simulate
from pinastats.simulation.stats import Z95, wilson_interval

Scores = tuple[int, ...]
Play = Callable[[Scores, int, int], IntArray]
"""``play(starting_scores, games, seed)``: wins of each seat in turn order, ``(n,)`` ints.

The same seed must play the same games (common random numbers across vectors)."""


def check_players(players: object) -> int:
    """``players`` if it is a supported player count, else a :class:`PinastatsError` naming it."""
    if not isinstance(players, int):  # no whole floats here
        raise PinastatsError(f"players must be {players_text()}, got {players!r}")
    return check_game_players(players)


def rulebook_scores(players: int) -> Scores:
    """The rulebook's starting scores: 1, 2, ..., n in turn order."""
    return tuple(range(1, check_players(players) + 1))


def candidate_vectors(players: int, first: int = 1, spread: int = 4) -> list[Scores]:
    """Starting-score vectors: seat 1 on ``first``, later seats non-decreasing.

    Later seats lie in ``[first, first + spread]``: ``C(spread + n - 1, n - 1)``
    vectors, in lexical order.

    >>> candidate_vectors(2, spread=2)
    [(1, 1), (1, 2), (1, 3)]
    """
    check_players(players)
    first, spread = at_least(first, "first", 0), at_least(spread, "spread", 0)
    values = range(first, first + spread + 1)
    return [(first, *rest) for rest in itertools.combinations_with_replacement(values, players - 1)]


def round_seed(seed: int, round_index: int) -> int:
    """The seed of a search round: every vector plays round ``k`` with the same seed."""
    state = np.random.SeedSequence([seed, round_index]).generate_state(1, np.uint32)
    return int(state[0])


def joint_z(players: int, level: float = 0.95) -> float:
    """Bonferroni ``z`` for ``players`` two-sided intervals holding together at ``level``."""
    return float(norm.ppf(1 - (1 - level) / (2 * players)))


@dataclass(frozen=True)
class SeatCounts:
    """Wins of each seat (in turn order) over ``games`` games of one starting-score vector."""

    starting_scores: Scores
    games: int
    wins: tuple[int, ...]

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.starting_scores)

    def add(self, games: int, wins: IntArray) -> SeatCounts:
        """These counts with ``games`` more games and their ``wins``."""
        more = tuple(int(w) for w in wins)
        if len(more) != self.players or sum(more) > games or min(more) < 0:
            raise PinastatsError(f"{games} games cannot have seat wins {list(more)}")
        total = tuple(a + b for a, b in zip(self.wins, more, strict=True))
        return SeatCounts(self.starting_scores, self.games + games, total)

    @property
    def rates(self) -> tuple[float, ...]:
        """Win rate of each seat (NaN before any game)."""
        return tuple(w / self.games if self.games else math.nan for w in self.wins)

    def intervals(self, z: float = Z95) -> tuple[tuple[float, float], ...]:
        """Wilson interval of each seat's win rate (95% by default)."""
        return tuple(wilson_interval(w, self.games, z) for w in self.wins)

    @property
    def deviation(self) -> float:
        """``D``: the largest |seat win rate - 1/n|."""
        fair = 1 / self.players
        return max(abs(r - fair) for r in self.rates)

    def deviation_interval(self) -> tuple[float, float]:
        """An interval for ``D`` from the seats' Wilson intervals, jointly 95% (Bonferroni).

        If every seat's rate lies in its interval, ``D`` lies between the largest
        distance from ``1/n`` to an interval (0 if it holds ``1/n``) and the largest
        distance from ``1/n`` to an interval's far end.
        """
        if not self.games:
            return (0.0, 1.0)
        fair = 1 / self.players
        near, far = 0.0, 0.0
        for lo, hi in self.intervals(joint_z(self.players)):
            near = max(near, lo - fair, fair - hi)
            far = max(far, abs(lo - fair), abs(hi - fair))
        return (max(near, 0.0), far)


@dataclass(frozen=True)
class SelfPlay:
    """:data:`Play` by simulation: ``agent`` in every seat, seat 1 moving first.

    ``agent`` is a built-in agent's name or one's own (``FILE.py:Class``, ``module:Class``),
    resolved as :func:`~pinastats.simulation.simulate` does; one's own plays in Python.
    ``config`` gives the catalogue, layout and rules (its starting scores are
    replaced by each vector tried); ``workers`` and ``chunk_size`` go to
    :func:`~pinastats.simulation.simulate` (the games do not depend on ``workers``).
    """

    players: int
    agent: str = "strategic"
    config: GameConfig | None = None
    workers: int | None = None
    chunk_size: int = 500

    def __post_init__(self) -> None:
        check_players(self.players)
        resolve_agent(self.agent)  # unknown names fail here, with a suggestion
        at_least_or_none(self.workers, "workers", 1)
        at_least(self.chunk_size, "chunk size", 1)
        if self.config is not None and self.config.players != self.players:
            raise PinastatsError(
                f"players={self.players} disagrees with the config's {self.config.players}"
            )

    def __call__(self, starting_scores: Scores, games: int, seed: int) -> IntArray:
        """Wins of each seat in turn order over ``games`` games."""
        base = self.config or GameConfig(players=self.players)
        config = replace(base, starting_scores=tuple(starting_scores))
        result = simulate(
            [self.agent] * self.players,
            games,
            seed=seed,
            config=config,
            first_seat=0,
            workers=self.workers,
            chunk_size=self.chunk_size,
        )
        winners = result.games["winner"].to_numpy()
        return np.bincount(winners[winners >= 0], minlength=self.players).astype(np.int64)
