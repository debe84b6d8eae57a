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
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

import numpy as np

from pinastats.agents.builtin import Agent, make_agent
from pinastats.game.config import GameConfig
from pinastats.simulation.chunk import CHUNK_FIELDS, ChunkSpec, run_chunk, warm_up
from pinastats.simulation.result import SimulationResult

Engine = Literal["local", "dask"]
DEFAULT_CHUNK = 500


def _chunks(games: int, chunk_size: int, seed: int, config: GameConfig,
            agents: tuple[Agent, ...], first_seat: int) -> list[ChunkSpec]:  # fmt: skip
    n_chunks = -(-games // chunk_size)
    children = np.random.SeedSequence(seed).spawn(n_chunks)
    return [
        ChunkSpec(i, min(chunk_size, games - i * chunk_size), children[i], config, agents,
                  first_seat)  # fmt: skip
        for i in range(n_chunks)
    ]


class _Progress:
    """A one-line progress bar on stderr (silent when disabled)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.enabled = total, 0, enabled
        self.start = time.perf_counter()

    def update(self, games: int) -> None:
        self.done += games
        if not self.enabled:
            return
        rate = self.done / max(time.perf_counter() - self.start, 1e-9)
        width = 30
        filled = int(width * self.done / self.total)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done:,}/{self.total:,}"
                         f" games, {rate:,.0f}/s ")  # fmt: skip
        if self.done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _run_local(specs: list[ChunkSpec], workers: int,
               on_done: Callable[[int], None]) -> Iterator[dict[str, Any]]:  # fmt: skip
    warm_up()
    if workers == 1:
        for spec in specs:
            out = run_chunk(spec)
            on_done(spec.games)
            yield out
        return
    # kernels release the GIL, so threads run them on separate cores
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for spec, out in zip(specs, pool.map(run_chunk, specs), strict=True):
            on_done(spec.games)
            yield out


def _run_dask(specs: list[ChunkSpec], workers: int, scheduler: str | None,
              on_done: Callable[[int], None]) -> list[dict[str, Any]]:  # fmt: skip
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError("the Dask engine needs the extra: pip install 'pinastats[dask]'") from exc
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)  # fmt: skip
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout="10s")
        except OSError as exc:
            raise ValueError(f"cannot reach the Dask scheduler at {scheduler!r}: {exc}") from None
    try:
        client.run(warm_up)
        futures = client.map(run_chunk, specs, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[dict[str, Any] | None] = [None] * len(specs)
        for future in as_completed(futures):
            i = index[future.key]
            results[i] = future.result()
            on_done(specs[i].games)
        return [r for r in results if r is not None]
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def simulate(agents: Sequence[Agent | str], games: int, *, seed: int = 0,
             config: GameConfig | None = None, players: int | None = None,
             first_seat: int | None = None, workers: int | None = None,
             engine: Engine = "local", scheduler: str | None = None,
             chunk_size: int = DEFAULT_CHUNK, progress: bool = False) -> SimulationResult:  # fmt: skip
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
        raise ValueError(f"players={players} disagrees with the config's {config.players}")
    if len(seats) != config.players:
        raise ValueError(f"{len(seats)} agents given for {config.players} players: "
                         "name one agent per seat")  # fmt: skip
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise ValueError(f"games must be a whole number > 0, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
    if chunk_size <= 0:
        raise ValueError(f"chunk size must be > 0, got {chunk_size}")
    if first_seat is not None and not 0 <= first_seat < config.players:
        raise ValueError(f"first seat must be 0 to {config.players - 1}, got {first_seat}")
    if engine not in ("local", "dask"):
        raise ValueError(f"engine must be 'local' or 'dask', got {engine!r}")
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    specs = _chunks(games, chunk_size, seed, config, seats,
                    -1 if first_seat is None else first_seat)  # fmt: skip
    bar = _Progress(games, progress)
    start = time.perf_counter()
    if engine == "dask" or scheduler is not None:
        parts = _run_dask(specs, workers, scheduler, bar.update)
        engine = "dask"
    else:
        parts = list(_run_local(specs, workers, bar.update))
    elapsed = time.perf_counter() - start
    arrays = {name: np.concatenate([p[name] for p in parts]) for name in CHUNK_FIELDS}
    return SimulationResult.from_arrays(arrays, config=config, agents=seats, seed=seed,
                                        elapsed=elapsed, workers=workers, engine=engine)  # fmt: skip
