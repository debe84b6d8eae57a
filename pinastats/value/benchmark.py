"""A position benchmark: fixed placement decisions, each candidate labelled by many play-outs.

In the spirit of GNU Backgammon's benchmark of checker plays. A benchmark
position is a turn's starting position of a self-play game and a final hand
of five dice that can place a token on two or more cells; each candidate
(each legal cell) is labelled by the mover's win probability after it: exact
where the game ends there, else the mean of ``playouts`` play-outs to the end,
every seat played by ``strategic``, with common random numbers (play-out
``j`` of every candidate draws the same numbers).

An agent's error on a position is the label of the best candidate minus the
label of the one it places on; its *error rate* is the mean error in
thousandths of a win (milli-wins). The network's accuracy is measured on the
same candidates: its win probability of each position after a candidate
against the label.

The positions come from games on seeds no training run uses
(:data:`BENCHMARK_SEED`), and the file records them
(``benchmarks/value-positions.npz``, made by ``python
benchmarks/bench_value.py --make``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pinastats import _engine as E
from pinastats._arrays import FloatArray, IntArray
from pinastats._engine import StateBatch, new_stream, stream_rng, turn_tables
from pinastats._files import written_whole
from pinastats._stats import mean_interval
from pinastats.agents.builtin import make_agent
from pinastats.agents.network import evaluate_states
from pinastats.agents.protocol import AgentProtocol
from pinastats.agents.tables import workspace
from pinastats.coach.reliability import game_phase
from pinastats.dice.hands import dice_tables
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.rules import PLAYER_COUNTS, Rules
from pinastats.simulation.chunk import ChunkSpec, play_chunk, snapshots
from pinastats.simulation.plan import plan_run
from pinastats.value.data import playout_seeds

BENCHMARK_SEED = 990_000
"""Seeds of the benchmark's games: ``BENCHMARK_SEED + players`` (training uses 2001-4008)."""
BENCHMARK_VERSION = 1


@dataclass(frozen=True)
class Benchmark:
    """Benchmark positions of one player count and Happy Hour setting.

    Attributes:
        config: their game.
        states: the positions (the mover to place).
        dice: ``(N, 5)`` the final hand of each.
        candidates: ``(N, n_cells)`` whether each cell is legal for that hand.
        labels: ``(N, n_cells)`` the mover's win probability after placing on
            each legal cell (NaN elsewhere).
        playouts: play-outs per candidate.
    """

    config: GameConfig
    states: StateBatch
    dice: IntArray
    candidates: Any
    labels: FloatArray
    playouts: int

    def __len__(self) -> int:
        return int(self.dice.shape[0])

    def game(self, i: int) -> Game:
        """Position ``i`` as a :class:`~pinastats.game.Game`."""
        return Game(self.config, self.states.state(i))

    def best(self) -> FloatArray:
        """The label of the best candidate of each position."""
        return np.asarray(np.nanmax(self.labels, axis=1), dtype=np.float64)

    def phase(self) -> Any:
        """``early``, ``middle`` or ``late`` by the tokens placed (a third of all each)."""
        placed = self.states.status["placements"][:, 0]
        return game_phase(placed, self.config.players * self.config.rules.tokens)


def _positions(
    players: int, happy_hour: bool, count: int, seed: int
) -> tuple[GameConfig, StateBatch, IntArray]:
    """``count`` decisions of ``strategic``/``ev`` games: positions and hands with 2+ cells."""
    config = GameConfig(players=players, rules=Rules(happy_hour=happy_hour))
    agents = (["strategic", "ev"] * 2)[:players]
    games = count
    plan = plan_run(agents, games, seed=seed, config=config, chunk_size=games)
    spec: ChunkSpec = next(plan.chunks())
    snaps = snapshots(64 * games, config)
    play_chunk(spec, snaps=snaps)
    offered = min(int(snaps.offered[0]), len(snaps.game))
    rng = np.random.default_rng(seed)
    order = rng.permutation(offered)
    board, tables = config.board, dice_tables()
    chosen: list[E.GameState] = []
    hands: list[list[int]] = []
    used_games: set[int] = set()
    for i in order:
        g = int(snaps.game[i])
        if g in used_games:  # one decision a game: positions far apart
            continue
        state = snaps.states.state(int(i))
        seat = int(state.status[0]["to_move"])
        for _ in range(20):
            dice = sorted(int(d) for d in rng.integers(1, 7, size=5))
            hand = tables.hand_index(dice)
            legal = np.zeros(config.layout.n_cells, dtype=np.bool_)
            if E.legal_cells(board, state, seat, hand, legal) >= 2:
                chosen.append(state)
                hands.append(dice)
                used_games.add(g)
                break
        if len(chosen) == count:
            break
    if len(chosen) < count:
        raise PinastatsError(f"only {len(chosen)} benchmark decisions found in {games} games")
    return config, E.stack_states(chosen), np.array(hands, dtype=np.int64)


def label_candidates(config: GameConfig, states: StateBatch, dice: IntArray, playouts: int,
                     seed: int, progress: Callable[[int], None] | None = None
                     ) -> tuple[Any, FloatArray]:  # fmt: skip
    """``(candidates, labels)`` of each position and hand (see :class:`Benchmark`)."""
    n_cells = config.layout.n_cells
    board = config.board
    candidates = np.zeros((len(states), n_cells), dtype=np.bool_)
    labels = np.full((len(states), n_cells), np.nan)
    seeds = playout_seeds(seed, playouts)
    agent = make_agent("strategic")
    work = workspace(config, memo=True)
    tables = turn_tables(config.rules.rolls)
    rng = stream_rng(new_stream())
    out = np.zeros(playouts)
    t = dice_tables()
    for i in range(len(states)):
        start = states.state(i)
        seat = int(start.status[0]["to_move"])
        hand = t.hand_index([int(d) for d in dice[i]])
        E.legal_cells(board, start, seat, hand, candidates[i])
        for c in np.flatnonzero(candidates[i]):
            after = E.copy_state(start)
            E.finish_turn(board, after, c, 0, -1)
            status = after.status[0]
            if int(status["reason"]) != int(E.EndReason.ONGOING):
                labels[i, c] = E.seat_result(after, seat)
                continue
            E.play_outs(agent.code, agent.param_vector(), board, after, tables, work, rng, seeds,
                        seat, 0, out)  # fmt: skip
            labels[i, c] = out.mean()
        if progress is not None:
            progress(i + 1)
    return candidates, labels


SPLIT = {(2, False): 350, (2, True): 350, (3, False): 325, (3, True): 325, (4, False): 325,
         (4, True): 325}  # fmt: skip
"""Benchmark decisions per player count and Happy Hour setting (2,000 in all)."""


def make_benchmark(path: str | Path, *, playouts: int = 5000, scale: float = 1.0,
                   progress: bool = True) -> list[Benchmark]:  # fmt: skip
    """Make the benchmark (``scale`` shrinks every part, for tests) and write it to ``path``."""
    parts = []
    start = time.perf_counter()
    for (players, hh), count in SPLIT.items():
        n = max(2, round(count * scale))
        seed = BENCHMARK_SEED + 10 * players + hh
        config, states, dice = _positions(players, hh, n, seed)

        def tick(done: int, players: int = players, hh: bool = hh, n: int = n) -> None:
            if progress and (done % 25 == 0 or done == n):
                took = time.perf_counter() - start
                print(f"  {players}p{' Happy Hour' if hh else ''}: {done}/{n} decisions labelled "
                      f"({took:.0f} s)", flush=True)  # fmt: skip

        candidates, labels = label_candidates(config, states, dice, playouts, seed, tick)
        parts.append(Benchmark(config, states, dice, candidates, labels, playouts))
    write_benchmark(path, parts)
    return parts


def write_benchmark(path: str | Path, parts: Sequence[Benchmark]) -> None:
    """Write benchmark parts as one ``.npz`` (whole, or not at all)."""
    arrays: dict[str, Any] = {"version": np.array(BENCHMARK_VERSION)}
    meta = []
    for k, b in enumerate(parts):
        meta.append({"players": b.config.players, "happy_hour": b.config.rules.happy_hour,
                     "playouts": b.playouts, "positions": len(b)})  # fmt: skip
        for name, a in zip(E.StateBatch._fields, b.states, strict=True):
            arrays[f"{k}_{name}"] = a
        arrays[f"{k}_dice"] = b.dice
        arrays[f"{k}_candidates"] = b.candidates
        arrays[f"{k}_labels"] = b.labels
    arrays["meta"] = np.array(json.dumps(meta))
    with written_whole(Path(path)) as handle:
        np.savez_compressed(handle, **arrays)


def read_benchmark(path: str | Path) -> list[Benchmark]:
    """The benchmark parts of a file written by :func:`write_benchmark`."""
    where = Path(path)
    if not where.is_file():
        raise PinastatsError(f"no benchmark file at {str(path)!r} (make it: python "
                             "benchmarks/bench_value.py --make)")  # fmt: skip
    data = np.load(where, allow_pickle=False)
    if int(data["version"]) != BENCHMARK_VERSION:
        raise PinastatsError(f"benchmark file {str(path)!r} is of another version")
    parts = []
    for k, m in enumerate(json.loads(str(data["meta"]))):
        config = GameConfig(players=m["players"], rules=Rules(happy_hour=m["happy_hour"]))
        states = StateBatch(*(data[f"{k}_{name}"] for name in E.StateBatch._fields))
        parts.append(Benchmark(config, states, data[f"{k}_dice"], data[f"{k}_candidates"],
                               data[f"{k}_labels"], int(m["playouts"])))  # fmt: skip
    return parts


# ------------------------------------------------------------------ scoring


def agent_errors(
    parts: Sequence[Benchmark], agent: AgentProtocol | str, seed: int = 0
) -> pd.DataFrame:
    """One row per decision: the agent's cell, its label, the best label, its error (milli-wins)."""
    rows = []
    for k, b in enumerate(parts):
        a = make_agent(agent) if isinstance(agent, str) else agent
        best = b.best()
        phase = b.phase()
        for i in range(len(b)):
            game = b.game(i)
            rng = np.random.default_rng([seed, k, i])
            a.start_turn(game)
            cell = int(a.choose_placement(game, [int(d) for d in b.dice[i]], rng))
            if not b.candidates[i, cell]:
                raise PinastatsError(f"agent {a.name} placed on cell {cell}, not legal")
            rows.append({"players": b.config.players, "happy_hour": b.config.rules.happy_hour,
                         "phase": phase[i], "decision": i, "cell": cell,
                         "label": b.labels[i, cell], "best": best[i],
                         "error": 1000 * (best[i] - b.labels[i, cell])})  # fmt: skip
    return pd.DataFrame(rows)


def error_table(errors: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per agent: decisions, error rate (milli-wins) with a 95% interval, share of best choices."""
    rows = []
    for name, e in errors.items():
        x = e["error"].to_numpy()
        mean, low, high = mean_interval(x)
        row = {"agent": name, "decisions": len(x), "error_rate": mean, "low": low, "high": high,
               "best_share": float((x <= 1e-9).mean())}  # fmt: skip
        for n in PLAYER_COUNTS:
            row[f"{n}p"] = e.loc[e["players"] == n, "error"].mean()
        rows.append(row)
    return pd.DataFrame(rows).sort_values("error_rate", ascending=False, ignore_index=True)


def network_accuracy(parts: Sequence[Benchmark], path: str | Path | None = None) -> pd.DataFrame:
    """One row per candidate: the network's win probability after it and the label."""
    rows = []
    for b in parts:
        n = b.config.players
        phase = b.phase()
        for i in range(len(b)):
            start = b.states.state(i)
            seat = int(start.status[0]["to_move"])
            after_states, cells = [], []
            for c in np.flatnonzero(b.candidates[i]):
                after = E.copy_state(start)
                E.finish_turn(b.config.board, after, int(c), 0, -1)
                if int(after.status[0]["reason"]) != int(E.EndReason.ONGOING):
                    continue
                after_states.append(after)
                cells.append(int(c))
            if not after_states:
                continue
            p = evaluate_states(b.config, E.stack_states(after_states), path)
            for j, cell in enumerate(cells):
                r = (seat - int(after_states[j].status[0]["to_move"])) % n
                rows.append({"players": n, "happy_hour": b.config.rules.happy_hour,
                             "phase": phase[i], "decision": i, "cell": cell,
                             "predicted": E.seat_value(p[j, r], p[j, n]),
                             "label": b.labels[i, cell]})  # fmt: skip
    return pd.DataFrame(rows)
