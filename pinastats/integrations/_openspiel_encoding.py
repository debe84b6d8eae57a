"""The encoding of the OpenSpiel game: phases, action ids, chance tables, the observer.

See :mod:`pinastats.integrations.openspiel` for the encoding itself. This module
does not import ``pyspiel``.
"""

from __future__ import annotations

from enum import IntEnum
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from pinastats.dice.combinations import Combination
from pinastats.dice.hands import N_HANDS, N_KEEPS, dice_tables
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig

if TYPE_CHECKING:
    from pinastats.integrations.openspiel import PinaColadiceState

KEEP_BASE = 0
"""Action of keep index 0 (the empty keep); keep ``k`` is ``KEEP_BASE + k``."""
PLACE_BASE = N_KEEPS
"""Action of placing on cell 0; cell ``c`` is ``PLACE_BASE + c``."""


class Phase(IntEnum):
    """Where a state stands: a chance node, a decision, or the end."""

    DEAL = 0
    FIRST_SEAT = 1
    ROLL = 2
    KEEP = 3
    PLACE = 4
    HAPPY_HOUR = 5
    HAPPY_HOUR_CHOICE = 6
    TERMINAL = 7


_CHANCE = (Phase.DEAL, Phase.FIRST_SEAT, Phase.ROLL, Phase.HAPPY_HOUR)

_CHANCE = (Phase.DEAL, Phase.FIRST_SEAT, Phase.ROLL, Phase.HAPPY_HOUR)


def happy_hour_base(n_cells: int) -> int:
    """Action of Happy Hour option 0 on a layout of ``n_cells`` cells."""
    return PLACE_BASE + n_cells


@cache
def _hand_dice() -> tuple[tuple[int, ...], ...]:
    return tuple(dice_tables().hand_of(h) for h in range(N_HANDS))


@cache
def _keep_dice() -> tuple[tuple[int, ...], ...]:
    """The sorted dice of every keep, by keep index."""
    t = dice_tables()
    return tuple(t.keep_of(k) for k in range(N_KEEPS))


@cache
def _keep_index() -> dict[tuple[int, ...], int]:
    t = dice_tables()
    return {t.keep_of(k): k for k in range(N_KEEPS)}


@cache
def _hand_keeps(hand: int) -> tuple[int, ...]:
    t = dice_tables()
    return tuple(int(k) for k in t.hand_keep[t.hand_keep_ptr[hand] : t.hand_keep_ptr[hand + 1]])


@cache
def _roll_outcomes(keep: int) -> tuple[tuple[int, float], ...]:
    """The hands a roll after keep ``keep`` reaches, with their probabilities."""
    t = dice_tables()
    lo, hi = t.keep_ptr[keep], t.keep_ptr[keep + 1]
    total = 6.0 ** (5 - int(t.keep_size[keep]))
    return tuple(
        (int(h), int(w) / total)
        for h, w in zip(t.keep_hand[lo:hi], t.keep_weight[lo:hi], strict=True)
    )


class PinaColadiceObserver:
    """The observation tensor, flat in :attr:`tensor` with named views in :attr:`dict`.

    ``cells`` ``(C, K + 1 + 2 P)``: the one-hot combination of each cell's coaster
    (K combinations; zeros before the deal), 1 on side B, and the seat on each of
    the two spaces one-hot; ``scores``, ``reserves`` ``(P,)``; ``to_move`` ``(P,)``
    one-hot (zeros at chance nodes and the end); ``phase`` one-hot over :class:`Phase`;
    ``dice`` ``(6,)`` face counts of the dice showing; ``rolls_left`` ``(1,)``;
    ``happy_hour`` ``(6,)`` the effect to choose for, one-hot.
    """

    def __init__(self, config: GameConfig, params: dict[str, Any] | None = None) -> None:
        if params:
            raise PinastatsError(f"the observer takes no parameters, got {params}")
        self.config = config
        n, p, k = config.layout.n_cells, config.players, len(Combination)
        shapes = {
            "cells": (n, k + 1 + 2 * p),
            "scores": (p,),
            "reserves": (p,),
            "to_move": (p,),
            "phase": (len(Phase),),
            "dice": (6,),
            "rolls_left": (1,),
            "happy_hour": (6,),
        }
        self.tensor = np.zeros(sum(int(np.prod(s)) for s in shapes.values()), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for name, shape in shapes.items():
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size

    def set_from(self, state: PinaColadiceState, player: int) -> None:
        """Fill the tensor from ``state`` (the same for every ``player``)."""
        self.tensor.fill(0.0)
        d, board, k = self.dict, self.config.board, len(Combination)
        d["phase"][int(state.phase)] = 1.0
        for cell, coaster in enumerate(state.dealt):
            d["cells"][cell, int(board.coaster_combination[coaster])] = 1.0
        if state.game is not None:
            s = state.game.state
            d["cells"][:, k] = s.cell_side
            p = self.config.players
            for cell, space in zip(*np.nonzero(s.spaces >= 0), strict=True):
                d["cells"][cell, k + 1 + space * p + s.spaces[cell, space]] = 1.0
            d["scores"][:] = s.players["score"]
            d["reserves"][:] = s.players["reserve"]
            if state.phase not in _CHANCE and state.phase is not Phase.TERMINAL:
                d["to_move"][state.game.to_move] = 1.0
        if state.turn is not None:
            for face in state.turn.dice:
                d["dice"][face - 1] += 1.0
            d["rolls_left"][0] = state.turn.rolls_left
        if state.effect is not None:
            d["happy_hour"][int(state.effect) - 1] = 1.0

    def string_from(self, state: PinaColadiceState, player: int) -> str:
        """The observation as text (the same for every ``player``)."""
        return state.describe()
