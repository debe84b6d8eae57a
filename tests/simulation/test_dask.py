"""A Dask run survives a lost worker (same games) and fails clearly when every worker is gone.

The cluster is real: a scheduler in this process and two worker processes
started with ``dask worker`` (no nanny, so a killed worker stays dead).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest

from pinastats.errors import PinastatsError
from pinastats.simulation import progress, runner
from pinastats.simulation.result import SimulationResult

distributed = pytest.importorskip("dask.distributed")
pytestmark = pytest.mark.slow

AGENTS = ["ev", "greedy"]
GAMES, CHUNK, SEED = 3_000, 50, 21  # 60 chunks: many still to play when a worker dies


class Cluster:
    """A scheduler and two worker processes."""

    def __init__(self) -> None:
        self.scheduler = distributed.LocalCluster(
            n_workers=0, processes=True, dashboard_address=":0"
        )
        self.address: str = self.scheduler.scheduler_address
        self.workers = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "distributed.cli.dask_worker",
                    self.address,
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--no-dashboard",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(2)
        ]
        with distributed.Client(self.address) as client:
            client.wait_for_workers(2, timeout=120)

    def close(self) -> None:
        for worker in self.workers:
            worker.kill()
            worker.wait()
        self.scheduler.close()


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    c = Cluster()
    try:
        yield c
    finally:
        c.close()


def run_then(
    cluster: Cluster, action: Any, monkeypatch: pytest.MonkeyPatch, **options: Any
) -> SimulationResult | BaseException:
    """Run on ``cluster`` in a thread; call ``action()`` once the first chunk is in."""
    first_chunk = threading.Event()
    update = progress._Progress.update

    def counted(self: progress._Progress, games: int) -> None:
        update(self, games)
        first_chunk.set()

    monkeypatch.setattr(progress._Progress, "update", counted)
    outcome: list[SimulationResult | BaseException] = []

    def play() -> None:
        try:
            outcome.append(
                runner.simulate(
                    AGENTS,
                    GAMES,
                    seed=SEED,
                    chunk_size=CHUNK,
                    scheduler=cluster.address,
                    **options,
                )
            )
        except BaseException as exc:  # handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=play)
    thread.start()
    assert first_chunk.wait(timeout=300), "no chunk played"
    action()
    thread.join(timeout=120)  # a guard against a hang, not a timing check
    assert not thread.is_alive(), "the run hangs"
    return outcome[0]


def test_a_worker_lost_mid_run_changes_no_game(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    def kill_one() -> None:
        cluster.workers[0].send_signal(signal.SIGKILL)

    result = run_then(cluster, kill_one, monkeypatch)
    assert isinstance(result, SimulationResult), result
    assert cluster.workers[0].wait(timeout=30) == -signal.SIGKILL
    local = runner.simulate(AGENTS, GAMES, seed=SEED, chunk_size=CHUNK, workers=1)
    pd.testing.assert_frame_equal(result.games, local.games)
    assert result.engine == "dask"
    assert 1 <= result.workers <= 2  # the workers that played chunks


def test_no_worker_left_is_a_clear_error(cluster: Cluster, monkeypatch: pytest.MonkeyPatch) -> None:
    def kill_all() -> None:
        for worker in cluster.workers:
            worker.send_signal(signal.SIGKILL)

    error = run_then(cluster, kill_all, monkeypatch, worker_timeout=2.0)
    assert isinstance(error, PinastatsError), error
    text = str(error)
    assert cluster.address in text
    assert "no workers for 2 s" in text
    assert f"of {GAMES:,} games" in text
