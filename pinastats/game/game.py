"""A readable game object on top of the rule kernels.

>>> game = Game.new(players=2, seed=1)
>>> game.players, game.turn, game.is_over
(2, 0, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from pinastats import _engine as E
from pinastats._engine import GameState, TurnEnding, copy_state, empty_state
from pinastats.dice.errors import RollsError, whole_number
from pinastats.dice.hands import check_dice, dice_tables, hand_index_by_roll
from pinastats.errors import PinastatsError
from pinastats.game.catalogue import Coaster
from pinastats.game.config import GameConfig
from pinastats.game.rules import EndReason, HappyHourEffect, PlacementRule, Trigger
from pinastats.game.setup import Seed as Seed  # re-exported
from pinastats.game.setup import as_generator as as_generator  # re-exported
from pinastats.game.setup import board_state, check_state, config_for
from pinastats.game.setup import judge as judge_state
from pinastats.game.view import CellView, GameResult
from pinastats.game.view import Placement as Placement  # re-exported: legal_placements' type

if TYPE_CHECKING:
    import pandas as pd


class IllegalMoveError(PinastatsError):
    """A move the rules forbid; the message names the rule."""


class Game:
    """One game of Piña Coladice: board, tokens, scores, turn order and end.

    The state lives in the arrays of a :class:`~pinastats._engine.state.GameState`
    (:attr:`state`) so that the very same rule kernels serve this object and
    the Monte Carlo simulator; the engine's packages hand ``config.board`` and
    ``state`` to the kernels, users read the game through the properties.
    """

    def __init__(self, config: GameConfig, state: GameState) -> None:
        self.config = config
        self._state = state

    @property
    def state(self) -> GameState:
        """The engine's arrays of this game (updated in place as it is played)."""
        return self._state

    # ------------------------------------------------------------ creation

    @staticmethod
    def _empty_state(config: GameConfig) -> GameState:
        return empty_state(config.layout.n_cells, config.players)

    @classmethod
    def new(
        cls, players: int | None = None, *, seed: Seed = None, config: GameConfig | None = None
    ) -> Game:
        """Set up a game at random: the coasters, their cells and the first player."""
        config = config_for(players, config)
        state = cls._empty_state(config)
        E.deal(
            as_generator(seed),
            state,
            len(config.catalogue),
            config.sides,
            config.start_scores,
            config.rules.tokens,
        )
        return cls(config, state)

    @classmethod
    def from_board(
        cls,
        board: Sequence[Sequence[str]] | Sequence[str],
        *,
        config: GameConfig | None = None,
        players: int | None = None,
        sides: Sequence[str] | None = None,
        first_player: int = 0,
    ) -> Game:
        """Set up a game on a given board: coaster ids or names per cell (rows, or flat).

        ``sides`` ("A"/"B" per cell) defaults to the layout's sides for the player count.
        """
        config = config_for(players, config)
        return cls(config, board_state(config, board, sides, first_player))

    @classmethod
    def from_state(cls, config: GameConfig, state: GameState, *, judge: bool = False) -> Game:
        """A game on given arrays, checked against the config's shapes and the rules.

        With ``judge=True`` the position is judged as at the end of the previous
        turn (see :func:`pinastats.game.setup.judge`), the end check the engine
        runs after every turn.
        """
        check_state(config, state)
        if judge:
            judge_state(config, state)
        return cls(config, state)

    def copy(self) -> Game:
        """An independent copy of the game."""
        return Game(self.config, copy_state(self._state))

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        # the config is frozen and shared; only the arrays of the state are copied
        return self.copy()

    # ------------------------------------------------------------ reading

    @property
    def players(self) -> int:
        """Number of players."""
        return self.config.players

    @property
    def to_move(self) -> int:
        """The player whose turn it is (0-based seat)."""
        return int(self._state.status[0]["to_move"])

    @property
    def first_player(self) -> int:
        """The seat that played first."""
        return int(self._state.status[0]["first"])

    @property
    def turn(self) -> int:
        """Turns completed so far."""
        return int(self._state.status[0]["turn"])

    @property
    def scores(self) -> tuple[int, ...]:
        """Score of each seat."""
        return tuple(int(x) for x in self._state.players["score"])

    @property
    def reserves(self) -> tuple[int, ...]:
        """Tokens each seat still has to place."""
        return tuple(int(x) for x in self._state.players["reserve"])

    @property
    def last_placed(self) -> tuple[int, ...]:
        """Recency clock of each seat's last placement (0 = never placed)."""
        return tuple(int(x) for x in self._state.players["last_placed"])

    @property
    def end_reason(self) -> EndReason:
        """How the game ended (``ONGOING`` while it runs)."""
        return EndReason(int(self._state.status[0]["reason"]))

    @property
    def trigger(self) -> Trigger:
        """What triggered the end, if anything."""
        return Trigger(int(self._state.status[0]["trigger"]))

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.end_reason is not EndReason.ONGOING

    @property
    def winner(self) -> int | None:
        """The winning seat, or None (game running, draw or turn limit)."""
        w = int(self._state.status[0]["winner"])
        return None if w < 0 else w

    @property
    def result(self) -> GameResult:
        """The end result: ongoing, won by a seat, a draw, or stopped by the turn limit."""
        return GameResult.of(self.end_reason, self.winner)

    @property
    def cells(self) -> tuple[CellView, ...]:
        """A read-only snapshot of every cell: coaster, side and the seat on each space."""
        state, catalogue = self._state, self.config.catalogue.coasters
        out = []
        for cell, (r, c) in enumerate(self.config.layout.cells):
            coaster = catalogue[int(state.cell_coaster[cell])]
            side = int(state.cell_side[cell])
            seats = state.spaces[cell, : 1 + side]
            spaces = tuple(None if t < 0 else int(t) for t in seats)
            view = CellView(cell, r, c, coaster.id, coaster.combination.value, "AB"[side], spaces)
            out.append(view)
        return tuple(out)

    def coaster(self, cell: int) -> Coaster:
        """The coaster lying on a cell."""
        return self.config.catalogue.coasters[int(self._state.cell_coaster[self._check_cell(cell)])]

    def side(self, cell: int) -> str:
        """The side ('A' or 'B') a cell's coaster shows."""
        return "AB"[int(self._state.cell_side[self._check_cell(cell)])]

    def tokens(self, cell: int) -> tuple[int, ...]:
        """The seats with a token on a cell, in space order (free spaces left out)."""
        return tuple(int(t) for t in self._state.spaces[self._check_cell(cell)] if t >= 0)

    def spaces(self, cell: int) -> tuple[int | None, ...]:
        """The seat on each token space of a cell (``None``: free); one space on side A."""
        cell = self._check_cell(cell)
        n = 1 + int(self._state.cell_side[cell])
        return tuple(None if t < 0 else int(t) for t in self._state.spaces[cell, :n])

    def board_frame(self) -> pd.DataFrame:
        """The board as a table: one row per cell (coaster, side, points, tokens per space)."""
        import pandas as pd  # imported here: playing a game does not need it

        rows = []
        for cell, (r, c) in enumerate(self.config.layout.cells):
            coaster, side = self.coaster(cell), self.side(cell)
            rows.append(
                {
                    "cell": cell,
                    "row": r,
                    "col": c,
                    "coaster": coaster.id,
                    "combination": coaster.combination.value,
                    "side": side,
                    "points": coaster.points(side),
                    "tokens": self.tokens(cell),
                    "spaces": self.spaces(cell),
                }
            )
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        return (
            f"<Game of {self.players} players, {self.config.layout.name} layout, turn {self.turn}>"
        )

    def __str__(self) -> str:
        """The board as text: each cell's combination, side, points and the seats on its spaces.

        A space shows the seat on it, counted from 1 as people count them, or ``·`` when free,
        e.g. ``Full House B4/3 [1·]``; the status line counts turns and seats from 1 too.
        """
        return self.draw()

    def draw(self, width: int = 16) -> str:
        """:meth:`__str__`, with combination names cut to ``width`` characters."""
        layout = self.config.layout
        rows, cols = layout.shape
        grid = [["" for _ in range(cols)] for _ in range(rows)]
        for cell, (r, c) in enumerate(layout.cells):
            coaster = self.coaster(cell)
            side = self.side(cell)
            points = "/".join(str(p) for p in coaster.points(side))
            seats = "".join("·" if s is None else str(s + 1) for s in self.spaces(cell))
            grid[r][c] = f"{coaster.combination.value[:width]} {side}{points} [{seats}]"
        cell_width = max(len(t) for row in grid for t in row)
        lines = [" | ".join(t.ljust(cell_width) for t in row).rstrip() for row in grid]
        status = f"over: {self.end_reason}" if self.is_over else f"seat {self.to_move + 1} to move"
        scores = ", ".join(
            f"seat {p + 1}: {s} points, {r} in reserve"
            for p, (s, r) in enumerate(zip(self.scores, self.reserves, strict=True))
        )
        return "\n".join([f"turn {self.turn + 1}, {status}; {scores}", *lines])

    def _check_cell(self, cell: int) -> int:
        return whole_number(cell, "cell", 0, self.config.layout.n_cells - 1, PinastatsError)

    def _hand(self, dice: Sequence[int]) -> int:
        return dice_tables().hand_index(check_dice(dice))

    def _hand_fast(self, dice: Sequence[int]) -> int:
        """:meth:`_hand` through a table of the 7,776 rolls of plain ints (else checked)."""
        if isinstance(dice, tuple | list) and all(type(d) is int for d in dice):
            hand = hand_index_by_roll().get(tuple(dice))
            if hand is not None:
                return hand
        return self._hand(dice)

    # ------------------------------------------------------------ moves

    def _check_ongoing(self) -> None:
        if self.is_over:
            raise IllegalMoveError(f"the game is over: {self.end_reason}")

    def legal_placements(self, dice: Sequence[int]) -> list[Placement]:
        """Every cell the player to move may place on with these final dice, with its points.

        The cells of :meth:`legal_cells` (none when the game is over).
        """
        board, state = self.config.board, self._state
        out = []
        for cell in self.legal_cells(dice):
            r, c = self.config.layout.cells[cell]
            coaster = self.coaster(cell)
            points = int(E.placement_points(board, state, self.to_move, cell))
            out.append(Placement(cell, r, c, coaster.id, coaster.combination.value, points))
        return out

    def legal_cells(self, dice: Sequence[int]) -> tuple[int, ...]:
        """The cells the player to move may place on with these final dice (empty when over)."""
        hand = self._hand_fast(dice)
        if self.is_over:
            return ()
        legal = np.zeros(self.config.layout.n_cells, dtype=np.bool_)
        E.legal_cells(self.config.board, self._state, self.to_move, hand, legal)
        return tuple(int(x) for x in np.flatnonzero(legal))

    def why_illegal(self, cell: int, dice: Sequence[int]) -> str | None:
        """The rule a placement would break, or None if it is legal."""
        cell = self._check_cell(cell)
        hand = self._hand(dice)
        if self.is_over:
            return f"the game is over: {self.end_reason}"
        player = self.to_move
        name = self.coaster(cell).combination.value
        reason = PlacementRule(
            int(E.placement_error(self.config.board, self._state, player, cell, hand))
        )
        messages = {
            PlacementRule.NO_RESERVE: f"player {player} has no token left in reserve",
            PlacementRule.NO_MATCH: (
                f"the dice {sorted(dice)} do not show {name}, the combination of cell {cell}"
            ),
            PlacementRule.OWN_TOKEN: f"player {player} already has a token on {name} (cell {cell})",
            PlacementRule.COASTER_FULL: f"the coaster {name} on cell {cell} has no free space",
        }
        return messages.get(reason)

    def turn_ending(self, dice: Sequence[int], rolls_used: int | None = None) -> TurnEnding:
        """How the mover's turn ends with these final dice after ``rolls_used`` rolls.

        ``PLACE`` when the dice show an open coaster (placing is compulsory);
        else ``HAPPY_HOUR`` with the variant when every roll was used (default:
        all of them); else ``PASS``.
        """
        self._check_ongoing()
        rolls = self.config.rules.rolls
        used = rolls if rolls_used is None else rolls_used
        used = whole_number(used, "rolls used", 1, rolls, RollsError)
        return E.turn_ending(self.config.board, self._state, self._hand_fast(dice), used)

    def place(self, cell: int, dice: Sequence[int]) -> int:
        """Place the mover's token on ``cell`` with these final dice and end the turn.

        Returns the points scored; raises :class:`IllegalMoveError` naming the rule broken.
        """
        cell = self._check_cell(cell)
        board, hand = self.config.board, self._hand_fast(dice)
        if self.is_over or E.placement_error(board, self._state, self.to_move, cell, hand):
            raise IllegalMoveError(f"illegal placement: {self.why_illegal(cell, dice)}")
        return int(E.finish_turn(board, self._state, cell, 0, -1))

    def happy_hour_options(self, effect: HappyHourEffect | int) -> list[int]:
        """Encoded choices of a Happy Hour effect for the mover (empty: cannot apply)."""
        return E.happy_hour_options(self.config.board, self._state, self.to_move, effect)

    def decode_happy_hour(self, effect: HappyHourEffect | int, option: int) -> dict[str, int]:
        """A readable form of an encoded Happy Hour option."""
        return E.describe_option(self._state, effect, option)

    def end_turn_without_placement(
        self,
        dice: Sequence[int],
        happy_hour: int | None = None,
        option: int | None = None,
        *,
        rolls_used: int | None = None,
    ) -> None:
        """End the mover's turn with no token placed (only when none can be placed).

        ``rolls_used`` is how many rolls the turn made (default: all of them).
        When :meth:`turn_ending` says ``HAPPY_HOUR``, ``happy_hour`` is the face
        rolled (1-6) and ``option`` the choice among :meth:`happy_hour_options`
        when it has several. A turn that passes rolls no die.
        """
        ending = self.turn_ending(dice, rolls_used)
        if ending is TurnEnding.PLACE:
            legal = self.legal_cells(dice)
            raise IllegalMoveError(
                "illegal pass: placing is compulsory when the dice match an open coaster "
                f"(cells {list(legal)})"
            )
        board, state = self.config.board, self._state
        effect, chosen = 0, -1
        if ending is TurnEnding.HAPPY_HOUR:
            if happy_hour is None:
                raise PinastatsError(
                    f"the Happy Hour variant is on and the turn used all "
                    f"{self.config.rules.rolls} rolls: give the die rolled (1-{E.FACES})"
                )
            face = E.as_effect(happy_hour)
            options = self.happy_hour_options(face)
            if options:
                if option is None:
                    option = options[0] if len(options) == 1 else None
                if option not in options:
                    raise IllegalMoveError(
                        f"Happy Hour '{face}': choose one of {options}, got {option!r}"
                    )
                assert option is not None
                chosen = option
            effect = int(face)
        elif happy_hour is not None:
            why = (
                "the Happy Hour variant is off"
                if not self.config.rules.happy_hour
                else f"the turn stopped after {rolls_used} of {self.config.rules.rolls} rolls "
                "(Happy Hour comes only after the last roll)"
            )
            raise IllegalMoveError(f"no Happy Hour die to roll: {why}")
        E.finish_turn(board, state, -1, effect, chosen)
