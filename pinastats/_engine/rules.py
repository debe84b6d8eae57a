"""Numba kernels of the rules: the one implementation the Game object and the simulator share.

Every function takes the :class:`~pinastats._engine.state.Board` ``board`` and the
:class:`~pinastats._engine.state.GameState` ``game`` (named tuples of arrays) and
scalars. Random numbers come only from a ``numpy.random.Generator`` handed in by
the caller, in :func:`_roll` and :func:`_deal`.
"""

from __future__ import annotations

import numpy as np

from pinastats._engine.codes import EndReason, PlacementRule, Trigger
from pinastats._engine.state import NO_SEAT, GameState
from pinastats._engine.stream import _uniform
from pinastats._jit import jit, jit_flat, jit_inline

# the vocabulary's values as plain ints (numba folds module-level ints into constants)
_ONGOING = int(EndReason.ONGOING)
_PINA = int(EndReason.PINA_COLADICE)
_BY_SCORE = int(EndReason.SCORE)
_BY_TOKENS = int(EndReason.TOKENS)
_TIE_BREAK = int(EndReason.TIE_BREAK)
_DRAW = int(EndReason.DRAW)
_TURN_LIMIT = int(EndReason.TURN_LIMIT)
_NOT_TRIGGERED = int(Trigger.NONE)
_TRIGGER_SCORE = int(Trigger.SCORE)
_TRIGGER_TOKENS = int(Trigger.TOKENS)
PLACE_OK = int(PlacementRule.OK)
NO_RESERVE = int(PlacementRule.NO_RESERVE)
NO_MATCH = int(PlacementRule.NO_MATCH)
OWN_TOKEN = int(PlacementRule.OWN_TOKEN)
COASTER_FULL = int(PlacementRule.COASTER_FULL)


# ------------------------------------------------------------------ dice


_FACE_KEY = (6**5, 6**4, 6**3, 6**2, 6, 1)
"""What one die of face ``f + 1`` adds to the base-6 face-count key of a hand."""


@jit_inline
def _roll(rng, keep_counts, key_to_hand, keep):
    """Keep ``keep`` (a keep index), roll the other dice; return the new hand index.

    Each die is ``floor(6 u) + 1`` with ``u = _uniform(rng)``, drawn in order. The
    key ``sum_f counts[f] 6**(5-f)`` is built from the keep's counts, then each die
    adds its face's power of 6 (no copy of the counts).
    """
    key = 0
    kept = 0
    for f in range(6):
        key = key * 6 + keep_counts[keep, f]
        kept += keep_counts[keep, f]
    for _ in range(5 - kept):
        key += _FACE_KEY[int(_uniform(rng) * 6.0)]
    return key_to_hand[key]


# ------------------------------------------------------------------ cells


@jit_inline
def _owns(game, cell, seat):
    """Whether ``seat`` has a token on ``cell``."""
    spaces = game.spaces
    return (spaces[cell, 0] == seat) | (spaces[cell, 1] == seat)


@jit_inline
def _free_space(game, cell):
    """First free space of a cell (0 or 1), or -1 if the coaster is full."""
    for s in range(1 + game.cell_side[cell]):
        if game.spaces[cell, s] < 0:
            return s
    return -1


@jit_inline
def _closed_reason(game, seat, cell):
    """Why ``seat`` could not place on ``cell`` even with matching dice (``PLACE_OK``: it could).

    Needs a token in reserve, no own token on the coaster and a free space.
    """
    free = False
    own = False
    for s in range(1 + game.cell_side[cell]):
        t = game.spaces[cell, s]
        own |= t == seat
        free |= t < 0
    reason = PLACE_OK
    if not free:
        reason = COASTER_FULL
    if own:
        reason = OWN_TOKEN
    if game.players[seat].reserve <= 0:
        reason = NO_RESERVE
    return reason


@jit_inline
def _open_to(game, seat, cell):
    """Whether ``seat`` could place on ``cell`` with matching dice."""
    return _closed_reason(game, seat, cell) == PLACE_OK


@jit_inline
def _cell_combination(board, game, cell):
    """Combination index of the coaster on ``cell``."""
    return board.coaster_combination[game.cell_coaster[cell]]


@jit_inline
def _placement_error(board, game, seat, cell, hand):
    """``PLACE_OK`` if ``seat`` may place on ``cell`` with final hand ``hand``, else the rule.

    Checked in order: a token in reserve, dice showing the coaster's combination,
    no own token on it, a free space.
    """
    reason = _closed_reason(game, seat, cell)
    if reason == NO_RESERVE:
        return reason
    shows = board.shows[_cell_combination(board, game, cell), hand]
    return reason if shows else NO_MATCH


@jit_inline
def _legal_cells(board, game, seat, hand, out):
    """``out[c]`` = placing on cell ``c`` is legal with final hand ``hand``; return the count."""
    n = 0
    for c in range(out.shape[0]):
        ok = _placement_error(board, game, seat, c, hand) == PLACE_OK
        out[c] = ok
        n += ok
    return n


@jit_inline
def _placement_points(board, game, seat, cell):
    """Points of placing on ``cell``: the free space's value + 1 per own neighbouring token."""
    points = board.coaster_points[
        game.cell_coaster[cell], game.cell_side[cell], _free_space(game, cell)
    ]
    neighbours = board.neighbours
    for i in range(neighbours.shape[1]):
        n = neighbours[cell, i]
        if n < 0:
            break
        points += _owns(game, n, seat)
    return points


@jit_inline
def _place(board, game, seat, cell):
    """Place a token of ``seat`` on ``cell`` (legality checked by the caller); return points."""
    points = _placement_points(board, game, seat, cell)
    game.spaces[cell, _free_space(game, cell)] = seat
    player = game.players[seat]
    status = game.status[0]
    player.score += points
    player.reserve -= 1
    status.placements += 1
    player.last_placed = status.placements
    return points


@jit_inline
def _winning_line(board, game, seat):
    """Index of the first winning line (row, column, diagonal) ``seat`` owns entirely, or -1."""
    lines = board.lines
    for i in range(lines.shape[0]):
        full = True
        for j in range(lines.shape[1]):
            c = lines[i, j]
            if c < 0:
                break
            if not _owns(game, c, seat):
                full = False
                break
        if full:
            return i
    return -1


@jit_inline
def _has_line(board, game, seat):
    """Whether ``seat`` owns every cell of some winning line (PIÑA COLADICE)."""
    return _winning_line(board, game, seat) >= 0


# ------------------------------------------------------------------ end of turn


@jit_inline
def _decide_by_score(game):
    """Set winner and reason at the end of the final round (highest score, then recency)."""
    players = game.players
    best = players[0].score
    for p in range(players.shape[0]):
        best = max(best, players[p].score)
    n_leaders = 0
    winner = NO_SEAT
    latest = 0
    for p in range(players.shape[0]):
        if players[p].score == best:
            n_leaders += 1
            if players[p].last_placed > latest:
                latest = players[p].last_placed
                winner = p
    status = game.status[0]
    if n_leaders == 1:
        for p in range(players.shape[0]):
            if players[p].score == best:
                winner = p
        status.reason = _BY_SCORE if status.trigger == _TRIGGER_SCORE else _BY_TOKENS
    elif winner >= 0:
        status.reason = _TIE_BREAK
    else:
        status.reason = _DRAW
    status.winner = winner


@jit_inline
def _judge(board, game, mover):
    """The end check after ``mover``'s turn; return True if the game is over.

    ``status.turn`` already counts that turn. A line wins at once (``mover``
    is checked first, then the others in turn order); a score >= target or an
    empty reserve triggers the end, which comes when the round is complete
    (``turn`` a multiple of the player count: every player had as many turns).
    Used after every turn and on loading a position.
    """
    status, players = game.status[0], game.players
    n = players.shape[0]
    for i in range(n):
        p = (mover + i) % n
        if _has_line(board, game, p):
            status.winner = p
            status.reason = _PINA
            status.trigger = _NOT_TRIGGERED
            return True
    if status.trigger == _NOT_TRIGGERED:
        for i in range(n):
            if players[(mover + i) % n].score >= board.target_score:
                status.trigger = _TRIGGER_SCORE
                break
        if status.trigger == _NOT_TRIGGERED:
            for i in range(n):
                if players[(mover + i) % n].reserve == 0:
                    status.trigger = _TRIGGER_TOKENS
                    break
    if status.trigger != _NOT_TRIGGERED and status.turn % n == 0:
        _decide_by_score(game)
        return True
    return False


@jit_inline
def _end_turn(board, game):
    """End the mover's turn: count it, pass the dice, judge the position; True if over."""
    status = game.status[0]
    mover = status.to_move
    status.turn += 1
    status.to_move = (mover + 1) % game.players.shape[0]
    if _judge(board, game, mover):
        return True
    if status.turn >= board.max_turns:
        status.reason = _TURN_LIMIT
        status.winner = NO_SEAT
        return True
    return False


# ------------------------------------------------------------------ setup


@jit_flat
def _start_game(game, first, start_scores, tokens_each):
    """Reset tokens, scores (``start_scores[i]`` for the i-th player in turn order) and status."""
    spaces = game.spaces
    for c in range(spaces.shape[0]):
        for s in range(spaces.shape[1]):
            spaces[c, s] = NO_SEAT
    players = game.players
    n = players.shape[0]
    for i in range(n):
        p = players[(first + i) % n]
        p.score = start_scores[i]
        p.reserve = tokens_each
        p.last_placed = 0
    status = game.status[0]
    status.turn = 0
    status.trigger = _NOT_TRIGGERED
    status.reason = _ONGOING
    status.placements = 0
    status.first = first
    status.to_move = first
    status.winner = NO_SEAT


@jit_flat
def _deal_into(rng, game, pool, sides, start_scores, tokens_each):
    """Set up a game at random: coasters, sides, first player, scores and reserves.

    ``pool`` is scratch room for the catalogue's ``n`` coaster indices. Cell ``c``
    gets the ``c``-th coaster of a uniformly random arrangement of the catalogue
    (partial Fisher-Yates with ``_uniform(rng)``: ``j = c + floor((n - c) u)``);
    ``sides`` gives each cell's side; the first player is drawn uniformly.
    """
    n_coasters = pool.shape[0]
    for i in range(n_coasters):
        pool[i] = i
    cells = game.cell_coaster
    for c in range(cells.shape[0]):
        j = c + int(_uniform(rng) * (n_coasters - c))
        pool[c], pool[j] = pool[j], pool[c]
        cells[c] = pool[c]
    for c in range(cells.shape[0]):
        game.cell_side[c] = sides[c]
    first = int(_uniform(rng) * game.players.shape[0])
    _start_game(game, first, start_scores, tokens_each)


@jit
def _deal(rng, game, n_coasters, sides, start_scores, tokens_each):
    """:func:`_deal_into` with a fresh pool of ``n_coasters`` (for calls from Python)."""
    _deal_into(rng, game, np.empty(n_coasters, dtype=np.int64), sides, start_scores, tokens_each)


@jit_inline
def _row(batch, i):
    """State ``i`` of a :class:`~pinastats._engine.state.StateBatch`, as views of its rows."""
    return GameState(batch.cell_coaster[i], batch.cell_side[i], batch.spaces[i],
                     batch.players[i], batch.status[i])  # fmt: skip


@jit_flat
def _copy_game(source, target):
    """Copy every array of the state ``source`` into ``target`` (same shapes), element-wise."""
    for c in range(source.cell_coaster.shape[0]):
        target.cell_coaster[c] = source.cell_coaster[c]
        target.cell_side[c] = source.cell_side[c]
        for s in range(source.spaces.shape[1]):
            target.spaces[c, s] = source.spaces[c, s]
    for p in range(source.players.shape[0]):
        target.players[p] = source.players[p]
    target.status[0] = source.status[0]
