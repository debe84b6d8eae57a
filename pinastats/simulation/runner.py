"""Monte Carlo games between agents, on local cores, a Dask cluster or an executor.

Reproducibility: a run's games are cut into seeded chunks
(:mod:`pinastats.simulation.plan`); chunk ``i`` always plays the same games, and
the chunks are gathered in chunk order, so the per-game table is identical
whatever the number of workers and whichever engine or executor runs it.
"""

from __future__ import annotations

import functools
import os
import pickle
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Literal, get_args

import numpy as np

from pinastats import _signals
from pinastats._executors import is_dask_client
from pinastats.agents.protocol import AgentProtocol
from pinastats.dice.errors import at_least
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.simulation.chunk import (
    CHUNK_FIELDS,
    ChunkSink,
    ChunkSpec,
    PlayChunk,
    plays_rollout,
    run_chunk,
    stoppable,
    warm_up,
)
from pinastats.simulation.cluster import WORKER_TIMEOUT, run_client, run_dask
from pinastats.simulation.limits import check_memory
from pinastats.simulation.plan import plan_run
from pinastats.simulation.progress import Interrupted, ProgressMode, _Progress
from pinastats.simulation.result import SimulationResult

if TYPE_CHECKING:
    from distributed import Client

Engine = Literal["local", "dask"]
EXECUTOR_WINDOW = 32
"""Chunks in flight on an ``executor=`` that is not a Dask client (its size is not known)."""
WAIT = 0.1
"""Seconds the gathering waits on a chunk before it looks for a Ctrl-C again."""


def _keep(index: int, part: dict[str, Any]) -> dict[str, Any]:
    """The default chunk sink: the run keeps every game."""
    return part


Played = tuple[str, dict[str, Any]]
"""A chunk played by a thread or a process: which process and thread, and the chunk's arrays."""


def _played_here(play: PlayChunk, spec: ChunkSpec) -> Played:
    """A thread's or a process's task: the chunk's arrays and the process and thread playing it."""
    return f"{os.getpid()}/{threading.get_ident()}", play(spec)


def _gather(
    specs: Iterator[ChunkSpec],
    executor: Executor,
    play: PlayChunk,
    window: int,
    bar: _Progress,
    sink: ChunkSink,
) -> tuple[list[dict[str, Any]], set[str]]:
    """Play the chunks on ``executor``; the parts in chunk order, and who played them.

    At most ``window`` chunks are in flight; leaving early (Ctrl-C, an error)
    cancels the chunks not yet started. It waits on a chunk :data:`WAIT` seconds
    at a time, looking for a noted Ctrl-C in between (:func:`pinastats._signals.check`).
    """
    parts: list[dict[str, Any]] = []
    ran_on: set[str] = set()
    flight: deque[tuple[ChunkSpec, Future[Played]]] = deque()

    def take() -> None:
        done, future = flight[0]
        while True:
            _signals.check()
            try:
                who, part = future.result(timeout=WAIT)
                break
            except TimeoutError:
                continue
        flight.popleft()
        parts.append(sink(done.index, part))
        ran_on.add(who)
        bar.update(done.games)

    try:
        for spec in specs:
            flight.append((spec, executor.submit(_played_here, play, spec)))
            while len(flight) >= window:
                take()
        while flight:
            take()
        return parts, ran_on
    finally:
        for _, future in flight:
            future.cancel()


def _run_local(
    specs: Iterator[ChunkSpec],
    workers: int,
    bar: _Progress,
    play: PlayChunk,
    sink: ChunkSink,
    warm: Callable[[], bool],
) -> list[dict[str, Any]]:
    """Play the chunks on ``workers`` threads, in chunk order, ``2 workers`` chunks in flight.

    ``warm`` compiles the chunk kernel first, so that the threads do not wait on it.
    Leaving early (Ctrl-C, an error), the chunks being played on the Python path
    stop before their next turn (:func:`~pinastats.simulation.chunk.stoppable`)
    instead of being played to their end.
    """
    warm()
    bar.begin()
    if workers == 1:
        parts = []
        for spec in specs:
            _signals.check()
            parts.append(sink(spec.index, play(spec)))
            bar.update(spec.games)
        return parts
    stop = threading.Event()
    # kernels release the GIL, so threads run them on separate cores
    with ThreadPoolExecutor(max_workers=workers) as pool:
        try:
            return _gather(specs, pool, functools.partial(_until, stop, play), 2 * workers,
                           bar, sink)[0]  # fmt: skip
        except BaseException:
            stop.set()  # before the pool waits for its threads
            raise


def _until(stop: threading.Event, play: PlayChunk, spec: ChunkSpec) -> dict[str, Any]:
    """Play ``spec`` in this thread, giving up once ``stop`` is set."""
    with stoppable(stop):
        return play(spec)


def _run_executor(
    specs: Iterator[ChunkSpec],
    executor: Executor,
    bar: _Progress,
    play: PlayChunk,
    sink: ChunkSink,
    warm: Callable[[], bool],
) -> tuple[list[dict[str, Any]], int]:
    """Play the chunks on ``executor``; the parts in chunk order and how many workers played.

    ``warm`` compiles the chunk kernel here first (threads then share it, processes
    load it from numba's cache). At most :data:`EXECUTOR_WINDOW` chunks are in flight.
    """
    warm()
    bar.begin()
    parts, ran_on = _gather(specs, executor, play, EXECUTOR_WINDOW, bar, sink)
    return parts, len(ran_on)


def simulate(
    agents: Sequence[AgentProtocol | str],
    games: int,
    *,
    seed: int = 0,
    config: GameConfig | None = None,
    players: int | None = None,
    first_seat: int | None = None,
    workers: int | None = None,
    engine: Engine | None = None,
    scheduler: str | None = None,
    chunk_size: int | None = None,
    progress: bool | ProgressMode = False,
    worker_timeout: float = WORKER_TIMEOUT,
    chunk_sink: ChunkSink | None = None,
    progress_every: float | None = None,
    play_chunk: PlayChunk | None = None,
    executor: Executor | Client | None = None,
) -> SimulationResult:
    """Play ``games`` games; ``agents[p]`` sits in seat ``p``.

    ``first_seat=None`` draws the first player of each game at random, an int
    fixes it. ``workers`` local threads play the chunks (default: the machine's
    cores); ``engine="dask"`` runs them on a local ``dask.distributed`` cluster
    of ``workers`` processes, or on the cluster at ``scheduler``
    (``tcp://host:port``), failing when it has had no worker for
    ``worker_timeout`` seconds. ``progress``: ``"bar"`` redraws a bar on
    stderr, ``"lines"`` writes a line every ``progress_every`` seconds (5), True
    picks the bar on a terminal and lines elsewhere. Runs whose per-game table
    would not fit in memory are refused (:func:`check_memory`). Ctrl-C or SIGTERM raises
    :class:`Interrupted` with the games played: called from the main thread, the run holds
    them until a safe point (:func:`pinastats._signals.held`: between chunks, or while
    waiting for one), so none is lost in a callback.
    ``chunk_size``: games per chunk, the unit of work and of seeding (by
    default :func:`~pinastats.simulation.plan.default_chunk_size`).

    ``executor``: a ``concurrent.futures.Executor`` (``ThreadPoolExecutor``,
    ``ProcessPoolExecutor``, ...) or a ``dask.distributed.Client`` that plays the
    chunks instead of the built-in threads or Dask cluster, with neither
    ``workers``, ``engine`` nor ``scheduler``; the run leaves it open. A
    process pool receives the chunks, the agents and ``play_chunk`` by pickle:
    agents and functions defined at module level, not in a function or a notebook
    cell's lambda. The chunks are gathered in chunk order: the same games on any executor.

    ``chunk_sink(i, arrays)`` gets chunk ``i``'s arrays and returns what the result keeps
    (:mod:`pinastats.simulation.pieces` keeps none and writes them to files); with
    it the memory check is the sink's business.
    ``play_chunk(spec)`` plays each chunk instead of
    :func:`~pinastats.simulation.chunk.run_chunk`: it returns the chunk's arrays
    of :data:`~pinastats.simulation.chunk.CHUNK_FIELDS` (the games ``run_chunk``
    plays: they make the result) and any other entries, which reach
    ``chunk_sink``. :func:`pinastats.records.record_run` records a run through it.
    """
    plan = plan_run(
        agents,
        games,
        seed=seed,
        config=config,
        players=players,
        first_seat=first_seat,
        chunk_size=chunk_size,
    )
    if engine not in (None, "local", "dask"):
        raise PinastatsError(f"engine must be 'local' or 'dask', got {engine!r}")
    modes = get_args(ProgressMode)
    if not isinstance(progress, bool) and not (isinstance(progress, str) and progress in modes):
        shown = ", ".join(map(repr, modes))
        raise PinastatsError(f"progress must be True, False or one of {shown}, got {progress!r}")
    play = run_chunk if play_chunk is None else play_chunk
    if executor is not None:
        _check_executor(executor, play, plan.agents, workers=workers, engine=engine,
                        scheduler=scheduler)  # fmt: skip
    workers = at_least(os.cpu_count() or 1 if workers is None else workers, "workers", 1)
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
        check_memory(plan.games, plan.config)
    if progress is True:
        progress = "bar" if sys.stderr.isatty() else "lines"
    bar = _Progress(plan.games, progress or "off", every=progress_every)
    warm = functools.partial(warm_up, rollout=plays_rollout(plan.agents))
    sink = _keep if chunk_sink is None else chunk_sink
    specs = plan.chunks()
    try:
        with _signals.held():
            if executor is None and (engine == "dask" or scheduler is not None):
                parts, workers = run_dask(
                    specs, workers, scheduler, bar, worker_timeout, play, sink, warm
                )
                ran = "dask"
            elif executor is None:
                parts = _run_local(specs, workers, bar, play, sink, warm)
                workers, ran = min(workers, len(parts)), "local"
            elif isinstance(executor, Executor):
                parts, workers = _run_executor(specs, executor, bar, play, sink, warm)
                ran = type(executor).__name__
            else:
                where = "the Dask client's cluster"
                parts, workers = run_client(
                    specs, executor, where, bar, worker_timeout, play, sink, warm
                )
                ran = "dask"
            _signals.check()  # a signal noted after the last chunk still stops the run
    except KeyboardInterrupt as exc:
        bar.close()
        raise Interrupted(bar.done, plan.games, getattr(exc, "signum", signal.SIGINT)) from None
    except RuntimeError as exc:
        bar.close()
        # a signal landing inside a thread lock's wait surfaces as "cannot release
        # un-acquired lock", raised while handling the KeyboardInterrupt
        if isinstance(exc.__context__, KeyboardInterrupt):
            signum = getattr(exc.__context__, "signum", signal.SIGINT)
            raise Interrupted(bar.done, plan.games, signum) from None
        raise
    except BaseException:
        bar.close()
        raise
    elapsed = time.perf_counter() - bar.start
    arrays = {name: np.concatenate([p[name] for p in parts]) for name in CHUNK_FIELDS}
    return SimulationResult.from_arrays(
        arrays,
        config=plan.config,
        agents=plan.agents,
        seed=plan.seed,
        elapsed=elapsed,
        workers=workers,
        engine=ran,
        chunk_size=plan.chunk_size,
    )


def _check_executor(
    executor: object,
    play: PlayChunk,
    agents: tuple[AgentProtocol, ...],
    *,
    workers: int | None,
    engine: Engine | None,
    scheduler: str | None,
) -> None:
    """Refuse what cannot play a run's chunks as ``simulate(executor=...)``, or asks for more."""
    if not isinstance(executor, Executor) and not is_dask_client(executor):
        raise PinastatsError(
            "executor must be a concurrent.futures.Executor (such as ThreadPoolExecutor or "
            f"ProcessPoolExecutor) or a dask.distributed.Client, got {executor!r} "
            f"(type {type(executor).__name__})"
        )
    kind = type(executor).__name__
    for name, value in (("workers", workers), ("engine", engine), ("scheduler", scheduler)):
        if value is not None:
            raise PinastatsError(
                f"{name}={value!r} and executor= both say who plays: the {kind} plays "
                f"every chunk, so leave {name} out"
            )
    if isinstance(executor, ProcessPoolExecutor):
        try:
            pickle.dumps((play, agents))
        except (pickle.PicklingError, AttributeError, TypeError) as exc:
            raise PinastatsError(
                f"a ProcessPoolExecutor sends the agents and the chunk function to its "
                f"processes by pickle, and they cannot be pickled ({exc}): define them at "
                "module level, or use a ThreadPoolExecutor"
            ) from None
