"""Game positions as plain data (the JSON state files of ``pinastats advise``).

A position is a mapping with the fields::

    players      2, 3 or 4
    board        rows of coaster names or ids (e.g. "full house", "pair of 6s")
    tokens       rows of lists: the seats with a token on each coaster, in placement order
    scores       one score per seat
    to_move      the seat whose turn it is
    sides        optional rows of "A"/"B" (default: the layout's sides for the player count)
    layout       optional layout name or file (default "standard")
    first_player optional seat that played first (default 0)
    last_placed  optional, per seat: how recently it placed a token (higher = more
                 recent, 0 = never); decides ties at the end (default: all 0)

Reserves are the rule's tokens per player minus the tokens on the board. A
position is judged as at the end of a turn: a player with a full line has won;
a score at the target or an empty reserve has triggered the end, and when the
round is complete (``to_move`` is the first player) the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pinastats.game import _kernels as K
from pinastats.game.catalogue import Catalogue, load_catalogue
from pinastats.game.config import MAX_PLAYERS, MIN_PLAYERS, GameConfig
from pinastats.game.game import Game
from pinastats.game.layout import load_layout
from pinastats.game.rules import Rules

REQUIRED = ("players", "board", "tokens", "scores", "to_move")
OPTIONAL = ("sides", "layout", "first_player", "last_placed")


class PositionError(ValueError):
    """A position that breaks the format or the rules; the message names the field."""


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{key} must be a whole number, got {value!r}")
    return value


def _rows(data: Mapping[str, Any], key: str, shape: tuple[int, int] | None, n: int) -> list[Any]:
    value = data[key]
    if not isinstance(value, list):
        raise PositionError(f"{key} must be a list of rows, got {type(value).__name__}")
    flat: list[Any] = []
    for r, row in enumerate(value):
        if isinstance(row, str) and key == "sides":
            row = list(row)
        if not isinstance(row, list):
            raise PositionError(f"{key}[{r}] must be a list, got {row!r}")
        flat.extend(row)
    if len(flat) != n:
        where = f" ({shape[0]} rows of {shape[1]})" if shape else ""
        raise PositionError(f"{key} must describe {n} cells{where}, got {len(flat)}")
    return flat


def game_from_position(
    data: Mapping[str, Any], *, catalogue: Catalogue | None = None, rules: Rules | None = None
) -> Game:
    """Build the game a position describes, checking every field against the rules."""
    if not isinstance(data, Mapping):
        raise PositionError(f"a position is a JSON object, got {type(data).__name__}")
    missing = [k for k in REQUIRED if k not in data]
    if missing:
        raise PositionError(
            f"missing field(s): {', '.join(missing)} (required: {', '.join(REQUIRED)})"
        )
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise PositionError(
            f"unknown field(s): {', '.join(unknown)} (allowed: {', '.join(REQUIRED + OPTIONAL)})"
        )
    players = _int(data, "players")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PositionError(f"players must be 2, 3 or 4, got {players}")
    layout = load_layout(data.get("layout", "standard"))
    config = GameConfig(
        players=players,
        catalogue=catalogue or load_catalogue(),
        layout=layout,
        rules=rules or Rules(),
    )
    n = layout.n_cells
    shape = layout.shape if n == layout.shape[0] * layout.shape[1] else None
    board = _rows(data, "board", shape, n)
    for i, name in enumerate(board):
        if not isinstance(name, str):
            raise PositionError(f"board cell {i} must be a coaster name, got {name!r}")
    sides = _rows(data, "sides", shape, n) if "sides" in data else None
    first = _int(data, "first_player") if "first_player" in data else 0
    if not 0 <= first < players:
        raise PositionError(f"first_player must be 0 to {players - 1}, got {first}")
    try:
        game = Game.from_board(board, config=config, sides=sides, first_player=first)
    except (ValueError, KeyError) as exc:  # an unknown coaster is a KeyError
        raise PositionError(f"board: {exc}") from None
    tokens = _rows(data, "tokens", shape, n)
    scores = data["scores"]
    if (
        not isinstance(scores, list)
        or len(scores) != players
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)
    ):
        raise PositionError(
            f"scores must list {players} whole numbers (one per seat), got {scores!r}"
        )
    to_move = _int(data, "to_move")
    if not 0 <= to_move < players:
        raise PositionError(f"to_move must be a seat from 0 to {players - 1}, got {to_move}")
    placed = [0] * players
    clock = 0
    for cell, seats in enumerate(tokens):
        if not isinstance(seats, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in seats
        ):
            raise PositionError(f"tokens of cell {cell} must be a list of seats, got {seats!r}")
        spaces = 1 + int(game.state.cell_side[cell])
        if len(seats) > spaces:
            raise PositionError(
                f"cell {cell} ({game.coaster(cell).id}, side {game.side(cell)}) "
                f"has {spaces} space(s) but {len(seats)} tokens"
            )
        if len(set(seats)) != len(seats):
            raise PositionError(f"cell {cell}: a player has two tokens on one coaster ({seats})")
        for space, seat in enumerate(seats):
            if not 0 <= seat < players:
                raise PositionError(f"cell {cell}: no seat {seat} among {players} players")
            game.state.spaces[cell, space] = seat
            placed[seat] += 1
            clock += 1
    last = data.get("last_placed", [0] * players)
    if (
        not isinstance(last, list)
        or len(last) != players
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in last)
    ):
        raise PositionError(
            f"last_placed must list {players} whole numbers >= 0 (one per seat), got {last!r}"
        )
    for seat in range(players):
        reserve = config.rules.tokens - placed[seat]
        if reserve < 0:
            raise PositionError(
                f"seat {seat} has {placed[seat]} tokens on the board; "
                f"each player has {config.rules.tokens}"
            )
        player = game.state.players[seat]
        player["reserve"] = reserve
        player["score"] = scores[seat]
        player["last_placed"] = last[seat]
    status = game.state.status[0]
    status["placements"] = max(clock, *last)
    status["to_move"] = to_move
    status["turn"] = (to_move - first) % players  # turns played in the current round
    _judge(game)
    return game


def _judge(game: Game) -> None:
    """Apply the engine's end check to a loaded position (as after the previous turn)."""
    board, state = game.config.board, game.state
    lines = [p for p in range(game.players) if K._has_line(board, state, p)]
    if len(lines) > 1:
        raise PositionError(f"seats {lines} each hold a full line; only one can have won")
    Game.from_state(game.config, state, judge=True)


def position_of(game: Game) -> dict[str, Any]:
    """The position of a game as plain data (inverse of :func:`game_from_position`)."""
    layout = game.config.layout
    rows, cols = layout.shape
    full_grid = layout.n_cells == rows * cols

    def shaped(values: list[Any]) -> list[Any]:
        return [values[r * cols : (r + 1) * cols] for r in range(rows)] if full_grid else [values]

    n = layout.n_cells
    return {
        "players": game.players,
        "layout": layout.name,
        "board": shaped([game.coaster(c).id for c in range(n)]),
        "sides": ["".join(row) for row in shaped([game.side(c) for c in range(n)])],
        "tokens": shaped([list(game.tokens(c)) for c in range(n)]),
        "scores": list(game.scores),
        "to_move": game.to_move,
        "first_player": game.first_player,
        "last_placed": list(game.last_placed),
    }
