"""Training positions for the learned evaluator, labelled by play-outs.

A data set is made by self-play: :func:`~pinastats.simulation.simulate` plays
the games (on local threads or a Dask cluster, through its ``play_chunk``
hook), the chunk kernel keeps the position at the start of every turn, each
position is kept with probability ``sample`` (drawn from the chunk's own
seed), and every kept position is played out ``playouts`` times to the end,
every seat played by ``policy``. The label of a position is the share of
those play-outs won by each seat, counted from the seat to move (relative
seat 0 the mover, 1 the next, ...), and the share with no winner.

Play-outs use common random numbers: play-out ``j`` of every position draws
from a stream seeded with word ``j`` of ``SeedSequence(seed)``'s child
``10**6``; the games of chunk ``i`` are the chunks' own. So the same
arguments give the same data set, whatever the workers.

A data set is written as Parquet (:func:`write_positions`), one row a
position, its provenance (command, seed, agents, play-outs, rules, digest) in
the file's metadata under ``pinastats``.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from pinastats import _engine as E
from pinastats._arrays import FloatArray, IntArray
from pinastats._engine import StateBatch, new_stream, stream_rng, turn_tables
from pinastats._files import written_whole
from pinastats.agents.builtin import MAX_PLAYOUTS, Agent, AgentKind, make_agent
from pinastats.agents.tables import workspace
from pinastats.dice.errors import whole_number
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.rules import Rules
from pinastats.simulation import simulate
from pinastats.simulation.chunk import ChunkSpec, play_chunk, snapshots

DATA_VERSION = 1
"""Version of the Parquet layout of a data set."""

TURNS_ROOM = 64
"""Room for positions per game of a chunk (a game of 2-4 players takes 8-30 turns)."""

_CRN_CHILD = 10**6  # the SeedSequence child whose words seed the play-outs


class DataError(PinastatsError):
    """Bad settings of a data set, or a file that is not one."""


@dataclass(frozen=True)
class Positions:
    """Labelled positions of one player count (a data set, or part of one).

    Attributes:
        config: the game the positions are of (players, layout, rules).
        states: the positions.
        labels: ``(N, players + 1)`` share of play-outs won by each relative
            seat, then with no winner.
        source: ``(N,)`` the agents of the game each position comes from.
        game: ``(N,)`` the run's game number of each position.
        provenance: how the positions were made.
    """

    config: GameConfig
    states: StateBatch
    labels: FloatArray
    source: Any
    game: IntArray
    provenance: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.labels.shape[0])

    @property
    def players(self) -> int:
        """The player count."""
        return self.config.players

    def value(self, relative_seat: int = 0) -> FloatArray:
        """Each position's label for ``relative_seat``: the engine's :func:`~E.seat_value`."""
        value: FloatArray = E.seat_value(self.labels[:, relative_seat], self.labels[:, -1])
        return value

    def take(self, rows: IntArray, **provenance: Any) -> Positions:
        """The positions at ``rows``, in that order; ``provenance`` updates the copy of it."""
        return Positions(self.config, _take(self.states, rows), self.labels[rows],
                         self.source[rows], self.game[rows],
                         {**self.provenance, **provenance})  # fmt: skip

    def digest(self) -> str:
        """SHA-256 of the positions and labels (what a network trained on them names)."""
        h = hashlib.sha256()
        for a in (*self.states, self.labels):
            h.update(np.ascontiguousarray(a).tobytes())
        return h.hexdigest()


def playout_seeds(seed: int, playouts: int) -> np.ndarray:
    """The stream seeds of the ``playouts`` play-outs of every position (common random numbers)."""
    child = np.random.SeedSequence(seed, spawn_key=(_CRN_CHILD,))
    return child.generate_state(playouts, dtype=np.uint64)


def label_states(
    config: GameConfig, states: StateBatch, policy: Agent, seeds: np.ndarray
) -> FloatArray:
    """``(N, players + 1)``: the share of play-outs each relative seat wins, then no winner.

    Every seat of play-out ``j`` is played by the one-turn agent ``policy`` on
    the stream seeded with ``seeds[j]``.
    """
    out = np.zeros((len(states), config.players + 1))
    if len(states):
        tables, work = turn_tables(config.rules.rolls), workspace(config, memo=True)
        rng, words = stream_rng(new_stream()), np.asarray(seeds, dtype=np.uint64)
        E.label_positions(policy.code, policy.param_vector(), config.board, states, tables, work,
                          rng, words, out)  # fmt: skip
    return out


def _take(states: StateBatch, rows: IntArray) -> StateBatch:
    return StateBatch(*(np.ascontiguousarray(a[rows]) for a in states))  # type: ignore[arg-type]


def _turn_outcomes(config: GameConfig, states: StateBatch, share: float,
                   pick: np.random.Generator) -> tuple[StateBatch, IntArray]:  # fmt: skip
    """``states`` with a ``share`` of them replaced by a random way the mover's turn can end.

    The turn ends with a token on one of the cells open to the mover or with a
    pass, each as likely (the positions an agent weighs, good moves and bad);
    a replaced position where the game is then over is dropped. Returns the
    positions and the row of ``states`` each comes from.
    """
    board = config.board
    kept: list[E.GameState] = []
    rows: list[int] = []
    for i in range(len(states)):
        state = states.state(i)
        if pick.random() < share:
            seat = int(state.status[0]["to_move"])
            cells = [c for c in range(len(state.cell_coaster)) if E.open_to(state, seat, c)]
            choice = int(pick.integers(len(cells) + 1))
            E.finish_turn(board, state, cells[choice] if choice < len(cells) else -1, 0, -1)
            if int(state.status[0]["reason"]) != int(E.EndReason.ONGOING):
                continue
        kept.append(state)
        rows.append(i)
    index = np.array(rows, dtype=np.int64)
    if not kept:
        return StateBatch(*(a[:0] for a in states)), index  # type: ignore[arg-type]
    return E.stack_states(kept), index


def labelled_chunk(
    spec: ChunkSpec, *, sample: float, policy: str, seeds: np.ndarray, outcomes: float = 0.0
) -> dict[str, Any]:
    """Play chunk ``spec`` keeping positions, and label them (``simulate``'s ``play_chunk``).

    ``outcomes``: the share of kept positions replaced by a random end of the
    mover's turn (:func:`_turn_outcomes`). Returns the chunk's per-game arrays
    and ``states``, ``labels``, ``game``.
    """
    room = TURNS_ROOM * spec.games
    snaps = snapshots(room, spec.config)
    out, _ = play_chunk(spec, snaps=snaps)
    offered = int(snaps.offered[0])
    if offered > room:
        raise DataError(f"a chunk of {spec.games} games offered {offered} positions for {room}")
    pick = np.random.default_rng(
        np.random.SeedSequence(spec.seed.entropy, spawn_key=(*spec.seed.spawn_key, 1))
    )
    keep = np.flatnonzero(pick.random(offered) < sample)
    states = _take(snaps.states, keep)
    game = snaps.game[keep] + spec.first_game
    if outcomes > 0:
        states, rows = _turn_outcomes(spec.config, states, outcomes, pick)
        game = game[rows]
    labels = label_states(spec.config, states, make_agent(policy), seeds)
    arrays: dict[str, Any] = out._asdict()
    arrays.update(states=states, labels=labels, game=game)
    return arrays


def make_positions(
    agents: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    config: GameConfig | None = None,
    sample: float = 0.5,
    playouts: int = 64,
    policy: str = "strategic",
    chunk_size: int = 25,
    outcomes: float = 0.0,
    workers: int | None = None,
    executor: Any = None,
    progress: bool | Literal["bar", "lines", "off"] = False,
    command: str = "",
) -> Positions:
    """Labelled positions of ``games`` games of ``agents`` (built-in, one per seat).

    ``sample``: the chance that a turn's starting position is kept;
    ``outcomes``: the share of those replaced by a random end of the turn;
    ``playouts``: play-outs per position; ``policy``: the one-turn agent of
    the play-outs (see the module docstring). ``workers``/``executor``/
    ``progress`` are :func:`~pinastats.simulation.simulate`'s.
    """
    config = GameConfig(players=len(agents)) if config is None else config
    seats = [make_agent(a) for a in agents]
    if not all(isinstance(a, Agent) for a in seats):
        raise DataError(f"training games are played by built-in kernel agents, got {list(agents)}")
    if not (isinstance(sample, float | int) and 0 < sample <= 1):
        raise DataError(f"sample must be a chance in (0, 1], got {sample!r}")
    if not (isinstance(outcomes, float | int) and 0 <= outcomes <= 1):
        raise DataError(f"outcomes must be a share in [0, 1], got {outcomes!r}")
    playouts = whole_number(playouts, "play-outs", 1, MAX_PLAYOUTS, DataError)
    agent = make_agent(policy)
    if not isinstance(agent, Agent) or agent.kind is AgentKind.ROLLOUT:
        raise DataError(f"the play-out policy must be a one-turn built-in agent, got {policy!r}")
    seeds = playout_seeds(seed, playouts)
    parts: list[dict[str, Any]] = []

    def keep(index: int, arrays: dict[str, Any]) -> dict[str, Any]:
        parts.append({k: arrays.pop(k) for k in ("states", "labels", "game")})
        return arrays

    simulate(
        seats, games, seed=seed, config=config, chunk_size=chunk_size, workers=workers,
        executor=executor, progress=progress, chunk_sink=keep,
        play_chunk=functools.partial(labelled_chunk, sample=float(sample), policy=agent.name,
                                     seeds=seeds, outcomes=float(outcomes)),
    )  # fmt: skip
    parts.sort(key=lambda p: int(p["game"][0]) if len(p["game"]) else -1)
    states = StateBatch(*(np.concatenate([p["states"][k] for p in parts]) for k in range(5)))
    labels = np.concatenate([p["labels"] for p in parts])
    game = np.concatenate([p["game"] for p in parts])
    order = np.argsort(game, kind="stable")
    name = ",".join(a.name for a in seats)
    positions = Positions(
        config, _take(states, order), labels[order], np.full(len(order), name, dtype=object),
        game[order],
    )  # fmt: skip
    provenance = {
        "version": DATA_VERSION,
        "command": command,
        "seed": seed,
        "agents": [a.name for a in seats],
        "games": games,
        "sample": sample,
        "outcomes": outcomes,
        "playouts": playouts,
        "policy": agent.name,
        "chunk_size": chunk_size,
        "players": config.players,
        "rules": _rules_dict(config.rules),
        "layout": config.layout.name,
        "positions": len(positions),
        "digest": positions.digest(),
    }
    return Positions(positions.config, positions.states, positions.labels, positions.source,
                     positions.game, provenance)  # fmt: skip


def _rules_dict(rules: Rules) -> dict[str, Any]:
    names = ("target_score", "tokens", "happy_hour", "negative_scores", "max_turns", "rolls")
    return {k: getattr(rules, k) for k in names}


# ------------------------------------------------------------------ Parquet


def _frame(positions: Positions) -> pd.DataFrame:
    s = positions.states
    n_cells, n = s.cell_coaster.shape[1], positions.players
    columns: dict[str, Any] = {"source": positions.source, "game": positions.game}
    for c in range(n_cells):
        columns[f"coaster_{c}"] = s.cell_coaster[:, c]
        columns[f"side_{c}"] = s.cell_side[:, c]
        columns[f"space_{c}_0"] = s.spaces[:, c, 0]
        columns[f"space_{c}_1"] = s.spaces[:, c, 1]
    for p in range(n):
        for name in ("score", "reserve", "last_placed"):
            columns[f"{name}_{p}"] = s.players[name][:, p]
    for name in s.status.dtype.names or ():
        columns[f"status_{name}"] = s.status[name][:, 0]
    for r in range(n):
        columns[f"win_{r}"] = positions.labels[:, r]
    columns["no_winner"] = positions.labels[:, n]
    columns["happy_hour"] = np.full(len(positions), positions.config.rules.happy_hour)
    return pd.DataFrame(columns)


def write_positions(path: str | Path, positions: Positions) -> None:
    """Write ``positions`` as Parquet (whole, or not at all) with their provenance."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(_frame(positions), preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[b"pinastats"] = json.dumps(positions.provenance, sort_keys=True).encode()
    table = table.replace_schema_metadata(meta)
    with written_whole(Path(path)) as handle:
        pq.write_table(table, handle)


def read_positions(path: str | Path, config: GameConfig | None = None) -> Positions:
    """The positions of a Parquet file written by :func:`write_positions`.

    ``config`` (default: the standard game for the file's players and Happy
    Hour setting) must be the game the positions are of.
    """
    import pyarrow.parquet as pq

    where = Path(path)
    if not where.is_file():
        raise DataError(f"no data set at {str(path)!r}")
    try:
        table = pq.read_table(where)
    except Exception as exc:
        raise DataError(f"{str(path)!r} is not a Parquet data set: {exc}") from None
    meta = table.schema.metadata or {}
    if b"pinastats" not in meta:
        raise DataError(f"{str(path)!r} has no pinastats provenance: not a data set of pinastats")
    provenance = json.loads(meta[b"pinastats"])
    frame = table.to_pandas()
    n = int(provenance["players"])
    if config is None:
        rules = provenance.get("rules") or _rules_dict(Rules())
        config = GameConfig(players=n, rules=Rules(**rules))
    n_cells = config.layout.n_cells
    states = E.state_batch(len(frame), n_cells, n)
    for c in range(n_cells):
        states.cell_coaster[:, c] = frame[f"coaster_{c}"]
        states.cell_side[:, c] = frame[f"side_{c}"]
        states.spaces[:, c, 0] = frame[f"space_{c}_0"]
        states.spaces[:, c, 1] = frame[f"space_{c}_1"]
    for p in range(n):
        for name in ("score", "reserve", "last_placed"):
            states.players[name][:, p] = frame[f"{name}_{p}"]
    for name in states.status.dtype.names or ():
        states.status[name][:, 0] = frame[f"status_{name}"]
    labels = frame[[*(f"win_{r}" for r in range(n)), "no_winner"]].to_numpy(dtype=np.float64)
    return Positions(config, states, labels, frame["source"].to_numpy(dtype=object),
                     frame["game"].to_numpy(dtype=np.int64), provenance)  # fmt: skip
