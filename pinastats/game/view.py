"""Reading a game as a player does: cells, result, placements, the board as table and drawing.

The views are frozen snapshots: reading them never changes the game, and a move
played afterwards does not change a view already taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from pinastats.game.rules import EndReason

if TYPE_CHECKING:
    import pandas as pd

    from pinastats.game.game import Game


@dataclass(frozen=True)
class CellView:
    """One cell of the board as it is now: place, coaster, side and the seat on each space.

    ``spaces`` has one entry on side A and two on side B (``None``: a free space).
    """

    cell: int
    row: int
    col: int
    coaster: str
    combination: str
    side: str
    spaces: tuple[int | None, ...]

    @property
    def tokens(self) -> tuple[int, ...]:
        """The seats with a token on the cell, in space order."""
        return tuple(s for s in self.spaces if s is not None)

    @property
    def is_full(self) -> bool:
        """Whether every token space of the cell is taken."""
        return None not in self.spaces


def cell_views(game: Game) -> tuple[CellView, ...]:
    """Every cell of ``game`` as a :class:`CellView`, in cell order."""
    state, catalogue = game.state, game.config.catalogue.coasters
    out = []
    for cell, (r, c) in enumerate(game.config.layout.cells):
        coaster = catalogue[int(state.cell_coaster[cell])]
        side = int(state.cell_side[cell])
        seats = state.spaces[cell, : 1 + side]
        out.append(
            CellView(
                cell,
                r,
                c,
                coaster.id,
                coaster.combination.value,
                "AB"[side],
                tuple(None if t < 0 else int(t) for t in seats),
            )
        )
    return tuple(out)


class Outcome(Enum):
    """The end result of a game, in four kinds."""

    ONGOING = "ongoing"
    """The game is still being played."""
    WON = "won"
    """A seat won (a line, the score, or the tie-break on recency)."""
    DRAW = "draw"
    """Tied leaders, none of whom ever placed a token: nobody won."""
    TURN_LIMIT = "turn limit"
    """The safety limit on turns stopped the game: nobody won."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class GameResult:
    """How a game stands: the :class:`Outcome`, the winning seat and the engine's reason."""

    outcome: Outcome
    winner: int | None
    reason: EndReason

    def __str__(self) -> str:
        """``seat 1 won: PIÑA COLADICE (a full line)``, ``draw: ...``, ``still being played``."""
        if self.outcome is Outcome.ONGOING:
            return str(self.reason)
        who = f"seat {self.winner} won" if self.outcome is Outcome.WON else str(self.outcome)
        return f"{who}: {self.reason}"

    @classmethod
    def of(cls, reason: EndReason, winner: int | None) -> GameResult:
        """The result of a game that ended for ``reason`` (``winner``: the seat, or None)."""
        if reason is EndReason.ONGOING:
            return cls(Outcome.ONGOING, None, reason)
        if reason is EndReason.TURN_LIMIT:
            return cls(Outcome.TURN_LIMIT, None, reason)
        if winner is None:
            return cls(Outcome.DRAW, None, reason)
        return cls(Outcome.WON, winner, reason)


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
    import pandas as pd  # imported here: playing a game does not need it

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
    status = f"over: {game.end_reason}" if game.is_over else (f"seat {game.to_move} to move")
    scores = ", ".join(
        f"seat {p}: {s} points, {r} in reserve"
        for p, (s, r) in enumerate(zip(game.scores, game.reserves, strict=True))
    )
    return "\n".join([f"turn {game.turn}, {status}; {scores}", *lines])
