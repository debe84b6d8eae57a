"""Numba kernels of what a placement is worth to the one-turn agents (private).

``ev`` values a placement by its points; ``strategic`` adds the change it makes
to the line potentials (its own and the opponents', :mod:`pinastats._engine.lines`),
a bonus near the end of the game, and a fixed value for a winning line.
:func:`_final_values` turns the value of each open cell into the value of
each final hand, the input of the turn DP.
"""

from __future__ import annotations

from pinastats._engine.happy_hour import FACES, _roller_points
from pinastats._engine.kinds import K_STRATEGIC, PARAM_BLOCK, PARAM_LINE, PARAM_RACE, PARAM_WIN
from pinastats._engine.lines import (
    _completes_line,
    _count_lines,
    _line_count,
    _others_after,
    _potential_after,
    _term,
)
from pinastats._engine.rules import (
    _cell_combination,
    _has_line,
    _open_to,
    _placement_points,
)
from pinastats._jit import jit_flat, jit_inline

# ------------------------------------------------------------------ position


@jit_flat
def _line_potential(board, game, seat):
    """Sum over the lines still open to ``seat`` of ``(own tokens / line length)**2``.

    A line is open to ``seat`` while each of its coasters is either theirs or
    still has a free space. Counted on the position as it stands, line by line:
    the recount that :mod:`pinastats._engine.lines`' counted values equal.
    """
    total = 0.0
    for i in range(board.lines.shape[0]):
        own, open_line = _line_count(board, game, seat, i)
        total += _term(own, open_line, board.line_length[i])
    return total


@jit_flat
def _opponents_potential(board, game, seat):
    """Sum of :func:`_line_potential` over the other seats."""
    total = 0.0
    for p in range(game.players.shape[0]):
        if p != seat:
            total += _line_potential(board, game, p)
    return total


@jit_inline
def _shape_value(params, board, game, seat, points, wins, own_gain, opp_loss):
    """The ``strategic`` value of a placement worth ``points``.

    ``own_gain``: change of the own line potential; ``opp_loss``: the fall of the
    opponents'; ``wins``: the placement completes a line.
    """
    if wins:
        return params[PARAM_WIN]
    value = points + params[PARAM_LINE] * own_gain
    value += params[PARAM_BLOCK] * opp_loss
    # race: once the end is near, points matter more than shape
    player = game.players[seat]
    near_end = (
        game.status[0].trigger != 0
        or player.reserve <= 2
        or (player.score + points >= board.target_score)
    )
    if near_end:
        value += params[PARAM_RACE] * points
    return value


@jit_inline
def _value_given(kind, params, board, game, seat, cell, own_before, opp_before):
    """Value an agent gives to placing on ``cell`` now (points for ``ev``).

    ``own_before`` and ``opp_before``: :func:`_line_potential` of ``seat`` and
    :func:`_opponents_potential` on the position (read by ``strategic`` only).
    """
    points = _placement_points(board, game, seat, cell)
    if kind != K_STRATEGIC:
        return float(points)
    spaces = game.spaces
    space = 0 if spaces[cell, 0] < 0 else 1
    spaces[cell, space] = seat
    wins = _has_line(board, game, seat)
    own_after = _line_potential(board, game, seat)
    opp_after = _opponents_potential(board, game, seat)
    spaces[cell, space] = -1
    return _shape_value(
        params, board, game, seat, points, wins, own_after - own_before, opp_before - opp_after
    )


@jit_inline
def _counted_value(params, board, game, seat, cell, own_before, opp_before, had_line, work):
    """The ``strategic`` :func:`_value_given` from the line counts of ``work``.

    ``seat`` must be free to place on ``cell``; the counts are those of the
    position (:func:`~pinastats._engine.lines._count_lines`), and ``had_line``
    says whether ``seat`` owns a whole line there already (then every
    placement "wins", as a recount after it finds).
    """
    points = _placement_points(board, game, seat, cell)
    spaces = game.spaces
    space = 0 if spaces[cell, 0] < 0 else 1
    # no free space left after it (side B's space 1 may hold a token while space 0 is free)
    closes = game.cell_side[cell] == 0 or space == 1 or spaces[cell, 1] >= 0
    own, opened, term = work.line_own, work.line_open, work.line_term
    wins = had_line or _completes_line(board, seat, cell, own)
    own_after = _potential_after(board, game, seat, seat, cell, closes, own, opened, term)
    opp_after = _others_after(board, game, seat, cell, closes, own, opened, term)
    return _shape_value(
        params, board, game, seat, points, wins, own_after - own_before, opp_before - opp_after
    )


@jit_inline
def _happy_hour_value(board, game, seat):
    """Expected points of the Happy Hour die for ``seat``: the mean of its faces' points.

    The one-turn agents value the lottery by its points for the roller alone
    (:func:`~pinastats._engine.happy_hour._roller_points` of each face): with the
    rulebook's faces, ``(4 - loss of "lose 3") / 6``.
    """
    if not board.happy_hour:
        return 0.0
    total = 0
    for effect in range(1, FACES + 1):
        total += _roller_points(board, game, seat, effect)
    return total / FACES


@jit_flat
def _hand_values(board, game, seat, work, floor, passing, lottery):
    """Fill ``work.stop_value``, ``final_value`` and ``placeable`` from ``work.cell_value``.

    ``stop[h]`` is the best value (at least ``floor``) of the cells open to
    ``seat`` that hand ``h`` shows, or ``passing`` when it shows none;
    ``final[h]`` is the same, except that a hand placing nothing is worth
    ``lottery`` (the Happy Hour die after the last roll).
    """
    stop, final, placeable = work.stop_value, work.final_value, work.placeable
    comb_ptr, comb_hands = board.comb_ptr, board.comb_hands
    for h in range(stop.shape[0]):
        stop[h] = floor
        placeable[h] = False
    for c in range(game.cell_coaster.shape[0]):
        if not _open_to(game, seat, c):
            continue
        v = work.cell_value[c]
        comb = _cell_combination(board, game, c)
        for j in range(comb_ptr[comb], comb_ptr[comb + 1]):
            h = comb_hands[j]
            placeable[h] = True
            if v > stop[h]:
                stop[h] = v
    for h in range(stop.shape[0]):
        if placeable[h]:
            final[h] = stop[h]
        else:
            stop[h] = passing
            final[h] = lottery


@jit_flat
def _final_values(kind, params, board, game, seat, work):
    """Fill ``work.final_value`` and ``work.stop_value`` for ``seat``'s turn.

    ``stop_value[h]`` is the best placement value over the coasters open to
    ``seat`` that hand ``h`` shows (0: it places nothing and passes);
    ``final_value`` is the same, except that a hand placing nothing after the
    last roll is worth the Happy Hour die when the variant is played
    (:func:`_hand_values`).
    """
    cell_value = work.cell_value
    strategic = kind == K_STRATEGIC
    own_before = opp_before = 0.0
    had_line = False
    if strategic:  # count the lines once; each candidate changes those through its cell
        own, opened, term = work.line_own, work.line_open, work.line_term
        _count_lines(board, game, own, opened, term)
        own_before = _potential_after(board, game, seat, seat, -1, False, own, opened, term)
        opp_before = _others_after(board, game, seat, -1, False, own, opened, term)
        had_line = _has_line(board, game, seat)
    for c in range(game.cell_coaster.shape[0]):
        if not _open_to(game, seat, c):
            continue
        if strategic:
            cell_value[c] = _counted_value(params, board, game, seat, c, own_before, opp_before,
                                           had_line, work)  # fmt: skip
        else:
            cell_value[c] = float(_placement_points(board, game, seat, c))
    _hand_values(board, game, seat, work, 0.0, 0.0, _happy_hour_value(board, game, seat))
