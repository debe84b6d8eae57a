"""The same seed gives the same games on 1 thread, 2 threads and a Dask cluster of 2 processes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pinastats.game.config import GameConfig
from pinastats.game.rules import Rules
from pinastats.simulation.plan import DEFAULT_CHUNK, ROLLOUT_CHUNK
from pinastats.simulation.result import SimulationResult
from pinastats.simulation.runner import simulate
from pinastats.simulation.stats import wilson_interval

GAMES, CHUNK = 2_000, 150  # 14 chunks, the last one short
AGENTS = ["ev", "greedy", "strategic(line=4,block=2)"]
CONFIG = GameConfig(players=3, rules=Rules(happy_hour=True))


def run(workers: int | None = None, scheduler: str | None = None) -> SimulationResult:
    return simulate(
        AGENTS,
        GAMES,
        seed=11,
        config=CONFIG,
        chunk_size=CHUNK,
        workers=workers,
        scheduler=scheduler,
    )


def test_one_thread_two_threads_and_dask_play_the_same_games(dask_scheduler: str) -> None:
    one = run(workers=1)
    two = run(workers=2)
    dask = run(scheduler=dask_scheduler)
    assert (one.engine, two.engine, dask.engine) == ("local", "local", "dask")
    assert dask.workers == 2
    pd.testing.assert_frame_equal(one.games, two.games)
    pd.testing.assert_frame_equal(one.games, dask.games)
    np.testing.assert_array_equal(one.owners, two.owners)
    np.testing.assert_array_equal(one.owners, dask.owners)
    # the table is complete and in game order
    assert one.games["game"].tolist() == list(range(GAMES))
    assert one.owners.shape == (GAMES, len(CONFIG.catalogue))


def test_another_seed_plays_other_games() -> None:
    a = simulate(["random", "random"], 200, seed=1, chunk_size=50, workers=1)
    b = simulate(["random", "random"], 200, seed=2, chunk_size=50, workers=1)
    assert not a.games.equals(b.games)


def test_the_first_seat_is_drawn_fairly_or_fixed() -> None:
    free = simulate(["random", "random", "random"], 1_500, seed=3, chunk_size=500, workers=2)
    counts = np.bincount(free.games["first_seat"], minlength=3)
    for k in counts:
        lo, hi = wilson_interval(int(k), 1_500, z=4.0)
        assert lo < 1 / 3 < hi
    fixed = simulate(["random", "random"], 100, seed=3, first_seat=1, workers=1)
    assert (fixed.games["first_seat"] == 1).all()


def test_dask_engine_starts_and_stops_its_own_cluster() -> None:
    pytest.importorskip("dask.distributed")
    local = simulate(["ev", "random"], 300, seed=9, chunk_size=100, workers=1)
    dask = simulate(["ev", "random"], 300, seed=9, chunk_size=100, workers=1, engine="dask")
    assert (dask.engine, dask.workers) == ("dask", 1)
    pd.testing.assert_frame_equal(local.games, dask.games)


def test_the_default_chunk_size_is_small_when_a_rollout_agent_plays() -> None:
    seats = ["rollout(rollouts=2,policy=ev)", "random"]
    games = ROLLOUT_CHUNK + 4  # two chunks: both workers play
    default = simulate(seats, games, seed=4, workers=2)
    assert (default.chunk_size, default.workers) == (ROLLOUT_CHUNK, 2)
    explicit = simulate(seats, games, seed=4, workers=1, chunk_size=ROLLOUT_CHUNK)
    pd.testing.assert_frame_equal(default.games, explicit.games)
    other = simulate(seats, games, seed=4, workers=1, chunk_size=DEFAULT_CHUNK)
    assert not other.games.equals(default.games)  # the chunk size is part of the games
    assert simulate(["ev", "random"], 10, seed=4, workers=1).chunk_size == DEFAULT_CHUNK
