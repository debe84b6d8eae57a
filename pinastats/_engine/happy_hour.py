"""The Happy Hour variant: the die, the choices of each effect, the effect, its reading.

Same conventions as :mod:`pinastats._engine.rules`. The die is rolled only by a
player who used all of the turn's rolls and cannot place a token
(:func:`pinastats._engine.turn._turn_ending` says when).

Everything one effect is made of lives here, beside its code and words in
:mod:`pinastats._engine.codes`:

* its options, encoded as ints (:func:`_happy_hour_options`): effects without a
  choice have the single option 0; "take back an own token" and "flip a
  coaster" the cell; "move another player's token" ``(cell*2 + space)*C + to``
  for another seat's token on ``(cell, space)`` and a cell ``to`` (``C`` cells);
* their reading back (:func:`describe_option`) and their most (:func:`option_capacity`);
* what it does (:func:`_apply_happy_hour`) and the roller's own points from it
  (:func:`_roller_points`, which the one-turn agents value the die by).
"""

from __future__ import annotations

import numpy as np

from pinastats._engine.codes import HappyHourEffect
from pinastats._engine.rules import _free_space, _owns
from pinastats._engine.state import NO_SEAT, SPACES, Board, GameState
from pinastats._engine.stream import _uniform
from pinastats._jit import jit_flat, jit_inline
from pinastats.dice.errors import whole_number
from pinastats.errors import PinastatsError

FACES = len(HappyHourEffect)
"""Faces of the Happy Hour die, one effect each (face ``f`` is effect ``f``)."""

_HH_LOSE = int(HappyHourEffect.LOSE_3)
_HH_REMOVE = int(HappyHourEffect.REMOVE_OWN_TOKEN)
_HH_OTHERS = int(HappyHourEffect.OTHERS_GAIN_1)
_HH_MOVE = int(HappyHourEffect.MOVE_OTHER_TOKEN)
_HH_FLIP = int(HappyHourEffect.FLIP_COASTER)
_HH_GAIN = int(HappyHourEffect.GAIN_4)

_LOSS, _GAIN, _OTHERS_GAIN = 3, 4, 1
"""The points of "lose 3", "gain 4" and "others gain 1"."""


def option_capacity(n_cells: int) -> int:
    """The most options any effect can have on ``n_cells`` cells: ``2 C**2 + 1``.

    "Move another player's token" encodes ``(cell*2 + space)*C + to`` below ``2 C**2``;
    the others stay below ``C``. Buffers for :func:`_happy_hour_options` have this size.
    """
    return SPACES * n_cells * n_cells + 1


@jit_inline
def _draw_happy_hour(rng):
    """The face of the Happy Hour die, 1 to :data:`FACES` (``floor(FACES u) + 1``)."""
    return int(_uniform(rng) * FACES) + 1


@jit_flat
def _happy_hour_options(board, game, seat, effect, out):
    """Write the encoded choices of a Happy Hour effect into ``out``; return their number.

    No option: the effect cannot apply. ``out`` needs room for
    :func:`option_capacity` options.
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


@jit_inline
def _score_after_loss(board, score):
    """A score after "lose 3": not below 0 unless negative scores are played, never up."""
    after = score - _LOSS
    if after < 0 and not board.negative_scores:
        after = 0
    return min(after, score)


@jit_inline
def _roller_points(board, game, seat, effect):
    """The points the roller's own score gains from ``effect`` (whatever the option)."""
    if effect == _HH_LOSE:
        score = game.players[seat].score
        return _score_after_loss(board, score) - score
    if effect == _HH_GAIN:
        return _GAIN
    return 0


@jit_flat
def _apply_happy_hour(board, game, seat, effect, option):
    """Apply a Happy Hour effect with a choice from :func:`_happy_hour_options`."""
    players, spaces = game.players, game.spaces
    n_cells = game.cell_coaster.shape[0]
    players[seat].score += _roller_points(board, game, seat, effect)
    if effect == _HH_REMOVE:
        for s in range(2):
            if spaces[option, s] == seat:
                spaces[option, s] = NO_SEAT
                players[seat].reserve += 1
    elif effect == _HH_OTHERS:
        for p in range(players.shape[0]):
            if p != seat:
                players[p].score += _OTHERS_GAIN
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


def as_effect(face: int | HappyHourEffect) -> HappyHourEffect:
    """The Happy Hour effect of a die face, checked (1 to :data:`FACES`)."""
    if isinstance(face, bool) or face not in set(HappyHourEffect):
        raise PinastatsError(f"the Happy Hour die shows 1 to {FACES}, got {face!r}")
    return HappyHourEffect(face)


def happy_hour_options(
    board: Board, state: GameState, seat: int, effect: HappyHourEffect | int
) -> list[int]:
    """The encoded choices of ``effect`` for ``seat`` (empty: it cannot apply)."""
    effect = as_effect(effect)
    out = np.zeros(option_capacity(len(state.cell_coaster)), dtype=np.int64)
    n = _happy_hour_options(board, state, seat, int(effect), out)
    return [int(x) for x in out[:n]]


def describe_option(state: GameState, effect: HappyHourEffect | int, option: int) -> dict[str, int]:
    """A readable form of an encoded option (the inverse of the encoding above).

    ``{"cell"}`` for "take back an own token" and "flip a coaster",
    ``{"from_cell", "owner", "to_cell"}`` for "move another player's token",
    ``{}`` for the effects without a choice. The option is checked to lie in the
    encoding's range.
    """
    effect = as_effect(effect)
    n = len(state.cell_coaster)

    def checked(count: int) -> int:
        what = f"an option of Happy Hour '{effect}'"
        return whole_number(option, what, 0, count - 1, PinastatsError)

    if effect is HappyHourEffect.MOVE_OTHER_TOKEN:
        code = checked(option_capacity(n) - 1)
        cell, space = divmod(code // n, 2)
        return {"from_cell": cell, "owner": int(state.spaces[cell, space]), "to_cell": code % n}
    if effect in (HappyHourEffect.REMOVE_OWN_TOKEN, HappyHourEffect.FLIP_COASTER):
        return {"cell": checked(n)}
    return {}
