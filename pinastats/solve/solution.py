"""The solved game of one board, as an object to ask: chances, keeps and placements, exactly.

A :class:`Solution` holds the table of :mod:`pinastats.solve.solver` for one
:class:`~pinastats.solve.board.SolvedBoard` and answers for any position of a
game on that board (a :class:`~pinastats.game.Game`, a state file's or a
record's position read into one):

- :meth:`Solution.chances`: each seat's chance to win under perfect play by both;
- :meth:`Solution.keeps`: every keep of a hand with its exact chance, best first,
  and the regret of each (what it gives up against the best);
- :meth:`Solution.placements`: every legal placement likewise;
- :attr:`Solution.start_chance`: the first player's chance at the start.

A question about a position the solution does not cover (another board, Happy
Hour, three or four players, scores its tokens do not explain) is refused with
a :class:`~pinastats.solve.board.SolveError` that says why. A query runs one
turn DP (about 20 µs) on values read from the table.

A kept table stores each chance as a 16-bit code (:mod:`pinastats._tables`) and
is read back as float32: each chance is within 7.66e-6 of the float64 solve
(half a step of 1/65534, and the float32 rounding), far below any difference a
player can act on; a solve kept in memory (``store=False``) keeps float64.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from pinastats import _engine as E
from pinastats._arrays import FloatArray
from pinastats.dice.hands import N_HANDS, TIE_TOL, check_dice, dice_tables
from pinastats.dice.ranking import best_keep
from pinastats.game.game import Game
from pinastats.game.rules import Trigger, game_points
from pinastats.solve.board import SolvedBoard, SolveError
from pinastats.solve.solver import SolveStats, solver_tables, turn_work


@dataclass(frozen=True)
class Position:
    """A covered position in the solver's terms.

    Attributes:
        first, second: the cells of the first and the second player, as bit masks.
        mover: 0 when the first player moves, 1 the second.
        scores: ``(first, second)`` scores.
        last_turn: whether the end was triggered: the second player's last turn.
        first_seat: the seat (0 or 1) of the first player.
    """

    first: int
    second: int
    mover: int
    scores: tuple[int, int]
    last_turn: bool
    first_seat: int


@dataclass(frozen=True)
class TurnAnalysis:
    """One turn's exact values for the mover (the dice layer's DP on the solved values).

    Attributes:
        position: the position.
        final: ``(252,)`` the mover's chance after ending the turn with each hand.
        passes: ``(252,)`` whether a hand places nothing (a pass).
        keep_value: ``(rolls - 1, 462)``: ``K_r(k)``, the chance after keeping ``k``
            with ``r`` rolls left (keeping all five: stopping).
        cell_value: ``(n_cells,)`` the mover's chance after placing on each cell
            (NaN where the cell is taken).
        pass_value: the mover's chance after a turn that places nothing.
        value: the mover's chance at the start of the turn.
    """

    position: Position
    final: FloatArray
    passes: np.ndarray
    keep_value: FloatArray
    cell_value: FloatArray
    pass_value: float
    value: float


class Solution:
    """Every position's chance to win on one board, under perfect play by both players."""

    def __init__(
        self,
        board: SolvedBoard,
        values: np.ndarray,
        final_turn: np.ndarray,
        stats: SolveStats | None = None,
        path: str | None = None,
    ) -> None:
        _, total = board.layers
        if values.shape != (total, 2) or final_turn.shape != (1 << board.n_cells,):
            raise SolveError(
                f"a solution of this board has {total:,} boards and "
                f"{1 << board.n_cells:,} last-turn values; got {values.shape} and "
                f"{final_turn.shape}"
            )
        self.board = board
        self.values = values
        self.final_turn = np.ascontiguousarray(final_turn, dtype=np.float64)
        self.stats = stats
        self.path = path
        self._game = board.game_tuple(self.final_turn)
        ptr, cells, _ = board.hand_cells
        self._hands = (ptr, cells)
        self._same: set[tuple[object, tuple[int, ...]]] = {(board.config, board.coasters)}

    def __repr__(self) -> str:
        return (
            f"<Solution of a {self.board.n_cells}-cell board: {self.board.positions:,} boards, "
            f"first player {self.start_chance:.4%}, {self.digest[:12]}>"
        )

    @property
    def digest(self) -> str:
        """The board's digest (:attr:`SolvedBoard.digest`)."""
        return self.board.digest

    @property
    def dtype(self) -> np.dtype[np.floating]:
        """float32 for a kept table (its 16-bit codes decoded), float64 for one in memory."""
        return self.values.dtype

    @cached_property
    def start_chance(self) -> float:
        """The first player's chance to win at the start of the game, under perfect play."""
        return float(self.values[0, 0])

    # ------------------------------------------------------------ positions

    def position(self, game: Game) -> Position:
        """``game``'s position in the solver's terms; refuses one the solution does not cover."""
        if not isinstance(game, Game):
            raise SolveError(f"a position is a Game (Game.new(), a state file), got {game!r}")
        board = self.board
        coasters = tuple(int(c) for c in game.state.cell_coaster)
        if (game.config, coasters) not in self._same:
            if SolvedBoard(game.config, coasters).digest != board.digest:
                if coasters != board.coasters:
                    raise SolveError("this solution is for another board: the coasters differ")
                raise SolveError(
                    "this solution is for another game: the layout, catalogue, rules or "
                    "starting scores differ"
                )
            self._same.add((game.config, coasters))
        first_seat = game.first_player
        first = second = 0
        for c in range(board.n_cells):
            for seat in game.tokens(c):
                if seat == first_seat:
                    first |= 1 << c
                else:
                    second |= 1 << c
        scores = (game.scores[first_seat], game.scores[1 - first_seat])
        expected = (self._score(first, 0), self._score(second, 1))
        if scores != expected:
            raise SolveError(
                f"the scores {scores} (first player, second player) are not those the tokens "
                f"give ({expected[0]}, {expected[1]}): the solution covers positions of the "
                "base game, where the tokens fix the scores"
            )
        mover = 0 if game.to_move == first_seat else 1
        last_turn = game.trigger is not Trigger.NONE
        if last_turn and mover == 0 and not game.is_over:
            raise SolveError("after the end is triggered only the second player has a turn left")
        return Position(first, second, mover, scores, last_turn, first_seat)

    def _score(self, mask: int, player: int) -> int:
        """The score of ``player``'s cells ``mask``, by the solver's own scoring kernel."""
        b = self.board
        start = int(b.config.start_scores[player])
        return int(E.solve_score(mask, start, b.points, b.neighbour_masks))

    def _index(self, first: int, second: int) -> int:
        b = self.board
        a, n = bin(first).count("1"), bin(second).count("1")
        offset, _ = b.layers
        return int(E.solve_index_of(first, second, a, n, b.n_cells, b.binom, offset))

    def _last_turn_wins(self, pos: Position) -> int:
        b = self.board
        return int(
            E.solve_final_turn_mask(pos.first, pos.second, pos.scores[0], pos.scores[1],
                                    b.points, b.neighbour_masks, b.line_masks, b.n_cells)
        )  # fmt: skip

    def chances(self, game: Game) -> tuple[float, ...]:
        """Each seat's chance to win from ``game``'s position (at the start of a turn).

        >>> from pinastats.game import Game
        >>> # solution = pinastats.solve(Game.new(players=2, seed=1)); solution.chances(game)
        """
        if game.is_over:
            self.position(game)  # the same board, or a clear refusal
            return tuple(game_points(game.winner, s) for s in range(2))
        pos = self.position(game)
        mover_chance = self.analyse(game).value
        first = mover_chance if pos.mover == 0 else 1.0 - mover_chance
        out = [0.0, 0.0]
        out[pos.first_seat], out[1 - pos.first_seat] = first, 1.0 - first
        return tuple(out)

    def mover_chance(self, game: Game) -> float:
        """The chance that the player to move wins (a table read, no turn DP)."""
        pos = self.position(game)
        if game.is_over:
            return float(game.winner == game.to_move)
        if pos.last_turn:
            return self.analyse(game).value
        return float(self.values[self._index(pos.first, pos.second), pos.mover])

    # ------------------------------------------------------------ the turn

    def analyse(self, game: Game) -> TurnAnalysis:
        """The mover's turn on ``game``'s position, every value exact (one turn DP)."""
        if game.is_over:
            raise SolveError(f"the game is over ({game.end_reason}): no turn to value")
        pos = self.position(game)
        b = self.board
        rolls = b.rolls
        final = np.zeros(N_HANDS)
        passes = np.zeros(N_HANDS, dtype=np.bool_)
        cells = np.full(b.n_cells, np.nan)
        taken = pos.first | pos.second
        ptr, cell_list, _ = b.hand_cells
        if pos.last_turn:
            wins = self._last_turn_wins(pos)
            leads = pos.scores[1] > pos.scores[0]
            for c in range(b.n_cells):
                if not (taken >> c) & 1:
                    cells[c] = 1.0 if leads or (wins >> c) & 1 else 0.0
            y = 1.0 if leads else 0.0
            for h in range(N_HANDS):
                shown = [cells[c] for c in cell_list[ptr[h] : ptr[h + 1]] if not (taken >> c) & 1]
                passes[h] = not shown
                final[h] = max(shown) if shown else y
        else:
            child_first, child_second = np.zeros(b.n_cells), np.zeros(b.n_cells)
            a, n = bin(pos.first).count("1"), bin(pos.second).count("1")
            E.solve_mover_finals(pos.first, pos.second, a, n, self._game, self._hands,
                                 self.values, pos.mover, final, passes, child_first,
                                 child_second)  # fmt: skip
            child = child_first if pos.mover == 0 else child_second
            for c in range(b.n_cells):
                if not (taken >> c) & 1:
                    cells[c] = child[c]
            other = float(self.values[self._index(pos.first, pos.second), 1 - pos.mover])
            y = 1.0 - other
        hv, hs, kv, ks, scratch, scratch_slope, reach = turn_work(rolls)
        value, _ = E.solve_turn(final, passes, y, rolls, solver_tables(), hv, hs, kv, ks, scratch,
                                scratch_slope, reach)  # fmt: skip
        return TurnAnalysis(pos, final, passes, kv[: rolls - 1].copy(), cells, y, float(value))

    def keeps(
        self, game: Game, dice: Sequence[int], rolls_left: int, turn: TurnAnalysis | None = None
    ) -> pd.DataFrame:
        """Every keep of ``dice`` with ``rolls_left`` re-rolls left, best first.

        Columns: ``keep`` (the dice kept, sorted; all five = stop), ``stop``,
        ``chance`` (the mover's chance to win after it, playing on perfectly),
        ``regret`` (best chance minus this one) and ``best``. Ties between keeps
        (within ``TIE_TOL``) go to the keep of more dice, the dice layer's rule.
        """
        dice = check_dice(dice)
        if isinstance(rolls_left, bool) or not isinstance(rolls_left, int):
            raise SolveError(f"rolls_left must be a whole number, got {rolls_left!r}")
        rolls = self.board.rolls
        if not 1 <= rolls_left <= rolls - 1:
            raise SolveError(f"rolls_left must be from 1 to {rolls - 1}, got {rolls_left}")
        turn = turn if turn is not None else self.analyse(game)
        t = dice_tables()
        h = t.hand_index(dice)
        row = turn.keep_value[rolls_left - 1]
        keeps = [int(k) for k in t.hand_keep[t.hand_keep_ptr[h] : t.hand_keep_ptr[h + 1]]]
        best = best_keep(row, h)  # the dice layer's keep rule
        chance = row[keeps]
        size = t.keep_size[keeps]
        order = np.lexsort((-size, -chance))  # by chance, then more dice, best first
        ordered = [keeps[i] for i in order]
        return pd.DataFrame(
            {
                "keep": [t.keep_of(k) for k in ordered],
                "stop": size[order] == 5,
                "chance": chance[order],
                "regret": row[best] - chance[order],
                "best": [k == best for k in ordered],
            }
        )

    def placements(
        self, game: Game, dice: Sequence[int], turn: TurnAnalysis | None = None
    ) -> pd.DataFrame:
        """Every legal placement of ``dice``, best first.

        Columns ``cell``, ``coaster``, ``chance``, ``regret``, ``best``; empty when
        the dice place nothing (the turn passes).
        """
        dice = check_dice(dice)
        turn = turn if turn is not None else self.analyse(game)
        legal = list(game.legal_cells(dice))
        chances = [float(turn.cell_value[c]) for c in legal]
        top = max(chances) if chances else 0.0
        best = next((c for c, v in zip(legal, chances, strict=True) if v >= top - TIE_TOL), None)
        frame = pd.DataFrame(
            {
                "cell": legal,
                "coaster": [game.coaster(c).name for c in legal],
                "chance": chances,
                "regret": [top - v for v in chances],
                "best": [c == best for c in legal],
            }
        )
        return frame.sort_values("chance", ascending=False, kind="stable").reset_index(drop=True)
