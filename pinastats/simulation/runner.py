"""Monte Carlo games between agents, on local cores or a Dask cluster.

Reproducibility: the run's seed feeds a ``numpy.random.SeedSequence`` whose
``spawn`` gives one child per fixed-size chunk of games; chunk ``i`` always
plays the same games, so the per-game table is identical whatever the number
of workers and whichever engine runs it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

import numpy as np

from pinastats.agents.builtin import Agent, make_agent
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.simulation.chunk import CHUNK_FIELDS, ChunkSpec, run_chunk, warm_up
from pinastats.simulation.result import SimulationResult

Engine = Literal["local", "dask"]
DEFAULT_CHUNK = 500
CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a Dask scheduler before giving up."""


def _chunks(
    games: int,
    chunk_size: int,
    seed: int,
    config: GameConfig,
    agents: tuple[Agent, ...],
    first_seat: int,
) -> list[ChunkSpec]:
    n_chunks = -(-games // chunk_size)
    children = np.random.SeedSequence(seed).spawn(n_chunks)
    return [
        ChunkSpec(
            i, min(chunk_size, games - i * chunk_size), children[i], config, agents, first_seat
        )
        for i in range(n_chunks)
    ]


class _Progress:
    """A one-line progress bar on stderr (silent when disabled)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.enabled = total, 0, enabled
        self.start = time.perf_counter()

    def begin(self) -> None:
        """Start the clock: the games are about to be played (setup is done)."""
        self.start = time.perf_counter()

    def update(self, games: int) -> None:
        self.done += games
        if not self.enabled:
            return
        rate = self.done / max(time.perf_counter() - self.start, 1e-9)
        width = 30
        filled = int(width * self.done / self.total)
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done:,}/{self.total:,}"
            f" games, {rate:,.0f}/s "
        )
        if self.done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _run_local(specs: list[ChunkSpec], workers: int, bar: _Progress) -> list[dict[str, Any]]:
    """Play the chunks on ``workers`` threads, in chunk order."""
    warm_up()
    bar.begin()
    if workers == 1:
        parts = []
        for spec in specs:
            parts.append(run_chunk(spec))
            bar.update(spec.games)
        return parts
    # kernels release the GIL, so threads run them on separate cores; leaving the
    # ``with`` early (Ctrl-C) cancels the chunks not yet started
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_chunk, spec) for spec in specs]
        try:
            parts = []
            for spec, future in zip(specs, futures, strict=True):
                parts.append(future.result())
                bar.update(spec.games)
            return parts
        finally:
            for future in futures:
                future.cancel()


def _run_dask(
    specs: list[ChunkSpec], workers: int, scheduler: str | None, bar: _Progress
) -> tuple[list[dict[str, Any]], int]:
    """Play the chunks on a Dask cluster; return the parts in chunk order and the worker count."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise PinastatsError(
            "the Dask engine needs the extra: pip install 'pinastats[dask]'"
        ) from exc
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except OSError as exc:
            raise PinastatsError(
                f"cannot reach the Dask scheduler at {scheduler!r}: {exc}"
            ) from None
        except (ValueError, TypeError) as exc:  # e.g. no port, unknown protocol
            raise PinastatsError(f"bad Dask scheduler address {scheduler!r}: {exc}") from None
    try:
        n_workers = len(client.run(warm_up))
        if n_workers == 0:
            raise PinastatsError(f"the Dask cluster at {scheduler!r} has no workers")
        bar.begin()
        futures = client.map(run_chunk, specs, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[dict[str, Any] | None] = [None] * len(specs)
        for future in as_completed(futures):
            i = index[future.key]
            results[i] = future.result()
            bar.update(specs[i].games)
        return [r for r in results if r is not None], n_workers
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def simulate(
    agents: Sequence[Agent | str],
    games: int,
    *,
    seed: int = 0,
    config: GameConfig | None = None,
    players: int | None = None,
    first_seat: int | None = None,
    workers: int | None = None,
    engine: Engine = "local",
    scheduler: str | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: bool = False,
) -> SimulationResult:
    """Play ``games`` games; ``agents[p]`` sits in seat ``p``.

    ``first_seat=None`` draws the first player of each game at random, an int
    fixes it. ``workers`` defaults to the machine's cores; ``engine="dask"``
    runs the chunks on a local ``dask.distributed`` cluster, or on the cluster
    at ``scheduler`` (``tcp://host:port``).
    """
    seats = tuple(make_agent(a) for a in agents)
    if config is None:
        config = GameConfig(players=len(seats) if players is None else players)
    if players is not None and players != config.players:
        raise PinastatsError(f"players={players} disagrees with the config's {config.players}")
    if len(seats) != config.players:
        raise PinastatsError(
            f"{len(seats)} agents given for {config.players} players: name one agent per seat"
        )
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise PinastatsError(f"games must be a whole number > 0, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise PinastatsError(f"seed must be a whole number >= 0, got {seed!r}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size <= 0:
        raise PinastatsError(f"chunk size must be a whole number > 0, got {chunk_size!r}")
    if first_seat is not None and not 0 <= first_seat < config.players:
        raise PinastatsError(f"first seat must be 0 to {config.players - 1}, got {first_seat}")
    if engine not in ("local", "dask"):
        raise PinastatsError(f"engine must be 'local' or 'dask', got {engine!r}")
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise PinastatsError(f"workers must be a whole number >= 1, got {workers!r}")
    specs = _chunks(
        games, chunk_size, seed, config, seats, -1 if first_seat is None else first_seat
    )
    bar = _Progress(games, progress)
    if engine == "dask" or scheduler is not None:
        parts, workers = _run_dask(specs, workers, scheduler, bar)
        engine = "dask"
    else:
        parts = _run_local(specs, workers, bar)
    elapsed = time.perf_counter() - bar.start
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
