"""An agent of one's own: always build from a corner, then next to one's own tokens.

Play it against a built-in agent::

    python examples/corner_agent.py
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pinastats.agents import PythonAgent
from pinastats.game import Game


class CornerAgent(PythonAgent):
    """Stops at the first roll; places on a free corner, else next to its own tokens."""

    name = "corner"

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        """The legal cell that is a corner, then the one nearest its own tokens."""
        rows, cols = game.config.layout.shape
        corners = {(0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)}
        mine = {(c.row, c.col) for c in game.cells if game.to_move in c.tokens}

        def score(cell: int) -> tuple[int, int]:
            view = game.cells[cell]
            near = sum(abs(view.row - r) <= 1 and abs(view.col - c) <= 1 for r, c in mine)
            return ((view.row, view.col) in corners, near)

        return max(game.legal_cells(dice), key=score)


if __name__ == "__main__":
    from pinastats.simulation import simulate

    seats: list[Any] = [CornerAgent(), "strategic"]
    result = simulate(seats, 1000, seed=1)
    print(result)
