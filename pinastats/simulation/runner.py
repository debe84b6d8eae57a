"""Monte Carlo games between agents, on local cores or a Dask cluster.

Reproducibility: the run's seed feeds a ``numpy.random.SeedSequence`` whose
``spawn`` gives one child per fixed-size chunk of games; chunk ``i`` always
plays the same games, so the per-game table is identical whatever the number
of workers and whichever engine runs it.
"""

from __future__ import annotations

import functools
import itertools
import os
import signal
import sys
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

import numpy as np

from pinastats.agents.loading import resolve_agent
from pinastats.agents.protocol import AgentProtocol
from pinastats.dice.errors import at_least
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.simulation.chunk import CHUNK_FIELDS, ChunkSpec, plays_rollout, run_chunk, warm_up
from pinastats.simulation.limits import check_memory, check_run
from pinastats.simulation.progress import Interrupted, ProgressMode, _Progress
from pinastats.simulation.result import SimulationResult

Engine = Literal["local", "dask"]
DEFAULT_CHUNK = 500
"""Games per chunk, unless a ``rollout`` agent plays (a game then takes tens of milliseconds)."""
ROLLOUT_CHUNK = 16
"""Games per chunk with a ``rollout`` seat: a few dozen games keep every core busy."""
CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a Dask scheduler before giving up."""
WORKER_TIMEOUT = 60.0
"""Seconds a Dask run waits with no worker in the cluster before it fails."""
POLL = 0.5
"""Seconds between two looks at a Dask cluster's workers while waiting for chunks."""

ChunkSink = Callable[[int, dict[str, Any]], dict[str, Any]]
"""Takes chunk ``i``'s arrays as they come; returns what the run keeps of them."""


def _keep(index: int, part: dict[str, Any]) -> dict[str, Any]:
    """The default chunk sink: the run keeps every game."""
    return part


def default_chunk_size(agents: Sequence[object]) -> int:
    """The chunk size of a run of ``agents`` when none is given.

    :data:`ROLLOUT_CHUNK` with a ``rollout`` seat, else :data:`DEFAULT_CHUNK`.
    The chunk size is part of what a run's seed plays, like the agents.
    """
    return ROLLOUT_CHUNK if plays_rollout(agents) else DEFAULT_CHUNK


def _chunk_specs(
    games: int,
    chunk_size: int,
    seed: int,
    config: GameConfig,
    agents: tuple[AgentProtocol, ...],
    first_seat: int,
) -> Iterator[ChunkSpec]:
    """The chunks of a run, planned as they are consumed (constant memory).

    Chunk ``i`` gets the ``i``-th child of ``SeedSequence(seed)``: ``spawn``
    numbers its children in order, so spawning them one at a time gives the same
    children as ``spawn(n_chunks)`` at once.
    """
    root = np.random.SeedSequence(seed)
    for i in range(-(-games // chunk_size)):
        (child,) = root.spawn(1)
        yield ChunkSpec(
            i, min(chunk_size, games - i * chunk_size), child, config, agents, first_seat
        )


PlayChunk = Callable[[ChunkSpec], dict[str, Any]]
"""What plays a chunk: :func:`run_chunk`, or the recording chunk of :func:`_recording`."""


def _run_local(
    specs: Iterator[ChunkSpec],
    workers: int,
    bar: _Progress,
    play: PlayChunk = run_chunk,
    sink: ChunkSink = _keep,
    warm: Callable[[], bool] = warm_up,
) -> list[dict[str, Any]]:
    """Play the chunks on ``workers`` threads, in chunk order, ``2 workers`` chunks in flight.

    ``warm`` compiles the chunk kernel first, so that the threads do not wait on it.
    """
    warm()
    bar.begin()
    parts = []
    if workers == 1:
        for spec in specs:
            parts.append(sink(spec.index, play(spec)))
            bar.update(spec.games)
        return parts
    # kernels release the GIL, so threads run them on separate cores; leaving the
    # ``with`` early (Ctrl-C) cancels the chunks not yet started
    with ThreadPoolExecutor(max_workers=workers) as pool:
        flight: deque[tuple[ChunkSpec, Future[dict[str, Any]]]] = deque()
        try:
            for spec in specs:
                flight.append((spec, pool.submit(play, spec)))
                while len(flight) >= 2 * workers:
                    done, future = flight.popleft()
                    parts.append(sink(done.index, future.result()))
                    bar.update(done.games)
            while flight:
                done, future = flight.popleft()
                parts.append(sink(done.index, future.result()))
                bar.update(done.games)
            return parts
        finally:
            for _, future in flight:
                future.cancel()


def _play_chunk(spec: ChunkSpec, play: PlayChunk = run_chunk) -> tuple[str, dict[str, Any]]:
    """A Dask task: the chunk's arrays and the address of the worker that played it."""
    from dask.distributed import get_worker

    return get_worker().address, play(spec)


def _connect(workers: int, scheduler: str | None) -> tuple[Any, Any]:
    """A Dask client, and the local cluster it runs on (None with ``scheduler``)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise PinastatsError(
            "the Dask engine needs the extra: pip install 'pinastats[dask]'"
        ) from exc
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
        )
    return Client(cluster), cluster


def _run_dask(
    specs: Iterator[ChunkSpec],
    workers: int,
    scheduler: str | None,
    bar: _Progress,
    worker_timeout: float,
    play: PlayChunk = run_chunk,
    sink: ChunkSink = _keep,
    warm: Callable[[], bool] = warm_up,
) -> tuple[list[dict[str, Any]], int]:
    """Play the chunks on a Dask cluster; return the parts in chunk order and the workers that ran.

    At most 4 chunks per worker are in flight. A worker lost mid-run has its
    chunks played again elsewhere (the same games: each chunk has its seed);
    with no worker at all for ``worker_timeout`` seconds the run fails.
    """
    from dask.distributed import wait

    client, cluster = _connect(workers, scheduler)
    where = f"the Dask scheduler at {scheduler}" if scheduler else "the local Dask cluster"
    try:
        try:
            client.wait_for_workers(1, timeout=worker_timeout)
        except TimeoutError:
            raise PinastatsError(f"{where} has no workers (waited {worker_timeout:g} s)") from None
        n_workers = len(client.run(warm))
        bar.begin()
        window = 4 * max(n_workers, 1)
        pending: dict[Any, ChunkSpec] = {}
        parts: dict[int, dict[str, Any]] = {}
        ran_on: set[str] = set()
        last_seen = time.monotonic()
        todo = iter(specs)
        while True:
            for spec in itertools.islice(todo, window - len(pending)):
                pending[client.submit(_play_chunk, spec, play, pure=False)] = spec
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
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def simulate(
    agents: Sequence[AgentProtocol | str],
    games: int,
    *,
    seed: int = 0,
    config: GameConfig | None = None,
    players: int | None = None,
    first_seat: int | None = None,
    workers: int | None = None,
    engine: Engine = "local",
    scheduler: str | None = None,
    chunk_size: int | None = None,
    progress: bool | ProgressMode = False,
    worker_timeout: float = WORKER_TIMEOUT,
    record: str | Path | None = None,
    chunk_sink: ChunkSink | None = None,
    progress_every: float | None = None,
) -> SimulationResult:
    """Play ``games`` games; ``agents[p]`` sits in seat ``p``.

    ``first_seat=None`` draws the first player of each game at random, an int
    fixes it. ``workers`` defaults to the machine's cores; ``engine="dask"``
    runs the chunks on a local ``dask.distributed`` cluster, or on the cluster
    at ``scheduler`` (``tcp://host:port``), failing when it has had no worker
    for ``worker_timeout`` seconds. ``progress``: ``"bar"`` redraws a bar on
    stderr, ``"lines"`` writes a line every ``progress_every`` seconds (5), True
    picks the bar on a terminal and lines elsewhere. Runs whose per-game table
    would not fit in memory are refused (:func:`check_memory`). Ctrl-C (or SIGTERM raised as a
    ``KeyboardInterrupt``) raises :class:`Interrupted` with the games played.
    ``record``: also write the record of every game to this file (JSON Lines,
    ``docs/records.md``); each game is then played again on the readable Python
    path, which is much slower.
    ``chunk_size``: games per chunk, the unit of work and of seeding (by
    default :func:`default_chunk_size`).
    ``chunk_sink(i, arrays)`` gets chunk ``i``'s arrays and returns what the result keeps
    (:mod:`pinastats.simulation.pieces` keeps none and writes them to files); with
    it the memory check is the sink's business.
    """
    seats = tuple(resolve_agent(a) for a in agents)
    if chunk_size is None:
        chunk_size = default_chunk_size(seats)
    if config is None:
        config = GameConfig(players=len(seats) if players is None else players)
    if players is not None and players != config.players:
        raise PinastatsError(f"players={players} disagrees with the config's {config.players}")
    games, seed, chunk_size = check_run(len(seats), games, seed, chunk_size, first_seat, config)
    if engine not in ("local", "dask"):
        raise PinastatsError(f"engine must be 'local' or 'dask', got {engine!r}")
    if workers is None:
        workers = os.cpu_count() or 1
    workers = at_least(workers, "workers", 1)
    if not isinstance(worker_timeout, int | float) or not worker_timeout > 0:
        raise PinastatsError(
            f"worker timeout must be a number of seconds > 0, got {worker_timeout!r}"
        )
    if progress_every is not None and (
        isinstance(progress_every, bool)
        or not isinstance(progress_every, int | float)
        or not 0 < progress_every < float("inf")
    ):
        raise PinastatsError(
            f"progress_every must be a number of seconds > 0, got {progress_every!r}"
        )
    if chunk_sink is None:
        check_memory(games, config)
    specs = _chunk_specs(
        games, chunk_size, seed, config, seats, -1 if first_seat is None else first_seat
    )
    if progress is True:
        progress = "bar" if sys.stderr.isatty() else "lines"
    bar = _Progress(games, progress or "off", every=progress_every)
    play = run_chunk if record is None else _recording(record, seed, chunk_size)
    warm = functools.partial(warm_up, rollout=plays_rollout(seats))
    try:
        if engine == "dask" or scheduler is not None:
            parts, workers = _run_dask(
                specs, workers, scheduler, bar, worker_timeout, play, chunk_sink or _keep, warm
            )
            engine = "dask"
        else:
            parts = _run_local(specs, workers, bar, play, chunk_sink or _keep, warm)
            workers = min(workers, len(parts))
    except KeyboardInterrupt as exc:
        bar.close()
        raise Interrupted(bar.done, games, getattr(exc, "signum", signal.SIGINT)) from None
    except RuntimeError as exc:
        bar.close()
        # a signal landing inside a thread lock's wait surfaces as "cannot release
        # un-acquired lock", raised while handling the KeyboardInterrupt
        if isinstance(exc.__context__, KeyboardInterrupt):
            signum = getattr(exc.__context__, "signum", signal.SIGINT)
            raise Interrupted(bar.done, games, signum) from None
        raise
    except BaseException:
        bar.close()
        raise
    elapsed = time.perf_counter() - bar.start
    if record is not None:
        _write_records(record, parts)
    arrays = {name: np.concatenate([p[name] for p in parts]) for name in CHUNK_FIELDS}
    return SimulationResult.from_arrays(
        arrays,
        config=config,
        agents=seats,
        seed=seed,
        elapsed=elapsed,
        workers=workers,
        engine=engine,
        chunk_size=chunk_size,
    )


def _recording(path: str | Path, seed: int, chunk_size: int) -> PlayChunk:
    """The chunk player of a recorded run (checks first that ``path`` can be written)."""
    import functools

    from pinastats.records.record import recorded_chunk

    target = Path(path)
    if target.is_dir():
        raise PinastatsError(f"record file {str(path)!r} is a directory: give a file name")
    if not target.parent.is_dir():
        raise PinastatsError(f"record file {str(path)!r}: its folder does not exist")
    return functools.partial(recorded_chunk, seed=seed, chunk_size=chunk_size)


def _write_records(path: str | Path, parts: list[dict[str, Any]]) -> None:
    """Write the records of the chunks, in chunk order, one game a line."""
    from pinastats.records.format import write_lines

    write_lines(path, (line for part in parts for line in part.pop("records")))
