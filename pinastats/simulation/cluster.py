"""Chunks on a Dask cluster: a local one, one at a scheduler's address, or a client's.

The workers load the engine first; at most 4 chunks per worker are in flight,
gathered as they finish and put back in chunk order. A worker lost mid-run has
its chunks played again elsewhere (the same games: each chunk has its seed).
"""

from __future__ import annotations

import itertools
import logging
import os
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from pinastats import _signals
from pinastats.errors import PinastatsError
from pinastats.simulation.chunk import ChunkSink, ChunkSpec, PlayChunk
from pinastats.simulation.progress import _Progress

if TYPE_CHECKING:
    from distributed import Client

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a Dask scheduler before giving up."""
WORKER_TIMEOUT = 60.0
"""Seconds a Dask run waits with no worker in the cluster before it fails."""
POLL = 0.5
"""Seconds between two looks at a Dask cluster's workers while waiting for chunks."""
DASK_LOG = "PINASTATS_DASK_LOG"
"""Environment variable: the least level of Dask's own log lines shown on stderr.

By default (``critical``) a run of pinastats's own shows none: a lost worker is
reported in pinastats's words, not in tracebacks of the cluster's processes.
"""
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
"""The values of :data:`DASK_LOG`."""


def dask_log_level() -> int:
    """The level of :data:`DASK_LOG` (default ``critical``); a bad value is refused."""
    text = os.environ.get(DASK_LOG, "critical").strip().lower()
    if text not in LOG_LEVELS:
        raise PinastatsError(
            f"{DASK_LOG} must be one of {', '.join(LOG_LEVELS)}, got {os.environ[DASK_LOG]!r}"
        )
    level: int = getattr(logging, text.upper())
    return level


@contextmanager
def _dask_logs(level: int) -> Iterator[None]:
    """In the block, Dask's log handlers on stderr show lines of ``level`` and above only."""
    changed = [
        (handler, handler.level)
        for name in ("distributed", "tornado", "bokeh")
        for handler in logging.getLogger(name).handlers
        if isinstance(handler, logging.StreamHandler)
    ]
    for handler, _ in changed:
        handler.setLevel(level)
    try:
        yield
    finally:
        for handler, old in changed:
            handler.setLevel(old)


class _LeftOverAllExit(logging.Filter):
    """Drops asyncio's "Task exception was never retrieved" about Dask's own ``AllExit``.

    ``future.result(timeout=...)`` gathers through tasks that raise
    ``distributed.client.AllExit`` to stop waiting early; one left behind by a wait
    that timed out raises it once its chunk's workers are lost, and asyncio reports
    it, traceback and all, when the task is collected: after pinastats's own
    one-line error. It is Dask's control flow, not an error: nothing is lost.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """False for that report only."""
        exc = record.exc_info[1] if record.exc_info else None
        return not (
            exc is not None
            and type(exc).__name__ == "AllExit"
            and type(exc).__module__.startswith("distributed")
        )


_LEFT_OVER = _LeftOverAllExit()


def quiet_left_over_tasks() -> None:
    """Install :class:`_LeftOverAllExit` on asyncio's logger, once.

    It stays: the report comes when the task is collected, perhaps after the run.
    """
    log = logging.getLogger("asyncio")
    if _LEFT_OVER not in log.filters:
        log.addFilter(_LEFT_OVER)


def _played_on_dask(spec: ChunkSpec, play: PlayChunk) -> tuple[str, dict[str, Any]]:
    """A Dask task: the chunk's arrays and the address of the worker that played it."""
    from dask.distributed import get_worker

    return get_worker().address, play(spec)


def _import_dask() -> None:
    """Import ``dask.distributed`` (which sets up its log handlers), or say what to install."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise PinastatsError(
            "the Dask engine needs the extra: pip install 'pinastats[dask]'"
        ) from exc


def _connect(workers: int, scheduler: str | None, log_level: int) -> tuple[Any, Any]:
    """A Dask client, and the local cluster it runs on (None with ``scheduler``).

    The local cluster's processes log at ``log_level`` and above only.
    """
    from dask.distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            return Client(scheduler, timeout=CONNECT_TIMEOUT), None
        except OSError as exc:
            raise PinastatsError(
                f"cannot reach the Dask scheduler at {scheduler!r}: {exc}"
            ) from None
        except (ValueError, TypeError) as exc:  # e.g. no port, unknown protocol
            raise PinastatsError(f"bad Dask scheduler address {scheduler!r}: {exc}") from None
    # No dashboard is asked for: its HTTP server (which the scheduler starts anyway)
    # takes a free port chosen by the system (":0"), so no port is ever in use,
    # retried and left open, and nothing is said about it.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Port .* is already in use", UserWarning)
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            worker_dashboard_address=None,
            silence_logs=log_level,
        )
    return Client(cluster), cluster


def run_dask(
    specs: Iterator[ChunkSpec],
    workers: int,
    scheduler: str | None,
    bar: _Progress,
    worker_timeout: float,
    play: PlayChunk,
    sink: ChunkSink,
    warm: Callable[[], bool],
) -> tuple[list[dict[str, Any]], int]:
    """Play the chunks on a local Dask cluster of ``workers`` processes, or at ``scheduler``.

    As :func:`run_client`; the client and the local cluster are closed at the end.
    Dask's own log lines (a lost worker's tracebacks, ...) are not shown unless
    :data:`DASK_LOG` asks for them: pinastats says what went wrong in its words.
    """
    with dask_client(workers, scheduler) as (client, where):
        return run_client(specs, client, where, bar, worker_timeout, play, sink, warm)


@contextmanager
def dask_client(workers: int, scheduler: str | None) -> Iterator[tuple[Client, str]]:
    """A Dask client, and how errors name it: at ``scheduler``, else a local cluster.

    The local cluster has ``workers`` processes of one thread each. Dask's own log
    lines are shown from :data:`DASK_LOG`'s level only, in the block; the client
    and the local cluster are closed at its end. A missing Dask or an unreachable
    scheduler is one :class:`~pinastats.errors.PinastatsError`.
    """
    level = dask_log_level()
    _import_dask()
    with _dask_logs(level):
        client, cluster = _connect(workers, scheduler, level)
        where = f"the Dask scheduler at {scheduler}" if scheduler else "the local Dask cluster"
        try:
            yield client, where
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def _killed(where: str, spec: ChunkSpec, bar: _Progress) -> str:
    """The error of a chunk whose workers all died while playing it (Dask's ``KilledWorker``)."""
    last = spec.first_game + spec.games - 1
    return (
        f"{where} lost every worker that played games {spec.first_game:,} to {last:,} "
        "(killed while playing them, as many times as Dask allows); the run stopped "
        f"after {bar.done:,} of {bar.total:,} games"
    )


def run_client(
    specs: Iterator[ChunkSpec],
    client: Client,
    where: str,
    bar: _Progress,
    worker_timeout: float,
    play: PlayChunk,
    sink: ChunkSink,
    warm: Callable[[], bool],
) -> tuple[list[dict[str, Any]], int]:
    """Play the chunks through a Dask client; the parts in chunk order and the workers that ran.

    At most 4 chunks per worker are in flight. A worker lost mid-run has its
    chunks played again elsewhere (the same games: each chunk has its seed);
    with no worker at all for ``worker_timeout`` seconds the run fails, and so it
    does when a chunk's workers keep dying until Dask gives up on it
    (``KilledWorker``: a local cluster's nanny restarts its killed workers, so its
    workers are never all gone).
    """
    from dask.distributed import wait
    from distributed import KilledWorker

    quiet_left_over_tasks()
    try:
        client.wait_for_workers(1, timeout=worker_timeout)
    except TimeoutError:
        raise PinastatsError(f"{where} has no workers (waited {worker_timeout:g} s)") from None
    try:
        n_workers = len(client.run(warm))
    except (KilledWorker, OSError) as exc:  # every worker lost while it loaded the engine
        raise PinastatsError(
            f"{where} lost its workers while they loaded the engine ({type(exc).__name__}); "
            "the run stopped before any game"
        ) from None
    bar.begin()
    window = 4 * max(n_workers, 1)
    pending: dict[Any, ChunkSpec] = {}
    parts: dict[int, dict[str, Any]] = {}
    ran_on: set[str] = set()
    last_seen = time.monotonic()
    todo = iter(specs)
    while True:
        _signals.check()  # a Ctrl-C noted while waiting (see pinastats._signals)
        for spec in itertools.islice(todo, window - len(pending)):
            pending[client.submit(_played_on_dask, spec, play, pure=False)] = spec
        if not pending:
            break
        try:
            finished = wait(list(pending), timeout=POLL, return_when="FIRST_COMPLETED").done
        except TimeoutError:
            finished = set()
        gathered = False
        for future in finished:
            try:  # the worker holding a finished chunk may die before it is gathered
                address, part = future.result(timeout=POLL)
            except TimeoutError:
                continue
            except KilledWorker:  # the scheduler gave up: each worker playing it died
                raise PinastatsError(_killed(where, pending[future], bar)) from None
            spec = pending.pop(future)
            parts[spec.index], gathered = sink(spec.index, part), True
            ran_on.add(address)
            bar.update(spec.games)
        if gathered or client.scheduler_info()["workers"]:
            last_seen = time.monotonic()
        elif time.monotonic() - last_seen > worker_timeout:
            raise PinastatsError(
                f"{where} has had no workers for {worker_timeout:g} s; the run stopped "
                f"after {bar.done:,} of {bar.total:,} games"
            )
    return [parts[i] for i in range(len(parts))], len(ran_on)
