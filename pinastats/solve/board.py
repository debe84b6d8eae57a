"""What one solve depends on: a dealt board of a two-player base game, as the solver's arrays.

:class:`SolvedBoard` is built from a :class:`~pinastats.game.Game` (its config and
the coaster on each cell) and refuses what the solver does not cover, with one
line that says why: Happy Hour, three or four players, a coaster with two token
spaces, a layout too large to hold in memory. Its :attr:`~SolvedBoard.digest`
names everything the solution depends on (the cells' combinations and points,
neighbours, lines, starting scores, target, tokens, rolls and the solver's own
source), so a table is never read for another game.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from pinastats._arrays import IntArray
from pinastats.dice.combinations import combination_masks
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game

SOLVER_SOURCES = ("_engine/solve.py", "dice/_kernels.py", "dice/hands.py")
"""The files a solution's values are computed by: an edit gives every board a new digest."""

MAX_CELLS = 24
"""Most cells a solved layout can have (cells are bits of a 64-bit mask; the memory check
refuses large layouts long before)."""

VALUE_BYTES = 8
"""Bytes per position while solving (float64)."""

STORED_BYTES = 4
"""Bytes per position of the table a solve ends with (float32), made while the float64
one is still held."""


class SolveError(PinastatsError):
    """A position or game the exact solver does not cover, or a solve that cannot run."""


def _source_digest() -> str:
    package = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for name in SOLVER_SOURCES:
        h.update(name.encode())
        h.update((package / name).read_bytes())
    return h.hexdigest()


def binomials(n: int) -> IntArray:
    """``(n + 2, n + 2)`` table of ``C(i, j)`` (0 where ``j > i``)."""
    table = np.zeros((n + 2, n + 2), dtype=np.int64)
    for i in range(n + 2):
        for j in range(i + 1):
            table[i, j] = math.comb(i, j)
    return table


def layer_offsets(n_cells: int, tokens: int) -> tuple[IntArray, int]:
    """``offset[a, b]``: where layer ``(a, b)`` starts (``a, b < tokens``), and the total."""
    offset = np.zeros((tokens, tokens), dtype=np.int64)
    total = 0
    for a in range(tokens):
        for b in range(tokens):
            offset[a, b] = total
            total += math.comb(n_cells, a) * math.comb(n_cells - a, b) if a + b <= n_cells else 0
    return offset, total


def uncovered(config: GameConfig) -> str | None:
    """Why the solver does not cover games of ``config``, or None when it does."""
    if config.players != 2:
        return f"the exact solution covers two players, not {config.players}"
    if config.rules.happy_hour:
        return "the exact solution covers the base game, not Happy Hour"
    if any(side.value != "A" for side in config.layout.sides_for(2)):
        return "the exact solution covers coasters with one token space (side A) only"
    if config.layout.n_cells > MAX_CELLS:
        return f"the exact solution covers layouts of at most {MAX_CELLS} cells"
    return None


@dataclass(frozen=True)
class SolvedBoard:
    """A two-player base game's dealt board in the solver's terms (cells as bits).

    Attributes:
        config: the game's config.
        coasters: the catalogue index of the coaster on each cell.
    """

    config: GameConfig
    coasters: tuple[int, ...]

    def __post_init__(self) -> None:
        why = uncovered(self.config)
        if why is not None:
            raise SolveError(why)
        if len(self.coasters) != self.config.layout.n_cells:
            raise SolveError(
                f"a board has one coaster per cell ({self.config.layout.n_cells}), "
                f"got {len(self.coasters)}"
            )
        rules, scores = self.config.rules, self.config.start_scores
        if max(scores) >= rules.target_score:
            raise SolveError(
                f"starting scores {tuple(int(s) for s in scores)} must be below the target "
                f"{rules.target_score}: such a game ends before it starts"
            )

    @classmethod
    def of(cls, game: Game) -> SolvedBoard:
        """The board ``game`` is played on."""
        return cls(game.config, tuple(int(c) for c in game.state.cell_coaster))

    @property
    def n_cells(self) -> int:
        """Cells of the layout."""
        return self.config.layout.n_cells

    @property
    def tokens(self) -> int:
        """Tokens per player."""
        return self.config.rules.tokens

    @property
    def rolls(self) -> int:
        """Rolls per turn."""
        return self.config.rules.rolls

    @cached_property
    def points(self) -> IntArray:
        """``(n_cells,)`` the points of each cell's (only) space."""
        table = self.config.catalogue.points_table()
        return np.array([table[c, 0, 0] for c in self.coasters], dtype=np.int64)

    @cached_property
    def neighbour_masks(self) -> IntArray:
        """``(n_cells,)`` each cell's neighbours as a bit mask."""
        layout = self.config.layout
        return np.array(
            [sum(1 << n for n in layout.neighbour_cells(c)) for c in range(self.n_cells)],
            dtype=np.int64,
        )

    @cached_property
    def line_masks(self) -> IntArray:
        """``(n_lines,)`` each line's cells as a bit mask."""
        lines = self.config.layout.line_cells()
        return np.array([sum(1 << c for c in line) for line in lines], dtype=np.int64)

    @cached_property
    def hand_cells(self) -> tuple[IntArray, IntArray, IntArray]:
        """For each hand: the cells whose coaster it shows, as CSR ``(ptr, cells)`` and a mask."""
        shows = combination_masks()
        codes = self.config.catalogue.combination_codes()
        ptr, cells, masks = [0], [], []
        for h in range(shows.shape[1]):
            row = [c for c in range(self.n_cells) if shows[codes[self.coasters[c]], h]]
            cells.extend(row)
            ptr.append(len(cells))
            masks.append(sum(1 << c for c in row))
        as_int = (np.array(ptr, dtype=np.int64), np.array(cells, dtype=np.int64))
        return (*as_int, np.array(masks, dtype=np.int64))

    @cached_property
    def binom(self) -> IntArray:
        """``C(i, j)`` for the index."""
        return binomials(self.n_cells)

    @cached_property
    def layers(self) -> tuple[IntArray, int]:
        """``(offset, total)`` of :func:`layer_offsets`."""
        return layer_offsets(self.n_cells, self.tokens)

    @property
    def positions(self) -> int:
        """Boards in the table (each with two movers)."""
        return self.layers[1]

    def memory_needed(self) -> int:
        """Bytes a solve holds at once: its tables, the last turn's table, scratch.

        The tables are the float64 one and the float32 one made from it at the end,
        two movers a board.
        """
        tables = self.positions * 2 * (VALUE_BYTES + STORED_BYTES)
        return tables + (1 << self.n_cells) * 8 + 64 * 2**20

    @cached_property
    def digest(self) -> str:
        """SHA-256 of everything the solution depends on (hex)."""
        rules = self.config.rules
        h = hashlib.sha256(b"pinastats-solution-1")
        h.update(_source_digest().encode())
        ptr, cells, _ = self.hand_cells
        for array in (self.points, self.neighbour_masks, self.line_masks, ptr, cells,
                      np.asarray(self.config.start_scores, dtype=np.int64)):  # fmt: skip
            h.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
            h.update(b"|")
        h.update(f"{rules.target_score},{rules.tokens},{rules.rolls}".encode())
        return h.hexdigest()

    def game_tuple(self, final_turn: np.ndarray) -> tuple[object, ...]:
        """The kernels' ``game`` tuple (see :mod:`pinastats._engine.solve`)."""
        rules, start = self.config.rules, self.config.start_scores
        offset, _ = self.layers
        return (
            self.n_cells, rules.tokens, rules.target_score, int(start[0]), int(start[1]),
            self.points, self.neighbour_masks, self.line_masks, self.binom, offset, final_turn,
        )  # fmt: skip
