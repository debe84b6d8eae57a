"""Building and checking game states: a given board, or arrays from elsewhere (a saved position).

The functions here fill a :class:`~pinastats._engine.state.GameState`;
:class:`~pinastats.game.game.Game` wraps the result.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pinastats import _engine as E
from pinastats._engine import EndReason, GameState, Trigger, empty_state
from pinastats.errors import PinastatsError, expect_instance
from pinastats.game.config import VALUE_LIMIT, GameConfig

Seed = int | np.random.Generator | None
"""A seed: a whole number, a generator (used as it is) or None (fresh entropy)."""


def as_generator(seed: Seed) -> np.random.Generator:
    """A ``numpy.random.Generator`` from a seed, or the generator itself."""
    if isinstance(seed, np.random.Generator):
        return seed
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError):
        raise PinastatsError(
            f"seed must be a whole number >= 0, a numpy.random.Generator or None, got {seed!r}"
        ) from None


def config_for(players: int | None, config: GameConfig | None) -> GameConfig:
    """The config given, or the default one for ``players`` (2 if not given); checked to agree."""
    if config is None:
        return GameConfig(players=2 if players is None else players)
    if players is not None and players != config.players:
        raise PinastatsError(
            f"players={players} disagrees with the config's {config.players} players"
        )
    return config


def board_state(
    config: GameConfig,
    board: Sequence[Sequence[str]] | Sequence[str],
    sides: Sequence[str] | None,
    first_player: int,
) -> GameState:
    """A new game's state on a given board: coaster ids or names per cell (rows, or flat).

    ``sides`` ("A"/"B" per cell, rows or flat) defaults to the layout's sides for
    the player count; scores and reserves are those of the setup.
    """
    names = [n for row in board for n in ([row] if isinstance(row, str) else row)]
    n = config.layout.n_cells
    if len(names) != n:
        raise PinastatsError(
            f"the board names {len(names)} coasters; the layout "
            f"{config.layout.name!r} has {n} cells"
        )
    coasters = [config.catalogue.find(name) for name in names]
    index = {c.id: i for i, c in enumerate(config.catalogue)}
    ids = [c.id for c in coasters]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise PinastatsError(f"each coaster exists once; the board repeats {', '.join(dup)}")
    state = empty_state(n, config.players)
    state.cell_coaster[:] = [index[c.id] for c in coasters]
    if sides is None:
        state.cell_side[:] = config.sides
    else:
        rows = list(sides)
        flat = [s for row in rows if isinstance(row, str) for s in row.strip().upper()]
        texts = all(isinstance(row, str) for row in rows)
        if not texts or len(flat) != n or set(flat) - {"A", "B"}:
            raise PinastatsError(
                f"sides must give 'A' or 'B' for each of the {n} cells, got {rows}"
            )
        state.cell_side[:] = [0 if s == "A" else 1 for s in flat]
    if (
        isinstance(first_player, bool)
        or not isinstance(first_player, int)
        or not 0 <= first_player < config.players
    ):
        raise PinastatsError(
            f"first player must be a seat from 0 to {config.players - 1}, got {first_player!r}"
        )
    E.start_game(state, first_player, config.start_scores, config.rules.tokens)
    return state


def check_state(config: GameConfig, state: GameState) -> None:
    """Raise :class:`PinastatsError` unless ``state`` fits ``config``.

    Checked: shapes, seats, spaces, the status codes, reserves (0 to the rule's
    tokens), and scores, recency clocks and counts within
    :data:`~pinastats.game.config.VALUE_LIMIT`, so that no turn makes a 64-bit
    integer wrap round.
    """
    expect_instance(config, GameConfig, "config", "GameConfig()")
    expect_instance(state, GameState, "state", "a game's state (Game.new().state)")
    n, p = config.layout.n_cells, config.players
    expected = empty_state(n, p)
    for name, want, got in zip(GameState._fields, expected, state, strict=True):
        if got.shape != want.shape or got.dtype != want.dtype:
            raise PinastatsError(
                f"state.{name} must have shape {want.shape} and dtype {want.dtype}, "
                f"got {got.shape} {got.dtype}"
            )
    n_coasters = len(config.catalogue)
    if ((state.cell_coaster < 0) | (state.cell_coaster >= n_coasters)).any():
        raise PinastatsError(f"state.cell_coaster holds catalogue indices 0 to {n_coasters - 1}")
    if len(set(state.cell_coaster.tolist())) != n:
        raise PinastatsError("each coaster lies on one cell at most (state.cell_coaster repeats)")
    if ((state.cell_side < 0) | (state.cell_side > 1)).any():
        raise PinastatsError("state.cell_side holds 0 (side A) or 1 (side B)")
    spaces = state.spaces
    if ((spaces < -1) | (spaces >= p)).any():
        raise PinastatsError(f"state.spaces hold seats 0 to {p - 1} or -1, got {spaces.tolist()}")
    if ((state.cell_side == 0) & (spaces[:, 1] >= 0)).any():
        raise PinastatsError("a side-A coaster has one token space; state.spaces[:, 1] must be -1")
    both = (spaces[:, 0] >= 0) & (spaces[:, 0] == spaces[:, 1])
    if both.any():
        raise PinastatsError("a seat has two tokens on one coaster (state.spaces)")
    status = state.status[0]
    if not (0 <= status["first"] < p and 0 <= status["to_move"] < p):
        raise PinastatsError(f"state.status: first and to_move must be seats 0 to {p - 1}")
    if not -1 <= status["winner"] < p:
        raise PinastatsError(
            f"state.status: winner must be a seat 0 to {p - 1} or -1, got {status['winner']}"
        )
    for field, codes in (("trigger", Trigger), ("reason", EndReason)):
        allowed = [int(code) for code in codes]
        if int(status[field]) not in allowed:
            raise PinastatsError(
                f"state.status: {field} must be a {codes.__name__} code {allowed}, "
                f"got {status[field]}"
            )
    tokens, limit = config.rules.tokens, VALUE_LIMIT
    ranges = (
        ("players", "reserve", state.players["reserve"], 0, tokens),
        ("players", "score", state.players["score"], -limit, limit),
        ("players", "last_placed", state.players["last_placed"], 0, limit),
        ("status", "turn", state.status["turn"], 0, limit),
        ("status", "placements", state.status["placements"], 0, limit),
    )
    for record, field, values, low, high in ranges:
        if ((values < low) | (values > high)).any():
            raise PinastatsError(
                f"state.{record}[{field!r}] must lie from {low:,} to {high:,}, "
                f"got {values.tolist()}"
            )


def judge(config: GameConfig, state: GameState) -> None:
    """Judge a loaded state as at the end of the previous turn (the engine's end check).

    ``status.turn`` counts the turns of the round so far: a full line has won, a
    score at the target or an empty reserve triggers the end, and a complete
    round (``turn`` a multiple of the player count) then ends the game.
    """
    mover = (int(state.status[0]["to_move"]) - 1) % config.players
    E.judge(config.board, state, mover)
