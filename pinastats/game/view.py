"""What a player reads off a game: its cells, its result, a legal placement.

The game object (:class:`~pinastats.game.Game`) hands these out. They are frozen
snapshots: reading them never changes the game, and a move played afterwards does
not change a view already taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pinastats.game.rules import EndReason


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
