"""Numba kernels of the Happy Hour variant: the die, the choices of each effect, the effect.

Same conventions as :mod:`pinastats._engine.rules`. The die is rolled only by a
player who used all of the turn's rolls and cannot place a token.
"""

from __future__ import annotations

from pinastats._engine.codes import HappyHourEffect
from pinastats._engine.rules import _free_space, _owns
from pinastats._engine.state import NO_SEAT
from pinastats._engine.stream import _uniform
from pinastats._jit import jit_flat, jit_inline

_HH_LOSE = int(HappyHourEffect.LOSE_3)
_HH_REMOVE = int(HappyHourEffect.REMOVE_OWN_TOKEN)
_HH_OTHERS = int(HappyHourEffect.OTHERS_GAIN_1)
_HH_MOVE = int(HappyHourEffect.MOVE_OTHER_TOKEN)
_HH_FLIP = int(HappyHourEffect.FLIP_COASTER)
_HH_GAIN = int(HappyHourEffect.GAIN_4)


@jit_inline
def _draw_happy_hour(rng):
    """The face of the Happy Hour die, 1 to 6 (``floor(6 u) + 1``)."""
    return int(_uniform(rng) * 6.0) + 1


@jit_flat
def _happy_hour_options(board, game, seat, effect, out):
    """Write the choices of a Happy Hour effect into ``out``; return their number.

    Effects without a choice (1, 3, 6) have the single option 0. Effect 2: the
    cells holding one of the seat's tokens. Effect 4: ``(cell*2 + space)*C + to``
    for another seat's token on ``(cell, space)`` and a cell ``to`` with a free
    space and no token of that owner. Effect 5: every cell. No option: cannot apply.
    ``out`` needs room for ``2 C**2`` options.
    """
    n_cells = game.cell_coaster.shape[0]
    n = 0
    if effect == _HH_REMOVE:
        for c in range(n_cells):
            if _owns(game, c, seat):
                out[n] = c
                n += 1
    elif effect == _HH_MOVE:
        for c in range(n_cells):
            for s in range(2):
                owner = game.spaces[c, s]
                if owner < 0 or owner == seat:
                    continue
                for d in range(n_cells):
                    if d != c and _free_space(game, d) >= 0 and not _owns(game, d, owner):
                        out[n] = (c * 2 + s) * n_cells + d
                        n += 1
    elif effect == _HH_FLIP:
        for c in range(n_cells):
            out[n] = c
            n += 1
    else:
        out[0] = 0
        n = 1
    return n


@jit_flat
def _apply_happy_hour(board, game, seat, effect, option):
    """Apply a Happy Hour effect with a choice from :func:`_happy_hour_options`."""
    players, spaces = game.players, game.spaces
    n_cells = game.cell_coaster.shape[0]
    if effect == _HH_LOSE:
        score = players[seat].score - 3
        if score < 0 and not board.negative_scores:
            score = 0
        players[seat].score = min(score, players[seat].score)
    elif effect == _HH_REMOVE:
        for s in range(2):
            if spaces[option, s] == seat:
                spaces[option, s] = NO_SEAT
                players[seat].reserve += 1
    elif effect == _HH_OTHERS:
        for p in range(players.shape[0]):
            if p != seat:
                players[p].score += 1
    elif effect == _HH_MOVE:
        to = option % n_cells
        cell = option // n_cells // 2
        space = option // n_cells % 2
        owner = spaces[cell, space]
        spaces[cell, space] = NO_SEAT
        spaces[to, _free_space(game, to)] = owner
    elif effect == _HH_FLIP:
        for s in range(2):
            owner = spaces[option, s]
            if owner >= 0:
                players[owner].reserve += 1
                spaces[option, s] = NO_SEAT
        game.cell_side[option] = 1 - game.cell_side[option]
    elif effect == _HH_GAIN:
        players[seat].score += 4
