"""A local Dask cluster whose workers are killed again and again fails with one clear line.

A local cluster's nanny restarts each killed worker, so the cluster never runs out
of workers; the scheduler gives up on a chunk instead, after the workers playing it
died ``allowed-failures`` times, and its future raises ``KilledWorker``. That error
is played here by a stand-in client (no processes), through the command line.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest

from pinastats.simulation import cluster

distributed = pytest.importorskip("distributed")


class _Worker:
    address = "tcp://127.0.0.1:40001"


class _Future:
    def __init__(self, key: str) -> None:
        self.key = key

    def result(self, timeout: float | None = None) -> Any:
        raise distributed.KilledWorker(self.key, _Worker(), 3)


class _Done(NamedTuple):
    done: set[Any]
    not_done: set[Any]


class _Client:
    """What run_client asks of a client: two workers that load the engine, then every
    chunk's workers killed until the scheduler gives up on it."""

    def __init__(self) -> None:
        self.closed = False

    def wait_for_workers(self, n: int, timeout: float) -> None:
        pass

    def run(self, function: Callable[[], Any]) -> dict[str, Any]:
        return {"tcp://127.0.0.1:40001": True, "tcp://127.0.0.1:40002": True}

    def submit(self, function: Callable[..., Any], spec: Any, *args: Any, **options: Any) -> Any:
        return _Future(f"chunk-{spec.index}")

    def scheduler_info(self) -> dict[str, Any]:
        return {"workers": {"tcp://127.0.0.1:40001": {}}}  # restarted by its nanny

    def close(self) -> None:
        self.closed = True


def test_a_local_cluster_whose_workers_keep_dying_is_a_clean_error(
    cli: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    import dask.distributed

    client = _Client()
    monkeypatch.setattr(cluster, "_connect", lambda workers, scheduler, level: (client, None))
    monkeypatch.setattr(
        dask.distributed, "wait", lambda futures, **options: _Done({futures[0]}, set(futures[1:]))
    )  # the first chunk's future is the first to give up
    out = tmp_path / "games.csv"
    result = cli(
        "simulate", "--agents", "ev,greedy", "--games", "1000", "--chunk-size", "500",
        "--engine", "dask", "--workers", "2", "--worker-timeout", "10", "--no-progress",
        "--out", str(out),
    )  # fmt: skip
    line = result.one_error_line()  # exit 2, one line, no traceback
    assert "the local Dask cluster lost every worker that played games 0 to 499" in line
    assert "the run stopped after 0 of 1,000 games" in line
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []  # no file, no lock, no temporary left
    assert client.closed


def test_workers_lost_while_loading_the_engine_are_a_clean_error(
    cli: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _Client()

    def lost(function: Callable[[], Any]) -> dict[str, Any]:
        raise distributed.KilledWorker("warm", _Worker(), 3)

    monkeypatch.setattr(client, "run", lost)
    monkeypatch.setattr(cluster, "_connect", lambda workers, scheduler, level: (client, None))
    result = cli("simulate", "--agents", "ev,greedy", "--games", "100", "--engine", "dask",
                 "--workers", "2", "--no-progress")  # fmt: skip
    line = result.one_error_line()
    assert "lost its workers while they loaded the engine" in line


def _left_over_task(error: Exception) -> None:
    """A task that fails with ``error`` and is collected without anyone retrieving it."""

    async def fail() -> None:
        raise error

    loop = asyncio.new_event_loop()
    try:
        task = loop.create_task(fail())
        loop.run_until_complete(asyncio.sleep(0.01))  # it runs and fails
    finally:
        loop.close()
    del task
    gc.collect()  # asyncio reports it now


def test_dasks_left_over_waits_say_nothing_after_the_error(
    cli: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A gather that timed out leaves a task that raises Dask's ``AllExit`` once the workers
    are gone: asyncio printed "Task exception was never retrieved" and its traceback after
    the one-line error. Any other left-over error is still reported."""
    from distributed.client import AllExit

    client = _Client()
    monkeypatch.setattr(cluster, "_connect", lambda workers, scheduler, level: (client, None))
    import dask.distributed

    monkeypatch.setattr(
        dask.distributed, "wait", lambda futures, **options: _Done({futures[0]}, set(futures[1:]))
    )
    result = cli("simulate", "--agents", "ev,greedy", "--games", "100", "--engine", "dask",
                 "--workers", "2", "--no-progress")  # fmt: skip
    assert "lost every worker" in result.one_error_line()
    _left_over_task(AllExit())
    assert [r.getMessage() for r in caplog.records if r.name == "asyncio"] == []
    _left_over_task(ValueError("something else"))
    assert any("never retrieved" in r.getMessage() for r in caplog.records if r.name == "asyncio")
