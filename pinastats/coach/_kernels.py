"""Numba kernels of the coach: one play-out to the end, and the keep of every hand (private).

A play-out starts from an outcome position (the state after the mover's turn),
plays every seat with one built-in one-turn agent (``kind``, ``params``) with
the engine's play-out loop :func:`pinastats.agents._rollout._play_to_end`, and
scores the game for one seat: 1 for a win, 1/2 for no winner (a draw or the
turn limit), 0 for a loss.
"""

from __future__ import annotations

from typing import Any

from pinastats._jit import jit
from pinastats.agents._rollout import _play_to_end
from pinastats.dice._kernels import _best_keep
from pinastats.game._kernels import _copy_game


@jit
def _play_out(
    kind: int, params: Any, board: Any, start: Any, game: Any, tables: Any, work: Any, rng: Any,
    seat: int,
) -> float:  # fmt: skip
    """Copy ``start`` into ``game``, play it to the end; return :func:`_result` for ``seat``.

    ``start`` must be a game still running. ``work`` is the agent's scratch
    memory; ``game`` is overwritten (it may be ``work.playout``).
    """
    _copy_game(start, game)
    result: float = _play_to_end(kind, params, board, game, tables, work, rng, seat)
    return result


@jit
def _best_keeps(
    keep_value: Any, hand_keep_ptr: Any, hand_keep: Any, keep_size: Any, out: Any
) -> None:
    """``out[h]``: the keep the dice layer's keep rule plays from hand ``h`` (``keep_value``)."""
    for h in range(out.shape[0]):
        out[h] = _best_keep(keep_value, hand_keep_ptr, hand_keep, keep_size, h)
