r"""Numba kernels of the search: several turns (plies) over the learned evaluator (private).

A *ply* is one player's whole turn, solved exactly as the ``value`` agent
solves it (:func:`~pinastats._engine.decide._win_values`): the turn ends in one
of its outcome positions (a token on each open cell, a pass, each Happy Hour
face with ``strategic``'s choice for it), each final hand takes its best
outcome, and the turn DP of the dice layer picks every keep. A search of depth
``d`` values a position by ``d`` plies: the mover's turn, then the next
seats' in order, each outcome of ply ``i`` valued by the plies after it, and the
positions after the last ply by the network (exact where the game is over)::

    V(x, 0) = net(x)                               (a vector: each seat's chance)
    V(x, d) = E_dice[ V(o*(x, dice), d - 1) ]       o*: the mover's choice at x

Every value is a vector of the seats' chances to win (a game nobody wins counts
1/2 to each). What a mover maximises is the *variant*:

``max-n`` (:data:`MAXN`, the default)
    every mover maximises its own chance (Luckhardt and Irani's max-n).
``paranoid`` (:data:`PARANOID`)
    the root player maximises its chance and every other mover minimises it
    (Sturtevant and Korf's paranoid search); with two players it is max-n.
``best-reply`` (:data:`BEST_REPLY`)
    as ``paranoid``, but at an opponent's ply only the opponent whose reply
    is worst for the root replies (Schadd and Winands' best-reply search): an
    opponent whose next seat is also an opponent may instead pass (a legal
    turn: no token), handing the same ply to that seat; the lower of the two
    root values is taken. With two players it is max-n.

The *root* is the seat whose chance ``paranoid`` and ``best-reply`` guard:
the mover of the turn being decided (or, as an evaluator, of the turn whose
outcome positions are valued).

Ties, stated once: a keep is the dice layer's keep rule on the mover's own
criterion (:func:`~pinastats.dice._kernels._best_keep`: more than
``TIE_TOL`` better, or within it and more dice kept); a placement the first
open cell, in cell order, that beats the running best by more than
``TIE_TOL`` (the rule of :func:`~pinastats._engine.decide._choose_cell`); a
best-reply pass is taken only when it lowers the root's chance by more than
``TIE_TOL`` (else the earlier opponent replies). The mover's expected vector
under these choices is the *policy evaluation* of its turn: the same DP
stages, each seat's component carried through the chosen keeps.

Cost. Depth 1 is the ``value`` agent (the same numbers, to the last bit:
tested). Depth 2 expands every outcome of the mover (``M <= cells + 8``) into
the next seat's whole turn: ``M`` times ``M'`` network evaluations and
``M + 1`` turn DPs, each with its policy evaluation (``n`` passes of 1,260
additions per stage); no roll is sampled, so the search adds no variance,
only the network's error at the deeper leaves. Depth 3 multiplies that by
``M`` again (hundreds of milliseconds: for analysis, not for the board);
``best-reply`` multiplies each opponent ply by up to ``n - 1``.

The work is done in a :class:`SearchSpace` (one per thread), with an explicit
stack of nodes instead of recursion: level ``L`` holds a position, its
children (the outcome positions, then a best-reply pass) and their vectors.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from pinastats._arrays import BoolArray, FloatArray, IntArray
from pinastats._engine.decide import _best_happy_hour
from pinastats._engine.happy_hour import FACES, _apply_happy_hour, _happy_hour_options
from pinastats._engine.kinds import K_STRATEGIC
from pinastats._engine.net import NO_WINNER_SHARE, _features, _forward, _result
from pinastats._engine.rules import _cell_combination, _copy_game, _end_turn, _open_to, _place, _row
from pinastats._engine.state import StateBatch, state_batch
from pinastats._engine.values import _hand_values
from pinastats._jit import jit, jit_flat, jit_inline
from pinastats.dice._kernels import _best_keep, _expect_keeps, _solve_stages
from pinastats.dice.hands import N_HANDS, TIE_TOL

MAXN = 0
"""Variant: every mover maximises its own chance."""
PARANOID = 1
"""Variant: every mover but the root minimises the root's chance."""
BEST_REPLY = 2
"""Variant: paranoid, and only the opponent whose reply is worst for the root replies."""
VARIANTS = ("max-n", "paranoid", "best-reply")
"""The variants' names, by code."""

MAX_DEPTH = 3
"""Deepest search a :class:`SearchSpace` is made for (depth 3 is already slow)."""

_EMPTY_KEEP = 0  # keep index of no dice kept: the first roll of a turn
_FLOOR = -2.0  # below every criterion (chances in [0, 1], negated ones in [-1, 0])


class SearchSpace(NamedTuple):
    """Scratch memory of one search on one thread (:func:`new_search_space`).

    Attributes:
        states: level ``L``'s position in row ``L`` (row ``L + 1``: the child being made).
        over: whether each row's game is over.
        remaining: plies left below each level's position (its own turn included).
        children, n_open, at: each level's children, open cells, and the child being valued.
        skip: whether a level's last child is a best-reply pass.
        cells: each level's open cells, in cell order.
        vec: ``(levels, children, n)`` each child's vector of the seats' chances.
        result: ``(levels, n)`` each level's vector once its children are valued.
        final, stop: ``(n, 252)`` the policy's vector after the last roll and on stopping.
        hand, keep: ``(252,)`` and ``(462,)`` one component of the policy evaluation.
        choice: ``(rolls, 252)`` the mover's keep of each hand with ``r`` rolls left.
        placed: ``(2, 252)`` the child each hand ends in after the last roll and on stopping.
        counts: ``(2,)`` turns solved and leaves valued by the network (cumulative).
    """

    states: StateBatch
    over: BoolArray
    remaining: IntArray
    children: IntArray
    n_open: IntArray
    at: IntArray
    skip: BoolArray
    cells: IntArray
    vec: FloatArray
    result: FloatArray
    final: FloatArray
    stop: FloatArray
    hand: FloatArray
    keep: FloatArray
    choice: IntArray
    placed: IntArray
    counts: IntArray


def search_levels(depth: int, players: int) -> int:
    """Stack levels a search of ``depth`` needs (a best-reply pass keeps the ply's depth)."""
    return depth * max(players - 1, 1) + 1


def new_search_space(
    *, n_cells: int, players: int, rolls: int, depth: int = MAX_DEPTH
) -> SearchSpace:
    """A fresh :class:`SearchSpace` for searches of at most ``depth`` plies."""
    if not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"search depth must be 1 to {MAX_DEPTH}, got {depth}")
    levels = search_levels(depth, players)
    width = n_cells + 1 + FACES + 1
    return SearchSpace(
        states=state_batch(levels + 1, n_cells, players),
        over=np.zeros(levels + 1, dtype=np.bool_),
        remaining=np.zeros(levels, dtype=np.int64),
        children=np.zeros(levels, dtype=np.int64),
        n_open=np.zeros(levels, dtype=np.int64),
        at=np.zeros(levels, dtype=np.int64),
        skip=np.zeros(levels, dtype=np.bool_),
        cells=np.zeros((levels, n_cells), dtype=np.int64),
        vec=np.zeros((levels, width, players)),
        result=np.zeros((levels, players)),
        final=np.zeros((players, N_HANDS)),
        stop=np.zeros((players, N_HANDS)),
        hand=np.zeros(N_HANDS),
        keep=np.zeros(462),
        choice=np.zeros((max(rolls, 1), N_HANDS), dtype=np.int64),
        placed=np.zeros((2, N_HANDS), dtype=np.int64),
        counts=np.zeros(2, dtype=np.int64),
    )


@jit_flat
def _leaf(board, game, over, net, out, counts):
    """``out[s]``: seat ``s``'s chance from ``game``: exact when ``over``, else the network's.

    The same arithmetic as :func:`~pinastats._engine.net._position_value`.
    """
    n = game.players.shape[0]
    if over:
        for s in range(n):
            out[s] = _result(game, s)
        return
    counts[1] += 1
    _features(board, game, net, net.x)
    _forward(net, net.x)
    m = game.status[0].to_move
    for s in range(n):
        out[s] = net.out[(s - m) % n] + NO_WINNER_SHARE * net.out[n]


@jit_inline
def _open_node(board, space, level, remaining, variant, root):
    """Set up level ``level``'s node: its open cells and children (module docstring)."""
    game = _row(space.states, level)
    m = game.status[0].to_move
    n = game.players.shape[0]
    k = 0
    for c in range(game.cell_coaster.shape[0]):
        if _open_to(game, m, c):
            space.cells[level, k] = c
            k += 1
    space.n_open[level] = k
    count = k + 1
    if board.happy_hour:
        count += FACES
    skip = (variant == BEST_REPLY) & (m != root) & ((m + 1) % n != root)
    if skip:
        count += 1
    space.skip[level] = skip
    space.children[level] = count
    space.at[level] = 0
    space.remaining[level] = remaining


@jit_flat
def _make_child(params, board, work, space, level, j):
    """Row ``level + 1``: child ``j`` of level ``level`` (a cell, the pass, a face, the skip).

    A face's option is ``strategic``'s, as in the ``value`` agent's outcomes.
    """
    parent = _row(space.states, level)
    child = _row(space.states, level + 1)
    _copy_game(parent, child)
    m = parent.status[0].to_move
    k = space.n_open[level]
    if j < k:
        _place(board, child, m, space.cells[level, j])
    elif board.happy_hour and k < j <= k + FACES:
        effect = j - k
        n = _happy_hour_options(board, child, m, effect, work.options)
        if n > 0:
            option = _best_happy_hour(K_STRATEGIC, params, board, child, m, effect,
                                      work.options, n, 0.0, work.saved)  # fmt: skip
            _apply_happy_hour(board, child, m, effect, option)
    space.over[level + 1] = _end_turn(board, child)


@jit_flat
def _solve_node(board, tables, work, space, level, variant, root):
    """``space.result[level]``: the vector of level ``level``'s turn, its children valued.

    The mover's criterion (its own chance, or minus the root's) on each child
    gives the turn DP (``work.keep_value``, ``work.cell_value``: for the root
    level, what the agent plays by); the vector follows the DP's choices.
    """
    game = _row(space.states, level)
    m = game.status[0].to_move
    n = game.players.shape[0]
    k = space.n_open[level]
    vec = space.vec[level]
    seat = m
    sign = 1.0
    if (variant != MAXN) & (m != root):
        seat = root
        sign = -1.0
    for i in range(k):
        work.cell_value[space.cells[level, i]] = sign * vec[i, seat]
    passing = sign * vec[k, seat]
    lottery = passing
    if board.happy_hour:
        lottery = 0.0
        for e in range(1, FACES + 1):
            lottery += sign * vec[k + e, seat]
        lottery /= FACES
    _hand_values(board, game, m, work, _FLOOR, passing, lottery)
    stages = board.rolls - 1
    t = tables
    _solve_stages(work.final_value, work.stop_value, 1.0, stages, t.keep_levels, t.keep_plus,
                  t.keep_scale, t.hand_as_keep, t.keep_minus, work.hand_value,
                  work.keep_value)  # fmt: skip
    # each hand's placement (the agent's rule) and each stage's keep
    placed = space.placed
    for h in range(N_HANDS):
        best_i = -1
        best = 0.0
        for i in range(k):
            c = space.cells[level, i]
            if board.shows[_cell_combination(board, game, c), h]:
                v = work.cell_value[c]
                if best_i < 0 or v > best + TIE_TOL:
                    best_i = i
                    best = v
        placed[0, h] = best_i  # -1: the Happy Hour lottery (or the pass)
        placed[1, h] = best_i if best_i >= 0 else k
    for r in range(1, stages + 1):
        values = work.keep_value[r - 1]
        for h in range(N_HANDS):
            space.choice[r - 1, h] = _best_keep(values, t.hand_keep_ptr, t.hand_keep,
                                                t.keep_size, h)  # fmt: skip
    final, stop, hand, keep = space.final, space.stop, space.hand, space.keep
    for s in range(n):
        lot = vec[k, s]
        if board.happy_hour:
            lot = 0.0
            for e in range(1, FACES + 1):
                lot += vec[k + e, s]
            lot /= FACES
        for h in range(N_HANDS):
            i = placed[0, h]
            final[s, h] = lot if i < 0 else vec[i, s]
            stop[s, h] = vec[placed[1, h], s]
            hand[h] = final[s, h]
        for r in range(1, stages + 1):
            _expect_keeps(hand, stop[s], 1.0, t.keep_levels, t.keep_plus, t.keep_scale,
                          t.hand_as_keep, keep)  # fmt: skip
            for h in range(N_HANDS):
                hand[h] = keep[space.choice[r - 1, h]]
        _expect_keeps(hand, stop[s], 1.0, t.keep_levels, t.keep_plus, t.keep_scale,
                      t.hand_as_keep, keep)  # fmt: skip
        space.result[level, s] = keep[_EMPTY_KEEP]
    if space.skip[level]:
        j = space.children[level] - 1
        if vec[j, root] < space.result[level, root] - TIE_TOL:
            for s in range(n):
                space.result[level, s] = vec[j, s]
    space.counts[0] += 1


@jit_flat
def _search(params, board, tables, work, space, depth, variant, root, out):
    """``out``: the seats' chances from row 0 of ``space.states`` by ``depth`` plies.

    Row 0 holds the position and ``space.over[0]`` whether its game is over.
    When the position's turn is solved (``depth >= 1``, not over),
    ``work.keep_value`` and ``work.cell_value`` are left holding its mover's
    turn (the last DP solved): what the search agent plays.
    """
    states = space.states
    if space.over[0] or depth == 0:
        _leaf(board, _row(states, 0), space.over[0], work.net, out, space.counts)
        return
    _open_node(board, space, 0, depth, variant, root)
    level = 0
    while True:
        i = space.at[level]
        if i < space.children[level]:
            remaining = space.remaining[level] - 1
            if space.skip[level] and i == space.children[level] - 1:
                remaining += 1  # a best-reply pass hands the same ply on
            _make_child(params, board, work, space, level, i)
            if space.over[level + 1] or remaining == 0:
                _leaf(board, _row(states, level + 1), space.over[level + 1], work.net,
                      space.vec[level, i], space.counts)  # fmt: skip
                space.at[level] = i + 1
            else:
                level += 1
                _open_node(board, space, level, remaining, variant, root)
        else:
            _solve_node(board, tables, work, space, level, variant, root)
            if level == 0:
                for s in range(out.shape[0]):
                    out[s] = space.result[0, s]
                return
            level -= 1
            j = space.at[level]
            for s in range(out.shape[0]):
                space.vec[level, j, s] = space.result[level + 1, s]
            space.at[level] = j + 1


@jit
def _search_position(params, board, game, tables, work, space, depth, variant, root, out):
    """:func:`_search` from ``game`` (copied in; over when its end reason is set)."""
    _copy_game(game, _row(space.states, 0))
    space.over[0] = game.status[0].reason != 0
    _search(params, board, tables, work, space, depth, variant, root, out)


@jit
def _search_batch(params, board, batch, tables, work, space, depth, variant, root, out):
    """``out[i]``: :func:`_search_position` of state ``i`` of a batch (an evaluator's rows)."""
    for i in range(out.shape[0]):
        _search_position(params, board, _row(batch, i), tables, work, space, depth, variant,
                         root, out[i])  # fmt: skip
