# mypy: disallow-untyped-defs=False, disallow-untyped-calls=False
"""Line potentials counted once per position, then updated per candidate placement (private).

The ``strategic`` agent values a placement by the change it makes to
``P(p) = sum over the lines open to p of (own tokens / line length)**2``
(:func:`pinastats.agents._kernels._line_potential`). A placement of ``seat``
on ``cell`` changes only the lines through ``cell``: ``seat`` owns one more
token on them, and another seat ``p`` loses them when the coaster is then full
and ``p`` has no token on it. So the counts are taken once per position
(:func:`_count_lines`) and each candidate sums the same terms, line by line in
the same order, with those lines changed: every potential is the same double
as a recount on the position after the placement.
"""

from __future__ import annotations

from pinastats._jit import jit_flat
from pinastats.game._kernels import _owns


@jit_flat
def _count_lines(board, game, line_own, line_open):
    """``line_own[p, i]``: seat ``p``'s tokens on line ``i``; ``line_open[p, i]``: still open.

    A line is open to ``p`` while each of its coasters is ``p``'s or has a free space.
    """
    lines, spaces, sides = board.lines, game.spaces, game.cell_side
    for p in range(game.players.shape[0]):
        for i in range(lines.shape[0]):
            own = 0
            open_line = True
            for j in range(lines.shape[1]):
                c = lines[i, j]
                if c < 0:
                    break
                if _owns(game, c, p):
                    own += 1
                elif spaces[c, 0] >= 0 and (sides[c] == 0 or spaces[c, 1] >= 0):
                    open_line = False
                    break
            line_own[p, i] = own
            line_open[p, i] = open_line


@jit_flat
def _potential_after(board, game, seat, p, cell, closes, line_own, line_open):
    """``P(p)`` after ``seat`` places on ``cell`` (-1: the position itself).

    ``closes``: the coaster on ``cell`` has no free space after the placement.
    ``seat`` must be free to place there (no token of its own on ``cell`` yet).
    """
    lines = board.lines
    total = 0.0
    for i in range(lines.shape[0]):
        length = 0
        on = False
        for j in range(lines.shape[1]):
            c = lines[i, j]
            if c < 0:
                break
            length += 1
            on |= c == cell
        own = line_own[p, i]
        open_line = line_open[p, i]
        if on:
            if p == seat:
                own += 1
            elif closes and not _owns(game, cell, p):
                open_line = False
        if open_line and length > 0:
            total += (own * own) / (length * length)
    return total


@jit_flat
def _others_after(board, game, seat, cell, closes, line_own, line_open):
    """Sum of :func:`_potential_after` over the seats other than ``seat``."""
    total = 0.0
    for p in range(game.players.shape[0]):
        if p != seat:
            total += _potential_after(board, game, seat, p, cell, closes, line_own, line_open)
    return total
