# mypy: disallow-untyped-defs=False, disallow-untyped-calls=False
"""Line potentials counted once per position, then updated per candidate placement (private).

The ``strategic`` agent values a placement by the change it makes to
``P(p) = sum over the lines open to p of (own tokens / line length)**2``
(:func:`pinastats._engine.decide._line_potential`). A placement of ``seat``
on ``cell`` changes only the lines through ``cell``: ``seat`` owns one more
token on them, and another seat ``p`` loses them when the coaster is then full
and ``p`` has no token on it. So the counts are taken once per position
(:func:`_count_lines`) and each candidate sums the same terms, line by line in
the same order, with those lines changed: every potential is the same double
as a recount on the position after the placement.
"""

from __future__ import annotations

from pinastats._engine.rules import _owns
from pinastats._jit import jit_flat, jit_inline


@jit_inline
def _term(own, open_line, length):
    """A line's term of ``P(p)``: ``(own / length)**2`` while the line is open to ``p``, else 0.

    Adding a 0 leaves a sum of non-negative terms unchanged to the last bit, so a
    sum of every line's term equals the sum over the open lines.
    """
    if open_line and length > 0:
        return (own * own) / (length * length)
    return 0.0


@jit_inline
def _line_count(board, game, p, i):
    """``(own, open)``: seat ``p``'s tokens on line ``i``, and whether the line is open to ``p``.

    A line is open to ``p`` while each of its coasters is ``p``'s or has a free space.
    """
    lines, spaces, sides = board.lines, game.spaces, game.cell_side
    own = 0
    for j in range(lines.shape[1]):
        c = lines[i, j]
        if c < 0:
            break
        if _owns(game, c, p):
            own += 1
        elif spaces[c, 0] >= 0 and (sides[c] == 0 or spaces[c, 1] >= 0):
            return own, False
    return own, True


@jit_flat
def _count_lines(board, game, line_own, line_open, line_term):
    """Count the lines of every seat ``p`` on the position.

    ``line_own[p, i]``: ``p``'s tokens on line ``i``; ``line_open[p, i]``: the
    line is still open to ``p`` (each of its coasters is ``p``'s or has a free
    space); ``line_term[p, i]``: its term of ``P(p)`` (:func:`_term`).
    """
    for p in range(game.players.shape[0]):
        for i in range(board.lines.shape[0]):
            own, open_line = _line_count(board, game, p, i)
            line_own[p, i] = own
            line_open[p, i] = open_line
            line_term[p, i] = _term(own, open_line, board.line_length[i])


@jit_flat
def _potential_after(board, game, seat, p, cell, closes, line_own, line_open, line_term):
    """``P(p)`` after ``seat`` places on ``cell`` (-1: the position itself).

    ``closes``: the coaster on ``cell`` has no free space after the placement.
    ``seat`` must be free to place there (no token of its own on ``cell`` yet).
    The terms of the lines through ``cell`` change: ``seat`` owns one more
    token there, and another seat loses the line when the coaster closes
    without a token of its own; the others are the position's.
    """
    on_line = board.on_line
    total = 0.0
    for i in range(line_term.shape[1]):
        term = line_term[p, i]
        if cell >= 0 and on_line[cell, i]:
            own = line_own[p, i]
            open_line = line_open[p, i]
            if p == seat:
                own += 1
            elif closes and not _owns(game, cell, p):
                open_line = False
            term = _term(own, open_line, board.line_length[i])
        total += term
    return total


@jit_flat
def _others_after(board, game, seat, cell, closes, line_own, line_open, line_term):
    """Sum of :func:`_potential_after` over the seats other than ``seat``."""
    total = 0.0
    for p in range(game.players.shape[0]):
        if p != seat:
            total += _potential_after(board, game, seat, p, cell, closes, line_own, line_open,
                                      line_term)  # fmt: skip
    return total


@jit_inline
def _completes_line(board, seat, cell, line_own):
    """Whether ``seat`` placing on ``cell`` fills a line through it (``seat`` may place there).

    A line through ``cell`` is then all ``seat``'s when ``seat`` already owns
    every other cell of it: ``line_own + 1`` cells of its ``line_length``.
    """
    on_line = board.on_line
    for i in range(line_own.shape[1]):
        if on_line[cell, i] and line_own[seat, i] + 1 == board.line_length[i]:
            return True
    return False
