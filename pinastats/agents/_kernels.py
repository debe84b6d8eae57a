"""Numba kernels of the built-in agents' decisions (private).

An agent is a ``kind`` (the ``K_*`` constants) and a float parameter vector
(the ``PARAM_*`` slots). Decisions read the :class:`~pinastats.game._state.Board`
``board`` and :class:`~pinastats.game._state.GameState` ``game``, the
:class:`~pinastats.agents.tables.TurnTables` ``tables`` and the agent's
:class:`~pinastats.agents.tables.Workspace` ``work``.

The one-turn agents' dice follow the turn DP of :mod:`pinastats.dice._kernels`
on a value per final hand: ``final_value[h]`` after the last roll and
``stop_value[h]`` for stopping earlier (they differ only when Happy Hour is
played: a hand that places nothing then rolls the die after the last roll,
but passes when the player stops early).
"""

from __future__ import annotations

from pinastats._jit import jit, jit_flat, jit_inline
from pinastats.agents._lines import _count_lines, _others_after, _potential_after
from pinastats.dice._kernels import _best_keep, _best_of_keeps, _expect_keeps
from pinastats.dice.ranking import TIE_TOL
from pinastats.game._happy_hour import _apply_happy_hour
from pinastats.game._kernels import (
    _cell_combination,
    _copy_game,
    _has_line,
    _open_to,
    _owns,
    _placement_points,
)
from pinastats.game._random import _uniform
from pinastats.game._state import GameState

K_RANDOM, K_GREEDY, K_EV, K_STRATEGIC, K_ROLLOUT = 0, 1, 2, 3, 4
# parameter slots (see pinastats.agents.builtin.PARAMETERS)
PARAM_LINE, PARAM_BLOCK, PARAM_RACE, PARAM_WIN, PARAM_ROLLOUTS, PARAM_POLICY = 0, 1, 2, 3, 4, 5

_EPS = TIE_TOL  # placements and Happy Hour choices tie like keeps


# ------------------------------------------------------------------ position


@jit_inline
def _room_for(game, cell):
    """Whether ``cell`` still has a free token space."""
    for s in range(1 + game.cell_side[cell]):
        if game.spaces[cell, s] < 0:
            return True
    return False


@jit_flat
def _line_potential(board, game, seat):
    """Sum over the lines still open to ``seat`` of ``(own tokens / line length)**2``.

    A line is open to ``seat`` while each of its coasters is either theirs or
    still has a free space.
    """
    lines = board.lines
    total = 0.0
    for i in range(lines.shape[0]):
        own = 0
        length = 0
        open_line = True
        for j in range(lines.shape[1]):
            c = lines[i, j]
            if c < 0:
                break
            length += 1
            if _owns(game, c, seat):
                own += 1
            elif not _room_for(game, c):
                open_line = False
                break
        if open_line and length > 0:
            total += (own * own) / (length * length)
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
def _counted_value(params, board, game, seat, cell, own_before, opp_before, work):
    """The ``strategic`` :func:`_value_given` from the line counts of ``work``.

    ``seat`` must be free to place on ``cell``; the counts are those of the
    position (:func:`~pinastats.agents._lines._count_lines`).
    """
    points = _placement_points(board, game, seat, cell)
    spaces = game.spaces
    space = 0 if spaces[cell, 0] < 0 else 1
    # no free space left after it (side B's space 1 may hold a token while space 0 is free)
    closes = game.cell_side[cell] == 0 or space == 1 or spaces[cell, 1] >= 0
    spaces[cell, space] = seat
    wins = _has_line(board, game, seat)
    spaces[cell, space] = -1
    own, opened = work.line_own, work.line_open
    own_after = _potential_after(board, game, seat, seat, cell, closes, own, opened)
    opp_after = _others_after(board, game, seat, cell, closes, own, opened)
    return _shape_value(
        params, board, game, seat, points, wins, own_after - own_before, opp_before - opp_after
    )


@jit_inline
def _happy_hour_value(board, game, seat):
    """Expected points of the Happy Hour die for ``seat``: ``(4 - loss of "lose 3") / 6``.

    The one-turn agents value the lottery by its points for the roller alone:
    "gain 4" and "lose 3" (not below 0 unless negative scores are allowed);
    the other effects score nothing for the roller.
    """
    if not board.happy_hour:
        return 0.0
    loss = 3
    score = game.players[seat].score
    if not board.negative_scores and score < 3:
        loss = max(score, 0)
    return (4.0 - loss) / 6.0


@jit_flat
def _final_values(kind, params, board, game, seat, work):
    """Fill ``work.final_value`` and ``work.stop_value`` for ``seat``'s turn.

    ``stop_value[h]`` is the best placement value over the coasters open to
    ``seat`` that hand ``h`` shows (0: it places nothing and passes);
    ``final_value`` is the same, except that a hand placing nothing after the
    last roll is worth the Happy Hour die when the variant is played.
    """
    stop = work.stop_value
    cell_value = work.cell_value
    comb_ptr, comb_hands = board.comb_ptr, board.comb_hands
    placeable = work.placeable
    for h in range(stop.shape[0]):
        stop[h] = 0.0
        placeable[h] = False
    strategic = kind == K_STRATEGIC
    own_before = opp_before = 0.0
    if strategic:  # count the lines once; each candidate changes those through its cell
        _count_lines(board, game, work.line_own, work.line_open)
        own_before = _potential_after(board, game, seat, seat, -1, False, work.line_own,
                                      work.line_open)  # fmt: skip
        opp_before = _others_after(board, game, seat, -1, False, work.line_own, work.line_open)
    for c in range(game.cell_coaster.shape[0]):
        if not _open_to(game, seat, c):
            continue
        if strategic:
            v = _counted_value(params, board, game, seat, c, own_before, opp_before, work)
        else:
            v = float(_placement_points(board, game, seat, c))
        cell_value[c] = v
        comb = _cell_combination(board, game, c)
        for j in range(comb_ptr[comb], comb_ptr[comb + 1]):
            h = comb_hands[j]
            placeable[h] = True
            if v > stop[h]:
                stop[h] = v
    final = work.final_value
    lottery = _happy_hour_value(board, game, seat)
    for h in range(final.shape[0]):
        final[h] = lottery if lottery != 0.0 and not placeable[h] else stop[h]


@jit_inline
def _solves_turn(kind):
    """Whether ``kind`` prepares its turn (:func:`_prepare_turn`: ev and strategic).

    Random and greedy need no DP. A prepared turn also holds the agent's value of
    each open cell (``work.cell_value``), which :func:`_choose_cell` can read.
    """
    return K_EV <= kind <= K_STRATEGIC


@jit_flat
def _prepare_turn(kind, params, board, game, tables, work, seat):
    """Solve this turn's DP, which does not depend on the dice (ev, strategic).

    ``hand_value[0] = final_value``; for ``r = 1 .. rolls - 1``:
    ``keep_value[r-1] = K_r`` (stopping worth ``stop_value``) and, below the
    top stage, ``hand_value[r] = max over keeps`` (the next row of
    ``keep_value`` as scratch memory).
    """
    if not _solves_turn(kind):
        return
    _final_values(kind, params, board, game, seat, work)
    hand_value, keep_value = work.hand_value, work.keep_value
    for h in range(work.final_value.shape[0]):
        hand_value[0, h] = work.final_value[h]
    t = tables
    for r in range(1, board.rolls):
        _expect_keeps(hand_value[r - 1], work.stop_value, 1.0, t.keep_levels, t.keep_plus,
                      t.keep_scale, t.hand_as_keep, keep_value[r - 1])  # fmt: skip
        if r < board.rolls - 1:
            _best_of_keeps(keep_value[r - 1], t.keep_minus, t.hand_as_keep, keep_value[r],
                           hand_value[r])  # fmt: skip


@jit_inline
def _keep_of(values, tables, hand):
    """The keep played from ``hand`` under ``values[k]`` (the dice layer's one keep rule)."""
    return _best_keep(values, tables.hand_keep_ptr, tables.hand_keep, tables.keep_size, hand)


@jit_inline
def _dp_keep(tables, work, hand, rolls_left):
    """Optimal keep for the prepared value function with ``rolls_left`` rolls left."""
    return _keep_of(work.keep_value[rolls_left - 1], tables, hand)


@jit_inline
def _choice_uniform(draw, rng):
    """The uniform a ``random`` agent's pick uses: ``_uniform(rng)`` when ``draw``, else 0.

    :func:`_pick_cell` and :func:`_pick_happy_hour` draw it (at the moment of the
    pick, so the order of draws is the turn's) and the pick kernels take the
    number, not the stream: they compile once for every kind of stream (a
    game's Generator, a play-out's stream).
    """
    u = 0.0
    if draw:
        u = _uniform(rng)
    return u


@jit_inline
def _pick_cell(kind, params, board, game, seat, legal, rng, values, prepared):
    """:func:`_choose_cell`, ``random`` drawing its uniform from ``rng`` (every time it places)."""
    u = _choice_uniform(kind == K_RANDOM, rng)
    return _choose_cell(kind, params, board, game, seat, legal, u, values, prepared)


@jit_inline
def _pick_happy_hour(kind, params, board, game, seat, effect, options, n, rng, saved):
    """:func:`_best_happy_hour`, ``random`` drawing its uniform from ``rng`` (from two options)."""
    u = _choice_uniform((kind == K_RANDOM) & (n > 1), rng)
    return _best_happy_hour(kind, params, board, game, seat, effect, options, n, u, saved)


@jit_flat
def _choose_keep(kind, params, board, game, tables, work, seat, hand, rolls_left):
    """Keep index chosen with ``rolls_left`` rolls left (the whole hand = stop)."""
    if kind == K_RANDOM:
        return tables.hand_as_keep[hand]
    if kind == K_GREEDY:
        targets = tables.target_keep_value
        best_c = -1
        best = -1.0
        for c in range(game.cell_coaster.shape[0]):
            if _open_to(game, seat, c):
                values = targets[_cell_combination(board, game, c), rolls_left - 1]
                v = values[_keep_of(values, tables, hand)]
                if v > best + _EPS:
                    best = v
                    best_c = c
        if best_c < 0:
            return tables.hand_as_keep[hand]
        values = targets[_cell_combination(board, game, best_c), rolls_left - 1]
        return _keep_of(values, tables, hand)
    return _dp_keep(tables, work, hand, rolls_left)


@jit_flat
def _choose_cell(kind, params, board, game, seat, legal, u, values, prepared):
    """The legal cell chosen for the token (``legal`` is a boolean mask with a True).

    ``random`` takes legal cell number ``floor(n u)`` of the ``n``, ``u`` from
    :func:`_choice_uniform` (drawn whenever ``random`` places). The others take
    the legal cell of highest value (the first of those within ``_EPS``), valued
    by ``ev`` (greedy too) or ``strategic``. With ``prepared`` (ev or strategic
    on the position its turn was prepared on) ``values[c]`` is that value,
    counted by :func:`_final_values`; else each legal cell is valued here (the
    same numbers, to the last bit: tested).
    """
    n_cells = legal.shape[0]
    if kind == K_RANDOM:
        n = 0
        for c in range(n_cells):
            n += legal[c]
        pick = int(u * n)
        for c in range(n_cells):
            if legal[c]:
                if pick == 0:
                    return c
                pick -= 1
    best_c = -1
    best = 0.0
    kind = kind if kind == K_STRATEGIC else K_EV
    own_before = opp_before = 0.0
    if kind == K_STRATEGIC and not prepared:  # the position's potentials, once
        own_before = _line_potential(board, game, seat)
        opp_before = _opponents_potential(board, game, seat)
    for c in range(n_cells):
        if legal[c]:
            if prepared:
                v = values[c]
            else:
                v = _value_given(kind, params, board, game, seat, c, own_before, opp_before)
            if best_c < 0 or v > best + _EPS:
                best_c = c
                best = v
    return best_c


@jit_flat
def _best_happy_hour(kind, params, board, game, seat, effect, options, n, u, saved):
    """Pick one of ``n`` Happy Hour options; ``saved`` is scratch room for a state.

    ``random`` picks option ``floor(n u)``, ``u`` from :func:`_choice_uniform`
    (drawn when ``random`` has more than one option). The others maximise own
    line potential minus the opponents' (never completing an opponent's line),
    trying each option on the position and restoring it from ``saved`` (not
    ``work.playout``: a play-out may be the position itself).
    """
    if n == 1:
        return options[0]
    if kind == K_RANDOM:
        return options[int(u * n)]
    players = game.players
    best_i = 0
    best = -1e300
    _copy_game(game, saved)
    for i in range(n):
        _apply_happy_hour(board, game, seat, effect, options[i])
        value = _line_potential(board, game, seat) - _opponents_potential(board, game, seat)
        for p in range(players.shape[0]):
            if p != seat and _has_line(board, game, p):
                value -= 1e6
        if value > best + _EPS:
            best = value
            best_i = i
        _copy_game(saved, game)
    return options[best_i]


@jit
def _choose_happy_hour(kind, params, board, game, seat, effect, options, n, rng):
    """:func:`_pick_happy_hour` with a fresh copy of the state (for calls from Python)."""
    saved = GameState(
        game.cell_coaster.copy(),
        game.cell_side.copy(),
        game.spaces.copy(),
        game.players.copy(),
        game.status.copy(),
    )
    return _pick_happy_hour(kind, params, board, game, seat, effect, options, n, rng, saved)
