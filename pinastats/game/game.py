"""A readable game object on top of the rule kernels.

>>> game = Game.new(players=2, seed=1)
>>> game.players, game.turn, game.is_over
(2, 0, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from pinastats.dice.hands import check_dice, dice_tables
from pinastats.game import _kernels as K
from pinastats.game._slots import (
    N_STATUS,
    P_LAST_PLACED,
    P_RESERVE,
    P_SCORE,
    S_FIRST,
    S_REASON,
    S_TO_MOVE,
    S_TRIGGER,
    S_TURN,
    S_WINNER,
)
from pinastats.game.catalogue import Coaster
from pinastats.game.config import GameConfig
from pinastats.game.rules import EndReason, HappyHourEffect, Trigger

IntArray = npt.NDArray[np.int64]
Seed = int | np.random.Generator | None


class IllegalMoveError(ValueError):
    """A move the rules forbid; the message names the rule."""


@dataclass(frozen=True)
class Placement:
    """A legal placement: the cell, its coaster and the points it would score."""

    cell: int
    row: int
    col: int
    coaster: str
    combination: str
    points: int


def _config(players: int | None, config: GameConfig | None) -> GameConfig:
    if config is None:
        return GameConfig(players=2 if players is None else players)
    if players is not None and players != config.players:
        raise ValueError(f"players={players} disagrees with the config's {config.players} players")
    return config


def as_generator(seed: Seed) -> np.random.Generator:
    """A ``numpy.random.Generator`` from a seed, or the generator itself."""
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


class Game:
    """One game of Piña Coladice: board, tokens, scores, turn order and end.

    The state lives in the int64 arrays of :mod:`pinastats.game._slots`
    (``self.state``) so that the very same rule kernels serve this object and
    the Monte Carlo simulator.
    """

    def __init__(self, config: GameConfig, state: tuple[Any, ...]) -> None:
        self.config = config
        self.state = state
        self._board = config.board_arrays

    # ------------------------------------------------------------ creation

    @staticmethod
    def _empty_state(config: GameConfig) -> tuple[Any, ...]:
        n = config.layout.n_cells
        return (
            np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=np.int64),
            np.full((n, 2), -1, dtype=np.int64),
            np.zeros((config.players, 3), dtype=np.int64),
            np.zeros(N_STATUS, dtype=np.int64),
        )

    @classmethod
    def new(
        cls, players: int | None = None, *, seed: Seed = None, config: GameConfig | None = None
    ) -> Game:
        """Set up a game at random: the coasters, their cells and the first player."""
        config = _config(players, config)
        state = cls._empty_state(config)
        K._deal(
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
        config = _config(players, config)
        names = [n for row in board for n in ([row] if isinstance(row, str) else row)]
        n = config.layout.n_cells
        if len(names) != n:
            raise ValueError(
                f"the board names {len(names)} coasters; the layout "
                f"{config.layout.name!r} has {n} cells"
            )
        coasters = [config.catalogue.find(name) for name in names]
        index = {c.id: i for i, c in enumerate(config.catalogue)}
        ids = [c.id for c in coasters]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"each coaster exists once; the board repeats {', '.join(dup)}")
        state = cls._empty_state(config)
        state[0][:] = [index[c.id] for c in coasters]
        if sides is None:
            state[1][:] = config.sides
        else:
            flat = [s for row in sides for s in row.strip().upper()]
            if len(flat) != n or set(flat) - {"A", "B"}:
                raise ValueError(
                    f"sides must give 'A' or 'B' for each of the {n} cells, got {list(sides)}"
                )
            state[1][:] = [0 if s == "A" else 1 for s in flat]
        if not 0 <= first_player < config.players:
            raise ValueError(f"first player must be 0 to {config.players - 1}, got {first_player}")
        K._start_game(state, first_player, config.start_scores, config.rules.tokens)
        return cls(config, state)

    def copy(self) -> Game:
        """An independent copy of the game."""
        return Game(self.config, tuple(a.copy() for a in self.state))

    # ------------------------------------------------------------ reading

    @property
    def players(self) -> int:
        """Number of players."""
        return self.config.players

    @property
    def to_move(self) -> int:
        """The player whose turn it is (0-based seat)."""
        return int(self.state[4][S_TO_MOVE])

    @property
    def first_player(self) -> int:
        """The seat that played first."""
        return int(self.state[4][S_FIRST])

    @property
    def turn(self) -> int:
        """Turns completed so far."""
        return int(self.state[4][S_TURN])

    @property
    def scores(self) -> tuple[int, ...]:
        """Score of each seat."""
        return tuple(int(x) for x in self.state[3][:, P_SCORE])

    @property
    def reserves(self) -> tuple[int, ...]:
        """Tokens each seat still has to place."""
        return tuple(int(x) for x in self.state[3][:, P_RESERVE])

    @property
    def last_placed(self) -> tuple[int, ...]:
        """Recency clock of each seat's last placement (0 = never placed)."""
        return tuple(int(x) for x in self.state[3][:, P_LAST_PLACED])

    @property
    def end_reason(self) -> EndReason:
        """How the game ended (``ONGOING`` while it runs)."""
        return EndReason(int(self.state[4][S_REASON]))

    @property
    def trigger(self) -> Trigger:
        """What triggered the end, if anything."""
        return Trigger(int(self.state[4][S_TRIGGER]))

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.end_reason is not EndReason.ONGOING

    @property
    def winner(self) -> int | None:
        """The winning seat, or None (game running, draw or turn limit)."""
        w = int(self.state[4][S_WINNER])
        return None if w < 0 else w

    def coaster(self, cell: int) -> Coaster:
        """The coaster lying on a cell."""
        return self.config.catalogue.coasters[int(self.state[0][self._check_cell(cell)])]

    def side(self, cell: int) -> str:
        """The side ('A' or 'B') a cell's coaster shows."""
        return "AB"[int(self.state[1][self._check_cell(cell)])]

    def tokens(self, cell: int) -> tuple[int, ...]:
        """The seats with a token on a cell, in space order."""
        return tuple(int(t) for t in self.state[2][self._check_cell(cell)] if t >= 0)

    def board_frame(self) -> pd.DataFrame:
        """The board as a table: one row per cell."""
        rows = []
        for cell, (r, c) in enumerate(self.config.layout.cells):
            coaster = self.coaster(cell)
            side = self.side(cell)
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
                }
            )
        return pd.DataFrame(rows)

    def _check_cell(self, cell: int) -> int:
        n = self.config.layout.n_cells
        if isinstance(cell, bool) or not isinstance(cell, int | np.integer) or not 0 <= cell < n:
            raise ValueError(f"cell must be 0 to {n - 1}, got {cell!r}")
        return int(cell)

    def _hand(self, dice: Sequence[int]) -> int:
        return dice_tables().hand_index(check_dice(dice))

    # ------------------------------------------------------------ moves

    def _check_ongoing(self) -> None:
        if self.is_over:
            raise IllegalMoveError(f"the game is over ({self.end_reason.name})")

    def legal_placements(self, dice: Sequence[int]) -> list[Placement]:
        """Every cell the player to move may place on with these final dice."""
        hand = self._hand(dice)
        legal = np.zeros(self.config.layout.n_cells, dtype=np.bool_)
        K._legal_cells(self._board, self.state, self.to_move, hand, legal)
        out = []
        for cell in (int(x) for x in np.flatnonzero(legal)):
            r, c = self.config.layout.cells[cell]
            coaster = self.coaster(cell)
            points = int(K._placement_points(self._board, self.state, self.to_move, cell))
            out.append(Placement(cell, r, c, coaster.id, coaster.combination.value, points))
        return out

    def why_illegal(self, cell: int, dice: Sequence[int]) -> str | None:
        """The rule a placement would break, or None if it is legal."""
        cell = self._check_cell(cell)
        hand = self._hand(dice)
        if self.is_over:
            return f"the game is over ({self.end_reason.name})"
        player = self.to_move
        name = self.coaster(cell).combination.value
        reason = int(K._placement_error(self._board, self.state, player, cell, hand))
        messages = {
            K.NO_RESERVE: f"player {player} has no token left in reserve",
            K.NO_MATCH: (
                f"the dice {sorted(dice)} do not show {name}, the combination of cell {cell}"
            ),
            K.OWN_TOKEN: f"player {player} already has a token on {name} (cell {cell})",
            K.COASTER_FULL: f"the coaster {name} on cell {cell} has no free space",
        }
        return messages.get(reason)

    def place(self, cell: int, dice: Sequence[int]) -> int:
        """Place the mover's token on ``cell`` with these final dice and end the turn.

        Returns the points scored; raises :class:`IllegalMoveError` naming the rule broken.
        """
        reason = self.why_illegal(cell, dice)
        if reason is not None:
            raise IllegalMoveError(f"illegal placement: {reason}")
        points = int(K._place(self._board, self.state, self.to_move, int(cell)))
        K._end_turn(self._board, self.state)
        return points

    def happy_hour_options(self, effect: HappyHourEffect | int) -> list[int]:
        """Encoded choices of a Happy Hour effect for the mover (empty: cannot apply)."""
        effect = HappyHourEffect(effect)
        out = np.zeros(2 * self.config.layout.n_cells**2 + 1, dtype=np.int64)
        n = K._happy_hour_options(self._board, self.state, self.to_move, int(effect), out)
        return [int(x) for x in out[:n]]

    def decode_happy_hour(self, effect: HappyHourEffect | int, option: int) -> dict[str, int]:
        """A readable form of an encoded Happy Hour option."""
        effect = HappyHourEffect(effect)
        n = self.config.layout.n_cells
        if effect is HappyHourEffect.MOVE_OTHER_TOKEN:
            cell, space = divmod(option // n, 2)
            return {
                "from_cell": cell,
                "owner": int(self.state[2][cell, space]),
                "to_cell": option % n,
            }
        if effect in (HappyHourEffect.REMOVE_OWN_TOKEN, HappyHourEffect.FLIP_COASTER):
            return {"cell": option}
        return {}

    def end_turn_without_placement(
        self, dice: Sequence[int], happy_hour: int | None = None, option: int | None = None
    ) -> None:
        """End the mover's turn with no token placed (only when none can be placed).

        With the Happy Hour variant, ``happy_hour`` is the die rolled (1-6) and
        ``option`` the choice among :meth:`happy_hour_options` when it has any.
        """
        self._check_ongoing()
        legal = self.legal_placements(dice)
        if legal:
            raise IllegalMoveError(
                "illegal pass: placing is compulsory when the dice match an open coaster "
                f"(cells {[p.cell for p in legal]})"
            )
        if self.config.rules.happy_hour:
            if happy_hour is None:
                raise ValueError("the Happy Hour variant is on: give the die rolled (1-6)")
            effect = HappyHourEffect(happy_hour)
            options = self.happy_hour_options(effect)
            if options:
                if option is None:
                    option = options[0] if len(options) == 1 else None
                if option not in options:
                    raise IllegalMoveError(
                        f"Happy Hour {effect.name}: choose one of {options}, got {option!r}"
                    )
                K._apply_happy_hour(self._board, self.state, self.to_move, int(effect), option)
        elif happy_hour is not None:
            raise ValueError("the Happy Hour variant is off; no die to roll")
        K._end_turn(self._board, self.state)
