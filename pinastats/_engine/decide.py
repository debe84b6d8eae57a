"""Numba kernels of the built-in agents' decisions (private).

An agent is a ``kind`` (the ``K_*`` constants) and a float parameter vector
(the ``PARAM_*`` slots). Decisions read the :class:`~pinastats._engine.state.Board`
``board`` and :class:`~pinastats._engine.state.GameState` ``game``, the
:class:`~pinastats._engine.work.TurnTables` ``tables`` and the agent's
:class:`~pinastats._engine.work.Workspace` ``work``.

The one-turn agents' dice follow the turn DP of :mod:`pinastats.dice._kernels`
on a value per final hand: ``final_value[h]`` after the last roll and
``stop_value[h]`` for stopping earlier (they differ only when Happy Hour is
played: a hand that places nothing then rolls the die after the last roll,
but passes when the player stops early).
"""

from __future__ import annotations

from pinastats._engine.happy_hour import FACES, _apply_happy_hour, _happy_hour_options
from pinastats._engine.kinds import K_EV, K_GREEDY, K_RANDOM, K_STRATEGIC, K_VALUE
from pinastats._engine.memo import (
    _keyed,
    _memo_holds,
    _memo_read,
    _memo_slot,
    _memo_write,
    _turn_key,
)
from pinastats._engine.net import _position_value
from pinastats._engine.rules import (
    _cell_combination,
    _copy_game,
    _end_turn,
    _has_line,
    _open_to,
    _place,
)
from pinastats._engine.state import GameState
from pinastats._engine.stream import _uniform
from pinastats._engine.values import (
    _final_values,
    _hand_values,
    _line_potential,
    _opponents_potential,
    _value_given,
)
from pinastats._jit import jit, jit_flat, jit_inline
from pinastats.dice._kernels import _best_keep, _solve_stages
from pinastats.dice.hands import TIE_TOL

_EPS = TIE_TOL  # placements and Happy Hour choices tie like keeps


@jit_inline
def _refuse_kind(kind):
    """Fail loudly on an agent kind a decision has no branch for (never play it as another)."""
    raise ValueError("agent kind not handled by this decision of the engine (_engine/kinds.py)")


@jit_inline
def _solves_turn(kind):
    """Whether ``kind`` prepares its turn (:func:`_prepare_turn`: ev, strategic and value).

    Random and greedy need no DP. A prepared turn also holds the agent's value of
    each open cell (``work.cell_value``), which :func:`_choose_cell` reads (for
    ``value``, always: it is never asked for a cell on a turn it did not prepare).
    """
    return (K_EV <= kind <= K_STRATEGIC) | (kind == K_VALUE)


@jit_flat
def _prepare_turn(kind, params, board, game, tables, work, seat):
    """Prepare this turn's decisions, which do not depend on the dice (ev, strategic, value).

    Fills ``work.cell_value`` and the rows ``K_r``, ``r = 1 .. rolls - 1``, of
    ``work.keep_value`` (:func:`_solve_turn`), or reads them back from the
    workspace's memo (:mod:`pinastats._engine.memo`) when it holds this turn
    (``ev`` and ``strategic`` only: ``value`` is solved every time, see
    :func:`~pinastats._engine.memo._keyed`).
    """
    if not _solves_turn(kind):
        return
    memo = work.memo
    if memo.keys.shape[0] == 0 or not _keyed(kind):
        _solve_turn(kind, params, board, game, tables, work, seat)
        return
    slot = _memo_slot(memo, _turn_key(kind, game, seat, memo.key))
    if _memo_holds(memo, slot, params):
        _memo_read(memo, slot, work.keep_value, work.cell_value)
    else:
        _solve_turn(kind, params, board, game, tables, work, seat)
        _memo_write(memo, slot, params, work.keep_value, work.cell_value)


@jit_flat
def _solve_turn(kind, params, board, game, tables, work, seat):
    """Solve this turn's DP for ``seat`` (ev, strategic, value) over ``rolls - 1`` re-rolls.

    The dice layer's driver (:func:`~pinastats.dice._kernels._solve_stages`) on
    the agent's final values, stopping worth ``stop_value`` (the best placement;
    no Happy Hour before the last roll): points and shape for ``ev`` and
    ``strategic`` (:func:`~pinastats._engine.values._final_values`), the
    network's win probabilities for ``value`` (:func:`_win_values`).
    """
    if kind == K_VALUE:
        _win_values(params, board, game, seat, work)
    elif (kind == K_EV) | (kind == K_STRATEGIC):
        _final_values(kind, params, board, game, seat, work)
    else:
        _refuse_kind(kind)
    t = tables
    _solve_stages(work.final_value, work.stop_value, 1.0, board.rolls - 1, t.keep_levels,
                  t.keep_plus, t.keep_scale, t.hand_as_keep, t.keep_minus, work.hand_value,
                  work.keep_value)  # fmt: skip


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
    if not _solves_turn(kind):
        _refuse_kind(kind)
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
    if (kind == K_GREEDY) | (kind == K_VALUE):  # valued by points, as ev, when not prepared
        kind = K_EV
    elif (kind != K_EV) & (kind != K_STRATEGIC):
        _refuse_kind(kind)
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


@jit_flat
def _outcome_value(params, board, game, seat, work, cell, effect):
    """``seat``'s win probability after its turn ends (by the network of ``work.net``).

    The turn ends with a token on ``cell`` (``cell >= 0``), else with the Happy
    Hour die's face ``effect`` (> 0; the option chosen as ``strategic`` chooses
    it), else by passing. Played on ``work.after``; ``game`` is left unchanged.
    """
    after = work.after
    _copy_game(game, after)
    if cell >= 0:
        _place(board, after, seat, cell)
    elif effect > 0:
        n = _happy_hour_options(board, after, seat, effect, work.options)
        if n > 0:
            option = _best_happy_hour(K_STRATEGIC, params, board, after, seat, effect,
                                      work.options, n, 0.0, work.saved)  # fmt: skip
            _apply_happy_hour(board, after, seat, effect, option)
    over = _end_turn(board, after)
    return _position_value(board, after, seat, work.net, over)


@jit_flat
def _win_values(params, board, game, seat, work):
    """Fill ``work.final_value``, ``work.stop_value`` and ``work.cell_value`` with win chances.

    The ``value`` agent's turn, as the coach's (:mod:`pinastats.coach.solve`) on
    the network's ``W``: ``stop[h]`` is the best ``W`` of the open cells hand
    ``h`` shows, else ``W(pass)``; ``final[h]`` the same, except that a hand
    placing nothing after the last roll is worth the Happy Hour lottery
    ``(1/6) sum_e W(e)`` when the variant is played.
    """
    for c in range(game.cell_coaster.shape[0]):
        if _open_to(game, seat, c):
            work.cell_value[c] = _outcome_value(params, board, game, seat, work, c, 0)
    passing = _outcome_value(params, board, game, seat, work, -1, 0)
    lottery = passing
    if board.happy_hour:
        lottery = 0.0
        for effect in range(1, FACES + 1):
            lottery += _outcome_value(params, board, game, seat, work, -1, effect)
        lottery /= FACES
    _hand_values(board, game, seat, work, -1.0, passing, lottery)
