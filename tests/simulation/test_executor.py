"""``simulate(executor=...)``: thread pools, process pools and Dask clients play the same games."""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import numpy as np
import pandas as pd
import pytest

from pinastats.agents import PythonAgent
from pinastats.errors import PinastatsError
from pinastats.game.game import Game
from pinastats.simulation import simulate
from pinastats.simulation.result import SimulationResult

AGENTS = ["ev", "strategic(line=4,block=2)", "greedy"]
GAMES, CHUNK, SEED = 700, 100, 13  # 7 chunks


def run(**options: Any) -> SimulationResult:
    return simulate(AGENTS, GAMES, seed=SEED, chunk_size=CHUNK, **options)


def same_games(a: SimulationResult, b: SimulationResult) -> None:
    pd.testing.assert_frame_equal(a.games, b.games)
    np.testing.assert_array_equal(a.owners, b.owners)


def test_a_thread_pool_and_a_dask_client_play_the_games_of_one_thread(
    dask_scheduler: str,
) -> None:
    distributed = pytest.importorskip("dask.distributed")
    one = run(workers=1)
    with ThreadPoolExecutor(2) as executor:
        threads = run(executor=executor)
        assert executor.submit(sum, [1, 2]).result() == 3  # the run leaves it open
    with distributed.Client(dask_scheduler) as client:
        dask = run(executor=client)
        assert client.submit(sum, [1, 2]).result() == 3
    same_games(one, threads)
    same_games(one, dask)
    assert (threads.engine, dask.engine) == ("ThreadPoolExecutor", "dask")
    assert 1 <= threads.workers <= 2
    assert 1 <= dask.workers <= 2


def test_a_process_pool_plays_the_same_games() -> None:
    one = run(workers=1)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as executor:
        processes = run(executor=executor)
    same_games(one, processes)
    assert (processes.engine, processes.workers) == ("ProcessPoolExecutor", 1)


def test_a_process_pool_refuses_what_it_cannot_pickle() -> None:
    class Local(PythonAgent):  # defined in a function: pickle cannot find it
        def choose_placement(
            self, game: Game, dice: Sequence[int], rng: np.random.Generator
        ) -> int:
            return game.legal_cells(dice)[0]

    with (
        ProcessPoolExecutor(1) as executor,
        pytest.raises(PinastatsError, match=r"cannot be pickled .*use a ThreadPoolExecutor"),
    ):
        simulate([Local(), "ev"], 10, executor=executor)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"executor": 4}, r"concurrent.futures.Executor .* got 4 \(type int\)"),
        ({"executor": ThreadPoolExecutor, "seed": 1}, r"got <class .*ThreadPoolExecutor'> \(type"),
        ({"workers": 2}, r"workers=2 and executor= both say who plays: .*leave workers out"),
        ({"workers": 1}, r"workers=1 and executor="),
        ({"engine": "dask"}, r"engine='dask' and executor="),
        ({"scheduler": "tcp://1.2.3.4:8786"}, r"scheduler='tcp://1.2.3.4:8786' and executor="),
    ],
)
def test_an_executor_is_refused_with_what_else_chooses_who_plays(
    options: dict[str, Any], match: str
) -> None:
    with ThreadPoolExecutor(1) as pool:
        options.setdefault("executor", pool)
        with pytest.raises(PinastatsError, match=match):
            simulate(["ev", "ev"], 10, **options)
