"""Reading a game as a player does: the legal placements, the board as a table and as a drawing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from pinastats.game.game import Game


@dataclass(frozen=True)
class Placement:
    """A legal placement: the cell, its coaster and the points it would score."""

    cell: int
    row: int
    col: int
    coaster: str
    combination: str
    points: int


def board_frame(game: Game) -> pd.DataFrame:
    """The board as a table: one row per cell (coaster, side, points, tokens per space)."""
    rows = []
    for cell, (r, c) in enumerate(game.config.layout.cells):
        coaster = game.coaster(cell)
        side = game.side(cell)
        rows.append(
            {
                "cell": cell,
                "row": r,
                "col": c,
                "coaster": coaster.id,
                "combination": coaster.combination.value,
                "side": side,
                "points": coaster.points(side),
                "tokens": game.tokens(cell),
                "spaces": game.spaces(cell),
            }
        )
    return pd.DataFrame(rows)


def draw(game: Game, width: int = 16) -> str:
    """The board as text: each cell's combination, side, points and the seats on its spaces.

    A space shows the seat number on it, or ``·`` when free, e.g. ``Full House B4/3 [1·]``.
    """
    layout = game.config.layout
    rows, cols = layout.shape
    grid = [["" for _ in range(cols)] for _ in range(rows)]
    for cell, (r, c) in enumerate(layout.cells):
        coaster = game.coaster(cell)
        side = game.side(cell)
        points = "/".join(str(p) for p in coaster.points(side))
        seats = "".join("·" if s is None else str(s) for s in game.spaces(cell))
        grid[r][c] = f"{coaster.combination.value[:width]} {side}{points} [{seats}]"
    cell_width = max(len(t) for row in grid for t in row)
    lines = [" | ".join(t.ljust(cell_width) for t in row).rstrip() for row in grid]
    status = (
        "over: " + game.end_reason.name.lower().replace("_", " ")
        if game.is_over
        else (f"seat {game.to_move} to move")
    )
    scores = ", ".join(
        f"seat {p}: {s} points, {r} in reserve"
        for p, (s, r) in enumerate(zip(game.scores, game.reserves, strict=True))
    )
    return "\n".join([f"turn {game.turn}, {status}; {scores}", *lines])
