"""A round-robin of two-player games between agents, reproducible from one seed.

Every pair of agents plays its games (``games``, or what the ``schedule`` says
for it) with the first move alternating: game ``g`` of a pair is opened by the
pair's first agent (agents in name order) when ``g`` is even, by the other when
it is odd, so with an even count each agent moves first in half the games and
the first player's advantage cancels. A pair's games are cut into blocks (one
game when a Python agent plays, e.g. the coach or OpenSpiel's MCTS; else
:func:`block_size` games), each seeded by ``SeedSequence([seed, crc32(name_a),
crc32(name_b), block, mover])``: the same seed plays the same games on any number of
workers, whatever the order in which the agents are listed, and adding an agent
to a ladder leaves the other pairs' games as they were.
"""

from __future__ import annotations

import math
import os
import sys
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

from pinastats.agents.builtin import Agent, AgentKind
from pinastats.agents.protocol import AgentProtocol
from pinastats.game.config import GameConfig
from pinastats.ratings.agents import ladder_agent
from pinastats.ratings.bradley_terry import (
    BradleyTerryFit,
    RatingError,
    check_connected,
    check_names,
    fit_bradley_terry,
)
from pinastats.simulation.runner import simulate
from pinastats.simulation.stats import wilson_interval

Schedule = Mapping[str, int]
"""Games per pair: ``{"mcts1000": 20}`` (every pair with that agent; the smallest
count applies when both agents of a pair are named) or ``{"mcts1000:ev": 10}`` (one
pair, either order; overrides the agents' counts). 0: the pair does not play."""

Progress = Callable[["ProgressReport"], None]


@dataclass(frozen=True)
class ProgressReport:
    """Where a round-robin stands: games played of all, seconds since the start, ETA."""

    played: int
    total: int
    elapsed: float
    remaining: float | None
    pair: tuple[str, str]
    pair_played: int
    pair_games: int


@dataclass(frozen=True)
class PairResult:
    """The games of one pair: ``a`` and ``b`` in ladder order.

    ``a_first``: games ``a`` moved first in; ``mover_wins``: games won by whoever
    moved first (the seat effect the alternation cancels); ``seconds``: time spent
    playing them (summed over workers).
    """

    a: str
    b: str
    games: int
    a_wins: int
    b_wins: int
    draws: int
    a_first: int
    mover_wins: int
    seconds: float

    @property
    def a_score(self) -> float:
        """``a``'s points: its wins and half the draws."""
        return self.a_wins + self.draws / 2


@dataclass(frozen=True)
class RoundRobin:
    """The games of a round-robin, pair by pair, with the seed that played them."""

    names: tuple[str, ...]
    pairs: tuple[PairResult, ...]
    seed: int
    seconds: float
    load_samples: tuple[float, ...] = ()
    """The machine's 1-minute load average, sampled at most once a minute while playing."""

    def points(self) -> np.ndarray:
        """``points[i, j]``: what agent ``i`` scored against ``j`` (a draw 1/2 each)."""
        index = {name: i for i, name in enumerate(self.names)}
        w = np.zeros((len(self.names), len(self.names)))
        for p in self.pairs:
            i, j = index[p.a], index[p.b]
            w[i, j] += p.a_wins + p.draws / 2
            w[j, i] += p.b_wins + p.draws / 2
        return w

    def fit(self, anchor: str | None = None, prior: float = 0.0) -> BradleyTerryFit:
        """The Bradley–Terry fit of these games (:func:`fit_bradley_terry`)."""
        return fit_bradley_terry(self.names, self.points(), anchor=anchor, prior=prior)

    def table(self) -> pd.DataFrame:
        """One row per pair that played.

        Columns: ``a``, ``b``, ``games``, ``a_wins``, ``b_wins``, ``draws``, ``a``'s
        score (points / games) with its 95% Wilson interval, ``a_first``,
        ``mover_wins`` and ``seconds``.
        """
        rows = []
        for p in self.pairs:
            if p.games == 0:
                continue
            low, high = wilson_interval(p.a_score, p.games)
            rows.append(
                {
                    "a": p.a,
                    "b": p.b,
                    "games": p.games,
                    "a_wins": p.a_wins,
                    "b_wins": p.b_wins,
                    "draws": p.draws,
                    "a_score": p.a_score / p.games,
                    "a_score_low": low,
                    "a_score_high": high,
                    "a_first": p.a_first,
                    "mover_wins": p.mover_wins,
                    "seconds": p.seconds,
                }
            )
        return pd.DataFrame(rows)


def block_size(pair: Sequence[AgentProtocol]) -> int:
    """Games per block (the unit of work and of seeding) for a pair of agents.

    1 when a Python agent plays (the coach, OpenSpiel's MCTS, one's own: seconds a
    game), 16 with ``rollout``, 50 with ``value``, else 500.
    """
    if not all(isinstance(a, Agent) for a in pair):
        return 1
    kinds = {a.kind for a in pair if isinstance(a, Agent)}
    if AgentKind.ROLLOUT in kinds:
        return 16
    if AgentKind.VALUE in kinds:
        return 50
    return 500


def pair_games(
    names: Sequence[str], games: int, schedule: Schedule | None
) -> dict[tuple[str, str], int]:
    """Games of each pair ``(a, b)`` (ladder order) from ``games`` and the ``schedule``."""
    _whole(games, "games", 1)
    plan = {pair: games for pair in combinations(names, 2)}
    if not schedule:
        return plan
    per_agent: dict[str, int] = {}
    per_pair: dict[frozenset[str], int] = {}
    for key, count in schedule.items():
        _whole(count, f"games for {key!r}", 0)
        parts = [part.strip() for part in str(key).split(":")]
        unknown = [part for part in parts if part not in names]
        if len(parts) > 2 or unknown or (len(parts) == 2 and parts[0] == parts[1]):
            raise RatingError(
                f"schedule entry {key!r}: expected an agent of the ladder or a pair 'a:b' of two "
                f"of them ({', '.join(names)})"
            )
        if len(parts) == 1:
            per_agent[parts[0]] = count
        else:
            per_pair[frozenset(parts)] = count
    for a, b in plan:
        counts = [per_agent[x] for x in (a, b) if x in per_agent]
        if frozenset((a, b)) in per_pair:
            plan[a, b] = per_pair[frozenset((a, b))]
        elif counts:
            plan[a, b] = min(counts)
    return plan


def round_robin(
    agents: Sequence[AgentProtocol | str],
    games: int,
    *,
    seed: int = 0,
    schedule: Schedule | None = None,
    config: GameConfig | None = None,
    workers: int = 1,
    progress: Progress | bool = False,
) -> RoundRobin:
    """Play every pair of ``agents`` (module docstring) and return their results.

    ``games``: games per pair unless the ``schedule`` says otherwise. ``config``:
    a two-player game (default: the rulebook's, starting scores 1 and 2).
    ``workers``: processes playing blocks at once (1: in this process).
    ``progress``: True prints a line on stderr every few seconds and after each
    pair; a callable gets a :class:`ProgressReport` after each block.
    """
    resolved = [ladder_agent(a) for a in agents]
    names = check_names([a.name for a in resolved])
    seed = _whole(seed, "seed", 0)
    workers = _whole(workers, "workers", 1)
    config = GameConfig(players=2) if config is None else config
    if config.players != 2:
        raise RatingError(f"a ladder plays two-player games, got a {config.players}-player config")
    plan = pair_games(names, games, schedule)
    _check_plan(names, plan)
    by_name = dict(zip(names, resolved, strict=True))
    blocks = list(_blocks(plan, by_name, seed))
    report = _reporter(progress)
    totals = {
        pair: [0, 0, 0, 0, 0, 0.0] for pair in plan
    }  # a wins, b wins, draws, a first, mover wins, s
    done = dict.fromkeys(plan, 0)
    total = sum(plan.values())
    start = time.perf_counter()
    loads: list[float] = []
    sampled = -math.inf
    for block, counts in _run(blocks, by_name, config, workers):
        if time.perf_counter() - sampled >= 60:
            sampled = time.perf_counter()
            load = cpu_load()
            if load is not None:
                loads.append(round(load[0], 2))
        pair = block.pair
        for k in range(6):
            totals[pair][k] += counts[k]
        done[pair] += block.games
        if report is not None:
            report(_progress(block, done, plan, totals, total, time.perf_counter() - start))
    pairs = tuple(_result(a, b, plan[a, b], totals[a, b]) for a, b in plan)
    return RoundRobin(names, pairs, seed, time.perf_counter() - start, tuple(loads))


def _result(a: str, b: str, games: int, counts: Sequence[float]) -> PairResult:
    a_wins, b_wins, draws, a_first, mover_wins = (int(x) for x in counts[:5])
    return PairResult(a, b, games, a_wins, b_wins, draws, a_first, mover_wins, float(counts[5]))


# ---------------------------------------------------------------- blocks


@dataclass(frozen=True)
class _Block:
    pair: tuple[str, str]
    index: int
    start: int  # the pair's game number of its first game
    games: int
    seeds: tuple[int, int]  # games opened by the pair's first agent in name order, by the other


def _blocks(
    plan: Mapping[tuple[str, str], int], agents: Mapping[str, AgentProtocol], seed: int
) -> Iterator[_Block]:
    """Every pair's blocks, interleaved (block 0 of each pair, then block 1, ...)."""
    per_pair: list[list[_Block]] = []
    for pair, count in plan.items():
        size = block_size([agents[pair[0]], agents[pair[1]]])
        first, second = sorted(pair)
        hashes = [zlib.crc32(first.encode()), zlib.crc32(second.encode())]
        blocks = []
        for index in range(math.ceil(count / size)):
            opener, other = (
                int(np.random.SeedSequence([seed, *hashes, index, mover]).generate_state(1)[0])
                for mover in (0, 1)
            )
            start = index * size
            blocks.append(_Block(pair, index, start, min(size, count - start), (opener, other)))
        per_pair.append(blocks)
    for k in range(max((len(b) for b in per_pair), default=0)):
        yield from (blocks[k] for blocks in per_pair if k < len(blocks))


def _play_block(
    block: _Block, a: AgentProtocol, b: AgentProtocol, config: GameConfig
) -> tuple[int, int, int, int, int, float]:
    """Play a block: (a's wins, b's wins, draws, games a moved first in, mover wins, seconds).

    The pair's first agent in name order sits in seat 0; game ``g`` of the pair
    is opened by it when ``g`` is even.
    """
    started = time.perf_counter()
    seat0, seat1 = sorted((a, b), key=lambda x: x.name)
    evens = len(range(block.start + (block.start % 2), block.start + block.games, 2))
    counts = [0, 0, 0, 0, 0]
    for mover, n in ((0, evens), (1, block.games - evens)):
        if n == 0:
            continue
        result = simulate(
            [seat0, seat1], n, seed=block.seeds[mover], config=config, first_seat=mover,
            workers=1, chunk_size=n,
        )  # fmt: skip
        winner = result.games["winner"].to_numpy()
        seat_of_a = 0 if seat0 is a else 1
        counts[0] += int((winner == seat_of_a).sum())
        counts[1] += int((winner == 1 - seat_of_a).sum())
        counts[2] += int((winner < 0).sum())
        counts[3] += n if mover == seat_of_a else 0
        counts[4] += int((winner == mover).sum())
    a_wins, b_wins, draws, a_first, mover_wins = counts
    return a_wins, b_wins, draws, a_first, mover_wins, time.perf_counter() - started


def _run(
    blocks: list[_Block], agents: Mapping[str, AgentProtocol], config: GameConfig, workers: int
) -> Iterator[tuple[_Block, tuple[int, int, int, int, int, float]]]:
    """Each block with its counts, as they finish (in order with one worker)."""
    if workers == 1:
        for block in blocks:
            yield block, _play_block(block, agents[block.pair[0]], agents[block.pair[1]], config)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: dict[Future[tuple[int, int, int, int, int, float]], _Block] = {
            pool.submit(_play_block, b, agents[b.pair[0]], agents[b.pair[1]], config): b
            for b in blocks
        }
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield pending.pop(future), future.result()
        finally:
            for future in pending:
                future.cancel()


# ---------------------------------------------------------------- checks and progress


def _whole(value: object, what: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise RatingError(f"{what} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def _check_plan(names: Sequence[str], plan: Mapping[tuple[str, str], int]) -> None:
    """Refuse a schedule leaving an agent, or a group of agents, without games against the rest."""
    idle = [n for n in names if not any(count for pair, count in plan.items() if n in pair)]
    if idle:
        raise RatingError(
            f"the schedule gives no games to {', '.join(idle)}: every agent must play someone"
        )
    games = np.zeros((len(names), len(names)))
    index = {n: i for i, n in enumerate(names)}
    for (a, b), count in plan.items():
        games[index[a], index[b]] = games[index[b], index[a]] = count
    check_connected(tuple(names), games)


def _progress(
    block: _Block,
    done: Mapping[tuple[str, str], int],
    plan: Mapping[tuple[str, str], int],
    totals: Mapping[tuple[str, str], list[float]],
    total: int,
    elapsed: float,
) -> ProgressReport:
    """The report after ``block``.

    The ETA (work left at each pair's measured seconds a game, shared by the
    workers as so far) once every pair has played a game.
    """
    remaining: float | None = None
    if all(done[p] for p in plan if plan[p]):
        spent = sum(t[5] for t in totals.values())
        left = sum(totals[p][5] / done[p] * (plan[p] - done[p]) for p in plan if plan[p])
        remaining = left * elapsed / spent if spent > 0 else None
    played = sum(done.values())
    return ProgressReport(
        played, total, elapsed, remaining, block.pair, done[block.pair], plan[block.pair]
    )


def _reporter(progress: Progress | bool) -> Progress | None:
    if callable(progress):
        return progress
    if progress is False:
        return None
    if progress is not True:
        raise RatingError(f"progress must be True, False or a function, got {progress!r}")
    last = [-math.inf]

    def show(r: ProgressReport) -> None:
        finished = r.pair_played == r.pair_games
        now = time.perf_counter()
        if not finished and now - last[0] < 5 and r.played < r.total:
            return
        last[0] = now
        eta = "" if r.remaining is None else f", about {_duration(r.remaining)} left"
        what = f"; {r.pair[0]} v {r.pair[1]} done" if finished else ""
        print(
            f"ladder: {r.played:,}/{r.total:,} games, {_duration(r.elapsed)}{eta}{what}",
            file=sys.stderr,
            flush=True,
        )

    return show


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return (
        f"{seconds // 3600}h{seconds // 60 % 60:02d}m"
        if seconds >= 3600
        else f"{seconds // 60}m{seconds % 60:02d}s"
    )


def cpu_load() -> tuple[float, float, float] | None:
    """The machine's 1, 5 and 15-minute load averages (None where unknown)."""
    try:
        return os.getloadavg()
    except OSError:  # pragma: no cover - not on this platform
        return None
