"""What a game is, as the kernels see it: the one place that defines the engine's state.

Two named tuples of plain numpy arrays (numba compiles named tuples natively,
so kernels read ``board.lines`` and ``game.spaces``, never a position):

* :class:`Board`: everything fixed while a game is played — the catalogue's
  combinations and points, the layout's geometry, and the rule options;
* :class:`GameState`: everything a turn changes — the coaster and side of each
  cell, the seat on each token space, each seat's score, reserve and recency,
  and the status record (who moves, turns played, trigger, winner, reason).

A cell has two token spaces: side A uses space 0 only; side B uses both, and
the spaces are physical (a token on space 1 stays there when space 0 is
emptied). ``spaces[c, s]`` is the seat on space ``s`` of cell ``c``, or
:data:`NO_SEAT`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from pinastats._arrays import BoolArray, IntArray

NO_SEAT = -1
"""The seat value of a free space, or of "no winner"."""

SPACES = 2
"""Token spaces per cell (side A uses the first only)."""

PLAYER_DTYPE = np.dtype([("score", np.int64), ("reserve", np.int64), ("last_placed", np.int64)])
"""One record per seat: score, tokens left to place, recency clock of its last placement
(0 = never placed; the clock is the game's placement count at that moment)."""

STATUS_DTYPE = np.dtype(
    [
        ("first", np.int64),  # the seat that plays first
        ("turn", np.int64),  # turns completed
        ("to_move", np.int64),  # the seat whose turn it is
        ("trigger", np.int64),  # a Trigger value
        ("winner", np.int64),  # the winning seat, NO_SEAT
        ("reason", np.int64),  # an EndReason value
        ("placements", np.int64),  # tokens placed so far (the recency clock)
    ]
)
"""The game's status record (``GameState.status[0]``)."""


class Board(NamedTuple):
    """What stays fixed while a game is played (built once per :class:`GameConfig`).

    Attributes:
        coaster_combination: ``(n_coasters,)`` combination index of each catalogue coaster.
        coaster_points: ``(n_coasters, 2, 2)`` points of [side A/B][space 0/1]; side A
            space 1 is 0.
        neighbours: ``(n_cells, 8)`` neighbouring cells, padded with -1.
        lines: ``(n_lines, max_len)`` cells of each winning line, padded with -1.
        line_length: ``(n_lines,)`` cells in each line (before its padding).
        on_line: ``(n_cells, n_lines)`` whether a cell is one of a line's.
        shows: ``(n_combinations, 252)`` whether a hand shows a combination.
        comb_ptr: ``(n_combinations + 1,)`` CSR pointers: the hands showing
            combination ``i`` are ``comb_hands[comb_ptr[i]:comb_ptr[i + 1]]``.
        comb_hands: the hand indices of that CSR list.
        target_score: a score at least this high triggers the end.
        happy_hour: whether the Happy Hour variant is played.
        negative_scores: whether Happy Hour's "lose 3" may go below 0.
        max_turns: safety limit on turns (the game ends as TURN_LIMIT).
        rolls: rolls allowed per turn.
    """

    coaster_combination: IntArray
    coaster_points: IntArray
    neighbours: IntArray
    lines: IntArray
    line_length: IntArray
    on_line: BoolArray
    shows: BoolArray
    comb_ptr: IntArray
    comb_hands: IntArray
    target_score: int
    happy_hour: bool
    negative_scores: bool
    max_turns: int
    rolls: int


class GameState(NamedTuple):
    """What a turn changes; arrays the kernels update in place.

    Attributes:
        cell_coaster: ``(n_cells,)`` catalogue index of the coaster on each cell.
        cell_side: ``(n_cells,)`` 0 = side A (one space), 1 = side B (two spaces).
        spaces: ``(n_cells, 2)`` the seat on each token space, :data:`NO_SEAT` if free.
        players: ``(n_players,)`` records of :data:`PLAYER_DTYPE`.
        status: ``(1,)`` record of :data:`STATUS_DTYPE`.
    """

    cell_coaster: IntArray
    cell_side: IntArray
    spaces: IntArray
    players: npt.NDArray[np.void]
    status: npt.NDArray[np.void]


def empty_state(n_cells: int, n_players: int) -> GameState:
    """A zeroed state: no coasters assigned, every space free, no winner."""
    status = np.zeros(1, dtype=STATUS_DTYPE)
    status[0]["winner"] = NO_SEAT
    return GameState(
        np.zeros(n_cells, dtype=np.int64),
        np.zeros(n_cells, dtype=np.int64),
        np.full((n_cells, SPACES), NO_SEAT, dtype=np.int64),
        np.zeros(n_players, dtype=PLAYER_DTYPE),
        status,
    )


def copy_state(state: GameState) -> GameState:
    """An independent copy of ``state``."""
    return GameState(
        state.cell_coaster.copy(),
        state.cell_side.copy(),
        state.spaces.copy(),
        state.players.copy(),
        state.status.copy(),
    )


def states_equal(a: GameState, b: GameState) -> bool:
    """Whether two states hold the same values in every array."""
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


class StateBatch(NamedTuple):
    """Many states of one game's shape, stacked: row ``i`` of each array is state ``i``.

    Attributes:
        cell_coaster, cell_side: ``(N, n_cells)``.
        spaces: ``(N, n_cells, 2)``.
        players: ``(N, n_players)`` records of :data:`PLAYER_DTYPE`.
        status: ``(N, 1)`` records of :data:`STATUS_DTYPE`.
    """

    cell_coaster: IntArray
    cell_side: IntArray
    spaces: IntArray
    players: npt.NDArray[np.void]
    status: npt.NDArray[np.void]

    def __len__(self) -> int:
        return int(self.cell_coaster.shape[0])

    def state(self, i: int) -> GameState:
        """A copy of state ``i``."""
        return GameState(*(a[i].copy() for a in self))


def state_batch(n: int, n_cells: int, n_players: int) -> StateBatch:
    """A batch of ``n`` zeroed states (:func:`empty_state` each)."""
    status = np.zeros((n, 1), dtype=STATUS_DTYPE)
    status["winner"] = NO_SEAT
    return StateBatch(
        np.zeros((n, n_cells), dtype=np.int64),
        np.zeros((n, n_cells), dtype=np.int64),
        np.full((n, n_cells, SPACES), NO_SEAT, dtype=np.int64),
        np.zeros((n, n_players), dtype=PLAYER_DTYPE),
        status,
    )


def stack_states(states: list[GameState]) -> StateBatch:
    """The batch of ``states`` (all of one shape), in order."""
    if not states:
        raise ValueError("stack_states needs at least one state")
    return StateBatch(*(np.stack([s[k] for s in states]) for k in range(len(GameState._fields))))  # type: ignore[arg-type]
